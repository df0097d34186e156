"""The ``draw`` helper handed to ``Game.draw_overlay(draw)``: shapes and text, batched."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..look import rgba
from ..render.shapes import triangulate

Point = Sequence[float]
WHITE = (255, 255, 255)


class Draw:
    """Draw shapes and text over the world, in WORLD coordinates (px, y up).

    Every size (radius, width, text size) is in world px too, so an overlay
    scales with the camera like the world does. Colours are ``(r, g, b)`` or
    ``(r, g, b, a)`` with components in 0..255.

    Methods (all return ``None``):

    - ``circle(x, y, r, color, shade=False)`` — a filled disc (``shade`` adds a
      rim and a highlight, like the world's balls);
    - ``circle_outline(x, y, r, color, width=2)`` — a ring;
    - ``line(x1, y1, x2, y2, color, width=2)`` — a segment with round ends;
    - ``polyline(points, color, width=2)`` — connected segments through ``points``;
    - ``polygon(points, color)`` — a filled polygon (convex or not);
    - ``dots(points, radius, color)`` — many small discs at once (trajectories);
    - ``text(x, y, text, color=WHITE, size=14, anchor_x="left", anchor_y="baseline")``
      — ``anchor_x`` is ``"left"``, ``"center"`` or ``"right"``;
    - ``rect(x, y, w, h, color)`` — a filled rectangle, ``(x, y)`` its bottom-left.

    Consecutive shapes of one kind are sent to the GPU together (one draw call),
    in the order they were drawn; text is drawn in order too. Games import
    nothing from arcade: this object is the whole drawing interface.
    """

    def __init__(self, gpu: Any = None) -> None:
        self._gpu = gpu
        self._kind = ""
        self._rows: list[np.ndarray] = []
        self._texts: OrderedDict[tuple, Any] = OrderedDict()

    # -- shapes ---------------------------------------------------------------------------

    def circle(self, x: float, y: float, r: float, color: Any, shade: bool = False) -> None:
        """A filled disc of radius ``r`` centred at ``(x, y)``."""
        self._push("discs", [[x, y, r, 0.0, 1.0 if shade else 0.0, *rgba(color)]])

    def circle_outline(self, x: float, y: float, r: float, color: Any,
                       width: float = 2) -> None:
        """A ring of outer radius ``r`` and thickness ``width``."""
        self._push("discs", [[x, y, r, max(float(width), 1e-3), 0.0, *rgba(color)]])

    def dots(self, points: Any, radius: float, color: Any) -> None:
        """A disc of ``radius`` at each of ``points`` ((n, 2) array or list of pairs)."""
        xy = np.asarray(points, np.float64).reshape(-1, 2)
        rows = np.empty((len(xy), 9), np.float32)
        rows[:, 0:2], rows[:, 2], rows[:, 3:5], rows[:, 5:9] = xy, radius, 0.0, rgba(color)
        self._push("discs", rows)

    def line(self, x1: float, y1: float, x2: float, y2: float, color: Any,
             width: float = 2) -> None:
        """A segment ``width`` thick with round ends."""
        self._push("capsules", [[x1, y1, x2, y2, width / 2, *rgba(color)]])

    def polyline(self, points: Any, color: Any, width: float = 2) -> None:
        """Connected segments through ``points`` (open; repeat the first point to close)."""
        xy = np.asarray(points, np.float64).reshape(-1, 2)
        if len(xy) < 2:
            return
        rows = np.empty((len(xy) - 1, 9), np.float32)
        rows[:, 0:2], rows[:, 2:4], rows[:, 4], rows[:, 5:9] = xy[:-1], xy[1:], width / 2, \
            rgba(color)
        self._push("capsules", rows)

    def polygon(self, points: Any, color: Any) -> None:
        """A filled polygon through ``points`` (at least 3, either winding)."""
        xy = np.asarray(points, np.float64).reshape(-1, 2)
        if len(xy) >= 3:
            self._triangles(triangulate(xy), color)

    def rect(self, x: float, y: float, w: float, h: float, color: Any) -> None:
        """A filled ``w × h`` rectangle with its bottom-left corner at ``(x, y)``."""
        corners = [(x, y), (x + w, y), (x + w, y + h), (x, y), (x + w, y + h), (x, y + h)]
        self._triangles(np.array(corners, np.float64), color)

    def text(self, x: float, y: float, text: str, color: Any = WHITE, size: float = 14,
             anchor_x: str = "left", anchor_y: str = "baseline", bold: bool = False) -> None:
        """``text`` at ``(x, y)``; ``anchor_x`` left/center/right, ``anchor_y`` baseline/
        bottom/center/top."""
        if isinstance(x, str) and not isinstance(text, str):
            x, y, text = y, text, x  # text(text, x, y) is an easy slip: draw it anyway
        self.flush()
        label = self._label(str(text), tuple(int(c) for c in color), float(size), anchor_x,
                            anchor_y, bold)
        label.position = (float(x), float(y))
        label.draw()

    def text_width(self, text: str, size: float = 14, bold: bool = False) -> float:
        """How wide ``text`` is drawn at ``size`` (px of the space drawn in; needs a GL
        context, as drawing does)."""
        return float(self._label(str(text), (255, 255, 255), float(size), "left", "baseline",
                                 bold).content_width)

    # -- batching -----------------------------------------------------------------------

    def _triangles(self, xy: np.ndarray, color: Any) -> None:
        rows = np.empty((len(xy), 6), np.float32)
        rows[:, 0:2], rows[:, 2:6] = xy, rgba(color)
        self._push("triangles", rows)

    def _push(self, kind: str, rows: Any) -> None:
        if kind != self._kind:
            self.flush()
            self._kind = kind
        self._rows.append(np.asarray(rows, np.float32))

    def flush(self) -> None:
        """Send the shapes drawn so far to the GPU (the player calls this after the overlay)."""
        if self._rows:
            gpu = self._batches()
            gpu.begin()
            getattr(gpu, self._kind)(np.concatenate(self._rows))
        self._rows, self._kind = [], ""

    def set_pixel(self, world_per_pixel: float) -> None:
        """Size of a screen pixel in world px (for the antialiased edges)."""
        self._batches().set_pixel(world_per_pixel)

    def _batches(self) -> Any:
        """The GPU batches drawn with: the given ones, else the current window's."""
        from ..render.gl import batches  # arcade.gl: only once something is drawn

        return self._gpu or batches()

    def _label(self, text: str, color: tuple, size: float, anchor_x: str, anchor_y: str,
               bold: bool) -> Any:
        import arcade

        key = (text, color, size, anchor_x, anchor_y, bold)
        label = self._texts.get(key)
        if label is None:
            label = arcade.Text(text, 0, 0, color, size, anchor_x=anchor_x, anchor_y=anchor_y,
                                bold=bold, font_name=("DejaVu Sans", "Arial", "calibri"))
            self._texts[key] = label
            if len(self._texts) > 512:  # texts change every frame (scores): keep the cache small
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        return label
