"""The editor's unsaved-changes question: ``LeavePrompt``.

Leaving the editor (Esc back to the launcher, closing the window) with edits not saved
asks first, in the window: **save** and leave, **discard** the edits and leave, or
**cancel** and keep editing. The question takes the property panel's place (the level
stays in view, nothing covers it) and the top band says it too; keys S, D and Esc
answer it like its buttons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..app.buttons import Button, draw_buttons, hit

#: The choices: label, action, key.
CHOICES = (("save and leave", "save", "S"), ("leave without saving", "discard", "D"),
           ("keep editing", "cancel", "Esc"))
_WARN = (255, 196, 90)
_TEXT = (230, 234, 246)
_DIM = (150, 158, 184)
_FRAME = (255, 196, 90, 255)
_KEYS = {"s": "save", "d": "discard", "escape": "cancel", "c": "cancel"}


class LeavePrompt:
    """Asks before ``then`` (what leaving does) runs while the level has unsaved edits.

    ``save`` is the editor view's save (returns whether it saved); ``rect`` is the panel's
    rectangle ``(x, y, w, h)`` in window px, where the question is drawn.
    """

    def __init__(self, then: Callable[[], None], save: Callable[[], bool],
                 why: str = "leave the editor") -> None:
        self.then, self.save, self.why = then, save, why
        self.done = False

    def buttons(self, rect: tuple[float, float, float, float]) -> list[Button]:
        """The three choices, stacked in ``rect``'s upper part."""
        x, y, w, h = rect
        top = y + h - 136
        return [Button(label, action, x + 10, top - 34 * k, w - 20, 28, key)
                for k, (label, action, key) in enumerate(CHOICES)]

    def press(self, sx: float, sy: float, rect: tuple[float, float, float, float]) -> bool:
        """A click: answers if it is on a choice; True if the prompt took it."""
        action = hit(self.buttons(rect), sx, sy)
        if action is not None:
            self.answer(action)
        return True  # the rest of the window waits for the answer

    def key(self, name: str) -> None:
        """S saves and leaves, D leaves without saving, Esc (or C) keeps editing."""
        if name in _KEYS:
            self.answer(_KEYS[name])

    def answer(self, action: str) -> None:
        """``save`` (leaves only if the save worked), ``discard`` or ``cancel``."""
        if action == "save" and not self.save():
            self.done = True  # the save said why it failed; the edit stays open
            return
        self.done = True
        if action in ("save", "discard"):
            self.then()

    def draw(self, d: Any, rect: tuple[float, float, float, float],
             pointer: tuple[float, float] | None) -> None:
        """The question in ``rect`` (the panel), framed so it is seen at once."""
        x, y, w, h = rect
        bottom = y + h - 232
        d.rect(x + 2, bottom, w - 4, 228, (40, 30, 18, 255))
        d.polyline([(x + 2, bottom), (x + w - 2, bottom), (x + w - 2, y + h - 4),
                    (x + 2, y + h - 4), (x + 2, bottom)], _FRAME, 2)
        d.text(x + 12, y + h - 28, "Unsaved changes", _WARN, 14, bold=True)
        d.text(x + 12, y + h - 52, f"You are about to {self.why}.", _TEXT, 10)
        d.text(x + 12, y + h - 70, "This level has edits not saved.", _TEXT, 10)
        d.text(x + 12, y + h - 96, "Save them first?", _DIM, 10)
        draw_buttons(d, self.buttons(rect), pointer, size=10)
