"""Clickable labelled boxes in window pixels: the launcher's cards and the end-of-level choices.

Plain arithmetic and ``Draw`` calls (no ``arcade.gui``, which does not import headless).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_FILL = (58, 76, 122, 235)
_HOVER = (86, 112, 176, 245)
_TEXT = (235, 240, 252)
_PANEL_SOLID = (12, 14, 24, 255)


@dataclass
class Button:
    """A box ``(x, y, w, h)`` (window px, y up, bottom-left corner) that does ``action``."""

    label: str
    action: str
    x: float
    y: float
    w: float = 150.0
    h: float = 40.0
    key: str = ""

    def contains(self, sx: float, sy: float) -> bool:
        """Whether window pixel ``(sx, sy)`` is inside (edges included)."""
        return self.x <= sx <= self.x + self.w and self.y <= sy <= self.y + self.h


def hit(buttons: list[Button], sx: float, sy: float) -> str | None:
    """The action of the button under ``(sx, sy)``, or None."""
    return next((b.action for b in buttons if b.contains(sx, sy)), None)


def draw_buttons(draw: Any, buttons: list[Button], hover: tuple[float, float] | None = None,
                 size: float = 13) -> None:
    """Draw ``buttons`` (the one under ``hover`` lighter) with a screen-space ``Draw``."""
    for b in buttons:
        lit = hover is not None and b.contains(*hover)
        draw.rect(b.x, b.y, b.w, b.h, _HOVER if lit else _FILL)
        label = f"{b.label}  [{b.key}]" if b.key else b.label
        draw.text(b.x + b.w / 2, b.y + b.h / 2, label, _TEXT, size, anchor_x="center",
                  anchor_y="center")


#: Height (window px) of the end-of-level strip along the window's top edge.
RESULT_BAND = 44


def result_buttons(result: str, has_next: bool, width: int, height: int) -> list[Button]:
    """The end-of-level choices: won → next level, retry, menu; lost → retry, menu.

    They sit at the right of a strip along the window's top edge (where the HUD band
    is), so the finished level stays in view: no Om Nom, pipe or pile under them.
    """
    choices = ([("next level", "next", "Enter")] if result == "won" and has_next else [])
    choices += [("retry", "retry", "R"), ("menu", "menu", "Esc")]
    w, h, gap = 140.0, 32.0, 8.0
    x = width - 10 - len(choices) * w - (len(choices) - 1) * gap
    y = height - RESULT_BAND + (RESULT_BAND - h) / 2
    return [Button(label, action, x + i * (w + gap), y, w, h, key)
            for i, (label, action, key) in enumerate(choices)]


def draw_result(draw: Any, result: str, lines: list[str], buttons: list[Button], width: int,
                height: int) -> None:
    """The end-of-level strip over the HUD band: the result and ``lines`` left, the choices
    right."""
    draw.rect(0, height - RESULT_BAND, width, RESULT_BAND, _PANEL_SOLID)
    color = (120, 235, 140) if result == "won" else (255, 110, 110)
    title = "Level complete!" if result == "won" else "Try again"
    draw.text(12, height - 19, title, color, 13, bold=True)
    draw.text(12, height - 37, "   ".join(lines), _TEXT, 11)
    draw_buttons(draw, buttons, size=11)
