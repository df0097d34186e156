"""Shape matching (Müller et al. 2005) in 2D with the closed-form best rotation."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def solve_shape(g, pos, w, mass, off, idx, rest, alpha, scale):
    """Pull each of ``g`` groups toward its rest shape, rotated and moved to fit best.

    Centroid ``c = Σ m_i x_i / Σ m_i``, offsets ``q_i = x_i − c``, rest offsets
    ``r_i``; ``θ = atan2(Σ m (q_y r_x − q_x r_y), Σ m q·r)``; goal
    ``g_i = c + scale·R(θ) r_i``; ``x_i += (g_i − x_i)·alpha`` for movable particles.
    ``alpha`` (already converted to one application) and ``scale`` are per group.
    """
    for grp in range(g):
        s, e = off[grp], off[grp + 1]
        msum = cx = cy = 0.0
        for t in range(s, e):
            i = idx[t]
            m = mass[i] if math.isfinite(mass[i]) else 1e12
            msum += m
            cx += m * pos[i, 0]
            cy += m * pos[i, 1]
        cx /= msum
        cy /= msum
        num = den = 0.0
        for t in range(s, e):
            i = idx[t]
            m = mass[i] if math.isfinite(mass[i]) else 1e12
            qx, qy = pos[i, 0] - cx, pos[i, 1] - cy
            num += m * (qy * rest[t, 0] - qx * rest[t, 1])
            den += m * (qx * rest[t, 0] + qy * rest[t, 1])
        c, sn = math.cos(math.atan2(num, den)), math.sin(math.atan2(num, den))
        for t in range(s, e):
            i = idx[t]
            if w[i] == 0.0:
                continue
            gx = cx + scale[grp] * (c * rest[t, 0] - sn * rest[t, 1])
            gy = cy + scale[grp] * (sn * rest[t, 0] + c * rest[t, 1])
            pos[i, 0] += (gx - pos[i, 0]) * alpha[grp]
            pos[i, 1] += (gy - pos[i, 1]) * alpha[grp]
