"""``Placed``: what the level editor placed in a level, saved with it so it reopens as made."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Placed:
    """The things the level editor (``ecsgoo.editor``) placed, in the order it built them.

    Per thing: its piece ``kinds[i]``, its field values ``fields[i]`` (a JSON object),
    and how much of the world it made: ``counts[i]`` of the ``entities`` (thing after
    thing), ``lines[i]`` level segments and ``polygons[i]`` level polygons (the last
    ones of the level, in order). A game never reads it; the editor opens the level
    as the rest of the world (its base) plus these things.
    """

    kinds: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    entities: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    polygons: list[int] = field(default_factory=list)
