"""Particles against soft-body outlines (rings of particles that may be pushed back)."""

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
def collide_outlines(rings, off, idx, pos, prev, w, group, friction, restitution,
                     x0, y0, cell, nx, ny, start, items, vmin, push, hold):
    """Push particles found inside a ring (an outline) out to its nearest edge.

    Broad phase: the ring's bounding box over the grid cells. A ring's own
    vertices and particles sharing its non-zero group are skipped.
    """
    for r in range(rings):
        s, e = off[r], off[r + 1]
        minx = miny = math.inf
        maxx = maxy = -math.inf
        for t in range(s, e):
            minx = min(minx, pos[idx[t], 0])
            maxx = max(maxx, pos[idx[t], 0])
            miny = min(miny, pos[idx[t], 1])
            maxy = max(maxy, pos[idx[t], 1])
        g = group[idx[s]]
        cx0 = max(0, int((minx - x0) / cell))
        cx1 = min(nx - 1, int((maxx - x0) / cell))
        cy0 = max(0, int((miny - y0) / cell))
        cy1 = min(ny - 1, int((maxy - y0) / cell))
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                c = cx + cy * nx
                for u in range(start[c], start[c + 1]):
                    i = items[u]
                    px, py = pos[i, 0], pos[i, 1]
                    if w[i] == 0.0 or (g != 0 and group[i] == g):
                        continue
                    if px < minx or px > maxx or py < miny or py > maxy:
                        continue
                    if _is_member(i, idx, s, e) or not inside_ring(px, py, pos, idx, s, e):
                        continue
                    t_edge, qx, qy, t, d = nearest_edge(px, py, pos, idx, s, e)
                    if d < 1e-12:
                        continue
                    a, b = idx[s + t_edge], idx[s + (t_edge + 1) % (e - s)]
                    mu = math.sqrt(friction[i] * 0.5 * (friction[a] + friction[b]))
                    resolve_edge(i, a, b, t, (qx - px) / d, (qy - py) / d, d, pos, prev, w,
                                 mu, max(restitution[i], restitution[a]), vmin, push, hold)
