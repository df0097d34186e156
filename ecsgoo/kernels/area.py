"""Area (pressure) constraints on rings of particles."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def solve_area(r, pos, w, off, idx, rest_area, pressure, stiffness, grad):
    """Project each of ``r`` rings toward area ``rest_area × pressure``.

    ``∇_i A = ½ (y_{i+1} − y_{i−1}, x_{i−1} − x_{i+1})``,
    ``lam = −(A − A_target) / Σ w_i |∇_i A|²``, ``x_i += stiffness·lam·w_i·∇_i A``.
    ``grad`` is scratch space of at least ``len(idx)`` rows.
    """
    for ring in range(r):
        s, e = off[ring], off[ring + 1]
        k = e - s
        # one pass: the shoelace area ½ Σ (x_i y_{i+1} − x_{i+1} y_i) and the gradients
        area = denom = 0.0
        for t in range(k):
            i = idx[s + t]
            nxt = idx[s + t + 1] if t + 1 < k else idx[s]
            prv = idx[s + t - 1] if t > 0 else idx[e - 1]
            xi, yi, xn, yn = pos[i, 0], pos[i, 1], pos[nxt, 0], pos[nxt, 1]
            area += xi * yn - xn * yi
            # in locals: read back from grad they would be loaded again after its stores
            gx, gy = 0.5 * (yn - pos[prv, 1]), 0.5 * (pos[prv, 0] - xn)
            grad[s + t, 0], grad[s + t, 1] = gx, gy
            denom += w[i] * (gx ** 2 + gy ** 2)
        C = 0.5 * area - rest_area[ring] * pressure[ring]
        if denom < 1e-12:
            continue
        lam = -C / denom * stiffness[ring]
        for t in range(k):
            i = idx[s + t]
            pos[i, 0] += lam * w[i] * grad[s + t, 0]
            pos[i, 1] += lam * w[i] * grad[s + t, 1]
