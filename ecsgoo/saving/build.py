"""A checked ``Spec`` → a World, with the store's rows in the saved order.

Entities keep their ids (``World._insert_entities``); every built-in table gets
its rows through the store's bulk entry point its column spec names
(``TableSpec.add``: ``Store.add_particles``, ``add_springs``, ``add_bodies``…,
the ones attaching uses too) with every saved column as it was, so every bit
of the hot state is the saved one; anchors pin their rows (or make their bodies
static). If anything fails the half-built World is removed from esper.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import derived, sleeping
from ..columns import TableSpec
from ..components import Anchor, Fruit
from ..errors import WorldFileError
from ..world import World
from .builtins import BUILTINS
from .read import Rows, Spec
from .registry import missing
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
    for b in BUILTINS:  # in attach order: riders once their hosts have rows
        if b.name in spec.tables:
            _add(world, spec.tables[b.name], parts)
        elif b.name == "anchor":
            _riders(world, spec, parts)
    world._insert_entities([(e, parts[e]) for e in sorted(parts)])
    world.store.prepare()
    for seg, (mu, e, layer) in zip(spec.segments, spec.segment_surfaces, strict=True):
        # as saved: nothing wakes
        world.level.add_segment(seg[:2], seg[2:], friction=mu, restitution=e, layer=layer)
    for poly, (mu, e, layer) in zip(spec.polygons, spec.polygon_surfaces, strict=True):
        world.level.add_polygon(poly, friction=mu, restitution=e, layer=layer)
    world.frame = spec.frame
    world.use(*spec.stages)
    for resource in spec.resources:
        world.add_resource(resource)
    _grab(world, spec)
    _asleep(world)
    if spec.next_entity is not None:
        world.next_entity = spec.next_entity
    _requirements(world, spec)


def _add(world: World, rows: Rows, parts: dict[int, list[Any]]) -> None:
    """One table's rows, through the store's bulk entry point (``TableSpec.add``)."""
    table = rows.builtin.table
    entities = rows.arrays["entity"]
    if not len(entities):
        return
    add = getattr(world.store, table.add)
    comps = add(entities, _columns(table, rows.arrays), rows.owners)
    for e, comp in zip(entities.tolist(), comps, strict=True):
        parts[e].append(comp)


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


def _requirements(world: World, spec: Spec) -> None:
    """Every stage finds what it ``requires`` (a game's state), or the file is refused."""
    for k, stage in enumerate(spec.stages):
        what = missing(world, getattr(stage, "requires", ()))
        if what is not None:
            raise WorldFileError(f"{spec.source}: pipeline stage {k + 1} ({stage.name}): "
                                 f"needs {what}, which this file does not hold")


def _asleep(world: World) -> None:
    """The world rests if everything that can move was saved asleep; what sleeps knows
    the island it fell asleep with (``sleeping.name_naps``)."""
    sleeping.name_naps(world)
    world.resting = derived.resting(world)


def _grab(world: World, spec: Spec) -> None:
    g = spec.grab
    if g is None:
        return
    world.grabbed = g["entity"]
    world.grab_target = (g["x"], g["y"])
    world.grab_from = (g["from_x"], g["from_y"])
    world.grab_local = g["local"]
