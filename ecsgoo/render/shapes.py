"""Shapes as rows in the GPU layouts of ``render.gl``: capsules from segments, triangles
from polygons.

Coordinates are world px; colours float RGBA in [0, 1] (``render.colors``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .gl import CAPSULE_COLUMNS


def segments(p: np.ndarray, q: np.ndarray, hw: Any, color: np.ndarray) -> np.ndarray:
    """Capsule rows from ``p`` to ``q`` (n × 2, world px); ``hw`` (half width, world px) and
    ``color`` (float RGBA) one for all or one per row."""
    out = np.empty((len(p), CAPSULE_COLUMNS), np.float32)
    out[:, 0:2], out[:, 2:4], out[:, 4], out[:, 5:9] = p, q, hw, color
    return out


def triangulate(points: Any) -> np.ndarray:
    """Triangles filling the polygon ``points`` (either winding, convex or not), as
    ``(3k, 2)`` float64 vertex rows in the points' units; a fan from the first point
    if the polygon intersects itself (better than nothing)."""
    from arcade.earclip import earclip  # pure Python, but arcade: not at import time

    pts = [(float(x), float(y)) for x, y in np.asarray(points, np.float64).reshape(-1, 2)]
    if len(pts) < 3:
        return np.zeros((0, 2))
    try:
        tris = earclip(pts)
    except Exception:  # earclip raises on self-intersecting polygons
        tris = [(pts[0], pts[i], pts[i + 1]) for i in range(1, len(pts) - 1)]
    return np.array(tris, np.float64).reshape(-1, 2)


def stack(parts: list[np.ndarray], columns: int) -> np.ndarray:
    """The non-empty ``parts`` as one array of rows (an empty one of ``columns`` if none)."""
    parts = [x for x in parts if len(x)]
    return np.concatenate(parts) if parts else np.zeros((0, columns), np.float32)
