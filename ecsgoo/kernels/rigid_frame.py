"""A frame's later substeps of a world of rigid bodies only, in one call
(``physics.rigid_frame``).

Each substep is what the solver stages do for bodies alone, in their order and with
the same kernels: Integrate (``integrate_bodies``), Project (``joint_substep``),
Collide (``contact_substep`` on the contacts found at the frame's first substep, then
the shock pass over its stacked rows). Called from Python, that was some forty
function calls a substep around a few microseconds of arithmetic. Units: px, rad, s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .astray import first_astray_body
from .continuous import continuous, may_be_fast
from .joints import joint_flags, joint_scratch, joint_substep_with
from .rigid import body_pairs, integrate_bodies, split_spinning
from .rigid_find import contact_rows, order_contacts
from .rigid_solver import carry_impulses, contact_substep
from .rows import copy_rows
from .stacks import shock, stacked


@njit(cache=True)
def rigid_substeps(first, count, begun, h, damp, gx, gy, force, nj, a_body, a_part, b_body,
                   b_part, la, lb, weld, axis, rest_angle, broken, impulse, spin, jforce,
                   lower, upper, motor_speed, motor_torque, motor_impulse, lower_impulse,
                   upper_impulse, nc, ci, cf, nb_rows, order, lanes, ends, angle0, pose, stacked,
                   before, bounce, m, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw,
                   sweep, start, start_angle, static, extent, restitution, group, layer, mask,
                   piece_off, vert_off, verts, radius, segs, walls, use_bounds, linked, slop,
                   seg_layer, seg_surf, inner):
    """Substeps ``first..count − 1`` of the frame (``count`` a frame) for ``m`` bodies:
    integrate under gravity ``(gx, gy)`` and ``force`` and the joints (``nj`` to
    ``upper_impulse``: the joint table's arrays, ``physics.rigid_frame.joint_arrays``;
    ``begun``: substep ``first`` had both already), then the ``nc`` contacts (the first
    ``nb_rows`` between bodies in ``order``, solved in ``lanes``; restitution after the
    last substep, above ``bounce`` px/s), the shock pass over ``stacked`` and, when
    ``sweep``, the fast bodies swept from where the substep's contacts found them
    (``start``, ``start_angle``: room for it) against the static geometry and the bounds
    (``continuous``: ``static`` the bodies' inverse masses as static geometry counts
    them, ``extent`` to ``seg_surf`` as Collide passes them)."""
    joints = (nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
              impulse, spin, jforce, lower, upper, motor_speed, motor_torque, motor_impulse,
              lower_impulse, upper_impulse)
    # the joints' room, made once for the frame's substeps
    nrot = len(bangle) if nj > 0 else 0  # (a variable: numba takes no such expression here)
    rot, stamp, flags, extra = joint_scratch(*joints, bw, pw, nrot)
    if not sweep:
        calm_substeps(first, count, begun, h, damp, gx, gy, force, *joints, nc, ci, cf,
                      nb_rows, order, lanes, ends, angle0, pose, stacked, before, bounce, m,
                      bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, rot, stamp,
                      flags, extra, False, start, start_angle, -1)
        return
    for k in range(first, count):  # a substep at a time, the sweep after its contacts
        done = begun and k == first  # (a variable: numba takes no such expression here)
        calm_substeps(k, count, done, h, damp, gx, gy, force, *joints, nc,
                      ci, cf, nb_rows, order, lanes, ends, angle0, pose, stacked, before,
                      bounce, m, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw,
                      rot, stamp, flags, extra, True, start, start_angle, k + 1)
        continuous(m, bpos, bprev, bangle, bprev_angle, start, start_angle, bw, biw, static,
                   extent, restitution, group, layer, mask, piece_off, vert_off, verts, radius,
                   segs, 0.0, walls, use_bounds, linked, slop, h, seg_layer, seg_surf, inner)


@njit(cache=True, _nrt=False)
def calm_substeps(first, count, begun, h, damp, gx, gy, force, nj, a_body, a_part, b_body,
                  b_part, la, lb, weld, axis, rest_angle, broken, impulse, spin, jforce, lower,
                  upper, motor_speed, motor_torque, motor_impulse, lower_impulse,
                  upper_impulse, nc, ci, cf, nb_rows, order, lanes, ends, angle0, pose,
                  stacked, before, bounce, m, bpos, bprev, bangle, bprev_angle, bw, biw, ppos,
                  pprev, pw, rot, stamp, flags, extra, keep, start, start_angle, end):
    """``rigid_substeps``' substeps ``first`` to ``end`` (−1: the frame's last) in the
    joints' room (``joint_scratch``'s ``rot`` to ``extra``), and when ``keep`` where each
    body was before a substep's contacts in ``start`` and ``start_angle`` (the sweep's):
    nothing is made, so numba counts no references (its arrays were counted at each call:
    ~0.25 µs a frame)."""
    joints = (nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
              impulse, spin, jforce, lower, upper, motor_speed, motor_torque, motor_impulse,
              lower_impulse, upper_impulse)
    for k in range(first, count if end < 0 else end):
        if k > first or not begun:
            integrate_bodies(m, bpos, bprev, bangle, bprev_angle, force, bw, gx, gy, damp, h)
            if nj > 0:
                joint_substep_with(*joints, bpos, bprev, bangle, bprev_angle, bw, biw, ppos,
                                   pprev, pw, h, rot, stamp, flags, extra)
        for i in range(len(bprev) if keep else 0):  # (a loop: a slice's copy needs the runtime)
            start[i, 0], start[i, 1], start_angle[i] = bprev[i, 0], bprev[i, 1], bprev_angle[i]
        # after a substep of this call the pose is where the bodies start, unless a joint
        # or the shock pass moved one (or no contact made it)
        posed = k > first and nj == 0 and len(stacked) == 0 and nc > 0
        contact_substep(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev,
                        pw, h, m, angle0, pose, k == count - 1, bounce, nb_rows, order, lanes,
                        ends, posed)
        if len(stacked):
            shock(len(stacked), stacked, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw,
                  m, angle0, pose, ppos, before, gx, gy, h)


@njit(cache=True)
def _meets(pairs, first, end, linked):
    """Whether a pair of ``pairs[first:end]`` may collide: no joint links it (``linked``:
    sorted keys ``a · 2³² + b``, a < b, of the body pairs joints keep apart)."""
    for q in range(first, end):
        a, b = pairs[q, 0], pairs[q, 1]
        key = min(a, b) * 4294967296 + max(a, b)
        at = np.searchsorted(linked, key)
        if at == len(linked) or linked[at] != key:
            return True
    return False


@njit(cache=True, _nrt=False)
def _turning_rows(pairs, first, end, fast, m, piece_off, segs, use_bounds):
    """At most how many contact rows a substep's look at the fast turners finds: two a
    pair of pieces of ``pairs[first:end]``, two a piece of a ``fast`` body and a segment
    of the level or a wall (``rigid.body_contacts``, ``world_contacts``)."""
    rows = 0
    for q in range(first, end):
        a, b = pairs[q, 0], pairs[q, 1]
        rows += 2 * (piece_off[a + 1] - piece_off[a]) * (piece_off[b + 1] - piece_off[b])
    statics = len(segs) + (4 if use_bounds else 0)
    for i in range(m):
        if fast[i]:
            rows += 2 * (piece_off[i + 1] - piece_off[i]) * statics
    return rows


@njit(cache=True)
def turning_substeps(a, nb, slow, npairs, sweep, static, sub_n, joints, rot, stamp, flags,
                     extra):
    """The frame's substeps when bodies turn fast enough to have their contacts found every
    substep (``split_spinning``'s: the pairs ``sorted_pairs[slow:npairs]`` and their
    bodies with the level and the walls), as the stages take them (``physics.contacts.
    _substep_contacts``, ``systems.collide._bodies``): each substep (its integration and
    joints, but the first's: done) those contacts found after the frame's ``nb`` rows,
    warm-started from the last substep's own (``a.sub_ci``, ``sub_n`` of them), the stacked
    rows picked at the first and again at and after each with rows of its own, then solved
    with the frame's, swept when ``sweep``
    (``static``: as ``rigid_substeps``), and kept as the next substep's. The rows must
    have room (``_turning_rows``). ``joints``: the joint table's arrays, ``rot`` to
    ``extra`` their room (``rigid_frame_held``'s). Returns the last substep's row count and
    its own."""
    count, h, m, nj = a.count, a.h, a.m, a.nj
    start, start_angle = np.empty_like(a.bprev), np.empty_like(a.bangle)
    held, n, again = 0, nb, True
    for k in range(count):
        if k > 0:
            integrate_bodies(m, a.bpos, a.bprev, a.bangle, a.bprev_angle, a.force, a.bw, a.gx,
                             a.gy, a.damp, h)
            if nj > 0:
                joint_substep_with(*joints, a.bpos, a.bprev, a.bangle, a.bprev_angle, a.bw,
                                   a.biw, a.ppos, a.pprev, a.pw, h, rot, stamp, flags, extra)
        # (``find_contacts`` with no impulses carried and no order: after the frame's rows)
        n = contact_rows(a.sorted_pairs[slow:npairs], m, a.bpos, a.bprev, a.bangle,
                         a.bprev_angle, a.bw, a.biw, a.extent, a.friction, a.restitution,
                         a.piece_off, a.vert_off, a.verts, a.radius, a.segs, a.seg_friction,
                         a.walls, a.use_bounds, a.slop, h, 1, a.linked, a.angle0, a.ci, a.cf,
                         nb, a.old_ci, a.old_cf, 0, a.otable, 0.0, a.boxes, a.trig, a.fast,
                         True, a.pw, a.seg_surf, a.seg_layer, a.mask, a.inner, a.room_out,
                         a.room_seg, a.room_wa, a.room_wb, a.room_na, a.room_nb)
        if n > nb:  # warm-started from the last substep's own
            carry_impulses(n - nb, a.ci[nb:], a.cf[nb:], sub_n, a.sub_ci, a.sub_cf, a.match_px)
        if again or n > nb:  # picked at the first substep and after one with rows of its own
            held = stacked(n, nb, a.ci, a.cf, a.bpos, a.bw, a.ppos, a.pw, a.gx, a.gy, a.rows)
            a.before[:held] = 0.0  # (body ends: ``stacks.before_solve`` writes none)
        again = n > nb  # (``systems.collide._stacked``: the rows change with the substep's)
        calm_substeps(k, count, True, h, a.damp, a.gx, a.gy, a.force, *joints, n, a.ci, a.cf,
                      nb, a.order, a.lanes, a.ends, a.angle0, a.pose, a.rows[:held],
                      a.before[:held], a.bounce, m, a.bpos, a.bprev, a.bangle, a.bprev_angle,
                      a.bw, a.biw, a.ppos, a.pprev, a.pw, rot, stamp, flags, extra, sweep, start,
                      start_angle, k + 1)
        if sweep:
            continuous(m, a.bpos, a.bprev, a.bangle, a.bprev_angle, start, start_angle, a.bw,
                       a.biw, static, a.extent, a.restitution, a.group, a.layer, a.mask,
                       a.piece_off, a.vert_off, a.verts, a.radius, a.segs, 0.0, a.walls,
                       a.use_bounds, a.linked, a.slop, h, a.seg_layer, a.seg_surf, a.inner)
        sub_n = n - nb  # (``ContactGraph.keep_substep``)
        copy_rows(a.ci[nb:], a.sub_ci, sub_n)
        copy_rows(a.cf[nb:], a.sub_cf, sub_n)
    return n, sub_n


@njit(cache=True)
def rigid_frame_held(a, old_n, still, carry, static, sub_n):
    """The whole frame of ``rigid_substeps``' world, its first substep too, with what
    outlives the frame in ``a`` (``frame_args.RigidFrameArgs``: ``RIGID_FIELDS`` says what
    each is, the contact graph's rows last): what the stages do at the first substep —
    integrate, the joints, then Collide's look for the frame's contacts (the body pairs,
    ``split_spinning``, ``find_contacts`` warm-started from last frame's ``old_n`` rows,
    ``still`` and ``carry`` its tolerances), whether a body may be fast enough to sweep
    (``may_be_fast``), the stacked rows (``stacked``) — then ``rigid_substeps`` for the
    contacts of the first substep and the substeps after it. The frame's contacts are then
    kept as last frame's for the next one's warm start (``ContactGraph.keep``'s copy) when
    its rows hold them, and the bodies checked for the representable range
    (``physics.astray``'s look). ``static``: the bodies' inverse masses as the sweep counts
    static geometry (a frozen body's 1).

    One function, not a call of a flat one with the fields as 74 arguments: each array
    is then counted (numba's reference count) once a frame, not twice; one object, not
    two: numba takes ~0.5 µs to type each from Python.

    Bodies that turn fast enough to have their contacts found every substep take
    ``turning_substeps`` (``sub_n``: the rows of its own the last frame's last substep
    kept, in ``a.sub_ci``).

    Returns ``(k, fast turners, frame rows, rows, kept, astray, own rows)``: ``k`` the
    count when the frame is done; −1 when the stages must take the first substep's Collide
    from its start (the pairs or contacts outgrew their rows, or the fast turners' looks
    may: then the third value is the rows wanted): the integration and the joints are
    done, nothing the look wrote is kept. The frame's rows (kept as last frame's when
    ``kept``), then its last substep's count with the fast turners' rows and how many of
    those it kept (``ContactGraph.keep_substep``'s); ``astray``: the first body out of
    range (``first_astray_body``'s row; -1: none, or the frame not done)."""
    count, h, damp, gx, gy, force = a.count, a.h, a.damp, a.gx, a.gy, a.force
    nj, a_body, a_part, b_body, b_part = a.nj, a.a_body, a.a_part, a.b_body, a.b_part
    la, lb, weld, axis, rest_angle = a.la, a.lb, a.weld, a.axis, a.rest_angle
    broken, impulse, spin, jforce, lower = a.broken, a.impulse, a.spin, a.jforce, a.lower
    upper, motor_speed, motor_torque = a.upper, a.motor_speed, a.motor_torque
    motor_impulse, lower_impulse, upper_impulse = (a.motor_impulse, a.lower_impulse,
                                                   a.upper_impulse)
    m, bpos, bprev, bangle, bprev_angle = a.m, a.bpos, a.bprev, a.bangle, a.bprev_angle
    bw, biw, extent, friction, restitution = a.bw, a.biw, a.extent, a.friction, a.restitution
    group, layer, mask, piece_off, vert_off = a.group, a.layer, a.mask, a.piece_off, a.vert_off
    verts, radius, segs, seg_friction, walls = a.verts, a.radius, a.segs, a.seg_friction, a.walls
    use_bounds, slop, seg_surf, seg_layer = a.use_bounds, a.slop, a.seg_surf, a.seg_layer
    ppos, pprev, pw, bounce = a.ppos, a.pprev, a.pw, a.bounce
    spin_px, headroom, inner = a.spin_px, a.headroom, a.inner
    pairs, sap, fast, sorted_pairs, linked = a.pairs, a.sap, a.fast, a.sorted_pairs, a.linked
    ci, cf, old_ci, old_cf, otable = a.ci, a.cf, a.old_ci, a.old_cf, a.otable
    boxes, trig, order, lanes, ends, pose = a.boxes, a.trig, a.order, a.lanes, a.ends, a.pose
    angle0, rows, before = a.angle0, a.rows, a.before
    joints = (nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
              impulse, spin, jforce, lower, upper, motor_speed, motor_torque, motor_impulse,
              lower_impulse, upper_impulse)
    # the joints' room, kept with ``a`` (``rigid_substeps``, called from Python too, makes
    # its own): a frame makes no array for it
    rot, stamp, flags = a.jrot, a.jstamp, a.jflags
    extra = joint_flags(*joints, bw, pw, flags)
    integrate_bodies(m, bpos, bprev, bangle, bprev_angle, force, bw, gx, gy, damp, h)
    if nj > 0:
        joint_substep_with(*joints, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw,
                           h, rot, stamp, flags, extra)
    npairs = body_pairs(m, bpos, bprev, extent, bw, group, layer, mask, slop, count, pairs,
                        sap, a.swept)
    if npairs > len(pairs) or npairs > len(sorted_pairs):
        return -1, 0, 0, 0, False, -1, sub_n
    slow, nfast = split_spinning(m, bangle, bprev_angle, extent, count, spin_px, pairs,
                                 npairs, fast, sorted_pairs)
    # a fast turner's contacts are found each substep (``turning_substeps``); with nothing
    # static to meet and no pair of it but jointed ones (which never collide), there are none
    turning = nfast > 0 and (len(segs) > 0 or use_bounds or
                             _meets(sorted_pairs, slow, npairs, linked))
    for i in range(m):  # (a loop: numba's array copy links its shape error's text)
        angle0[i] = bprev_angle[i]
    # (``find_contacts`` in the frame's room: no arrays made, no references counted)
    nc = contact_rows(sorted_pairs[:slow], m, bpos, bprev, bangle, bprev_angle, bw, biw, extent,
                      friction, restitution, piece_off, vert_off, verts, radius, segs,
                      seg_friction, walls, use_bounds, slop, h, count, linked, angle0, ci, cf,
                      0, old_ci, old_cf, old_n, otable, still, boxes, trig, fast, False, pw,
                      seg_surf, seg_layer, mask, inner, a.room_out, a.room_seg, a.room_wa,
                      a.room_wb, a.room_na, a.room_nb)
    need = nc
    if turning:
        need += _turning_rows(sorted_pairs, slow, npairs, fast, m, piece_off, segs, use_bounds)
    if need > len(ci) or need > len(a.sub_ci):
        return -1, 0, need, 0, False, -1, sub_n
    order_contacts(nc, 0, ci, cf, bw, biw, pw, m, old_n, old_ci, old_cf, carry, order, lanes,
                   ends)
    sweep = may_be_fast(m, bpos, bprev, bangle, bprev_angle, bw, extent, force, gx, gy,
                        inner, h, headroom, count, static, segs, walls, use_bounds, slop)
    if turning:
        n, sub_n = turning_substeps(a, nc, slow, npairs, sweep, static, sub_n, joints, rot,
                                    stamp, flags, extra)
    else:
        n, sub_n = nc, 0
        held = stacked(nc, nc, ci, cf, bpos, bw, ppos, pw, gx, gy, rows)
        before[:held] = 0.0
        if sweep:
            rigid_substeps(0, count, True, h, damp, gx, gy, force, *joints, nc, ci, cf, nc,
                           order, lanes, ends, angle0, pose, rows[:held], before[:held],
                           bounce, m, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev,
                           pw, sweep, np.empty_like(bprev), np.empty_like(bangle), static,
                           extent, restitution, group, layer, mask, piece_off, vert_off, verts,
                           radius, segs, walls, use_bounds, linked, slop, seg_layer, seg_surf,
                           inner)
        else:  # the usual frame: nothing to sweep, no room made for it
            calm_substeps(0, count, True, h, damp, gx, gy, force, *joints, nc, ci, cf, nc,
                          order, lanes, ends, angle0, pose, rows[:held], before[:held], bounce,
                          m, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, rot,
                          stamp, flags, extra, False, bprev, bprev_angle, -1)  # (nothing kept)
    kept = nc <= len(old_ci)
    if kept:
        copy_rows(ci, old_ci, nc)
        copy_rows(cf, old_cf, nc)
    astray = first_astray_body(m, bpos, bprev, bangle, a.max_coord, a.step_limit)[0]
    return count, nfast, nc, n, kept, astray, sub_n
