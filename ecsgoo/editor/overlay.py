"""A game's overlay as the editor's picture keeps it: recorded, compared, replayed.

The editor draws the level's own overlay (rope's stars and Om Nom, goo's pipe, suika's
line …) with the game's ``draw_overlay``. To repaint only what an edit changed, the
overlay is first recorded (``record``: each call to the player's ``Draw`` with its
arguments, made hashable), the recording compared with the one painted before
(``changed_boxes``: the world boxes of the calls that came or went), then replayed into
the picture (``replay``). Only shapes of the ``Draw`` interface are known; a recording
with anything else is repainted whole.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

#: The ``Draw`` methods an overlay draws with (its whole drawing interface).
SHAPES = ("circle", "circle_outline", "dots", "line", "polyline", "polygon", "rect", "text")
#: A recorded call: the method's name, its arguments and its keywords (sorted), hashable.
Call = tuple[str, tuple[Any, ...], tuple[tuple[str, Any], ...]]
#: A box in world px: ``(x0, y0, x1, y1)``.
Box = tuple[float, float, float, float]


def _frozen(value: Any) -> Any:
    """``value`` as a hashable, comparable thing (arrays and lists as nested tuples)."""
    if isinstance(value, np.ndarray):
        return _frozen(value.tolist())
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, np.generic):
        return value.item()
    return value


class _Recorder:
    """Stands in for the player's ``Draw``: keeps each shape call, asks ``real`` for
    what an overlay reads back (``text_width``)."""

    def __init__(self, real: Any) -> None:
        self.calls: list[Call] = []
        self._real = real

    def text_width(self, *args: Any, **kwargs: Any) -> float:
        return self._real.text_width(*args, **kwargs)

    def flush(self) -> None:
        """Nothing to send: the calls are kept."""

    def set_pixel(self, world_per_pixel: float) -> None:
        self.calls.append(("set_pixel", (float(world_per_pixel),), ()))

    def __getattr__(self, name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> None:
            self.calls.append((name, _frozen(args), tuple(sorted(
                (k, _frozen(v)) for k, v in kwargs.items()))))
        return call


def record(game: Any, real: Any) -> list[Call]:
    """What ``game.draw_overlay`` draws, as calls (none if it fails: a half-made level,
    as a rope level with no Om Nom yet, shows its physics only)."""
    rec = _Recorder(real)
    try:
        game.draw_overlay(rec)
    except Exception:  # noqa: BLE001 - any game's overlay; the level still shows
        return []
    return rec.calls


def replay(calls: list[Call], draw: Any) -> None:
    """Draw the recorded ``calls`` with ``draw`` (the player's ``Draw``)."""
    for name, args, kwargs in calls:
        if name != "set_pixel":
            getattr(draw, name)(*args, **dict(kwargs))


def changed_boxes(before: list[Call] | None, now: list[Call]) -> list[Box] | None:
    """The world boxes of the calls in one recording and not the other; None if one of
    them is not a known shape (repaint it all). A change of order alone repaints the
    boxes of the calls that moved."""
    if before is None:
        return None
    if before == now:
        return []
    old, new = Counter(before), Counter(now)
    gone = (old - new) + (new - old)
    if not gone:  # the same calls in another order: what is drawn over what changed
        gone = Counter(c for c, d in zip(before, now, strict=False) if c != d)
    boxes = []
    for call in gone:
        box = bounds(call)
        if box is None:
            return None
        boxes.append(box)
    return boxes


def bounds(call: Call) -> Box | None:
    """The world box a recorded shape covers (a text's generously); None if unknown."""
    name, args, kwargs = call
    kw = dict(kwargs)
    try:
        if name in ("circle", "circle_outline"):
            x, y, r = (float(v) for v in args[:3])
            return (x - r, y - r, x + r, y + r)
        if name == "line":
            x0, y0, x1, y1 = (float(v) for v in args[:4])
            w = float(args[5] if len(args) > 5 else kw.get("width", 2)) / 2
            return (min(x0, x1) - w, min(y0, y1) - w, max(x0, x1) + w, max(y0, y1) + w)
        if name in ("polyline", "polygon", "dots"):
            pts = np.asarray(args[0], np.float64).reshape(-1, 2)
            if not len(pts):
                return (0.0, 0.0, 0.0, 0.0)
            grow = {"dots": float(args[1]) if len(args) > 1 else float(kw.get("radius", 0)),
                    "polyline": float(args[2] if len(args) > 2 else kw.get("width", 2)) / 2,
                    }.get(name, 0.0)
            (x0, y0), (x1, y1) = pts.min(0), pts.max(0)
            return (x0 - grow, y0 - grow, x1 + grow, y1 + grow)
        if name == "rect":
            x, y, w, h = (float(v) for v in args[:4])
            return (min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h))
        if name == "text":
            x, y, text = float(args[0]), float(args[1]), str(args[2])
            size = float(args[4] if len(args) > 4 else kw.get("size", 14))
            wide, high = (len(text) + 1) * size * 1.1, size * 2.0  # any anchor, any font
            return (x - wide, y - high, x + wide, y + high)
    except (TypeError, ValueError, IndexError):
        return None
    return None
