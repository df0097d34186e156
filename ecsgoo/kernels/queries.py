"""Asking the world: rays against discs, segments and outlines; points and boxes over the grid.

The particle queries walk the broad-phase grid (``grid.build_grid``): a ray
visits the cells it crosses and their neighbours (a disc reaches at most half
a cell beyond its own), a point or a box only the cells under it. Hits are
written into caller-given arrays and their count returned.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .manifold import to_world_point


@njit(cache=True)
def ray_circle(px, py, dx, dy, cx, cy, r):
    """Fraction ``t`` in [0, 1] where ``p + t·d`` first meets the disc ``(c, r)``, or −1.

    Solves ``|p + t·d − c|² = r²``: ``t = (−b − √(b² − a·k)) / a`` with
    ``a = d·d``, ``b = (p − c)·d``, ``k = |p − c|² − r²``, written as
    ``k / (−b + √…)`` so that it keeps its digits. A ray that starts inside
    hits at ``t = 0``.
    """
    fx, fy = px - cx, py - cy
    k = fx * fx + fy * fy - r * r
    if k <= 0.0:
        return 0.0
    a = dx * dx + dy * dy
    b = fx * dx + fy * dy
    disc = b * b - a * k
    if a == 0.0 or b >= 0.0 or disc < 0.0:
        return -1.0
    t = k / (-b + math.sqrt(disc))
    return t if t <= 1.0 else -1.0


@njit(cache=True)
def ray_segment(px, py, dx, dy, ax, ay, bx, by):
    """Fraction ``t`` in [0, 1] where ``p + t·d`` crosses segment ``ab``, or −1 (parallel: −1)."""
    ex, ey = bx - ax, by - ay
    den = dx * ey - dy * ex
    if den == 0.0:
        return -1.0
    wx, wy = ax - px, ay - py
    t = (wx * ey - wy * ex) / den
    u = (wx * dy - wy * dx) / den
    if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0:
        return t
    return -1.0


@njit(cache=True)
def _clip(px, py, dx, dy, xmin, ymin, xmax, ymax):
    """The fractions ``[t0, t1]`` of ``p + t·d`` (t in [0, 1]) inside the box (t0 > t1: none)."""
    t0, t1 = 0.0, 1.0
    for p0, d, lo, hi in ((px, dx, xmin, xmax), (py, dy, ymin, ymax)):
        if d == 0.0:
            if p0 < lo or p0 > hi:
                return 1.0, 0.0
            continue
        a, b = (lo - p0) / d, (hi - p0) / d
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    return t0, t1


@njit(cache=True)
def _walk(px, py, dx, dy, x0, y0, cell, nx, ny):
    """A ray walk's span: the fractions ``t0..t1`` of the segment ``p → p + d`` over the
    grid grown by a cell and its samples' count less one (``t0 > t1``: off the grid)."""
    t0, t1 = _clip(px, py, dx, dy, x0 - cell, y0 - cell, x0 + (nx + 1) * cell,
                   y0 + (ny + 1) * cell)
    return t0, t1, int((t1 - t0) * math.sqrt(dx * dx + dy * dy) / (0.5 * cell)) + 1


@njit(cache=True)
def _sample(px, py, dx, dy, x0, y0, cell, t0, t1, steps, s):
    """Sample ``s`` of ``_walk``'s (half a cell apart): its fraction and its cell."""
    f = t0 + (t1 - t0) * s / steps
    return (f, int(math.floor((px + f * dx - x0) / cell)),
            int(math.floor((py + f * dy - y0) / cell)))


@njit(cache=True)
def _cells_along(px, py, dx, dy, x0, y0, cell, nx, ny):
    """The grid cells a ray walk looks in, in order: along the segment ``p → p + d``
    (the part over the grid grown by a cell, sampled every half cell), each sample's
    cell with its eight neighbours (a cell may come more than once: the callers keep
    what they have seen)."""
    t0, t1, steps = _walk(px, py, dx, dy, x0, y0, cell, nx, ny)
    if t0 > t1:
        return np.zeros(0, dtype=np.int64)
    out = np.empty(9 * (steps + 1), dtype=np.int64)
    count, last = 0, -1
    for s in range(steps + 1):
        _, cx, cy = _sample(px, py, dx, dy, x0, y0, cell, t0, t1, steps, s)
        if cx + cy * 131071 == last:
            continue
        last = cx + cy * 131071
        for gy in range(max(cy - 1, 0), min(cy + 1, ny - 1) + 1):
            for gx in range(max(cx - 1, 0), min(cx + 1, nx - 1) + 1):
                out[count] = gx + gy * nx
                count += 1
    return out[:count]


@njit(cache=True)
def ray_particles(px, py, dx, dy, pos, radius, mask_ok, x0, y0, cell, nx, ny, start, items,
                  out_row, out_t, first=False, entity=None):
    """Every particle disc the segment ``p → p + d`` meets: rows and fractions, unsorted
    (``first``: only the nearest, ties to the lowest ``entity``).

    Walks the grid cells along the segment (``_walk``: sampled every half cell) with
    their eight neighbours; ``mask_ok[row]`` says which rows may be hit. Returns the
    count written into ``out_row``/``out_t`` (each at least as long as the rows). The
    first hit stops the walk once no disc further on can be hit sooner: a disc (radius
    at most half a cell) hit at ``t`` has its centre within ¾ of a cell of the sample
    nearest its hit point, so it is seen by the time the walk is a quarter cell past it.
    The walk goes sample by sample, not through ``_cells_along``'s list: made whole
    first, that list cost a first hit 1.5–1.6× pymunk's time where this costs 1.45×.
    """
    t0, t1, steps = _walk(px, py, dx, dy, x0, y0, cell, nx, ny)
    if t0 > t1:
        return 0
    norm = math.sqrt(dx * dx + dy * dy)
    seen = np.zeros(len(radius), dtype=np.bool_)
    count, last = 0, -1
    for s in range(steps + 1):
        f, cx, cy = _sample(px, py, dx, dy, x0, y0, cell, t0, t1, steps, s)
        if cx + cy * 131071 != last:
            last = cx + cy * 131071
            for gy in range(max(cy - 1, 0), min(cy + 1, ny - 1) + 1):
                for gx in range(max(cx - 1, 0), min(cx + 1, nx - 1) + 1):
                    c = gx + gy * nx
                    for u in range(start[c], start[c + 1]):
                        i = items[u]
                        if seen[i] or not mask_ok[i]:
                            continue
                        seen[i] = True
                        t = ray_circle(px, py, dx, dy, pos[i, 0], pos[i, 1], radius[i])
                        if t < 0.0:
                            continue
                        if first and count:
                            if t < out_t[0] or (t == out_t[0]
                                                and entity[i] < entity[out_row[0]]):
                                out_row[0], out_t[0] = i, t
                            continue
                        out_row[count], out_t[count] = i, t
                        count += 1
        if first and count and out_t[0] * norm + 0.25 * cell <= f * norm:
            break  # every disc hit before the nearest so far was seen
    return count


@njit(cache=True)
def first_hit(px, py, dx, dy, pos, radius, mask_ok, x0, y0, cell, nx, ny, start, items,
              entity, segs, seg_layer, mask):
    """The nearest hit of the segment ``p → p + d`` among the particle discs
    (``ray_particles``: ``mask_ok`` rows, ties to the lowest ``entity``) and the static
    segments ``segs`` (those past ``seg_layer``'s length, the bounds, whatever ``mask``;
    of two as near, the first listed), the level winning a tie with a disc, as
    ``raycast``'s sort of them all does. Returns ``(kind, index, t)``: kind 0 nothing,
    1 a particle row, 2 a segment."""
    row, t = np.empty(1, dtype=np.int64), np.empty(1)
    kind, index, best = 0, -1, 2.0
    if ray_particles(px, py, dx, dy, pos, radius, mask_ok, x0, y0, cell, nx, ny, start,
                     items, row, t, True, entity):
        kind, index, best = 1, row[0], t[0]
    layers = seg_layer.shape[0]
    seg, near = -1, 2.0
    for k in range(segs.shape[0]):
        if k < layers and (mask & seg_layer[k]) == 0:
            continue
        u = ray_segment(px, py, dx, dy, segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3])
        if u >= 0.0 and u < near:
            seg, near = k, u
    if seg >= 0 and (kind == 0 or near <= best):
        return 2, seg, near
    return kind, index, best


@njit(cache=True)
def ray_rings(px, py, dx, dy, pos, off, idx, out_ring, out_t, out_edge):
    """The first crossing of the segment with each outline ``idx[off[k]:off[k+1]]``.

    Returns the count of outlines hit; ``out_edge`` is the edge's index in its ring.
    """
    count = 0
    for k in range(len(off) - 1):
        s, e = off[k], off[k + 1]
        best, edge = 2.0, -1
        for u in range(e - s):
            a, b = idx[s + u], idx[s + (u + 1) % (e - s)]
            t = ray_segment(px, py, dx, dy, pos[a, 0], pos[a, 1], pos[b, 0], pos[b, 1])
            if 0.0 <= t < best:
                best, edge = t, u
        if edge >= 0:
            out_ring[count], out_t[count], out_edge[count] = k, best, edge
            count += 1
    return count


@njit(cache=True)
def ray_segments(px, py, dx, dy, segs, out_seg, out_t):
    """Every static segment (``segs`` (k, 4)) the ray crosses; returns the count."""
    count = 0
    for k in range(segs.shape[0]):
        t = ray_segment(px, py, dx, dy, segs[k, 0], segs[k, 1], segs[k, 2], segs[k, 3])
        if t >= 0.0:
            out_seg[count], out_t[count] = k, t
            count += 1
    return count


@njit(cache=True)
def box_particles(x0b, y0b, x1b, y1b, pos, radius, mask_ok, x0, y0, cell, nx, ny, start,
                  items, out_row):
    """Rows whose disc overlaps the box ``[x0b, x1b] × [y0b, y1b]`` (a point: a zero box)."""
    cx0 = max(int(math.floor((x0b - x0) / cell)) - 1, 0)
    cx1 = min(int(math.floor((x1b - x0) / cell)) + 1, nx - 1)
    cy0 = max(int(math.floor((y0b - y0) / cell)) - 1, 0)
    cy1 = min(int(math.floor((y1b - y0) / cell)) + 1, ny - 1)
    count = 0
    for gy in range(cy0, cy1 + 1):
        for gx in range(cx0, cx1 + 1):
            c = gx + gy * nx
            for u in range(start[c], start[c + 1]):
                i = items[u]
                if not mask_ok[i]:
                    continue
                qx = min(max(pos[i, 0], x0b), x1b)  # the box's nearest point to the centre
                qy = min(max(pos[i, 1], y0b), y1b)
                ex, ey = pos[i, 0] - qx, pos[i, 1] - qy
                if ex * ex + ey * ey <= radius[i] * radius[i]:
                    out_row[count] = i
                    count += 1
    return count


@njit(cache=True, inline="always")
def near_cells(px, py, x0, y0, cell, nx, ny):
    """The grid's cells around the one ``(px, py)`` falls in (clamped to the grid), as
    ``(gx0, gx1, gy0, gy1)``, inclusive: where a disc's touching neighbours are."""
    cx = min(max(int(math.floor((px - x0) / cell)), 0), nx - 1)
    cy = min(max(int(math.floor((py - y0) / cell)), 0), ny - 1)
    return max(cx - 1, 0), min(cx + 1, nx - 1), max(cy - 1, 0), min(cy + 1, ny - 1)


@njit(cache=True)
def touching_pairs(n, pos, radius, watched, slop, x0, y0, cell, nx, ny, start, items, out):
    """Row pairs ``(i, j)``, ``i < j``, at most ``r_i + r_j + slop`` apart with ``i`` or ``j``
    watched; written into ``out`` (m, 2), count returned (stops when ``out`` is full)."""
    count = 0
    for i in range(n):
        if not watched[i]:
            continue
        gx0, gx1, gy0, gy1 = near_cells(pos[i, 0], pos[i, 1], x0, y0, cell, nx, ny)
        for gy in range(gy0, gy1 + 1):
            for gx in range(gx0, gx1 + 1):
                c = gx + gy * nx
                for u in range(start[c], start[c + 1]):
                    j = items[u]
                    if j == i or (watched[j] and j < i):
                        continue  # a pair of two watched rows is found once, from the lower
                    reach = radius[i] + radius[j] + slop
                    dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
                    if dx * dx + dy * dy <= reach * reach and count < out.shape[0]:
                        out[count, 0], out[count, 1] = min(i, j), max(i, j)
                        count += 1
    return count


@njit(cache=True)
def _ray_polygon(px, py, dx, dy, verts, v0, v1, x, y, c, s):
    """``(t, nx, ny)`` where the ray first meets the convex CCW polygon ``verts[v0:v1]`` of a
    body at ``(x, y)`` turned by ``(c, s)`` (Cyrus–Beck clipping), or ``t = −1``."""
    t_in, t_out, nx_in, ny_in = 0.0, 1.0, 0.0, 0.0
    k = v1 - v0
    for e in range(k):
        ax, ay = to_world_point(x, y, c, s, verts, v0 + e)
        bx, by = to_world_point(x, y, c, s, verts, v0 + (e + 1) % k)
        ex, ey = bx - ax, by - ay
        ln = math.sqrt(ex * ex + ey * ey)
        if ln == 0.0:
            continue
        nx, ny = ey / ln, -ex / ln  # outward for a CCW polygon
        num = nx * (ax - px) + ny * (ay - py)  # > 0: p is inside this edge's half-plane
        den = nx * dx + ny * dy
        if den == 0.0:
            if num < 0.0:
                return -1.0, 0.0, 0.0
            continue
        t = num / den
        if den < 0.0:  # entering through this edge
            if t > t_in:
                t_in, nx_in, ny_in = t, nx, ny
        elif t < t_out:
            t_out = t
        if t_in > t_out:
            return -1.0, 0.0, 0.0
    return t_in, nx_in, ny_in


@njit(cache=True)
def ray_bodies(px, py, dx, dy, rows, m, pos, angle, extent, mask_ok, piece_off, vert_off,
               verts, radius, out_body, out_t, out_n):
    """Every rigid body of the candidates ``rows[:m]`` the ray ``p + t·d`` (t in [0, 1])
    meets: its row, the nearest fraction and the normal there (starting inside: ``t =
    0``, normal ``−d``). Returns how many. A body's bounding circle is tested first."""
    count = 0
    dl = math.sqrt(dx * dx + dy * dy)
    for k in range(m):
        i = rows[k]
        if not mask_ok[i] or ray_circle(px, py, dx, dy, pos[i, 0], pos[i, 1], extent[i]) < 0:
            continue
        c, s = math.cos(angle[i]), math.sin(angle[i])
        best, bnx, bny = 2.0, 0.0, 0.0
        for q in range(piece_off[i], piece_off[i + 1]):
            v0, v1 = vert_off[q], vert_off[q + 1]
            if v1 - v0 == 1:  # a circle
                cx, cy = to_world_point(pos[i, 0], pos[i, 1], c, s, verts, v0)
                t = ray_circle(px, py, dx, dy, cx, cy, radius[q])
                if 0.0 <= t < best:
                    best = t
                    hx, hy = px + t * dx - cx, py + t * dy - cy
                    hl = math.sqrt(hx * hx + hy * hy)
                    bnx, bny = (hx / hl, hy / hl) if hl > 0 else (0.0, 0.0)
            else:
                t, nx, ny = _ray_polygon(px, py, dx, dy, verts, v0, v1, pos[i, 0], pos[i, 1],
                                         c, s)
                if 0.0 <= t < best:
                    best, bnx, bny = t, nx, ny
        if best <= 1.0:
            if best == 0.0 and dl > 0.0:
                bnx, bny = -dx / dl, -dy / dl
            out_body[count], out_t[count] = i, best
            out_n[count, 0], out_n[count, 1] = bnx, bny
            count += 1
    return count


@njit(cache=True)
def _take(c, start, items, seen, out, count):
    """The bodies of body-grid cell ``c`` not yet ``seen``, appended to ``out``."""
    for u in range(start[c], start[c + 1]):
        i = items[u]
        if not seen[i]:
            seen[i] = True
            out[count] = i
            count += 1
    return count


@njit(cache=True)
def bodies_along(px, py, dx, dy, n, x0, y0, cell, nx, ny, start, items, big, out):
    """The body rows (of ``n``) whose body-grid cells (``grid.build_body_grid``) the
    segment ``p → p + d`` passes, with the big bodies: candidates for ``ray_bodies``.
    Walks the cells along the segment (sampled every half cell) with their eight
    neighbours, as ``ray_particles`` does. Returns the count written into ``out``."""
    seen = np.zeros(n, dtype=np.bool_)
    count = 0
    for i in big:
        seen[i] = True
        out[count] = i
        count += 1
    for c in _cells_along(px, py, dx, dy, x0, y0, cell, nx, ny):
        count = _take(c, start, items, seen, out, count)
    return count


@njit(cache=True)
def bodies_in_box(x0b, y0b, x1b, y1b, n, x0, y0, cell, nx, ny, start, items, big, out):
    """The body rows (of ``n``) in the body-grid cells the box ``[x0b, x1b] × [y0b,
    y1b]`` covers (grown by a cell), with the big bodies, ascending."""
    seen = np.zeros(n, dtype=np.bool_)
    cx0 = max(int(math.floor((x0b - x0) / cell)) - 1, 0)
    cx1 = min(int(math.floor((x1b - x0) / cell)) + 1, nx - 1)
    cy0 = max(int(math.floor((y0b - y0) / cell)) - 1, 0)
    cy1 = min(int(math.floor((y1b - y0) / cell)) + 1, ny - 1)
    count = 0
    for i in big:
        seen[i] = True
        out[count] = i
        count += 1
    for gy in range(cy0, cy1 + 1):
        for gx in range(cx0, cx1 + 1):
            count = _take(gx + gy * nx, start, items, seen, out, count)
    out[:count].sort()  # (in place: the sort numba's np.sort does on its copy)
    return count
