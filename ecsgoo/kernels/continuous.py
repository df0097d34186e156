"""Continuous collision of fast rigid bodies with static geometry, and the bounds held.

The contact solver works on contacts found at the frame's start (speculative, with a
margin for the frame's motion): a thin body fast enough to cross a thin wall within a
substep, or one that turns in a corner the contacts did not foresee, can still end
on the other side. This is the net under it, run after each substep's contacts
(``systems.collide``), as Box2D v3's ``b2SolveContinuous`` runs after its solver:

- a body is *fast* when its substep's motion (the centre's path plus the angle turned
  times its reach) is more than half its thinnest piece (``inner``);
- each fast body's motion from ``prev`` to ``pos`` (and ``prev_angle`` to ``angle``),
  taken as a straight line in pose space, is swept against the static bodies and the
  level's segments by conservative advancement (``_advance``): the first time a piece
  comes within ``target`` px of a static shape it was apart from at the start;
- its centre may not cross a static shape it touched at the start either (``_enter``):
  a body pressed against a wall by a huge force stops at the wall;
- at the first such time the body is put at that pose, keeps its velocity but for the
  part into the shape, which is taken out (a restitution of the pair's bounce).

The bounds are half-planes: a body more than ``max(4·slop, FAST·inner)`` px past one
is moved back to that depth and loses its speed out of the world (``_keep_inside``),
as particles are kept inside; shallower overlaps, as hard hits make, stay the
contacts' to resolve. What is jointed to the body, or filtered out by group/layer/mask, is not
in its way. Units: px, px/s, rad, s.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .manifold import collide_convex
from .rigid import FAST, _filters, _mix

#: Conservative advancement's most steps per pair (each one provably safe); where it has
#: not come within ``target`` by then, the body stops at the last safe pose.
MAX_ADVANCE = 40


@njit(cache=True)
def continuous(n, pos, prev, angle, prev_angle, start, start_angle, w, iw, static, extent,
               restitution, group, layer, mask, piece_off, vert_off, verts, radius, segs,
               seg_restitution, bounds, use_bounds, linked, slop, h, seg_layers, seg_surf,
               inner):
    """Hold every moving body inside the bounds, and sweep every fast one against static
    geometry (see the module's docstring); returns how many bodies were stopped.

    ``start``, ``start_angle``: the poses before this substep's contacts (their position
    passes move ``prev`` with ``pos``: the sweep is from where the body was, unpushed);
    ``static``: 0 for the bodies that count as static geometry now (the inverse masses,
    a frozen body's set to 1); ``linked``: sorted keys ``a · 2³² + b`` (a < b) of jointed
    body pairs; ``slop`` (px): the world's contact slop; ``inner``: each body's
    ``inner_radius`` (kept with its pieces)."""
    stopped = 0
    target = 0.25 * slop  # px: how close a swept piece comes before it counts as met
    for i in range(n):
        if w[i] == 0.0:
            continue
        fast = FAST * inner[i]  # px a substep
        if use_bounds:
            _keep_inside(i, pos, prev, angle, piece_off, vert_off, verts, radius, bounds,
                         max(4.0 * slop, fast))
        dx, dy = pos[i, 0] - start[i, 0], pos[i, 1] - start[i, 1]
        turn = angle[i] - start_angle[i]
        motion = math.sqrt(dx * dx + dy * dy) + abs(turn) * extent[i]
        if motion <= 1e-6 or motion <= fast:
            continue
        t, nx, ny, px, py, e = _first_hit(i, n, pos, start, angle, start_angle, static, extent,
                                          restitution, group, layer, mask, piece_off,
                                          vert_off, verts, radius, segs, seg_restitution,
                                          linked, target, seg_layers, seg_surf)
        if t < 1.0:
            _stop_at(i, t, nx, ny, px, py, _mix(1.0, 1.0, restitution[i], e)[1], pos, prev,
                     angle, prev_angle, start, start_angle, w, iw, h)
            stopped += 1
    return stopped


@njit(cache=True, _nrt=False)
def may_be_fast(n, pos, prev, angle, prev_angle, w, extent, force, gx, gy, inner, h,
                headroom, frames, static, segs, walls, use_bounds, slop):
    """Whether any moving body may turn fast this frame near what the sweep looks at: its
    last substep's move, plus what gravity and its force add over ``1/headroom`` of a
    frame's worth of substeps, past ``headroom × FAST`` of its thinnest piece's half
    thickness (``inner``: each body's ``inner_radius``), and static geometry within its
    reach (``_static_within``). None may: the frame skips the sweep (``continuous``),
    which costs a call each substep (a swinging chain's end, fast and far from its
    anchor: a fifth of its frame)."""
    h2 = h * h
    for i in range(n):
        if w[i] == 0.0:
            continue
        dx, dy = pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1]
        ax, ay = (gx + force[i, 0] * w[i]) * h2, (gy + force[i, 1] * w[i]) * h2
        move = (math.sqrt(dx * dx + dy * dy) + math.sqrt(ax * ax + ay * ay) / headroom
                + abs(angle[i] - prev_angle[i]) * extent[i])
        if move <= headroom * FAST * inner[i]:
            continue
        # as far as it may go in the frame's ``frames`` substeps at 1/headroom its speed
        reach = extent[i] + 4.0 * slop + frames * move / headroom
        if _static_within(i, reach, n, pos, prev, extent, static, segs, walls, use_bounds,
                          frames):
            return True
    return False


@njit(cache=True, _nrt=False)
def _static_within(i, reach, n, pos, prev, extent, static, segs, walls, use_bounds, frames):
    """Whether the box of half size ``reach`` px about body ``i``'s centre meets what the
    sweep meets or holds it in: a bound (``walls``, x0, y0, x1, y1, when ``use_bounds``),
    a level segment's box, or a static body's (``static`` 0) box grown by its own move
    over ``frames`` substeps (a moving platform)."""
    x, y = prev[i, 0], prev[i, 1]
    if use_bounds and (x - reach < walls[0] or y - reach < walls[1] or x + reach > walls[2]
                       or y + reach > walls[3]):
        return True
    for q in range(len(segs)):
        if (min(segs[q, 0], segs[q, 2]) <= x + reach and max(segs[q, 0], segs[q, 2]) >= x - reach
                and min(segs[q, 1], segs[q, 3]) <= y + reach
                and max(segs[q, 1], segs[q, 3]) >= y - reach):
            return True
    for j in range(n):
        if static[j] != 0.0 or j == i:
            continue
        r = reach + extent[j] + frames * (abs(pos[j, 0] - prev[j, 0])
                                          + abs(pos[j, 1] - prev[j, 1]))
        if abs(pos[j, 0] - x) <= r and abs(pos[j, 1] - y) <= r:
            return True
    return False


@njit(cache=True, inline="always")
def _linked(linked, a, b):
    """Whether a joint links bodies ``a`` and ``b`` (they never touch)."""
    if len(linked) == 0:
        return False
    key = min(a, b) * 4294967296 + max(a, b)
    k = np.searchsorted(linked, key)
    return k < len(linked) and linked[k] == key


@njit(cache=True)
def _first_hit(i, n, pos, prev, angle, prev_angle, static, extent, restitution, group, layer,
               mask, piece_off, vert_off, verts, radius, segs, seg_restitution, linked,
               target, seg_layers, seg_surf):
    """The first fraction ``t`` of body ``i``'s substep motion at which it meets a static
    body or level segment, with the normal (from the body into the shape), the meeting
    point and the shape's restitution; ``t = 1`` (and zeros) where it meets nothing."""
    best_t, bnx, bny, bpx, bpy, be = 1.0, 0.0, 0.0, 0.0, 0.0, 0.0
    x0, y0, x1, y1 = prev[i, 0], prev[i, 1], pos[i, 0], pos[i, 1]
    reach = extent[i] + 2.0 * target
    lo_x, hi_x = min(x0, x1) - reach, max(x0, x1) + reach
    lo_y, hi_y = min(y0, y1) - reach, max(y0, y1) + reach
    seg = np.empty((2, 2))
    for s in range(len(segs)):
        e_s = seg_restitution
        if s < len(seg_layers):  # the level's segment: its layer and restitution, if given
            if mask[i] & seg_layers[s] == 0:
                continue
            if not math.isnan(seg_surf[s, 1]):
                e_s = seg_surf[s, 1]
        ax, ay, bx, by = segs[s, 0], segs[s, 1], segs[s, 2], segs[s, 3]
        if (min(ax, bx) > hi_x or max(ax, bx) < lo_x or min(ay, by) > hi_y
                or max(ay, by) < lo_y):
            continue
        seg[0, 0], seg[0, 1], seg[1, 0], seg[1, 1] = ax, ay, bx, by
        t, nx, ny, px, py = _against(i, pos, prev, angle, prev_angle, piece_off, vert_off,
                                     verts, radius, seg, 2, 0.0, 0.0, 0.0, 1.0, 0.0, best_t,
                                     target)
        if t < best_t:
            best_t, bnx, bny, bpx, bpy, be = t, nx, ny, px, py, e_s
    for j in range(n):
        if static[j] != 0.0 or j == i:
            continue
        if (pos[j, 0] - extent[j] > hi_x or pos[j, 0] + extent[j] < lo_x
                or pos[j, 1] - extent[j] > hi_y or pos[j, 1] + extent[j] < lo_y):
            continue
        if not _filters(group[i], layer[i], mask[i], group[j], layer[j], mask[j]):
            continue
        if _linked(linked, i, j):
            continue
        c, s = math.cos(angle[j]), math.sin(angle[j])
        for q in range(piece_off[j], piece_off[j + 1]):
            vb = verts[vert_off[q]: vert_off[q + 1]]
            t, nx, ny, px, py = _against(i, pos, prev, angle, prev_angle, piece_off,
                                         vert_off, verts, radius, vb, len(vb), radius[q],
                                         pos[j, 0], pos[j, 1], c, s, best_t, target)
            if t < best_t:
                best_t, bnx, bny, bpx, bpy, be = t, nx, ny, px, py, restitution[j]
    return best_t, bnx, bny, bpx, bpy, be


@njit(cache=True)
def _against(i, pos, prev, angle, prev_angle, piece_off, vert_off, verts, radius, vb, kb, rb,
             xb, yb, cb, sb, before, target):
    """The first fraction (< ``before``) of body ``i``'s motion at which one of its pieces
    meets the static shape ``vb`` (``kb`` local vertices, radius ``rb``, at pose ``xb, yb,
    cb, sb``) or its centre enters it, with the normal and point; ``before`` (and zeros)
    if neither does."""
    best_t, bnx, bny, bpx, bpy = _enter(i, pos, prev, vb, kb, rb, xb, yb, cb, sb, before,
                                        target)
    for p in range(piece_off[i], piece_off[i + 1]):
        va = verts[vert_off[p]: vert_off[p + 1]]
        reach = radius[p]
        for v in range(len(va)):
            reach = max(reach, math.sqrt(va[v, 0] ** 2 + va[v, 1] ** 2) + radius[p])
        t, nx, ny, px, py = _advance(va, len(va), radius[p], reach, i, pos, prev, angle,
                                     prev_angle, vb, kb, rb, xb, yb, cb, sb, best_t, target)
        if t < best_t:
            best_t, bnx, bny, bpx, bpy = t, nx, ny, px, py
    return best_t, bnx, bny, bpx, bpy


@njit(cache=True, inline="always")
def _pose(i, t, pos, prev, angle, prev_angle):
    """Body ``i``'s pose a fraction ``t`` of the way through its substep's motion."""
    th = prev_angle[i] + t * (angle[i] - prev_angle[i])
    return (prev[i, 0] + t * (pos[i, 0] - prev[i, 0]), prev[i, 1] + t * (pos[i, 1] - prev[i, 1]),
            math.cos(th), math.sin(th))


@njit(cache=True)
def _advance(va, ka, ra, reach, i, pos, prev, angle, prev_angle, vb, kb, rb, xb, yb, cb, sb,
             before, target):
    """Conservative advancement of one piece (``va``, radius ``ra``, no point of it farther
    than ``reach`` px from the body's centre) toward a static shape: step ``t`` by the gap
    over the most any point can close it, ``M = |Δx| + |Δθ|·reach``, until the gap is
    within ``target`` px. A piece already that close at the start is left to the
    contacts (``_enter`` watches its centre). Returns ``(t, nx, ny, px, py)``, ``t =
    before`` if it does not meet the shape before then."""
    out = np.empty((2, 7))
    dx, dy = pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1]
    bound = math.sqrt(dx * dx + dy * dy) + abs(angle[i] - prev_angle[i]) * reach
    t = 0.0
    for step in range(MAX_ADVANCE):
        x, y, c, s = _pose(i, t, pos, prev, angle, prev_angle)
        m = collide_convex(va, ka, ra, x, y, c, s, vb, kb, rb, xb, yb, cb, sb,
                           bound * (before - t) + 2.0 * target, out)
        if m == 0:
            return before, 0.0, 0.0, 0.0, 0.0  # out of reach for the rest of the motion
        k = 0 if m == 1 or out[0, 6] <= out[1, 6] else 1
        gap = out[k, 6]
        if step == 0 and gap <= 2.0 * target:
            return before, 0.0, 0.0, 0.0, 0.0  # touching already: the contacts' business
        if gap <= 1.5 * target or step == MAX_ADVANCE - 1:
            px, py = out[k, 2], out[k, 3]
            if m == 2 and out[1 - k, 6] <= gap + 2.0 * target:  # a face meets: its middle
                px, py = 0.5 * (px + out[1 - k, 2]), 0.5 * (py + out[1 - k, 3])
            return t, out[k, 0], out[k, 1], px, py
        t += (gap - target) / bound
        if t >= before:
            return before, 0.0, 0.0, 0.0, 0.0
    return before, 0.0, 0.0, 0.0, 0.0  # pragma: no cover (the loop returns)


@njit(cache=True)
def _enter(i, pos, prev, vb, kb, rb, xb, yb, cb, sb, before, target):
    """Where body ``i``'s centre, on its straight path, first enters the static shape (a
    circle, a segment or a convex polygon, grown by ``rb``; from outside only), with the
    shape's outward normal there (negated: from the body into the shape) and the point;
    ``before`` and zeros if it does not before then."""
    x0, y0 = prev[i, 0], prev[i, 1]
    dx, dy = pos[i, 0] - x0, pos[i, 1] - y0
    length = math.sqrt(dx * dx + dy * dy)
    if length <= 0.0:
        return before, 0.0, 0.0, 0.0, 0.0
    back = target / length  # stop a little before the surface
    t, nx, ny = _path_into(x0, y0, dx, dy, vb, kb, rb, xb, yb, cb, sb)
    if t >= before:
        return before, 0.0, 0.0, 0.0, 0.0
    t = max(0.0, t - back)
    return t, -nx, -ny, x0 + t * dx, y0 + t * dy


@njit(cache=True)
def _path_into(x0, y0, dx, dy, vb, kb, rb, xb, yb, cb, sb):
    """First ``t`` in [0, 1] at which ``(x0, y0) + t (dx, dy)`` enters the shape, and the
    outward normal there; ``t = inf`` if it starts inside or never enters."""
    none = (np.inf, 0.0, 0.0)
    if kb == 1:  # a circle: |p(t) − q|² = r²
        qx = xb + cb * vb[0, 0] - sb * vb[0, 1]
        qy = yb + sb * vb[0, 0] + cb * vb[0, 1]
        fx, fy = x0 - qx, y0 - qy
        a, b, c = dx * dx + dy * dy, fx * dx + fy * dy, fx * fx + fy * fy - rb * rb
        if c <= 0.0 or b >= 0.0 or b * b < a * c:
            return none
        t = (-b - math.sqrt(b * b - a * c)) / a
        if t > 1.0:
            return none
        ex, ey = fx + t * dx, fy + t * dy
        ln = max(math.sqrt(ex * ex + ey * ey), 1e-12)
        return t, ex / ln, ey / ln
    ax = xb + cb * vb[0, 0] - sb * vb[0, 1]
    ay = yb + sb * vb[0, 0] + cb * vb[0, 1]
    if kb == 2:  # a segment, either side
        bx = xb + cb * vb[1, 0] - sb * vb[1, 1]
        by = yb + sb * vb[1, 0] + cb * vb[1, 1]
        ex, ey = bx - ax, by - ay
        den = dx * ey - dy * ex
        if den == 0.0:
            return none
        t = ((ax - x0) * ey - (ay - y0) * ex) / den
        u = ((ax - x0) * dy - (ay - y0) * dx) / den
        if t < 0.0 or t > 1.0 or u < 0.0 or u > 1.0:
            return none
        ln = max(math.sqrt(ex * ex + ey * ey), 1e-12)
        nx, ny = ey / ln, -ex / ln
        if nx * dx + ny * dy > 0.0:
            nx, ny = -nx, -ny
        return t, nx, ny
    # a convex polygon (counter-clockwise): Cyrus–Beck clipping of the path
    t_in, t_out, inx, iny, inside = 0.0, 1.0, 0.0, 0.0, True
    for e in range(kb):
        f = (e + 1) % kb
        px = xb + cb * vb[e, 0] - sb * vb[e, 1]
        py = yb + sb * vb[e, 0] + cb * vb[e, 1]
        qx = xb + cb * vb[f, 0] - sb * vb[f, 1]
        qy = yb + sb * vb[f, 0] + cb * vb[f, 1]
        ex, ey = qx - px, qy - py
        ln = math.sqrt(ex * ex + ey * ey)
        if ln <= 0.0:
            continue
        nx, ny = ey / ln, -ex / ln  # outward for counter-clockwise vertices
        gap = nx * (x0 - px) + ny * (y0 - py) - rb  # > 0: the start is outside this edge
        rate = nx * dx + ny * dy
        if gap > 0.0:
            inside = False
        if rate == 0.0:
            if gap > 0.0:
                return none
            continue
        t = -gap / rate
        if rate < 0.0:
            if t > t_in:
                t_in, inx, iny = t, nx, ny
        else:
            t_out = min(t_out, t)
    if inside or t_in > t_out or t_in > 1.0:
        return none
    return t_in, inx, iny


@njit(cache=True)
def _stop_at(i, t, nx, ny, px, py, e, pos, prev, angle, prev_angle, start, start_angle, w, iw,
             h):
    """Put body ``i`` at fraction ``t`` of its motion from ``start``; take out (and bounce
    back ``e`` of) its velocity into the shape at point ``p`` along ``n``; keep the rest."""
    vx, vy = (pos[i, 0] - prev[i, 0]) / h, (pos[i, 1] - prev[i, 1]) / h
    om = (angle[i] - prev_angle[i]) / h
    x, y, _, _ = _pose(i, t, pos, start, angle, start_angle)
    th = start_angle[i] + t * (angle[i] - start_angle[i])
    rx, ry = px - x, py - y
    vn = (vx - om * ry) * nx + (vy + om * rx) * ny
    if vn > 0.0:  # moving into the shape
        rn = rx * ny - ry * nx
        j = (1.0 + e) * vn / (w[i] + iw[i] * rn * rn)
        vx, vy = vx - w[i] * j * nx, vy - w[i] * j * ny
        om -= iw[i] * j * rn
    pos[i, 0], pos[i, 1], angle[i] = x, y, th
    prev[i, 0], prev[i, 1], prev_angle[i] = x - vx * h, y - vy * h, th - om * h


@njit(cache=True)
def _keep_inside(i, pos, prev, angle, piece_off, vert_off, verts, radius, bounds, deep):
    """Body ``i`` back inside the bounds (x0, y0, x1, y1) where it is more than ``deep``
    px past one: moved back to ``deep``, its speed out of the world taken out (the
    contacts hold the shallower overlaps, softly, as a hard hit makes them)."""
    c, s = math.cos(angle[i]), math.sin(angle[i])
    lo_x, lo_y, hi_x, hi_y = np.inf, np.inf, -np.inf, -np.inf
    for p in range(piece_off[i], piece_off[i + 1]):
        r = radius[p]
        for v in range(vert_off[p], vert_off[p + 1]):
            x = pos[i, 0] + c * verts[v, 0] - s * verts[v, 1]
            y = pos[i, 1] + s * verts[v, 0] + c * verts[v, 1]
            lo_x, hi_x = min(lo_x, x - r), max(hi_x, x + r)
            lo_y, hi_y = min(lo_y, y - r), max(hi_y, y + r)
    for k in range(2):
        lo, hi = (lo_x, hi_x) if k == 0 else (lo_y, hi_y)
        shift = 0.0
        fits = hi - lo < bounds[k + 2] - bounds[k]
        if bounds[k] - lo > deep and fits:
            shift = bounds[k] - lo - deep
        elif hi - bounds[k + 2] > deep and fits:
            shift = bounds[k + 2] - hi + deep
        if shift == 0.0:
            continue
        v = pos[i, k] - prev[i, k]
        pos[i, k] += shift
        if v * shift < 0.0:  # it was leaving: no speed out of the world is left
            v = 0.0
        prev[i, k] = pos[i, k] - v
