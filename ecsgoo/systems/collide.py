"""Collide: every contact — circle pairs, soft-body outlines, rigid bodies, static level
geometry and the bounds — for particles and bodies alike.

Reads: particle pos, prev, w, radius, group, layer, mask, friction, restitution; body
rows and shapes; the world's bounds and level; the outline CSR arrays; the broad
phase's grid (``World.broadphase``); the contact graph's memory (``World.contacts``).
Writes: particle pos, prev; body pos, prev, angle, prev_angle (positions separated,
velocities given impulses); the contact graph (rows, impulses, last frame's memory).
Events: none (contact events read the graph at the frame's end).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..flags import any_set
from ..kernels.contacts import collide_level
from ..kernels.continuous import continuous, may_be_fast
from ..kernels.discs import held_up
from ..kernels.outlines import collide_outlines, collide_self, off_static_corners
from ..kernels.pairs import collide_pairs
from ..kernels.rigid import particles_on_static
from ..kernels.rigid_solver import contact_substep
from ..kernels.stacks import before_solve, shock, stacked
from ..physics.contacts import HEADROOM, ContactGraph, find, level_and_static_edges
from ..physics.contacts import static_inverse_masses as _static
from ..physics.discs import SLOP_PX, Discs
from .pipeline import Stage, register_stage

if TYPE_CHECKING:
    from ..physics import StepContext
    from ..world import World


@register_stage
class Collide(Stage):
    """Contacts, in the order pairs → outlines → level → bounds (bounds have the last word).

    ``particles``: circle–circle contacts; ``outlines``: particles vs soft-body
    outlines; ``bounce_speed`` (px/s): slower impacts do not bounce, so resting
    contacts stay at rest; ``push_speed`` (px/s): the most velocity resolving one
    overlap may create — deeper overlaps are resolved without flinging;
    ``hold_speed`` (px/s): friction takes a contact's slip back in position up to
    this speed, the rest only from the velocity (0: velocity only, so sticking
    contacts creep; ``inf``: static friction holds exactly, see ``contacts``);
    ``along_gravity``: sweep the circle pairs in the direction gravity pulls, top
    of a pile first (see ``collide_pairs``): a bottom-up sweep ratchets jammed
    piles along, so they creep for ever; top-down they come to rest. Slopes and
    pyramids of circles hold exactly with ``hold_speed=inf`` too.
    ``soft`` (the default): circle pairs, the bounds and the level's segments are soft
    contacts with memory (``physics.discs``, ``World.discs``), solved before the
    positional passes, which then take out only overlaps deeper than ``SLOP_PX``;
    ``along_gravity`` is for ``soft=False`` (the positional pairs) only.

    Why soft contacts (measured, ``tests/unit/physics/test_mass_ratios.py`` and
    BENCHMARKS.md): the positional pass, unwarmed, left a 1:100 disc on a column of five
    moving at 463 px/s after 10 s and let a 1:1000 one sink to the ground, and a jammed
    pile took 25–30 s to rest; warm-started soft contacts rest them all (the 2,000-disc
    pile's 95th-percentile speed is 0.001 px/s at 10 s) for ~1.3× its CPU time.
    """

    name = "collide"
    per_substep = True
    #: A world file leaves out an empty ``state`` (no bodies' contacts to carry over).
    empty_state_saved = False

    def __init__(self, particles: bool = True, outlines: bool = True,
                 bounce_speed: float = 100.0, push_speed: float = 300.0,
                 hold_speed: float = 0.0, along_gravity: bool = True,
                 soft: bool = True) -> None:
        # inf is allowed (hold_speed=inf: exact static friction)
        self.bounce_speed = limits.check("Collide", "bounce_speed", bounce_speed)
        self.push_speed = limits.check("Collide", "push_speed", push_speed)
        self.hold_speed = limits.check("Collide", "hold_speed", hold_speed)
        self.particles, self.outlines = bool(particles), bool(outlines)
        self.along_gravity = bool(along_gravity)
        self.soft = bool(soft)
        self._loaded: dict[str, Any] | None = None  # a file's contact memory, not yet given

    def settings(self) -> dict[str, Any]:
        return {"particles": self.particles, "outlines": self.outlines,
                "bounce_speed": self.bounce_speed, "push_speed": self.push_speed,
                "hold_speed": self.hold_speed, "along_gravity": self.along_gravity,
                "soft": self.soft}

    def clone(self) -> Collide:
        """A copy (the world's contacts are copied with the world: ``World.clone``)."""
        twin = Collide(**self.settings())
        twin._loaded = None if self._loaded is None else dict(self._loaded)
        return twin

    def save_state(self, world: World) -> dict[str, Any]:
        """The rigid bodies' contacts of the last frame (``World.contacts``: warm starting,
        so a loaded world continues bit for bit). Saved with this stage, where files
        have always kept them."""
        if self._loaded is not None:  # loaded and not stepped since: as it was loaded
            return dict(self._loaded)
        state = world.contacts.save(world) if world.store.bodies.n else {}
        return {**state, **world.discs.save()}  # and the particles' (``World.discs``)

    def load_state(self, state: dict[str, Any]) -> None:
        """Take what ``save_state`` wrote (checked now); the world gets it when this stage
        joins it (``adopt``)."""
        bodies, discs = _split(state)
        ContactGraph.check(bodies)
        Discs.check(discs)
        self._loaded = state

    def adopt(self, world: World) -> None:
        """Give the world the contacts this stage loaded (``World.contacts``: sleeping's
        islands read them before the first substep; ``World.discs``)."""
        if self._loaded is not None:
            self._give(world)

    def _give(self, world: World) -> None:
        bodies, discs = _split(self._loaded)
        if bodies:
            world.contacts.load(bodies)
        world.discs.load(discs)
        self._loaded = None

    def solve(self, world: World, ctx: StepContext) -> None:
        h = ctx.h
        n = world.store.particles.n
        # the level's segments and, for particles to meet, the static bodies' edges; where
        # each particle was before this substep's contacts: nothing may cross a segment
        # of the level on its way from there (see collide_segments)
        segs = level_and_static_edges(world) if n else None
        since = world.store.particles.cols["prev"][:n].copy() if n and len(segs) else None
        grid = self._among_particles(world, h, ctx) if n else None
        # rigid bodies: contacts with each other, the level, the bounds and the particles
        if self._loaded is not None:
            self._give(world)
        _bodies(world, ctx, grid, self.bounce_speed)
        if n:
            self._with_the_level(world, h, grid, segs, since)

    def _among_particles(self, world: World, h: float, ctx: Any) -> Any:
        """Circle pairs, outlines and areas' own outlines; returns the particles' grid
        (None if nothing needs it)."""
        st = world.store
        p = st.particles
        c = p.cols
        vmin, push = self.bounce_speed * h, self.push_speed * h
        hold = max(0.0, self.hold_speed) * h
        if not (self.particles or self.outlines or st.bodies.n):
            return None
        if self.soft:
            st.prepare()  # whole, thawed if a row came or went (as the grid would make it)
            _discs(world, ctx, self.particles, self.push_speed, self.bounce_speed)
        outlines = self.outlines and len(st.outline_off) > 1
        grid = None
        if outlines or st.bodies.n or not self.soft:  # what reads the substep's grid
            grid = world.broadphase.solver_particles(world)  # frozen rows left out
            x0, y0, cell, nx, ny, start, items = grid
        if not self.soft and self.particles:
            # the grid's rows run up the y axis: sweep them downward when gravity pulls down
            downward = self.along_gravity and world.gravity[1] < 0
            collide_pairs(c["pos"], c["prev"], c["w"], c["radius"], c["group"],
                          c["layer"], c["mask"],
                          c["friction"], c["restitution"], nx, ny, start, items, vmin, push,
                          hold, downward, *_turned(world.down, downward))
        if outlines:
            collide_outlines(len(st.outline_off) - 1, st.outline_off, st.outline_idx,
                             c["pos"], c["prev"], c["w"], c["radius"], c["group"],
                             c["layer"], c["mask"], c["friction"], c["restitution"], x0, y0,
                             cell, nx, ny, start, items, vmin, push, hold)
        if st.areas.n and any_set(st.areas.self_collide):  # areas' own outlines (self_collide)
            collide_self(st.areas.n, st.area_off, st.area_idx, st.areas.self_collide,
                         c["pos"], c["prev"], c["w"], c["radius"], c["friction"],
                         c["restitution"], vmin, push, hold)
        return grid

    def _with_the_level(self, world: World, h: float, grid: Any, segs: Any,
                        since: Any) -> None:
        """Particles out of static bodies, the level's segments (``segs``, swept from
        ``since``) and polygons, the bounds."""
        c = world.store.particles.cols
        n, vmin, push = world.store.particles.n, self.bounce_speed * h, self.push_speed * h
        hold = max(0.0, self.hold_speed) * h
        args = (c["pos"], c["prev"], c["w"], c["radius"], c["friction"], c["restitution"])
        lvl = world.level
        _off_static_bodies(world, grid, vmin, push, hold)
        _outlines_off_static(world, vmin, push, hold)  # a static corner in a jelly ball
        # soft: these put right what the soft contacts (``physics.discs``) left
        slop = SLOP_PX if self.soft else 0.0
        _, poly_off, poly_xy, poly_idx, _, _, poly_surf, poly_layer = lvl._packed()
        collide_level(n, *args, vmin, push, hold, self.soft, slop, c["mask"], segs,
                      _NO_ROWS if since is None else since, lvl.seg_surf, lvl.seg_layer,
                      poly_off, poly_xy, poly_idx, poly_surf, poly_layer,
                      world.contacts.walls_for(world.bounds), world.bounds is not None)


#: No rows (``since`` when there are no segments to sweep against).
_NO_ROWS = np.zeros((0, 2))


def _split(state: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A saved state's bodies' contacts (``ContactGraph``) and discs' (``Discs``)."""
    discs = {k: v for k, v in state.items() if k.startswith("disc_")}
    return {k: v for k, v in state.items() if not k.startswith("disc_")}, discs


def _discs(world: World, ctx: StepContext, pairs: bool, push: float, bounce: float) -> None:
    """The particles' circle pairs (if ``pairs``) and the bounds, one substep of the soft
    step (``physics.discs``): found at the frame's first substep, remembered after its
    last."""
    discs = world.discs
    if ctx.first:
        discs.find(world, ctx, pairs, bounce)
    elif discs.stale(world, ctx.substep):  # found again, carrying this frame's impulses so far
        discs.keep(world)
        discs.find(world, ctx, pairs, bounce)
    discs.substep(world, ctx, push, bounce)
    if ctx.last:
        discs.keep(world)


def _turned(down: tuple[float, float], turned: bool) -> tuple[float, float]:
    """Gravity's direction as a kernel sees it on negated positions (``turned``)."""
    return (-down[0], -down[1]) if turned else down


def _bodies(world: World, ctx: StepContext, grid: Any, bounce: float) -> None:
    """One substep of the rigid bodies' contacts: found (``physics.contacts.find``), then
    warm start, solve, relax, restitution after the frame's last substep, and the
    position pass (``kernels.rigid_solver.contact_substep``).

    ``grid``: the particles' grid, or None; ``bounce`` (px/s): slower impacts do not
    bounce. Contacts are hard: overlaps are taken out in position
    (``rigid_solver.separate``), never pushed out with speed.
    """
    if not find(world, ctx, grid):
        return
    st, found = world.store, world.contacts
    c, pc = st.bodies.cols, st.particles.cols
    sweep = _sweeps(world, found, ctx)
    start = (c["prev"].copy(), c["prev_angle"].copy()) if sweep else None  # the sweep's
    _stacked(world, found, ctx.h)
    contact_substep(found.n, found.ci, found.cf, c["pos"], c["prev"], c["angle"],
                    c["prev_angle"], c["w"], c["iw"], pc["pos"], pc["prev"], pc["w"], ctx.h,
                    st.bodies.n, found.angle0, found.pose, ctx.last, bounce, found.bodies,
                    found.order, found.lanes, found.ends, False)
    _heavy_on_light(world, found, ctx.h)
    if sweep:
        _continuous(world, found, start, ctx.h)
    if ctx.last:
        found.keep()
    found.keep_substep()


def _stacked(world: World, found: Any, h: float) -> None:
    """The contacts of large mass ratios that get the shock pass (``kernels.stacks``):
    bodies on bodies picked once a frame (and again when the contacts are), bodies on
    particles every substep (their contacts are found every substep), with the particle
    ends' velocities as the frame began (at its first substep with such contacts)."""
    st = world.store
    c, pc = st.bodies.cols, st.particles.cols
    key = (world.frame, found.shape, found.bodies)
    particles = found.n > found.bodies
    if found.stacked_key != key or particles:
        found.stacked_key = None if particles else key  # particles' rows: this substep's
        rows = np.empty(found.n, dtype=np.int64)
        m = stacked(found.n, found.bodies, found.ci, found.cf, c["pos"], c["w"], pc["pos"],
                    pc["w"], *world.gravity, rows)
        found.stacked = rows[:m]
        found.before = np.zeros((m, 2))
        if particles and m:
            # the particles' speeds as the frame began (again if rows came or went since:
            # a per-substep stage may spawn, and the kernel reads rows by index)
            moment = (world.frame, st.particles.version)
            if found.rest_frame != moment:
                found.rest_frame = moment
                n = st.particles.n
                found.rest_v = (pc["pos"][:n] - pc["prev"][:n]) * (1.0 / h)
                # a loose disc that nothing holds up is in flight, however slow (at
                # rest as it was spawned, at the top of its arc): no support
                found.rest_v[_in_flight(world, n)] = np.multiply(world.down, FLYING)
            before_solve(m, found.stacked, found.ci, found.cf, found.rest_v, found.before)


#: px/s along gravity given to a disc in flight as its speed where the frame began: far
#: past ``stacks.RESTING``, so the shock pass leaves its contacts to the solver.
FLYING = 1e6
#: A disc contact holds up its upper end when its normal is within this (cosine, 60°)
#: of gravity.
HOLDS_UP = 0.5


def _in_flight(world: World, n: int) -> np.ndarray:
    """Per particle row: a loose disc (no spring, ring, shape, joint or tether has it; it
    can move) that none of this frame's disc contacts holds up (``discs.held_up``: a
    normal impulse from below, as last frame's carried over or this frame's so far).
    All False when the disc contacts are not this frame's rows (``Collide(soft=False)``):
    then every slow disc may hold a body up, as before."""
    st, discs = world.store, world.discs
    p = st.particles
    flying = np.zeros(n, dtype=np.bool_)
    if discs.shape != (p.version, n):
        return flying
    held = np.zeros(n, dtype=np.bool_)
    held_up(discs.n, discs.ij, discs.cf, *world.down, HOLDS_UP, held)
    tied = p.cols["w"][:n] == 0.0
    sc = st.springs.cols
    for rows in (sc["a"][: st.springs.n], sc["b"][: st.springs.n], st.area_idx,
                 st.shape_idx):
        tied[rows] = True
    for table in (st.joints, st.tethers):
        for col in (table.cols["a_part"][: table.n], table.cols["b_part"][: table.n]):
            tied[col[col >= 0]] = True
    flying[:] = ~(held | tied)
    return flying


def _heavy_on_light(world: World, found: Any, h: float) -> None:
    """The shock pass over ``_stacked``'s contacts, after the solve."""
    st = world.store
    c, pc = st.bodies.cols, st.particles.cols
    if len(found.stacked):
        shock(len(found.stacked), found.stacked, found.ci, found.cf, c["pos"], c["prev"],
              c["angle"], c["prev_angle"], c["w"], c["iw"], st.bodies.n, found.angle0,
              found.pose, pc["pos"], found.before, *world.gravity, h)




def _sweeps(world: World, found: Any, ctx: StepContext) -> bool:
    """Whether this frame's substeps sweep fast bodies (``_continuous``): asked once a
    frame, and again when bodies came since (a spawn may be fast); always while a body
    is grabbed (the pointer moves it as fast as the hand)."""
    st = world.store
    key = (world.frame, st.bodies.version)
    if found.sweep_key != key:
        c = st.bodies.cols
        found.sweep_key = key
        found.sweep = world.grabbed in st.bslot or may_be_fast(
            st.bodies.n, c["pos"], c["prev"], c["angle"], c["prev_angle"], c["w"],
            c["extent"], world.body_force, *world.gravity, st.body_inner, ctx.h, HEADROOM,
            ctx.substeps, _static(st), world.level.segments, found.walls,
            world.bounds is not None, world.contact_slop)
    return found.sweep


def _continuous(world: World, found: Any, start: tuple[np.ndarray, np.ndarray],
                h: float) -> None:
    """Fast bodies swept from ``start`` (positions, angles) against static geometry, every
    body held inside the bounds (``kernels.continuous``): what the contacts missed."""
    st = world.store
    c = st.bodies.cols
    bounds = found.walls
    continuous(st.bodies.n, c["pos"], c["prev"], c["angle"], c["prev_angle"], *start, c["w"],
               c["iw"],
               _static(st), c["extent"], c["restitution"], c["group"], c["layer"], c["mask"],
               st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius,
               world.level.segments, 0.0, bounds, world.bounds is not None, found.linked,
               world.contact_slop, h, world.level.seg_layer, world.level.seg_surf,
               st.body_inner)


def _off_static_bodies(world: World, grid: Any, vmin: float, push: float,
                        hold: float) -> None:
    """Particles out of static bodies, exactly (as out of level polygons)."""
    st = world.store
    if grid is None or not st.bodies.n:
        return
    c, pc = st.bodies.cols, st.particles.cols
    shape = (st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius)
    particles_on_static(st.bodies.n, c["pos"], c["angle"], _static(st), c["extent"],
                        c["group"], c["layer"], c["mask"], c["friction"], c["restitution"],
                        *shape, pc["pos"], pc["prev"], pc["w"], pc["radius"], pc["group"],
                        pc["layer"], pc["mask"], pc["friction"], pc["restitution"], *grid,
                        vmin, push, hold)


def _outlines_off_static(world: World, vmin: float, push: float, hold: float) -> None:
    """Soft-body outlines off the static bodies' corners (``outlines.off_static_corners``)."""
    st = world.store
    b = st.bodies
    if not b.n or len(st.outline_off) < 2 or not any_set(b.pinned):
        return
    c, pc = b.cols, st.particles.cols
    off_static_corners(b.n, c["pos"], c["angle"], _static(st), c["friction"], c["restitution"],
                       st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius,
                       c["group"], c["layer"], c["mask"], len(st.outline_off) - 1,
                       st.outline_off, st.outline_idx, pc["pos"], pc["prev"], pc["w"],
                       pc["radius"], pc["group"], pc["layer"], pc["mask"], pc["friction"],
                       pc["restitution"], vmin, push, hold)
