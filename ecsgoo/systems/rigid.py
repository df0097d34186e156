"""The rigid-body part of the solver stages (not a stage: Integrate, Project and
Collide call these, so ``systems.SOLVER`` simulates bodies with nothing to add).

Per substep: Integrate advances the bodies (``integrate``); Project solves the
tethers (``solve_tethers_once``) and the joints (``solve_joints``); Collide runs the
contacts (``contacts``): at the first
substep of a frame it finds the bodies' contacts with each other, the level and
the bounds for the whole frame (speculative, warm-started from last frame's),
every substep it adds the contacts with particles, then warm start, solve,
relax — and restitution after the last substep. See ``kernels.rigid_solver``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..kernels.joints import joint_substep
from ..kernels.outlines import collide_corners
from ..kernels.rigid import (
    body_pairs,
    integrate_bodies,
    particle_contacts,
    pull_body,
    split_spinning,
    static_corners,
    static_edges,
)
from ..kernels.rigid import (
    particles_on_static as _particles_on_static,
)
from ..kernels.rigid_find import find_contacts
from ..kernels.rigid_solver import (
    carry_impulses,
    contact_substep,
    prepare_contacts,
)
from ..kernels.tethers import solve_tethers

if TYPE_CHECKING:
    from ..physics import StepContext
    from ..physics.contacts import ContactGraph
    from ..world import World

#: Friction of the level's segments and the bounds with a body (mixed with the body's).
LEVEL_FRICTION = 0.6
#: How far (px) a contact's anchor may have moved since last frame and still be the
#: same contact (its impulses carry over: warm starting).
MATCH_PX = 2.0
#: A body whose farthest point sweeps more than this (px) in a frame by turning has its
#: contacts found every substep.
SPIN_PX = 2.0
#: A body pair whose relative pose moved less than this (px, at its farthest point)
#: since its contacts were found keeps them (no narrow phase).
STILL_PX = 0.05
_NONE = np.zeros(0, dtype=np.int64)  # no keys (nothing linked)


def integrate(world: World, h: float, damp: float, target: tuple[float, float],
              pull: float) -> None:
    """Advance every moving body one substep (Verlet, like the particles); a grabbed body's
    held point moves ``pull`` of the way to the pointer's ``target`` (px) this substep."""
    b = world.store.bodies
    if b.n:
        c = b.cols
        gx, gy = world.gravity
        integrate_bodies(b.n, c["pos"], c["prev"], c["angle"], c["prev_angle"],
                         world.body_force, c["w"], gx, gy, damp, h)
        row = world.store.bslot.get(world.grabbed, -1)
        if row >= 0:
            pull_body(row, c["pos"], c["angle"], c["w"], c["iw"], *world.grab_local, *target,
                      pull)


def solve_joints(world: World, h: float) -> None:
    """One substep of the joints (``kernels.joints.joint_substep``), in Project."""
    st = world.store
    if st.joints.n:
        c, pc = st.bodies.cols, st.particles.cols
        joint_substep(*_joint_arrays(st), c["pos"], c["prev"], c["angle"], c["prev_angle"],
                      c["w"], c["iw"], pc["pos"], pc["prev"], pc["w"], h)


def solve_tethers_once(world: World, h: float) -> None:
    """One XPBD pass over the tethers (springs with an end on a body), in Project."""
    st = world.store
    t = st.tethers
    bc, pc = st.bodies.cols, st.particles.cols
    if t.n:
        tc = t.cols
        solve_tethers(t.n, tc["a_body"], tc["a_part"], tc["b_body"], tc["b_part"], tc["la"],
                      tc["lb"], tc["rest"], tc["compliance"], tc["broken"], tc["lam"],
                      bc["pos"], bc["angle"], bc["w"], bc["iw"], pc["pos"], pc["w"], h)


def contacts(world: World, ctx: StepContext, grid: Any, bounce: float) -> None:
    """One substep of the bodies' contacts (see the module docstring).

    ``grid``: the particles' contact grid, or None; ``bounce`` (px/s): slower
    impacts do not bounce. Contacts are hard: overlaps are taken out in position
    (``rigid_solver.separate``), never pushed out with speed.
    """
    st, found = world.store, world.contacts
    h = ctx.h
    if found.pending is not None:
        found.resolve(world)
    if not st.bodies.n:
        found.n = found.bodies = found.old_n = found.sub_n = 0
        if not st.joints.n:
            return
    # the frame's contacts, found at its first substep; again if bodies or joints came or
    # went since (a game's per-substep stage), for the substeps left
    shape = (st.bodies.version, st.joints.version)
    if (ctx.first or found.shape != shape) and st.bodies.n:
        if found.removals != st.removals:  # rows moved: last frame's contacts are stale
            found.old_n = found.sub_n = 0
        found._store_removals = st.removals
        found.shape = shape
        _frame_contacts(world, found, h, ctx.left)
    if st.bodies.n:
        _substep_contacts(world, found, h, grid)
    c, pc = st.bodies.cols, st.particles.cols
    last = ctx.last
    contact_substep(found.n, found.ci, found.cf, c["pos"], c["prev"], c["angle"],
                    c["prev_angle"], c["w"], c["iw"], pc["pos"], pc["prev"], pc["w"], h,
                    st.bodies.n, found.angle0, found.pose, last, bounce, found.bodies,
                    found.order)
    if last:
        found.keep()
    found.keep_substep()


def _frame_contacts(world: World, found: ContactGraph, h: float, frames: int) -> None:
    """The frame's body pairs; the contacts of the slow ones for the whole frame.

    A body that turns fast (its farthest point sweeps more than ``SPIN_PX`` over
    the frame) has its contacts found again every substep: anchors found once
    would miss the corner that turns in.
    """
    st = world.store
    c, slop, n = st.bodies.cols, world.contact_slop, st.bodies.n
    pair_args = (n, c["pos"], c["prev"], c["extent"], c["w"], c["group"], c["layer"],
                 c["mask"], slop, frames)
    npairs = body_pairs(*pair_args, found.pairs)
    if npairs > len(found.pairs):
        found.pairs = np.zeros((2 * npairs, 2), dtype=np.int64)
        body_pairs(*pair_args, found.pairs)
    if len(found.fast) < n:
        found.fast = np.zeros(c["pos"].shape[0], dtype=np.bool_)
    if len(found.sorted_pairs) < npairs:
        found.sorted_pairs = np.zeros_like(found.pairs)
    slow, found.nfast = split_spinning(n, c["angle"], c["prev_angle"], c["extent"], frames,
                                       SPIN_PX, found.pairs, npairs, found.fast,
                                       found.sorted_pairs)
    found.slow_pairs = found.sorted_pairs[:slow]
    found.fast_pairs = found.sorted_pairs[slow:npairs]
    found.linked = _linked(st)  # joints change only between frames: looked up once
    found.plinked = _linked_particles(st)
    found.angle0 = c["prev_angle"][:n].copy()
    if len(found.pose) < n:
        found.pose = np.zeros((c["pos"].shape[0], 4))
    found.bodies = 0
    found.bodies = _find(world, found, h, 0, found.slow_pairs, False, frames)


def _find(world: World, found: ContactGraph, h: float, first: int, pairs: np.ndarray,
          fast: bool, frames: int) -> int:
    """Contacts of ``pairs`` and of the ``fast`` bodies (or the others) with the level and
    bounds, from row ``first`` on, with the speculative margin of ``frames`` substeps;
    returns the end row. At the frame's first look (``frames`` > 1) a resting pair
    keeps last frame's contacts, and the others take their impulses."""
    st = world.store
    c, n = st.bodies.cols, st.bodies.n
    bounds = world.bounds
    if bounds != found.walls_of:  # the walls as an array, made again only when they change
        found.walls_of = bounds
        found.walls = np.array(bounds if bounds is not None else (0.0,) * 4, dtype=np.float64)
    frame = frames > 1
    still = STILL_PX if frame and found.removals == st.removals else 0.0
    found.room(n)
    for _ in range(2):  # a second round only when the rows had to grow
        count = find_contacts(pairs, n, c["pos"], c["prev"], c["angle"], c["prev_angle"],
                              c["w"], c["iw"], c["extent"], c["friction"], c["restitution"],
                              st.body_piece_off, st.piece_vert_off, st.piece_verts,
                              st.piece_radius, world.level.segments, LEVEL_FRICTION,
                              found.walls, bounds is not None, world.contact_slop, h, frames,
                              found.linked, found.angle0, found.ci, found.cf, first,
                              found.old_ci, found.old_cf, found.old_n, found.otable, still,
                              found.boxes, found.trig, found.fast, fast,
                              st.particles.cols["w"], MATCH_PX if frame else 0.0,
                              found.order)
        if count <= len(found.ci):
            return count
        found.grow(count)
    raise AssertionError("contact rows grew and were still too few")  # pragma: no cover


def _substep_contacts(world: World, found: ContactGraph, h: float, grid: Any) -> None:
    """This substep's contacts after the frame's: the fast bodies', then the particles'
    (warm-started from the last substep's)."""
    n = found.bodies
    if found.nfast:
        n = _find(world, found, h, n, found.fast_pairs, True, 1)
    if grid is not None:
        n = _particle_contacts(world, found, h, grid, n)
    found.n = n
    if n > found.bodies:
        carry_impulses(n - found.bodies, found.ci[found.bodies:], found.cf[found.bodies:],
                       found.sub_n, found.sub_ci, found.sub_cf, MATCH_PX)


def _joint_arrays(st: Any) -> tuple[Any, ...]:
    """The joint table's arrays in the order ``joints.joint_substep`` takes them."""
    jc = st.joints.cols
    return (st.joints.n, jc["a_body"], jc["a_part"], jc["b_body"], jc["b_part"], jc["la"],
            jc["lb"], jc["weld"], jc["axis"], jc["rest_angle"], jc["broken"], jc["impulse"],
            jc["spin"],
            jc["force"], jc["lower"], jc["upper"], jc["motor_speed"], jc["motor_torque"],
            jc["motor_impulse"], jc["lower_impulse"], jc["upper_impulse"])


def _linked(st: Any) -> np.ndarray:
    """Sorted keys ``a · 2³² + b`` (a < b) of the body pairs a joint links: they do not
    collide (Box2D's default)."""
    j = st.joints
    if not j.n:
        return _NONE
    both = (j.a_body >= 0) & (j.b_body >= 0) & ~j.broken
    lo = np.minimum(j.a_body[both], j.b_body[both])
    hi = np.maximum(j.a_body[both], j.b_body[both])
    return np.unique(lo * 4294967296 + hi)


def _outline_next(st: Any, found: ContactGraph) -> np.ndarray:
    """Per particle row: the next particle along its soft body's outline, else -1 (kept
    until the outlines are rebuilt)."""
    key = (id(st.outline_idx), st.particles.cols["pos"].shape[0])
    if found.onext_key != key:
        nxt = np.full(key[1], -1, dtype=np.int64)
        off, idx = st.outline_off, st.outline_idx
        if len(idx):
            after = np.arange(1, len(idx) + 1)
            after[off[1:] - 1] = off[:-1]  # each outline closes on itself
            nxt[idx] = idx[after]
        found.onext, found.onext_key = nxt, key
    return found.onext


def _linked_particles(st: Any) -> np.ndarray:
    """Sorted keys ``body · 2³² + particle`` of bodies and particles a joint links."""
    j = st.joints
    if not j.n:
        return _NONE
    ok = ~j.broken
    keys = [j.a_body[ok & (j.b_part >= 0)] * 4294967296 + j.b_part[ok & (j.b_part >= 0)],
            j.b_body[ok & (j.a_part >= 0)] * 4294967296 + j.a_part[ok & (j.a_part >= 0)]]
    keys = np.concatenate(keys)
    return np.unique(keys[keys >= 0])


def _particle_contacts(world: World, found: ContactGraph, h: float, grid: Any,
                       first: int) -> int:
    """Contacts of bodies with particles, from row ``first`` on; returns the end row."""
    st = world.store
    c, pc = st.bodies.cols, st.particles.cols
    shape = (st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius)
    for _ in range(2):
        count = particle_contacts(st.bodies.n, c["pos"], c["prev"], c["angle"], c["prev_angle"],
                                  c["w"], c["extent"], c["group"], c["layer"], c["mask"],
                                  c["friction"], c["restitution"], *shape, pc["pos"],
                                  pc["prev"], pc["w"], pc["radius"], pc["group"], pc["layer"],
                                  pc["mask"], pc["friction"], pc["restitution"],
                                  _outline_next(st, found), *grid,
                                  world.contact_slop, h, found.angle0,
                                  found.plinked, found.ci, found.cf, first)
        if count <= len(found.ci):
            break
        found.grow(count)
    prepare_contacts(first, count, found.ci, found.cf, c["w"], c["iw"], pc["w"])
    return count


def particles_on_static(world: World, grid: Any, vmin: float, push: float,
                        hold: float) -> None:
    """Particles out of static bodies, exactly (as out of level polygons)."""
    st = world.store
    if grid is None or not st.bodies.n:
        return
    c, pc = st.bodies.cols, st.particles.cols
    shape = (st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius)
    _particles_on_static(st.bodies.n, c["pos"], c["angle"], c["w"], c["extent"], c["group"],
                         c["layer"], c["mask"], c["friction"], c["restitution"], *shape,
                         pc["pos"], pc["prev"], pc["w"], pc["radius"], pc["group"],
                         pc["layer"], pc["mask"], pc["friction"], pc["restitution"], *grid,
                         vmin, push, hold)


def outlines_off_static(world: World, vmin: float, push: float, hold: float) -> None:
    """Soft-body outlines off the static bodies' corners (``outlines.collide_corners``)."""
    st = world.store
    b = st.bodies
    if not b.n or len(st.outline_off) < 2 or not b.pinned.any():
        return
    c, pc = b.cols, st.particles.cols
    out = np.empty((max(8, len(st.piece_verts)), 6))  # room for every vertex of every piece
    count = static_corners(b.n, c["pos"], c["angle"], c["w"], c["friction"], c["restitution"],
                           st.body_piece_off, st.piece_vert_off, st.piece_verts,
                           st.piece_radius, out)
    rows = out[:count, 5].astype(np.int64)
    collide_corners(count, out, c["group"][rows], c["layer"][rows], c["mask"][rows],
                    len(st.outline_off) - 1, st.outline_off, st.outline_idx, pc["pos"],
                    pc["prev"], pc["w"], pc["radius"], pc["group"], pc["layer"], pc["mask"],
                    pc["friction"], pc["restitution"], vmin, push, hold)


def level_segments(world: World) -> np.ndarray:
    """The level's segments and the edges of the static bodies now ((k, 4) px): what
    fast particles are swept against (``contacts.collide_segments``)."""
    segs = world.level.segments
    st = world.store
    b = st.bodies
    if not b.n or not b.pinned.any():
        return segs
    c = b.cols
    out = np.empty((max(8, 2 * len(st.piece_verts)), 4))
    count = static_edges(b.n, c["pos"], c["angle"], c["w"], st.body_piece_off,
                         st.piece_vert_off, st.piece_verts, out)
    return np.vstack([segs, out[: min(count, len(out))]]) if count else segs
