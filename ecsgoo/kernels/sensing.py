"""What every sensor holds this frame, in two passes over all the sensors at once
(``sensors.update``): the particles' discs, then the soft bodies' outlines.

A sensor is a row of ``geo``: ``(x, y, half width, half height, radius, x0, y0, x1, y1)``
(centre, a box's half sizes, a circle's radius, its bounds) and a ``kind`` (``BOX``,
``CIRCLE``, ``POLYGON``: its corners ``poly_xy[poly_off[k]:poly_off[k + 1]]``, and
``poly_idx`` their rows, as ``kernels.contacts``' rings take them). Units: px.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .contacts import inside_ring, nearest_edge

BOX, CIRCLE, POLYGON = 0, 1, 2


@njit(cache=True)
def disc_meets(k, kind, geo, poly_off, poly_xy, poly_idx, px, py, r):
    """Whether the disc at ``(px, py)`` of radius ``r`` overlaps sensor ``k``'s region
    (a polygon's: its centre inside, or an edge within ``r``)."""
    x, y = geo[k, 0], geo[k, 1]
    if kind[k] == CIRCLE:
        return math.hypot(px - x, py - y) <= geo[k, 4] + r
    if kind[k] == BOX:
        qx = min(max(px, x - geo[k, 2]), x + geo[k, 2])
        qy = min(max(py, y - geo[k, 3]), y + geo[k, 3])
        return math.hypot(px - qx, py - qy) <= r
    lo, hi = poly_off[k], poly_off[k + 1]
    return (inside_ring(px, py, poly_xy, poly_idx, lo, hi)
            or nearest_edge(px, py, poly_xy, poly_idx, lo, hi)[4] <= r)


@njit(cache=True)
def sense_discs(count, kind, geo, poly_off, poly_xy, poly_idx, mask, pos, radius, layer, x0,
                y0, cell, nx, ny, start, items, out):
    """Pairs ``(sensor, particle row)`` whose row is in the sensor (its layer seen by the
    sensor's ``mask``, −1: every layer, 0 too; its disc overlapping the region), looked
    for through a grid of the particles (one cell of every row will do:
    ``physics.broadphase.one_cell``);
    written into ``out`` (m, 2) in sensor order; the count, or −1 when ``out`` is full."""
    m = 0
    for k in range(count):
        cx0 = max(int(math.floor((geo[k, 5] - x0) / cell)) - 1, 0)
        cx1 = min(int(math.floor((geo[k, 7] - x0) / cell)) + 1, nx - 1)
        cy0 = max(int(math.floor((geo[k, 6] - y0) / cell)) - 1, 0)
        cy1 = min(int(math.floor((geo[k, 8] - y0) / cell)) + 1, ny - 1)
        seen, bx0, by0, bx1, by1 = mask[k], geo[k, 5], geo[k, 6], geo[k, 7], geo[k, 8]
        for gy in range(cy0, cy1 + 1):
            for gx in range(cx0, cx1 + 1):
                c = gx + gy * nx
                for u in range(start[c], start[c + 1]):
                    i = items[u]
                    # the layer and bounds tests here, where they cost a few ns: a call
                    # of a dozen arrays for them cost ~80 ns a row (numba does not inline
                    # it), which made four stars over 12 discs ~4 µs
                    if seen != -1 and (layer[i] & seen) == 0:
                        continue
                    px, py, r = pos[i, 0], pos[i, 1], radius[i]
                    if px + r < bx0 or px - r > bx1 or py + r < by0 or py - r > by1:
                        continue
                    if disc_meets(k, kind, geo, poly_off, poly_xy, poly_idx, px, py, r):
                        if m == len(out):
                            return -1
                        out[m, 0], out[m, 1] = k, i
                        m += 1
    return m


@njit(cache=True)
def sense_outlines(count, kind, geo, poly_off, poly_xy, poly_idx, mask, rings, off, idx, pos,
                   radius, layer, out):
    """Pairs ``(sensor, outline)`` where one of the outline's member discs overlaps the
    sensor (its first member's layer seen by the sensor's ``mask``); into ``out`` (m, 2),
    the count, or −1 when ``out`` is full."""
    box = np.empty((rings, 4))
    for o in range(rings):  # each outline's bounds, its members' discs included
        box[o, 0] = box[o, 1] = np.inf
        box[o, 2] = box[o, 3] = -np.inf
        for u in range(off[o], off[o + 1]):
            i = idx[u]
            r = radius[i]
            box[o, 0] = min(box[o, 0], pos[i, 0] - r)
            box[o, 1] = min(box[o, 1], pos[i, 1] - r)
            box[o, 2] = max(box[o, 2], pos[i, 0] + r)
            box[o, 3] = max(box[o, 3], pos[i, 1] + r)
    m = 0
    for k in range(count):
        for o in range(rings):
            if off[o + 1] == off[o] or (layer[idx[off[o]]] & mask[k]) == 0:
                continue
            if (box[o, 2] < geo[k, 5] or box[o, 0] > geo[k, 7] or box[o, 3] < geo[k, 6]
                    or box[o, 1] > geo[k, 8]):
                continue
            for u in range(off[o], off[o + 1]):
                i = idx[u]
                if disc_meets(k, kind, geo, poly_off, poly_xy, poly_idx, pos[i, 0],
                              pos[i, 1], radius[i]):
                    if m == len(out):
                        return -1
                    out[m, 0], out[m, 1] = k, o
                    m += 1
                    break
    return m


@njit(cache=True)
def sense_discs_again(count, kind, geo, poly_off, poly_xy, poly_idx, mask, pos, radius, layer,
                      x0, y0, cell, nx, ny, start, items, out, last, last_m):
    """``sense_discs`` into ``out``, and whether it found just the pairs ``last[:last_m]``
    in the same order: ``(m, same)`` (``m`` −1 when ``out`` is full: not the same)."""
    m = sense_discs(count, kind, geo, poly_off, poly_xy, poly_idx, mask, pos, radius, layer,
                    x0, y0, cell, nx, ny, start, items, out)
    if m != last_m:
        return m, False
    for t in range(m):
        if out[t, 0] != last[t, 0] or out[t, 1] != last[t, 1]:
            return m, False
    return m, True
