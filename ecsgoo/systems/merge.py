"""Merge: touching fruits of the same kind become one fruit of the next kind, chains included.

Reads: particle pos, prev, pin (spawn point), mass, radius, kind, entity, group, friction,
restitution; ``world.contact_slop``.
Writes: deletes the two merged fruit entities and creates the new fruit; the ``Score``
resource.
Events: ``fruits_merged(world, event)`` for each merge (event: ``FruitsMerged``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import fruit, limits
from ..components import Fruit, Particle
from ..kernels.merge import (
    merge_pairs,
    nothing_then_record,
    nothing_to_merge,
    record,
    start_positions,
)
from ..limits import FIELDS
from .pipeline import Stage, living_particles, register_stage

if TYPE_CHECKING:
    from ..world import World

_RANGES = FIELDS["Particle"]


@dataclass
class Score:
    """The running score of the merges (a world resource; Merge adds to ``value``)."""

    value: int = 0


@dataclass(frozen=True)
class FruitsMerged:
    """One merge, as dispatched with ``fruits_merged(world, event)``.

    ``kind``: the kind of the two fruits that merged; ``entity``: the new fruit
    (of kind ``kind + 1``), or ``None`` when two of the largest kind vanished;
    ``x, y``: their mass-weighted centre (px), where the new fruit is;
    ``score``: points scored (``fruit.SCORES[kind]``); ``merged``: the two
    deleted entities, older first.
    """

    entity: int | None
    kind: int
    x: float
    y: float
    score: int
    merged: tuple[int, int]


@register_stage
class Merge(Stage):
    """Two touching ``Fruit`` particles of one kind become one fruit of the next kind.

    They touch when their centres are at most ``r1 + r2 + world.contact_slop``
    apart. The new fruit sits at the pair's mass-weighted centre and moves with
    the pair's momentum over the pair's mass (the mass-weighted mean velocity);
    its own mass follows its kind. It keeps the older fruit's group, friction
    and restitution. Passes repeat until nothing merges, so chain reactions
    resolve within the frame; in one pass a fruit merges at most once. Two of
    the largest kind vanish and score. Fruits spawned touching a same-kind fruit
    merge even if Collide pushed them apart during the frame (see ``merge_spawned``).
    """

    name = "merge"

    def __init__(self) -> None:
        self._record: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def clone(self) -> Merge:
        """A copy that remembers where the fruits were, so a cloned world merges the same."""
        twin = Merge()
        # a copy: the usual frame writes the record in place (``nothing_then_record``)
        twin._record = None if self._record is None else tuple(a.copy() for a in self._record)
        return twin

    def save_state(self, world: World) -> dict[str, Any]:
        """Where each living particle was at the last run (saved with the world, for replays)."""
        if self._record is None:
            return {}
        seen_pos, seen, was_fruit = self._record
        ids = living_particles(world, np.flatnonzero(seen))
        return {"entities": ids.tolist(), "x": seen_pos[ids, 0].tolist(),
                "y": seen_pos[ids, 1].tolist(), "fruit": was_fruit[ids].tolist()}

    def load_state(self, state: dict[str, Any]) -> None:
        """Restore what ``save_state`` wrote."""
        if not state:
            self._record = None
            return
        if set(state) != {"entities", "x", "y", "fruit"}:
            raise ValueError("the state holds entities, x, y and fruit (lists of one length)")
        ids = limits.entity_ids("Merge", "entities", state["entities"])
        xs, ys = (np.array(limits.check_all("Particle", k, _list(state, k)), dtype=np.float64)
                  for k in ("x", "y"))
        fruits = _list(state, "fruit")
        if not all(type(v) is bool for v in fruits):
            raise ValueError("fruit must hold true or false")
        fruits = np.array(fruits, dtype=np.bool_)
        if not len(ids) == len(xs) == len(ys) == len(fruits):
            raise ValueError("entities, x, y and fruit must be lists of one length")
        if len(np.unique(ids)) != len(ids):
            raise ValueError("entities lists an entity twice")
        top = int(ids.max()) + 1 if len(ids) else 0
        seen_pos, seen, was_fruit = np.zeros((top, 2)), _bools(top), _bools(top)
        seen_pos[ids, 0], seen_pos[ids, 1] = xs, ys
        seen[ids], was_fruit[ids] = True, fruits
        self._record = (seen_pos, seen, was_fruit)

    def process(self, world: World) -> None:
        p = world.store.particles
        c = p.cols  # whole columns (the kernels read ``p.n`` rows): no views made a frame
        # most frames merge nothing: one kernel says so (the same pairs the passes find)
        # and records where everything is into the last frame's arrays (1), or cannot (2)
        if self._record is None:
            code = 2 if nothing_to_merge(p.n, c["pos"], c["pin"], c["radius"], c["kind"],
                                         c["entity"], world.contact_slop, *_NOT_SEEN) else 0
        else:
            code = nothing_then_record(p.n, c["pos"], c["pin"], c["radius"], c["kind"],
                                       c["entity"], world.contact_slop, *self._record)
        if code == 1:
            return
        if code == 0:
            self.merge_spawned(world)
            while self.merge_once(world):
                pass
            p = world.store.particles
        self._record = record(p.n, p.pos, p.kind, p.entity)

    def merge_spawned(self, world: World) -> int:
        """Merge fruits new since the last run that touched a same-kind fruit when the frame began.

        A fruit spawned overlapping another is pushed apart by Collide before this
        stage runs; the frame began with them touching, so they merge. Positions
        at the start of the frame are those this stage recorded at its previous
        run, or the spawn point for particles created since. Returns how many merged.
        """
        p = world.store.particles
        seen_pos, seen, was_fruit = self._record or _NOT_SEEN
        start, fresh, count = start_positions(p.n, p.pos, p.pin, p.kind, p.entity, seen_pos,
                                              seen, was_fruit)
        if count == 0:
            return 0
        first, second = merge_pairs(p.n, start, p.radius, p.kind, p.entity, world.contact_slop,
                                    fresh)
        return self._merge(world, first, second)

    def merge_once(self, world: World) -> int:
        """One pass: merge every pair found touching now; return how many merged."""
        p = world.store.particles
        first, second = merge_pairs(p.n, p.pos, p.radius, p.kind, p.entity, world.contact_slop,
                                    np.ones(p.n, np.bool_))
        return self._merge(world, first, second)

    def _merge(self, world: World, first: np.ndarray, second: np.ndarray) -> int:
        """Replace each pair (particle rows) by its merged fruit; events and score."""
        if len(first) == 0:
            return 0
        plans = _plans(world.store.particles, first, second, world.h)
        score = world.resource(Score)
        if score is None:
            score = world.add_resource(Score())
        for e1, e2, kind, x, y, vx, vy, group, friction, restitution in plans:
            if not (_is_fruit(world, e1) and _is_fruit(world, e2)):
                continue  # an earlier handler in this pass removed it
            world.delete_entity(e1)
            world.delete_entity(e2)
            new = None
            if kind < fruit.LARGEST:
                # a pair flung past the limits the API guards makes a fruit at their edge
                x, y = _RANGES["x"].clamp(x), _RANGES["y"].clamp(y)
                vx, vy = _RANGES["vx"].clamp(vx), _RANGES["vy"].clamp(vy)
                new = world.create_entity(
                    Particle(x, y, mass=fruit.mass(kind + 1), radius=fruit.RADII[kind + 1],
                             group=group, friction=friction, restitution=restitution,
                             vx=vx, vy=vy),
                    Fruit(kind + 1))
            points = fruit.SCORES[kind]
            score.value += points
            world.dispatch("fruits_merged", world,
                           FruitsMerged(new, kind, x, y, points, (e1, e2)))
        return len(plans)


def _plans(p: Any, first: np.ndarray, second: np.ndarray, h: float) -> list[tuple[Any, ...]]:
    """What each merge creates, read from the particle table ``p`` before any row moves:
    the two entities, the kind, the centre of mass and its velocity (px, px/s), and the
    first's group, friction and restitution. In Python floats, a pair at a time (a
    merge frame holds one or two: numpy's calls on rows of one cost ~45 µs a frame), the
    arithmetic in numpy's order, so the same bits."""
    c = p.cols
    pos, prev, mass, entity = c["pos"], c["prev"], c["mass"], c["entity"]
    kind, group, friction, restitution = c["kind"], c["group"], c["friction"], c["restitution"]
    plans = []
    for i, j in zip(first.tolist(), second.tolist(), strict=True):
        m1, m2 = float(mass[i]), float(mass[j])
        (x1, y1), (x2, y2) = pos[i].tolist(), pos[j].tolist()
        (u1, v1), (u2, v2) = prev[i].tolist(), prev[j].tolist()
        total = m1 + m2
        cx, cy = (m1 * x1 + m2 * x2) / total, (m1 * y1 + m2 * y2) / total
        px, py = m1 * (x1 - u1) + m2 * (x2 - u2), m1 * (y1 - v1) + m2 * (y2 - v2)
        plans.append((int(entity[i]), int(entity[j]), int(kind[i]), cx, cy, px / total / h,
                      py / total / h, int(group[i]), float(friction[i]),
                      float(restitution[i])))
    return plans


def _is_fruit(world: World, entity: int) -> bool:
    return world.entity_exists(entity) and world.has_component(entity, Fruit)


def _list(state: dict[str, Any], key: str) -> list[Any]:
    """``state[key]`` if it is a list, else ValueError naming the key."""
    if not isinstance(state[key], list):
        raise ValueError(f"{key} must be a list")
    return state[key]


def _bools(size: int = 0) -> np.ndarray:
    return np.zeros(size, np.bool_)


#: No record yet (a fresh stage): nothing seen, every fruit is new.
_NOT_SEEN = (np.zeros((0, 2)), _bools(), _bools())
