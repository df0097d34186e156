"""A checked ``Spec`` → a World, with the store's rows in the saved order.

Entities keep their ids (``World._insert_entities``); particles and springs get
their rows through the store's bulk entry points (``Store.add_particles``,
``add_springs``: the ones ``World.add_component`` uses one at a time) with
every saved column as it was, so every bit of the hot state is the saved one;
anchors pin their rows (or make their bodies static), bodies, joints, rings and
shapes are attached in row order. If
anything fails the half-built World is removed from esper.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..columns import PARTICLES, SPRINGS, TableSpec
from ..components import Anchor, AreaConstraint, Fruit, ShapeMatch, Spring
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
    store, p, s = world.store, spec.particles, spec.springs
    _put(parts, p["entity"], store.add_particles(p["entity"], _columns(PARTICLES, p)))
    _bodies(world, spec, parts)
    _riders(world, spec, parts)
    _put(parts, s["entity"], store.add_springs(s["entity"], _columns(SPRINGS, s)))
    _joints(world, spec, parts)
    _tethers(world, spec, parts)
    for e, v in spec.areas:
        _attach(world, parts, e, AreaConstraint(v["particles"], pressure=v["pressure"],
                                                stiffness=v["stiffness"],
                                                rest_area=v["rest_area"],
                                                self_collide=v["self_collide"]))
    for e, v in spec.shapes:
        _attach(world, parts, e, ShapeMatch(v["particles"], alpha=v["alpha"], rest=v["rest"],
                                            outline=v["outline"], scale=v["scale"]))
    world._insert_entities([(e, parts[e]) for e in sorted(parts)])
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
    _asleep(world)
    if spec.next_entity is not None:
        world.next_entity = spec.next_entity


def _columns(table: TableSpec, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A file's arrays by saved key → the store's columns (``x``, ``y`` → ``pos``)."""
    out = {}
    for col in table.columns:
        if col.saved:
            keys = [arrays[key] for key in col.saved]
            out[col.name] = np.column_stack(keys) if col.width else keys[0]
    if "kind" in arrays:
        out["kind"] = arrays["kind"]
    return out


def _put(parts: dict[int, list[Any]], entities: np.ndarray, comps: list[Any]) -> None:
    for e, comp in zip(entities.tolist(), comps, strict=True):
        parts[e].append(comp)


def _attach(world: World, parts: dict[int, list[Any]], entity: int, comp: Any) -> None:
    world.store.attach(entity, comp)
    parts[entity].append(comp)


def _bodies(world: World, spec: Spec, parts: dict[int, list[Any]]) -> None:
    """Bodies in row order, each row the file's: centre of mass, previous pose, force."""
    store = world.store
    for e, v in spec.bodies:
        comp = v["comp"]
        store.add_body(e, comp, prev=v["prev"])
        cols = store.bodies.cols
        cols["force"][comp._slot] = v["force"]
        cols["asleep"][comp._slot], cols["still"][comp._slot] = v["asleep"], v["still"]
        parts[e].append(comp)


def _joints(world: World, spec: Spec, parts: dict[int, list[Any]]) -> None:
    """Joints in row order, with the saved anchors and rest angle (measured if left out)."""
    store = world.store
    for e, v in spec.joints:
        comp = v["comp"]
        store.add_joint(e, comp, local=v["local"], rest_angle=v["rest_angle"])
        cols = store.joints.cols
        cols["broken"][comp._slot], cols["force"][comp._slot] = v["broken"], v["force"]
        cols["impulse"][comp._slot], cols["spin"][comp._slot] = v["impulse"], v["spin"]
        parts[e].append(comp)


def _tethers(world: World, spec: Spec, parts: dict[int, list[Any]]) -> None:
    """Springs with an end on a body, at their saved anchors."""
    store = world.store
    for e, v in spec.tethers:
        comp = Spring(v["a"], v["b"], rest=v["rest"], compliance=v["compliance"],
                      max_stretch=None if math.isinf(v["max_stretch"]) else v["max_stretch"])
        values = {"rest": math.nan if v["rest"] is None else v["rest"],
                  "compliance": v["compliance"], "max_stretch": v["max_stretch"],
                  "stretch": v["stretch"], "broken": v["broken"], "buckled": v["buckled"],
                  "over": v["over"]}
        store.add_tether(e, comp, values, local=((v["ax"], v["ay"]), (v["bx"], v["by"])))
        parts[e].append(comp)


def _riders(world: World, spec: Spec, parts: dict[int, list[Any]]) -> None:
    """Anchors pin their rows (at their point, or where the particle is); fruits only ride.

    The saved columns already hold what attaching would set (fruit sizes, the
    positions), so nothing else is written.
    """
    store = world.store
    riders: list[tuple[int, Any]] = [(e, Anchor() if at is None else Anchor(*at))
                                     for e, at in sorted(spec.anchors.items())]
    riders += [(e, Fruit(kind)) for e, kind in sorted(spec.fruits.items())]
    for e, comp in riders:
        store.bind_rider(e, comp)
        parts[e].append(comp)
    on_particles = [e for e in sorted(spec.anchors) if e in store.pslot]
    rows = np.array([store.pslot[e] for e in on_particles], dtype=np.int64)
    pins = store.particles.cols["pos"][rows]
    for k, e in enumerate(on_particles):
        if spec.anchors[e] is not None:
            pins[k] = spec.anchors[e]
    store.pin(rows, pins)
    for e in sorted(spec.anchors):  # a static body: anchored where it is, at rest
        if e not in store.pslot:
            slot = store.bslot[e]
            if spec.anchors[e] is not None:
                store.bodies.cols["pos"][slot] = spec.anchors[e]
            store.anchor_body(slot)


def _asleep(world: World) -> None:
    """What was asleep is held again (inverse mass 0), and the world rests if all does."""
    st = world.store
    st.particles.w[st.particles.asleep] = 0.0
    b = st.bodies
    b.w[b.asleep] = b.iw[b.asleep] = 0.0
    movable = np.concatenate([~st.particles.pinned & (st.particles.mass < np.inf), ~b.pinned])
    asleep = np.concatenate([st.particles.asleep, b.asleep])
    world.resting = bool(world.sleep and movable.any() and asleep[movable].all())


def _grab(world: World, spec: Spec) -> None:
    g = spec.grab
    if g is None:
        return
    world.grabbed = g["entity"]
    world.grab_target = (g["x"], g["y"])
    world.grab_from = (g["from_x"], g["from_y"])
    world.grab_local = g["local"]
