"""Particles against soft-body outlines (capsule chains of particles that may be pushed back)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .contacts import _restitution_gap, closest_on_segment
from .rigid import static_corners


@njit(cache=True)
def resolve_edge(i, a, b, t, nx, ny, d, pos, prev, w, mu, e, vmin, push, hold):
    """Move point ``i`` out by ``d`` along ``n``; edge ``ab`` takes the reaction at ``t``.

    The edge's share goes to its ends by barycentric weight (1 − t, t) and
    inverse mass: ``lam = d / (w_i + (1−t)² w_a + t² w_b)``, so momentum is kept.
    Velocity handling follows ``contacts`` (push, restitution, friction, hold).
    ``i`` = -1 is an immovable point at rest (a static body's corner): the edge
    alone moves, by ``d`` against ``n``.
    """
    ba, bb = 1.0 - t, t
    wi = w[i] if i >= 0 else 0.0
    denom = wi + ba * ba * w[a] + bb * bb * w[b]
    if denom == 0.0:
        return
    rx = - ba * (pos[a, 0] - prev[a, 0]) - bb * (pos[b, 0] - prev[b, 0])
    ry = - ba * (pos[a, 1] - prev[a, 1]) - bb * (pos[b, 1] - prev[b, 1])
    if i >= 0:
        rx += pos[i, 0] - prev[i, 0]
        ry += pos[i, 1] - prev[i, 1]
    un0 = rx * nx + ry * ny
    quiet = d - min(d, push)
    gap = _restitution_gap(un0, un0 + d - quiet, e, vmin)
    tx, ty = rx - un0 * nx, ry - un0 * ny
    vt = math.sqrt(tx * tx + ty * ty)
    jt = min(vt, mu * d)
    held = min(jt, hold)
    if vt > 1e-15:
        tx, ty = tx / vt, ty / vt
    if i >= 0:
        _share(i, wi / denom, d, held, quiet - gap, jt - held, nx, ny, tx, ty, pos, prev)
    _share(a, -ba * w[a] / denom, d, held, quiet - gap, jt - held, nx, ny, tx, ty, pos, prev)
    _share(b, -bb * w[b] / denom, d, held, quiet - gap, jt - held, nx, ny, tx, ty, pos, prev)


@njit(cache=True, inline="always")
def _share(k, f, d, held, follow, rub, nx, ny, tx, ty, pos, prev):
    """Particle ``k``'s share ``f`` of an edge contact's move (see ``resolve_edge``)."""
    pos[k, 0] += f * d * nx - f * held * tx
    pos[k, 1] += f * d * ny - f * held * ty
    prev[k, 0] += f * (follow * nx + rub * tx)
    prev[k, 1] += f * (follow * ny + rub * ty)


@njit(cache=True)
def _is_member(i, idx, s, e):
    for t in range(s, e):
        if idx[t] == i:
            return True
    return False


#: Edges per chunk of a gathered ring: a point far from a chunk's box skips its edges.
CHUNK = 4


@njit(cache=True)
def _ring_buffers(k):
    """Room to gather a ring of ``k`` vertices: points and radii (``k + 1``: the first
    again at the end) and its chunks' boxes."""
    return np.empty((k + 1, 2)), np.empty(k + 1), np.empty(((k + CHUNK - 1) // CHUNK, 4))


@njit(cache=True)
def _gather_ring(pos, radius, idx, s, e, xy, rr, boxes):
    """Ring ``idx[s:e]`` into the buffers of ``_ring_buffers``: edge ``u`` runs from
    ``xy[u]`` to ``xy[u + 1]`` (no wrap-around to compute), ``boxes`` holds each
    ``CHUNK`` edges' bounding box. Returns the ring's vertex bounding box, centroid,
    circumradius about it and largest disc."""
    k = e - s
    minx = miny = math.inf
    maxx = maxy = -math.inf
    rmax = cx = cy = 0.0
    for u in range(k):
        i = idx[s + u]
        x, y = pos[i, 0], pos[i, 1]
        xy[u, 0], xy[u, 1], rr[u] = x, y, radius[i]
        minx, maxx, miny, maxy = min(minx, x), max(maxx, x), min(miny, y), max(maxy, y)
        cx += x
        cy += y
        rmax = max(rmax, radius[i])
    xy[k, 0], xy[k, 1], rr[k] = xy[0, 0], xy[0, 1], rr[0]
    for c in range((k + CHUNK - 1) // CHUNK):
        _chunk_box(xy, k, c, boxes)
    cx, cy = cx / k, cy / k
    r2 = 0.0
    for u in range(k):
        dx, dy = xy[u, 0] - cx, xy[u, 1] - cy
        r2 = max(r2, dx * dx + dy * dy)
    return minx, miny, maxx, maxy, cx, cy, math.sqrt(r2), rmax


@njit(cache=True)
def _chunk_box(xy, k, c, boxes):
    """Chunk ``c``'s box: the vertices of its edges ``c·CHUNK …`` (both ends of each)."""
    u0, u1 = c * CHUNK, min(k, (c + 1) * CHUNK)
    x0 = x1 = xy[u0, 0]
    y0 = y1 = xy[u0, 1]
    for u in range(u0 + 1, u1 + 1):
        x0, x1 = min(x0, xy[u, 0]), max(x1, xy[u, 0])
        y0, y1 = min(y0, xy[u, 1]), max(y1, xy[u, 1])
    boxes[c, 0], boxes[c, 1], boxes[c, 2], boxes[c, 3] = x0, y0, x1, y1


@njit(cache=True)
def _refresh_edge(pos, idx, s, e, edge, xy, boxes):
    """After edge ``edge``'s ends moved: their new positions into the gathered ring, and
    the boxes of the chunks holding an edge they end grown to hold them (a box may
    then be a little large, never too small)."""
    k = e - s
    for u in (edge, edge + 1):
        v = u % k
        i = idx[s + v]
        x, y = pos[i, 0], pos[i, 1]
        xy[v, 0], xy[v, 1] = x, y
        for c in ((v + k - 1) % k // CHUNK, v // CHUNK):  # vertex v ends edges v − 1, v
            boxes[c, 0], boxes[c, 1] = min(boxes[c, 0], x), min(boxes[c, 1], y)
            boxes[c, 2], boxes[c, 3] = max(boxes[c, 2], x), max(boxes[c, 3], y)
    xy[k, 0], xy[k, 1] = xy[0, 0], xy[0, 1]


@njit(cache=True)
def _nearest_edge(px, py, xy, k, boxes, reach):
    """The edge of a gathered ring nearest ``(px, py)`` among those whose box grown by
    ``reach`` holds it (every edge when ``reach`` is inf), and whether the point is
    inside the ring (ray crossings, counted in the same pass).

    Returns ``(inside, edge, t, qx, qy, d²)``; ``edge`` is -1 when no box holds it.
    An edge outside its grown box is further than ``reach``, so this is the
    nearest edge whenever that one is within reach. A chunk of edges is skipped
    whole when the point is outside its grown box and none of its edges can
    cross the ray (which runs from the point along +x: none when the chunk is
    below, above or, with a pixel to spare for rounding, left of the point).
    """
    inside = False
    best, bt, bqx, bqy, bd2 = -1, 0.0, 0.0, 0.0, math.inf
    for c in range((k + CHUNK - 1) // CHUNK):
        bx0, by0, bx1, by1 = boxes[c, 0], boxes[c, 1], boxes[c, 2], boxes[c, 3]
        if (py < by0 or py >= by1 or px > bx1 + 1.0) and (
                px < bx0 - reach or px > bx1 + reach or py < by0 - reach or py > by1 + reach):
            continue
        for u in range(c * CHUNK, min(k, (c + 1) * CHUNK)):
            ax, ay, bx, by = xy[u, 0], xy[u, 1], xy[u + 1, 0], xy[u + 1, 1]
            if (ay > py) != (by > py) and px < ax + (py - ay) * (bx - ax) / (by - ay):
                inside = not inside
            if px < min(ax, bx) - reach or px > max(ax, bx) + reach \
                    or py < min(ay, by) - reach or py > max(ay, by) + reach:
                continue
            qx, qy, t = closest_on_segment(px, py, ax, ay, bx, by)
            d2 = (px - qx) * (px - qx) + (py - qy) * (py - qy)
            if d2 < bd2:
                best, bt, bqx, bqy, bd2 = u, t, qx, qy, d2
    return inside, best, bt, bqx, bqy, bd2


@njit(cache=True)
def _ring_contact(px, py, ri, xy, rr, k, boxes, reach):
    """``outline_contact`` on a gathered ring (``_gather_ring``), looking only at edges
    within ``reach`` of the point unless it is inside (depth 0 if none is).

    No edge is thicker than ``ri + rmax`` (``rmax`` the ring's largest disc), so
    with that reach a point outside the ring meets only edges within it: the
    first pass measures those alone (box tests skip the rest) and counts the ray
    crossings (point in polygon, which holds for a crumpled, self-crossing ring
    too); only a point inside looks at every edge. ``reach`` inf: the nearest
    edge whatever its distance (the clearance, negative, of a point far off).
    """
    inside, best, bt, bqx, bqy, bd2 = _nearest_edge(px, py, xy, k, boxes, reach)
    if inside:
        inside, best, bt, bqx, bqy, bd2 = _nearest_edge(px, py, xy, k, boxes, math.inf)
    if best < 0:
        return 0, 0.0, 0.0, 0.0, 0.0
    d = math.sqrt(bd2)
    gap = ri + (1.0 - bt) * rr[best] + bt * rr[best + 1]
    if d < 1e-12:
        return best, bt, 0.0, 0.0, 0.0
    if inside:
        return best, bt, (bqx - px) / d, (bqy - py) / d, d + gap
    return best, bt, (px - bqx) / d, (py - bqy) / d, gap - d


def outline_contact(px, py, ri, pos, radius, idx, s, e):
    """How particle ``(px, py)`` of radius ``ri`` meets ring ``idx[s:e]``, edges as capsules.

    Each edge ``ab`` is as thick as its vertices' discs: at the nearest point
    (``t`` along it) its half-width is ``(1 − t)·r_a + t·r_b``. Returns ``(edge,
    t, nx, ny, depth)``: push the particle ``depth`` px along ``n``; ``depth``
    ≤ 0 means no contact. A centre inside the ring goes out through its nearest
    edge, to the same clearance. The sweeps (kernels) gather a ring once and
    call ``_ring_contact`` for each particle near it; this gathers it for one
    point (tests, tools).
    """
    xy, rr, boxes = _ring_buffers(e - s)
    _gather_ring(pos, radius, idx, s, e, xy, rr, boxes)
    return _ring_contact(px, py, ri, xy, rr, e - s, boxes, math.inf)


@njit(cache=True)
def _longest_ring(off):
    k = 0
    for r in range(off.shape[0] - 1):
        k = max(k, off[r + 1] - off[r])
    return k


@njit(cache=True, inline="always")
def box_cells(minx, miny, maxx, maxy, grow, x0, y0, cell, nx, ny):
    """The particle grid's cells under a box grown by ``grow`` px: ``(on, cx0, cx1, cy0,
    cy1)``, ``on`` false when the box lies off the grid (it may hold only some rows:
    ``BroadPhase.solver_particles`` leaves frozen ones out)."""
    fx0, fx1 = (minx - grow - x0) / cell, (maxx + grow - x0) / cell
    fy0, fy1 = (miny - grow - y0) / cell, (maxy + grow - y0) / cell
    if not (fx1 >= 0.0 and fy1 >= 0.0 and fx0 < nx and fy0 < ny):
        return False, 0, -1, 0, -1
    return (True, max(0, int(fx0)), min(nx - 1, int(fx1)), max(0, int(fy0)),
            min(ny - 1, int(fy1)))


@njit(cache=True)
def collide_outlines(rings, off, idx, pos, prev, w, radius, group, layer, mask, friction,
                     restitution, x0, y0, cell, nx, ny, start, items, vmin, push, hold):
    """Keep particles off soft-body outlines (rings of particles that may be pushed back).

    An outline is the chain of capsules its vertex discs span (as it is drawn);
    see ``outline_contact``. Broad phase: the grid cells under the ring's
    bounding box grown by the reach of a contact (its largest disc plus half a
    cell: no particle is wider than that), then the ring's circumscribed
    circle grown the same way. A ring's own vertices, particles sharing its
    non-zero group and particles whose layers do not meet its first vertex's
    are skipped.
    """
    k = _longest_ring(off[: rings + 1])
    xy, rr, boxes = _ring_buffers(k)
    for r in range(rings):
        s, e = off[r], off[r + 1]
        minx, miny, maxx, maxy, ccx, ccy, circ, rmax = _gather_ring(pos, radius, idx, s, e,
                                                                    xy, rr, boxes)
        g, ring_layer, ring_mask = group[idx[s]], layer[idx[s]], mask[idx[s]]
        grow = rmax + 0.5 * cell
        on, cx0, cx1, cy0, cy1 = box_cells(minx, miny, maxx, maxy, grow, x0, y0, cell,
                                           nx, ny)
        if not on:
            continue
        for cy in range(cy0, cy1 + 1):
            # a row's cells cx0…cx1 are one run of items (cells are packed in order)
            for u in range(start[cx0 + cy * nx], start[cx1 + 1 + cy * nx]):
                i = items[u]
                if w[i] == 0.0 or (g != 0 and group[i] == g):
                    continue
                if (layer[i] & ring_mask) == 0 or (ring_layer & mask[i]) == 0:
                    continue
                px, py = pos[i, 0], pos[i, 1]
                reach = circ + radius[i] + rmax
                dx, dy = px - ccx, py - ccy
                # members share a non-zero group, already skipped: look only when 0
                if dx * dx + dy * dy > reach * reach or (g == 0 and _is_member(i, idx, s, e)):
                    continue
                edge, t, unx, uny, depth = _ring_contact(px, py, radius[i], xy, rr,
                                                         e - s, boxes, radius[i] + rmax)
                if depth <= 0.0:
                    continue
                a, b = idx[s + edge], idx[s + (edge + 1) % (e - s)]
                mu = math.sqrt(friction[i] * 0.5 * (friction[a] + friction[b]))
                resolve_edge(i, a, b, t, unx, uny, depth, pos, prev, w,
                             mu, max(restitution[i], restitution[a]), vmin, push, hold)
                _refresh_edge(pos, idx, s, e, edge, xy, boxes)


@njit(cache=True)
def collide_self(rings, off, idx, flag, pos, prev, w, radius, friction, restitution, vmin,
                 push, hold):
    """Keep each flagged ring's particles off its own other edges (as capsules).

    Each particle must stay its radius plus the edge's away from every edge but
    its own two — from the next edges on only half that, as its neighbour's
    disc touches it by design (without them a neighbour slipped past its
    neighbour and kinked the outline); nearer, it is pushed away from the
    edge's nearest point, on the side it is on, the edge's ends taking the
    reaction (``resolve_edge``) — so a squashed ring wrinkles and cannot fold
    through itself. The side it is on,
    not the ring's inside: in a crumpled (concave) ring a fold faces another
    across the notch, outside the ring, and pushing it "in" made it cross (the
    first version did, and deflated balls folded more with it than without).
    A particle exactly on an edge goes inward (the ring's winding says which
    way that is).
    """
    for r in range(rings):
        if not flag[r]:
            continue
        s, e = off[r], off[r + 1]
        k = e - s
        if k < 6:
            continue
        area = 0.0
        for u in range(k):
            a, b = idx[s + u], idx[s + (u + 1) % k]
            area += pos[a, 0] * pos[b, 1] - pos[b, 0] * pos[a, 1]
        side = 1.0 if area >= 0.0 else -1.0
        for v in range(k):
            i = idx[s + v]
            if w[i] == 0.0:
                continue
            for u in range(k):
                # edge u runs from vertex u to u + 1: skip those within 2 of v
                du = (u - v) % k
                if du == 0 or du == k - 1:
                    continue  # its own two edges
                # the next edges on: the neighbour's disc touches by design, so only half
                # the gap (a neighbour passing its neighbour would kink the outline)
                near = du == 1 or du == k - 2
                a, b = idx[s + u], idx[s + (u + 1) % k]
                ax, ay, bx, by = pos[a, 0], pos[a, 1], pos[b, 0], pos[b, 1]
                ex, ey = bx - ax, by - ay
                ln = math.sqrt(ex * ex + ey * ey)
                if ln < 1e-12:
                    continue
                qx, qy, t = closest_on_segment(pos[i, 0], pos[i, 1], ax, ay, bx, by)
                gap = radius[i] + (1.0 - t) * radius[a] + t * radius[b]
                if near:
                    gap *= 0.5
                ux, uy = pos[i, 0] - qx, pos[i, 1] - qy
                along = math.sqrt(ux * ux + uy * uy)
                if along >= gap:  # clear of this edge
                    continue
                # away from the edge on the side the particle is on: a crumpled outline's
                # fold faces the outside across its notch (pushing it "in" would cross)
                if along > 1e-9 * gap:
                    nx, ny = ux / along, uy / along
                else:  # on the edge itself: inwards
                    nx, ny = -side * ey / ln, side * ex / ln
                mu = math.sqrt(friction[i] * 0.5 * (friction[a] + friction[b]))
                resolve_edge(i, a, b, t, nx, ny, gap - along, pos, prev, w, mu,
                             max(restitution[i], restitution[a]), vmin, push, hold)


@njit(cache=True)
def collide_corners(count, corners, cgroup, clayer, cmask, rings, off, idx, pos, prev, w,
                    radius, group, layer, mask, friction, restitution, vmin, push, hold):
    """Keep soft-body outlines off the corners of static bodies (immovable rounded points).

    ``corners[c]`` is ``(x, y, radius, friction, restitution)`` px; ``cgroup``,
    ``clayer``, ``cmask`` its body's collision filter. A corner is a disc
    against each outline's capsule chain (``outline_contact``), and only the
    outline moves (``resolve_edge`` with no point). Particles' discs keep out of
    a static body on their own (``rigid.particles_on_static``); this keeps a
    thin wall's corner from slipping between two of them into a jelly ball.
    Broad phase: each outline's circumscribed circle.
    """
    k = _longest_ring(off[: rings + 1])
    xy, rr, boxes = _ring_buffers(k)
    for r in range(rings):
        s, e = off[r], off[r + 1]
        _, _, _, _, ccx, ccy, circ, rmax = _gather_ring(pos, radius, idx, s, e, xy, rr, boxes)
        g, ring_layer, ring_mask = group[idx[s]], layer[idx[s]], mask[idx[s]]
        for c in range(count):
            if (g != 0 and cgroup[c] == g) or (clayer[c] & ring_mask) == 0 \
                    or (ring_layer & cmask[c]) == 0:
                continue
            px, py, rc = corners[c, 0], corners[c, 1], corners[c, 2]
            reach = circ + rc + rmax
            if (px - ccx) ** 2 + (py - ccy) ** 2 > reach * reach:
                continue
            edge, t, unx, uny, depth = _ring_contact(px, py, rc, xy, rr, e - s, boxes, rc + rmax)
            if depth <= 0.0:
                continue
            a, b = idx[s + edge], idx[s + (edge + 1) % (e - s)]
            mu = math.sqrt(corners[c, 3] * 0.5 * (friction[a] + friction[b]))
            resolve_edge(-1, a, b, t, unx, uny, depth, pos, prev, w, mu,
                         max(corners[c, 4], restitution[a]), vmin, push, hold)
            _refresh_edge(pos, idx, s, e, edge, xy, boxes)


@njit(cache=True)
def off_static_corners(n, pos, angle, w, friction, restitution, piece_off, vert_off, verts,
                       radius, group, layer, mask, rings, off, idx, ppos, pprev, pw, pradius,
                       pgroup, player, pmask, pfriction, prestitution, vmin, push, hold):
    """Keep the ``rings`` soft-body outlines off the corners of the static bodies among the
    ``n`` (``w`` 0: ``rigid.static_corners``, each with its body's ``group``, ``layer`` and
    ``mask``): ``collide_corners`` over them where they are now."""
    out = np.empty((max(8, len(verts)), 6))  # room for every vertex of every piece
    count = static_corners(n, pos, angle, w, friction, restitution, piece_off, vert_off,
                           verts, radius, out)
    rows = out[:count, 5].astype(np.int64)
    collide_corners(count, out, group[rows], layer[rows], mask[rows], rings, off, idx, ppos,
                    pprev, pw, pradius, pgroup, player, pmask, pfriction, prestitution, vmin,
                    push, hold)
