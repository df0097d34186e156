"""What every sensor holds this frame, in two passes over all the sensors at once
(``sensors.update``): the particles' discs, then the soft bodies' outlines.

A sensor is a row of ``geo``: ``(x, y, half width, half height, radius, x0, y0, x1, y1)``
(centre, a box's half sizes, a circle's radius, its bounds) and a ``kind`` (``BOX``,
``CIRCLE``, ``POLYGON``: its corners ``poly_xy[poly_off[k]:poly_off[k + 1]]``). Units: px.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

BOX, CIRCLE, POLYGON = 0, 1, 2


@njit(cache=True)
def _in_polygon(px, py, xy, lo, hi):
    """Even–odd ray crossing, as ``geometry.point_in_polygon`` (half-open edges)."""
    inside = False
    for i in range(lo, hi):
        j = i + 1 if i + 1 < hi else lo
        xi, yi, xj, yj = xy[i, 0], xy[i, 1], xy[j, 0], xy[j, 1]
        if (yi > py) != (yj > py) and px < xi + (py - yi) * (xj - xi) / (yj - yi):
            inside = not inside
    return inside


@njit(cache=True)
def _near_ring(px, py, r, xy, lo, hi):
    """Whether an edge of the ring ``xy[lo:hi]`` comes within ``r`` of ``(px, py)``."""
    for i in range(lo, hi):
        j = i + 1 if i + 1 < hi else lo
        ax, ay = xy[i, 0], xy[i, 1]
        ex, ey = xy[j, 0] - ax, xy[j, 1] - ay
        t = ((px - ax) * ex + (py - ay) * ey) / max(ex * ex + ey * ey, 1e-300)
        t = min(max(t, 0.0), 1.0)
        if math.hypot(px - (ax + t * ex), py - (ay + t * ey)) <= r:
            return True
    return False


@njit(cache=True)
def disc_meets(k, kind, geo, poly_off, poly_xy, px, py, r):
    """Whether the disc at ``(px, py)`` of radius ``r`` overlaps sensor ``k``'s region."""
    x, y = geo[k, 0], geo[k, 1]
    if kind[k] == CIRCLE:
        return math.hypot(px - x, py - y) <= geo[k, 4] + r
    if kind[k] == BOX:
        qx = min(max(px, x - geo[k, 2]), x + geo[k, 2])
        qy = min(max(py, y - geo[k, 3]), y + geo[k, 3])
        return math.hypot(px - qx, py - qy) <= r
    lo, hi = poly_off[k], poly_off[k + 1]
    return _in_polygon(px, py, poly_xy, lo, hi) or _near_ring(px, py, r, poly_xy, lo, hi)


@njit(cache=True)
def _disc_row(k, i, kind, geo, poly_off, poly_xy, mask, pos, radius, layer):
    """Whether particle row ``i`` is in sensor ``k``: its layer seen by the sensor's
    ``mask`` (−1: every layer, 0 too) and its disc overlapping the region."""
    if mask[k] != -1 and (layer[i] & mask[k]) == 0:
        return False
    px, py, r = pos[i, 0], pos[i, 1], radius[i]
    if px + r < geo[k, 5] or px - r > geo[k, 7] or py + r < geo[k, 6] or py - r > geo[k, 8]:
        return False
    return disc_meets(k, kind, geo, poly_off, poly_xy, px, py, r)


@njit(cache=True)
def sense_discs(count, kind, geo, poly_off, poly_xy, mask, n, pos, radius, layer, every, x0,
                y0, cell, nx, ny, start, items, out):
    """Pairs ``(sensor, particle row)`` whose row is in the sensor (``_disc_row``), looked
    for through the particles' grid, or (``every``: the grid arguments unused) among all
    ``n`` rows; written into ``out`` (m, 2) in sensor order; the count, or −1 when ``out``
    is full."""
    m = 0
    for k in range(count):
        if every:
            for i in range(n):
                if _disc_row(k, i, kind, geo, poly_off, poly_xy, mask, pos, radius, layer):
                    if m == len(out):
                        return -1
                    out[m, 0], out[m, 1] = k, i
                    m += 1
            continue
        cx0 = max(int(math.floor((geo[k, 5] - x0) / cell)) - 1, 0)
        cx1 = min(int(math.floor((geo[k, 7] - x0) / cell)) + 1, nx - 1)
        cy0 = max(int(math.floor((geo[k, 6] - y0) / cell)) - 1, 0)
        cy1 = min(int(math.floor((geo[k, 8] - y0) / cell)) + 1, ny - 1)
        for gy in range(cy0, cy1 + 1):
            for gx in range(cx0, cx1 + 1):
                c = gx + gy * nx
                for u in range(start[c], start[c + 1]):
                    i = items[u]
                    if _disc_row(k, i, kind, geo, poly_off, poly_xy, mask, pos, radius, layer):
                        if m == len(out):
                            return -1
                        out[m, 0], out[m, 1] = k, i
                        m += 1
    return m


@njit(cache=True)
def sense_outlines(count, kind, geo, poly_off, poly_xy, mask, rings, off, idx, pos, radius,
                   layer, out):
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
                if disc_meets(k, kind, geo, poly_off, poly_xy, pos[i, 0], pos[i, 1],
                              radius[i]):
                    if m == len(out):
                        return -1
                    out[m, 0], out[m, 1] = k, o
                    m += 1
                    break
    return m
