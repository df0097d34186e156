"""Particles against soft-body outlines (capsule chains of particles that may be pushed back)."""

from __future__ import annotations

import math

from numba import njit

from .contacts import _restitution_gap, inside_ring, nearest_edge


@njit(cache=True)
def resolve_edge(i, a, b, t, nx, ny, d, pos, prev, w, mu, e, vmin, push, hold):
    """Move point ``i`` out by ``d`` along ``n``; edge ``ab`` takes the reaction at ``t``.

    The edge's share goes to its ends by barycentric weight (1 − t, t) and
    inverse mass: ``lam = d / (w_i + (1−t)² w_a + t² w_b)``, so momentum is kept.
    Velocity handling follows ``contacts`` (push, restitution, friction, hold).
    """
    ba, bb = 1.0 - t, t
    denom = w[i] + ba * ba * w[a] + bb * bb * w[b]
    if denom == 0.0:
        return
    rx = (pos[i, 0] - prev[i, 0]) - ba * (pos[a, 0] - prev[a, 0]) - bb * (pos[b, 0] - prev[b, 0])
    ry = (pos[i, 1] - prev[i, 1]) - ba * (pos[a, 1] - prev[a, 1]) - bb * (pos[b, 1] - prev[b, 1])
    un0 = rx * nx + ry * ny
    quiet = d - min(d, push)
    gap = _restitution_gap(un0, un0 + d - quiet, e, vmin)
    tx, ty = rx - un0 * nx, ry - un0 * ny
    vt = math.sqrt(tx * tx + ty * ty)
    jt = min(vt, mu * d)
    held = min(jt, hold)
    if vt > 1e-15:
        tx, ty = tx / vt, ty / vt
    for k, c in ((i, 1.0), (a, -ba), (b, -bb)):
        f = c * w[k] / denom
        pos[k, 0] += f * d * nx - f * held * tx
        pos[k, 1] += f * d * ny - f * held * ty
        prev[k, 0] += f * ((quiet - gap) * nx + (jt - held) * tx)
        prev[k, 1] += f * ((quiet - gap) * ny + (jt - held) * ty)


@njit(cache=True)
def _is_member(i, idx, s, e):
    for t in range(s, e):
        if idx[t] == i:
            return True
    return False


@njit(cache=True)
def _ring_box(pos, radius, idx, s, e):
    """Bounding box of ring ``idx[s:e]``'s vertex centres and its largest vertex radius."""
    minx = miny = math.inf
    maxx = maxy = -math.inf
    rmax = 0.0
    for t in range(s, e):
        minx = min(minx, pos[idx[t], 0])
        maxx = max(maxx, pos[idx[t], 0])
        miny = min(miny, pos[idx[t], 1])
        maxy = max(maxy, pos[idx[t], 1])
        rmax = max(rmax, radius[idx[t]])
    return minx, miny, maxx, maxy, rmax


@njit(cache=True)
def outline_contact(px, py, ri, pos, radius, idx, s, e):
    """How particle ``(px, py)`` of radius ``ri`` meets ring ``idx[s:e]``, edges as capsules.

    Each edge ``ab`` is as thick as its vertices' discs: at the nearest point
    (``t`` along it) its half-width is ``(1 − t)·r_a + t·r_b``. Returns ``(edge,
    t, nx, ny, depth)``: push the particle ``depth`` px along ``n``; ``depth``
    ≤ 0 means no contact. A centre inside the ring goes out through its nearest
    edge, to the same clearance.
    """
    edge, qx, qy, t, d = nearest_edge(px, py, pos, idx, s, e)
    k = e - s
    a, b = idx[s + edge], idx[s + (edge + 1) % k]
    gap = ri + (1.0 - t) * radius[a] + t * radius[b]
    if d < 1e-12:
        return edge, t, 0.0, 0.0, 0.0
    if inside_ring(px, py, pos, idx, s, e):
        return edge, t, (qx - px) / d, (qy - py) / d, d + gap
    return edge, t, (px - qx) / d, (py - qy) / d, gap - d


@njit(cache=True)
def collide_outlines(rings, off, idx, pos, prev, w, radius, group, friction, restitution,
                     x0, y0, cell, nx, ny, start, items, vmin, push, hold):
    """Keep particles off soft-body outlines (rings of particles that may be pushed back).

    An outline is the chain of capsules its vertex discs span (as it is drawn);
    see ``outline_contact``. Broad phase: the ring's bounding box, grown by
    the reach of a contact, over the grid cells (one cell more each way: a
    cell is at least a diameter). A ring's own vertices and particles sharing
    its non-zero group are skipped.
    """
    for r in range(rings):
        s, e = off[r], off[r + 1]
        minx, miny, maxx, maxy, rmax = _ring_box(pos, radius, idx, s, e)
        g = group[idx[s]]
        cx0 = max(0, int((minx - x0) / cell) - 1)
        cx1 = min(nx - 1, int((maxx - x0) / cell) + 1)
        cy0 = max(0, int((miny - y0) / cell) - 1)
        cy1 = min(ny - 1, int((maxy - y0) / cell) + 1)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                c = cx + cy * nx
                for u in range(start[c], start[c + 1]):
                    i = items[u]
                    px, py = pos[i, 0], pos[i, 1]
                    if w[i] == 0.0 or (g != 0 and group[i] == g):
                        continue
                    reach = radius[i] + rmax
                    if (px < minx - reach or px > maxx + reach or py < miny - reach
                            or py > maxy + reach or _is_member(i, idx, s, e)):
                        continue
                    edge, t, unx, uny, depth = outline_contact(px, py, radius[i], pos, radius,
                                                               idx, s, e)
                    if depth <= 0.0:
                        continue
                    a, b = idx[s + edge], idx[s + (edge + 1) % (e - s)]
                    mu = math.sqrt(friction[i] * 0.5 * (friction[a] + friction[b]))
                    resolve_edge(i, a, b, t, unx, uny, depth, pos, prev, w,
                                 mu, max(restitution[i], restitution[a]), vmin, push, hold)
