"""A dense uniform grid over the particles' bounding box (counting sort), rebuilt per substep."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _bbox(n, pos, radius, skip):
    minx = miny = np.inf
    maxx = maxy = -np.inf
    rmax = 0.0
    for i in range(n):
        if skip[i] or not (np.isfinite(pos[i, 0]) and np.isfinite(pos[i, 1])):
            continue  # a NaN must not size the grid (World.check reports it)
        minx = min(minx, pos[i, 0])
        maxx = max(maxx, pos[i, 0])
        miny = min(miny, pos[i, 1])
        maxy = max(maxy, pos[i, 1])
        rmax = max(rmax, radius[i])
    return minx, miny, maxx, maxy, rmax


@njit(cache=True)
def _cell(offset, cell, count):
    """Cell index of ``offset`` px, clamped to [0, count) (NaN goes to 0, never out of range)."""
    k = offset / cell
    if not k >= 0.0:
        return 0
    return min(int(k), count - 1)


@njit(cache=True)
def _cells(extent, cell):
    """Cells of side ``cell`` across ``extent`` px, capped at 1e18 (an int64 holds it).

    Particles 2e9 px apart with tiny radii need ~1e15 cells a side before the
    cell grows; the cap keeps even a flung-out world's count from wrapping.
    """
    return int(min(extent / cell, 1e18)) + 1


@njit(cache=True)
def build_grid(n, pos, radius, slop):
    """Bin ``n`` particles into square cells of side ``2·max radius + slop``.

    Returns ``(x0, y0, cell, nx, ny, start, items)``: the particles of cell
    ``cx + cy·nx`` are ``items[start[c]:start[c+1]]``, in ascending row order
    (so sweeps are deterministic). The cell grows if the box would need more
    than ``4n + 64`` cells (particles flung far apart).
    """
    return build_grid_without(n, pos, radius, slop, np.zeros(n, dtype=np.bool_))


@njit(cache=True)
def build_grid_without(n, pos, radius, slop, skip):
    """``build_grid`` of the particles whose ``skip`` flag is false (the others are in no
    cell and do not size the grid)."""
    minx, miny, maxx, maxy, rmax = _bbox(n, pos, radius, skip)
    if not minx <= maxx:  # no particle, or none at a finite position
        minx = miny = maxx = maxy = 0.0
    cell = max(2.0 * rmax + slop, 1e-6)
    nx, ny = _cells(maxx - minx, cell), _cells(maxy - miny, cell)
    binned = n - np.sum(skip)
    while float(nx) * float(ny) > 4 * binned + 64:  # in floats: nx·ny may pass int64
        cell *= 2.0
        nx, ny = _cells(maxx - minx, cell), _cells(maxy - miny, cell)
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    cell_of = np.empty(n, dtype=np.int64)
    for i in range(n):
        if skip[i]:
            continue
        c = _cell(pos[i, 0] - minx, cell, nx) + _cell(pos[i, 1] - miny, cell, ny) * nx
        cell_of[i] = c
        start[c + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    items = np.empty(start[nx * ny], dtype=np.int64)
    for i in range(n):
        if skip[i]:
            continue
        items[fill[cell_of[i]]] = i
        fill[cell_of[i]] += 1
    return minx, miny, cell, nx, ny, start, items


#: A body whose bounding box covers more cells than this is kept out of the body grid
#: and tested by every query (a level-wide ground box, say).
BIG_BODY_CELLS = 64


@njit(cache=True)
def build_body_grid(n, pos, extent):
    """Bin ``n`` rigid bodies by the box of their bounding circle (``extent`` px about
    the centre of mass ``pos``) into square cells of twice the median extent.

    A body goes into every cell its box covers. Returns ``(x0, y0, cell, nx, ny,
    start, items, big)``: the bodies of cell ``cx + cy·nx`` are
    ``items[start[c]:start[c+1]]`` in ascending row order; ``big`` holds the rows of
    bodies that would cover more than ``BIG_BODY_CELLS`` cells (in no cell).
    """
    ext = extent[:n].copy() if n else np.ones(1)
    ext.sort()  # (in place: what np.sort does to its own copy)
    cell = max(2.0 * ext[len(ext) // 2], 1e-6)
    minx = miny = np.inf
    maxx = maxy = -np.inf
    for i in range(n):
        if not (np.isfinite(pos[i, 0]) and np.isfinite(pos[i, 1])):
            continue
        minx, maxx = min(minx, pos[i, 0]), max(maxx, pos[i, 0])
        miny, maxy = min(miny, pos[i, 1]), max(maxy, pos[i, 1])
    if not minx <= maxx:
        minx = miny = maxx = maxy = 0.0
    nx, ny = _cells(maxx - minx, cell), _cells(maxy - miny, cell)
    while float(nx) * float(ny) > 4 * n + 64:
        cell *= 2.0
        nx, ny = _cells(maxx - minx, cell), _cells(maxy - miny, cell)
    span = np.zeros((n, 4), dtype=np.int64)  # each body's cell range, or -1: big
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    nbig = 0
    for i in range(n):
        c0 = _cell(pos[i, 0] - extent[i] - minx, cell, nx)
        c1 = _cell(pos[i, 0] + extent[i] - minx, cell, nx)
        r0 = _cell(pos[i, 1] - extent[i] - miny, cell, ny)
        r1 = _cell(pos[i, 1] + extent[i] - miny, cell, ny)
        if (c1 - c0 + 1) * (r1 - r0 + 1) > BIG_BODY_CELLS:
            span[i, 0] = -1
            nbig += 1
            continue
        span[i, 0], span[i, 1], span[i, 2], span[i, 3] = c0, c1, r0, r1
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                start[c + r * nx + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    items = np.empty(start[-1], dtype=np.int64)
    big = np.empty(nbig, dtype=np.int64)
    nbig = 0
    for i in range(n):
        if span[i, 0] < 0:
            big[nbig] = i
            nbig += 1
            continue
        for r in range(span[i, 2], span[i, 3] + 1):
            for c in range(span[i, 0], span[i, 1] + 1):
                items[fill[c + r * nx]] = i
                fill[c + r * nx] += 1
    return minx, miny, cell, nx, ny, start, items, big
