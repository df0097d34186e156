"""A world of rigid bodies only solves its whole frame in one kernel call
(``kernels.rigid_frame``), to the same bits as the stages one by one.

The solver stages must be exactly ``Integrate``, ``Project`` (if there) and ``Collide``;
there are no particles (so no springs, tethers, outlines or contacts found again each
substep), no kinematic or grabbed body, and no profile is taken. Then ``whole`` readies
what Python did of the first substep (the store made whole, the contact graph's rows and
memory, the joints' links) and the kernel does the rest: the first substep's
integration and joints, the frame's pairs and contacts found, the stacked rows, their
first substep, then the other substeps.

The stages take the first substep's Collide from its start where the look outgrows its
rows, or finds a body fast enough to be swept this frame or turning fast enough to have
its contacts found each substep; after their first substep ``fuse`` hands the substeps
left to ``rigid_substeps`` when nothing they found needs Python between them. A loaded
world's contact memory is given by the stages first.

Measured (a box resting on the ground, 6 substeps): the frame's Python glue was most of
its cost (BENCHMARKS.md, "Small scenes", "The first substep in the fused call").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..flags import kinematic
from ..kernels.frame_args import rigid_frame_args
from ..kernels.rigid_find import most_vertices
from ..kernels.rigid_frame import rigid_frame_held, rigid_substeps
from .astray import substep_limit
from .contacts import (
    HEADROOM,
    LEVEL_FRICTION,
    MATCH_PX,
    SPIN_PX,
    STILL_PX,
    joint_links,
    look_room,
    ready_frame,
    static_inverse_masses,
)
from .direct import Direct
from .step import StepContext

if TYPE_CHECKING:
    from ..systems.pipeline import Stage
    from ..world import World

#: Off: every substep through the stages (the tests compare both to the bit).
ENABLED = True
#: The frame's kernel past numba's dispatch (``_run``'s arguments: the held arguments, an
#: int, two floats, a float64 column, an int: the same types at every call)
_FRAME = Direct(rigid_frame_held)


def can_fuse(world: World, stages: Sequence[Stage]) -> bool:
    """Whether this frame's later substeps may go to ``rigid_substeps`` (checked before
    the first; ``fuse`` checks what the first substep found)."""
    if not ENABLED or world.profile is not None or not ours(stages):
        return False
    st = world.store
    b = st.bodies
    return (b.n > 0 and st.particles.n == 0 and st.tethers.n == 0 and
            world.grabbed not in st.bslot and not kinematic(b))


def ours(stages: Sequence[Stage]) -> bool:
    """Whether the solver stages are exactly ours, Integrate, Project (or not) and Collide
    (a subclass may do anything between substeps)."""
    if stages is _LAST[0]:  # a world's frames ask it of the same list of its pipeline
        return _LAST[1]
    kinds = tuple(type(s) for s in stages)
    known = _OURS.get(kinds)
    if known is None:  # asked once per kind of pipeline
        known = _OURS[kinds] = tuple(f"{k.__module__}.{k.__qualname__}"
                                     for k in kinds) in _SOLVER_STAGES
    if isinstance(stages, tuple):  # (a list could change; a pipeline's tuple cannot)
        _LAST[:] = [stages, known]
    return known


#: ``ours`` by the stages' classes.
_OURS: dict[tuple[type, ...], bool] = {}
#: ``ours``' last tuple of stages and its answer (kept alive here: no other takes its id).
_LAST: list[Any] = [None, False]


#: The solver stages (by module and name: the stages import this module) that fuse.
_SOLVER_STAGES = tuple(tuple(f"ecsgoo.systems.{m}.{c}" for m, c in kinds) for kinds in (
    (("integrate", "Integrate"), ("project", "Project"), ("collide", "Collide")),
    (("integrate", "Integrate"), ("collide", "Collide"))))


def whole(world: World, ctx: StepContext, stages: Sequence[Stage],
          steady: bool = False) -> tuple[int, int]:
    """Before the frame's first substep ``ctx``: the whole frame in one call
    (``kernels.rigid_frame.rigid_frame_held``: what outlives the frame in one argument,
    ``_held``), what Python did of the first substep done here
    first (the store made whole, the contact graph's rows and memory readied as
    ``contacts.find`` readies them, the joints' links). Returns ``(count, 0)`` when the
    frame is done; ``(0, k)`` when the kernel left the first substep's Collide (stage
    ``k``) to the stages, the integration and joints done (the look outgrew its rows, or
    found a body that spins or may be fast: those need Python each substep; ``fuse``
    then takes the substeps after theirs when it can); ``(0, 0)`` when it declined: a
    loaded world's contact memory not yet given. ``steady``: the world is as it was when
    the last frame was done here (``physics.steady``): what the readying would find is
    what it found then, but for the rows last frame's contacts need and the joints' links."""
    found, st = world.contacts, world.store
    collide = stages[-1]
    steady = steady and _steady_room(st, found)
    if steady:
        held, static = world._rigid_held[1], st.bodies.cols["w"]  # (nothing frozen, no kinematic)
    else:
        if found.pending is not None or collide._loaded is not None:
            return 0, 0
        st.prepare()  # whole, as before each stage
        ready_frame(world, found)
        look_room(world, found, ctx.substeps > 1)
        held, static = _held(world, ctx, collide), static_inverse_masses(st)
    # a pair keeps last frame's contacts only at a frame's first look, with no row moved since
    still = STILL_PX if ctx.substeps > 1 and found.removals == st.removals else 0.0
    done = _run(world, ctx, held, still, static, steady)
    return (ctx.substeps, 0) if done else (0, len(stages) - 1)


def _steady_room(st: Any, found: Any) -> bool:
    """In a steady frame: whether the room ``look_room`` keeps still holds last frame's
    contacts, and the joints' links are as the kept arguments hold them (a joint's ends,
    broken flag and ``collide`` are written in place)."""
    if len(found.otable) < found.otable_rows():
        return False
    if st.joints.n:
        layout = found.layout
        joint_links(st, found)
        return found.layout == layout
    return True


def _run(world: World, ctx: StepContext, held: Any, still: float, static: Any,
         steady: bool) -> bool:
    """The frame's call and what it hands on; False: the kernel left the first substep's
    Collide to the stages (``whole``). ``steady``: ``found.angle0`` is already the view
    it would be made again (the same rows of the same array)."""
    found, st = world.contacts, world.store
    b = st.bodies
    match = MATCH_PX if ctx.substeps > 1 else 0.0
    ty, entry = _FRAME.last  # (``Direct.__call__`` inline: a frame's ~0.4 µs of Python)
    if held._numba_type_ is ty:
        out = entry(held, found.old_n, still, match, static, found.sub_n)
    else:
        out = _FRAME(held, found.old_n, still, match, static, found.sub_n)
    k, nfast, nb, n, kept, astray, sub_n = out
    st.poses += 1  # what the kernel moved, the kept grids no longer hold
    if not steady:  # where the look found them (or the stages will)
        found.angle0 = found.frame_angle0[:b.n]
    if k < 0:
        if nb > len(found.ci):  # the rows a fast turner's looks may take: the next frame's
            found.grow(nb)
        return False
    # the frame's rows, then the last substep's of the fast turners (kept as its own)
    found.nfast, found.bodies, found.n, found.sub_n = nfast, nb, n, sub_n
    if kept:  # the kernel copied them (``ContactGraph.keep``'s copy)
        found.old_n, found.removals = nb, found._store_removals
    else:
        found.keep()
    # every body within the representable range as the frame left them: the frame's end
    # looks again only if something moved since (``physics.astray.check``)
    world._bodies_within = (world.frame, st.poses, b.version) if astray < 0 else None
    world._fused_frame = world.frame
    if not steady:  # (a steady frame's last one left these so)
        # the frame is done: what only its later substeps read (the pairs split by turning,
        # the stacked rows, whether to sweep) is not handed on; the stages' next look makes
        # its own (``contacts.find`` at a first substep, ``collide``'s keys of the frame)
        found.stacked_key = found.sweep_key = None
        world.substep_index = ctx.substeps - 1
    return True


def _held(world: World, ctx: StepContext, collide: Stage) -> Any:
    """``rigid_frame_held``'s first argument: what holds while the bodies' rows and pieces,
    the joint table, the particles' rows, the World's settings, the substep, Collide's
    bounce, the level, the bounds and the contact graph's arrays do (``ContactGraph.layout``
    counts their replacements), in one ``kernels.frame_args.RigidFrameArgs``, kept on the
    world (made again when one of those changed: typing its ~70 arrays once, not every
    frame; one object, as numba takes ~0.5 µs to type each from Python)."""
    st, found = world.store, world.contacts
    b, p, j, lvl = st.bodies, st.particles, st.joints, world.level
    packed, buffer = lvl._packed(), world._body_force
    # a table's columns are other arrays only when its rows came or went (its version);
    # arrays by identity (kept below, so no other takes their id): the forces' buffer
    # (grown only with the rows), the bodies' pieces (made anew at each change), the
    # level's, the walls
    key = (b, b.version, p, p.version, j, j.version, id(buffer), id(st.body_piece_off),
           id(packed), id(found.walls), world.bounds, ctx, world._damping, world._gravity,
           world.contact_slop, collide.bounce_speed, found, found.layout)
    kept = world.__dict__.get("_rigid_held")
    if kept is None or kept[0] != key:
        joints, force = joint_arrays(st), world.body_force
        c, h = b.cols, ctx.h
        args = rigid_frame_args(
            ctx.substeps, h, world.damping ** (h * 60.0), *world.gravity, force, *joints,
            b.n, c["pos"], c["prev"], c["angle"], c["prev_angle"], c["w"], c["iw"],
            c["extent"], c["friction"], c["restitution"], c["group"], c["layer"], c["mask"],
            st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius,
            lvl.segments, LEVEL_FRICTION, found.walls, world.bounds is not None,
            world.contact_slop, lvl.seg_surf, lvl.seg_layer, *_particle_columns(st),
            collide.bounce_speed, SPIN_PX, MATCH_PX, HEADROOM, limits.MAX_COORD,
            substep_limit(world),
            st.body_inner, found.pairs, found.sap, found.swept, found.fast, found.sorted_pairs,
            found.linked, found.ci, found.cf, found.old_ci, found.old_cf, found.otable,
            found.boxes, found.trig, found.order, found.lanes, found.ends, found.pose,
            found.frame_angle0, found.frame_rows, found.frame_before, found.sub_ci,
            found.sub_cf, *_narrow_room(st), *_joint_room(st))
        kept = world._rigid_held = (key, args, (buffer, st.body_piece_off, packed,
                                                found.walls))
    return kept[1]


def _joint_room(st: Any) -> tuple[np.ndarray, ...]:
    """The joints' room for the fused frame (``kernels.frame_args.ROOM_FIELDS``): a rotation
    and a stamp a body row, flags a joint row (made with the kept arguments, when rows come
    or go)."""
    rows, joints = len(st.bodies.cols["angle"]), len(st.joints.cols["a_body"])
    return np.empty((rows, 2)), np.zeros(rows, np.int8), np.zeros(joints, np.int8)


def _narrow_room(st: Any) -> tuple[np.ndarray, ...]:
    """The narrow phase's room for the fused frame (``kernels.rigid_find.contact_rows``):
    a manifold's rows, a segment, and each shape's vertices and edges in world coordinates
    for the most vertices a piece has (made with the kept arguments, when pieces change)."""
    k = most_vertices(st.piece_vert_off)
    return (np.zeros((2, 7)), np.zeros((2, 2)), np.zeros((k, 2)), np.zeros((k, 2)),
            np.zeros((k, 3)), np.zeros((k, 3)))


def fuse(world: World, ctx: StepContext, stages: Sequence[Stage]) -> bool:
    """After the frame's first substep (``ctx``): solve the others in one call if nothing
    they hold needs Python between them; False: the stages go on one by one."""
    found, st = world.contacts, world.store
    if (found.nfast or found.n != found.bodies or len(found.before) != len(found.stacked)
            or found.stacked_key is None or st.particles.n or ctx.substeps < 2):
        return False
    b = st.bodies
    c = b.cols
    collide = stages[-1]
    gx, gy = world.gravity
    rigid_substeps(1, ctx.substeps, False, ctx.h, world.damping ** (ctx.h * 60.0), gx, gy,
                   world.body_force, *joint_arrays(st), found.n, found.ci, found.cf,
                   found.bodies, found.order, found.lanes, found.ends, found.angle0,
                   found.pose, found.stacked,
                   found.before, collide.bounce_speed, b.n, c["pos"], c["prev"], c["angle"],
                   c["prev_angle"], c["w"], c["iw"], *_particle_columns(st),
                   *_sweep_arguments(world, found))
    found.keep()
    found.keep_substep()
    st.poses += 1  # what the substeps moved, the kept grids no longer hold
    world.substep_index = ctx.substeps - 1
    return True


def _sweep_arguments(world: World, found: Any) -> tuple[Any, ...]:
    """``rigid_substeps``' sweep arguments (``systems.collide._continuous``'s): whether to
    sweep this frame (``found.sweep``), room for where the bodies were, the static
    inverse masses, the bodies' shapes and filters, the level, the bounds and the links."""
    st = world.store
    c, lvl = st.bodies.cols, world.level
    return (found.sweep, np.empty_like(c["prev"]), np.empty_like(c["prev_angle"]),
            static_inverse_masses(st), c["extent"], c["restitution"], c["group"], c["layer"],
            c["mask"], st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius,
            lvl.segments, found.walls, world.bounds is not None, found.linked,
            world.contact_slop, lvl.seg_layer, lvl.seg_surf, st.body_inner)


def joint_arrays(st: Any) -> tuple[Any, ...]:
    """The joint table's row count and arrays in the order ``kernels.joints.joint_substep``
    takes them; the arrays' tuple is made again only when the table is another or grew
    (its columns all new arrays), not every frame (21 look-ups, ~1.5 µs)."""
    jc = st.joints.cols
    kept = _JOINTS[1]
    if _JOINTS[0] is not jc or not kept or kept[0] is not jc["a_body"]:
        _JOINTS[0], _JOINTS[1] = jc, tuple(jc[k] for k in JOINT_COLUMNS)
    return (st.joints.n, *_JOINTS[1])


#: The joint columns ``joint_substep`` takes after the row count, in its order.
JOINT_COLUMNS = ("a_body", "a_part", "b_body", "b_part", "la", "lb", "weld", "axis",
                 "rest_angle", "broken", "impulse", "spin", "force", "lower", "upper",
                 "motor_speed", "motor_torque", "motor_impulse", "lower_impulse",
                 "upper_impulse")
#: The tuple of them, kept with the columns dict it is of.
_JOINTS: list[Any] = [None, ()]


def _particle_columns(st: Any) -> tuple[Any, ...]:
    """The particle columns the joint and contact kernels take (no rows: never read)."""
    pc = st.particles.cols
    return pc["pos"], pc["prev"], pc["w"]
