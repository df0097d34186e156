"""Merge kernels: which touching fruits of the same kind pair up, and where fruits started."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .grid import _cell, build_grid


@njit(cache=True)
def _fruits_by_entity(n, kind, entity):
    """Rows of the fruits (``kind >= 0``) among the first ``n`` particles, oldest entity first."""
    count = 0
    for i in range(n):
        if kind[i] >= 0:
            count += 1
    rows = np.empty(count, np.int64)
    ids = np.empty(count, np.int64)
    count = 0
    for i in range(n):
        if kind[i] >= 0:
            rows[count], ids[count] = i, entity[i]
            count += 1
    return rows[np.argsort(ids)]


@njit(cache=True)
def merge_pairs(n, pos, radius, kind, entity, slop, fresh):
    """Pairs of touching same-kind fruits, each fruit in at most one pair.

    Fruits touch when ``|x_i − x_j| ≤ r_i + r_j + slop``; a pair needs at least
    one ``fresh`` fruit (pass all True to consider every pair). Fruits are visited
    oldest entity first (deterministic, whatever the row layout); each one not
    yet paired takes its nearest unpaired touching partner of its kind (ties: the
    older one). Broad phase: a uniform grid over the fruits only, cells of
    ``2·max radius + slop``, so touching fruits are in neighbouring cells.
    Returns ``(first, second)``: particle rows, ``first`` the older of each pair.
    """
    rows = _fruits_by_entity(n, kind, entity)
    k = rows.shape[0]
    fpos = np.empty((k, 2), np.float64)
    frad = np.empty(k, np.float64)
    for f in range(k):
        fpos[f, 0], fpos[f, 1], frad[f] = pos[rows[f], 0], pos[rows[f], 1], radius[rows[f]]
    x0, y0, cell, nx, ny, start, items = build_grid(k, fpos, frad, slop)
    used = np.zeros(k, np.bool_)
    first = np.empty(k // 2, np.int64)
    second = np.empty(k // 2, np.int64)
    pairs = 0
    for f in range(k):
        if used[f]:
            continue
        g = _nearest_partner(f, fpos, frad, kind, rows, used, fresh, x0, y0, cell, nx, ny,
                             start, items, slop)
        if g >= 0:
            used[f] = used[g] = True
            first[pairs], second[pairs] = rows[f], rows[g]
            pairs += 1
    return first[:pairs], second[:pairs]


@njit(cache=True)
def _nearest_partner(f, fpos, frad, kind, rows, used, fresh, x0, y0, cell, nx, ny, start,
                     items, slop):
    """Index of the nearest unpaired touching fruit of ``f``'s kind (−1 if none)."""
    cx = _cell(fpos[f, 0] - x0, cell, nx)
    cy = _cell(fpos[f, 1] - y0, cell, ny)
    best, best_d = -1, np.inf
    for gy in range(max(cy - 1, 0), min(cy + 2, ny)):
        for gx in range(max(cx - 1, 0), min(cx + 2, nx)):
            c = gx + gy * nx
            for t in range(start[c], start[c + 1]):
                g = items[t]
                if g == f or used[g] or kind[rows[g]] != kind[rows[f]]:
                    continue
                if not (fresh[rows[f]] or fresh[rows[g]]):
                    continue
                d = math.hypot(fpos[g, 0] - fpos[f, 0], fpos[g, 1] - fpos[f, 1])
                if d <= frad[f] + frad[g] + slop and (d < best_d or (d == best_d and g < best)):
                    best, best_d = g, d
    return best


@njit(cache=True)
def start_positions(n, pos, pin, kind, entity, seen_pos, seen, was_fruit):
    """Where each particle was when the frame began, and which fruits are new since.

    ``seen_pos``/``seen``/``was_fruit`` are indexed by entity id and come from
    ``record`` at the end of the previous merge. A particle seen then starts
    there; one created since starts at its spawn point (``pin``: where it was
    added, or last placed by writing its position). Returns ``(start, fresh,
    count)``: (n, 2) positions, the fruits that were not fruits at the previous
    merge, and how many.
    """
    start = np.empty((n, 2), np.float64)
    fresh = np.zeros(n, np.bool_)
    count = 0
    for i in range(n):
        e = entity[i]
        if _seen(e, seen):
            start[i, 0], start[i, 1] = seen_pos[e, 0], seen_pos[e, 1]
        else:
            start[i, 0], start[i, 1] = pin[i, 0], pin[i, 1]
        if _fresh(kind[i], e, seen, was_fruit):
            fresh[i] = True
            count += 1
    return start, fresh, count


@njit(cache=True, inline="always")
def _seen(e, seen):
    """Whether entity ``e`` was a particle at the last ``record``."""
    return e < seen.shape[0] and seen[e]


@njit(cache=True, inline="always")
def _fresh(kind, e, seen, was_fruit):
    """Whether entity ``e``, a particle of ``kind``, is a fruit that was not one at the
    last ``record`` (new, or made a fruit since)."""
    return kind >= 0 and not (_seen(e, seen) and was_fruit[e])


@njit(cache=True)
def record(n, pos, kind, entity):
    """Every particle's position and fruit-ness by entity id, for ``start_positions``."""
    top = 0
    for i in range(n):
        top = max(top, entity[i] + 1)
    seen_pos = np.zeros((top, 2), np.float64)
    seen = np.zeros(top, np.bool_)
    was_fruit = np.zeros(top, np.bool_)
    _write_record(n, pos, kind, entity, seen_pos, seen, was_fruit)
    return seen_pos, seen, was_fruit


@njit(cache=True)
def _write_record(n, pos, kind, entity, seen_pos, seen, was_fruit):
    """``record``'s rows written into arrays of unseen entities that every id fits."""
    for i in range(n):
        e = entity[i]
        seen_pos[e, 0], seen_pos[e, 1] = pos[i, 0], pos[i, 1]
        seen[e] = True
        was_fruit[e] = kind[i] >= 0


@njit(cache=True)
def nothing_to_merge(n, pos, pin, radius, kind, entity, slop, seen_pos, seen, was_fruit):
    """Whether a Merge frame has nothing to merge (``systems.merge.Merge.process``'s usual
    case, in one call): no fruit new since the last ``record`` touched one of its kind as
    the frame began (``start_positions``) and no two of a kind touch now. The same answer
    as ``merge_pairs`` finding no pair: its greedy pairing finds one whenever some two
    fruits may pair (the first of them it visits is unpaired, or paired already)."""
    fresh_count = 0
    for i in range(n):
        fresh_count += _fresh(kind[i], entity[i], seen, was_fruit)
    if fresh_count:
        start, fresh, _ = start_positions(n, pos, pin, kind, entity, seen_pos, seen,
                                          was_fruit)
        if _some_pair(n, start, radius, kind, entity, slop, fresh):
            return False
    return not _some_pair(n, pos, radius, kind, entity, slop, np.ones(n, np.bool_))


#: Fruits up to which ``_some_pair`` tests every pair of a kind (no grid, no sort).
FEW_FRUITS = 128


@njit(cache=True)
def _some_pair(n, pos, radius, kind, entity, slop, fresh):
    """Whether ``merge_pairs`` would find a pair: two fruits of one kind, one of them
    ``fresh``, at most ``r1 + r2 + slop`` apart (its test, to the bit). A box of fruits
    is tested pair by pair; more go through ``merge_pairs``' grid."""
    if n > FEW_FRUITS:
        first, _ = merge_pairs(n, pos, radius, kind, entity, slop, fresh)
        return len(first) > 0
    for i in range(n):
        if kind[i] < 0:
            continue
        for j in range(i + 1, n):
            if kind[j] != kind[i] or not (fresh[i] or fresh[j]):
                continue
            d = math.hypot(pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1])
            if d <= radius[i] + radius[j] + slop:
                return True
    return False


@njit(cache=True)
def nothing_then_record(n, pos, pin, radius, kind, entity, slop, seen_pos, seen, was_fruit):
    """``nothing_to_merge`` and, when there is nothing, ``record`` into the arrays given
    (the usual Merge frame in one call, no arrays made): 0 when something merges (nothing
    written), 1 when nothing does and the record is written, 2 when nothing does but an
    entity id does not fit the arrays (nothing written: ``record`` makes bigger ones).
    Unseen entities' rows read as ``record`` leaves them: not seen, not a fruit."""
    if not nothing_to_merge(n, pos, pin, radius, kind, entity, slop, seen_pos, seen,
                            was_fruit):
        return 0
    for i in range(n):
        if entity[i] >= seen.shape[0]:
            return 2
    seen[:] = False
    was_fruit[:] = False
    _write_record(n, pos, kind, entity, seen_pos, seen, was_fruit)
    return 1
