"""Joints: hinges and welds between rigid bodies and particles.

Solved in Project, before the contacts (``joint_substep``: warm start, solve,
relax, position pass, as ``rigid_solver.contact_substep`` does for contacts): hard
point constraints with a 2×2 effective mass (Box2D's
revolute joint), a weld's angle as a 1×1 one, a slider (prismatic joint) as three
1×1 ones (``_slider``), impulses accumulated and
warm-started across frames (a chain of 1:1000 masses hangs; XPBD joints, the
first try, stretched 25 px there), then a position pass that closes the gaps
without making velocity. ``force`` (impulse / h, mass·px/s²) is what Break reads.
"""

from __future__ import annotations

import math

from numba import njit

from ..columns import NO_LIMIT

#: Most passes over the joints per solve, relax and position pass (a chain of unequal
#: masses needs several to converge) …
JOINT_PASSES = 8
#: … but no more once a pass changed no anchor's speed by more than this (px/s: solve,
#: relax) or closed no gap by more than this (px: the position pass). A resting chain
#: converges in one or two; Box2D v3 always takes one of each.
SETTLED_SPEED, SETTLED_GAP = 5.0, 0.05


@njit(cache=True)
def joint_substep(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
                  impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                  lower_impulse, upper_impulse, bpos, bprev, bangle, bprev_angle, bw, biw,
                  ppos, pprev, pw, h):
    """One substep of the joints: warm start, then ``JOINT_PASSES`` of solve, of relax and
    of the position pass (``joint_sweep``'s modes 0–3), each stopped early once settled
    (``SETTLED_SPEED``, ``SETTLED_GAP``)."""
    joints = (nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken, impulse,
              spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
              lower_impulse, upper_impulse)
    state = (bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev, pw, h)
    joint_sweep(*joints, *state, 0)
    for mode in (1, 2, 3):
        settled = SETTLED_GAP if mode == 3 else SETTLED_SPEED
        for _ in range(JOINT_PASSES):
            if joint_sweep(*joints, *state, mode) <= settled:
                break


@njit(cache=True)
def joint_sweep(nj, a_body, a_part, b_body, b_part, la, lb, weld, axis, rest_angle, broken,
                impulse, spin, force, lower, upper, motor_speed, motor_torque, motor_impulse,
                lower_impulse, upper_impulse, bpos, bprev, bangle, bprev_angle, bw, biw, ppos,
                pprev, pw, h, mode):
    """One pass over the joints: 0 warm start, 1 solve (moves), 2 relax (velocities
    only), 3 position pass (the anchors' gap, a weld's angle and a limit's overshoot
    taken out, in position and previous position: no velocity). Hard point
    constraints with a 2×2 effective mass (Box2D's revolute joint), accumulated and
    warm-started across frames — so a chain of 1:1000 masses hangs — and ``force`` =
    the impulse / h (mass·px/s²). Before the point, as in Box2D: the motor (its
    impulse clamped to ``motor_torque`` × h) and the angle limits (one-sided,
    speculative: a gap to a limit may close this substep, no more).

    Returns the largest change the pass made: an anchor's speed (px/s, solve and
    relax) or a gap closed (px, position pass); a slider counts as unsettled (inf)."""
    inv_h = 1.0 / h
    worst = 0.0
    for k in range(nj):
        if broken[k]:
            continue
        ab, ap, bb, bp = a_body[k], a_part[k], b_body[k], b_part[k]
        # ends: position (of the substep's start for solving, its end for the position
        # pass), arm, velocity, inverse mass and inertia
        use_prev = mode == 1
        pax, pay, rax, ray, vax, vay, oma, wa, iwa = _end(
            ab, ap, la[k, 0], la[k, 1], use_prev, bpos, bprev, bangle, bprev_angle, bw, biw,
            ppos, pprev, pw, inv_h)
        pbx, pby, rbx, rby, vbx, vby, omb, wb, iwb = _end(
            bb, bp, lb[k, 0], lb[k, 1], use_prev, bpos, bprev, bangle, bprev_angle, bw, biw,
            ppos, pprev, pw, inv_h)
        if axis[k, 0] != 0.0 or axis[k, 1] != 0.0:  # a slider: a unit of its own
            worst = math.inf
            _slider(k, mode, ab, ap, bb, bp, pax, pay, rax, ray, vax, vay, oma, wa, iwa,
                    pbx, pby, rbx, rby, vbx, vby, omb, wb, iwb, axis, rest_angle, impulse, spin,
                    force, lower, upper, motor_speed, motor_torque, motor_impulse,
                    lower_impulse, upper_impulse, bpos, bprev, bangle, bprev_angle, ppos,
                    pprev, h, inv_h)
            continue
        k11 = wa + wb + iwa * ray * ray + iwb * rby * rby
        k12 = -iwa * rax * ray - iwb * rbx * rby
        k22 = wa + wb + iwa * rax * rax + iwb * rbx * rbx
        det = k11 * k22 - k12 * k12
        if det <= 0.0:
            continue
        jx, jy, jw = 0.0, 0.0, 0.0
        turns = iwa + iwb > 0.0 and not weld[k]
        if mode == 0:
            jx, jy, jw = impulse[k, 0], impulse[k, 1], spin[k]
            if turns:
                jw += motor_impulse[k] + lower_impulse[k] - upper_impulse[k]
        elif mode <= 2:
            if weld[k] and iwa + iwb > 0.0:  # the angle first, then the point
                jw = -(omb - oma) / (iwa + iwb)
                oma, omb = oma - iwa * jw, omb + iwb * jw
                spin[k] += jw
            elif turns:  # the motor and the limits, then the point
                theta = _joint_angle(ab, bb, mode == 1, bangle, bprev_angle) - rest_angle[k]
                jw = _motor_and_limits(k, theta, oma, omb, iwa, iwb, h, inv_h, lower, upper,
                                       motor_speed, motor_torque, motor_impulse,
                                       lower_impulse, upper_impulse)
                oma, omb = oma - iwa * jw, omb + iwb * jw
            cvx = vbx - omb * rby - (vax - oma * ray)
            cvy = vby + omb * rbx - (vay + oma * rax)
            jx = -(k22 * cvx - k12 * cvy) / det
            jy = -(k11 * cvy - k12 * cvx) / det
            impulse[k, 0] += jx
            impulse[k, 1] += jy
            # what it holds: the accumulated impulse over a substep
            force[k] = math.sqrt(impulse[k, 0] ** 2 + impulse[k, 1] ** 2) * inv_h
            oma, omb = oma + iwa * jw, omb - iwb * jw  # the angular part: applied below
        else:
            ex, ey = pbx - pax, pby - pay  # the gap, taken out in position only
            dx = -(k22 * ex - k12 * ey) / det
            dy = -(k11 * ey - k12 * ex) / det
            dw = 0.0
            if weld[k] and ab >= 0 and bb >= 0 and iwa + iwb > 0.0:
                dw = -(bangle[bb] - bangle[ab] - rest_angle[k]) / (iwa + iwb)
            elif turns:  # past a limit: back to it
                theta = _joint_angle(ab, bb, False, bangle, bprev_angle) - rest_angle[k]
                over = min(theta - lower[k], 0.0) + max(theta - upper[k], 0.0)
                dw = -over / (iwa + iwb)
            _shift_ends(ab, ap, bb, bp, dx, dy, dw, rax, ray, rbx, rby, wa, iwa, wb, iwb,
                        bpos, bprev, bangle, bprev_angle, ppos, pprev)
            arms = math.hypot(rax, ray) + math.hypot(rbx, rby)
            worst = max(worst, math.hypot(ex, ey) + abs(dw) * (iwa + iwb) * arms)
            continue
        # apply impulse j (and a weld's jw) to the velocities: into the move (solve, warm
        # start) or the velocity only (relax)
        dva, dvb = (-jx * wa, -jy * wa), (jx * wb, jy * wb)
        dwa = -iwa * (rax * jy - ray * jx + jw)
        dwb = iwb * (rbx * jy - rby * jx + jw)
        if mode == 2:
            _kick_end(ab, ap, -dva[0] * h, -dva[1] * h, -dwa * h, bprev, bprev_angle, pprev)
            _kick_end(bb, bp, -dvb[0] * h, -dvb[1] * h, -dwb * h, bprev, bprev_angle, pprev)
        else:
            _kick_end(ab, ap, dva[0] * h, dva[1] * h, dwa * h, bpos, bangle, ppos)
            _kick_end(bb, bp, dvb[0] * h, dvb[1] * h, dwb * h, bpos, bangle, ppos)
        if mode > 0:
            worst = max(worst, math.hypot(jx, jy) * (wa + wb)
                        + abs(dwa) * math.hypot(rax, ray) + abs(dwb) * math.hypot(rbx, rby))
    return worst


@njit(cache=True)
def _slider(k, mode, ab, ap, bb, bp, pax, pay, rax, ray, vax, vay, oma, wa, iwa, pbx, pby,
            rbx, rby, vbx, vby, omb, wb, iwb, axis, rest_angle, impulse, spin, force, lower,
            upper, motor_speed, motor_torque, motor_impulse, lower_impulse, upper_impulse,
            bpos, bprev, bangle, bprev_angle, ppos, pprev, h, inv_h):
    """One pass of slider ``k`` (Box2D's prismatic joint), the same modes as
    ``joint_sweep``. Its axis ``u`` turns with a; ``p`` is ``u`` turned a quarter.
    Three 1-D constraints, taken in turn: the relative angle (b's − a's = rest), the
    motor and limits along ``u`` (translation ``t = u·d``, ``d`` from a's anchor to
    b's), and no motion along ``p``. Each pushes b at its anchor and a at the same
    point (a's arm reaches to b's anchor), so for a direction ``n`` the effective mass
    is ``1 / (wa + wb + iwa (ra' × n)² + iwb (rb × n)²)``. Impulses: ``impulse[k, 0]``
    (along p), ``spin`` (angle), ``motor_impulse``, ``lower_impulse``,
    ``upper_impulse`` (along u), accumulated and warm-started."""
    ang = bprev_angle[ab] if mode == 1 else bangle[ab]
    c, s = math.cos(ang), math.sin(ang)
    ux, uy = c * axis[k, 0] - s * axis[k, 1], s * axis[k, 0] + c * axis[k, 1]
    px, py = -uy, ux
    dx, dy = pbx - pax, pby - pay
    sx, sy = rax + dx, ray + dy  # a's arm to b's anchor
    su_a, su_b = sx * uy - sy * ux, rbx * uy - rby * ux
    sp_a, sp_b = sx * py - sy * px, rbx * py - rby * px
    ku = wa + wb + iwa * su_a * su_a + iwb * su_b * su_b
    kp = wa + wb + iwa * sp_a * sp_a + iwb * sp_b * sp_b
    kw = iwa + iwb
    theta = _joint_angle(ab, bb, mode == 1, bangle, bprev_angle) - rest_angle[k]
    t = ux * dx + uy * dy
    if mode == 3:  # position pass: the angle, the offset along p, a limit's overshoot
        dw = -theta / kw if kw > 0.0 and bb >= 0 else 0.0
        over = min(t - lower[k], 0.0) + max(t - upper[k], 0.0)
        lu = -over / ku if ku > 0.0 else 0.0
        lp = -(px * dx + py * dy) / kp if kp > 0.0 else 0.0
        _shift_ends(ab, ap, bb, bp, lu * ux + lp * px, lu * uy + lp * py, dw, sx, sy, rbx,
                    rby, wa, iwa, wb, iwb, bpos, bprev, bangle, bprev_angle, ppos, pprev)
        return
    ju, jp, jw = 0.0, 0.0, 0.0
    if mode == 0:
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
                gap = t - lower[k]
                bias = gap * inv_h if gap > 0.0 else 0.0
                old = lower_impulse[k]
                new = max(old - (vu + bias) / ku, 0.0)
                lower_impulse[k] = new
                ju += new - old
                vu += (new - old) * ku
            if upper[k] < NO_LIMIT:
                gap = upper[k] - t
                bias = gap * inv_h if gap > 0.0 else 0.0
                old = upper_impulse[k]
                new = max(old - (-vu + bias) / ku, 0.0)
                upper_impulse[k] = new
                ju -= new - old
        # along p: no motion, after what u gave (it moved b's anchor and turned the ends)
        oma2, omb2 = oma - iwa * ju * su_a, omb + iwb * ju * su_b
        vp = ((vbx + wb * ju * ux - omb2 * rby - vax + wa * ju * ux + oma2 * sy) * px
              + (vby + wb * ju * uy + omb2 * rbx - vay + wa * ju * uy - oma2 * sx) * py)
        if kp > 0.0:
            jp = -vp / kp
            impulse[k, 0] += jp
        force[k] = abs(impulse[k, 0]) * inv_h
    jx, jy = ju * ux + jp * px, ju * uy + jp * py
    dwa = -iwa * (sx * jy - sy * jx + jw)
    dwb = iwb * (rbx * jy - rby * jx + jw)
    if mode == 2:  # relax: the velocity only
        _kick_end(ab, ap, jx * wa * h, jy * wa * h, -dwa * h, bprev, bprev_angle, pprev)
        _kick_end(bb, bp, -jx * wb * h, -jy * wb * h, -dwb * h, bprev, bprev_angle, pprev)
    else:
        _kick_end(ab, ap, -jx * wa * h, -jy * wa * h, dwa * h, bpos, bangle, ppos)
        _kick_end(bb, bp, jx * wb * h, jy * wb * h, dwb * h, bpos, bangle, ppos)


@njit(cache=True, inline="always")
def _joint_angle(ab, bb, use_prev, bangle, bprev_angle):
    """b's angle less a's (a particle end: 0), rad, where the substep started or now."""
    angles = bprev_angle if use_prev else bangle
    return (angles[bb] if bb >= 0 else 0.0) - (angles[ab] if ab >= 0 else 0.0)


@njit(cache=True, inline="always")
def _motor_and_limits(k, theta, oma, omb, iwa, iwb, h, inv_h, lower, upper, motor_speed,
                      motor_torque, motor_impulse, lower_impulse, upper_impulse):
    """Joint ``k``'s motor and limit impulses this pass (angular, on b; −that on a) at
    joint angle ``theta`` (rad) and angular velocities ``oma``, ``omb`` (rad/s):
    accumulated and clamped as in Box2D's revolute joint. Returns their sum."""
    mass = 1.0 / (iwa + iwb)
    total = 0.0
    if motor_torque[k] > 0.0:
        most = motor_torque[k] * h
        old = motor_impulse[k]
        new = min(max(old - mass * (omb - oma - motor_speed[k]), -most), most)
        motor_impulse[k] = new
        total += new - old
        oma, omb = oma - iwa * (new - old), omb + iwb * (new - old)
    if lower[k] > -NO_LIMIT:
        gap = theta - lower[k]  # > 0: short of the limit; may close this substep
        bias = gap * inv_h if gap > 0.0 else 0.0
        old = lower_impulse[k]
        new = max(old - mass * (omb - oma + bias), 0.0)
        lower_impulse[k] = new
        total += new - old
        oma, omb = oma - iwa * (new - old), omb + iwb * (new - old)
    if upper[k] < NO_LIMIT:
        gap = upper[k] - theta
        bias = gap * inv_h if gap > 0.0 else 0.0
        old = upper_impulse[k]
        new = max(old - mass * (oma - omb + bias), 0.0)
        upper_impulse[k] = new
        total -= new - old
    return total


@njit(cache=True, inline="always")
def _end(body, part, lx, ly, use_prev, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev,
         pw, inv_h):
    """One joint end: its anchor point (where the substep started, or where it is now),
    arm, velocity, angular velocity, inverse mass and inertia (a particle: no arm, no
    rotation)."""
    if body >= 0:
        ang = bprev_angle[body] if use_prev else bangle[body]
        c, s = math.cos(ang), math.sin(ang)
        rx, ry = c * lx - s * ly, s * lx + c * ly
        cx, cy = (bprev[body, 0], bprev[body, 1]) if use_prev else (bpos[body, 0], bpos[body, 1])
        return (cx + rx, cy + ry, rx, ry, (bpos[body, 0] - bprev[body, 0]) * inv_h,
                (bpos[body, 1] - bprev[body, 1]) * inv_h,
                (bangle[body] - bprev_angle[body]) * inv_h, bw[body], biw[body])
    px, py = (pprev[part, 0], pprev[part, 1]) if use_prev else (ppos[part, 0], ppos[part, 1])
    return (px, py, 0.0, 0.0, (ppos[part, 0] - pprev[part, 0]) * inv_h,
            (ppos[part, 1] - pprev[part, 1]) * inv_h, 0.0, pw[part], 0.0)


@njit(cache=True, inline="always")
def _kick_end(body, part, dx, dy, dang, bp, ba, pp):
    """Add ``(dx, dy)`` and ``dang`` to a joint end's body (or particle) arrays."""
    if body >= 0:
        bp[body, 0] += dx
        bp[body, 1] += dy
        ba[body] += dang
    else:
        pp[part, 0] += dx
        pp[part, 1] += dy


@njit(cache=True, inline="always")
def _shift_ends(ab, ap, bb, bp, dx, dy, dw, rax, ray, rbx, rby, wa, iwa, wb, iwb, bpos, bprev,
                bangle, bprev_angle, ppos, pprev):
    """Move both ends by the positional impulse ``(dx, dy)`` (and angular ``dw``), in
    position and previous position alike: no velocity comes of it."""
    ta = -iwa * (rax * dy - ray * dx + dw)
    tb = iwb * (rbx * dy - rby * dx + dw)
    if ab >= 0:
        for t in (bpos, bprev):
            t[ab, 0] -= dx * wa
            t[ab, 1] -= dy * wa
        bangle[ab] += ta
        bprev_angle[ab] += ta
    if bb >= 0:
        for t in (bpos, bprev):
            t[bb, 0] += dx * wb
            t[bb, 1] += dy * wb
        bangle[bb] += tb
        bprev_angle[bb] += tb
    if ab < 0:
        for t in (ppos, pprev):
            t[ap, 0] -= dx * wa
            t[ap, 1] -= dy * wa
    if bb < 0:
        for t in (ppos, pprev):
            t[bp, 0] += dx * wb
            t[bp, 1] += dy * wb
