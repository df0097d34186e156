"""Bulk writes of a few rows (the views' ``place`` and ``push``): checked and written in one
call, where a dozen small numpy operations on three rows cost ~15 µs; and the kernels'
copy of many rows (``copy_rows``).

The same bits as the component setters and ``apply_force`` (``tests/unit/world/
test_views.py``); a value out of range writes nothing and the caller's numpy path names it.
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True, _nrt=False)
def copy_rows(src, dst, n):
    """``dst[:n] = src[:n]`` for two C-contiguous 2D arrays of the same row width, as one
    flat loop: numba copies a 2D slice row by row, 4-6× slower for rows of two (a pile's
    positions) and 2× for the contact rows' 28 (a pyramid's 802: 7.3 against 3.3 µs)."""
    a, b = src.reshape(-1), dst.reshape(-1)
    for k in range(n * src.shape[1]):
        b[k] = a[k]


@njit(cache=True)
def _in_range(v, low, high, open_low, zero, inf):
    """``limits.Range(low, high, open_low, zero, inf).contains(v)`` (NaN never is)."""
    above = v > low if open_low else v >= low
    return (above and v <= high) or (zero and v == 0.0) or (inf and v == math.inf)


@njit(cache=True)
def within(values, low, high, open_low, zero, inf):
    """Whether every one of ``values`` (a flat float64 array) is in the range
    (``_in_range``)."""
    for v in values:
        if not _in_range(v, low, high, open_low, zero, inf):
            return False
    return True


@njit(cache=True)
def place_rows(n, pos, prev, pin, pinned, rows, new, vel, h, axis):
    """``views.place``'s writes: each of ``rows`` moved to ``new`` (keeping its step
    ``pos − prev``; its pin follows) and then given velocity ``vel`` (``prev = pos −
    vel·h``), both flat (``(k, 2)`` raveled, or ``(k,)`` of one ``axis`` ≥ 0); either empty:
    not written. ``False``, and nothing written, if a row is not one of the table's ``n``."""
    for r in rows:
        if r < 0 or r >= n:
            return False
    width = 2 if axis < 0 else 1
    first = 0 if axis < 0 else axis
    for i in range(len(rows)):
        r = rows[i]
        if len(new):
            for d in range(width):
                value = new[i * width + d]
                prev[r, first + d] += value - pos[r, first + d]
                pos[r, first + d] = value
                pin[r, first + d] = value
            if axis >= 0 and not pinned[r]:  # a free one's spawn point: where it is
                pin[r, 0], pin[r, 1] = pos[r, 0], pos[r, 1]
        if len(vel):
            for d in range(width):
                prev[r, first + d] = pos[r, first + d] - vel[i * width + d] * h
    return True


@njit(cache=True)
def place_checked(n, pos, prev, pin, pinned, rows, new, vel, h, axis, bounds, asleep, still,
                  wake):
    """``views.place`` in one call: every one of ``new`` and ``vel`` (flat, as
    ``place_rows`` takes them) in its field's range (``bounds``: rows x, y, vx, vy, columns
    ``within``'s low, high, open_low, zero, inf), every row one of the table's ``n``; then
    ``place_rows``' writes and, if ``wake``, the rows' still counts started again
    (``still_again``). Returns 1 (a position out of its range), 2 (a velocity out of its
    range) or 3 (a row the table lacks), nothing written; else 0, or 4 when one of the
    rows is asleep (its island wakes: ``sleeping.wake_rows``)."""
    width = 2 if axis < 0 else 1
    first = 0 if axis < 0 else axis
    for code in range(2):
        values = new if code == 0 else vel
        for i in range(len(values)):
            b = 2 * code + first + i % width
            if not _in_range(values[i], bounds[b, 0], bounds[b, 1], bounds[b, 2] != 0.0,
                             bounds[b, 3] != 0.0, bounds[b, 4] != 0.0):
                return code + 1
    if not place_rows(n, pos, prev, pin, pinned, rows, new, vel, h, axis):
        return 3
    if wake and still_again(asleep, still, rows):
        return 4
    return 0


@njit(cache=True)
def push_rows(n, col, rows, force, low, high, open_low, zero, inf):
    """``views.push``'s write: ``force`` (``(k, 2)``) added to ``col`` at ``rows``, if every
    force and every sum is in the range (``within``'s) and every row one of the table's
    ``n``; ``False``, and nothing written, if not."""
    for r in rows:
        if r < 0 or r >= n:
            return False
    for i in range(len(rows)):
        for d in range(2):
            f = force[i, d]
            if not (_in_range(f, low, high, open_low, zero, inf)
                    and _in_range(col[rows[i], d] + f, low, high, open_low, zero, inf)):
                return False
    for i in range(len(rows)):
        for d in range(2):
            col[rows[i], d] += force[i, d]
    return True


@njit(cache=True)
def still_again(asleep, still, rows):
    """``rows``' still counts start again (``sleeping.wake_rows``); whether one of them is
    asleep (its island then wakes, one entity at a time)."""
    any_asleep = False
    for r in rows:
        still[r] = 0
        any_asleep = any_asleep or asleep[r]
    return any_asleep


@njit(cache=True)
def write_checked(n, target, width, rows, values, low, high, open_low, zero, inf):
    """``views.Rows.write`` of float rows: each of ``rows`` (numpy's indexing: −1 is the
    last of the ``n`` rows) of a column (``target``: its array flat, ``width`` values a
    row) set to its row of ``values`` (flat), all in the range, then written in order (a
    row given twice: the last wins). 0 when written; 1 when a value is out of range, 2
    when a row is not one of the ``n``: nothing written (the numpy path says why)."""
    for v in values:
        if not _in_range(v, low, high, open_low, zero, inf):
            return 1
    for r in rows:
        if r < -n or r >= n:
            return 2
    for k in range(len(rows)):
        r = rows[k] + n if rows[k] < 0 else rows[k]
        for c in range(width):
            target[r * width + c] = values[k * width + c]
    return 0
