"""What the rope rules and the environment read of a world each frame, found again only
when the world's structure changes.

The board, the candy, the ropes (their pins', nodes' and links' rows in the packed
tables), the stars, the hooks and Om Nom change only when a component is added or
removed, and rows move only then too (a Rope's lists change only as the game adds or
deletes their entities: ``tie``, ``rules._eat``). esper hands back the same cached list from
``get_component`` until a component is added or removed anywhere in the world, and the
tables count their rows added and removed (``version``): ``IndexFinder.of`` compares
those (O(1) Python) and looks everything up again only when one differs. What a frame
changes (broken links, positions, a star taken) is read live from the index's
components and columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np

from ecsgoo import Particle, Sensor

from .components import Board, Candy, Hook, Monster, Rope, Star

_NONE = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class RopeRows:
    """One Rope component and the rows of its entities: ``pin`` in the particles, ``nodes``
    (``rope.nodes[1:]``) in the particles, ``links`` (``rope.springs``) in the springs;
    -1 where the entity has no row (deleted). ``linked``: it has links, each with a row
    (it holds the candy while none of them is broken)."""

    entity: int
    rope: Rope
    pin: int
    nodes: np.ndarray
    links: np.ndarray
    linked: bool


@dataclass(frozen=True)
class RopeIndex:
    """A world's rope-game things as found at one structure (see the module docstring).

    ``candies``: ``(entity, Particle)`` of each candy with a particle; ``candy``: the
    first Candy's entity (``None`` once eaten), ``candy_row`` its particle row (-1
    without one) and ``candy_particle`` its Particle (``None`` without one); ``ropes``:
    in esper's order (the cut pieces' rows follow it), ``by_entity``: the same sorted by
    entity, their links' rows one after another in ``links``, each rope's at
    ``links[start:stop]`` of its ``spans`` ``(rope, start, stop)``; ``stars`` and
    ``mouths``: ``(entity, component, its Sensor or None)`` in esper's order
    (``stars_by_entity``: the Star components sorted by entity);
    ``monster``: the first Om Nom (``None`` without one). ``pos``, ``prev``, ``mass``,
    ``pinned``: the particles' columns, ``broken``: the springs', as ``world.particles``
    and ``world.springs`` view them (live, read-only): valid as long as the index, since
    a table's arrays and row count change only as rows come and go (a view costs ~1 µs
    to ask for, a frame asks for six)."""

    board: Board | None
    candies: list[tuple[int, Particle]]
    candy: int | None
    candy_row: int
    candy_particle: Particle | None
    ropes: list[RopeRows]
    by_entity: list[RopeRows]
    links: np.ndarray
    spans: list[tuple[RopeRows, int, int]]
    stars: list[tuple[int, Star, Sensor | None]]
    stars_by_entity: list[Star]
    hooks: list[tuple[int, Hook]]
    mouths: list[tuple[int, Monster, Sensor | None]]
    pos: np.ndarray
    prev: np.ndarray
    mass: np.ndarray
    pinned: np.ndarray
    broken: np.ndarray

    @property
    def monster(self) -> Monster | None:
        """The first Om Nom."""
        return self.mouths[0][1] if self.mouths else None

    def holding(self) -> list[int]:
        """Entities of the Rope components still holding the candy (no link cut, none
        deleted), by id: ``rules.holding`` read from the index."""
        if self.candy is None:
            return []
        cut = self.broken[self.links].tolist()  # one look for all the ropes
        return [r.entity for r, start, stop in self.spans
                if r.linked and not any(cut[start:stop])]


class IndexFinder:
    """A world's ``RopeIndex``, made again only when its structure changes.

    A cache: a copy of it (``copy.deepcopy`` of an environment) starts empty.
    """

    def __init__(self) -> None:
        self._ropes: list[tuple[int, Rope]] | None = None  # the Rope list it was made at
        self._tables: tuple[Any, Any] = ()  # that world's particle and spring views
        self._versions = (-1, -1)  # and their versions then
        self._index: RopeIndex | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> IndexFinder:
        return IndexFinder()

    def of(self, world: Any) -> RopeIndex:
        """The index of ``world`` as it is now."""
        ropes = world.get_component(Rope)  # the same list until a component comes or goes
        # (a list of this world's: another world, a clone or a loaded one, has its own, so
        # the same list is the same world, and the views kept are its own)
        if ropes is self._ropes:
            parts, springs = self._tables
            if parts.version == self._versions[0] and springs.version == self._versions[1]:
                return self._index  # type: ignore[return-value]
        self._index = _index(world, ropes)
        parts, springs = world.particles, world.springs
        self._ropes, self._tables = ropes, (parts, springs)
        self._versions = (parts.version, springs.version)
        return self._index


def _index(world: Any, ropes: list[tuple[int, Rope]]) -> RopeIndex:
    """Look everything up (the index of ``world`` now)."""
    parts, springs = world.particles, world.springs
    particle, spring = _row_finder(parts.entity), _row_finder(springs.entity)
    rows = []
    for e, r in ropes:
        links = np.array([spring(s) for s in r.springs], dtype=np.int64)
        rows.append(RopeRows(e, r, particle(r.pin),
                             np.array([particle(n) for n in r.nodes[1:]], dtype=np.int64),
                             links, bool(len(links) and links.min() >= 0)))
    by_entity = sorted(rows, key=lambda r: r.entity)
    starts = np.cumsum([0, *(len(r.links) for r in by_entity)])
    boards = world.get_component(Board)
    candies = world.get_component(Candy)
    candy = candies[0][0] if candies else None
    sensors = dict(world.get_component(Sensor))
    return RopeIndex(
        board=boards[0][1] if boards else None,
        candies=[(e, p) for e, (_, p) in world.get_components(Candy, Particle)],
        candy=candy, candy_row=-1 if candy is None else particle(candy),
        candy_particle=None if candy is None else world.try_component(candy, Particle),
        ropes=rows,
        by_entity=by_entity, links=np.concatenate([_NONE, *(r.links for r in by_entity)]),
        spans=list(zip(by_entity, starts[:-1].tolist(), starts[1:].tolist(), strict=True)),
        stars=[(e, s, sensors.get(e)) for e, s in world.get_component(Star)],
        stars_by_entity=[s for _, s in sorted(world.get_component(Star), key=itemgetter(0))],
        hooks=list(world.get_component(Hook)),
        mouths=[(e, m, sensors.get(e)) for e, m in world.get_component(Monster)],
        pos=parts.pos, prev=parts.prev, mass=parts.mass, pinned=parts.pinned,
        broken=springs.broken)


def _row_finder(entities: np.ndarray) -> Any:
    """``row(entity)``: the row of ``entity`` in a table whose entity column is
    ``entities``, -1 if it has none."""
    rows = {e: k for k, e in enumerate(entities.tolist())}
    return lambda entity: rows.get(int(entity), -1)

