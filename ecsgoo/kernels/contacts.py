"""Contacts: world bounds, static segments and polygons, circle pairs, soft-body outlines.

Every contact is Position Based Dynamics: the overlap ``pen`` is removed by
moving positions, split by inverse mass, which also gives the bodies the
velocity that keeps stacks up. Only the first ``push`` px of a correction may
become velocity (``push`` = Collide's ``push_speed`` × h); deeper overlaps (a
fruit that grew, a spawn inside a pile) are resolved quietly, so nothing is
flung. Then restitution restores ``e`` times the approach speed (impacts faster
than ``vmin`` only), and Coulomb friction removes up to ``mu · pen`` of the
tangential displacement. All displacements are px per substep (``u = x − x_prev``),
and every change is split by inverse mass, so momentum is conserved.

Friction takes the slip back in position for up to ``hold`` px (Collide's
``hold_speed`` × h), the rest only from the velocity. Velocity-only friction
(``hold = 0``) leaves each substep's slip in place, so a contact that should
stick creeps: a disc on a 20° slope at μ 0.5 slides 0.9 px/s, a pile never
stops. Taking the slip back in position (XPBD's static friction, ``hold = inf``)
holds it exactly.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def _restitution_gap(un0, un1, e, vmin):
    """Normal displacement to add so the bodies part at ``−e · un0`` (0 if not needed)."""
    if e <= 0.0 or -un0 <= vmin:
        return 0.0
    return max(0.0, -e * un0 - un1)


@njit(cache=True)
def resolve_static(i, nx, ny, pen, pos, prev, mu, e, vmin, push, hold, calm=False):
    """Particle ``i`` overlaps an immovable obstacle by ``pen`` along normal ``n`` (outward).

    ``calm``: the move out becomes velocity only as far as it stops the approach (the
    rest is quiet): a pass after the soft contacts (``kernels.discs``), which gave
    every contact its velocity already, puts positions right without adding any.
    """
    ux, uy = pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1]
    un0 = ux * nx + uy * ny
    quiet = pen - min(pen, push, max(0.0, -un0)) if calm else pen - min(pen, push)
    pos[i, 0] += pen * nx
    pos[i, 1] += pen * ny
    prev[i, 0] += quiet * nx
    prev[i, 1] += quiet * ny
    gap = _restitution_gap(un0, un0 + pen - quiet, e, vmin)
    prev[i, 0] -= gap * nx
    prev[i, 1] -= gap * ny
    tx, ty = ux - un0 * nx, uy - un0 * ny
    vt = math.sqrt(tx * tx + ty * ty)
    if vt > 1e-15:
        jt = min(vt, mu * pen)
        held = min(jt, hold)
        pos[i, 0] -= held * tx / vt
        pos[i, 1] -= held * ty / vt
        prev[i, 0] += (jt - held) * tx / vt
        prev[i, 1] += (jt - held) * ty / vt


@njit(cache=True)
def collide_bounds(n, pos, prev, w, radius, friction, restitution, x0, y0, x1, y1, vmin,
                   push, hold, calm=False, slop=0.0):
    """Keep every particle inside the box ``(x0, y0)–(x1, y1)`` (ground, walls, ceiling).

    ``calm``: after the soft contacts (``kernels.discs``), which hold the bounds, this
    pass only puts right what they left inside, as ``resolve_static`` says, and leaves
    up to ``slop`` px of overlap to them (they hold a resting disc that deep).
    """
    x0, y0, x1, y1 = x0 - slop, y0 - slop, x1 + slop, y1 + slop
    for i in range(n):
        if w[i] == 0.0:
            continue
        r, mu, e = radius[i], friction[i], restitution[i]
        if pos[i, 1] - r < y0:
            resolve_static(i, 0.0, 1.0, y0 + r - pos[i, 1], pos, prev, mu, e, vmin, push, hold,
                           calm)
        if pos[i, 1] + r > y1:
            resolve_static(i, 0.0, -1.0, pos[i, 1] + r - y1, pos, prev, mu, e, vmin, push,
                           hold, calm)
        if pos[i, 0] - r < x0:
            resolve_static(i, 1.0, 0.0, x0 + r - pos[i, 0], pos, prev, mu, e, vmin, push, hold,
                           calm)
        if pos[i, 0] + r > x1:
            resolve_static(i, -1.0, 0.0, pos[i, 0] + r - x1, pos, prev, mu, e, vmin, push,
                           hold, calm)
        if hold > 0.0 and 2.0 * r < y1 - y0:
            # a wall's friction may have pulled a particle in a corner back into the
            # floor or ceiling: move it out without giving it velocity
            d = max(0.0, y0 + r - pos[i, 1]) - max(0.0, pos[i, 1] + r - y1)
            pos[i, 1] += d
            prev[i, 1] += d


@njit(cache=True)
def closest_on_segment(px, py, ax, ay, bx, by):
    """Closest point to ``p`` on segment ``ab`` and its parameter ``t`` in [0, 1]."""
    ex, ey = bx - ax, by - ay
    len2 = ex * ex + ey * ey
    t = 0.0 if len2 == 0.0 else min(1.0, max(0.0, ((px - ax) * ex + (py - ay) * ey) / len2))
    return ax + t * ex, ay + t * ey, t


@njit(cache=True)
def _crossing(sx, sy, px, py, ax, ay, bx, by):
    """Whether the path ``s → p`` went through segment ``ab`` from one side to the other.

    Returns ``(crossed, nx, ny, depth)``: the unit normal toward ``s``'s side and
    how far ``p`` is past the segment's line along it.
    """
    ex, ey = bx - ax, by - ay
    side_s = ex * (sy - ay) - ey * (sx - ax)
    side_p = ex * (py - ay) - ey * (px - ax)
    if side_s * side_p >= 0.0:
        return False, 0.0, 0.0, 0.0
    # where the path meets the line: it must lie on the segment itself
    f = side_s / (side_s - side_p)
    cx, cy = sx + f * (px - sx), sy + f * (py - sy)
    if (cx - ax) * ex + (cy - ay) * ey < 0.0 or (cx - bx) * ex + (cy - by) * ey > 0.0:
        return False, 0.0, 0.0, 0.0
    ln = math.sqrt(ex * ex + ey * ey)
    nx, ny = -ey / ln, ex / ln
    if side_s < 0.0:
        nx, ny = -nx, -ny
    return True, nx, ny, abs(side_p) / ln


@njit(cache=True, inline="always")
def surface(mu, e, k, surf, layers, mask):
    """Whether a particle or body with ``mask`` meets static piece ``k`` (its layer in
    ``layers``; rows past their end: every mask), and the contact's friction and
    restitution: its own ``mu``, ``e`` where the piece gives none (NaN in ``surf``'s
    columns 0, 1), else mixed (friction the geometric mean, restitution the larger)."""
    if k >= len(layers):
        return True, mu, e
    if mask & layers[k] == 0:
        return False, mu, e
    if not math.isnan(surf[k, 0]):
        mu = math.sqrt(mu * surf[k, 0])
    if not math.isnan(surf[k, 1]):
        e = max(e, surf[k, 1])
    return True, mu, e


@njit(cache=True)
def collide_segments(n, pos, prev, w, radius, friction, restitution, segs, vmin, push,
                     hold, since, calm, slop, surf, layers, mask):
    """Push particles out of the static segments ``segs`` (k, 4) they overlap.

    No tunnelling: ``since`` holds where each particle was when this substep's
    contacts began (its last resolved position). A centre whose path from there
    crossed a segment — a fast particle, or one shoved through a thin wall by a
    pair contact — goes back to the side it came from, ``radius`` clear of it.
    ``calm`` and ``slop``: as ``collide_bounds`` says (the soft contacts hold the
    segments; this pass puts right only what they left deeper than ``slop``).
    ``surf``, ``layers``, ``mask``: the segments' surfaces, as ``surface`` says.
    """
    # each particle's values in locals and the cheap box test first: a pass over a cup's
    # walls is mostly misses (3.6x faster than reading them per segment; the same bits)
    for i in range(n):
        if w[i] == 0.0:
            continue
        r = radius[i]
        sx, sy = since[i, 0], since[i, 1]
        px, py = pos[i, 0], pos[i, 1]
        for s in range(segs.shape[0]):
            ax, ay, bx, by = segs[s, 0], segs[s, 1], segs[s, 2], segs[s, 3]
            if (max(px, sx) + r < min(ax, bx) or min(px, sx) - r > max(ax, bx)
                    or max(py, sy) + r < min(ay, by) or min(py, sy) - r > max(ay, by)):
                continue
            meets, mu, e = surface(friction[i], restitution[i], s, surf, layers, mask[i])
            if not meets:
                continue
            crossed, nx, ny, past = _crossing(sx, sy, px, py, ax, ay, bx, by)
            if crossed:
                resolve_static(i, nx, ny, past + r, pos, prev, mu, e, vmin, push, hold,
                               calm)
                px, py = pos[i, 0], pos[i, 1]
                continue
            qx, qy, _ = closest_on_segment(px, py, ax, ay, bx, by)
            dx, dy = px - qx, py - qy
            d = math.sqrt(dx * dx + dy * dy)
            if d >= r - slop:
                continue
            if d > 1e-9:
                nx, ny = dx / d, dy / d
            else:
                ln = math.hypot(bx - ax, by - ay)
                nx, ny = -(by - ay) / ln, (bx - ax) / ln
            resolve_static(i, nx, ny, r - slop - d, pos, prev, mu, e, vmin, push, hold,
                           calm)
            px, py = pos[i, 0], pos[i, 1]


@njit(cache=True)
def inside_ring(px, py, xy_or_pos, idx, s, e):
    """Ray-crossing point-in-polygon test for ring ``idx[s:e]`` of rows of ``xy_or_pos``."""
    inside = False
    for t in range(s, e):
        # the next corner by a compare, not ``%``: an integer division an edge was most
        # of a cup's polygon pass
        a, b = idx[t], idx[t + 1 if t + 1 < e else s]
        ay, by = xy_or_pos[a, 1], xy_or_pos[b, 1]
        if (ay > py) != (by > py):
            ax, bx = xy_or_pos[a, 0], xy_or_pos[b, 0]
            if px < ax + (py - ay) * (bx - ax) / (by - ay):
                inside = not inside
    return inside


@njit(cache=True)
def ring_boxes(off, xy, idx):
    """Each ring's box as ``inside_ring`` can skip it: ``(x0, x1, y0, y1)`` (px) with x0, x1
    ``RING_MARGIN`` wider than its corners (the crossing's x is rounded), so a point left
    or right of it, at or above y1 or below y0 is outside (no edge straddles its y, or
    every crossing is on one side of it: an even count)."""
    box = np.empty((off.shape[0] - 1, 4))
    for p in range(off.shape[0] - 1):
        x0 = y0 = math.inf
        x1 = y1 = -math.inf
        for t in range(off[p], off[p + 1]):
            x, y = xy[idx[t], 0], xy[idx[t], 1]
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
        margin = RING_MARGIN * (1.0 + max(abs(x0), abs(x1)))
        box[p, 0], box[p, 1], box[p, 2], box[p, 3] = x0 - margin, x1 + margin, y0, y1
    return box


#: How much wider than its corners a ring's box is (relative to its coordinates): far
#: above the rounding of ``inside_ring``'s crossing (~1e-16 relative).
RING_MARGIN = 1e-9


@njit(cache=True)
def nearest_edge(px, py, xy_or_pos, idx, s, e):
    """Nearest edge of ring ``idx[s:e]`` to ``p``: ``(t_index, qx, qy, t, distance)``."""
    k = e - s
    best, bt, bqx, bqy, bd = -1, 0.0, 0.0, 0.0, math.inf
    for t in range(k):
        a, b = idx[s + t], idx[s + t + 1 if t + 1 < k else s]
        qx, qy, u = closest_on_segment(px, py, xy_or_pos[a, 0], xy_or_pos[a, 1],
                                       xy_or_pos[b, 0], xy_or_pos[b, 1])
        d = math.hypot(px - qx, py - qy)
        if d < bd:
            best, bt, bqx, bqy, bd = t, u, qx, qy, d
    return best, bqx, bqy, bt, bd


@njit(cache=True)
def collide_polygons(n, pos, prev, w, radius, friction, restitution, off, xy, idx, vmin,
                     push, hold, calm, surf, layers, mask):
    """Push particles that got inside a static polygon out through its nearest edge
    (``calm``: as ``resolve_static`` says; ``surf``, ``layers``: the polygons' surfaces,
    as ``surface`` says)."""
    box = ring_boxes(off, xy, idx)  # a cup's walls are mostly misses: the box test first
    for i in range(n):
        if w[i] == 0.0:
            continue
        px, py = pos[i, 0], pos[i, 1]
        for p in range(off.shape[0] - 1):
            s, e = off[p], off[p + 1]
            if (px < box[p, 0] or px > box[p, 1] or py < box[p, 2] or py >= box[p, 3]
                    or not inside_ring(px, py, xy, idx, s, e)):
                continue
            meets, mu, el = surface(friction[i], restitution[i], p, surf, layers, mask[i])
            if not meets:
                continue
            _, qx, qy, _, d = nearest_edge(px, py, xy, idx, s, e)
            if d > 1e-12:
                resolve_static(i, (qx - px) / d, (qy - py) / d, d + radius[i], pos, prev,
                               mu, el, vmin, push, hold, calm)
            break


@njit(cache=True)
def collide_level(n, pos, prev, w, radius, friction, restitution, vmin, push, hold, calm,
                  slop, mask, segs, since, seg_surf, seg_layer, poly_off, poly_xy, poly_idx,
                  poly_surf, poly_layer, bounds, use_bounds):
    """The level's segments (when ``since`` has a row per particle), polygons (when there
    are any) and the bounds (``use_bounds``: ``bounds`` = x0, y0, x1, y1), in that order,
    in one call: ``collide_segments``, ``collide_polygons``, ``collide_bounds``."""
    if len(since) >= n and len(segs):
        collide_segments(n, pos, prev, w, radius, friction, restitution, segs, vmin, push,
                         hold, since, calm, slop, seg_surf, seg_layer, mask)
    if len(poly_off) > 1:
        collide_polygons(n, pos, prev, w, radius, friction, restitution, poly_off, poly_xy,
                         poly_idx, vmin, push, hold, calm, poly_surf, poly_layer, mask)
    if use_bounds:
        collide_bounds(n, pos, prev, w, radius, friction, restitution, bounds[0], bounds[1],
                       bounds[2], bounds[3], vmin, push, hold, calm, slop)
