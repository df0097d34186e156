"""The contact graph: the rigid bodies' contacts, world data (``World.contacts``).

Box2D keeps its contacts in the world's arrays and Avian in a ``ContactGraph``
resource; here the narrow phase (``find``, which Collide calls) writes the
rows, the contact solver reads and updates their impulses, and contact events
(``touching_bodies``), sleeping (``island_pairs``) and saving (``save``/``load``,
through the Collide stage's state) read them. Nothing finds it by looking for a
stage: it belongs to the World, so a world with no Collide stage simply has none.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..flags import any_set, kinematic, watched
from ..kernels.coloring import COLORS
from ..kernels.contact_rows import (
    CF,
    LAX,
    LAY,
    LBX,
    LBY,
    LN,
    LNX,
    LNY,
    LT,
    MU,
    NX,
    NY,
    POSE,
    RAX,
    RAY,
    RPA,
    RPX,
    RPY,
    E,
)
from ..kernels.joints import links_changed
from ..kernels.lanes import CHUNK, ENDS, LANES
from ..kernels.rigid import body_pairs, particle_contacts, split_spinning, with_static_edges
from ..kernels.rigid_find import find_contacts
from ..kernels.rigid_solver import carry_impulses, prepare_contacts

if TYPE_CHECKING:
    from ..world import World
    from .step import StepContext

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
#: The sweep's gate's room (``continuous.may_be_fast``): a body a quarter as fast as the
#: sweep's threshold may still reach it within the frame (a hit, a motor, a joint's whip).
HEADROOM = 0.25
_NONE = np.zeros(0, dtype=np.int64)  # no keys (nothing linked)
#: The contact columns the next frame reads (warm starting and kept contacts), by their
#: saved names.
_SAVED = {"rx": RAX, "ry": RAY, "ln": LN, "lt": LT, "mu": MU, "e": E, "lax": LAX, "lay": LAY,
          "lbx": LBX, "lby": LBY, "lnx": LNX, "lny": LNY, "rpx": RPX, "rpy": RPY, "rpa": RPA}


class ContactGraph:
    """The rigid bodies' contact rows (grown as needed): written by Collide's narrow phase
    (``find``), solved by Collide, read by contact events, sleeping and
    saving (``World.contacts``).

    ``ci``/``cf`` rows ``0..n``: this substep's contacts (``0..bodies`` the frame's
    between bodies and with the level; the rest, found every substep: fast bodies' and
    particles'); ``old_*``: last frame's (warm starting), ``sub_*``: last substep's."""

    def __init__(self) -> None:
        self.pairs = np.zeros((64, 2), dtype=np.int64)
        # the broad phase's order of the bodies, kept from frame to frame (``body_pairs``;
        # its last row: the count it was made for)
        self.sap = np.zeros(1, dtype=np.int64)
        self.swept = np.zeros((1, 4))  # (and its scratch: the bodies' swept boxes)
        self.ci = np.zeros((256, 4), dtype=np.int64)
        self.cf = np.zeros((256, CF))
        self.n = 0
        self.bodies = 0  # rows 0..bodies: this frame's body contacts (the rest: particles')
        self.old_ci, self.old_cf, self.old_n = self.ci.copy(), self.cf.copy(), 0
        self.angle0 = np.zeros(0)  # each body's angle when the frame's contacts were found
        self.pose = np.zeros((0, POSE))
        self.fast = np.zeros(0, dtype=bool)  # bodies whose contacts are found every substep
        self.nfast = 0
        self.sorted_pairs = np.zeros((64, 2), dtype=np.int64)  # slow pairs, then fast ones
        self.slow_pairs = self.fast_pairs = np.zeros((0, 2), dtype=np.int64)
        self.linked = np.zeros(0, dtype=np.int64)  # body pairs a joint links
        self.plinked = np.zeros(0, dtype=np.int64)  # body–particle pairs a joint links
        # the joint rows ``linked`` was made from: their count and a copy of their ends and
        # flags (``joint_links``)
        self.linked_key: int | None = None
        self.links_seen = np.zeros((0, 6), dtype=np.int64)
        self.onext, self.onext_key = np.zeros(0, dtype=np.int64), None
        self.sub_ci, self.sub_cf, self.sub_n = self.ci.copy(), self.cf.copy(), 0
        # scratch of ``find_contacts``: last frame's contacts by body, boxes, cos/sin
        self.otable = np.zeros((0, 3), dtype=np.int64)
        self.order = np.zeros(0, dtype=np.int64)  # the solver's order of the frame's rows
        # what the solver's passes read of them, packed in that order (``kernels.lanes``)
        self.lanes, self.ends = _lanes(0)
        self.boxes, self.trig = np.zeros((0, 4)), np.zeros((0, 2))
        self.walls, self.walls_of = np.zeros(4), None
        # whether this frame sweeps fast bodies, and for which (frame, bodies.version)
        self.sweep, self.sweep_key = True, None
        # the frame's heavy-on-light contacts (kernels.stacks), and for which frame
        self.stacked, self.stacked_key = np.zeros(0, dtype=np.int64), None
        self.before = np.zeros((0, 2))  # their particle ends' velocities (kernels.stacks)
        self.rest_v, self.rest_frame = np.zeros((0, 2)), None  # the particles', by frame
        self.pending: dict[str, Any] | None = None  # loaded memory, by entity
        # rows of the memory are valid while no body was removed since (rows move then)
        self.removals = self._store_removals = 0
        self.shape: tuple[int, int] = (-1, -1)  # the tables' versions the frame's rows are of
        # the whole frame's own (``physics.rigid_frame``): the bodies' angles at its look,
        # its stacked rows and their ends' velocities (rows as many as ``ci``'s)
        self.frame_angle0 = np.zeros(0)
        self.frame_rows = np.zeros(len(self.ci), dtype=np.int64)
        self.frame_before = np.zeros((len(self.ci), 2))
        # counts the times one of the arrays the whole frame's kernel takes was replaced
        # (``physics.rigid_frame`` keeps them in one object while it holds)
        self.layout = 0

    def grow(self, need: int) -> None:
        """Room for ``need`` rows (the first ``bodies`` kept)."""
        ci, cf = np.zeros((2 * need, 4), dtype=np.int64), np.zeros((2 * need, CF))
        ci[: self.bodies], cf[: self.bodies] = self.ci[: self.bodies], self.cf[: self.bodies]
        self.ci, self.cf = ci, cf
        order = np.zeros(2 * need, dtype=np.int64)
        order[: self.bodies] = self.order[: self.bodies]
        self.order = order
        self._lanes_for(2 * need)
        self.frame_rows = np.zeros(2 * need, dtype=np.int64)
        self.frame_before = np.zeros((2 * need, 2))
        self.layout += 1

    def keep(self) -> None:
        """Remember this frame's body contacts for the next frame's warm start."""
        n = self.bodies
        if len(self.old_ci) < n:
            self.old_ci, self.old_cf = np.zeros_like(self.ci), np.zeros_like(self.cf)
            self.layout += 1
        self.old_ci[:n], self.old_cf[:n], self.old_n = self.ci[:n], self.cf[:n], n
        self.removals = self._store_removals

    # -- memory: what warm-starts the next frame (cloned and saved with the world) ----

    def copy(self) -> ContactGraph:
        """An independent copy (a cloned world warm-starts the same)."""
        twin = ContactGraph.__new__(ContactGraph)  # (a fresh one's rows: ~25 µs, replaced)
        twin.__dict__.update({name: value.copy() if isinstance(value, np.ndarray) else value
                              for name, value in self.__dict__.items()})
        return twin

    def save(self, world: World) -> dict[str, Any]:
        """Last frame's and last substep's body contacts, by entity: what the next frame
        reads (warm starting, kept contacts) to continue bit for bit. Flat lists, keyed
        ``frame_a``, ``frame_rx``, ``substep_a``…"""
        if self.pending is not None:  # loaded and not stepped since: as it was loaded
            return dict(self.pending)
        st = world.store
        entity = st.bodies.entity
        stale = self._store_removals != st.removals  # the next step drops them: so do we
        out: dict[str, Any] = {}
        for key, ci, cf, n in (("frame", self.old_ci, self.old_cf, self.old_n),
                               ("substep", self.sub_ci, self.sub_cf, self.sub_n)):
            n = 0 if stale else n
            rows = np.flatnonzero(ci[:n, 2] < 0)  # particles' contacts are never carried
            a, b = ci[rows, 0], ci[rows, 1]
            out[f"{key}_a"] = entity[a].tolist()
            out[f"{key}_b"] = np.where(b >= 0, entity[np.maximum(b, 0)], -1).tolist()
            for name, col in _SAVED.items():
                out[f"{key}_{name}"] = cf[rows, col].tolist()
        return out

    def load(self, state: dict[str, Any]) -> None:
        """Take what ``save`` wrote (checked); its entities become rows at the next step."""
        self.check(state)
        self.pending = state

    @staticmethod
    def check(state: dict[str, Any]) -> None:
        """Raise ValueError naming the key if ``state`` is not what ``save`` writes."""
        names = ("a", "b", *_SAVED)
        known = {f"{key}_{name}" for key in ("frame", "substep") for name in names}
        if set(state) - known:
            raise ValueError(f"unknown state keys: {', '.join(sorted(set(state) - known))}")
        missing = sorted(known - set(state)) if state else []
        if missing:  # all or nothing: the keys are columns of the same contacts
            raise ValueError(f"missing state keys: {', '.join(missing)}")
        for key in ("frame", "substep"):
            length = len(state.get(f"{key}_a", ()))
            for name in names:
                values = state.get(f"{key}_{name}", [])
                if not isinstance(values, list) or len(values) != length:
                    raise ValueError(f"{key}_{name} must be a list of {length} values")
                if name in ("a", "b"):
                    ok = all(type(v) is int and -1 <= v <= limits.MAX_ENTITY_ID for v in values)
                    if not ok:
                        raise ValueError(f"{key}_{name} must hold entity ids (or -1)")
                elif not all(type(v) in (int, float) and math.isfinite(v) for v in values):
                    raise ValueError(f"{key}_{name} must hold finite numbers")

    def resolve(self, world: World) -> None:
        """Turn loaded entities into rows (before the first step after loading)."""
        state, self.pending = self.pending, None
        slot = world.store.bslot
        for key in ("frame", "substep"):
            a = np.array([slot.get(int(e), -1) for e in state.get(f"{key}_a", ())],
                         dtype=np.int64)
            b = np.array([slot.get(int(e), -1) if e >= 0 else -1
                          for e in state.get(f"{key}_b", ())], dtype=np.int64)
            keep = a >= 0
            ci = np.full((max(len(a), 1), 4), -1, dtype=np.int64)
            cf = np.zeros((max(len(a), 1), CF))
            n = int(keep.sum())
            ci[:n, 0], ci[:n, 1] = a[keep], b[keep]
            for name, col in _SAVED.items():
                cf[:n, col] = np.asarray(state[f"{key}_{name}"], dtype=np.float64)[keep]
            if key == "frame":
                self.old_ci, self.old_cf, self.old_n = ci, cf, n
            else:
                self.sub_ci, self.sub_cf, self.sub_n = ci, cf, n
            self.layout += 1

    def empty(self) -> None:
        """No contact rows, of this frame or the last (a world without bodies)."""
        self.n = self.bodies = self.old_n = self.sub_n = 0

    def walls_for(self, bounds: tuple[float, float, float, float] | None) -> np.ndarray:
        """The world's ``bounds`` as the kernels take them (``walls``: zeros for none), made
        again only when they change."""
        if bounds != self.walls_of:
            self.walls_of = bounds
            self.walls = np.array(bounds if bounds is not None else (0.0,) * 4,
                                  dtype=np.float64)
        return self.walls

    def room(self, bodies: int) -> None:
        """Scratch rows for ``bodies`` bodies and last frame's contacts (``find_contacts``)."""
        if len(self.order) < len(self.ci):
            self.order = np.zeros(len(self.ci), dtype=np.int64)
            self.layout += 1
        if self.lanes.shape[1] < len(self.ci):
            self._lanes_for(len(self.ci))
            self.layout += 1
        if len(self.boxes) < bodies:
            self.boxes, self.trig = np.zeros((2 * bodies, 4)), np.zeros((2 * bodies, 2))
            self.layout += 1
        size = self.otable_rows()
        if len(self.otable) < size:
            self.otable = np.zeros((size, 3), dtype=np.int64)
            self.layout += 1
        if len(self.sub_ci) < len(self.ci):  # (a frame's fast turners' rows, in its call)
            ci, cf, n = np.zeros_like(self.ci), np.zeros_like(self.cf), self.sub_n
            ci[:n], cf[:n] = self.sub_ci[:n], self.sub_cf[:n]
            self.sub_ci, self.sub_cf = ci, cf
            self.layout += 1

    def otable_rows(self) -> int:
        """The rows ``otable`` needs for last frame's contacts (``rigid.pair_index``): a
        power of two above twice their count."""
        return 1 << (2 * self.old_n + 2).bit_length()

    def _lanes_for(self, rows: int) -> None:
        """``lanes`` and ``ends`` for ``rows`` contacts, the frame's first ``bodies`` kept."""
        lanes, ends = _lanes(rows)
        n = self.bodies  # (their manifolds are at most as many)
        lanes[:, :n] = self.lanes[:, :n]
        kept = max(n, COLORS + 1)  # (and the colours' runs and counts)
        ends[:, :kept] = self.ends[:, :kept]
        self.lanes, self.ends = lanes, ends

    def keep_substep(self) -> None:
        """Remember this substep's own contacts (after the frame's) for the next one's."""
        first, n = self.bodies, self.n - self.bodies
        if n == 0:
            self.sub_n = 0
            return
        if len(self.sub_ci) < n:
            self.sub_ci, self.sub_cf = np.zeros_like(self.ci), np.zeros_like(self.cf)
            self.layout += 1
        self.sub_ci[:n], self.sub_cf[:n] = self.ci[first: self.n], self.cf[first: self.n]
        self.sub_n = n


def _lanes(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty ``lanes`` and ``ends`` (``kernels.lanes``) for ``rows`` contacts: at least a
    chunk's columns (its scratch) and the colours' runs, an odd number of cache lines a
    row. (A row of a power of two's columns — 256, as the contact rows start — put a
    manifold's 44 values in one set of the CPU's cache, which holds 8 or 12: packing the
    lanes of a pyramid of 55 boxes took 7.1 µs a frame, 2.4 so; its passes 3.0 → 2.3 µs.)"""
    lines = -(-max(rows, CHUNK, COLORS + 1) // 8)  # (8 floats a 64-byte line)
    cols = 8 * (lines | 1)
    return np.zeros((LANES, cols)), np.zeros((ENDS, cols), dtype=np.int64)


def find(world: World, ctx: StepContext, grid: Any) -> bool:
    """This substep's contact rows (the narrow phase): at the frame's first substep the
    bodies' contacts with each other, the level and the bounds for the whole frame
    (speculative, warm-started from last frame's; again if bodies or joints came or went
    since, for the substeps left), then every substep the fast bodies' and the
    particles' (``grid``: the particles' grid, or None). False: no bodies."""
    st, found = world.store, world.contacts
    h = ctx.h
    if found.pending is not None:
        found.resolve(world)
    if not st.bodies.n:
        found.empty()
        return False
    if ctx.first or found.shape != (st.bodies.version, st.joints.version):
        ready_frame(world, found)
        _frame_contacts(world, found, h, ctx.substeps - ctx.substep)  # the substeps left
    _substep_contacts(world, found, h, grid)
    return True


def ready_frame(world: World, found: ContactGraph) -> None:
    """What the frame's look at the bodies starts from (``find``'s, and the whole frame's
    call, ``physics.rigid_frame``): last frame's contacts dropped if rows moved since,
    the graph's shape, rows for the fast flags, the poses and the broad phase's order, the
    joints' links."""
    st = world.store
    c, n = st.bodies.cols, st.bodies.n
    if found.removals != st.removals:  # rows moved: last frame's contacts are stale
        found.old_n = found.sub_n = 0
    found._store_removals = st.removals
    found.shape = (st.bodies.version, st.joints.version)
    if len(found.fast) < n:
        found.fast = np.zeros(c["pos"].shape[0], dtype=np.bool_)
        found.layout += 1
    if len(found.pose) < n:
        found.pose = np.zeros((c["pos"].shape[0], POSE))
        found.layout += 1
    if len(found.frame_angle0) < n:
        found.frame_angle0 = np.zeros(c["pos"].shape[0])
        found.layout += 1
    if len(found.sap) <= n:  # (its last row: the count the order was made for)
        found.sap = np.zeros(c["pos"].shape[0] + 1, dtype=np.int64)
        found.swept = np.zeros((c["pos"].shape[0] + 1, 4))
        found.layout += 1
    joint_links(st, found)


def look_room(world: World, found: ContactGraph, frame: bool) -> float:
    """The bounds' form and the scratch rows ``find_contacts`` takes, ready; returns its
    ``still`` (px): a pair keeps last frame's contacts only at the ``frame``'s first look,
    with no row moved since."""
    st = world.store
    found.walls_for(world.bounds)
    found.room(st.bodies.n)
    return STILL_PX if frame and found.removals == st.removals else 0.0


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
    npairs = body_pairs(*pair_args, found.pairs, found.sap, found.swept)
    if npairs > len(found.pairs):
        found.pairs = np.zeros((2 * npairs, 2), dtype=np.int64)
        found.layout += 1
        body_pairs(*pair_args, found.pairs, found.sap, found.swept)
    if len(found.sorted_pairs) < npairs:
        found.sorted_pairs = np.zeros_like(found.pairs)
        found.layout += 1
    slow, found.nfast = split_spinning(n, c["angle"], c["prev_angle"], c["extent"], frames,
                                       SPIN_PX, found.pairs, npairs, found.fast,
                                       found.sorted_pairs)
    found.slow_pairs = found.sorted_pairs[:slow]
    found.fast_pairs = found.sorted_pairs[slow:npairs]
    found.angle0 = c["prev_angle"][:n].copy()
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
    frame = frames > 1
    still = look_room(world, found, frame)
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
                              found.order, found.lanes, found.ends, world.level.seg_surf,
                              world.level.seg_layer, c["mask"], st.body_inner)
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


def joint_links(st: Any, found: ContactGraph) -> None:
    """``found.linked`` and ``found.plinked`` for this frame (joints change only between
    frames), made again only when the joint columns they come of differ from the last
    frame's (``kernels.joints.links_changed``, against the copy in ``found.links_seen``):
    a chain of 30 paid ~20 µs a frame for the two ``np.unique`` calls, then ~3.6 µs for
    comparing the columns' bytes."""
    j = st.joints
    n, c = j.n, j.cols
    if not n and found.linked_key == 0:
        return  # no joints, as last frame: nothing linked
    seen = found.links_seen
    if len(seen) < n:  # (rows it has not seen yet: never equal to a row's)
        seen = found.links_seen = np.full((c["a_body"].shape[0], 6), -2, dtype=np.int64)
    changed = links_changed(n, c["a_body"], c["b_body"], c["a_part"], c["b_part"], c["broken"],
                            c["collide"], seen)
    if changed or found.linked_key != n:
        found.linked, found.plinked = _linked(st), _linked_particles(st)
        found.linked_key = n
        found.layout += 1


def _linked(st: Any) -> np.ndarray:
    """Sorted keys ``a · 2³² + b`` (a < b) of the body pairs a joint links: they do not
    collide (Box2D's default) unless every joint between them says ``collide``."""
    j = st.joints
    if not j.n:
        return _NONE
    both = (j.a_body >= 0) & (j.b_body >= 0) & ~j.broken & ~j.collide
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
    ok = ~j.broken & ~j.collide
    keys = [j.a_body[ok & (j.b_part >= 0)] * 4294967296 + j.b_part[ok & (j.b_part >= 0)],
            j.b_body[ok & (j.a_part >= 0)] * 4294967296 + j.a_part[ok & (j.a_part >= 0)]]
    keys = np.concatenate(keys)
    return np.unique(keys[keys >= 0])


def _particle_contacts(world: World, found: ContactGraph, h: float, grid: Any,
                       first: int) -> int:
    """Contacts of bodies with particles, from row ``first`` on; returns the end row."""
    st = world.store
    c, pc = st.bodies.cols, st.particles.cols
    meets = _meets_particles(st)
    if not any_set(meets[: st.bodies.n]):  # every body static (a ground of bodies, discs
        return first  # on it): the kernel would find none (``particles_on_static`` does)
    shape = (st.body_piece_off, st.piece_vert_off, st.piece_verts, st.piece_radius)
    for _ in range(2):
        count = particle_contacts(st.bodies.n, c["pos"], c["prev"], c["angle"], c["prev_angle"],
                                  meets, c["extent"], c["group"], c["layer"],
                                  c["mask"],
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


def _meets_particles(st: Any) -> np.ndarray:
    """The bodies' inverse masses as ``particle_contacts`` takes them (0: static, left to
    the static bodies' positional pass): a kinematic body meets particles here, in the
    solver, where its velocity carries them."""
    c = st.bodies.cols
    moving = c["kinematic"]
    return np.where(moving, 1.0, c["w"]) if kinematic(st.bodies) else c["w"]


def static_inverse_masses(st: Any) -> np.ndarray:
    """The bodies' inverse masses as the static-geometry kernels take them (0: static):
    a frozen body (``sleeping.freeze``) is not, nothing that moves this frame reaches it."""
    w, b = st.bodies.cols["w"], st.bodies
    # (no body row kinematic: a removed row's stale flag past them moves nothing)
    if not st.any_frozen and not kinematic(b):
        return w
    moving = b.cols["kinematic"][: len(w)]  # a kinematic body meets particles in the solver
    return np.where(b.cols["frozen"][: len(w)] | moving, 1.0, w)


def level_and_static_edges(world: World) -> np.ndarray:
    """The level's segments and the edges of the static bodies now ((k, 4) px): what
    particles are swept against and pushed out of (``contacts.collide_segments``:
    Collide's, and the fused disc frame's, ``physics.disc_frame``)."""
    segs = world.level.segments
    st = world.store
    b = st.bodies
    if not b.n or not any_set(b.pinned):
        return segs
    c = b.cols
    return with_static_edges(segs, b.n, c["pos"], c["angle"], static_inverse_masses(st),
                             st.body_piece_off, st.piece_vert_off, st.piece_verts)


def touching_bodies(world: World) -> dict[tuple[int, int], tuple[float, float, float, float]]:
    """Entity pairs ``(a, b)`` (``a < b``; ``(a, -1)``: a body and the level) a rigid body
    touches at the end of the frame — a contact that pushed in the last substep — where
    either has ``events``: the contact point on ``a`` and the normal from ``a`` to ``b``."""
    st = world.store
    b = st.bodies
    found = world.contacts
    if not b.n or not (watched(b) or watched(st.particles)):
        return {}
    out: dict[tuple[int, int], tuple[float, float, float, float]] = {}
    rows = [(found.old_ci[: found.old_n], found.old_cf[: found.old_n]),
            (found.sub_ci[: found.sub_n], found.sub_cf[: found.sub_n])]
    for ci, cf in rows:
        for k in np.flatnonzero(cf[:, LN] > 0.0).tolist():
            i, j, p = (int(v) for v in ci[k, :3])
            if i >= b.n or j >= b.n or p >= st.particles.n:
                continue  # a stale row
            ea = int(b.entity[i])
            if j < 0 and p < 0:  # the level or the bounds
                if b.events[i]:
                    out.setdefault((ea, -1), _point(b, found, cf, k, i))
                continue
            eb = int(b.entity[j]) if j >= 0 else int(st.particles.entity[p])
            either = b.events[i] or (b.events[j] if j >= 0 else st.particles.events[p])
            if not either:
                continue
            x, y, nx, ny = _point(b, found, cf, k, i)
            key = (ea, eb) if ea < eb else (eb, ea)
            out.setdefault(key, (x, y, nx, ny) if ea < eb else (x, y, -nx, -ny))
    return out


def _point(b: Any, found: ContactGraph, cf: np.ndarray, k: int,
           i: int) -> tuple[float, float, float, float]:
    """Contact row ``k``'s point on body row ``i`` now, and its normal (px)."""
    turn = b.angle[i] - found.angle0[i] if i < len(found.angle0) else 0.0
    c, s = math.cos(turn), math.sin(turn)
    x = b.pos[i, 0] + c * cf[k, RAX] - s * cf[k, RAY]
    y = b.pos[i, 1] + s * cf[k, RAX] + c * cf[k, RAY]
    return float(x), float(y), float(cf[k, NX]), float(cf[k, NY])


def island_pairs(world: World) -> np.ndarray:
    """The rigid bodies' contacts with each other, of the last frame and substep, as island
    label pairs (a body row is ``n + row``): what sleeping links.

    What a file keeps, so a loaded world finds the same islands (``sleeping.freeze``
    decides by them): the loaded memory is turned into rows first, and contacts with
    particles, which files do not carry, link nothing — a particle on a body is an
    island of its own, and each wakes the other by moving it.
    """
    found = world.contacts
    st = world.store
    n, m = st.particles.n, st.bodies.n
    if not m:
        return np.zeros((0, 2), dtype=np.int64)
    if found.pending is not None:  # loaded, not yet stepped: the same pairs, by entity
        slot, state = st.bslot, found.pending
        pairs = [(slot[a], slot[b]) for key in ("frame", "substep")
                 for a, b in zip(state.get(f"{key}_a", ()), state.get(f"{key}_b", ()),
                                 strict=True)
                 if a in slot and b in slot]
        return n + np.array(pairs, dtype=np.int64).reshape(-1, 2)
    rows = []
    for ci, k in ((found.old_ci, found.old_n), (found.sub_ci, found.sub_n)):
        c = ci[:k]
        c = c[(c[:, 0] < m) & (c[:, 1] >= 0) & (c[:, 1] < m) & (c[:, 2] < 0)]
        rows.append(np.stack([n + c[:, 0], n + c[:, 1]], axis=1))
    return np.concatenate(rows)
