"""What watched particles touch at the end of a frame: rigid bodies and the level.

Contact events (``ecsgoo.contact_events``) ask for each particle with ``events``:
the rigid bodies whose shape comes within ``radius + slop`` of its centre (a
static body too: the solver keeps particles out of those in position, so no
contact row records it), the level's segments and polygons, and the bounds. Each
hit is one row of ``out``: ``(particle row, other, x, y, nx, ny)`` — ``other`` a
body row (``discs_on_bodies``), -1 (the level) or, on a soft body's outline, the
outline particle nearer the touching point (``discs_on_outlines``), the point on
the particle's disc and the unit normal from the particle to the other thing.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .contacts import closest_on_segment, inside_ring, nearest_edge
from .manifold import collide_convex
from .outlines import (
    _gather_ring,
    _is_member,
    _longest_ring,
    _nearest_edge,
    _ring_buffers,
    box_cells,
)
from .queries import touching_pairs
from .rigid import _filters


@njit(cache=True)
def discs_on_bodies(rows, pos, radius, group, layer, mask, slop, nb, bpos, bangle, extent,
                    bgroup, blayer, bmask, piece_off, vert_off, verts, pradius, out):
    """Rows ``(particle row, body row, x, y, nx, ny)`` of the particles ``rows`` that touch
    a body (within ``slop`` px, filters as the solver's); returns the count (may pass
    ``len(out)``: grow and call again)."""
    disc = np.zeros((1, 2))
    hit = np.empty((2, 7))
    count = 0
    for i in rows:
        px, py, r = pos[i, 0], pos[i, 1], radius[i]
        for j in range(nb):
            dx, dy = bpos[j, 0] - px, bpos[j, 1] - py
            far = r + extent[j] + slop
            if dx * dx + dy * dy > far * far:
                continue
            if not _filters(group[i], layer[i], mask[i], bgroup[j], blayer[j], bmask[j]):
                continue
            c, s = math.cos(bangle[j]), math.sin(bangle[j])
            best = math.inf
            for q in range(piece_off[j], piece_off[j + 1]):
                v = verts[vert_off[q]: vert_off[q + 1]]
                m = collide_convex(disc, 1, r, px, py, 1.0, 0.0, v, len(v), pradius[q],
                                   bpos[j, 0], bpos[j, 1], c, s, slop, hit)
                for k in range(m):
                    if hit[k, 6] < best:
                        best = hit[k, 6]
                        nx, ny, x, y = hit[k, 0], hit[k, 1], hit[k, 2], hit[k, 3]
            if best <= slop:
                if count < len(out):
                    out[count, 0], out[count, 1] = i, j
                    out[count, 2], out[count, 3], out[count, 4], out[count, 5] = x, y, nx, ny
                count += 1
    return count


@njit(cache=True)
def discs_on_level(rows, pos, radius, slop, segs, poly_off, poly_xy, poly_idx, walls,
                   use_bounds, out, mask, seg_layer, poly_layer):
    """Rows ``(particle row, -1, x, y, nx, ny)`` of the particles ``rows`` that touch the
    level (a segment, a polygon, a wall of the bounds if ``use_bounds``) within ``slop``
    px: the nearest such place of each; returns the count (at most ``len(rows)``). A
    segment or polygon counts only for a particle whose ``mask`` holds its layer."""
    count = 0
    for i in rows:
        px, py, r = pos[i, 0], pos[i, 1], radius[i]
        best, nx, ny = math.inf, 0.0, 0.0
        for k in range(len(segs)):
            if mask[i] & seg_layer[k] == 0:
                continue
            qx, qy, _ = closest_on_segment(px, py, segs[k, 0], segs[k, 1], segs[k, 2],
                                           segs[k, 3])
            d = math.hypot(qx - px, qy - py)
            if d - r < best and d > 1e-12:
                best, nx, ny = d - r, (qx - px) / d, (qy - py) / d
        for p in range(len(poly_off) - 1):
            if mask[i] & poly_layer[p] == 0:
                continue
            s, e = poly_off[p], poly_off[p + 1]
            _, qx, qy, _, d = nearest_edge(px, py, poly_xy, poly_idx, s, e)
            if d <= 1e-12:
                continue
            if inside_ring(px, py, poly_xy, poly_idx, s, e):  # deep in: the way out is back
                if -d - r < best:
                    best, nx, ny = -d - r, -(qx - px) / d, -(qy - py) / d
            elif d - r < best:
                best, nx, ny = d - r, (qx - px) / d, (qy - py) / d
        if use_bounds:
            for gap, wx, wy in ((px - walls[0], -1.0, 0.0), (py - walls[1], 0.0, -1.0),
                                (walls[2] - px, 1.0, 0.0), (walls[3] - py, 0.0, 1.0)):
                if gap - r < best:
                    best, nx, ny = gap - r, wx, wy
        if best <= slop:
            out[count, 0], out[count, 1] = i, -1
            out[count, 2], out[count, 3] = px + nx * r, py + ny * r
            out[count, 4], out[count, 5] = nx, ny
            count += 1
    return count


@njit(cache=True)
def discs_on_outlines(outlines, off, idx, pos, radius, group, layer, mask, events, slop,
                      x0, y0, cell, nx, ny, start, items, out):
    """Rows ``(particle row, outline particle row, x, y, nx, ny)`` of particles touching a
    soft body's outline (its edges as capsules, as the solver's ``collide_outlines``
    sees them) within ``slop`` px, where the particle or the outline (any of its
    particles) has ``events``; the outline particle is the nearer end of the edge.
    Particles come from the particles' grid (``build_grid``) under each outline's box;
    returns the count (may pass ``len(out)``: grow and call again)."""
    k = _longest_ring(off[: outlines + 1])
    xy, rr, boxes = _ring_buffers(k)
    count = 0
    for r in range(outlines):
        s, e = off[r], off[r + 1]
        watched = False
        for t in range(s, e):
            watched = watched or events[idx[t]]
        minx, miny, maxx, maxy, ccx, ccy, circ, rmax = _gather_ring(pos, radius, idx, s, e,
                                                                    xy, rr, boxes)
        g, ring_layer, ring_mask = group[idx[s]], layer[idx[s]], mask[idx[s]]
        grow = rmax + 0.5 * cell + slop
        on, cx0, cx1, cy0, cy1 = box_cells(minx, miny, maxx, maxy, grow, x0, y0, cell,
                                           nx, ny)
        if not on:
            continue
        for cy in range(cy0, cy1 + 1):
            for u in range(start[cx0 + cy * nx], start[cx1 + 1 + cy * nx]):
                i = items[u]
                if not (watched or events[i]) or (g != 0 and group[i] == g):
                    continue
                if (layer[i] & ring_mask) == 0 or (ring_layer & mask[i]) == 0:
                    continue
                px, py, ri = pos[i, 0], pos[i, 1], radius[i]
                reach = ri + rmax + slop
                dx, dy = px - ccx, py - ccy
                far = circ + reach
                if dx * dx + dy * dy > far * far or (g == 0 and _is_member(i, idx, s, e)):
                    continue
                inside, edge, t, qx, qy, d2 = _nearest_edge(px, py, xy, e - s, boxes, reach)
                if inside:
                    inside, edge, t, qx, qy, d2 = _nearest_edge(px, py, xy, e - s, boxes,
                                                                math.inf)
                if edge < 0:
                    continue
                d = math.sqrt(d2)
                gap = ri + (1.0 - t) * rr[edge] + t * rr[edge + 1]
                if d < 1e-12 or (not inside and d - gap > slop):
                    continue
                # the normal from the particle to the outline: towards the edge from
                # outside, away from it from inside (the outline's body is that way)
                sign = -1.0 if inside else 1.0
                unx, uny = sign * (qx - px) / d, sign * (qy - py) / d
                if count < len(out):
                    near = idx[s + edge] if t < 0.5 else idx[s + (edge + 1) % (e - s)]
                    out[count, 0], out[count, 1] = i, near
                    out[count, 2], out[count, 3] = px + unx * ri, py + uny * ri
                    out[count, 4], out[count, 5] = unx, uny
                count += 1
    return count


@njit(cache=True)
def watched_touch_nothing(n, pos, radius, events, slop, x0, y0, cell, nx, ny, start, items,
                          segs, poly_off, poly_xy, poly_idx, walls, use_bounds, mask,
                          seg_layer, poly_layer):
    """Whether no particle whose ``events`` flag is set touches another particle (within
    ``r1 + r2 + slop``, through the grid ``x0 … items``) or the level (``discs_on_level``):
    ``contact_events``' frame with nothing to report, in one call."""
    one = np.zeros((1, 2), dtype=np.int64)
    if touching_pairs(n, pos, radius, events, slop, x0, y0, cell, nx, ny, start, items, one):
        return False
    rows = np.flatnonzero(events[:n])
    out = np.zeros((len(rows), 6))
    return discs_on_level(rows, pos, radius, slop, segs, poly_off, poly_xy, poly_idx, walls,
                          use_bounds, out, mask, seg_layer, poly_layer) == 0
