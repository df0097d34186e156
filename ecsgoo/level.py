"""Static level geometry: line segments and polygons that particles collide with.

Polygons (convex or concave, either winding) contribute their edges as segments
and are also tested for particles that got inside them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .errors import WorldError


class Level:
    """The static geometry of a world, packed for the collide kernels.

    ``segments`` is (k, 4): x1, y1, x2, y2 (px) for every free segment and
    every polygon edge; ``poly_off``/``poly_xy`` hold the polygons in CSR form.
    The arrays are packed when first read after a change, so adding k pieces
    one by one costs O(k), not O(k²).
    """

    def __init__(self) -> None:
        self.lines: list[tuple[float, float, float, float]] = []
        self.polygons: list[list[tuple[float, float]]] = []
        self._arrays: tuple[np.ndarray, ...] | None = None

    @property
    def segments(self) -> np.ndarray:
        """(k, 4) float64: every free segment, then every polygon edge (px)."""
        return self._packed()[0]

    @property
    def poly_off(self) -> np.ndarray:
        """Polygon ``i``'s points are ``poly_xy[poly_off[i]:poly_off[i + 1]]``."""
        return self._packed()[1]

    @property
    def poly_xy(self) -> np.ndarray:
        """(m, 2) float64: the polygons' points, one after the other (px)."""
        return self._packed()[2]

    @property
    def poly_idx(self) -> np.ndarray:
        """Row indices into ``poly_xy`` (``arange``: the kernels take rings as indices)."""
        return self._packed()[3]

    def add_segment(self, p: Sequence[float], q: Sequence[float]) -> None:
        """Add a solid segment from ``p`` to ``q`` (px)."""
        seg = (float(p[0]), float(p[1]), float(q[0]), float(q[1]))
        if not np.all(np.isfinite(seg)):
            raise WorldError(f"level segment {seg}: coordinates must be finite")
        self.lines.append(seg)
        self._arrays = None

    def add_polygon(self, points: Sequence[Sequence[float]]) -> None:
        """Add a solid polygon (at least 3 points, px, either winding)."""
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 3 or not np.all(np.isfinite(pts)):
            raise WorldError("level polygon: needs at least 3 finite points")
        self.polygons.append(pts)
        self._arrays = None

    def clear(self) -> None:
        """Remove all static geometry."""
        self.lines.clear()
        self.polygons.clear()
        self._arrays = None

    def _packed(self) -> tuple[np.ndarray, ...]:
        if self._arrays is None:
            segs = list(self.lines)
            for poly in self.polygons:
                segs += [(*poly[i], *poly[(i + 1) % len(poly)]) for i in range(len(poly))]
            segments = np.array(segs, dtype=np.float64).reshape(-1, 4)
            off = np.zeros(len(self.polygons) + 1, dtype=np.int64)
            off[1:] = np.cumsum([len(p) for p in self.polygons])
            pts = [pt for poly in self.polygons for pt in poly]
            xy = np.array(pts, dtype=np.float64).reshape(-1, 2)
            self._arrays = (segments, off, xy, np.arange(len(pts), dtype=np.int64))
        return self._arrays

    def copy(self) -> Level:
        """An independent copy."""
        new = Level()
        new.lines = list(self.lines)
        new.polygons = [list(p) for p in self.polygons]
        new._arrays = self._arrays  # nothing writes into them: sharing is safe
        return new
