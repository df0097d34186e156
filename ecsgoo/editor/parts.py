"""What an opened level already holds, as things the editor selects: ``Part``.

A level file that the editor did not make (a bundled level, a level a script built) has
no record of pieces: its content is entities and level geometry. The editor splits that
content into **parts**: each group of entities that hold one another (a rope's particles,
springs and the candy it is tied to; a jelly ball's ring and its pressure), each level
segment and each level polygon. A part is moved, turned, copied and deleted in the
level's base world itself (``move_parts``, ``delete_parts``, ``copy_parts``), so an
opened level left as it was keeps every id and bit, and saves as the same file.

Content is what ``emptied`` takes away: the entities holding a particle, body, spring,
joint, area or shape constraint or sensor, and the entities whose components point at
them (``register_component(..., refs=...)``: rope's ropes).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..components import Particle, Spring
from ..rigid import RigidBody
from ..saving.builtins import BUILTINS
from ..saving.fields import references
from ..saving.registry import component_codec
from ..sensors import Sensor
from ..world import World

#: The component types that make an entity part of a level's content, not its state.
CONTENT = ("Particle", "RigidBody", "Spring", "Joint", "AreaConstraint", "ShapeMatch",
           "Sensor")
#: A point map, px → px.
Where = Callable[[float, float], tuple[float, float]]

_REFS = {b.cls: tuple(col.name for col in references(b.table)) for b in BUILTINS if b.table}


@dataclass(frozen=True)
class Part:
    """One part of an opened level: its entities (ascending), or one level segment or
    polygon (an index into ``world.level.lines`` / ``polygons``)."""

    entities: tuple[int, ...] = ()
    lines: tuple[int, ...] = ()
    polygons: tuple[int, ...] = ()
    #: What it holds, for the panel: ``"rope_candy, 11 particles, 11 springs"``.
    title: str = ""


def is_content(world: World, entity: int) -> bool:
    """Whether ``entity`` holds a particle, body, link, constraint, joint or sensor."""
    return any(type(c).__name__ in CONTENT for c in world.components_for_entity(entity))


def links(world: World, entity: int) -> list[int]:
    """The entities ``entity``'s components point at (a sensor's ``on``; its ``inside``,
    which is what overlaps it now, is not a link)."""
    out: list[int] = []
    for comp in world.components_for_entity(entity):
        names = _REFS.get(type(comp))
        if isinstance(comp, Sensor):
            out += [] if comp.on is None else [int(comp.on)]  # what it follows, not holds
        elif names is not None:
            for name in names:
                value = getattr(comp, name)
                out += [int(v) for v in (value if isinstance(value, Iterable) else [value])]
        elif not isinstance(comp, Sensor):
            codec = component_codec(type(comp))
            if codec is not None:
                out += [e for _, e in codec.references(comp)]
    return out


def content(world: World) -> set[int]:
    """Every content entity and every entity pointing at one (see the module)."""
    core = {e for e in world.entities() if is_content(world, e)}
    return core | {e for e in world.entities() if e not in core
                   and any(r in core for r in links(world, e))}


def find_parts(world: World, hubs: Iterable[str] = (),
               more: Callable[[Any], list[int]] | None = None) -> list[Part]:
    """``world``'s content as parts: the linked groups of entities (by their first id),
    then each level segment, then each level polygon.

    A game's kit shapes the groups as its player sees them (``Kit.hubs``, ``Kit.links``):
    an entity holding a component saved under one of ``hubs`` (rope's candy) is a part of
    its own, and a link to it joins nothing (each rope tied to the candy is a part); ``more``
    gives a game component's links its file does not declare (goo's crawler on a link)."""
    hubs = set(hubs)
    members = content(world)
    hub = {e for e in members if any(_saved_name(c) in hubs
                                     for c in world.components_for_entity(e))}
    root = {e: e for e in members}

    def find(e: int) -> int:
        while root[e] != e:
            root[e] = root[root[e]]
            e = root[e]
        return e

    for e in sorted(members):
        extra = [r for c in world.components_for_entity(e) for r in more(c)] if more else []
        for r in links(world, e) + extra:
            if r in root and e not in hub and r not in hub:
                a, b = find(e), find(r)
                root[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for e in sorted(members):
        groups.setdefault(find(e), []).append(e)
    parts = [Part(entities=tuple(g), title=_title(world, g)) for _, g in sorted(groups.items())]
    parts += [Part(lines=(i,), title="level segment") for i in range(len(world.level.lines))]
    parts += [Part(polygons=(i,), title="level polygon")
              for i in range(len(world.level.polygons))]
    return parts


def _saved_name(comp: Any) -> str | None:
    """The name a game component is saved under (None: not one of a game's)."""
    codec = component_codec(type(comp))
    return codec.name if codec is not None else None


def _title(world: World, entities: list[int]) -> str:
    """What a group of entities holds, the game's own first: ``"rope_candy, rope_rope:
    12 particles, 11 springs, anchor"``."""
    from ..saving.builtins import builtin_of

    own: Counter[str] = Counter()
    builtin: Counter[str] = Counter()
    for e in entities:
        for comp in world.components_for_entity(e):
            b = builtin_of(comp)
            codec = component_codec(type(comp))
            if b is not None or isinstance(comp, Sensor):
                builtin[b.name if b is not None else "sensor"] += 1
            else:
                own[codec.name if codec is not None else type(comp).__name__] += 1

    def said(names: Counter[str]) -> str:
        return ", ".join(f"{n} {name}s" if n > 1 else name for name, n in names.most_common())

    return f"{said(own)}: {said(builtin)}" if own else said(builtin)


def entity_points(world: World, entity: int) -> list[tuple[float, float, float]]:
    """Points ``(x, y, r)`` an entity covers (px): a particle's disc, a body's outline,
    a sensor's bounds, a game component's position (``radius`` if it has one)."""
    out: list[tuple[float, float, float]] = []
    for comp in world.components_for_entity(entity):
        if isinstance(comp, Particle):
            out.append((comp.x, comp.y, comp.radius))
        elif isinstance(comp, RigidBody):
            r = float(comp.size[0]) if comp.shape == "circle" else 0.0
            out += [(float(px), float(py), r) for verts in comp.outline()
                    for px, py in verts.reshape(-1, 2)]
        elif isinstance(comp, Sensor):
            out += sensor_corners(world, comp)
        elif hasattr(comp, "x") and hasattr(comp, "y") and type(comp).__name__ not in (
                "Joint", "Anchor"):
            r = getattr(comp, "radius", 10.0)
            out.append((float(comp.x), float(comp.y),
                        float(r) if isinstance(r, int | float) else 10.0))
    return out


def sensor_corners(world: World, sensor: Sensor) -> list[tuple[float, float, float]]:
    """A sensor's bounding corners in the world (one on a body or particle: placed in its
    frame)."""
    x0, y0, x1, y1 = sensor.bounds()
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if sensor.on is None:
        return [(x, y, 0.0) for x, y in corners]
    host = world.try_component(sensor.on, RigidBody) or world.try_component(sensor.on,
                                                                              Particle)
    if host is None:
        return []
    angle = float(getattr(host, "angle", 0.0))
    c, s = math.cos(angle), math.sin(angle)
    return [(host.x + c * x - s * y, host.y + s * x + c * y, 0.0) for x, y in corners]


def part_points(world: World, part: Part) -> list[tuple[float, float, float]]:
    """Points ``(x, y, r)`` that a part covers (px): particles' discs, bodies' outlines,
    sensors' bounds, game components' positions, its segment's or polygon's points."""
    out: list[tuple[float, float, float]] = []
    for e in part.entities:
        out += entity_points(world, e)
    for i in part.lines:
        x0, y0, x1, y1 = world.level.lines[i]
        out += [(x0, y0, 0.0), (x1, y1, 0.0)]
    for i in part.polygons:
        out += [(x, y, 0.0) for x, y in world.level.polygons[i]]
    return out


# -- changing parts in a base world ----------------------------------------------------------

def move_parts(world: World, parts: Iterable[Part], where: Where, angle: float = 0.0) -> None:
    """Apply the point map ``where`` (a move, or a turn by ``angle`` rad) to ``parts`` in
    place: positions, pins, body angles, velocities, sensors, game components' ``x, y``
    (and ``NAME_x, NAME_y`` pairs), level segments and polygons."""
    c, s = math.cos(angle), math.sin(angle)
    level = world.level
    parts = list(parts)
    moved = {e for part in parts for e in part.entities}
    for part in parts:
        for e in part.entities:
            for comp in world.components_for_entity(e):
                _move_component(comp, where, c, s, angle)
    if moved:  # a link from a moved part to one left (a rope's tie to the candy) ...
        for _, link in world.get_component(Spring):
            if (link.a in moved) != (link.b in moved):
                link.rest = _distance(world, link.a, link.b)  # ... reaches it, no pull
        for i in part.lines:
            x0, y0, x1, y1 = level.lines[i]
            level.lines[i] = (*where(x0, y0), *where(x1, y1))
        for i in part.polygons:
            level.polygons[i] = [where(x, y) for x, y in level.polygons[i]]
    level._arrays = None


def _distance(world: World, a: int, b: int) -> float:
    pa, pb = world.component(a, Particle), world.component(b, Particle)
    return math.hypot(pb.x - pa.x, pb.y - pa.y)


def _move_component(comp: Any, where: Where, c: float, s: float, angle: float) -> None:
    if isinstance(comp, Particle | RigidBody):
        vx, vy = comp.vx, comp.vy
        comp.x, comp.y = where(comp.x, comp.y)
        if angle:
            comp.vx, comp.vy = c * vx - s * vy, s * vx + c * vy
            if isinstance(comp, RigidBody):
                comp.angle = comp.angle + angle
    elif isinstance(comp, Sensor):
        if comp.on is None:  # (one on a body or particle is in its frame: it follows)
            comp.x, comp.y = where(comp.x, comp.y)
            comp.points = [list(where(x, y)) for x, y in comp.points]
    elif component_codec(type(comp)) is not None:
        for ax, ay in _pairs(comp):
            x, y = where(getattr(comp, ax), getattr(comp, ay))
            setattr(comp, ax, float(x))
            setattr(comp, ay, float(y))


def _pairs(comp: Any) -> list[tuple[str, str]]:
    """A game component's coordinate fields: ``x, y`` and ``NAME_x, NAME_y``."""
    names = [n for n in vars(comp) if not n.startswith("_")]
    out = []
    for n in names:
        if n == "x" or n.endswith("_x"):
            other = n[:-1] + "y"
            if other in names and all(isinstance(getattr(comp, k), int | float)
                                      and not isinstance(getattr(comp, k), bool)
                                      for k in (n, other)):
                out.append((n, other))
    return out


def delete_parts(world: World, parts: Iterable[Part]) -> None:
    """Remove ``parts`` from ``world``: their entities and their level geometry."""
    parts = list(parts)
    for e in sorted({e for p in parts for e in p.entities}):
        if world.entity_exists(e):
            world.delete_entity(e)
    level = world.level
    level.fit_surfaces()
    for i in sorted({i for p in parts for i in p.lines}, reverse=True):
        del level.lines[i], level.line_surfaces[i]
    for i in sorted({i for p in parts for i in p.polygons}, reverse=True):
        del level.polygons[i], level.poly_surfaces[i]
    level._arrays = None


def copy_parts(world: World, parts: list[Part], where: Where) -> tuple[World, list[Part]]:
    """A new world: ``world`` with a copy of each of ``parts`` added, moved by ``where``
    (new ids from ``world.next_entity``; links within a part point at its copy). Returns
    it and the copies, in the order of ``parts``. ``world`` is left as it was."""
    from ..saving.build import build
    from ..saving.read import read
    from ..saving.write import document

    doc = document(world, compact=False, source=SOURCE)
    doc.get("world", {}).pop("next_entity", None)
    olds = sorted({e for p in parts for e in p.entities})
    new = {e: world.next_entity + k for k, e in enumerate(olds)}
    tables = {t["id"]: t for t in doc.get("entity", [])}
    doc.setdefault("entity", []).extend(_renumbered(tables[e], new) for e in olds
                                        if e in tables)
    for order in doc.get("rows", {}).values():
        order += [new[e] for e in list(order) if e in new]
    out = build(read(doc, SOURCE))
    level, old = out.level, world.level
    old.fit_surfaces()
    level.fit_surfaces()
    copies = []
    for p in parts:
        lines = tuple(range(len(level.lines), len(level.lines) + len(p.lines)))
        level.lines += [old.lines[i] for i in p.lines]
        level.line_surfaces += [old.line_surfaces[i] for i in p.lines]
        polys = tuple(range(len(level.polygons), len(level.polygons) + len(p.polygons)))
        level.polygons += [list(old.polygons[i]) for i in p.polygons]
        level.poly_surfaces += [old.poly_surfaces[i] for i in p.polygons]
        copies.append(Part(tuple(new[e] for e in p.entities), lines, polys, p.title))
    move_parts(out, copies, where)
    return out, copies


#: How the editor's base worlds name themselves in errors.
SOURCE = "<level being edited>"


def _renumbered(table: dict[str, Any], new: dict[int, int]) -> dict[str, Any]:
    """An entity's file table with its id and its links renumbered by ``new`` (a sensor
    starts empty: what is inside it is found again)."""
    from ..saving.builtins import BY_NAME
    from ..saving.registry import COMPONENTS

    out: dict[str, Any] = {"id": new[table["id"]]}
    for name, value in table.items():
        if name == "id":
            continue
        value = dict(value) if isinstance(value, dict) else value
        builtin = BY_NAME.get(name)
        if builtin is not None and builtin.table is not None:
            keys = [k for col in references(builtin.table) for k in col.saved]
        else:
            codec = COMPONENTS.get(name)
            keys = (["on"] if name == "sensor" else [] if codec is None
                    else list(codec.refs))  # a sensor follows its entity's copy
        for key in keys:
            if key in value:
                v = value[key]
                value[key] = [new.get(x, x) for x in v] if isinstance(v, list) else new.get(v, v)
        if name == "sensor":
            value["inside"] = []
        out[name] = value
    return out
