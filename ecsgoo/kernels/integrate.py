"""Verlet integration of particles, one substep."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def integrate(n, pos, prev, force, w, pinned, pin, gx, gy, damp, h,
              grabbed, tx, ty, pull):
    """Advance every particle one substep of ``h`` seconds.

    ``x' = x + (x − x_prev)·damp + (g + F·w)·h²``; pinned particles sit on
    their pin, immovable ones (``w = 0``) stay put. The grabbed particle (row
    ``grabbed``, or −1) is then pulled ``(target − x)·pull`` toward the pointer.
    """
    h2 = h * h
    for i in range(n):
        if pinned[i]:
            pos[i, 0] = prev[i, 0] = pin[i, 0]
            pos[i, 1] = prev[i, 1] = pin[i, 1]
            continue
        if w[i] == 0.0:
            prev[i, 0] = pos[i, 0]
            prev[i, 1] = pos[i, 1]
            continue
        x, y = pos[i, 0], pos[i, 1]
        pos[i, 0] = x + (x - prev[i, 0]) * damp + (gx + force[i, 0] * w[i]) * h2
        pos[i, 1] = y + (y - prev[i, 1]) * damp + (gy + force[i, 1] * w[i]) * h2
        prev[i, 0] = x
        prev[i, 1] = y
    if 0 <= grabbed < n and not pinned[grabbed]:
        pos[grabbed, 0] += (tx - pos[grabbed, 0]) * pull
        pos[grabbed, 1] += (ty - pos[grabbed, 1]) * pull
