"""A level's base as the editor holds it: the text of the world its things are built on.

``split`` turns an opened world into its base's text and the things the editor placed in
it (its ``Placed`` record); ``base_text`` writes a base; ``state_objects`` are the game's
state a level holds (what ``Editor.level_fields`` shows); ``unmet`` says what a stage of
the level's pipeline still needs.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .. import saving
from ..errors import WorldError
from ..game import SavedGame
from ..saving.placed import Placed
from ..saving.registry import component_codec
from ..world import World
from .parts import is_content
from .pieces import Piece


def unmet(world: World) -> str | None:
    """What a stage of the level's pipeline needs and the level lacks (said as a message)."""
    from ..saving.registry import missing

    for stage in world.pipeline:
        what = missing(world, getattr(stage, "requires", ()))
        if what is not None:
            return f"its {stage.name} stage needs {what}"
    return None


def state_objects(world: World) -> list[tuple[str, Any]]:
    """The game's state a level holds: registered resources and dataclass components of
    entities that are not level content (goo's rules, rope's board), by saved name."""
    from ..saving.registry import resource_codec

    out = []
    for kind, obj in world.resources.items():
        codec = resource_codec(kind)
        if codec is not None and codec.saved and kind not in (Placed, SavedGame):
            out.append((codec.name, obj))
    for e in world.entities():
        comps = world.components_for_entity(e)
        if is_content(world, e):
            continue
        for comp in comps:
            codec = component_codec(type(comp))
            if codec is not None and codec.saved and not codec.refs:  # not links to content
                out.append((codec.name, comp))
    return out


def split(world: World, pieces: dict[str, Piece]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A world as the editor holds it: its base's text and its things (from ``Placed``)."""
    placed = world.resource(Placed)
    things: tuple[tuple[str, str], ...] = ()
    if placed is not None:
        unknown = [k for k in placed.kinds if k not in pieces]
        if unknown:
            raise WorldError(f"editor_placed: no piece {unknown[0]!r} in this game's editor")
        things = tuple((kind, _upgraded(pieces[kind], fields))
                       for kind, fields in zip(placed.kinds, placed.fields, strict=True))
        for e in placed.entities:
            if world.entity_exists(e):
                world.delete_entity(e)
        lines, polys = sum(placed.lines), sum(placed.polygons)
        if lines:
            del world.level.lines[-lines:]
        if polys:
            del world.level.polygons[-polys:]
        world.level._arrays = None
        del world.resources[Placed]
    world.resources.pop(SavedGame, None)
    text = base_text(world)
    world.close()
    return text, things


def base_text(world: World) -> str:
    """A base world's text, ids counted on from its last entity (so a reopened level builds
    its things with the ids they were saved with)."""
    return re.sub(r"^next_entity = \d+\n", "", saving.dumps(world), count=1, flags=re.M)


def _upgraded(piece: Piece, fields: str) -> str:
    """A thing's fields (JSON) as its piece has them now (``Piece.upgrade``)."""
    if piece.upgrade is None:
        return fields
    values = json.loads(fields)
    new = piece.upgrade(values)
    return fields if new == values else json.dumps(new, sort_keys=True, separators=(",", ":"))
