"""The rope game's pieces for the level editor (``ecsgoo edit rope``): the candy, ropes
from a pin to it, stars, hooks and Om Nom. The empty level is level 1 emptied (its board
and damping)."""

from __future__ import annotations

from ecsgoo import World, WorldError, limits
from ecsgoo.editor import Field, Kit, Piece, emptied
from ecsgoo.saving import load

from .build import add_candy, add_hook, add_monster, add_star
from .game import RopeGame
from .rules import candy_of
from .tie import add_rope


def _rope(world: World, x: float, y: float) -> int:
    candy = candy_of(world)
    if candy is None:
        raise WorldError("rope_rope: field x: a rope ties its pin to the candy; place the "
                         "candy first")
    return add_rope(world, (x, y), candy)


KIT = Kit(
    blank=lambda: emptied(load(RopeGame.level_file(1))),
    pieces=(
        Piece("rope_candy", "candy", add_candy, group="rope", at=(220.0, 430.0)),
        Piece("rope_rope", "rope (pin → candy)", _rope, group="rope", at=(400.0, 520.0)),
        Piece("rope_star", "star", add_star, group="rope", at=(400.0, 320.0)),
        Piece("rope_hook", "hook", add_hook, (
            Field("reach", 70.0, limits.Range(1.0, 1e4), "size", "px"),), group="rope"),
        Piece("rope_monster", "Om Nom", add_monster, group="rope", at=(650.0, 100.0)),
    ),
    hubs=("rope_candy",),  # each rope of the candy is a part of its own, as the player sees
)
