"""Joints: hinges, welds and sliders between rigid bodies and particles.

Solved in Project, before the contacts, one pass of each a substep (``joint_substep``,
after Box2D v3's soft step): a warm start with the impulses kept from the last
substep, a solve (the velocity constraint at the anchors where the substep started,
into the move), a relax (the same at the anchors where the bodies now are, into the
velocity alone) and a position pass that closes what gap is left in position and
previous position alike (no velocity). Hard point constraints with a 2×2 effective
mass (Box2D's revolute joint), a weld's angle as a 1×1 one, a slider (prismatic
joint) as three 1×1 ones (``_slider``); motors and limits as in Box2D (limits
speculative: a gap to one may close this substep, no more). ``force`` (impulse / h,
mass·px/s²) is what Break reads. Each body's rotation is taken once a pass
(``_rotations``), not per joint end.

Why hard constraints and one position pass, not Box2D v3's soft bias (``b2MakeSoft``
in the solve, no position pass) — measured here at the World's 6 substeps: with the
bias at 60–240 Hz and damping ratios 1–5, a plank hinged to a post it rests on
slipped off it (0.28 rad, test_joint_collide), a motor of 1.05× the weight's torque
no longer held its rod level (1.06e-3 rad) or a strong slider motor pushed 1.8 px
through its limit (soft limits), and a chain of 1:1000 masses stretched 7 px a link;
a rigid bias (1/h) blew that chain up. The hard solve with one position pass passes
all of them and leaves the 30-link chain's worst hinge gap at 0.05 px (Box2D 2.3,
8 + 3 iterations: 2.8 px).

A chain of unequal masses needs more passes: a row whose end is joined to something
more than ``MASS_RATIO`` times heavier or lighter (``_heavy_rows``) gets
``JOINT_PASSES`` of each (a 1:1000 chain after 10 s: within 0.15 px of hanging
straight with 8, 1.7 px with 4, 20 px with 1); the others one. The passes before
(25 a substep for every row, 8 of each mode until settled) cost 0.26 ms a frame in
the 30-link chain.

The helpers take numbers, not arrays, where a pass calls them for every joint: a
helper over arrays cost 15–25 ns a call here, one marked ``inline="always"`` more
(the two ends read by such a helper: 190 ns a joint, by a plain one 23 ns).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..columns import NO_LIMIT
from . import FMA
from .rigid_solver import rotation, turn_trig

#: Passes of each mode for the rows of a chain of unequal masses (``_heavy_rows``).
JOINT_PASSES = 8
#: Up to this turn (rad) a position pass turns an end's rotation to first order (``_turn``:
#: its length grows by 0.13 % at most); a larger one is turned whole. To first order, a
#: mass-1 arm hinged to a motor post and, 100–300 px off, to a 500-mass crate was
#: turned by radians a pass, its rotation lengthened with them, and ran away (out of
#: range within 8 frames).
FIRST_ORDER_TURN = 0.05
#: Ends this many times heavier or lighter than what they are joined to make a row heavy.
MASS_RATIO = 10.0
#: ``joint_scratch``'s flags of a row: heavy (``_heavy_rows``: ``JOINT_PASSES`` of each mode)
HEAVY = 1
#: and plain: a hinge between two bodies with no weld, slider, motor or limits and nothing of
#: them to warm-start, which the passes take the short way (``_hinge``)
PLAIN = 2


@njit(cache=True)
def joint_substep(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
                  impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                  lower_impulse, upper_impulse, bpos, bprev, bangle, bprev_angle, bw, biw,
                  ppos, pprev, pw, h):
    """One substep of the joints: warm start, solve, relax and position pass
    (``joint_sweep``'s modes 0–3), one of each for every row and ``JOINT_PASSES`` for
    the heavy ones (``_heavy_rows``), in one call (a call between kernels passing ~40
    arrays cost ~0.6 µs here: seven of them were half a 30-joint substep)."""
    table = (nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
             impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
             lower_impulse, upper_impulse)
    rot, stamp, flags, extra = joint_scratch(*table, bw, pw, len(bangle))
    joint_substep_with(*table, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h,
                       rot, stamp, flags, extra)


@njit(cache=True)
def joint_scratch(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
                  impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                  lower_impulse, upper_impulse, bw, pw, nb):
    """What ``joint_substep_with`` works in for the joint table's rows (``nj`` to
    ``upper_impulse``) and ``nb`` body rows: each body's rotation and its stamp, each
    row's flags (``HEAVY``, ``PLAIN``), and the extra passes the heavy rows take — the
    same for every substep of a frame (what they are made from changes only between
    frames: the solver writes no impulse of a plain row but ``impulse``)."""
    rot, stamp = np.empty((nb, 2)), np.zeros(nb, np.int8)
    flags = np.zeros(nj, np.int8)
    extra = joint_flags(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle,
                        broken, impulse, spin, force, lower, upper, motor_speed,
                        motor_torque, motor_impulse, lower_impulse, upper_impulse, bw, pw,
                        flags)
    return rot, stamp, flags, extra


@njit(cache=True)
def joint_flags(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
                impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                lower_impulse, upper_impulse, bw, pw, flags):
    """``joint_scratch``'s flags of the ``nj`` rows into ``flags`` (``PLAIN``, ``HEAVY``),
    in room made before (the fused frame's, kept with its arguments); returns the extra
    passes the heavy rows take."""
    if nj == 0:  # (a world without joints: no flags to make)
        return 0
    for k in range(nj):
        flags[k] = 0
        if (a_body[k] >= 0 and b_body[k] >= 0 and not weld[k] and axis[k, 0] == 0.0
                and axis[k, 1] == 0.0 and lower[k] <= -NO_LIMIT and upper[k] >= NO_LIMIT
                and motor_torque[k] <= 0.0 and spin[k] == 0.0 and motor_impulse[k] == 0.0
                and lower_impulse[k] == 0.0 and upper_impulse[k] == 0.0):
            flags[k] = PLAIN
    return JOINT_PASSES - 1 if _heavy_rows(nj, a_body, a_part, b_body, b_part, broken, bw,
                                           pw, flags) else 0


@njit(cache=True, _nrt=False)
def joint_substep_with(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle,
                       broken, impulse, spin, force, lower, upper, motor_speed, motor_torque,
                       motor_impulse, lower_impulse, upper_impulse, bpos, bprev, bangle,
                       bprev_angle, bw, biw, ppos, pprev, pw, h, rot, stamp, flags, extra):
    """``joint_substep`` in the room ``joint_scratch`` made (a fused frame makes it once
    for its substeps: no arrays made a substep, and no reference counts)."""
    stamp[:] = 0
    joint_sweep(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
                impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                lower_impulse, upper_impulse, bpos, bprev, bangle, bprev_angle, bw, biw, ppos,
                pprev, pw, rot, stamp, flags, h, 0, 3, extra)


@njit(cache=True)
def _schedule(q, first, extra):
    """Pass ``q`` of a sweep from mode ``first``: its mode and whether it takes the heavy
    rows alone (mode 0 once, each later mode once for all and ``extra`` times for them)."""
    if first == 0:
        if q == 0:
            return 0, False
        q, first = q - 1, 1
    return first + q // (1 + extra), q % (1 + extra) > 0


@njit(cache=True, _nrt=False)
def _rotations(nj, a_body, b_body, broken, angle, rot, stamp, mark):
    """``rot[b]`` = (cos, sin) of ``angle[b]`` for every body at a joint's end, each once
    (``stamp[b]`` set to ``mark``), by ``rotation`` (libm's sincos was an eighth of a
    chain's frame)."""
    for k in range(nj):
        if broken[k]:
            continue
        for body in (a_body[k], b_body[k]):
            if body >= 0 and stamp[body] != mark:
                rot[body, 0], rot[body, 1] = rotation(angle[body])
                stamp[body] = mark


@njit(cache=True)
def _heavy_rows(nj, a_body, a_part, b_body, b_part, broken, bw, pw, flags):
    """Flags ``HEAVY`` in ``flags`` the rows with an end on a body or particle that some joint
    joins to a moving one over ``MASS_RATIO`` times heavier or lighter; whether any."""
    bmark, pmark = np.zeros(len(bw), np.bool_), np.zeros(len(pw), np.bool_)
    found = False
    for k in range(nj):
        wa = bw[a_body[k]] if a_body[k] >= 0 else pw[a_part[k]]
        wb = bw[b_body[k]] if b_body[k] >= 0 else pw[b_part[k]]
        if not broken[k] and wa > 0.0 and wb > 0.0 and max(wa, wb) > MASS_RATIO * min(wa, wb):
            found = True
            for body, part in ((a_body[k], a_part[k]), (b_body[k], b_part[k])):
                if body >= 0:
                    bmark[body] = True
                else:
                    pmark[part] = True
    for k in range(nj if found else 0):
        a = bmark[a_body[k]] if a_body[k] >= 0 else pmark[a_part[k]]
        b = bmark[b_body[k]] if b_body[k] >= 0 else pmark[b_part[k]]
        if a or b:
            flags[k] |= HEAVY
    return found


@njit(cache=True, _nrt=False, fastmath=FMA)
def joint_sweep(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
                impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                lower_impulse, upper_impulse, bpos, bprev, bangle, bprev_angle, bw, biw, ppos,
                pprev, pw, rot, stamp, flags, h, first, last, extra):
    """Passes over the joints, modes ``first`` to ``last`` (``_schedule``: each once, and
    ``extra`` more times for the ``HEAVY`` rows but the warm start): 0 warm start, 1
    solve (into the move), 2 relax (into the velocity only), 3 position pass (the
    anchors' gap, a weld's angle and a limit's overshoot taken out in position and
    previous position: no velocity). Velocity constraints ``J v = 0`` take
    ``λ = −(J M⁻¹ Jᵀ)⁻¹ J v``, accumulated in ``impulse`` (warm-started across frames),
    ``force`` = |impulse| / h; the position pass ``λ = −(J M⁻¹ Jᵀ)⁻¹ C``. Each end's
    rotation is ``rot`` (``_rotations``: where the substep started for modes 0–1, where
    it is now for 2–3, moved along by the position pass).

    ``PLAIN`` rows take ``_hinge``, one copy for each mode with the mode a constant (no
    other mode's branches): the chain's substep 4.4 → 3.3 µs, called in a loop in the
    kernel. (A whole pass for each mode, the other rows' way too, was 3.1 µs and twice
    the compile: 16 CPU-s against 8.)"""
    inv_h = 1.0 / h
    bodies = (bpos, bprev, bangle, bprev_angle, bw, biw)
    passes = (1 if first == 0 else 0) + (last - max(first, 1) + 1) * (1 + extra)
    q, k, mode, only_heavy = -1, nj - 1, first, False
    for _ in range(passes * nj):
        k += 1
        if k == nj:  # the next pass
            q, k = q + 1, 0
            mode, only_heavy = _schedule(q, first, extra)
            if q == 0 or (mode == 2 and not only_heavy):
                _rotations(nj, a_body, b_body, broken, bprev_angle if mode < 2 else bangle,
                           rot, stamp, 1 if q == 0 else 2)
        use_prev = mode < 2
        if broken[k] or (only_heavy and not flags[k] & HEAVY):
            continue
        ab, bb = a_body[k], b_body[k]
        if flags[k] & PLAIN:
            lax, lay, lbx, lby = la[k, 0], la[k, 1], lb[k, 0], lb[k, 1]
            if mode == 0:
                _hinge(0, k, ab, bb, lax, lay, lbx, lby, bodies, rot, impulse, force, h, inv_h)
            elif mode == 1:
                _hinge(1, k, ab, bb, lax, lay, lbx, lby, bodies, rot, impulse, force, h, inv_h)
            elif mode == 2:
                _hinge(2, k, ab, bb, lax, lay, lbx, lby, bodies, rot, impulse, force, h, inv_h)
            else:
                _hinge(3, k, ab, bb, lax, lay, lbx, lby, bodies, rot, impulse, force, h, inv_h)
            continue
        ap, bp = a_part[k], b_part[k]
        # ends: anchor point, arm, velocity, angular velocity, inverse mass and inertia
        pax, pay, rax, ray, vax, vay, oma, wa, iwa = _end(
            ab, ap, la[k, 0], la[k, 1], use_prev, bpos, bprev, bangle, bprev_angle, rot, bw,
            biw, ppos, pprev, pw, inv_h)
        pbx, pby, rbx, rby, vbx, vby, omb, wb, iwb = _end(
            bb, bp, lb[k, 0], lb[k, 1], use_prev, bpos, bprev, bangle, bprev_angle, rot, bw,
            biw, ppos, pprev, pw, inv_h)
        kw = iwa + iwb
        if axis[k, 0] != 0.0 or axis[k, 1] != 0.0:  # a slider: a unit of its own
            jx, jy, jw, rax, ray = _slider(
                k, mode, ab, bb, pax, pay, rax, ray, vax, vay, oma, wa, iwa, pbx, pby, rbx,
                rby, vbx, vby, omb, wb, iwb, rot, bangle, bprev_angle, axis, rest_angle,
                impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                lower_impulse, upper_impulse, h, inv_h)
        else:
            k11, k12, k22, det = _point_mass(wa, wb, iwa, iwb, rax, ray, rbx, rby)
            if det <= 0.0:
                continue
            idet = 1.0 / det
            turns = kw > 0.0 and not weld[k]
            limited = turns and (lower[k] > -NO_LIMIT or upper[k] < NO_LIMIT)
            jw = 0.0
            if mode == 3:
                # the gap, taken out in position only
                jx, jy = _point_impulse(k11, k12, k22, idet, pbx - pax, pby - pay)
                if weld[k] and ab >= 0 and bb >= 0 and kw > 0.0:
                    jw = -(bangle[bb] - bangle[ab] - rest_angle[k]) / kw
                elif limited:  # past a limit: back to it
                    theta = _joint_angle(ab, bb, False, bangle, bprev_angle) - rest_angle[k]
                    jw = -(min(theta - lower[k], 0.0) + max(theta - upper[k], 0.0)) / kw
            elif mode == 0:
                jx, jy, jw = impulse[k, 0], impulse[k, 1], spin[k]
                if turns:
                    jw += motor_impulse[k] + lower_impulse[k] - upper_impulse[k]
            else:
                if weld[k] and kw > 0.0:  # the angle first, then the point
                    jw = -(omb - oma) / kw
                    spin[k] += jw
                elif limited or (turns and motor_torque[k] > 0.0):  # motor, limits, point
                    theta = _joint_angle(ab, bb, use_prev, bangle, bprev_angle) - rest_angle[k]
                    jw = _motor_and_limits(k, theta, oma, omb, iwa, iwb, h, inv_h, lower,
                                           upper, motor_speed, motor_torque, motor_impulse,
                                           lower_impulse, upper_impulse)
                oma, omb = oma - iwa * jw, omb + iwb * jw
                jx, jy = _point_impulse(k11, k12, k22, idet, *_point_speed(
                    vax, vay, oma, rax, ray, vbx, vby, omb, rbx, rby))
                impulse[k, 0] += jx
                impulse[k, 1] += jy
                # what it holds: the accumulated impulse over a substep
                force[k] = math.sqrt(impulse[k, 0] ** 2 + impulse[k, 1] ** 2) * inv_h
        # impulse (jx, jy) at the anchors and jw about them: a's share −, b's +; times h
        # into the move (warm start, solve), minus into prev (relax: the velocity only),
        # or as is into both (the position pass: no velocity)
        dxa, dya, dwa, dxb, dyb, dwb = _moves(jx, jy, jw, wa, iwa, rax, ray, wb, iwb, rbx, rby,
                                              1.0 if mode == 3 else h)
        if mode != 2:
            _move_ends(ab, ap, bb, bp, dxa, dya, dwa, dxb, dyb, dwb, 1.0, bpos, bangle, ppos)
        if mode >= 2:
            _move_ends(ab, ap, bb, bp, dxa, dya, dwa, dxb, dyb, dwb, 1.0 if mode == 3 else -1.0,
                       bprev, bprev_angle, pprev)
        if mode == 3:  # the ends turned: their rotations follow (``_turn``)
            _turn(rot, ab, dwa)
            _turn(rot, bb, dwb)


@njit(cache=True, _nrt=False, fastmath=FMA, inline="always")
def _hinge(mode, k, ab, bb, lax, lay, lbx, lby, bodies, rot, impulse, force, h, inv_h):
    """``joint_sweep``'s row ``k`` in mode ``mode`` when it is ``PLAIN``: the hinge's point
    alone, both ends bodies (``ab``, ``bb``; local anchors ``(lax, lay)``, ``(lbx, lby)``),
    the same arithmetic as the general way with nothing of what a plain row lacks read."""
    bpos, bprev, bangle, bprev_angle, bw, biw = bodies
    ca, sa, cb, sb = rot[ab, 0], rot[ab, 1], rot[bb, 0], rot[bb, 1]
    rax, ray = ca * lax - sa * lay, sa * lax + ca * lay
    rbx, rby = cb * lbx - sb * lby, sb * lbx + cb * lby
    wa, wb, iwa, iwb = bw[ab], bw[bb], biw[ab], biw[bb]
    k11, k12, k22, det = _point_mass(wa, wb, iwa, iwb, rax, ray, rbx, rby)
    if det <= 0.0:
        return
    idet = 1.0 / det
    if mode == 3:  # the gap between the anchors where the bodies are now
        jx, jy = _point_impulse(k11, k12, k22, idet, bpos[bb, 0] + rbx - (bpos[ab, 0] + rax),
                                bpos[bb, 1] + rby - (bpos[ab, 1] + ray))
    elif mode == 0:
        jx, jy = impulse[k, 0], impulse[k, 1]
    else:
        vax, vay = (bpos[ab, 0] - bprev[ab, 0]) * inv_h, (bpos[ab, 1] - bprev[ab, 1]) * inv_h
        vbx, vby = (bpos[bb, 0] - bprev[bb, 0]) * inv_h, (bpos[bb, 1] - bprev[bb, 1]) * inv_h
        oma = (bangle[ab] - bprev_angle[ab]) * inv_h
        omb = (bangle[bb] - bprev_angle[bb]) * inv_h
        jx, jy = _point_impulse(k11, k12, k22, idet, *_point_speed(
            vax, vay, oma, rax, ray, vbx, vby, omb, rbx, rby))
        impulse[k, 0] += jx
        impulse[k, 1] += jy
        force[k] = math.sqrt(impulse[k, 0] ** 2 + impulse[k, 1] ** 2) * inv_h
    dxa, dya, dwa, dxb, dyb, dwb = _moves(jx, jy, 0.0, wa, iwa, rax, ray, wb, iwb, rbx, rby,
                                          1.0 if mode == 3 else h)
    # (written here, not by ``_move_ends``: with its particle ends the chain's substep was 5 %
    # slower)
    if mode != 2:
        bpos[ab, 0] += dxa
        bpos[ab, 1] += dya
        bangle[ab] += dwa
        bpos[bb, 0] += dxb
        bpos[bb, 1] += dyb
        bangle[bb] += dwb
    if mode >= 2:  # relax: minus into prev; the position pass: as is
        sign = 1.0 if mode == 3 else -1.0
        bprev[ab, 0] += sign * dxa
        bprev[ab, 1] += sign * dya
        bprev_angle[ab] += sign * dwa
        bprev[bb, 0] += sign * dxb
        bprev[bb, 1] += sign * dyb
        bprev_angle[bb] += sign * dwb
    if mode == 3:
        _turn(rot, ab, dwa)
        _turn(rot, bb, dwb)


@njit(cache=True, fastmath=FMA)
def _point_mass(wa, wb, iwa, iwb, rax, ray, rbx, rby):
    """A hinge point's ``J M⁻¹ Jᵀ`` (``k11``, ``k12``, ``k22``: px² / mass) and its
    determinant, for ends of inverse masses ``wa``, ``wb``, inertias ``iwa``, ``iwb`` and
    arms ``(rax, ray)``, ``(rbx, rby)``."""
    k11 = wa + wb + iwa * ray * ray + iwb * rby * rby
    k12 = -iwa * rax * ray - iwb * rbx * rby
    k22 = wa + wb + iwa * rax * rax + iwb * rbx * rbx
    return k11, k12, k22, k11 * k22 - k12 * k12


@njit(cache=True, fastmath=FMA)
def _point_speed(vax, vay, oma, rax, ray, vbx, vby, omb, rbx, rby):
    """How fast b's anchor moves from a's (px/s): each end's velocity, angular velocity
    and arm."""
    return vbx - omb * rby - (vax - oma * ray), vby + omb * rbx - (vay + oma * rax)


@njit(cache=True, fastmath=FMA)
def _point_impulse(k11, k12, k22, idet, cx, cy):
    """``−K⁻¹ c`` for the point's speed or gap ``c`` (``K`` = ``_point_mass``'s, ``idet``
    its determinant's inverse)."""
    return -(k22 * cx - k12 * cy) * idet, -(k11 * cy - k12 * cx) * idet


@njit(cache=True, fastmath=FMA)
def _moves(jx, jy, jw, wa, iwa, rax, ray, wb, iwb, rbx, rby, scale):
    """Each end's move (x, y, turn: a's, then b's) from impulse ``(jx, jy)`` at the anchors
    and ``jw`` about them — a's share −, b's + — times ``scale`` (h into a move, 1 as a
    position pass's positional impulse)."""
    return (-jx * wa * scale, -jy * wa * scale, -iwa * (rax * jy - ray * jx + jw) * scale,
            jx * wb * scale, jy * wb * scale, iwb * (rbx * jy - rby * jx + jw) * scale)


@njit(cache=True, _nrt=False, fastmath=FMA)
def _turn(rot, body, turn):
    """Body ``body``'s ``rot`` (cos, sin) turned by ``turn`` rad (a position pass's turn): to
    first order up to ``FIRST_ORDER_TURN``, whole beyond; nothing for a particle end
    (``body`` < 0)."""
    if body >= 0:
        c, s = rot[body, 0], rot[body, 1]
        if abs(turn) <= FIRST_ORDER_TURN:
            rot[body, 0], rot[body, 1] = c - s * turn, s + c * turn
        else:  # turned whole: a rotation grown past unit length runs the next passes away
            ct, st = turn_trig(turn)
            rot[body, 0], rot[body, 1] = c * ct - s * st, s * ct + c * st


@njit(cache=True, _nrt=False, fastmath=FMA)
def _move_ends(ab, ap, bb, bp, dxa, dya, dwa, dxb, dyb, dwb, sign, pos, angle, ppos):
    """Add ``sign`` × each end's move (x, y and turn: a's, b's) to ``pos`` and ``angle``
    (a body's) or ``ppos`` (a particle's)."""
    for body, part, dx, dy, turn in ((ab, ap, dxa, dya, dwa), (bb, bp, dxb, dyb, dwb)):
        if body >= 0:
            pos[body, 0] += sign * dx
            pos[body, 1] += sign * dy
            angle[body] += sign * turn
        else:
            ppos[part, 0] += sign * dx
            ppos[part, 1] += sign * dy


@njit(cache=True, _nrt=False, fastmath=FMA)
def _slider(k, mode, ab, bb, pax, pay, rax, ray, vax, vay, oma, wa, iwa, pbx, pby, rbx, rby,
            vbx, vby, omb, wb, iwb, rot, bangle, bprev_angle, axis, rest_angle, impulse, spin,
            force, lower, upper, motor_speed, motor_torque, motor_impulse, lower_impulse,
            upper_impulse, h, inv_h):
    """One pass of slider ``k`` (Box2D's prismatic joint), the same modes as
    ``joint_sweep``. Its axis ``u`` turns with a; ``p`` is ``u`` turned a quarter.
    Three 1-D constraints, taken in turn: the relative angle (b's − a's = rest), the
    motor and limits along ``u`` (translation ``t = u·d``, ``d`` from a's anchor to
    b's), and no motion along ``p``. Each pushes b at its anchor and a at the same
    point (a's arm reaches to b's anchor), so for a direction ``n`` the effective mass
    is ``1 / (wa + wb + iwa (ra' × n)² + iwb (rb × n)²)``. Impulses: ``impulse[k, 0]``
    (along p), ``spin`` (angle), ``motor_impulse``, ``lower_impulse``,
    ``upper_impulse`` (along u), accumulated and warm-started.

    Returns the impulse to apply (x, y, angular) and a's arm to b's anchor, where it
    acts on a (the position pass: the positional impulse)."""
    c, s = (rot[ab, 0], rot[ab, 1]) if ab >= 0 else (1.0, 0.0)
    ux, uy = c * axis[k, 0] - s * axis[k, 1], s * axis[k, 0] + c * axis[k, 1]
    px, py = -uy, ux
    dx, dy = pbx - pax, pby - pay
    sx, sy = rax + dx, ray + dy  # a's arm to b's anchor
    su_a, su_b = sx * uy - sy * ux, rbx * uy - rby * ux
    sp_a, sp_b = sx * py - sy * px, rbx * py - rby * px
    ku = wa + wb + iwa * su_a * su_a + iwb * su_b * su_b
    kp = wa + wb + iwa * sp_a * sp_a + iwb * sp_b * sp_b
    kw = iwa + iwb
    theta = _joint_angle(ab, bb, mode < 2, bangle, bprev_angle) - rest_angle[k]
    t = ux * dx + uy * dy
    ju, jp, jw = 0.0, 0.0, 0.0
    if mode == 3:  # position pass: the angle, the offset along p, a limit's overshoot
        jw = -theta / kw if kw > 0.0 and bb >= 0 else 0.0
        over = min(t - lower[k], 0.0) + max(t - upper[k], 0.0)
        ju = -over / ku if ku > 0.0 else 0.0
        jp = -(px * dx + py * dy) / kp if kp > 0.0 else 0.0
    elif mode == 0:
        ju = motor_impulse[k] + lower_impulse[k] - upper_impulse[k]
        jp, jw = impulse[k, 0], spin[k]
    else:
        if kw > 0.0 and bb >= 0:  # the angle first
            jw = -(omb - oma) / kw
            oma, omb = oma - iwa * jw, omb + iwb * jw
            spin[k] += jw
        if ku > 0.0:  # along u: the motor, then the limits (speculative, as a hinge's)
            vu = (vbx - omb * rby - vax + oma * sy) * ux + (vby + omb * rbx - vay - oma * sx) * uy
            if motor_torque[k] > 0.0:
                most = motor_torque[k] * h
                old = motor_impulse[k]
                new = min(max(old - (vu - motor_speed[k]) / ku, -most), most)
                motor_impulse[k] = new
                ju += new - old
                vu += (new - old) * ku
            if lower[k] > -NO_LIMIT:
                new = _limit(lower_impulse[k], vu, t - lower[k], ku, inv_h)
                ju += new - lower_impulse[k]
                vu += (new - lower_impulse[k]) * ku
                lower_impulse[k] = new
            if upper[k] < NO_LIMIT:
                new = _limit(upper_impulse[k], -vu, upper[k] - t, ku, inv_h)
                ju -= new - upper_impulse[k]
                upper_impulse[k] = new
        # along p: no motion, after what u gave (it moved b's anchor and turned the ends)
        oma2, omb2 = oma - iwa * ju * su_a, omb + iwb * ju * su_b
        vp = ((vbx + wb * ju * ux - omb2 * rby - vax + wa * ju * ux + oma2 * sy) * px
              + (vby + wb * ju * uy + omb2 * rbx - vay + wa * ju * uy - oma2 * sx) * py)
        if kp > 0.0:
            jp = -vp / kp
            impulse[k, 0] += jp
        force[k] = abs(impulse[k, 0]) * inv_h
    return ju * ux + jp * px, ju * uy + jp * py, jw, sx, sy


@njit(cache=True, fastmath=FMA)
def _limit(old, speed, gap, k, inv_h):
    """A one-sided limit's new accumulated impulse (Box2D's): ``speed`` towards it, ``gap``
    to it (> 0: short of it, may close this substep), ``k`` its inverse effective mass."""
    return max(old - (speed + max(gap, 0.0) * inv_h) / k, 0.0)


@njit(cache=True, _nrt=False, fastmath=FMA)
def _joint_angle(ab, bb, use_prev, bangle, bprev_angle):
    """b's angle less a's (a particle end: 0), rad, where the substep started or now."""
    angles = bprev_angle if use_prev else bangle
    return (angles[bb] if bb >= 0 else 0.0) - (angles[ab] if ab >= 0 else 0.0)


@njit(cache=True, _nrt=False, fastmath=FMA)
def _motor_and_limits(k, theta, oma, omb, iwa, iwb, h, inv_h, lower, upper, motor_speed,
                      motor_torque, motor_impulse, lower_impulse, upper_impulse):
    """Joint ``k``'s motor and limit impulses this pass (angular, on b; −that on a) at
    joint angle ``theta`` (rad) and angular velocities ``oma``, ``omb`` (rad/s):
    accumulated and clamped as in Box2D's revolute joint. Returns their sum."""
    kw = iwa + iwb
    total = 0.0
    if motor_torque[k] > 0.0:
        most = motor_torque[k] * h
        old = motor_impulse[k]
        new = min(max(old - (omb - oma - motor_speed[k]) / kw, -most), most)
        motor_impulse[k] = new
        total += new - old
        oma, omb = oma - iwa * (new - old), omb + iwb * (new - old)
    if lower[k] > -NO_LIMIT:
        new = _limit(lower_impulse[k], omb - oma, theta - lower[k], kw, inv_h)
        total += new - lower_impulse[k]
        oma, omb = oma - iwa * (new - lower_impulse[k]), omb + iwb * (new - lower_impulse[k])
        lower_impulse[k] = new
    if upper[k] < NO_LIMIT:
        new = _limit(upper_impulse[k], oma - omb, upper[k] - theta, kw, inv_h)
        total -= new - upper_impulse[k]
        upper_impulse[k] = new
    return total


@njit(cache=True, _nrt=False, fastmath=FMA)
def _end(body, part, lx, ly, use_prev, bpos, bprev, bangle, bprev_angle, rot, bw, biw, ppos,
         pprev, pw, inv_h):
    """One joint end: its anchor point (where the substep started, or where it is now),
    arm (``rot`` turns the local anchor), velocity, angular velocity, inverse mass and
    inertia (a particle: no arm, no rotation)."""
    if body >= 0:
        c, s = rot[body, 0], rot[body, 1]
        rx, ry = c * lx - s * ly, s * lx + c * ly
        centre = bprev if use_prev else bpos
        return (centre[body, 0] + rx, centre[body, 1] + ry, rx, ry,
                (bpos[body, 0] - bprev[body, 0]) * inv_h,
                (bpos[body, 1] - bprev[body, 1]) * inv_h,
                (bangle[body] - bprev_angle[body]) * inv_h, bw[body], biw[body])
    at = pprev if use_prev else ppos
    return (at[part, 0], at[part, 1], 0.0, 0.0, (ppos[part, 0] - pprev[part, 0]) * inv_h,
            (ppos[part, 1] - pprev[part, 1]) * inv_h, 0.0, pw[part], 0.0)


@njit(cache=True, _nrt=False)
def links_changed(n, a_body, b_body, a_part, b_part, broken, collide, seen):
    """Whether joint rows ``0..n``' ends, ``broken`` and ``collide`` flags differ from what
    ``seen`` (``(≥ n, 6)``) holds of them; ``seen`` then holds them (what the contact
    graph's links were made from: ``physics.contacts.joint_links``)."""
    changed = False
    for k in range(n):
        row = (a_body[k], b_body[k], a_part[k], b_part[k], 1 if broken[k] else 0,
               1 if collide[k] else 0)
        for c in range(6):
            if seen[k, c] != row[c]:
                seen[k, c] = row[c]
                changed = True
    return changed
