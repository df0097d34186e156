"""The particles' disc contacts and their memory across frames (``World.discs``).

``kernels.discs`` solves them; this finds them once a frame, carries each contact's
impulses to the next frame by its two entities (warm starting), and saves and loads
that memory so a loaded world continues bit for bit.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..kernels.discs import (
    CF,
    TRACK,
    disc_substep,
    find_frame,
    outran,
    remember,
    room,
    room_for,
    softness,
    warm_from,
)
from . import threads

if TYPE_CHECKING:
    from ..world import World
    from .step import StepContext

#: Box2D v3's contact stiffness (Hz, capped at a quarter of the substep rate) and
#: damping ratio: 30 Hz is Box2D's default; its damping ratio of 10 is kept too,
#: which makes a contact a stiff, over-damped spring, so a pile settles instead of
#: ringing.
HERTZ, ZETA = 30.0, 10.0
#: px of overlap with a bound the soft contacts may hold before the bounds' positional
#: pass (``systems.collide``, ``kernels.contacts.collide_level``) takes the rest out.
SLOP_PX = 0.5
#: px a disc may move in a frame beyond its own motion and still find its contacts.
REACH_PX = 2.0
#: A bound's key code (above every entity id) and the keys' shift (``contact_keys``).
WALL, SHIFT = limits.MAX_ENTITY_ID + 1, 1 << 23


class Discs:
    """This frame's disc contacts (``ij``, ``cf``, ``n``) and last frame's by key."""

    def __init__(self) -> None:
        self.ij, self.cf = room(room_for(0))
        self.n = 0
        self.keys = np.zeros(0, dtype=np.int64)  # sorted; last frame's contacts
        self.memory = np.zeros((0, 2))  # their (LN, LT)
        self.at, self.reach = np.zeros((0, 2)), np.zeros(0)  # where found, how far each may go
        #: each particle's path and allowance (``kernels.discs.TRACK`` columns), and the
        #: path's table, a row per substep (``kernels.discs.path_table``)
        self.track, self.path = np.zeros((0, TRACK)), np.zeros((0, 2))
        # the particle table's version and row count the rows (and ``at``, ``reach``,
        # ``ents``) are of
        self.shape: tuple[int, int] = (-1, -1)
        self.ents = np.zeros(0, dtype=np.int64)
        #: the rows' keys, which have their entities the other way round, and the order
        #: that sorts the keys (``_key``)
        self.found = _no_keys()
        #: ``physics.disc_frame``'s kept arguments and what they hold for (``_held``)
        self.held: tuple[Any, ...] = ()
        self.held_key: Any = None
        #: its Project arguments (``physics.disc_frame._spring_args``) and what they hold for
        self.spring_held: tuple[Any, ...] | None = None
        #: its bodies' arguments (``physics.disc_frame._bodies_args``) and what they hold for
        self.bodies_held: tuple[Any, ...] | None = None
        #: the fused frame's outputs (``out``): the found rows' keys and the memory, two of
        #: the latter (one is last frame's ``keys``, read as the next is written)
        self._out: tuple[np.ndarray, ...] = ()
        self._kept: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
        self.soft_h, self.soft = -1.0, np.zeros((2, 3))  # ``substep``'s, for its h
        self.bands: dict[str, Any] = {}  # the threads' rows (``physics.threads.find_frame``)

    def clone(self) -> Discs:
        twin = Discs()
        twin.ij, twin.cf, twin.n = self.ij.copy(), self.cf.copy(), self.n
        twin.keys, twin.memory = self.keys.copy(), self.memory.copy()
        twin.at, twin.reach, twin.shape = self.at.copy(), self.reach.copy(), self.shape
        twin.track, twin.path = self.track.copy(), self.path.copy()
        twin.ents = self.ents.copy()
        twin.found = tuple(a.copy() for a in self.found)
        return twin

    # -- a frame ---------------------------------------------------------------------
    def find(self, world: World, ctx: StepContext, pairs: bool, bounce: float) -> None:
        """This frame's contacts (circle pairs if ``pairs``; the bounds and the level's
        segments always), their impulses carried over from last frame's; ``bounce``
        (px/s, Collide's ``bounce_speed``): slower approaches count as at rest."""
        st = world.store
        c = st.particles.cols
        n = st.particles.n
        self.begin(world)
        self.at[:] = c["pos"][:n]
        reach = self.reach
        bounds = world.contacts.walls_for(world.bounds)  # the kernels' form, kept
        gx, gy = world.down
        ax, ay = world.gravity
        lvl = world.level
        force = world.frame_force
        path = self.ready_path(ctx.substeps)
        while True:
            # how far each may go this frame: its speed's worth, at most what the largest
            # disc's diameter is to it (a faster one has its contacts found again when it
            # outruns it: ``stale``), and how far from its path (``kernels.discs.track_grid``)
            args = (n, c["pos"], c["prev"], c["w"], c["radius"], c["group"], c["layer"],
                    c["mask"], c["friction"], c["restitution"], c["frozen"], st.any_frozen,
                    float(ctx.substeps), REACH_PX, bounds, world.bounds is not None,
                    lvl.segments, ctx.h, self.ij, self.cf, pairs, lvl.seg_surf,
                    lvl.seg_layer, gx, gy, bounce, self.ents, WALL, SHIFT, reach,
                    c["pinned"], force, float(ax), float(ay),
                    world.damping ** (ctx.h * 60.0), ctx.substep,
                    st.pslot.get(world.grabbed, -1), self.track, path)
            parts = threads.count(world) if n >= threads.FIND_MIN else 1
            m, keys, flipped = (find_frame(*args) if parts < 2 else
                                threads.find_frame(parts, self.bands, len(self.ij), args))
            if m >= 0:
                break
            self.ij, self.cf = room(2 * len(self.ij))
        # the rows' keys (for the warm start and keep; unique: a pair or a disc and a
        # plane is found once) and the order that sorts them: unique, so any sort's —
        # numpy's stable one takes the runs they are found in (29,800 keys of the 8,000
        # pile: 0.40 ms against its quicksort's 1.14)
        self.n, self.found = m, (keys, flipped, np.argsort(keys, kind="stable"))
        if len(self.keys) and m:  # this frame's, matched to last frame's by key
            warm_from(m, *self.found, self.cf, self.keys, self.memory)

    def begin(self, world: World) -> None:
        """What a frame's look for contacts starts from: room for each particle's reach and
        where it was (``at``, filled by the look), the rows' entities and table, and rows
        for the contacts (``find_frame`` says when it needs more)."""
        p = world.store.particles
        n = p.n
        if self.shape != (p.version, n):  # rows came or went: room for them, their entities
            self.at, self.reach = np.empty((n, 2)), np.empty(n)  # the look fills them
            self.track = np.empty((n, TRACK))
            self.ents = p.cols["entity"][:n].copy()  # the rows' entities, as they were found
            self.shape = (p.version, n)
        if len(self.ij) < room_for(n):
            self.ij, self.cf = room(room_for(n))

    def ready_path(self, substeps: int) -> np.ndarray:
        """The path's table (``path``), a row for each of a frame's ``substeps``."""
        if len(self.path) != substeps:
            self.path = np.zeros((substeps, 2))
        return self.path

    def out(self) -> tuple[np.ndarray, ...]:
        """Room for the fused frame's outputs (``kernels.disc_frame.disc_frame_held``), a row
        for each contact row (``ij``): the found keys, which are flipped and their sorting
        order (``found``), and the keys and impulses remembered (``keep``), into the pair
        that is not the memory read now (``keys``). Kept from frame to frame."""
        size = len(self.ij)
        if not self._out or len(self._out[0]) != size:
            self._out = (np.empty(size, dtype=np.int64), np.empty(size, dtype=np.bool_),
                         np.empty(size, dtype=np.int64))
            self._kept = tuple((np.empty(size, dtype=np.int64), np.empty((size, 2)))
                               for _ in range(2))
        kept = self._kept[0] if self.keys.base is not self._kept[0][0] else self._kept[1]
        return (*self._out, *kept)

    def stiffness(self, h: float) -> np.ndarray:
        """The soft contacts' two stiffnesses for substeps of ``h`` s (made again only when
        ``h`` changes)."""
        if self.soft_h != h:
            hertz = min(HERTZ, 0.25 / h)
            self.soft_h = h
            self.soft = np.array([softness(hertz, ZETA, h), softness(2.0 * hertz, ZETA, h)])
        return self.soft

    def keep(self, world: World, remembered: tuple[np.ndarray, np.ndarray] | None = None
             ) -> None:
        """Remember this frame's impulses for the next frame's warm start (and keep what
        frozen rows remembered: ``sleeping.freeze``; they wake warm). ``remembered``: the
        frame's keys and impulses as ``remember`` writes them, if the fused frame's kernel
        wrote them already."""
        st = world.store
        if remembered is None:
            key, memory = np.empty(self.n, dtype=np.int64), np.empty((self.n, 2))
            remember(self.n, *self.found, self.cf, key, memory)
        else:
            key, memory = remembered
        if st.any_frozen and len(self.keys):
            p = st.particles
            asleep = p.cols["entity"][: p.n][p.cols["frozen"][: p.n]]
            held = np.isin(self.keys // SHIFT, asleep) | np.isin(self.keys % SHIFT, asleep)
            key = np.concatenate([key, self.keys[held]])
            memory = np.concatenate([memory, self.memory[held]])
            order = np.argsort(key, kind="stable")
            key, memory = key[order], memory[order]
        self.keys, self.memory = key, memory

    def stale(self, world: World, substep: int) -> bool:
        """Whether this frame's rows no longer hold in ``substep``: a row came or went (a
        stage or a handler spawned or deleted), or a particle outran its reach or strayed
        from its path."""
        p = world.store.particles
        if self.shape != (p.version, p.n):
            return True
        a, b = self.path[substep]
        return bool(self.n) and outran(p.n, p.cols["pos"], self.at, self.reach, self.track,
                                       a, b)

    # -- a substep -------------------------------------------------------------------
    def substep(self, world: World, ctx: StepContext, push: float, bounce: float) -> None:
        """Warm start, solve, relax; after the frame's last substep, the bounce."""
        if not self.n:
            return
        c = world.store.particles.cols
        disc_substep(self.n, self.ij, self.cf, c["pos"], c["prev"], ctx.h,
                     self.stiffness(ctx.h), push, ctx.last, bounce)

    # -- files -----------------------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """The memory (what the next frame warm-starts from) as ``disc_a`` (the lower
        entity), ``disc_b`` (the other; −1 − k for bound k, −5 − k for the level's segment
        k), ``disc_ln`` and
        ``disc_lt`` (impulses, mass·px/s; the tangent runs from a's side); {} if empty."""
        if not len(self.keys):
            return {}
        code = self.keys % SHIFT
        b = np.where(code >= WALL, WALL - 1 - code, code)
        return {"disc_a": (self.keys // SHIFT).tolist(), "disc_b": b.tolist(),
                "disc_ln": self.memory[:, 0].tolist(), "disc_lt": self.memory[:, 1].tolist()}

    @staticmethod
    def check(state: dict[str, Any]) -> None:
        """Raise ValueError naming the key if ``state`` is not what ``save`` writes."""
        names = ("disc_a", "disc_b", "disc_ln", "disc_lt")
        if not any(k in state for k in names):
            return
        missing = [k for k in names if k not in state]
        if missing:
            raise ValueError(f"missing state keys: {', '.join(missing)}")
        length = len(state["disc_a"]) if isinstance(state["disc_a"], list) else -1
        for k in names:
            if not isinstance(state[k], list) or len(state[k]) != length:
                raise ValueError(f"{k} must be a list of {max(length, 0)} values")
        top = limits.MAX_ENTITY_ID
        if not all(type(v) is int and 0 <= v <= top for v in state["disc_a"]):
            raise ValueError("disc_a must hold entity ids")
        if not all(type(v) is int and -top < v <= top for v in state["disc_b"]):
            raise ValueError("disc_b must hold entity ids (or -1 to -4: a bound; below: a "
                             "level segment)")
        for k in ("disc_ln", "disc_lt"):
            if not all(type(v) in (int, float) and math.isfinite(v) for v in state[k]):
                raise ValueError(f"{k} must hold finite numbers")

    def load(self, state: dict[str, Any]) -> None:
        """Take what ``save`` wrote (checked by ``check``)."""
        a = np.asarray(state.get("disc_a", []), dtype=np.int64)
        b = np.asarray(state.get("disc_b", []), dtype=np.int64)
        key = a * SHIFT + np.where(b >= 0, b, WALL - 1 - b)
        memory = np.stack([np.asarray(state.get("disc_ln", []), dtype=np.float64),
                           np.asarray(state.get("disc_lt", []), dtype=np.float64)], axis=1)
        order = np.argsort(key, kind="stable")
        self.keys, self.memory = key[order], memory[order].reshape(-1, 2)


def _no_keys() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.bool_),
            np.zeros(0, dtype=np.int64))


__all__ = ["CF", "SLOP_PX", "Discs"]
