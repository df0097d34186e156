"""Clickable labelled boxes in window pixels: the launcher's cards and the end-of-level choices.

Plain arithmetic and ``Draw`` calls (no ``arcade.gui``, which does not import headless).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_FILL = (58, 76, 122, 235)
_HOVER = (86, 112, 176, 245)
_TEXT = (235, 240, 252)
_PANEL = (12, 14, 24, 225)


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


def draw_buttons(draw: Any, buttons: list[Button], hover: tuple[float, float] | None = None
                 ) -> None:
    """Draw ``buttons`` (the one under ``hover`` lighter) with a screen-space ``Draw``."""
    for b in buttons:
        lit = hover is not None and b.contains(*hover)
        draw.rect(b.x, b.y, b.w, b.h, _HOVER if lit else _FILL)
        label = f"{b.label}  [{b.key}]" if b.key else b.label
        draw.text(b.x + b.w / 2, b.y + b.h / 2, label, _TEXT, 13, anchor_x="center",
                  anchor_y="center")


def result_buttons(result: str, has_next: bool, width: int, height: int) -> list[Button]:
    """The end-of-level choices: won → next level, retry, menu; lost → retry, menu.

    They sit low in the window (a quarter of the way up), below the middle
    where games draw their own banner ("Om Nom is fed!").
    """
    choices = ([("next level", "next", "Enter")] if result == "won" and has_next else [])
    choices += [("retry", "retry", "R"), ("menu", "menu", "Esc")]
    w, gap = 150.0, 16.0
    x = width / 2 - (len(choices) * w + (len(choices) - 1) * gap) / 2
    y = height / 4 - 20
    return [Button(label, action, x + i * (w + gap), y, w, 40.0, key)
            for i, (label, action, key) in enumerate(choices)]


def draw_result(draw: Any, result: str, lines: list[str], buttons: list[Button], width: int,
                height: int) -> None:
    """The end-of-level panel in the window's middle: the result, ``lines``, the choices."""
    pw = max(420.0, buttons[-1].x + buttons[-1].w - buttons[0].x + 40)
    y = buttons[0].y
    draw.rect(width / 2 - pw / 2, y - 16, pw, 120, _PANEL)
    color = (120, 235, 140) if result == "won" else (255, 110, 110)
    title = "Level complete!" if result == "won" else "Try again"
    draw.text(width / 2 - pw / 2 + 20, y + 74, title, color, 18, bold=True)
    draw.text(width / 2 + pw / 2 - 20, y + 74, "   ".join(lines), _TEXT, 13, anchor_x="right")
    draw_buttons(draw, buttons)
