"""A world of discs, springs and soft bodies solves its whole frame in one kernel call
(``kernels.disc_frame``), to the same bits as the stages one by one.

The solver stages must be exactly ``Integrate``, ``Project`` (if there) and a soft
``Collide`` (of circle pairs or outlines); there are particles, maybe springs (ropes, goo
strands, links of any kind), soft bodies (areas, shapes and their outlines: jelly) and
static bodies (a ground of anchored boxes: what the README's first world stands on), and
nothing else that a substep solves in Python (no bodies that move, joints or tethers),
and no profile is taken (a grabbed particle is pulled toward the pointer in the kernel,
as Integrate pulls it). Soft bodies are Project's and Collide's as the stages solve them
(``project_rounds`` with their areas and shapes, the outlines over Collide's grid).
Static bodies are Collide's as the stages meet them: their edges join the level's
segments (``contacts.level_and_static_edges``), and each substep pushes the particles
out of them (``rigid.particles_on_static``, over the grid Collide would make); they
rest where they are put (Integrate's ``prev`` of a static body), and they have no
contacts of their own (the contact graph is left empty, as Collide's look leaves it).
Then ``whole`` does the first substep's Python — the store made whole, Project's
springs packed and their chains found, the look for the frame's disc contacts begun —
and the kernel does the rest: the first substep's integration, springs, contacts found
and solved with the level's, then the other substeps.

The stages take over where the kernel cannot go on: when the frame's contacts do not
fit their rows (grown, the first substep's Collide runs through the stages), when a
particle outruns its reach (the kernel stops after that substep's integration and
springs, where Collide would find it stale; Collide finishes the substep, finding its
contacts again), in a world of more than
``WHOLE_MAX`` particles (the stages run the first substep), or with a loaded world's
contact memory not yet given; ``fuse`` then takes the substeps after theirs.

Measured (the three envs, wrappers, start and main in turn): a frame's substeps went
from 72–102 to 54–68 µs (BENCHMARKS.md, "The first substep in the fused call").
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..flags import any_set, kinematic
from ..kernels.chains import chain_room, chain_scratch, tether_columns
from ..kernels.disc_frame import disc_frame_held, disc_substeps
from ..kernels.discs import room
from ..kernels.frame_args import bodies_args, disc_frame_args, spring_args
from . import rigid_frame, threads
from .contacts import level_and_static_edges
from .discs import REACH_PX, SHIFT, SLOP_PX, WALL
from .step import GRAB_PULL, StepContext

if TYPE_CHECKING:
    from ..systems.pipeline import Stage
    from ..world import World

#: Off: every substep through the stages (the tests compare both to the bit).
ENABLED = True
#: The most particles whose frame ``whole`` takes, its first substep too.
WHOLE_MAX = 1024


def can_fuse(world: World, stages: Sequence[Stage]) -> bool:
    """Whether this frame's later substeps may go to ``disc_substeps`` (checked before
    the first; ``fuse`` checks what the first substep found)."""
    if not ENABLED or world.profile is not None or not rigid_frame.ours(stages):
        return False
    collide = stages[-1]
    st = world.store
    # Collide without pairs or outlines to look for finds no disc contacts at all
    return (collide.soft and (collide.particles or collide.outlines) and st.particles.n > 0
            and not (st.joints.n or st.tethers.n) and (not st.bodies.n or _static_only(world))
            and not _project_shared(world)
            and (not _with_bodies(world, stages) or _bodies_ready()))


def defer_bodies(helper: Any) -> None:
    """Leave the worlds with bodies (static, soft) to the stages — the same bits — until
    ``helper``, a process compiling every kernel (``warmup.start_background``: a cold
    cache), has ended: a game's cold first start then compiles what its first frames reach
    through the stages, not the fused frame's form with bodies too (jelly's: 102 kernels in
    44 s, not 135 in 67), and that form loads from what the helper wrote once it is done."""
    _compiling[:] = [helper]


def _bodies_ready() -> bool:
    """Whether the fused frame's form with bodies may be loaded now: the helper
    ``defer_bodies`` waits for has written it (ended well). A helper that failed or was
    stopped leaves such worlds to the stages for this process's life (compiling the form
    here would stall a game mid-play for some 20 s)."""
    if not _compiling:
        return True
    if _compiling[0].poll() != 0:  # still compiling (None), or failed
        return False
    _compiling.clear()
    return True


#: The helper ``defer_bodies`` waits for (none: the form with bodies compiles when needed).
_compiling: list[Any] = []


def _project_shared(world: World) -> bool:
    """Whether Project may share its substeps among threads (``World(threads=k)`` and
    enough springs: ``threads.ProjectParts``): the stages keep them (the kernel is one
    thread's)."""
    return threads.count(world) > 1 and world.store.springs.n >= threads.PROJECT_MIN


def _static_only(world: World) -> bool:
    """Whether every body is static (none kinematic, none grabbed): bodies the kernel
    meets as level geometry."""
    st = world.store
    b = st.bodies
    return (not kinematic(b) and world.grabbed not in st.bslot
            and not any_set(b.cols["w"][: b.n]))


def whole(world: World, ctx: StepContext, stages: Sequence[Stage]) -> tuple[int, int]:
    """Before the frame's first substep ``ctx``: the whole frame in one call
    (``kernels.disc_frame.disc_frame_held``: what outlives the frame in one argument,
    ``_held``), the first substep's Python done here first (the store made whole, Project's
    springs packed, the look for contacts begun). Returns what ``fuse`` does, or ``(0, k)``
    when the contacts did not fit their rows (grown now: the first substep's Collide, stage
    ``k``, goes on through the stages) and ``(0, 0)`` when it declined: a world of more than
    ``WHOLE_MAX`` particles (there the first substep's Python is a few µs of a frame of
    milliseconds, and numba sorts the keys slower than numpy), or a loaded world's contact
    memory not yet given."""
    st, discs = world.store, world.discs
    collide = stages[-1]
    if (st.particles.n > WHOLE_MAX or collide._loaded is not None
            or world.contacts.pending is not None):
        return 0, 0
    st.prepare()  # whole, as before each stage
    if len(stages) == 3 and (st.springs.n or st.areas.n or st.shapes.n):
        stages[1]._packed(world)  # the frame's springs and chains (Project's first substep)
    _no_body_contacts(world)
    discs.begin(world)
    held = _held(world, ctx, stages)
    out = discs.out()
    # room for where each particle was, for a sweep against segments (the level's or a
    # static body's edges: the kernel finds those)
    sweeps = len(world.level.segments) or st.bodies.n
    sb = _bodies_args(world, stages)
    k, m, done = disc_frame_held(
        held, _spring_args(world, stages), sb, _statics(world, sb),
        _alpha(world, ctx, stages), st.any_frozen, discs.ents,
        discs.keys, discs.memory, discs.ij, discs.cf, discs.at, discs.reach,
        discs.track, discs.ready_path(ctx.substeps),
        np.empty((st.particles.n, 2)) if sweeps else _NO_ROWS, *_grab(world), *out)
    st.poses += 1  # what the substeps moved, the kept grids no longer hold
    if m < 0:  # Integrate and Project are done; Collide finds them with room to spare
        discs.ij, discs.cf = room(2 * len(discs.ij))
        return 0, len(stages) - 1
    # the found rows' keys in room for every row (their readers read ``n`` of them)
    discs.n, discs.found = m, out[:3]
    return _ended(world, ctx, k, stages, (out[3][:done], out[4][:done]))


def fuse(world: World, ctx: StepContext, stages: Sequence[Stage]) -> tuple[int, int]:
    """After substep ``ctx`` ran through the stages: solve the next ones in one call.
    Returns the substep to go on with and its first stage left to run: ``(count, 0)``
    when the frame is done, ``(k, c)`` when the kernel stopped in substep ``k`` before
    its Collide (stage ``c``: a particle outran its reach), ``(ctx.substep + 1, 0)`` when it
    declined (something the first substep found needs Python)."""
    st, discs = world.store, world.discs
    p = st.particles
    collide = stages[-1]
    if ctx.last or collide._loaded is not None or discs.shape != (p.version, p.n):
        return ctx.substep + 1, 0
    c = p.cols
    h, n = ctx.h, p.n
    gx, gy = world.gravity
    segs = level_and_static_edges(world)
    since = np.empty((n, 2)) if len(segs) else _NO_ROWS
    lvl = world.level
    _, poly_off, poly_xy, poly_idx, _, _, poly_surf, poly_layer = lvl._packed()
    sb = _bodies_args(world, stages)
    k = disc_substeps(ctx.substep + 1, ctx.substeps, False, h, world.damping ** (h * 60.0),
                      gx, gy, world.frame_force, n, c["pos"], c["prev"], c["w"], c["pinned"],
                      c["pin"], discs.n, discs.ij, discs.cf, discs.soft, collide.push_speed,
                      collide.bounce_speed, discs.at, discs.reach, discs.track,
                      discs.path, c["radius"],
                      c["friction"], c["restitution"], c["mask"], collide.bounce_speed * h,
                      collide.push_speed * h, max(0.0, collide.hold_speed) * h,
                      SLOP_PX, segs, since, lvl.seg_surf, lvl.seg_layer, poly_off, poly_xy,
                      poly_idx, poly_surf, poly_layer, world.contacts.walls_for(world.bounds),
                      world.bounds is not None, *_springs(world, stages), *_grab(world),
                      sb, _statics(world, sb), _alpha(world, ctx, stages))
    st.poses += 1  # what the substeps moved, the kept grids no longer hold
    return _ended(world, ctx, k, stages)


def _ended(world: World, ctx: StepContext, k: int, stages: Sequence[Stage],
           remembered: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[int, int]:
    """Where the kernel left the frame (it stopped in substep ``k`` before its Collide,
    or ``k`` is the count: done, the contacts remembered for the next frame, from
    ``remembered`` if the kernel wrote them: ``Discs.keep``), as ``_substeps`` goes on
    from it."""
    if k < ctx.substeps:
        world.substep_index = k
        return k, len(stages) - 1
    world.discs.keep(world, remembered)
    world.substep_index = ctx.substeps - 1
    return ctx.substeps, 0


def _no_body_contacts(world: World) -> None:
    """What the stages' look at the bodies leaves when none can move: no contact rows of
    this frame or the last, the store's removals seen (``contacts.find``). (Integrate's
    rest of the static bodies is the kernel's, ``_rest``.)"""
    found, st = world.contacts, world.store
    found.empty()
    if st.bodies.n:
        found.removals = found._store_removals = st.removals


def _bodies_args(world: World, stages: Sequence[Stage]) -> Any:
    """The bodies the discs meet and what meeting them reads — the static bodies
    (``rigid.particles_on_static``), the areas and shapes (Project's) and the outlines (if
    Collide meets them) — in one ``kernels.frame_args.BodiesArgs``: kept on ``world.discs``
    while they are the same tables' rows and the very same arrays. None in a world of
    discs and springs alone: the kernel's form without bodies, which a game of discs
    compiles for its first frame (goo's, from a cold cache: 107 kernels in 45 s, where
    the form with bodies made it 147 in 61 s)."""
    if not _with_bodies(world, stages):
        return None
    st = world.store
    b, areas, shapes, p = st.bodies, st.areas, st.shapes, st.particles
    outlines = len(st.outline_off) - 1 if stages[-1].outlines else 0
    # the tables' columns by the tables and their versions (a column is replaced only as
    # rows come), the store's packed arrays by identity (kept alive below, so their ids
    # are no other's)
    packed = (st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius,
              st.area_off, st.area_idx, st.scratch, st.shape_off, st.shape_idx, st.shape_rest,
              st.outline_off, st.outline_idx)
    key = (b, b.version, b.n, p, p.version, areas, areas.version, areas.n, shapes,
           shapes.version, shapes.n, outlines, *map(id, packed), float(world.contact_slop),
           bool(st.any_frozen))
    kept = world.discs.bodies_held
    if kept is None or kept[0] != key:
        c, pc, ac = b.cols, p.cols, areas.cols
        args = bodies_args(b.n, c["pos"], c["prev"], c["angle"], c["prev_angle"], c["w"],
                           c["frozen"], c["extent"], c["group"], c["layer"], c["mask"],
                           c["friction"], c["restitution"], *packed[:4], pc["mass"], areas.n,
                           *packed[4:6], ac["rest_area"], ac["pressure"], ac["stiffness"],
                           packed[6], ac["self_collide"], shapes.n, *packed[7:10],
                           shapes.cols["scale"], outlines, len(st.outline_off) - 1,
                           *packed[10:], pc["group"], pc["layer"], pc["frozen"], *key[-2:])
        kept = world.discs.bodies_held = (key, packed, args)
    return kept[2]


def _statics(world: World, sb: Any) -> Any:
    """``sb`` (``_bodies_args``') where the world has static bodies, else None: the frame's
    kernel then takes its form without them (particles out of static bodies, their edges
    with the level's: a sixth of a first frame of jelly's, whose soft bodies meet none)."""
    return sb if sb is not None and world.store.bodies.n else None


def _with_bodies(world: World, stages: Sequence[Stage]) -> bool:
    """Whether the frame meets bodies: static ones, areas, shapes or outlines (if Collide
    meets them)."""
    st = world.store
    return bool(st.bodies.n or st.areas.n or st.shapes.n
                or (stages[-1].outlines and len(st.outline_off) > 1))


def _alpha(world: World, ctx: StepContext, stages: Sequence[Stage]) -> np.ndarray:
    """The shapes' stiffness an application (Project's: the same arithmetic, the same bits),
    for Project's rounds; none without shapes or Project."""
    shapes = world.store.shapes
    rounds = _rounds(world, stages)
    if not (shapes.n and rounds):
        return _NO_ALPHA
    return 1.0 - (1.0 - shapes.alpha) ** (ctx.h * 60.0 / rounds)


def _held(world: World, ctx: StepContext, stages: Sequence[Stage]) -> Any:
    """``disc_frame_held``'s first argument: what holds while the particles' rows, the
    World's settings, the substep, Collide's settings, the level and the bounds do, in
    one ``kernels.frame_args.DiscFrameArgs`` (made again when one of those changed: typing
    its ~40 arrays and numbers once, not every frame)."""
    st, discs, lvl = world.store, world.discs, world.level
    p, collide = st.particles, stages[-1]
    packed, force = lvl._packed(), world.frame_force  # (the forces' buffer grown first)
    # the forces' buffer and the level's arrays by identity (the kept ones stay alive in
    # ``discs.held``, so no other takes their id): arrays in a key compare element-wise
    key = (p, p.version, id(force.base), id(packed), world.bounds, ctx, world._damping,
           world._gravity, collide.particles, collide.push_speed, collide.bounce_speed,
           collide.hold_speed)
    if discs.held_key != key:
        c, h = p.cols, ctx.h
        segs, poly_off, poly_xy, poly_idx, seg_surf, seg_layer, poly_surf, poly_layer = packed
        args = disc_frame_args(
            ctx.substeps, h, world.damping ** (h * 60.0), *world.gravity, force, p.n, c["pos"],
            c["prev"], c["w"], c["pinned"], c["pin"], c["group"], c["layer"], c["frozen"],
            REACH_PX, WALL, SHIFT, *world.down, bool(collide.particles), discs.stiffness(h),
            float(collide.push_speed), float(collide.bounce_speed), c["radius"],
            c["friction"], c["restitution"], c["mask"], collide.bounce_speed * h,
            collide.push_speed * h, max(0.0, collide.hold_speed) * h, SLOP_PX, segs,
            seg_surf, seg_layer, poly_off, poly_xy, poly_idx, poly_surf, poly_layer,
            world.contacts.walls_for(world.bounds), world.bounds is not None)
        discs.held, discs.held_key = (args, force, packed), key
    return discs.held[0]


def _springs(world: World, stages: Sequence[Stage]) -> tuple[Any, ...]:
    """``disc_substeps``' Project arguments: its rounds (0: no Project stage, or no
    springs for it), the springs as the first substep packed them (``Project._packed``)
    and their chains; then the (empty) tether and body columns the chains' kernel takes."""
    return _springs_of(_rounds(world, stages), world)


def _rounds(world: World, stages: Sequence[Stage]) -> int:
    """Project's iterations a substep (0: no Project stage, or no springs, areas or shapes
    for it)."""
    st = world.store
    if len(stages) == 3 and (st.springs.n or st.areas.n or st.shapes.n):
        return int(stages[1].iterations or world.iterations)
    return 0


def _springs_of(rounds: int, world: World) -> tuple[Any, ...]:
    """``_springs`` for Project's ``rounds`` (0: the chains empty, nothing read)."""
    st = world.store
    ends, vals = st.spring_pack
    count, off, rows, cends, scratch, _, _ = st.spring_chains if rounds else _NO_CHAINS
    bc = st.bodies.cols
    return (rounds, ends, vals, st.spring_order, st.springs.cols["lam"], count, off, rows,
            cends, scratch, *tether_columns(st.tethers.cols), bc["pos"], bc["angle"],
            bc["w"], bc["iw"])


def _spring_args(world: World, stages: Sequence[Stage]) -> Any:
    """``_springs`` in one ``kernels.frame_args.SpringArgs`` (``disc_frame_held``'s second
    argument): kept on ``world.discs`` while they are the very same arrays and counts (made
    again when one is another: typing ~20 arrays once, not every frame); one of empty
    arrays, made once, for a frame without Project's rounds (Suika's: nothing is read)."""
    rounds = _rounds(world, stages)
    if not rounds:
        if not _NO_SPRING_ARGS:
            _NO_SPRING_ARGS.append(spring_args(*_NO_SPRINGS))
        return _NO_SPRING_ARGS[0]
    springs = _springs_of(rounds, world)
    counts, arrays = (springs[0], springs[5]), springs[1:5] + springs[6:]
    kept = world.discs.spring_held
    if kept is None or kept[0] != counts or not all(map(operator.is_, kept[1], arrays)):
        kept = world.discs.spring_held = (counts, arrays, spring_args(*springs))
    return kept[2]


def _grab(world: World) -> tuple[Any, ...]:
    """Integrate's pointer arguments: the grabbed particle's row (or −1), where the pointer
    was and is (px), and the pull (``step.GRAB_PULL``)."""
    (fx, fy), (tx, ty) = world.grab_from, world.grab_target
    # floats whatever a file or a caller gave (an int would be another signature to compile)
    return (world.store.pslot.get(world.grabbed, -1), float(fx), float(fy), float(tx),
            float(ty), GRAB_PULL)


#: ``_springs`` of a frame without Project's springs: empty arrays of their types (never
#: read: no rounds), and their ``SpringArgs`` (made at its first use).
_NO_SPRINGS = (0, np.zeros((0, 2), dtype=np.int64), np.zeros((0, 3)), np.zeros(0, dtype=np.int64),
               np.zeros(0), 0, *chain_room(0), chain_scratch(0),
               *(np.zeros(0, dtype=np.int64) for _ in range(4)), np.zeros((0, 2)),
               np.zeros((0, 2)), np.zeros(0), np.zeros(0), np.zeros(0), np.zeros((0, 2)),
               np.zeros(0), np.zeros(0), np.zeros(0))
_NO_SPRING_ARGS: list[Any] = []
#: No shapes' stiffness (``_alpha`` without shapes or Project).
_NO_ALPHA = np.zeros(0)
#: No rows (``since`` when there are no segments to sweep against).
_NO_ROWS = np.zeros((0, 2))
#: No chains (``st.spring_chains``' form), for a frame without Project's springs.
_NO_CHAINS = (0, *chain_room(0), chain_scratch(0), None, None)
