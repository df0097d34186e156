"""A frame's later substeps of a world of free discs, in one call (``physics.disc_frame``).

Each substep is what the solver stages do for particles without springs, bodies or
outlines, in their order and with the same kernels: Integrate (``integrate``), then
Collide: the soft disc contacts found at the frame's first substep (``disc_substep``),
then the level's segments, polygons and bounds (``collide_level``). Called from Python,
that was some thirty function calls a substep around the arithmetic (a Suika cup of
a few dozen fruit). Units: px, s.
"""

from __future__ import annotations

from numba import njit

from .contacts import collide_level
from .discs import disc_substep, outran
from .integrate import integrate


@njit(cache=True)
def disc_substeps(first, count, h, damp, gx, gy, force, n, pos, prev, w, pinned, pin,
                  m, ij, cf, soft, push_speed, bounce_speed, at, reach, radius, friction,
                  restitution, mask, vmin, push, hold, slop, segs, since, seg_surf,
                  seg_layer, poly_off, poly_xy, poly_idx, poly_surf, poly_layer, bounds,
                  use_bounds):
    """Substeps ``first..count − 1`` of the frame (``count`` a frame) for ``n`` particles:
    integrate under gravity ``(gx, gy)`` and ``force``, the ``m`` disc contacts (``ij``,
    ``cf``, ``soft``, at most ``push_speed`` px/s out, restitution after the last
    substep above ``bounce_speed``), then the level (``vmin``, ``push``, ``hold``: px a
    substep; ``since``: room for where each particle was, when there are ``segs``).

    Returns the substep it stopped in, its integration done, when a particle outran its
    ``reach`` from ``at`` (its contacts are found again in Python, as ``Discs.stale``
    says), or ``count`` when the frame is done.
    """
    for k in range(first, count):
        integrate(n, pos, prev, force, w, pinned, pin, gx, gy, damp, h, -1, 0.0, 0.0, 0.0)
        if m and outran(n, pos, at, reach):
            return k
        if len(segs):
            since[:n] = prev[:n]  # where each was before this substep's contacts
        disc_substep(m, ij, cf, pos, prev, h, soft, push_speed, k == count - 1,
                     bounce_speed)
        collide_level(n, pos, prev, w, radius, friction, restitution, vmin, push, hold,
                      True, slop, mask, segs, since, seg_surf, seg_layer, poly_off, poly_xy,
                      poly_idx, poly_surf, poly_layer, bounds, use_bounds)
    return count
