"""The first row whose state has left the representable range (``physics.astray``)."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, _nrt=False)
def first_astray(n, pos, prev, limit, step_limit):
    """The first of rows ``0..n`` with a coordinate not finite or beyond ``±limit`` px, or
    a last substep's move longer than ``step_limit`` px along an axis; -1 if none."""
    for i in range(n):
        for k in range(2):
            x, d = pos[i, k], pos[i, k] - prev[i, k]
            if not (abs(x) <= limit and abs(d) <= step_limit):
                return i
    return -1


@njit(cache=True, _nrt=False)
def first_unturnable(n, angle):
    """The first of rows ``0..n`` whose angle is not finite; -1 if none."""
    for i in range(n):
        if not math.isfinite(angle[i]):
            return i
    return -1


@njit(cache=True, _nrt=False)
def first_astray_body(n, pos, prev, angle, limit, step_limit):
    """``first_astray``'s row of rows ``0..n``, or else ``first_unturnable``'s, in one call:
    ``(row, 0)`` for a position or move, ``(row, 1)`` for an angle, ``(-1, 0)`` if none."""
    row = first_astray(n, pos, prev, limit, step_limit)
    if row >= 0:
        return row, 0
    row = first_unturnable(n, angle)
    return row, 1 if row >= 0 else 0
