"""Our own small widget layer: a panel of sliders, toggles and buttons in screen pixels.

``arcade.gui`` does not import in headless mode, so the player lays out, draws
(with the ``Draw`` helper) and routes clicks to a game's ``Widget`` list itself;
the same code runs windowed and headless. Layout and hit testing are plain
arithmetic (tested without GL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game import Widget

PANEL_WIDTH = 196
ROW = {"slider": 40, "toggle": 26, "button": 30}
MARGIN = 10
#: Height (px) of the panel's header, which folds the panel away or opens it again.
HEADER = 24
#: The open panel fills its column down to the footer band: its rows grow up to this
#: factor to take the room (larger controls), and the panel's background runs to the
#: column's foot beyond that (a sidebar, not a dark empty patch below the controls).
STRETCH = 1.35
#: A game whose widgets are all buttons gets them in a strip at the footer band's right
#: end instead of a side panel (no column of empty panel beside the world): each button's
#: height and, per character of its label, its width (px), and the gap between buttons.
STRIP_H, STRIP_CHAR, STRIP_GAP = 18, 7, 6
_PANEL = (20, 23, 36, 200)
_TRACK = (80, 90, 120)
_ACCENT = (110, 200, 255)
_TEXT = (225, 230, 245)
_BUTTON = (66, 84, 130)


@dataclass
class _Slot:
    widget: Widget
    x: float
    y: float
    w: float
    h: float

    def contains(self, sx: float, sy: float) -> bool:
        return _inside((self.x, self.y, self.w, self.h), sx, sy)


class WidgetLayer:
    """Lays ``widgets`` out in a panel at the window's right edge and routes pointer events.

    ``press``/``drag``/``release`` take window pixels (y up) and return whether a
    widget took the event (then the game does not see it). ``top`` is the px left
    free above the panel (the player's HUD band), ``bottom`` the px below it (the
    footer band): the open panel fills the column between them (``STRETCH``). The
    panel's header folds it away (``collapsed``) and opens it again; ``width()`` is
    what it takes at the right edge, which the player keeps out of the play area.
    """

    def __init__(self, widgets: list[Widget], width: int, height: int, top: int = 0,
                 collapsed: bool = False, bottom: int = 0) -> None:
        self.widgets = list(widgets)
        self.active: _Slot | None = None
        self.collapsed = collapsed
        self.top, self.bottom = top, bottom
        self.layout(width, height)

    @property
    def strip(self) -> bool:
        """Whether the widgets are all buttons: laid out in the footer strip (``in_strip``)."""
        return in_strip(self.widgets)

    def width(self) -> float:
        """Window px the open panel takes at the right edge (0 when folded, empty or a
        footer strip)."""
        return 0.0 if self.collapsed or not self.widgets or self.strip \
            else PANEL_WIDTH + 2 * MARGIN

    def strip_width(self) -> float:
        """Window px the footer strip of buttons takes at the footer's right end (0 without)."""
        return self.size[0] - self.panel[0] if self.strip else 0.0

    def layout(self, width: int, height: int, top: int | None = None,
               bottom: int | None = None) -> None:
        """Place the rows for a ``width × height`` window (``top``/``bottom``: the bands'
        px, kept when not given)."""
        self.size = (width, height)
        self.top = self.top if top is None else top
        self.bottom = self.bottom if bottom is None else bottom
        self.slots: list[_Slot] = []
        if self.strip:
            self._layout_strip(width)
            return
        x, y = width - PANEL_WIDTH - MARGIN, height - MARGIN - self.top
        self.header = (x, y - HEADER, PANEL_WIDTH, HEADER)
        if self.collapsed and self.top >= HEADER:  # folded: a small tab in the HUD band
            self.header = (width - 110, height - self.top + 2, 100, HEADER - 6)
        y -= HEADER
        rows = [ROW.get(w.kind, 30) for w in self.widgets] if not self.collapsed else []
        foot = self.bottom + MARGIN  # the column's foot (window px)
        room = y - 8 - foot  # px the rows may take
        grow = min(max(room / sum(rows), 1.0), STRETCH) if rows else 1.0
        for widget, row in zip(self.widgets if rows else [], rows, strict=True):
            h = round(row * grow)  # whole pixels: text at half a pixel is drawn cut
            y -= h
            # the control keeps its own height, centred in the grown row
            pad = (h - row) // 2
            self.slots.append(_Slot(widget, x + 10, y + pad, PANEL_WIDTH - 20, row - 6))
        bottom = min(y - 8, float(foot)) if self.slots else y
        self.panel = (x, bottom, PANEL_WIDTH, height - MARGIN - self.top - bottom)
        if self.collapsed:
            self.panel = self.header

    def _layout_strip(self, width: int) -> None:
        """The buttons right to left at the bottom-right corner, in the footer band (which
        leaves them room: ``overlay.draw_hud`` fits the keys to its left)."""
        x = width - MARGIN
        for widget in reversed(self.widgets):
            w = 2 * MARGIN + STRIP_CHAR * len(widget.label)
            x -= w
            self.slots.insert(0, _Slot(widget, x, 2, w, STRIP_H))
            x -= STRIP_GAP
        self.header = (0.0, 0.0, 0.0, 0.0)  # nothing folds
        self.panel = (x, 0.0, width - x, STRIP_H + 4)

    def fold(self) -> None:
        """Fold the panel away, or open it again."""
        self.collapsed = not self.collapsed
        self.layout(*self.size)

    # -- input -------------------------------------------------------------------------------

    def press(self, sx: float, sy: float) -> bool:
        """A press at window pixel ``(sx, sy)``: True if a widget took it."""
        if self.widgets and not self.strip and _inside(self.header, sx, sy):
            self.fold()
            return True
        for slot in self.slots:
            if slot.contains(sx, sy):
                kind = slot.widget.kind
                if kind == "slider":
                    self.active = slot
                    self._slide(slot, sx)
                elif kind == "toggle":
                    flip(slot.widget)
                else:
                    change(slot.widget, True, keep=False)
                return True
        return bool(self.widgets) and _inside(self.panel, sx, sy)

    def drag(self, sx: float, sy: float) -> bool:
        """Pointer moved while pressed: a slider being dragged follows it."""
        if self.active is None:
            return False
        self._slide(self.active, sx)
        return True

    def release(self, sx: float, sy: float) -> bool:
        """Pointer released: True if it ends a slider drag."""
        was = self.active is not None
        self.active = None
        return was

    def _slide(self, slot: _Slot, sx: float) -> None:
        w = slot.widget
        t = min(max((sx - slot.x) / slot.w, 0.0), 1.0)
        change(w, w.low + t * (w.high - w.low))

    # -- drawing -----------------------------------------------------------------------------

    def draw(self, draw: Any) -> None:
        """Draw the panel with ``draw`` (a screen-space ``Draw``)."""
        if not self.widgets:
            return
        if self.strip:
            for slot in self.slots:
                self._draw_button(draw, slot)
            return
        draw.rect(*self.panel, _PANEL)
        x, y, w, h = self.header
        label = "◂ controls" if self.collapsed else "▾ controls (click to fold)"
        draw.text(x + 10, y + h / 2, label, _ACCENT, 11, anchor_y="center")
        for slot in self.slots:
            getattr(self, f"_draw_{slot.widget.kind}", self._draw_button)(draw, slot)

    def _draw_slider(self, draw: Any, s: _Slot) -> None:
        w = s.widget
        value = float(w.value if w.value is not None else w.low)
        t = 0.0 if w.high == w.low else min(max((value - w.low) / (w.high - w.low), 0.0), 1.0)
        ty = s.y + 8
        draw.text(s.x, s.y + s.h - 12, w.label, _TEXT, 11)
        draw.text(s.x + s.w, s.y + s.h - 12, _fmt(value), _ACCENT, 11, anchor_x="right")
        draw.line(s.x, ty, s.x + s.w, ty, _TRACK, 4)
        draw.line(s.x, ty, s.x + t * s.w, ty, _ACCENT, 4)
        draw.circle(s.x + t * s.w, ty, 7, _TEXT, shade=True)

    def _draw_toggle(self, draw: Any, s: _Slot) -> None:
        on = bool(s.widget.value)
        cy = s.y + s.h / 2
        draw.line(s.x + 8, cy, s.x + 22, cy, _ACCENT if on else _TRACK, 16)
        draw.circle(s.x + (22 if on else 8), cy, 6, _TEXT, shade=True)
        draw.text(s.x + 40, cy, s.widget.label, _TEXT, 11, anchor_y="center")

    def _draw_button(self, draw: Any, s: _Slot) -> None:
        cy, r = s.y + s.h / 2, s.h / 2
        draw.line(s.x + r, cy, s.x + s.w - r, cy, _BUTTON, s.h)
        draw.text(s.x + s.w / 2, cy, s.widget.label, _TEXT, 11, anchor_x="center",
                  anchor_y="center")


def in_strip(widgets: list[Widget]) -> bool:
    """Whether ``widgets`` go in a footer strip: there are some, and all are buttons."""
    return bool(widgets) and all(w.kind == "button" for w in widgets)


def change(widget: Widget, value: Any, keep: bool = True) -> None:
    """Set the widget's value (unless a button) and tell the game."""
    if keep:
        widget.value = value
    if widget.on_change is not None:
        widget.on_change(value)


def flip(widget: Widget) -> None:
    """Turn a toggle over and tell the game."""
    change(widget, not bool(widget.value))


def _inside(rect: tuple, sx: float, sy: float) -> bool:
    """Whether window pixel ``(sx, sy)`` is in ``rect = (x, y, w, h)`` (edges included)."""
    x, y, w, h = rect
    return x <= sx <= x + w and y <= sy <= y + h


def _fmt(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"
