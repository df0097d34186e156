"""Tethers: springs with an end on a rigid body, XPBD (Project solves them).

Like ``distance.solve_distance``, with each end's generalised inverse mass
``w + iw·(r × n)²`` (a particle: ``w``), so pulling a crate by its corner also
turns it.
"""

from __future__ import annotations

import math

from numba import njit

from .support import carried


@njit(cache=True)
def _anchor(body, part, lx, ly, bpos, bangle, ppos):
    """World anchor point of one end and its arm from the body's centre (0 for a particle)."""
    if body >= 0:
        c, s = math.cos(bangle[body]), math.sin(bangle[body])
        ax, ay = c * lx - s * ly, s * lx + c * ly
        return bpos[body, 0] + ax, bpos[body, 1] + ay, ax, ay
    return ppos[part, 0], ppos[part, 1], 0.0, 0.0


@njit(cache=True)
def _inverse(body, part, rx, ry, nx, ny, bw, biw, pw):
    if body >= 0:
        t = rx * ny - ry * nx
        return bw[body] + biw[body] * t * t
    return pw[part]


@njit(cache=True)
def _shift(body, part, dx, dy, rx, ry, bpos, bangle, bw, biw, ppos, pw):
    """Move one end by the positional impulse ``(dx, dy)`` (mass·px) applied at arm ``r``."""
    if body >= 0:
        bpos[body, 0] += dx * bw[body]
        bpos[body, 1] += dy * bw[body]
        bangle[body] += biw[body] * (rx * dy - ry * dx)
    else:
        ppos[part, 0] += dx * pw[part]
        ppos[part, 1] += dy * pw[part]


@njit(cache=True, inline="always")
def _moved2(body, part, bpos, bprev, ppos, pprev):
    """Squared distance one end's particle or body centre moved this substep (px²)."""
    if body >= 0:
        ux, uy = bpos[body, 0] - bprev[body, 0], bpos[body, 1] - bprev[body, 1]
    else:
        ux, uy = ppos[part, 0] - pprev[part, 0], ppos[part, 1] - pprev[part, 1]
    return ux * ux + uy * uy


@njit(cache=True)
def solve_tethers(n, a_body, a_part, b_body, b_part, la, lb, rest, compliance, broken, lam,
                  bpos, bangle, bw, biw, ppos, pw, h, bprev, pprev, gx=0.0, gy=0.0,
                  slow=0.0):
    """One XPBD pass over springs with an end on a rigid body (``solve_distance`` with
    generalised inverse masses: pulling a crate by its corner also turns it).

    ``(gx, gy)``, ``slow`` (px per substep): as ``distance.sweep_springs`` — a resting
    tether whose upper end carries a heavier lower one shares as ``support.carried``
    says (a crate on a rope of light links).
    """
    inv_h2 = 1.0 / (h * h)
    slow2 = slow * slow
    for k in range(n):
        if broken[k]:
            continue
        ab, ap, bb, bp = a_body[k], a_part[k], b_body[k], b_part[k]
        pax, pay, rax, ray = _anchor(ab, ap, la[k, 0], la[k, 1], bpos, bangle, ppos)
        pbx, pby, rbx, rby = _anchor(bb, bp, lb[k, 0], lb[k, 1], bpos, bangle, ppos)
        dx, dy = pbx - pax, pby - pay
        d = math.sqrt(dx * dx + dy * dy)
        if d < 1e-12:
            continue
        nx, ny = dx / d, dy / d
        wa = _inverse(ab, ap, rax, ray, nx, ny, bw, biw, pw)
        wb = _inverse(bb, bp, rbx, rby, nx, ny, bw, biw, pw)
        fa = fb = 1.0  # how much of its true share each end takes
        if (wa != wb and slow2 > 0.0 and _moved2(ab, ap, bpos, bprev, ppos, pprev) < slow2
                and _moved2(bb, bp, bpos, bprev, ppos, pprev) < slow2):
            ca, cb = carried(wa, wb, -(nx * gx + ny * gy))
            fa, fb = (ca / wa if wa > 0.0 else 1.0), (cb / wb if wb > 0.0 else 1.0)
            wa, wb = ca, cb
        alpha = compliance[k] * inv_h2
        if wa + wb + alpha == 0.0:
            continue
        dlam = (rest[k] - d - alpha * lam[k]) / (wa + wb + alpha)
        lam[k] += dlam
        _shift(ab, ap, -dlam * fa * nx, -dlam * fa * ny, rax, ray, bpos, bangle, bw, biw,
               ppos, pw)
        _shift(bb, bp, dlam * fb * nx, dlam * fb * ny, rbx, rby, bpos, bangle, bw, biw,
               ppos, pw)
