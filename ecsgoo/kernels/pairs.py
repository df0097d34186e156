"""Particle–particle circle contacts over the uniform grid (half-neighbourhood sweep)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .contacts import _restitution_gap
from .support import carried


@njit(cache=True, inline="always")
def _prepare(i, j, nx, ny, pen, pos, prev, w, mu, e, vmin, push, gx, gy):
    """Shares of the move (``fi``, ``fj``), what prev follows along ``n``, friction, ``t``.

    ``(gx, gy)``: gravity's direction; a resting pair (approaching slower than ``vmin``)
    where a light disc carries a heavy one shares as ``support.carried`` says.
    """
    wi, wj = w[i], w[j]
    rx = (pos[j, 0] - prev[j, 0]) - (pos[i, 0] - prev[i, 0])
    ry = (pos[j, 1] - prev[j, 1]) - (pos[i, 1] - prev[i, 1])
    un0 = rx * nx + ry * ny
    if wi != wj and -un0 <= vmin:
        wi, wj = carried(wi, wj, nx * gx + ny * gy)  # > 0: j under i, carrying it
    wsum = wi + wj
    quiet = pen - min(pen, push)
    gap = _restitution_gap(un0, un0 + pen - quiet, e, vmin)
    tx, ty = rx - un0 * nx, ry - un0 * ny
    vt = math.sqrt(tx * tx + ty * ty)
    jt = min(vt, mu * pen) / wsum
    if vt > 1e-15:
        tx, ty = tx / vt, ty / vt
    return -wi / wsum, wj / wsum, quiet - gap, jt * wsum, tx, ty


@njit(cache=True, inline="always")
def resolve_pair(i, j, nx, ny, pen, pos, prev, w, mu, e, vmin, push, gx=0.0, gy=0.0):
    """Separate particles ``i`` and ``j`` (normal ``n`` from i to j); see ``contacts``.

    pos moves out of the overlap; prev follows the quiet part of the move, less the
    bounce, plus the friction (velocity only).
    """
    fi, fj, follow, rub, tx, ty = _prepare(i, j, nx, ny, pen, pos, prev, w, mu, e, vmin, push,
                                           gx, gy)
    qx, qy = follow * nx + rub * tx, follow * ny + rub * ty
    pos[i, 0] += fi * pen * nx
    pos[i, 1] += fi * pen * ny
    pos[j, 0] += fj * pen * nx
    pos[j, 1] += fj * pen * ny
    prev[i, 0] += fi * qx
    prev[i, 1] += fi * qy
    prev[j, 0] += fj * qx
    prev[j, 1] += fj * qy


@njit(cache=True, inline="always")
def hold_pair(i, j, nx, ny, pen, pos, prev, w, mu, e, vmin, push, hold, gx=0.0, gy=0.0):
    """``resolve_pair`` whose friction takes the first ``hold`` px of the slip back in pos.

    A separate body rather than a branch in ``resolve_pair``: any extra work in
    that body slows the default sweep by 8–20 % (measured); choosing between the two
    bodies on the loop-invariant ``hold`` costs it a few per cent at most.
    """
    fi, fj, follow, rub, tx, ty = _prepare(i, j, nx, ny, pen, pos, prev, w, mu, e, vmin, push,
                                           gx, gy)
    held = min(rub, hold)
    px, py = pen * nx - held * tx, pen * ny - held * ty
    qx, qy = follow * nx + (rub - held) * tx, follow * ny + (rub - held) * ty
    pos[i, 0] += fi * px
    pos[i, 1] += fi * py
    pos[j, 0] += fj * px
    pos[j, 1] += fj * py
    prev[i, 0] += fi * qx
    prev[i, 1] += fi * qy
    prev[j, 0] += fj * qx
    prev[j, 1] += fj * qy


@njit(cache=True)
def _pack(items, reverse, sign, pos, prev, w, radius, group, layer, mask, friction,
          restitution):
    """The particles in cell order (``items``, last first if ``reverse``), positions times
    ``sign``: one pass writing every packed column (nine gathers and two negations
    cost twice as much)."""
    m = items.shape[0]
    sp, sq = np.empty((m, 2)), np.empty((m, 2))
    sw, sr, sf, se = np.empty(m), np.empty(m), np.empty(m), np.empty(m)
    sg = np.empty(m, dtype=group.dtype)
    sl, sm = np.empty(m, dtype=layer.dtype), np.empty(m, dtype=mask.dtype)
    for t in range(m):
        i = items[m - 1 - t] if reverse else items[t]
        sp[t, 0], sp[t, 1] = sign * pos[i, 0], sign * pos[i, 1]
        sq[t, 0], sq[t, 1] = sign * prev[i, 0], sign * prev[i, 1]
        sw[t], sr[t], sg[t], sl[t], sm[t] = w[i], radius[i], group[i], layer[i], mask[i]
        sf[t], se[t] = friction[i], restitution[i]
    return sp, sq, sw, sr, sg, sl, sm, sf, se


@njit(cache=True)
def _moving_cells(cells, start, sw):
    """Per grid cell: whether it holds a disc that can move (packed inverse masses ``sw``)."""
    out = np.zeros(cells, dtype=np.bool_)
    for c in range(cells):
        for t in range(start[c], start[c + 1]):
            if sw[t] != 0.0:
                out[c] = True
                break
    return out


@njit(cache=True, inline="always")
def _any_moving(moving, c, cx, cy, nx, ny):
    """Whether cell ``c`` or a neighbour it is swept against (right, and the three above)
    holds a disc that can move."""
    if moving[c] or (cx + 1 < nx and moving[c + 1]):
        return True
    if cy + 1 >= ny:
        return False
    up = c + nx
    return moving[up] or (cx > 0 and moving[up - 1]) or (cx + 1 < nx and moving[up + 1])


@njit(cache=True)
def collide_pairs(pos, prev, w, radius, group, layer, mask, friction, restitution, nx, ny,
                  start, items,
                  vmin, push, hold=0.0, downward=False, gx=0.0, gy=0.0):
    """Resolve every overlapping pair once: each cell against itself and 4 neighbours.

    The neighbours are right, up-left, up and up-right, so each cell pair is
    visited once (a half-neighbourhood sweep); cells are at least one
    diameter wide, so no contact is missed. The sweep runs on copies packed in
    cell order (neighbours are then contiguous in memory: ~7× faster than
    indexing the store), written back at the end.

    ``hold`` > 0: friction holds in position (``hold_pair``). ``downward``: sweep
    from the top row down, so that under gravity a pile's upper contacts come
    first and their push reaches the ground within the one pass (a 10-disc column
    rests with less overlap at the bottom, and the pass no longer shoves lower
    particles back and forth, dragging the ones on them along). It runs the same
    sweep on the grid turned by 180°: cells and packed rows reversed, positions
    negated (contacts do not care which way is up), and negated back at the end.
    """
    sign = -1.0 if downward else 1.0
    m = items.shape[0]
    if downward:
        start = m - start[::-1]
    sp, sq, sw, sr, sg, sl, sm, sf, se = _pack(items, downward, sign, pos, prev, w, radius,
                                               group, layer, mask, friction, restitution)
    # cells holding only static, immovable or frozen discs are skipped; with none such
    # (most scenes) the cells are not even looked at
    still = False
    for t in range(m):
        if sw[t] == 0.0:
            still = True
            break
    moving = _moving_cells(nx * ny, start, sw) if still else np.zeros(0, dtype=np.bool_)
    for cy in range(ny):
        for cx in range(nx):
            c = cx + cy * nx
            # cells are packed in order, so the own+right cells and the three cells above
            # are two contiguous ranges of the packed arrays
            own_end = start[c + 2] if cx + 1 < nx else start[c + 1]
            up_lo = start[c + nx - 1 if cx > 0 else c + nx] if cy + 1 < ny else 0
            up_hi = start[c + nx + 2 if cx + 1 < nx else c + nx + 1] if cy + 1 < ny else 0
            # only static, immovable or frozen discs in these five cells: no pair to move
            if still and not _any_moving(moving, c, cx, cy, nx, ny):
                continue
            for a in range(start[c], start[c + 1]):
                for q in range(2):
                    lo, hi = (a + 1, own_end) if q == 0 else (up_lo, up_hi)
                    for b in range(lo, hi):
                        dx, dy = sp[b, 0] - sp[a, 0], sp[b, 1] - sp[a, 1]
                        rr = sr[a] + sr[b]
                        d2 = dx * dx + dy * dy
                        if d2 >= rr * rr or (sg[a] != 0 and sg[a] == sg[b]):
                            continue
                        if (sl[a] & sm[b]) == 0 or (sl[b] & sm[a]) == 0:
                            continue  # their layers do not meet
                        if sw[a] + sw[b] == 0.0:
                            continue
                        d = math.sqrt(d2)
                        # exactly on top of each other: a fixed direction (deterministic)
                        nx_, ny_ = (dx / d, dy / d) if d > 1e-12 else (0.0, 1.0)
                        mu, e = math.sqrt(sf[a] * sf[b]), max(se[a], se[b])
                        if hold > 0.0:
                            hold_pair(a, b, nx_, ny_, rr - d, sp, sq, sw, mu, e, vmin, push, hold,
                                      gx, gy)
                        else:
                            resolve_pair(a, b, nx_, ny_, rr - d, sp, sq, sw, mu, e, vmin, push, gx,
                                         gy)
    for t in range(m):
        i = items[m - 1 - t] if downward else items[t]
        pos[i, 0], pos[i, 1] = sign * sp[t, 0], sign * sp[t, 1]
        prev[i, 0], prev[i, 1] = sign * sq[t, 0], sign * sq[t, 1]
