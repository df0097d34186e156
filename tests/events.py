"""Recording a world's events in tests: what was dispatched, in order, with its arguments."""

from __future__ import annotations

from typing import Any

from ecsgoo import World, dumps, loads


def record(world: World, **labels: str) -> list[tuple[Any, ...]]:
    """Log every dispatch of the named events as ``(label, *args)``, e.g.
    ``record(w, sensor_entered="in", sensor_left="out")``."""
    log: list[tuple[Any, ...]] = []
    for name, label in labels.items():
        world.set_handler(name, lambda *args, label=label: log.append((label, *args)))
    return log


def continued(world: World, log: list, frames: int, **labels: str) -> tuple[list, list]:
    """Save and load ``world``, step both ``frames``: the events each dispatched meanwhile."""
    twin = loads(dumps(world))
    twin_log = record(twin, **labels)
    before = len(log)
    world.step(frames)
    twin.step(frames)
    return log[before:], twin_log


def saved_without_sensors(world: World) -> World:
    """``world`` as a file from before sensors were saved holds it: its ``sensor = …``
    lines dropped, then loaded (a game must put its regions back when it adopts one)."""
    text = "\n".join(line for line in dumps(world).splitlines()
                     if not line.startswith("sensor = "))
    return loads(text)
