"""A checked ``Spec`` → a World, with the store's rows in the saved order.

Entities keep their ids (``World._insert_entities``); particles, springs,
rings and shapes are attached in row order, then their saved columns are
written over what attaching computed, so every bit of the hot state is the
saved one. If anything fails the half-built World is removed from esper.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..components import Anchor, AreaConstraint, Fruit, Particle, ShapeMatch, Spring
from ..errors import WorldFileError
from ..world import World
from .read import Spec
from .schema import REFUSED


def build(spec: Spec) -> World:
    """A new World from ``spec``; raises WorldFileError and leaves nothing behind on failure."""
    try:
        world = World(**spec.settings)
    except REFUSED as exc:  # WorldError is a ValueError
        raise WorldFileError(f"{spec.source}: [world]: {exc}") from exc
    try:
        _fill(world, spec)
    except WorldFileError:
        world.close()
        raise
    except REFUSED as exc:
        world.close()
        raise WorldFileError(f"{spec.source}: {exc}") from exc
    except BaseException:
        world.close()
        raise
    return world


def _fill(world: World, spec: Spec) -> None:
    parts = {e: list(comps) for e, comps in spec.entities.items()}
    particles = _new_particles(spec)
    springs = _new_springs(spec)
    riders, bodies = _add_parts(spec, parts, particles, springs)
    world._insert_entities([(e, parts[e]) for e in sorted(parts)])
    store = world.store
    _attach_particles(world, spec, particles)
    for entity, comp in riders:
        store.attach(entity, comp)
    _particle_columns(world, spec)
    _attach_springs(world, spec, springs)
    for entity, comp in bodies:
        store.attach(entity, comp)
    store.prepare()
    for seg in spec.segments:
        world.add_segment(seg[:2], seg[2:])
    for poly in spec.polygons:
        world.add_polygon(poly)
    world.frame = spec.frame
    world.use(*spec.stages)
    for resource in spec.resources:
        world.add_resource(resource)
    _grab(world, spec)
    if spec.next_entity is not None:
        world.next_entity = spec.next_entity


def _bound(cls: type, values: dict[str, Any]) -> Any:
    """A component object as its constructor makes it, from checked values (no re-checks).

    Loading 40,000 components through the checking constructors costs ~0.9 s; the
    file was checked already (``read``), so build them the way ``store.copy`` does.
    """
    comp = object.__new__(cls)
    comp.__dict__.update(_table=None, _slot=-1, _entity=-1, _vals=values)
    return comp


def _new_particles(spec: Spec) -> list[Particle]:
    p = spec.particles
    keys = ("x", "y", "mass", "radius", "group", "friction", "restitution")
    rows = zip(*(p[k].tolist() for k in keys), strict=True)
    return [_bound(Particle, {"x": x, "y": y, "vx": 0.0, "vy": 0.0, "mass": mass,
                              "radius": radius, "group": group, "friction": friction,
                              "restitution": restitution})
            for x, y, mass, radius, group, friction, restitution in rows]


def _new_springs(spec: Spec) -> list[Spring]:
    s = spec.springs
    keys = ("a", "b", "rest", "compliance", "max_stretch", "stretch", "broken", "buckled",
            "over")
    rows = zip(*(s[k].tolist() for k in keys), strict=True)
    return [_bound(Spring, {"a": a, "b": b, "rest": rest, "compliance": compliance,
                            "max_stretch": None if ms == np.inf else ms, "stretch": stretch,
                            "broken": broken, "buckled": buckled, "over": over})
            for a, b, rest, compliance, ms, stretch, broken, buckled, over in rows]


def _add_parts(spec: Spec, parts: dict[int, list[Any]], particles: list[Particle],
               springs: list[Spring]) -> tuple[list[tuple[int, Any]], list[tuple[int, Any]]]:
    """Put every component on its entity; return the ones the store attaches one by one.

    ``riders`` (anchors, fruits) are attached after the particles, ``bodies``
    (areas, shapes) after the springs, each as ``(entity, component)``.
    """
    for e, comp in zip(spec.particles["entity"].tolist(), particles, strict=True):
        parts[e].append(comp)
    for e, comp in zip(spec.springs["entity"].tolist(), springs, strict=True):
        parts[e].append(comp)
    riders: list[tuple[int, Any]] = []
    for e, at in sorted(spec.anchors.items()):
        riders.append((e, Anchor() if at is None else Anchor(*at)))
    for e, kind in sorted(spec.fruits.items()):
        riders.append((e, Fruit(kind)))
    bodies: list[tuple[int, Any]] = []
    for e, v in spec.areas:
        bodies.append((e, AreaConstraint(v["particles"], pressure=v["pressure"],
                                         stiffness=v["stiffness"], rest_area=v["rest_area"])))
    for e, v in spec.shapes:
        bodies.append((e, ShapeMatch(v["particles"], alpha=v["alpha"], rest=v["rest"],
                                     outline=v["outline"])))
    for e, comp in riders + bodies:
        parts[e].append(comp)
    return riders, bodies


def _attach_particles(world: World, spec: Spec, particles: list[Particle]) -> None:
    """Give every particle its row at once (what ``Store.attach`` does one by one)."""
    store, p = world.store, spec.particles
    table = store.particles
    pos = np.column_stack([p["x"], p["y"]])
    first = table.extend(particles, {"pos": pos, "prev": pos, "pin": pos, "kind": -1,
                                     "entity": p["entity"]})
    for comp, entity in zip(particles, p["entity"].tolist(), strict=True):
        comp._table = table
        comp._entity = entity
    store.pslot.update(zip(p["entity"].tolist(), range(first, first + len(particles)),
                           strict=True))
    store._csr_dirty = True


def _attach_springs(world: World, spec: Spec, springs: list[Spring]) -> None:
    """Give every spring its row at once, its ends as particle rows, in saved order."""
    store, s = world.store, spec.springs
    ia = np.array([store.pslot[e] for e in s["a"].tolist()], dtype=np.int64)
    ib = np.array([store.pslot[e] for e in s["b"].tolist()], dtype=np.int64)
    pos = store.particles.cols["pos"]
    rest = np.where(s["rest"] < 0, np.hypot(*(pos[ib] - pos[ia]).T), s["rest"])
    values = {k: s[k] for k in ("compliance", "max_stretch", "stretch", "broken", "buckled",
                                "over", "entity")}
    store.springs.extend(springs, {**values, "a": ia, "b": ib, "rest": rest})
    for comp, entity, r in zip(springs, s["entity"].tolist(), rest.tolist(), strict=True):
        comp._table = store.springs
        comp._entity = entity
        comp._vals["rest"] = r


def _particle_columns(world: World, spec: Spec) -> None:
    """The saved particle state, over what attaching computed (anchors, fruit sizes)."""
    p, c, n = spec.particles, world.store.particles.cols, world.store.particles.n
    pos = np.column_stack([p["x"], p["y"]])
    c["pos"][:n] = pos
    c["prev"][:n] = np.column_stack([p["px"], p["py"]])
    c["force"][:n] = np.column_stack([p["fx"], p["fy"]])
    for key in ("mass", "radius", "group", "friction", "restitution"):
        c[key][:n] = p[key]
    pinned = c["pinned"][:n]
    pin = pos.copy()
    for entity, at in spec.anchors.items():
        if at is not None:
            pin[world.store.pslot[entity]] = at
    c["pin"][:n] = pin
    with np.errstate(divide="ignore"):
        c["w"][:n] = np.where(pinned, 0.0, 1.0 / p["mass"])


def _grab(world: World, spec: Spec) -> None:
    g = spec.grab
    if g is None:
        return
    world.grabbed = g["entity"]
    world.grab_target = (g["x"], g["y"])
    world.grab_from = (g["from_x"], g["from_y"])
