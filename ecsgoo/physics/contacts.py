"""The contact graph: the rigid bodies' contacts, world data (``World.contacts``).

Box2D keeps its contacts in the world's arrays and Avian in a ``ContactGraph``
resource; here the narrow phase (Collide, ``systems.rigid.contacts``) writes the
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
from ..kernels.rigid_solver import (
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
    RAX,
    RAY,
    RPA,
    RPX,
    RPY,
    E,
)

if TYPE_CHECKING:
    from ..world import World

#: The contact columns the next frame reads (warm starting and kept contacts), by their
#: saved names.
_SAVED = {"rx": RAX, "ry": RAY, "ln": LN, "lt": LT, "mu": MU, "e": E, "lax": LAX, "lay": LAY,
          "lbx": LBX, "lby": LBY, "lnx": LNX, "lny": LNY, "rpx": RPX, "rpy": RPY, "rpa": RPA}


class ContactGraph:
    """The rigid bodies' contact rows (grown as needed): written by Collide's narrow phase
    (``systems.rigid.contacts``), solved there, read by contact events, sleeping and
    saving (``World.contacts``).

    ``ci``/``cf`` rows ``0..n``: this substep's contacts (``0..bodies`` the frame's
    between bodies and with the level; the rest, found every substep: fast bodies' and
    particles'); ``old_*``: last frame's (warm starting), ``sub_*``: last substep's."""

    def __init__(self) -> None:
        self.pairs = np.zeros((64, 2), dtype=np.int64)
        self.ci = np.zeros((256, 4), dtype=np.int64)
        self.cf = np.zeros((256, CF))
        self.n = 0
        self.bodies = 0  # rows 0..bodies: this frame's body contacts (the rest: particles')
        self.old_ci, self.old_cf, self.old_n = self.ci.copy(), self.cf.copy(), 0
        self.angle0 = np.zeros(0)  # each body's angle when the frame's contacts were found
        self.pose = np.zeros((0, 4))
        self.fast = np.zeros(0, dtype=bool)  # bodies whose contacts are found every substep
        self.nfast = 0
        self.sorted_pairs = np.zeros((64, 2), dtype=np.int64)  # slow pairs, then fast ones
        self.slow_pairs = self.fast_pairs = np.zeros((0, 2), dtype=np.int64)
        self.linked = np.zeros(0, dtype=np.int64)  # body pairs a joint links
        self.plinked = np.zeros(0, dtype=np.int64)  # body–particle pairs a joint links
        self.onext, self.onext_key = np.zeros(0, dtype=np.int64), None
        self.sub_ci, self.sub_cf, self.sub_n = self.ci.copy(), self.cf.copy(), 0
        # scratch of ``find_contacts``: last frame's contacts by body, boxes, cos/sin
        self.otable = np.zeros((0, 3), dtype=np.int64)
        self.order = np.zeros(0, dtype=np.int64)  # the solver's order of the frame's rows
        self.boxes, self.trig = np.zeros((0, 4)), np.zeros((0, 2))
        self.walls, self.walls_of = np.zeros(4), None
        self.pending: dict[str, Any] | None = None  # loaded memory, by entity
        # rows of the memory are valid while no body was removed since (rows move then)
        self.removals = self._store_removals = 0
        self.shape: tuple[int, int] = (-1, -1)  # the tables' versions the frame's rows are of

    def grow(self, need: int) -> None:
        """Room for ``need`` rows (the first ``bodies`` kept)."""
        ci, cf = np.zeros((2 * need, 4), dtype=np.int64), np.zeros((2 * need, CF))
        ci[: self.bodies], cf[: self.bodies] = self.ci[: self.bodies], self.cf[: self.bodies]
        self.ci, self.cf = ci, cf
        order = np.zeros(2 * need, dtype=np.int64)
        order[: self.bodies] = self.order[: self.bodies]
        self.order = order

    def keep(self) -> None:
        """Remember this frame's body contacts for the next frame's warm start."""
        n = self.bodies
        if len(self.old_ci) < n:
            self.old_ci, self.old_cf = np.zeros_like(self.ci), np.zeros_like(self.cf)
        self.old_ci[:n], self.old_cf[:n], self.old_n = self.ci[:n], self.cf[:n], n
        self.removals = self._store_removals

    # -- memory: what warm-starts the next frame (cloned and saved with the world) ----

    def copy(self) -> ContactGraph:
        """An independent copy (a cloned world warm-starts the same)."""
        twin = ContactGraph()
        for name, value in self.__dict__.items():
            setattr(twin, name, value.copy() if isinstance(value, np.ndarray) else value)
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

    def room(self, bodies: int) -> None:
        """Scratch rows for ``bodies`` bodies and last frame's contacts (``find_contacts``)."""
        if len(self.order) < len(self.ci):
            self.order = np.zeros(len(self.ci), dtype=np.int64)
        if len(self.boxes) < bodies:
            self.boxes, self.trig = np.zeros((2 * bodies, 4)), np.zeros((2 * bodies, 2))
        size = 1 << (2 * self.old_n + 2).bit_length()  # a power of two above 2 × the rows
        if len(self.otable) < size:
            self.otable = np.zeros((size, 3), dtype=np.int64)

    def keep_substep(self) -> None:
        """Remember this substep's own contacts (after the frame's) for the next one's."""
        first, n = self.bodies, self.n - self.bodies
        if n == 0:
            self.sub_n = 0
            return
        if len(self.sub_ci) < n:
            self.sub_ci, self.sub_cf = np.zeros_like(self.ci), np.zeros_like(self.cf)
        self.sub_ci[:n], self.sub_cf[:n] = self.ci[first: self.n], self.cf[first: self.n]
        self.sub_n = n


def touching_bodies(world: World) -> dict[tuple[int, int], tuple[float, float, float, float]]:
    """Entity pairs ``(a, b)`` (``a < b``; ``(a, -1)``: a body and the level) a rigid body
    touches at the end of the frame — a contact that pushed in the last substep — where
    either has ``events``: the contact point on ``a`` and the normal from ``a`` to ``b``."""
    st = world.store
    b = st.bodies
    found = world.contacts
    if not b.n or not (b.events.any() or st.particles.events.any()):
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
            watched = b.events[i] or (b.events[j] if j >= 0 else st.particles.events[p])
            if not watched:
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
    """The rigid bodies' contacts of the last frame and substep as island label pairs (a
    body row is ``n + row``, a particle its row): what sleeping links."""
    found = world.contacts
    st = world.store
    n, m = st.particles.n, st.bodies.n
    if not m:
        return np.zeros((0, 2), dtype=np.int64)
    rows = []
    for ci, k in ((found.old_ci, found.old_n), (found.sub_ci, found.sub_n)):
        c = ci[:k]
        ok = (c[:, 0] < m) & ((c[:, 1] >= 0) | (c[:, 2] >= 0)) & (c[:, 1] < m) & (c[:, 2] < n)
        c = c[ok]
        rows.append(np.stack([n + c[:, 0], np.where(c[:, 1] >= 0, n + c[:, 1], c[:, 2])],
                             axis=1))
    return np.concatenate(rows)
