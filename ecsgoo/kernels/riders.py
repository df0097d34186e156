"""Particles riding on links (the goo game's crawlers): where they sit, how they move, what
they weigh on the link's ends.

The same bits as the numpy form it replaced (``tests/naive.py``).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def ride_links(pos, prev, h, pinned, mass, rows, a, b, t, load, gx, gy, wind, where,
               speed, force, touched):
    """Riders (particle ``rows``) at ``t`` along links from rows ``a`` to ``b``.

    ``where = (1 − t)·x_a + t·x_b`` (px) and ``speed`` likewise of the ends' velocities
    ``(pos − prev) / h`` (px/s); with ``load`` > 0 each rider of mass ``m`` weighs
    ``load·m·(gx + wind, gy)`` on its link's unpinned ends, split ``1 − t`` to ``a`` and
    ``t`` to ``b``, added to ``force`` (mass·px/s², per row, rider after rider, its ``a``
    end first) and flagged in ``touched``."""
    for k in range(len(rows)):
        u, v = 1.0 - t[k], t[k]
        ra, rb = a[k], b[k]
        for d in range(2):
            where[k, d] = u * pos[ra, d] + v * pos[rb, d]
            speed[k, d] = (u * ((pos[ra, d] - prev[ra, d]) / h)
                           + v * ((pos[rb, d] - prev[rb, d]) / h))
        if load > 0.0:
            m = mass[rows[k]]
            fx, fy = load * m * (gx + wind), load * m * gy
            if not pinned[ra]:
                force[ra, 0] += u * fx
                force[ra, 1] += u * fy
                touched[ra] = True
            if not pinned[rb]:
                force[rb, 0] += v * fx
                force[rb, 1] += v * fy
                touched[rb] = True
