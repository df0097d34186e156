"""Particle–particle circle contacts over the uniform grid (half-neighbourhood sweep)."""

from __future__ import annotations

import math

from numba import njit

from .contacts import _bounce


@njit(cache=True)
def resolve_pair(i, j, nx, ny, pen, pos, prev, w, mu, e, vmin):
    """Separate particles ``i`` and ``j`` (normal ``n`` from i to j) and apply impulses."""
    wi, wj = w[i], w[j]
    wsum = wi + wj
    ci, cj = pen * wi / wsum, pen * wj / wsum
    pos[i, 0] -= ci * nx
    pos[i, 1] -= ci * ny
    prev[i, 0] -= ci * nx
    prev[i, 1] -= ci * ny
    pos[j, 0] += cj * nx
    pos[j, 1] += cj * ny
    prev[j, 0] += cj * nx
    prev[j, 1] += cj * ny
    rx = (pos[j, 0] - prev[j, 0]) - (pos[i, 0] - prev[i, 0])
    ry = (pos[j, 1] - prev[j, 1]) - (pos[i, 1] - prev[i, 1])
    un = rx * nx + ry * ny
    if un >= 0.0:
        return
    jn = _bounce(un, e, vmin) / wsum
    prev[i, 0] += jn * wi * nx
    prev[i, 1] += jn * wi * ny
    prev[j, 0] -= jn * wj * nx
    prev[j, 1] -= jn * wj * ny
    tx, ty = rx - un * nx, ry - un * ny
    vt = math.sqrt(tx * tx + ty * ty)
    if vt > 1e-15:
        jt = min(vt, -mu * un) / wsum
        tx, ty = tx / vt, ty / vt
        prev[i, 0] -= jt * wi * tx
        prev[i, 1] -= jt * wi * ty
        prev[j, 0] += jt * wj * tx
        prev[j, 1] += jt * wj * ty


@njit(cache=True)
def _touch(i, j, pos, prev, w, radius, group, friction, restitution, vmin):
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
    resolve_pair(i, j, nx, ny, rr - d, pos, prev, w, mu, e, vmin)


@njit(cache=True)
def collide_pairs(pos, prev, w, radius, group, friction, restitution, nx, ny, start, items,
                  vmin):
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
                           vmin)
                for ox, oy in ((1, 0), (-1, 1), (0, 1), (1, 1)):
                    kx, ky = cx + ox, cy + oy
                    if kx < 0 or kx >= nx or ky >= ny:
                        continue
                    k = kx + ky * nx
                    for u in range(start[k], start[k + 1]):
                        _touch(i, items[u], pos, prev, w, radius, group, friction,
                               restitution, vmin)
