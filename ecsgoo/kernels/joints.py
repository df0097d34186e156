"""Joints: hinges and welds between rigid bodies and particles, XPBD positional.

A hinge moves its two anchor points onto each other, split by the ends'
generalised inverse masses ``w + iw·(r × n)²`` (a particle: ``w``); a weld then
also turns the two bodies back to their rest angle difference. Zero
compliance: a joint is exact within the iterations. ``force`` records what the
hinge held (correction / h², mass·px/s²) for the Break stage.
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
def solve_joints(n, a_body, a_part, b_body, b_part, la, lb, weld, rest_angle, broken, force,
                 bpos, bangle, bw, biw, ppos, pw, h):
    """One positional pass over joints ``0..n``."""
    for k in range(n):
        if broken[k]:
            continue
        ab, ap, bb, bp = a_body[k], a_part[k], b_body[k], b_part[k]
        if weld[k]:
            iwa, iwb = biw[ab], biw[bb]
            if iwa + iwb > 0.0:
                err = bangle[bb] - bangle[ab] - rest_angle[k]
                bangle[ab] += err * iwa / (iwa + iwb)
                bangle[bb] -= err * iwb / (iwa + iwb)
        pax, pay, rax, ray = _anchor(ab, ap, la[k, 0], la[k, 1], bpos, bangle, ppos)
        pbx, pby, rbx, rby = _anchor(bb, bp, lb[k, 0], lb[k, 1], bpos, bangle, ppos)
        dx, dy = pbx - pax, pby - pay
        gap = math.sqrt(dx * dx + dy * dy)
        if gap < 1e-12:
            continue
        nx, ny = dx / gap, dy / gap
        wa = _inverse(ab, ap, rax, ray, nx, ny, bw, biw, pw)
        wb = _inverse(bb, bp, rbx, rby, nx, ny, bw, biw, pw)
        if wa + wb == 0.0:
            continue
        dl = gap / (wa + wb)
        _shift(ab, ap, dl * nx, dl * ny, rax, ray, bpos, bangle, bw, biw, ppos, pw)
        _shift(bb, bp, -dl * nx, -dl * ny, rbx, rby, bpos, bangle, bw, biw, ppos, pw)
        force[k] += dl / (h * h)


@njit(cache=True)
def solve_tethers(n, a_body, a_part, b_body, b_part, la, lb, rest, compliance, broken, lam,
                  bpos, bangle, bw, biw, ppos, pw, h):
    """One XPBD pass over springs with an end on a rigid body (``solve_distance`` with
    generalised inverse masses: pulling a crate by its corner also turns it)."""
    inv_h2 = 1.0 / (h * h)
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
        wsum = (_inverse(ab, ap, rax, ray, nx, ny, bw, biw, pw)
                + _inverse(bb, bp, rbx, rby, nx, ny, bw, biw, pw))
        alpha = compliance[k] * inv_h2
        if wsum + alpha == 0.0:
            continue
        dlam = (rest[k] - d - alpha * lam[k]) / (wsum + alpha)
        lam[k] += dlam
        _shift(ab, ap, -dlam * nx, -dlam * ny, rax, ray, bpos, bangle, bw, biw, ppos, pw)
        _shift(bb, bp, dlam * nx, dlam * ny, rbx, rby, bpos, bangle, bw, biw, ppos, pw)
