"""XPBD distance constraints (springs, rope segments, jelly edges), and their rest lengths."""

from __future__ import annotations

import math

import numpy as np
from numba import njit


def solve_distance(order, pos, w, a, b, rest, compliance, broken, lam, h):
    """One Gauss–Seidel pass over the springs in ``order`` (Macklin et al. 2016).

    ``C = |x_b − x_a| − rest``, ``alpha = compliance / h²``,
    ``Δlam = (−C − alpha·lam) / (w_a + w_b + alpha)``,
    ``x_a −= w_a·Δlam·n``, ``x_b += w_b·Δlam·n``. Broken springs are skipped.
    ``lam`` accumulates over the iterations of one substep. ``order`` (see
    ``coloring``) keeps consecutive springs independent, which is faster.
    Project packs once a frame and sweeps several times (``pack_springs``,
    ``sweep_springs``, ``unpack_lam``, the kernels); this is the three in one, for
    a single pass (tests, tools).
    """
    ends, vals = np.empty((order.shape[0], 2), dtype=np.int64), np.empty((order.shape[0], 3))
    pack_springs(order, a, b, rest, compliance, broken, lam, ends, vals)
    sweep_springs(ends, vals, pos, w, h, False)
    unpack_lam(order, vals, lam)


@njit(cache=True)
def pack_springs(order, a, b, rest, compliance, broken, lam, ends, vals):
    """The springs in ``order`` into two packed arrays of ``len(order)`` rows: ``ends``
    (a, b; -1 if broken) and ``vals`` (rest, compliance, lam). A sweep then reads
    them one after the other instead of through ``order`` (with ``sweep_springs``
    dividing once a spring, a third faster on the jelly scene: measured)."""
    for k in range(order.shape[0]):
        s = order[k]
        ends[k, 0], ends[k, 1] = (-1, -1) if broken[s] else (a[s], b[s])
        vals[k, 0], vals[k, 1], vals[k, 2] = rest[s], compliance[s], lam[s]


@njit(cache=True)
def pack_springs_taken(order, a, b, rest, compliance, broken, lam, ends, vals, taken):
    """``lam`` zeroed, ``pack_springs``, then the packed springs ``taken`` out of the
    sweep (their ends -1: the chains of ``kernels.chains`` solve them), in one call: a
    frame's packing while the chains found before still hold."""
    lam[:] = 0.0
    pack_springs(order, a, b, rest, compliance, broken, lam, ends, vals)
    for k in taken:
        ends[k, 0] = ends[k, 1] = -1


@njit(cache=True)
def sweep_springs(ends, vals, pos, w, h, backward):
    """One pass of ``solve_distance`` over packed springs, last to first if ``backward``."""
    inv_h2 = 1.0 / (h * h)
    m = ends.shape[0]
    for q in range(m):
        k = m - 1 - q if backward else q
        i, j = ends[k, 0], ends[k, 1]
        if i < 0:
            continue
        wi, wj = w[i], w[j]
        wsum = wi + wj
        if wsum == 0.0:
            continue
        # the ends in locals: after the store into vals the compiler would load them
        # again (it may alias pos), 20 % of the jelly scene's sweep (measured)
        xi, yi, xj, yj = pos[i, 0], pos[i, 1], pos[j, 0], pos[j, 1]
        dx = xj - xi
        dy = yj - yi
        d = math.sqrt(dx * dx + dy * dy)
        if d < 1e-12:
            continue
        rest, compliance, lam = vals[k, 0], vals[k, 1], vals[k, 2]
        alpha = compliance * inv_h2
        # Δlam / d in one division: Δlam acts along the unit normal (dx, dy) / d
        f = (rest - d - alpha * lam) / ((wsum + alpha) * d)
        vals[k, 2] = lam + f * d
        pos[i, 0] = xi - wi * f * dx
        pos[i, 1] = yi - wi * f * dy
        pos[j, 0] = xj + wj * f * dx
        pos[j, 1] = yj + wj * f * dy


@njit(cache=True)
def unpack_lam(order, vals, lam):
    """The packed multipliers back into the springs' ``lam`` column."""
    for k in range(order.shape[0]):
        lam[order[k]] = vals[k, 2]


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
