"""Small pixel observations (``obs="pixels"``): the world drawn in numpy, no GL, no HUD.

``draw`` rasterises a world into an ``(size, size, 3)`` uint8 picture (84 × 84
by default; y up becomes row 0 at the top): the level's static segments and
polygon edges in dim grey, unbroken springs in grey, particles as discs
(fruits in their kind's colour, the others white) and the environment's own
marks (stars, Om Nom, the pipe) as discs of their colour. The view's rectangle
is stretched to the square. ``grey`` turns it into ``(size, size, 1)``
luminance. Neither touches arcade, so it works in any process, display or not.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import fruit
from ..world import World

#: Side of the square picture, px.
SIZE = 84
#: Colours (RGB).
LEVEL, SPRING, PARTICLE = (90, 90, 90), (150, 150, 150), (255, 255, 255)
#: A mark: ``(x, y, radius, colour)`` in world px.
Mark = tuple[float, float, float, tuple[int, int, int]]


def draw(world: World, view: Sequence[float], marks: Sequence[Mark] = (),
         size: int = SIZE) -> np.ndarray:
    """``world`` inside ``view`` (left, bottom, right, top, px) as ``(size, size, 3)`` uint8."""
    left, bottom, right, top = (float(v) for v in view)
    scale = np.array([size / (right - left), size / (top - bottom)])
    origin = np.array([left, bottom])
    canvas = np.zeros((size, size, 3), np.uint8)
    segments = world.level.segments
    if len(segments):
        _lines(canvas, (segments[:, :2] - origin) * scale, (segments[:, 2:] - origin) * scale,
               LEVEL)
    pos = world.particles.pos
    springs = world.springs
    if len(springs):
        keep = ~springs.broken
        _lines(canvas, (pos[springs.a[keep]] - origin) * scale,
               (pos[springs.b[keep]] - origin) * scale, SPRING)
    kinds = world.particles.kind
    colours = np.array([fruit.COLORS[k] if k >= 0 else PARTICLE for k in kinds],
                       np.uint8).reshape(-1, 3)
    _discs(canvas, (pos - origin) * scale, world.particles.radius * scale.mean(), colours)
    if marks:
        xy = (np.array([(m[0], m[1]) for m in marks]) - origin) * scale
        _discs(canvas, xy, np.array([m[2] for m in marks]) * scale.mean(),
               np.array([m[3] for m in marks], np.uint8))
    return canvas


def grey(picture: np.ndarray) -> np.ndarray:
    """An RGB picture's luminance (ITU-R 601 weights) as ``(h, w, 1)`` uint8."""
    luminance = picture @ np.array([0.299, 0.587, 0.114])
    return np.clip(np.rint(luminance), 0, 255).astype(np.uint8)[..., None]


def _plot(canvas: np.ndarray, points: np.ndarray, colours: np.ndarray) -> None:
    """Set the pixels under ``points`` (picture px, y up) that fall inside the canvas."""
    size = canvas.shape[0]
    col = np.floor(points[:, 0]).astype(np.int64)
    row = size - 1 - np.floor(points[:, 1]).astype(np.int64)
    inside = (col >= 0) & (col < size) & (row >= 0) & (row < size)
    canvas[row[inside], col[inside]] = colours[inside] if colours.ndim == 2 else colours


def _lines(canvas: np.ndarray, p: np.ndarray, q: np.ndarray, colour: tuple[int, ...]) -> None:
    """Segments ``p[i]``–``q[i]`` (picture px), one sample per pixel along the longer axis."""
    limit = 4.0 * canvas.shape[0]  # a segment far outside is clipped to a few samples
    p, q = np.clip(p, -limit, limit), np.clip(q, -limit, limit)
    n = np.ceil(np.abs(q - p).max(axis=1)).astype(np.int64) + 1
    which = np.repeat(np.arange(len(p)), n)
    step = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
    t = (step / np.maximum(np.repeat(n - 1, n), 1))[:, None]
    _plot(canvas, p[which] + (q[which] - p[which]) * t, np.array(colour, np.uint8))


def _discs(canvas: np.ndarray, centres: np.ndarray, radii: np.ndarray,
           colours: np.ndarray) -> None:
    """Filled discs; those under a pixel across are one pixel."""
    small = radii < 0.75
    _plot(canvas, centres[small], colours[small])
    size = canvas.shape[0]
    for (x, y), r, colour in zip(centres[~small], radii[~small], colours[~small], strict=True):
        x0, x1 = max(int(x - r), 0), min(int(np.ceil(x + r)) + 1, size)
        y0, y1 = max(int(y - r), 0), min(int(np.ceil(y + r)) + 1, size)
        if x0 >= x1 or y0 >= y1:
            continue
        cx = np.arange(x0, x1) + 0.5 - x
        cy = np.arange(y0, y1) + 0.5 - y
        inside = cx[None, :] ** 2 + cy[:, None] ** 2 <= r * r  # picture y up
        canvas[size - y1:size - y0, x0:x1][inside[::-1]] = colour
