"""Tethers: springs with an end on a rigid body, XPBD (Project solves them).

Like ``distance.solve_distance``, with each end's generalised inverse mass
``w + iw·(r × n)²`` (a particle: ``w``), so pulling a crate by its corner also
turns it.
"""

from __future__ import annotations

import math

from numba import njit


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


@njit(cache=True)
def solve_tethers(n, a_body, a_part, b_body, b_part, la, lb, rest, compliance, broken, skip,
                  lam, bpos, bangle, bw, biw, ppos, pw, h):
    """One XPBD pass over springs with an end on a rigid body (``solve_distance`` with
    generalised inverse masses: pulling a crate by its corner also turns it), but those
    ``skip`` flags (a rope's last link: ``chains`` solves it with the rope)."""
    inv_h2 = 1.0 / (h * h)
    for k in range(n):
        if broken[k] or skip[k]:
            continue
        ab, ap, bb, bp = a_body[k], a_part[k], b_body[k], b_part[k]
        pax, pay, rax, ray = _anchor(ab, ap, la[k, 0], la[k, 1], bpos, bangle, ppos)
        pbx, pby, rbx, rby = _anchor(bb, bp, lb[k, 0], lb[k, 1], bpos, bangle, ppos)
        dx, dy = pbx - pax, pby - pay
        d = math.sqrt(dx * dx + dy * dy)
        if d < 1e-12:
            continue
        nx, ny = dx / d, dy / d
        wsum = (_inverse(ab, ap, rax, ray, nx, ny, bw, biw, pw)
                + _inverse(bb, bp, rbx, rby, nx, ny, bw, biw, pw))
        alpha = compliance[k] * inv_h2
        if wsum + alpha == 0.0:
            continue
        dlam = (rest[k] - d - alpha * lam[k]) / (wsum + alpha)
        lam[k] += dlam
        _shift(ab, ap, -dlam * nx, -dlam * ny, rax, ray, bpos, bangle, bw, biw, ppos, pw)
        _shift(bb, bp, dlam * nx, dlam * ny, rbx, rby, bpos, bangle, bw, biw, ppos, pw)
