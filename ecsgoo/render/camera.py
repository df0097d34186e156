"""The camera: a world rectangle fitted into the window, world px ↔ window pixels.

``fit`` is plain arithmetic (the player converts pointer positions with it, no
GL needed); ``arcade_camera`` makes the arcade Camera2D that shows a fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Fit:
    """A world rectangle fitted into a window, aspect preserved and centred.

    ``scale`` is screen px per world px; ``(x0, y0)`` is the world point at the
    window's bottom-left corner; ``width``, ``height`` the window's size (px).
    """

    scale: float
    x0: float
    y0: float
    width: int
    height: int

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """Window pixel (y up) → world px."""
        return self.x0 + sx / self.scale, self.y0 + sy / self.scale

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """World px → window pixel (y up)."""
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale

    @property
    def centre(self) -> tuple[float, float]:
        """The world point at the window's centre."""
        return self.to_world(self.width / 2, self.height / 2)

    @property
    def visible(self) -> Rect:
        """The world rectangle ``(left, bottom, right, top)`` the whole window shows."""
        return (*self.to_world(0, 0), *self.to_world(self.width, self.height))

    def covered_by(self, rect: Rect) -> bool:
        """Whether the world rectangle ``rect`` covers every pixel of the window."""
        left, bottom, right, top = rect
        x0, y0 = self.to_screen(left, bottom)
        x1, y1 = self.to_screen(right, top)
        return x0 <= 0 and y0 <= 0 and x1 >= self.width and y1 >= self.height


def fit(view: Rect, width: int, height: int, area: Rect | None = None) -> Fit:
    """Fit ``view = (left, bottom, right, top)`` (world px) into a ``width × height`` window.

    ``area = (x, y, w, h)`` (window px) is the part of the window the view goes
    into (default all of it): the player keeps its HUD bands and panels outside.
    """
    left, bottom, right, top = view
    ax, ay, aw, ah = area if area is not None else (0.0, 0.0, width, height)
    vw, vh = max(right - left, 1e-6), max(top - bottom, 1e-6)
    scale = min(max(aw, 1.0) / vw, max(ah, 1.0) / vh)
    cx, cy = (left + right) / 2, (bottom + top) / 2
    return Fit(scale, cx - (ax + aw / 2) / scale, cy - (ay + ah / 2) / scale, width, height)


def contents_rect(world: Any, size: tuple[int, int] | None) -> Rect:
    """``(0, 0, *size)`` grown to hold the level and particles (or their padded box).

    For worlds without bounds: games place things in window pixels (``size``);
    with no ``size`` the box is padded by 8 % so nothing touches the edge.
    """
    p = world.store.particles
    pts = [x for x in (p.cols["pos"][: p.n], world.level.segments.reshape(-1, 2)) if len(x)]
    if size is not None:
        pts.append(np.array([[0.0, 0.0], [float(size[0]), float(size[1])]]))
    if not pts:
        return (0.0, 0.0, 800.0, 600.0)
    xy = np.concatenate(pts)
    lo, hi = xy.min(0), xy.max(0)
    pad = 0.0 if size is not None else 0.08 * max(hi[0] - lo[0], hi[1] - lo[1], 100.0)
    return (lo[0] - pad, lo[1] - pad, hi[0] + pad, hi[1] + pad)


def arcade_camera(f: Fit, window: Any, camera: Any = None) -> Any:
    """An arcade Camera2D of ``window`` showing ``f``: ``camera`` reused if it is that window's."""
    import arcade

    if camera is None or camera._window is not window:
        camera = arcade.Camera2D(window=window)
    camera.viewport = arcade.LBWH(0, 0, f.width, f.height)
    camera.projection = arcade.LRBT(-f.width / 2, f.width / 2, -f.height / 2, f.height / 2)
    camera.position = f.centre
    camera.zoom = f.scale
    return camera
