"""The world being edited, kept in step with the editor's state: ``Live``.

A state is the level's base (a world file's text) and its things (each a piece's kind
and its fields as JSON). ``Live.build`` makes the world of a state from nothing: the
base, then each thing's ``make`` in order, then the kit's ``finish``. ``Live.update``
gets there from the state it holds by remaking only what an operation changed: the
things that differ, and every thing from the first changed one on whose piece
``reads`` the world (a rope tied to what lies at its end, a hinge on the bodies under
it) with all after it, so each thing is made seeing what the full build shows it. A
move of one thing in a level of 2,000 remakes that one thing.

The live world's entity ids and store rows follow the edits made (a remade thing gets
new ids); ``Editor.text`` and ``Editor.save`` build the state in full, so the file of
a state is always the same bytes. A thing is checked as it is made: its fields by its
piece, and what it made by the loader's own checks (``check_made``), so a value a file
could not hold is refused when it is set, not when the level is saved.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from .. import limits, saving
from ..errors import WorldError, WorldFileError
from ..world import World
from .parts import SOURCE, Part, entity_points, find_parts, part_points
from .pieces import Kit, Piece

#: How many base worlds (by their text) are kept to copy from: undo and redo find theirs.
BASES_KEPT = 8
#: A level being edited: its base's text and its things ``(kind, fields as JSON)``.
State = tuple[str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class Built:
    """What one thing made in the built world: its entities, level segments and polygons
    (indices into ``world.level.lines`` / ``polygons``) and its bounding box (px)."""

    entities: tuple[int, ...]
    lines: tuple[int, ...]
    polygons: tuple[int, ...]
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class _Made:
    """A thing as made: its entities, its segments and polygons (values), its box."""

    entities: tuple[int, ...]
    lines: tuple[tuple[float, ...], ...]
    polygons: tuple[Any, ...]
    box: tuple[float, float, float, float]
    #: Each segment's and polygon's surface (``level.Surface``).
    surfaces: tuple[tuple[Any, ...], tuple[Any, ...]] = ((), ())


class Live:
    """The world of the editor's current state (``world``), what each part of the base
    and each thing made (``parts``, ``built``), rebuilt or updated (see the module)."""

    def __init__(self, pieces: dict[str, Piece], kit: Kit, stages: Sequence[Any]) -> None:
        self.pieces, self.kit, self.stages = pieces, kit, tuple(stages)
        self.world: World | None = None
        self.state: State | None = None
        self.parts: list[Part] = []
        self.built: list[Built] = []
        #: Whether ``world`` was built in full for ``state`` (its ids are the file's).
        self.pristine = False
        self._made: list[_Made] = []
        #: The base's segments and polygons and their surfaces.
        self._base_geometry: tuple[list[Any], ...] = ([], [], [], [])
        self._part_built: list[Built] = []
        self._bases: dict[str, World] = {}
        self._parts_of: dict[str, list[Part]] = {}  # the kept bases' parts
        #: Each thing's ``Built`` and where its geometry starts (lines, polygons).
        self._things_built: list[Built] = []
        self._starts: list[tuple[int, int]] = []

    # -- building ------------------------------------------------------------------------

    def build(self, state: State, check: bool = True) -> None:
        """Make ``state``'s world from nothing; WorldError leaves everything as it was
        (``check=False``: its things are not checked one by one, as a file's that loaded)."""
        world, parts, geometry, made = self.full(state, check)
        old = self.world
        self.world, self.state, self.parts, self._made = world, state, parts, made
        self._things_built, self._starts = [], []
        self._base_geometry, self.pristine = geometry, True
        self._part_built = [Built(p.entities, p.lines, p.polygons,
                                  box_of(part_points(world, p), *_first_point(world, p)))
                            for p in parts]
        self.built = self._built()
        if old is not None:
            old.close()

    def full(self, state: State, check: bool = True, measure: bool = True) -> tuple[
            World, list[Part], tuple[list[Any], list[Any]], list[_Made]]:
        """A new world of ``state``: it, its base's parts and geometry, its things as made
        (``check=False``: not checked thing by thing, for a save that checks it whole;
        ``measure=False``: nor their boxes found)."""
        base, things = state
        world = self.base_world(base)
        try:
            world.use(*copy.deepcopy(self.stages))
            parts = self._parts_of.get(base)
            if parts is None:
                parts = self._parts_of[base] = find_parts(world, self.kit.hubs,
                                                           self.kit.links)
            level = world.level
            level.fit_surfaces()
            geometry = (list(level.lines), list(level.polygons), list(level.line_surfaces),
                        list(level.poly_surfaces))
            made = [self._make(world, k, kind, fields, check, measure) for k, (kind, fields) in
                    enumerate(things)]
            _assemble(world, geometry, made)
            if self.kit.finish is not None:
                self.kit.finish(world)
        except BaseException:
            world.close()
            raise
        return world, parts, geometry, made

    def base_world(self, text: str) -> World:
        """A new world of the base ``text`` (yours to change and close): a copy of the one
        loaded when the text was last seen (the last few are kept), else loaded."""
        world = self._bases.pop(text, None)
        if world is None:
            world = saving.loads(text, SOURCE)
        self._bases[text] = world
        while len(self._bases) > BASES_KEPT:
            gone = next(iter(self._bases))
            self._bases.pop(gone).close()
            self._parts_of.pop(gone, None)
        return world.clone()

    def close(self) -> None:
        """Close the live world and the kept bases."""
        for world in [self.world, *self._bases.values()]:
            if world is not None:
                world.close()
        self._bases.clear()
        self.world = None

    def update(self, state: State) -> None:
        """Go from the state held to ``state``, remaking only what changed (a new base:
        everything). WorldError: the state held is built again and kept."""
        if self.world is None or self.state is None or state[0] != self.state[0]:
            self.build(state)
            return
        old = self.state
        try:
            self._step(old[1], state[1])
        except _Lost:
            self._rebuild(state, old)
            return
        except BaseException:
            self.build(old)
            raise
        self.state, self.pristine = state, False

    def _rebuild(self, state: State, old: State) -> None:
        """Build ``state`` in full after a step could not (back to ``old`` if it fails)."""
        try:
            self.build(state)
        except BaseException:
            self.build(old)
            raise

    def _step(self, old: Sequence[tuple[str, str]], new: Sequence[tuple[str, str]]) -> None:
        """Remake what differs between the things ``old`` and ``new`` (see the module)."""
        world = self.world
        keep = _kept(old, new)
        first = next((i for i in range(len(new)) if keep.get(i) != i), len(new))
        reader = next((i for i in range(first, len(new))
                       if self.pieces[new[i][0]].reads), len(new))
        kept = {i: keep[i] for i in range(min(reader, len(new))) if i in keep}
        used = set(kept.values())
        gone = [e for k in range(len(old)) if k not in used for e in self._made[k].entities
                if world.entity_exists(e)]
        count = len(world.entities())
        for e in gone:
            if world.entity_exists(e):  # (one may have taken another with it)
                world.delete_entity(e)
        if len(world.entities()) != count - len(gone):
            raise _Lost  # a kept thing's entity went with a removed one (a link to it)
        made = [self._made[kept[i]] if i in kept else self._make(world, i, *new[i])
                for i in range(len(new))]
        before, self._made = self._made, made
        _assemble(world, self._base_geometry, made)
        if self.kit.finish is not None:
            self.kit.finish(world)
        self.built = self._built(before)

    def _make(self, world: World, k: int, kind: str, fields: str, check: bool = True,
              measure: bool = True) -> _Made:
        """Thing ``k`` made into ``world``, checked and measured (``check``, ``measure``
        False: not); its geometry taken back out (the caller puts every thing's in order)."""
        values = json.loads(fields)
        piece = self.pieces[kind]
        first = world.next_entity
        level = world.level
        nl, np_ = len(level.lines), len(level.polygons)
        try:
            piece.make(world, **values)
        except (WorldError, ValueError) as exc:
            raise WorldError(f"{kind} (thing {k}): {exc}") from None
        ents = tuple(e for e in range(first, world.next_entity) if world.entity_exists(e))
        level.fit_surfaces()
        lines, polys = tuple(level.lines[nl:]), tuple(level.polygons[np_:])
        surfaces = (tuple(level.line_surfaces[nl:]), tuple(level.poly_surfaces[np_:]))
        del level.lines[nl:], level.polygons[np_:]
        del level.line_surfaces[nl:], level.poly_surfaces[np_:]
        level._arrays = None
        if not measure:
            return _Made(ents, lines, polys, (0.0, 0.0, 0.0, 0.0), surfaces)
        if check:
            check_made(world, ents, lines, polys)
        points = [p for e in ents for p in entity_points(world, e)]
        points += [(v[0], v[1], 0.0) for f in piece.fields if f.role == "point"
                   for v in [values[f.name]]]
        points += [(x, y, 0.0) for seg in lines for x, y in (seg[:2], seg[2:])]
        points += [(x, y, 0.0) for poly in polys for x, y in poly]
        return _Made(ents, lines, polys, box_of(points, values["x"], values["y"]), surfaces)

    def _built(self, old: Sequence[_Made] = ()) -> list[Built]:
        """Each part's and each thing's ``Built``, with its geometry's indices. Things
        ``old`` held at the same place at the start and at the end keep their ``Built``
        (at the end, if their geometry still starts where it did): an edit of one thing of
        2,000 makes one ``Built``, not 2,000."""
        made, n = self._made, len(self._made)
        olds, starts = self._things_built, self._starts
        p = 0
        while p < min(n, len(old)) and made[p] is old[p]:
            p += 1
        s = 0
        while s < min(n, len(old)) - p and made[n - 1 - s] is old[len(old) - 1 - s]:
            s += 1
        if p < len(starts):
            nl, np_ = starts[p]
        elif p:  # every old thing kept at the start: after the last one's geometry
            nl, np_ = starts[p - 1][0] + len(old[p - 1].lines), \
                starts[p - 1][1] + len(old[p - 1].polygons)
        else:
            nl, np_ = len(self._base_geometry[0]), len(self._base_geometry[1])
        things, at = olds[:p], starts[:p]
        for m in made[p:n - s]:
            at.append((nl, np_))
            things.append(Built(m.entities, tuple(range(nl, nl + len(m.lines))),
                                tuple(range(np_, np_ + len(m.polygons))), m.box))
            nl, np_ = nl + len(m.lines), np_ + len(m.polygons)
        tail = len(old) - s
        if s and starts[tail] == (nl, np_):  # the end's geometry starts where it did
            things += olds[tail:]
            at += starts[tail:]
        else:
            for m in made[n - s:]:
                at.append((nl, np_))
                things.append(Built(m.entities, tuple(range(nl, nl + len(m.lines))),
                                    tuple(range(np_, np_ + len(m.polygons))), m.box))
                nl, np_ = nl + len(m.lines), np_ + len(m.polygons)
        self._things_built, self._starts = things, at
        return self._part_built + things

    def made_counts(self) -> list[tuple[tuple[int, ...], int, int]]:
        """Each thing's entities and how many segments and polygons it made."""
        return [(m.entities, len(m.lines), len(m.polygons)) for m in self._made]


class _Lost(Exception):
    """A step cannot keep a thing: build the state in full."""


def _first_point(world: World, part: Part) -> tuple[float, float]:
    pts = part_points(world, part)
    return (pts[0][0], pts[0][1]) if pts else (0.0, 0.0)


def _assemble(world: World, base: tuple[list[Any], ...], made: Sequence[_Made]) -> None:
    """The level geometry in thing order, with its surfaces: the base's, then each
    thing's."""
    level = world.level
    level.lines = list(base[0]) + [seg for m in made for seg in m.lines]
    level.polygons = list(base[1]) + [poly for m in made for poly in m.polygons]
    level.line_surfaces = list(base[2]) + [sf for m in made for sf in m.surfaces[0]]
    level.poly_surfaces = list(base[3]) + [sf for m in made for sf in m.surfaces[1]]
    level._arrays = None


def _kept(old: Sequence[Any], new: Sequence[Any]) -> dict[int, int]:
    """Which new things are old ones unchanged: ``{new index: old index}`` (the same
    start and end, and what matches in between)."""
    n0, n1 = len(old), len(new)
    p = 0
    while p < min(n0, n1) and old[p] == new[p]:
        p += 1
    s = 0
    while s < min(n0, n1) - p and old[n0 - 1 - s] == new[n1 - 1 - s]:
        s += 1
    keep = {i: i for i in range(p)}
    keep.update({n1 - s + j: n0 - s + j for j in range(s)})
    matcher = SequenceMatcher(None, old[p:n0 - s], new[p:n1 - s], autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        keep.update({p + b + j: p + a + j for j in range(size)})
    return keep


# -- what a thing covers, and its checks -------------------------------------------------------

def box_of(points: Sequence[tuple[float, float, float]], x: float,
           y: float) -> tuple[float, float, float, float]:
    """The box around ``(x, y)`` and discs ``(px, py, r)``: ``(x0, y0, x1, y1)`` px."""
    xs = [x, *(p[0] - p[2] for p in points), *(p[0] + p[2] for p in points)]
    ys = [y, *(p[1] - p[2] for p in points), *(p[1] + p[2] for p in points)]
    return min(xs), min(ys), max(xs), max(ys)


def check_made(world: World, entities: Sequence[int], lines: Sequence[Any],
               polygons: Sequence[Any]) -> None:
    """What a thing made, through the loader's checks of its file tables (every field's
    range, as ``ecsgoo.save`` checks a world), and its geometry's coordinates; WorldError
    naming the entity and the field."""
    from ..saving.read import Spec, _entity
    from ..saving.schema import Where
    from ..saving.write import _entities

    top = Where(SOURCE, "top level")
    spec = Spec(SOURCE, {"dt": world.dt, "substeps": world.substeps})
    try:
        tables = _entities(world, {e: _named(world, e, top) for e in entities}, False,
                           Where(SOURCE, "world"))
        for k, table in enumerate(tables):
            _entity(table, k, spec, top)
        for values in [*lines, *(c for poly in polygons for c in poly)]:
            for v in values:
                limits.COORD.check(v, "level", "points")
    except WorldFileError as exc:
        raise WorldError(str(exc).replace(f"{SOURCE}: ", "")) from None


def _named(world: World, entity: int, where: Any) -> list[tuple[str, Any]]:
    """An entity's saved components by their file names, in the file's order."""
    from ..saving.builtins import builtin_of
    from ..saving.registry import component_codec
    from ..saving.write import _order

    named = []
    for comp in world.components_for_entity(entity):
        b = builtin_of(comp)
        if b is not None:
            named.append((b.name, comp))
            continue
        codec = component_codec(type(comp))
        if codec is None:
            where.at(f"entity {entity}").fail(f"component type {type(comp).__qualname__} "
                                              "is not registered")
        if codec.saved:
            named.append((codec.name, comp))
    return sorted(named, key=_order)
