"""Static level geometry: line segments and polygons that particles collide with.

Polygons (convex or concave, either winding) contribute their edges as segments
and are also tested for particles that got inside them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import limits
from .errors import WorldError

#: A piece's surface: friction, restitution (None: the body's or particle's own, as
#: ``docs/api.md`` says under "How surfaces mix") and layer (a bit set).
Surface = tuple[float | None, float | None, int]
DEFAULT_SURFACE: Surface = (None, None, 1)


def check_surface(owner: str, friction: object = None, restitution: object = None,
                  layer: object = 1) -> Surface:
    """``(friction, restitution, layer)`` checked, or WorldError naming ``owner``'s field:
    friction finite and ≥ 0, restitution in [0, 1], layer a whole number (a bit set)."""
    mu = None if friction is None else limits.FRICTION.check(friction, owner, "friction")
    e = None if restitution is None else limits.UNIT.check(restitution, owner, "restitution")
    if isinstance(layer, bool):
        raise WorldError(f"{owner}: field layer must be a whole number, got {layer!r}")
    return mu, e, limits.INT.check(layer, owner, "layer")


class Level:
    """The static geometry of a world, packed for the collide kernels.

    ``segments`` is (k, 4): x1, y1, x2, y2 (px) for every free segment and
    every polygon edge; ``poly_off``/``poly_xy`` hold the polygons in CSR form.
    ``line_surfaces``/``poly_surfaces`` (beside ``lines``/``polygons``): each piece's
    ``Surface``; ``seg_surf``/``seg_layer``, ``poly_surf``/``poly_layer``: packed.
    The arrays are packed when first read after a change, so adding k pieces
    one by one costs O(k), not O(k²).
    """

    def __init__(self) -> None:
        self.lines: list[tuple[float, float, float, float]] = []
        self.polygons: list[list[tuple[float, float]]] = []
        self.line_surfaces: list[Surface] = []
        self.poly_surfaces: list[Surface] = []
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

    seg_surf = property(lambda self: self._packed()[4], doc="(k, 2) float64: each segment's "
                        "friction and restitution (NaN: none given), edges as segments")
    seg_layer = property(lambda self: self._packed()[5], doc="(k,) int64: each segment's layer")
    poly_surf = property(lambda self: self._packed()[6], doc="(p, 2) float64: each polygon's "
                         "friction and restitution (NaN: none given)")
    poly_layer = property(lambda self: self._packed()[7], doc="(p,) int64: each polygon's layer")

    def add_segment(self, p: Sequence[float], q: Sequence[float], *, friction: object = None,
                    restitution: object = None, layer: object = 1) -> None:
        """Add a solid segment from ``p`` to ``q`` (px) with its surface (``check_surface``)."""
        seg = (float(p[0]), float(p[1]), float(q[0]), float(q[1]))
        if not np.all(np.isfinite(seg)):
            raise WorldError(f"level segment {seg}: coordinates must be finite")
        surface = check_surface("level segment", friction, restitution, layer)
        self.fit_surfaces()
        self.lines.append(seg)
        self.line_surfaces.append(surface)
        self._arrays = None

    def add_polygon(self, points: Sequence[Sequence[float]], *, friction: object = None,
                    restitution: object = None, layer: object = 1) -> None:
        """Add a solid polygon (at least 3 points, px, either winding) with its surface."""
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 3 or not np.all(np.isfinite(pts)):
            raise WorldError("level polygon: needs at least 3 finite points")
        surface = check_surface("level polygon", friction, restitution, layer)
        self.fit_surfaces()
        self.polygons.append(pts)
        self.poly_surfaces.append(surface)
        self._arrays = None

    def clear(self) -> None:
        """Remove all static geometry."""
        self.lines.clear()
        self.polygons.clear()
        self.line_surfaces.clear()
        self.poly_surfaces.clear()
        self._arrays = None

    def fit_surfaces(self) -> None:
        """Surfaces as many as the pieces: ones added to ``lines``/``polygons`` directly
        (the editor) get the default, ones whose pieces went are dropped."""
        for pieces, surfaces in ((self.lines, self.line_surfaces),
                                 (self.polygons, self.poly_surfaces)):
            del surfaces[len(pieces):]
            surfaces += [DEFAULT_SURFACE] * (len(pieces) - len(surfaces))

    @staticmethod
    def _columns(surfaces: Sequence[Surface]) -> tuple[np.ndarray, np.ndarray]:
        surf = np.array([[np.nan if v is None else v for v in s[:2]] for s in surfaces],
                        dtype=np.float64).reshape(-1, 2)
        return surf, np.array([s[2] for s in surfaces], dtype=np.int64)

    def _packed(self) -> tuple[np.ndarray, ...]:
        if self._arrays is None:
            self.fit_surfaces()
            segs = list(self.lines)
            for poly in self.polygons:
                segs += [(*poly[i], *poly[(i + 1) % len(poly)]) for i in range(len(poly))]
            segments = np.array(segs, dtype=np.float64).reshape(-1, 4)
            off = np.zeros(len(self.polygons) + 1, dtype=np.int64)
            off[1:] = np.cumsum([len(p) for p in self.polygons])
            pts = [pt for poly in self.polygons for pt in poly]
            xy = np.array(pts, dtype=np.float64).reshape(-1, 2)
            edges = [s for poly, s in zip(self.polygons, self.poly_surfaces, strict=True)
                     for _ in poly]
            self._arrays = (segments, off, xy, np.arange(len(pts), dtype=np.int64),
                            *self._columns(self.line_surfaces + edges),
                            *self._columns(self.poly_surfaces))
        return self._arrays

    def copy(self) -> Level:
        """An independent copy."""
        new = Level()
        new.lines = list(self.lines)
        new.polygons = [list(p) for p in self.polygons]
        new.line_surfaces, new.poly_surfaces = list(self.line_surfaces), list(self.poly_surfaces)
        new._arrays = self._arrays  # nothing writes into them: sharing is safe
        return new
