"""XPBD distance constraints (springs, rope segments, jelly edges), and their rest lengths."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def solve_distance(order, pos, w, a, b, rest, compliance, broken, lam, h):
    """One Gauss–Seidel pass over the springs in ``order`` (Macklin et al. 2016).

    ``C = |x_b − x_a| − rest``, ``alpha = compliance / h²``,
    ``Δlam = (−C − alpha·lam) / (w_a + w_b + alpha)``,
    ``x_a −= w_a·Δlam·n``, ``x_b += w_b·Δlam·n``. Broken springs are skipped.
    ``lam`` accumulates over the iterations of one substep. ``order`` (see
    ``coloring``) keeps consecutive springs independent, which is faster.
    """
    inv_h2 = 1.0 / (h * h)
    for s in order:
        if broken[s]:
            continue
        i, j = a[s], b[s]
        wsum = w[i] + w[j]
        if wsum == 0.0:
            continue
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        d = math.sqrt(dx * dx + dy * dy)
        if d < 1e-12:
            continue
        alpha = compliance[s] * inv_h2
        dlam = (rest[s] - d - alpha * lam[s]) / (wsum + alpha)
        lam[s] += dlam
        nx, ny = dx / d, dy / d
        pos[i, 0] -= w[i] * dlam * nx
        pos[i, 1] -= w[i] * dlam * ny
        pos[j, 0] += w[j] * dlam * nx
        pos[j, 1] += w[j] * dlam * ny


@njit(cache=True)
def measure_rest(pos, a, b, rest, shortest):
    """Rest lengths with the NaN ones measured: ``|x_b − x_a|``, 0 if below ``shortest``.

    Returns ``(rest, longest)``: a new array, and the longest length measured
    (0 if none; NaN if a measured end is NaN). One call for a loaded file's
    springs or for the one spring the API adds.
    """
    out = rest.copy()
    longest = 0.0
    for s in range(rest.shape[0]):
        if not math.isnan(rest[s]):
            continue
        i, j = a[s], b[s]
        d = math.hypot(pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1])
        out[s] = 0.0 if d < shortest else d
        if d > longest or math.isnan(d):  # once NaN, it stays NaN
            longest = d
    return out, longest
