"""Disc contacts: the particles' circle pairs, the bounds and the level's segments, in
Box2D v3's soft step.

The particles are non-rotating discs here. A frame's contacts are found once, at its
first substep (``find_discs``: pairs within their radii plus each disc's reach this
frame whose paths, the substep's move and gravity carried on, come within their
allowances — discs that fall together are none), and found again in a later substep
only if a disc outran its reach or strayed from its path by more than its allowance
(``outran``). Each keeps its normal and friction impulses across frames (warm
starting: ``Collide`` matches them by their entities). Every substep then runs, as
Box2D v3's ``b2SolverStage``s do:

- ``warm_discs``: last substep's impulses again;
- ``solve_discs(relax=False)``: soft contacts (a spring of ``hertz`` with damping
  ratio 10) that push out of an overlap at up to ``push`` px/s, then Coulomb
  friction bounded by the normal impulse;
- ``solve_discs(relax=True)``: the same without the push, so the push leaves no
  velocity behind (the relax pass);

and after the frame's last substep ``bounce_discs`` restores ``e`` times the approach
speed of contacts that hit faster than the bounce speed.

Velocities are the Verlet ones: ``v = (pos − prev) / h``. A change of velocity in the
warm start and the solve moves ``pos`` (the substep's move is integrated after it, as
in Box2D); in the relax and the bounce it moves ``prev`` (the position stays, the
velocity changes). Impulses are mass·px/s; a contact's inverse mass is ``w`` (0 for
the bounds). Why this and not the one positional pass it replaced: see
``systems.collide``'s notes.

``ij`` rows: ``(i, j)`` particle rows; ``j < 0`` is a static plane: the bound
``-1 - j`` for ``j`` from −1 to −4 (0 floor, 1 ceiling, 2 left wall, 3 right wall),
else the level segment ``-5 - j``. ``cf`` columns: ``LN``, ``LT`` (impulses), ``MU``,
``E``, ``V0`` (approach speed when found, px/s), ``HIT`` (1 once pushed), the frame's
normal ``NX``, ``NY`` (from ``i`` toward ``j``, into a plane) and ``ND`` (px), so that
the gap is ``(pos_j − pos_i) · n − ND`` with ``pos_j`` = 0 for a plane, and the inverse
masses ``WI``, ``WJ`` and effective mass ``M`` the contact uses (``prepare_discs``). A
segment's plane is the one through its closest point when the contact was found, as
Box2D keeps a manifold's normal for its step: a disc sliding off a segment's end meets
the rest of the plane for at most a frame.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .contacts import closest_on_segment, surface
from .grid import build_grid_without
from .support import carried

LN, LT, MU, E, V0, HIT, NX, NY, ND, WI, WJ, M = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
CF = 12
#: ``track`` columns, a row per particle, written when the contacts are found
#: (``predict``): the move of the substep just integrated (``VX``, ``VY``, px; 0 for a
#: particle that does not move on its own), the acceleration Integrate gives it (``AX``,
#: ``AY``, px/s²: gravity and the frame's force, 0 likewise) and how far it may stray
#: from the path those two give before its contacts are found again (``ALLOW``, px).
VX, VY, AX, AY, ALLOW = 0, 1, 2, 3, 4
TRACK = 5
#: ``j`` of the first level segment's contacts (−1 to −4 are the bounds)
SEGMENT = -5


def softness(hertz: float, zeta: float, h: float) -> tuple[float, float, float]:
    """Box2D v3's ``b2MakeSoft``: ``(bias_rate, mass_scale, impulse_scale)`` of a soft
    constraint of ``hertz`` and damping ratio ``zeta`` over a substep of ``h`` s."""
    if hertz == 0.0:
        return 0.0, 1.0, 0.0
    omega = 2.0 * math.pi * hertz
    a1 = 2.0 * zeta + h * omega
    a2 = h * omega * a1
    a3 = 1.0 / (1.0 + a2)
    return omega / a1, a2 * a3, a3


@njit(cache=True)
def find_discs(pos, prev, w, radius, group, layer, mask, friction, restitution, reach,
               nx, ny, start, items, bounds, walls, segs, h, ij, cf, pairs, surf, layers,
               track, amax, bmax, extra):
    """This frame's contacts into ``ij``/``cf``; returns their count, or −1 if they do not
    fit (call again with more room).

    A disc meets a bound (``walls`` true, ``bounds`` x0, y0, x1, y1) or a level segment
    (``segs``, (k, 4) px; ``surf``, ``layers``: their surfaces, as ``contacts.surface``
    says) when its gap is below its ``reach`` (px: how far it may move this frame). A pair
    (if ``pairs``) is a contact when its gap is below both discs' ``reach`` and its two
    paths (``track``; ``amax``, ``bmax``: ``path_table``'s last row) come within both
    allowances of touching (``may_meet``): discs that fall together, however fast, are no
    contact. ``V0`` is the approach speed now (for the bounce). The planes come first, by
    the grid's items (``planes_of_items``: a disc that meets one may stray from its path
    by its move, ``extra`` px more), then the pairs, by the grid's rows
    (``pairs_in_rows``): ``kernels.threaded`` finds bands of each on their own threads and
    joins them in this order.
    """
    m = planes_of_items(0, items.shape[0], 0, pos, prev, w, radius, mask, friction,
                        restitution, reach, items, bounds, walls, segs, h, ij, cf, surf,
                        layers, track, amax, extra)
    if m < 0:
        return -1
    return pairs_in_rows(0, ny if pairs else 0, m, pos, prev, w, radius, group, layer, mask,
                         friction, restitution, reach, nx, ny, start, items, h, ij, cf,
                         track, amax, bmax)


@njit(cache=True)
def pairs_in_rows(row0, row1, m, pos, prev, w, radius, group, layer, mask, friction,
                  restitution, reach, nx, ny, start, items, h, ij, cf, track, amax, bmax):
    """``find_discs``'s pairs whose first disc is in the grid's rows ``row0``…``row1 − 1``
    (each with its neighbours above and to the right), into ``ij``/``cf`` from row ``m``;
    returns the rows' count then, or −1 if they do not fit."""
    room = ij.shape[0]
    for cy in range(row0, row1):
        for cx in range(nx):
            c = cx + cy * nx
            for s in range(start[c], start[c + 1]):
                i = items[s]
                # i's own values in locals: the stores into ij and cf may alias any array
                # as far as the compiler knows, so it would load them again every pair
                gi, wi, li, mi = group[i], w[i], layer[i], mask[i]
                xi, yi, ri, ei = pos[i, 0], pos[i, 1], radius[i], reach[i]
                for ddy in range(2):
                    for ddx in range(-1, 2):
                        if ddy == 0 and ddx < 0:
                            continue
                        qx, qy = cx + ddx, cy + ddy
                        if qx < 0 or qx >= nx or qy >= ny:
                            continue
                        q = qx + qy * nx
                        lo = s + 1 if q == c else start[q]
                        for t in range(lo, start[q + 1]):
                            j = items[t]
                            if (gi != 0 and gi == group[j]) or wi + w[j] == 0.0:
                                continue
                            if (li & mask[j]) == 0 or (layer[j] & mi) == 0:
                                continue
                            dx, dy = pos[j, 0] - xi, pos[j, 1] - yi
                            rr = ri + radius[j] + ei + reach[j]
                            if dx * dx + dy * dy >= rr * rr:
                                continue
                            if not may_meet(i, j, dx, dy, ri + radius[j], track, amax, bmax):
                                continue
                            if m >= room:
                                return -1
                            a, b = (i, j) if i < j else (j, i)
                            ij[m, 0], ij[m, 1] = a, b
                            _new(cf, m, math.sqrt(friction[a] * friction[b]),
                                 max(restitution[a], restitution[b]),
                                 _approach(a, b, pos, prev, h, 0.0, 0.0))
                            m += 1
    return m


@njit(cache=True, inline="always")
def may_meet(i, j, dx, dy, rsum, track, amax, bmax):
    """Whether discs ``i`` and ``j`` (``j``'s centre ``dx, dy`` px from ``i``'s, their
    radii ``rsum``) may touch this frame while each keeps within its ``ALLOW`` of its path
    (``track``: a particle that meets nothing is ``vel · A + acc · B`` from where it was
    found after a substep, ``path_table``; ``amax``, ``bmax``: at the frame's end).

    Their offset then runs along the segment from ``d`` to ``d + Δvel · amax``, off it by at
    most ``|Δacc| · bmax`` (A and B grow together from 0): the pair may meet only if
    that segment comes within the radii, the allowances and that."""
    ux = (track[j, VX] - track[i, VX]) * amax
    uy = (track[j, VY] - track[i, VY]) * amax
    uu = ux * ux + uy * uy
    t = 0.0
    if uu > 0.0:
        t = min(max(-(dx * ux + dy * uy) / uu, 0.0), 1.0)
    qx, qy = dx + ux * t, dy + uy * t
    near = rsum + track[i, ALLOW] + track[j, ALLOW]
    ax, ay = track[j, AX] - track[i, AX], track[j, AY] - track[i, AY]
    if ax != 0.0 or ay != 0.0:  # (falling together: the same gravity, nothing to add)
        near += math.sqrt(ax * ax + ay * ay) * bmax
    return qx * qx + qy * qy < near * near


#: px beyond a disc's reach past which a segment's box cannot hold a contact (far above
#: the rounding of a distance of a few thousand px, ~1e-12 px).
NEAR_MARGIN = 1e-6


@njit(cache=True)
def planes_of_items(s0, s1, m, pos, prev, w, radius, mask, friction, restitution, reach,
                    items, bounds, walls, segs, h, ij, cf, surf, layers, track, amax, extra):
    """``find_discs``'s contacts of the grid's items ``s0``…``s1 − 1`` with the bounds and
    the level's segments, into ``ij``/``cf`` from row ``m``; returns the rows' count
    then, or −1 if they do not fit. A disc that meets a plane may stray from its path
    (``track``) by as much as it moves this frame (its velocity times ``amax``, at most
    its diameter) plus ``extra`` px: it may stop or turn against the plane."""
    room = ij.shape[0]
    for s in range(s0, s1):
        i = items[s]
        if w[i] == 0.0:
            continue
        r = radius[i] + reach[i]
        m0 = m
        for k in range(4 if walls else 0):
            px, py, d = _wall(k, bounds)
            if pos[i, 0] * px + pos[i, 1] * py - d < r:
                if m >= room:
                    return -1
                _plane(ij, cf, m, i, -1 - k, px, py, d, friction[i], restitution[i], radius,
                       pos, prev, h)
                m += 1
        x, y, far = pos[i, 0], pos[i, 1], r + NEAR_MARGIN
        for g in range(segs.shape[0]):
            # the box test first (a cup's walls are mostly misses): a contact is a segment
            # nearer than ``r``; one whose box is ``far`` off is not, whatever the rounding
            ax, ay, bx, by = segs[g, 0], segs[g, 1], segs[g, 2], segs[g, 3]
            if (x + far < min(ax, bx) or x - far > max(ax, bx) or y + far < min(ay, by)
                    or y - far > max(ay, by)):
                continue
            meets, mu, e = surface(friction[i], restitution[i], g, surf, layers, mask[i])
            if not meets:
                continue
            px, py, d = _segment_plane(x, y, prev[i, 0], prev[i, 1], segs, g)
            if pos[i, 0] * px + pos[i, 1] * py - d < r:
                if m >= room:
                    return -1
                _plane(ij, cf, m, i, SEGMENT - g, px, py, d, mu, e, radius, pos, prev, h)
                m += 1
        if m > m0:
            turn = min(math.hypot(track[i, VX], track[i, VY]) * amax, 2.0 * radius[i])
            track[i, ALLOW] = max(track[i, ALLOW], turn + extra)
    return m


@njit(cache=True, inline="always")
def _plane(ij, cf, m, i, j, px, py, d, mu, e, radius, pos, prev, h):
    """Row ``m``: disc ``i`` against the static plane ``j`` (outward normal ``p``, offset
    ``d``; friction ``mu``, restitution ``e``), written as ``prepare_discs`` reads it: the
    normal into the plane."""
    ij[m, 0], ij[m, 1] = i, j
    _new(cf, m, mu, e, _approach(i, -1, pos, prev, h, px, py))
    cf[m, NX], cf[m, NY], cf[m, ND] = -px, -py, d + radius[i]


@njit(cache=True, inline="always")
def _wall(k, bounds):
    """Bound ``k``'s outward normal and offset: the inside is ``pos · n ≥ d``."""
    if k == 0:
        return 0.0, 1.0, bounds[1]
    if k == 1:
        return 0.0, -1.0, -bounds[3]
    if k == 2:
        return 1.0, 0.0, bounds[0]
    return -1.0, 0.0, -bounds[2]


@njit(cache=True, inline="always")
def _segment_plane(x, y, sx, sy, segs, g):
    """The plane through segment ``g``'s point closest to ``(x, y)``, facing it (facing
    ``(sx, sy)``, where it was a substep ago, if the centre is on the segment)."""
    ax, ay, bx, by = segs[g, 0], segs[g, 1], segs[g, 2], segs[g, 3]
    qx, qy, _ = closest_on_segment(x, y, ax, ay, bx, by)
    dx, dy = x - qx, y - qy
    dist = math.sqrt(dx * dx + dy * dy)
    if dist > 1e-9:
        nx, ny = dx / dist, dy / dist
    else:
        ex, ey = bx - ax, by - ay
        ln = math.sqrt(ex * ex + ey * ey) or 1.0
        nx, ny = -ey / ln, ex / ln
        if (sx - ax) * nx + (sy - ay) * ny < 0.0:
            nx, ny = -nx, -ny
    return nx, ny, qx * nx + qy * ny


@njit(cache=True, inline="always")
def _new(cf, m, mu, e, v0):
    cf[m, LN] = cf[m, LT] = cf[m, HIT] = 0.0
    cf[m, MU], cf[m, E], cf[m, V0] = mu, e, v0


@njit(cache=True, inline="always")
def _approach(i, j, pos, prev, h, px, py):
    """Normal speed (px/s, < 0 approaching) of pair ``i, j``, or (``j < 0``) of ``i``
    toward the plane of outward normal ``p``."""
    if j < 0:
        return ((pos[i, 0] - prev[i, 0]) * px + (pos[i, 1] - prev[i, 1]) * py) / h
    dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
    d = math.sqrt(dx * dx + dy * dy)
    if d < 1e-12:
        return 0.0
    ux = (pos[j, 0] - prev[j, 0]) - (pos[i, 0] - prev[i, 0])
    uy = (pos[j, 1] - prev[j, 1]) - (pos[i, 1] - prev[i, 1])
    return (ux * dx + uy * dy) / (d * h)


@njit(cache=True)
def prepare_discs(m, ij, cf, pos, w, radius, gx, gy, vmin):
    """Each contact's frame: its normal ``NX, NY`` (from ``i`` toward ``j``, into a plane)
    and ``ND``, so that its gap is ``(pos_j − pos_i) · n − ND`` (``pos_j`` = 0 for a
    plane), the inverse masses it uses ``WI, WJ`` (``support.carried`` for a pair at
    rest: ``V0`` slower than ``vmin``) and its effective mass ``M``.

    As Box2D keeps a manifold's normal for its step, the normal is the one found at the
    frame's start: it turns with the discs by at most their reach before the contacts
    are found again (``outran``), and the projected gap it gives is never longer than
    the true one.
    """
    for k in range(m):
        i, j = ij[k, 0], ij[k, 1]
        wi, wj = w[i], 0.0
        if j >= 0:
            wj = w[j]
            dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
            d = math.sqrt(dx * dx + dy * dy)
            nx, ny = (dx / d, dy / d) if d > 1e-12 else (0.0, 1.0)
            cf[k, NX], cf[k, NY], cf[k, ND] = nx, ny, radius[i] + radius[j]
            if wi != wj and cf[k, V0] > -vmin:
                wi, wj = carried(wi, wj, nx * gx + ny * gy)
        cf[k, WI], cf[k, WJ] = wi, wj
        cf[k, M] = 1.0 / (wi + wj) if wi + wj > 0.0 else 0.0


@njit(cache=True, inline="always")
def _vel(i, j, pos, prev, rate, nx, ny):
    """Relative velocity (px/s, ``rate`` = 1 / h) of ``j`` against ``i`` (``i``'s own,
    negated, for a plane) along ``n`` and along the tangent ``(−ny, nx)``."""
    ux, uy = -(pos[i, 0] - prev[i, 0]), -(pos[i, 1] - prev[i, 1])
    if j >= 0:
        ux += pos[j, 0] - prev[j, 0]
        uy += pos[j, 1] - prev[j, 1]
    return (ux * nx + uy * ny) * rate, (-ux * ny + uy * nx) * rate


@njit(cache=True, inline="always")
def _apply(i, j, wi, wj, px, py, arr, h):
    """Impulse ``p`` on ``j`` (−p on ``i``) as a velocity change of ``arr`` (pos: the move
    is integrated; prev negated by the caller's choice of sign, see ``solve_discs``)."""
    arr[i, 0] -= wi * px * h
    arr[i, 1] -= wi * py * h
    if j >= 0:
        arr[j, 0] += wj * px * h
        arr[j, 1] += wj * py * h


@njit(cache=True)
def warm_discs(m, ij, cf, pos, h):
    """Apply the contacts' impulses again (the warm start), as velocity (``pos`` moves)."""
    for k in range(m):
        ln, lt = cf[k, LN], cf[k, LT]
        if ln == 0.0 and lt == 0.0:
            continue
        nx, ny = cf[k, NX], cf[k, NY]
        _apply(ij[k, 0], ij[k, 1], cf[k, WI], cf[k, WJ], ln * nx - lt * ny, ln * ny + lt * nx,
               pos, h)


@njit(cache=True)
def solve_discs(m, ij, cf, pos, prev, h, relax, soft, push):
    """One pass over the contacts: the soft normal constraint (the relax pass: without
    the push), then friction. The solve changes velocity by moving ``pos``; the relax
    by moving ``prev`` (the pass after the positions were integrated).

    ``soft``: ``(bias_rate, mass_scale, impulse_scale)`` of a pair (row 0) and of a
    plane (row 1: twice as stiff, as Box2D's static contacts).
    """
    if relax:
        _relax_pass(m, ij, cf, pos, prev, h)
    else:
        _solve_pass(m, ij, cf, pos, prev, h, soft, push)


# The two passes are written out, each disc's values loaded once into locals: the same
# loop through helpers that read them from the arrays, and a ``relax`` flag, ran 3×
# slower (58 µs against 18 for a settled 2,000 pile's 2,052 contacts), with the same
# bits; one loop choosing by a flag, 1.3× slower.
@njit(cache=True)
def _solve_pass(m, ij, cf, pos, prev, h, soft, push):
    """``solve_discs`` without the relax: the gap at the substep's start (``prev``);
    the change of velocity moves ``pos``."""
    rate = 1.0 / h  # multiplications in the loop: it is one long chain of dependencies
    for k in range(m):
        if cf[k, M] == 0.0:
            continue
        i, j = ij[k, 0], ij[k, 1]
        xi, yi, ai, bi = pos[i, 0], pos[i, 1], prev[i, 0], prev[i, 1]
        nx, ny = cf[k, NX], cf[k, NY]
        if j >= 0:
            aj, bj = prev[j, 0], prev[j, 1]
            gap = (aj - ai) * nx + (bj - bi) * ny - cf[k, ND]
            ux, uy = -(xi - ai) + (pos[j, 0] - aj), -(yi - bi) + (pos[j, 1] - bj)
            q = 0
        else:
            gap = -(ai * nx + bi * ny) - cf[k, ND]
            ux, uy = -(xi - ai), -(yi - bi)
            q = 1
        bias = max(soft[q, 0] * gap, -push)  # soft, pushing out at most ``push``
        px, py = _impulses(k, cf, gap, ux, uy, rate, bias, soft[q, 1], soft[q, 2])
        if px == 0.0 and py == 0.0:
            continue
        pos[i, 0] = xi - cf[k, WI] * px * h
        pos[i, 1] = yi - cf[k, WI] * py * h
        if j >= 0:
            pos[j, 0] += cf[k, WJ] * px * h
            pos[j, 1] += cf[k, WJ] * py * h


@njit(cache=True)
def _relax_pass(m, ij, cf, pos, prev, h):
    """``solve_discs``' relax: the gap after the move (``pos``), no push; the change of
    velocity moves ``prev`` (the other way)."""
    rate = 1.0 / h
    for k in range(m):
        if cf[k, M] == 0.0:
            continue
        i, j = ij[k, 0], ij[k, 1]
        xi, yi, ai, bi = pos[i, 0], pos[i, 1], prev[i, 0], prev[i, 1]
        nx, ny = cf[k, NX], cf[k, NY]
        if j >= 0:
            xj, yj = pos[j, 0], pos[j, 1]
            gap = (xj - xi) * nx + (yj - yi) * ny - cf[k, ND]
            ux, uy = -(xi - ai) + (xj - prev[j, 0]), -(yi - bi) + (yj - prev[j, 1])
        else:
            gap = -(xi * nx + yi * ny) - cf[k, ND]
            ux, uy = -(xi - ai), -(yi - bi)
        px, py = _impulses(k, cf, gap, ux, uy, rate, 0.0, 1.0, 0.0)
        if px == 0.0 and py == 0.0:
            continue
        # prev moves the other way for the same change of velocity
        prev[i, 0] = ai - cf[k, WI] * -px * h
        prev[i, 1] = bi - cf[k, WI] * -py * h
        if j >= 0:
            prev[j, 0] += cf[k, WJ] * -px * h
            prev[j, 1] += cf[k, WJ] * -py * h


@njit(cache=True)
def _impulses(k, cf, gap, ux, uy, rate, bias, ms, ks):
    """Contact ``k``'s normal impulse (soft: ``bias``, ``ms``, ``ks`` as ``softness``
    makes them, unless the gap is open) and friction, bounded by it, from the relative
    move ``u`` (px a substep, ``rate`` = 1 / h); stores them and returns the change as
    an impulse on ``j`` (0 when apart and not closing the gap this substep)."""
    nx, ny, mass = cf[k, NX], cf[k, NY], cf[k, M]
    vn, vt = (ux * nx + uy * ny) * rate, (-ux * ny + uy * nx) * rate
    ln, lt = cf[k, LN], cf[k, LT]
    if gap > 0.0:  # speculative: approach no faster than closes the gap this substep
        if ln == 0.0 and lt == 0.0 and vn + gap * rate >= 0.0:
            return 0.0, 0.0  # apart, and not closing it this substep: nothing to do
        bias, ms, ks = gap * rate, 1.0, 0.0
    new = max(ln - ms * (vn + bias) * mass - ks * ln, 0.0)
    dn = new - ln
    cf[k, LN] = new
    if new > 0.0:
        cf[k, HIT] = 1.0
    # friction, bounded by the normal impulse (which did not change the tangent speed)
    cap = cf[k, MU] * new
    nt = min(max(lt - vt * mass, -cap), cap)
    dt = nt - lt
    cf[k, LT] = nt
    return dn * nx - dt * ny, dn * ny + dt * nx


@njit(cache=True)
def disc_substep(m, ij, cf, pos, prev, h, soft, push, last, bounce):
    """One substep of the disc contacts, in one call: warm start, solve, relax and, after
    the frame's last substep (``last``), the bounce (``bounce``: ``bounce_discs``' vmin)."""
    warm_discs(m, ij, cf, pos, h)
    solve_discs(m, ij, cf, pos, prev, h, False, soft, push)
    solve_discs(m, ij, cf, pos, prev, h, True, soft, push)
    if last:
        bounce_discs(m, ij, cf, pos, prev, h, bounce)


@njit(cache=True)
def bounce_discs(m, ij, cf, pos, prev, h, vmin):
    """Restitution after the frame's last substep: contacts that hit faster than ``vmin``
    (px/s) leave at ``e`` times their approach speed (velocity only: ``prev`` moves)."""
    for k in range(m):
        e, v0, mass = cf[k, E], cf[k, V0], cf[k, M]
        if e == 0.0 or v0 > -vmin or cf[k, HIT] == 0.0 or mass == 0.0:
            continue
        i, j = ij[k, 0], ij[k, 1]
        nx, ny = cf[k, NX], cf[k, NY]
        vn, _ = _vel(i, j, pos, prev, 1.0 / h, nx, ny)
        ln = cf[k, LN]
        new = max(ln - (vn + e * v0) * mass, 0.0)
        dn = new - ln
        cf[k, LN] = new
        _apply(i, j, cf[k, WI], cf[k, WJ], -dn * nx, -dn * ny, prev, h)


@njit(cache=True)
def held_up(m, ij, cf, ux, uy, lean, out):
    """Mark in ``out`` (per particle row) each disc that one of the ``m`` contacts holds up
    now: a normal impulse (``LN`` > 0) from an end below it (a plane, or the other disc),
    the normal within ``lean`` (cosine) of the direction ``(ux, uy)`` gravity pulls."""
    for k in range(m):
        if cf[k, LN] <= 0.0:
            continue
        i, j = ij[k, 0], ij[k, 1]
        d = cf[k, NX] * ux + cf[k, NY] * uy  # the normal runs from i toward j
        if d >= lean:
            out[i] = True  # j (or the plane) is below i
        elif j >= 0 and d <= -lean:
            out[j] = True


@njit(cache=True)
def outran(n, pos, at, reach, track, a, b):
    """Whether some particle moved farther than its ``reach`` (px) from ``at`` (where it
    was when the contacts were found), or strayed farther than its ``ALLOW`` from its path
    (``track``; ``a``, ``b``: ``path_table``'s row of this substep): then they are found
    again."""
    for i in range(n):
        dx, dy = pos[i, 0] - at[i, 0], pos[i, 1] - at[i, 1]
        if dx * dx + dy * dy > reach[i] * reach[i]:
            return True
        ex = dx - track[i, VX] * a - track[i, AX] * b
        ey = dy - track[i, VY] * a - track[i, AY] * b
        if ex * ex + ey * ey > track[i, ALLOW] * track[i, ALLOW]:
            return True
    return False


@njit(cache=True)
def path_table(first, damp, h, path):
    """Where a particle that meets nothing goes: row ``k`` of ``path`` (a row per substep
    of the frame) is ``(A, B)`` such that, ``k − first`` substeps of Integrate (``x' = x +
    (x − prev)·damp + acc·h²``) after substep ``first``, it is ``vel · A + acc · B`` from
    where it was (``vel``: that substep's move, px; ``acc``: px/s²). Rows before ``first``
    are left as they are."""
    a = b = 0.0
    power, grown = 1.0, 0.0  # damp^j; 1 + damp + … + damp^(j−1)
    path[first, 0], path[first, 1] = 0.0, 0.0
    for k in range(first + 1, path.shape[0]):
        power *= damp
        grown = grown * damp + 1.0
        a += power
        b += grown * h * h
        path[k, 0], path[k, 1] = a, b


@njit(cache=True)
def predict(n, pos, prev, w, pinned, force, ax, ay, extra, track):
    """Each particle's ``track``: the move of the substep just integrated and its
    acceleration (gravity ``ax, ay`` px/s² and the frame's ``force`` over its mass; both 0
    for a particle pinned or of no inverse mass: it does not move on its own), and the
    least allowance, ``extra`` px (``allowances`` widens it)."""
    for i in range(n):
        if pinned[i] or w[i] == 0.0:
            track[i, VX] = track[i, VY] = track[i, AX] = track[i, AY] = 0.0
        else:
            track[i, VX], track[i, VY] = pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1]
            track[i, AX] = ax + force[i, 0] * w[i]
            track[i, AY] = ay + force[i, 1] * w[i]
            if track[i, VX] != track[i, VX] or track[i, VY] != track[i, VY]:
                track[i, VX] = track[i, VY] = 0.0  # nan: a row without a velocity yet
        track[i, ALLOW] = extra


@njit(cache=True)
def allowances(nx, ny, start, items, radius, track, amax, extra):
    """Each binned disc's ``ALLOW``: ``extra`` px, plus as far as its velocity differs from
    any in its grid cell and the eight around it (the box of theirs) times ``amax`` — what
    it may meet and be turned by this frame — at most its diameter. Discs that move
    together (a pile at rest, a crowd falling) keep to their paths within ``extra``."""
    cells = nx * ny
    box = np.empty((cells, 4))  # each cell's velocities' box: x0, y0, x1, y1
    for c in range(cells):
        box[c, 0] = box[c, 1] = np.inf
        box[c, 2] = box[c, 3] = -np.inf
        for s in range(start[c], start[c + 1]):
            i = items[s]
            vx, vy = track[i, VX], track[i, VY]
            box[c, 0], box[c, 1] = min(box[c, 0], vx), min(box[c, 1], vy)
            box[c, 2], box[c, 3] = max(box[c, 2], vx), max(box[c, 3], vy)
    for cy in range(ny):
        for cx in range(nx):
            c = cx + cy * nx
            if start[c] == start[c + 1]:
                continue
            x0, y0, x1, y1 = box[c, 0], box[c, 1], box[c, 2], box[c, 3]
            for qy in range(max(cy - 1, 0), min(cy + 2, ny)):
                for qx in range(max(cx - 1, 0), min(cx + 2, nx)):
                    q = qx + qy * nx
                    x0, y0 = min(x0, box[q, 0]), min(y0, box[q, 1])
                    x1, y1 = max(x1, box[q, 2]), max(y1, box[q, 3])
            for s in range(start[c], start[c + 1]):
                i = items[s]
                vx, vy = track[i, VX], track[i, VY]
                dx, dy = max(vx - x0, x1 - vx), max(vy - y0, y1 - vy)
                turn = min(math.sqrt(dx * dx + dy * dy) * amax, 2.0 * radius[i])
                track[i, ALLOW] = turn + extra


def room_for(n: int) -> int:
    """Contact rows to start with for ``n`` particles (``find_discs`` says when it needs
    more)."""
    return 8 * n + 64


def room(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty contact arrays of ``rows`` rows (``ij``, ``cf``)."""
    return np.zeros((rows, 2), dtype=np.int64), np.zeros((rows, CF))


@njit(cache=True)
def reach_of(n, pos, prev, radius, substeps, extra, out):
    """How far (px) each disc may go this frame: its last substep's move times
    ``substeps`` (0 if not finite), plus ``extra`` px; at most as far as grows it (radius
    and reach) to the largest disc and its diameter, the most the grid's cells are made
    for (``reach_grid``). A faster disc has its contacts found again when it outruns its
    reach. (Each at most its own diameter, the small discs of a pile of radii 8–16 falling
    at the World's damped top speed outran theirs every frame: the 32,000 pile's frame
    took 14.7 ms, 10.1 ms so.)"""
    top = 0.0
    for i in range(n):
        top = max(top, radius[i])
    for i in range(n):
        v = math.hypot(pos[i, 0] - prev[i, 0], pos[i, 1] - prev[i, 1]) * substeps
        if v != v:  # nan: a row without a velocity yet
            v = 0.0
        out[i] = min(v, 3.0 * top - radius[i]) + extra


@njit(cache=True)
def contact_keys(m, ij, ent, wall, shift, keys, flipped):
    """Each contact's key: its two entities (``ent`` of its rows), the lower first, as
    ``lo · shift + hi``, a bound or segment ``j < 0`` coded ``wall − 1 − j``;
    ``flipped``: the entities were the other way round (the tangent runs the other
    way)."""
    for k in range(m):
        a, j = ent[ij[k, 0]], ij[k, 1]
        b = ent[j] if j >= 0 else wall - 1 - j
        flipped[k] = a > b
        keys[k] = b * shift + a if a > b else a * shift + b


@njit(cache=True)
def warm_from(m, keys, flipped, order, cf, old_keys, old):
    """Last frame's impulses (``old``: LN, LT by sorted ``old_keys``) into this frame's
    contacts of the same key (``order`` sorts ``keys``): one merge of two sorted lists."""
    p, last = 0, old_keys.shape[0]
    for r in range(m):
        k = order[r]
        key = keys[k]
        while p < last and old_keys[p] < key:
            p += 1
        if p < last and old_keys[p] == key:
            cf[k, LN] = old[p, 0]
            cf[k, LT] = -old[p, 1] if flipped[k] else old[p, 1]


@njit(cache=True)
def remember(m, keys, flipped, order, cf, out_keys, out):
    """This frame's impulses by sorted key (``order`` sorts ``keys``) into ``out_keys``
    and ``out`` (LN, LT with the tangent from the lower entity's side)."""
    for r in range(m):
        k = order[r]
        out_keys[r] = keys[k]
        out[r, 0] = cf[k, LN]
        out[r, 1] = -cf[k, LT] if flipped[k] else cf[k, LT]


@njit(cache=True)
def reach_grid(n, pos, prev, radius, frozen, any_frozen, substeps, extra, reach):
    """Each disc's ``reach`` this frame (``reach_of``) and the grid of the unfrozen ones
    grown by it: ``(nx, ny, start, items)`` (``grid.build_grid_without``)."""
    reach_of(n, pos, prev, radius, substeps, extra, reach)
    size = np.empty(n)
    for i in range(n):
        size[i] = radius[i] + reach[i]
    skip = frozen[:n].copy() if any_frozen else np.zeros(n, dtype=np.bool_)
    _, _, _, nx, ny, start, items = build_grid_without(n, pos, size, 0.0, skip)
    return nx, ny, start, items


@njit(cache=True)
def track_grid(n, pos, prev, w, radius, frozen, any_frozen, substeps, extra, reach, pinned,
               force, ax, ay, damp, h, first, grabbed, track, path):
    """``reach_grid``, and where each particle goes this frame and how far it may stray
    (``track``, ``predict`` and ``allowances``; the ``grabbed`` row, pulled by the
    pointer, as far as its reach allows: ``path``, ``path_table`` from substep ``first``).
    Returns the grid and ``path``'s last row."""
    nx, ny, start, items = reach_grid(n, pos, prev, radius, frozen, any_frozen, substeps,
                                      extra, reach)
    path_table(first, damp, h, path)
    amax, bmax = path[path.shape[0] - 1, 0], path[path.shape[0] - 1, 1]
    predict(n, pos, prev, w, pinned, force, ax, ay, extra, track)
    allowances(nx, ny, start, items, radius, track, amax, extra)
    if 0 <= grabbed < n:  # no path: it may go wherever its reach holds
        track[grabbed, ALLOW] = (reach[grabbed] + math.hypot(track[grabbed, VX],
                                 track[grabbed, VY]) * amax
                                 + math.hypot(track[grabbed, AX], track[grabbed, AY]) * bmax)
    return nx, ny, start, items, amax, bmax


@njit(cache=True)
def find_frame(n, pos, prev, w, radius, group, layer, mask, friction, restitution, frozen,
               any_frozen, substeps, extra, bounds, walls, segs, h, ij, cf, pairs, surf,
               layers, gx, gy, vmin, ent, wall, shift, reach, pinned, force, ax, ay, damp,
               first, grabbed, track, path):
    """``physics.discs.Discs.find``'s kernels in one call: each disc's ``reach``, path and
    allowance (``track_grid``, found in substep ``first``), the grid of the unfrozen ones
    grown by the reach, the contacts (``find_discs``; ``-1``: they do not fit
    ``ij``/``cf``, call again with more room), their frames (``prepare_discs``; ``gx, gy``:
    the way gravity pulls) and keys (``contact_keys`` of the entities ``ent``). Returns
    ``(m, keys, flipped)``; the caller sorts the keys (numpy's sort is 2–4× numba's)
    and warm-starts (``warm_from``)."""
    nx, ny, start, items, amax, bmax = track_grid(
        n, pos, prev, w, radius, frozen, any_frozen, substeps, extra, reach, pinned, force,
        ax, ay, damp, h, first, grabbed, track, path)
    m = find_discs(pos, prev, w, radius, group, layer, mask, friction, restitution, reach,
                   nx, ny, start, items, bounds, walls, segs, h, ij, cf, pairs, surf, layers,
                   track, amax, bmax, extra)
    keys = np.empty(max(m, 0), dtype=np.int64)
    flipped = np.empty(max(m, 0), dtype=np.bool_)
    if m > 0:
        prepare_discs(m, ij, cf, pos, w, radius, gx, gy, vmin)
        contact_keys(m, ij, ent, wall, shift, keys, flipped)
    return m, keys, flipped
