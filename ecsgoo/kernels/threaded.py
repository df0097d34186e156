"""The kernels that share a frame's work among threads (``World(threads=k)``,
``physics.threads`` calls them).

Each gives the bits of the one-thread kernel it stands for, whatever the number of
threads: a band or part writes what no other one reads or writes, and the bands'
rows are joined in the one-thread order.

- ``find_frame_banded`` is ``discs.find_frame``. Bands of the grid's items find their
  planes (``discs.planes_of_items``, each widening its own discs' allowances), then
  bands of its rows their pairs (``discs.pairs_in_rows``), each into its own rows. They
  are copied into ``ij`` and ``cf`` in the order ``find_discs`` writes them, and then
  framed and keyed in bands of rows.
- ``project_parts`` is ``project.project_rounds`` for springs, areas and shapes in
  parts that share no particle (islands). A particle's constraints run in the
  one-thread order, and no other part touches it.

These compile on their first use (numba's ``parallel=True``), not in the warm-up:
only a world given more than one thread calls them.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .area import solve_area
from .discs import (
    contact_keys,
    pairs_in_rows,
    planes_of_items,
    prepare_discs,
    track_grid,
)
from .distance import sweep_springs, unpack_lam
from .shape import solve_shape


@njit(cache=True, inline="always")  # in its parallel caller: the warm-up never reaches it
def _row_bands(parts, nx, ny, start):
    """``parts + 1`` row bounds over the grid's ``ny`` rows, about as many items in each
    band (the pairs' work goes with the items)."""
    bounds = np.empty(parts + 1, dtype=np.int64)
    total = start[nx * ny]
    cy = 0
    for t in range(parts):
        while cy < ny and start[cy * nx] * parts < total * t:
            cy += 1
        bounds[t] = cy
    bounds[parts] = ny
    return bounds


@njit(cache=True, parallel=True)
def find_frame_banded(parts, n, pos, prev, w, radius, group, layer, mask, friction,
                      restitution, frozen, any_frozen, substeps, extra, bounds, walls, segs,
                      h, ij, cf, pairs, surf, layers, gx, gy, vmin, ent, wall, shift, reach,
                      pinned, force, ax, ay, damp, first, grabbed, track, path, band_ij,
                      band_cf):
    """``discs.find_frame`` in ``parts`` bands. ``band_ij``/``band_cf`` are each band's
    rows, ``(2 · parts, room, …)``: the planes' bands first, then the pairs' (the first
    band finds its planes in ``ij``/``cf`` themselves). Returns
    ``(m, keys, flipped)`` as ``find_frame`` does, ``m`` −1 when the contacts do not fit
    ``ij``."""
    nx, ny, start, items, amax, bmax = track_grid(
        n, pos, prev, w, radius, frozen, any_frozen, substeps, extra, reach, pinned, force,
        ax, ay, damp, h, first, grabbed, track, path)
    k = items.shape[0]
    count = np.zeros(2 * parts, dtype=np.int64)
    for t in prange(parts):  # the first band's planes are the first rows: found in place
        count[t] = planes_of_items(
            k * t // parts, k * (t + 1) // parts, 0, pos, prev, w, radius, mask, friction,
            restitution, reach, items, bounds, walls, segs, h, ij if t == 0 else band_ij[t],
            cf if t == 0 else band_cf[t], surf, layers, track, amax, extra)
    rows = _row_bands(parts, nx, ny if pairs else 0, start)
    for t in prange(parts):  # (after every plane: they widen the allowances pairs read)
        count[parts + t] = pairs_in_rows(rows[t], rows[t + 1], 0, pos, prev, w, radius, group,
                                         layer, mask, friction, restitution, reach, nx, ny,
                                         start, items, h, band_ij[parts + t],
                                         band_cf[parts + t], track, amax, bmax)
    at = np.zeros(2 * parts + 1, dtype=np.int64)
    for t in range(2 * parts):
        if count[t] < 0:
            return -1, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.bool_)
        at[t + 1] = at[t] + count[t]
    m = at[2 * parts]
    if m > ij.shape[0]:
        return -1, np.empty(0, dtype=np.int64), np.empty(0, dtype=np.bool_)
    for t in prange(1, 2 * parts):
        ij[at[t]:at[t + 1]] = band_ij[t, :count[t]]
        cf[at[t]:at[t + 1]] = band_cf[t, :count[t]]
    keys = np.empty(m, dtype=np.int64)
    flipped = np.empty(m, dtype=np.bool_)
    for t in prange(parts):
        a, b = m * t // parts, m * (t + 1) // parts
        prepare_discs(b - a, ij[a:b], cf[a:b], pos, w, radius, gx, gy, vmin)
        contact_keys(b - a, ij[a:b], ent, wall, shift, keys[a:b], flipped[a:b])
    return m, keys, flipped


@njit(cache=True, parallel=True)
def project_parts(parts, rounds, h, pos, w, mass, spring_at, ends, vals, order, lam, area_at,
                  area_off, area_idx, rest_area, pressure, stiffness, grad, shape_at,
                  shape_off, shape_idx, shape_rest, alpha, scale):
    """``project.project_rounds`` (without chains and tethers) for ``parts`` parts: part
    ``t``'s packed springs are rows ``spring_at[t]``… of ``ends``/``vals``/``order``,
    its areas rows ``area_at[t]``… of ``area_off`` (the CSR over ``area_idx``, ``grad``
    beside it) and the areas' columns, its shapes likewise (``alpha``: each shape's
    stiffness an application)."""
    for t in prange(parts):
        s0, s1 = spring_at[t], spring_at[t + 1]
        a0, a1 = area_at[t], area_at[t + 1]
        g0, g1 = shape_at[t], shape_at[t + 1]
        e, v = ends[s0:s1], vals[s0:s1]
        for r in range(rounds):
            sweep_springs(e, v, pos, w, h, r % 2 == 1)
            if a1 > a0:
                solve_area(a1 - a0, pos, w, area_off[a0:], area_idx, rest_area[a0:],
                           pressure[a0:], stiffness[a0:], grad)
            if g1 > g0:
                solve_shape(g1 - g0, pos, w, mass, shape_off[g0:], shape_idx, shape_rest,
                            alpha[g0:], scale[g0:])
        if rounds % 2:
            sweep_springs(e, v, pos, w, h, True)
        unpack_lam(order[s0:s1], v, lam)
