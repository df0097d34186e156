"""Particle–particle circle contacts over the uniform grid (half-neighbourhood sweep)."""

from __future__ import annotations

import math

from numba import njit

from .contacts import _restitution_gap


@njit(cache=True)
def resolve_pair(i, j, nx, ny, pen, pos, prev, w, mu, e, vmin, push):
    """Separate particles ``i`` and ``j`` (normal ``n`` from i to j); see the module doc."""
    wi, wj = w[i], w[j]
    wsum = wi + wj
    rx = (pos[j, 0] - prev[j, 0]) - (pos[i, 0] - prev[i, 0])
    ry = (pos[j, 1] - prev[j, 1]) - (pos[i, 1] - prev[i, 1])
    un0 = rx * nx + ry * ny
    quiet = pen - min(pen, push)
    gap = _restitution_gap(un0, un0 + pen - quiet, e, vmin)
    tx, ty = rx - un0 * nx, ry - un0 * ny
    vt = math.sqrt(tx * tx + ty * ty)
    jt = min(vt, mu * pen) / wsum
    if vt > 1e-15:
        tx, ty = tx / vt, ty / vt
    for k, f in ((i, -wi / wsum), (j, wj / wsum)):
        pos[k, 0] += f * pen * nx
        pos[k, 1] += f * pen * ny
        # prev follows the quiet part of the move, less the bounce, plus the friction
        prev[k, 0] += f * ((quiet - gap) * nx + jt * wsum * tx)
        prev[k, 1] += f * ((quiet - gap) * ny + jt * wsum * ty)


@njit(cache=True)
def _touch(i, j, pos, prev, w, radius, group, friction, restitution, vmin, push):
    if group[i] != 0 and group[i] == group[j]:
        return
    if w[i] + w[j] == 0.0:
        return
    dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
    rr = radius[i] + radius[j]
    d2 = dx * dx + dy * dy
    if d2 >= rr * rr:
        return
    d = math.sqrt(d2)
    if d > 1e-12:
        nx, ny = dx / d, dy / d
    else:  # exactly on top of each other: pick a fixed direction (deterministic)
        nx, ny = 0.0, 1.0
    mu = math.sqrt(friction[i] * friction[j])
    e = max(restitution[i], restitution[j])
    resolve_pair(i, j, nx, ny, rr - d, pos, prev, w, mu, e, vmin, push)


@njit(cache=True)
def collide_pairs(pos, prev, w, radius, group, friction, restitution, nx, ny, start, items,
                  vmin, push):
    """Resolve every overlapping pair once: each cell against itself and 4 neighbours.

    The neighbours are right, up-left, up and up-right, so each cell pair is
    visited once (a half-neighbourhood sweep); cells are at least one
    diameter wide, so no contact is missed.
    """
    for cy in range(ny):
        for cx in range(nx):
            c = cx + cy * nx
            for t in range(start[c], start[c + 1]):
                i = items[t]
                for u in range(t + 1, start[c + 1]):
                    _touch(i, items[u], pos, prev, w, radius, group, friction, restitution,
                           vmin, push)
                for ox, oy in ((1, 0), (-1, 1), (0, 1), (1, 1)):
                    kx, ky = cx + ox, cy + oy
                    if kx < 0 or kx >= nx or ky >= ny:
                        continue
                    k = kx + ky * nx
                    for u in range(start[k], start[k + 1]):
                        _touch(i, items[u], pos, prev, w, radius, group, friction,
                               restitution, vmin, push)
