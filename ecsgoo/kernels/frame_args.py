"""A world's arrays and settings that outlive its frames, handed to a frame's kernel as
one object (a numba StructRef) instead of one argument each.

numba types and unboxes every argument of a call: ~45 ns an array, so the fused disc
frame's 90 arguments cost ~4.5 µs a call before any arithmetic; a StructRef of them
types in ~0.6 µs. ``physics.disc_frame`` makes one (``disc_frame_args``) when the rows,
the level, the bounds, the World's or Collide's settings or the substep change, and
passes it with the frame's own arguments (``kernels.disc_frame.disc_frame_held``).

The type lives in a module of its own: numba finds a cached kernel that takes a
StructRef only when the StructRef is not defined beside it.
"""

from __future__ import annotations

from numba import njit, types
from numba.experimental import structref


class _ArgsType(types.StructRef):
    """The StructRef types below: their fields' types as given, literals made plain."""

    def preprocess_fields(self, fields: tuple) -> tuple:
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class _Args(structref.StructRefProxy):
    """A StructRef's Python side whose numba type is the instance's own attribute: numba's
    dispatcher reads ``_numba_type_`` twice a call, which ``StructRefProxy`` answers with
    a property (two Python calls, ~70 ns of a small world's frame)."""

    _numba_type_ = None  # (no property: an instance's own value, set as numba boxes it)

    @classmethod
    def _numba_box_(cls, ty: types.Type, mi: object) -> _Args:
        instance = super()._numba_box_(ty, mi)
        instance.__dict__["_numba_type_"] = ty
        return instance


@structref.register
class DiscFrameArgsType(_ArgsType):
    """``DiscFrameArgs``' numba type (its fields: ``FIELDS``)."""


class DiscFrameArgs(_Args):
    """Opaque in Python: made by ``disc_frame_args``, read by the disc frame's kernel."""


structref.define_boxing(DiscFrameArgsType, DiscFrameArgs)

_F, _I, _B = types.float64, types.int64, types.boolean
_F1, _F2 = types.float64[::1], types.float64[:, ::1]
_I1, _B1 = types.int64[::1], types.boolean[::1]

#: The fields (``kernels.disc_frame.disc_frame_held`` reads them; ``disc_substeps``' docstring says
#: what each is): the substeps, their time, damping, gravity and forces; the particles' columns; the
#: look's margin and keys; the contacts' settings; the level's segments and polygons and the bounds'
#: walls.
FIELDS = [
    ("count", _I), ("h", _F), ("damp", _F), ("gx", _F), ("gy", _F), ("force", _F2), ("n", _I),
    ("pos", _F2), ("prev", _F2), ("w", _F1), ("pinned", _B1), ("pin", _F2), ("group", _I1),
    ("layer", _I1), ("frozen", _B1), ("extra", _F), ("wall", _I), ("shift", _I),
    ("downx", _F), ("downy", _F), ("pairs", _B), ("soft", _F2), ("push_speed", _F),
    ("bounce_speed", _F), ("radius", _F1), ("friction", _F1), ("restitution", _F1),
    ("mask", _I1), ("vmin", _F), ("push", _F), ("hold", _F), ("slop", _F), ("segs", _F2),
    ("seg_surf", _F2), ("seg_layer", _I1), ("poly_off", _I1), ("poly_xy", _F2),
    ("poly_idx", _I1), ("poly_surf", _F2), ("poly_layer", _I1), ("walls", _F1),
    ("use_bounds", _B),
]
DISC_FRAME_ARGS = DiscFrameArgsType(FIELDS)


@njit(cache=True)
def disc_frame_args(count, h, damp, gx, gy, force, n, pos, prev, w, pinned, pin, group,
                    layer, frozen, extra, wall, shift, downx, downy, pairs, soft, push_speed,
                    bounce_speed, radius, friction, restitution, mask, vmin, push, hold, slop,
                    segs, seg_surf, seg_layer, poly_off, poly_xy, poly_idx, poly_surf,
                    poly_layer, walls, use_bounds):
    """A ``DiscFrameArgs`` of these (``FIELDS``)."""
    a = structref.new(DISC_FRAME_ARGS)
    a.count, a.h, a.damp, a.gx, a.gy, a.force, a.n = count, h, damp, gx, gy, force, n
    a.pos, a.prev, a.w, a.pinned, a.pin, a.group = pos, prev, w, pinned, pin, group
    a.layer, a.frozen, a.extra, a.wall, a.shift = layer, frozen, extra, wall, shift
    a.downx, a.downy, a.pairs, a.soft = downx, downy, pairs, soft
    a.push_speed, a.bounce_speed, a.radius, a.friction = push_speed, bounce_speed, radius, friction
    a.restitution, a.mask, a.vmin, a.push, a.hold = restitution, mask, vmin, push, hold
    a.slop, a.segs, a.seg_surf, a.seg_layer, a.poly_off = slop, segs, seg_surf, seg_layer, poly_off
    a.poly_xy, a.poly_idx, a.poly_surf, a.poly_layer = poly_xy, poly_idx, poly_surf, poly_layer
    a.walls, a.use_bounds = walls, use_bounds
    return a


@structref.register
class QuietArgsType(_ArgsType):
    """``QuietArgs``' numba type (its fields: ``QUIET_FIELDS``)."""


class QuietArgs(_Args):
    """Opaque in Python: made by ``quiet_args``, read by ``kernels.frame_end``'s look."""


structref.define_boxing(QuietArgsType, QuietArgs)

#: The fields, in ``kernels.frame_end.loud``'s order (its docstring says what each is):
#: the particles' rows and columns; the grid of one cell; the level's shapes and layers;
#: the sensors' pack; the range check's limits.
QUIET_FIELDS = [
    ("n", _I), ("pos", _F2), ("prev", _F2), ("radius", _F1), ("layer", _I1), ("mask", _I1),
    ("events", _B1), ("x0", _F), ("y0", _F), ("cell", _F), ("nx", _I), ("ny", _I),
    ("start", _I1), ("items", _I1), ("segs", _F2), ("poly_off", _I1), ("poly_xy", _F2),
    ("poly_idx", _I1), ("walls", _F1), ("use_bounds", _B), ("seg_layer", _I1),
    ("poly_layer", _I1), ("kind", _I1), ("geo", _F2), ("s_poly_off", _I1), ("s_poly_xy", _F2),
    ("s_poly_idx", _I1), ("s_mask", _I1), ("max_coord", _F), ("step_limit", _F),
]
QUIET_ARGS = QuietArgsType(QUIET_FIELDS)


@njit(cache=True)
def quiet_args(n, pos, prev, radius, layer, mask, events, x0, y0, cell, nx, ny, start, items,
               segs, poly_off, poly_xy, poly_idx, walls, use_bounds, seg_layer, poly_layer,
               kind, geo, s_poly_off, s_poly_xy, s_poly_idx, s_mask, max_coord, step_limit):
    """A ``QuietArgs`` of these (``QUIET_FIELDS``)."""
    a = structref.new(QUIET_ARGS)
    a.n, a.pos, a.prev, a.radius, a.layer, a.mask, a.events = (n, pos, prev, radius, layer,
                                                                mask, events)
    a.x0, a.y0, a.cell, a.nx, a.ny, a.start, a.items = x0, y0, cell, nx, ny, start, items
    a.segs, a.poly_off, a.poly_xy, a.poly_idx = segs, poly_off, poly_xy, poly_idx
    a.walls, a.use_bounds, a.seg_layer, a.poly_layer = walls, use_bounds, seg_layer, poly_layer
    a.kind, a.geo, a.s_poly_off, a.s_poly_xy = kind, geo, s_poly_off, s_poly_xy
    a.s_poly_idx, a.s_mask, a.max_coord, a.step_limit = s_poly_idx, s_mask, max_coord, step_limit
    return a


@structref.register
class SpringArgsType(_ArgsType):
    """``SpringArgs``' numba type (its fields: ``SPRING_FIELDS``)."""


class SpringArgs(_Args):
    """Opaque in Python: made by ``spring_args``, read by the disc frame's kernel."""


structref.define_boxing(SpringArgsType, SpringArgs)

_I2 = types.int64[:, ::1]

#: The fields (``kernels.disc_frame.disc_frame_held`` reads them; ``disc_substeps``' docstring says
#: what each is): Project's rounds, the springs packed, their chains, the tether and body columns.
SPRING_FIELDS = [
    ("rounds", _I), ("ends", _I2), ("vals", _F2), ("order", _I1), ("lam", _F1), ("chains", _I),
    ("chain_off", _I1), ("chain_rows", _I1), ("chain_ends", _I2), ("scratch", _F2),
    ("ta_body", _I1), ("ta_part", _I1), ("tb_body", _I1), ("tb_part", _I1), ("tla", _F2),
    ("tlb", _F2), ("trest", _F1), ("tcompliance", _F1), ("tlam", _F1), ("bpos", _F2),
    ("bangle", _F1), ("bw", _F1), ("biw", _F1),
]
SPRING_ARGS = SpringArgsType(SPRING_FIELDS)


@njit(cache=True)
def spring_args(rounds, ends, vals, order, lam, chains, chain_off, chain_rows, chain_ends,
                scratch, ta_body, ta_part, tb_body, tb_part, tla, tlb, trest, tcompliance,
                tlam, bpos, bangle, bw, biw):
    """A ``SpringArgs`` of these (``SPRING_FIELDS``)."""
    a = structref.new(SPRING_ARGS)
    a.rounds, a.ends, a.vals, a.order, a.lam, a.chains = rounds, ends, vals, order, lam, chains
    a.chain_off, a.chain_rows, a.chain_ends, a.scratch = chain_off, chain_rows, chain_ends, scratch
    a.ta_body, a.ta_part, a.tb_body, a.tb_part = ta_body, ta_part, tb_body, tb_part
    a.tla, a.tlb, a.trest, a.tcompliance, a.tlam = tla, tlb, trest, tcompliance, tlam
    a.bpos, a.bangle, a.bw, a.biw = bpos, bangle, bw, biw
    return a


@structref.register
class RigidFrameArgsType(_ArgsType):
    """``RigidFrameArgs``' numba type (its fields: ``RIGID_FIELDS``)."""


class RigidFrameArgs(_Args):
    """Opaque in Python: made by ``rigid_frame_args``, read by the rigid frame's kernel."""


structref.define_boxing(RigidFrameArgsType, RigidFrameArgs)

#: ``RIGID_FIELDS``' last: the contact graph's rows (``physics.contacts.ContactGraph``) for the
#: body pairs, the contacts, last frame's contacts and the look's scratch, then the frame's own
#: buffers: the bodies' angles where the look found them, the stacked rows and their ends'
#: velocities.
GRAPH_FIELDS = [
    ("pairs", _I2), ("sap", _I1), ("swept", _F2), ("fast", _B1), ("sorted_pairs", _I2),
    ("linked", _I1),
    ("ci", _I2), ("cf", _F2), ("old_ci", _I2), ("old_cf", _F2), ("otable", _I2), ("boxes", _F2),
    ("trig", _F2), ("order", _I1), ("lanes", _F2), ("ends", _I2), ("pose", _F2),
    ("angle0", _F1), ("rows", _I1), ("before", _F2), ("sub_ci", _I2), ("sub_cf", _F2),
    ("room_out", _F2), ("room_seg", _F2), ("room_wa", _F2), ("room_wb", _F2),
    ("room_na", _F2), ("room_nb", _F2),
]
#: The joints' room in the fused frame (``joints.joint_flags``: each body row's rotation and
#: stamp, each joint row's flags), made with the kept arguments: a frame then makes none.
ROOM_FIELDS = [("jrot", _F2), ("jstamp", types.int8[::1]), ("jflags", types.int8[::1])]

#: The fields (``kernels.rigid_frame.rigid_frame_held`` reads them; ``rigid_substeps``' docstring
#: says what most are): the substeps, their time, damping, gravity and forces; the joint table; the
#: bodies' state, shapes and filters; the level and the bounds; the particles' columns the joints
#: take; Collide's bounce and the look's tolerances; the range check's limits (``physics.astray``).
RIGID_FIELDS = [
    ("count", _I), ("h", _F), ("damp", _F), ("gx", _F), ("gy", _F), ("force", _F2),
    ("nj", _I), ("a_body", _I1), ("a_part", _I1), ("b_body", _I1), ("b_part", _I1),
    ("la", _F2), ("lb", _F2), ("weld", _B1), ("axis", _F2), ("rest_angle", _F1),
    ("broken", _B1), ("impulse", _F2), ("spin", _F1), ("jforce", _F1), ("lower", _F1),
    ("upper", _F1), ("motor_speed", _F1), ("motor_torque", _F1), ("motor_impulse", _F1),
    ("lower_impulse", _F1), ("upper_impulse", _F1), ("m", _I), ("bpos", _F2),
    ("bprev", _F2), ("bangle", _F1), ("bprev_angle", _F1), ("bw", _F1), ("biw", _F1),
    ("extent", _F1), ("friction", _F1), ("restitution", _F1), ("group", _I1),
    ("layer", _I1), ("mask", _I1), ("piece_off", _I1), ("vert_off", _I1), ("verts", _F2),
    ("radius", _F1), ("segs", _F2), ("seg_friction", _F), ("walls", _F1),
    ("use_bounds", _B), ("slop", _F), ("seg_surf", _F2), ("seg_layer", _I1),
    ("ppos", _F2), ("pprev", _F2), ("pw", _F1), ("bounce", _F), ("spin_px", _F), ("match_px", _F),
    ("headroom", _F), ("max_coord", _F), ("step_limit", _F), ("inner", _F1),
]
RIGID_FIELDS += GRAPH_FIELDS + ROOM_FIELDS
RIGID_ARGS = RigidFrameArgsType(RIGID_FIELDS)


@njit(cache=True)
def rigid_frame_args(count, h, damp, gx, gy, force, nj, a_body, a_part, b_body, b_part, la,
                     lb, weld, axis, rest_angle, broken, impulse, spin, jforce, lower, upper,
                     motor_speed, motor_torque, motor_impulse, lower_impulse, upper_impulse, m,
                     bpos, bprev, bangle, bprev_angle, bw, biw, extent, friction, restitution,
                     group, layer, mask, piece_off, vert_off, verts, radius, segs,
                     seg_friction, walls, use_bounds, slop, seg_surf, seg_layer, ppos, pprev,
                     pw, bounce, spin_px, match_px, headroom, max_coord, step_limit, inner,
                     pairs, sap, swept, fast, sorted_pairs, linked, ci, cf, old_ci, old_cf,
                     otable, boxes, trig, order, lanes, ends, pose, angle0, rows, before, sub_ci,
                     sub_cf, room_out, room_seg, room_wa, room_wb, room_na, room_nb, jrot,
                     jstamp, jflags):
    """A ``RigidFrameArgs`` of these (``RIGID_FIELDS``)."""
    a = structref.new(RIGID_ARGS)
    a.count, a.h, a.damp, a.gx, a.gy, a.force = count, h, damp, gx, gy, force
    a.nj, a.a_body, a.a_part, a.b_body, a.b_part = nj, a_body, a_part, b_body, b_part
    a.la, a.lb, a.weld, a.axis, a.rest_angle = la, lb, weld, axis, rest_angle
    a.broken, a.impulse, a.spin, a.jforce, a.lower = broken, impulse, spin, jforce, lower
    a.upper, a.motor_speed, a.motor_torque = upper, motor_speed, motor_torque
    a.motor_impulse, a.lower_impulse, a.upper_impulse = (motor_impulse, lower_impulse,
                                                         upper_impulse)
    a.m, a.bpos, a.bprev, a.bangle, a.bprev_angle = m, bpos, bprev, bangle, bprev_angle
    a.bw, a.biw, a.extent, a.friction, a.restitution = bw, biw, extent, friction, restitution
    a.group, a.layer, a.mask, a.piece_off, a.vert_off = group, layer, mask, piece_off, vert_off
    a.verts, a.radius, a.segs, a.seg_friction, a.walls = verts, radius, segs, seg_friction, walls
    a.use_bounds, a.slop, a.seg_surf, a.seg_layer = use_bounds, slop, seg_surf, seg_layer
    a.ppos, a.pprev, a.pw, a.bounce = ppos, pprev, pw, bounce
    a.spin_px, a.headroom, a.max_coord, a.step_limit = spin_px, headroom, max_coord, step_limit
    a.match_px = match_px
    a.inner = inner
    a.pairs, a.sap, a.fast, a.sorted_pairs, a.linked = pairs, sap, fast, sorted_pairs, linked
    a.swept = swept
    a.ci, a.cf, a.old_ci, a.old_cf, a.otable, a.boxes = ci, cf, old_ci, old_cf, otable, boxes
    a.trig, a.order, a.lanes, a.ends, a.pose = trig, order, lanes, ends, pose
    a.angle0, a.rows, a.before, a.sub_ci, a.sub_cf = angle0, rows, before, sub_ci, sub_cf
    a.room_out, a.room_seg, a.room_wa, a.room_wb = room_out, room_seg, room_wa, room_wb
    a.room_na, a.room_nb = room_na, room_nb
    a.jrot, a.jstamp, a.jflags = jrot, jstamp, jflags
    return a


@structref.register
class BodiesArgsType(_ArgsType):
    """``BodiesArgs``' numba type (its fields: ``BODIES_FIELDS``)."""


class BodiesArgs(_Args):
    """Opaque in Python: made by ``bodies_args``, read by the disc frame's kernel."""


structref.define_boxing(BodiesArgsType, BodiesArgs)

#: The fields (``kernels.disc_frame`` reads them: what a frame of discs meets besides one
#: another, the springs and the level). The static bodies (``rigid.particles_on_static``'
#: arguments): their rows (``n``, 0: none; every body of such a world is static), poses (and
#: where they were: Integrate rests them), inverse masses (0), frozen flags, extents,
#: filters, surfaces and shapes. The soft bodies (``project.project_rounds``' and
#: ``outlines``' arguments): the particles' masses, the areas (``area_n`` rings, their
#: targets, pressures, stiffnesses, the gradient scratch, the self-colliding flags), the
#: shapes (``shape_n``, their rest poses and scales) and the outlines (``outline_n``: those
#: Collide keeps particles off, none unless it meets outlines; ``corner_n``: all of them, which
#: it keeps off the static bodies' corners whatever it meets). Then
#: the particles' groups, layers and frozen flags, the grid's slop (px,
#: ``World.contact_slop``) and whether any row is frozen (the grid leaves frozen particles
#: out, and frozen bodies are not static).
BODIES_FIELDS = [
    ("n", _I), ("pos", _F2), ("prev", _F2), ("angle", _F1), ("prev_angle", _F1), ("w", _F1),
    ("frozen", _B1), ("extent", _F1), ("group", _I1), ("layer", _I1), ("mask", _I1),
    ("friction", _F1), ("restitution", _F1), ("piece_off", _I1), ("vert_off", _I1),
    ("verts", _F2), ("radius", _F1), ("mass", _F1), ("area_n", _I), ("area_off", _I1),
    ("area_idx", _I1), ("rest_area", _F1), ("pressure", _F1), ("stiffness", _F1),
    ("grad", _F2), ("self_collide", _B1), ("shape_n", _I), ("shape_off", _I1),
    ("shape_idx", _I1), ("shape_rest", _F2), ("scale", _F1), ("outline_n", _I),
    ("corner_n", _I), ("outline_off", _I1), ("outline_idx", _I1), ("pgroup", _I1),
    ("player", _I1),
    ("pfrozen", _B1), ("slop", _F), ("any_frozen", _B),
]
BODIES_ARGS = BodiesArgsType(BODIES_FIELDS)


@njit(cache=True)
def bodies_args(n, pos, prev, angle, prev_angle, w, frozen, extent, group, layer, mask,
                friction, restitution, piece_off, vert_off, verts, radius, mass, area_n,
                area_off, area_idx, rest_area, pressure, stiffness, grad, self_collide, shape_n,
                shape_off, shape_idx, shape_rest, scale, outline_n, corner_n, outline_off,
                outline_idx, pgroup, player, pfrozen, slop, any_frozen):
    """A ``BodiesArgs`` of these (``BODIES_FIELDS``)."""
    a = structref.new(BODIES_ARGS)
    a.n, a.pos, a.prev, a.angle, a.prev_angle = n, pos, prev, angle, prev_angle
    a.w, a.frozen, a.extent = w, frozen, extent
    a.group, a.layer, a.mask, a.friction, a.restitution = group, layer, mask, friction, restitution
    a.piece_off, a.vert_off, a.verts, a.radius = piece_off, vert_off, verts, radius
    a.mass, a.area_n, a.area_off, a.area_idx = mass, area_n, area_off, area_idx
    a.rest_area, a.pressure, a.stiffness, a.grad = rest_area, pressure, stiffness, grad
    a.self_collide, a.shape_n, a.shape_off = self_collide, shape_n, shape_off
    a.shape_idx, a.shape_rest, a.scale = shape_idx, shape_rest, scale
    a.outline_n, a.corner_n = outline_n, corner_n
    a.outline_off, a.outline_idx = outline_off, outline_idx
    a.pgroup, a.player, a.pfrozen, a.slop, a.any_frozen = pgroup, player, pfrozen, slop, any_frozen
    return a
