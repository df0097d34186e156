"""The suika game's pieces for the level editor (``ecsgoo edit suika``): the box (two
walls on the floor) and the game-over line. The empty level is level 1 emptied."""

from __future__ import annotations

from ecsgoo import World, limits
from ecsgoo.editor import Field, Kit, Piece, emptied
from ecsgoo.saving import load

from . import rules
from .game import Suika


def _box(world: World, x: float, y: float, width: float) -> None:
    """Walls from the world's edges to ``x ∓ width / 2`` (``y`` is the floor: the world's)."""
    left, right = x - width / 2, x + width / 2
    for x0, x1 in ((0.0, left), (right, rules.WIDTH)):
        world.add_polygon([(x0, 0.0), (x1, 0.0), (x1, rules.HEIGHT), (x0, rules.HEIGHT)])
    st = rules.state(world)
    st.left, st.right, st.aim = left, right, x


def _line(world: World, x: float, y: float) -> int:
    """The game-over line at height ``y`` across the box (``x`` only marks it)."""
    st = rules.state(world)
    rules.rules_of(world).line_y = y
    return world.create_entity(rules.line_sensor_for(y, st.left, st.right), rules.OverLine())


KIT = Kit(
    blank=lambda: emptied(load(Suika.level_file(1))),
    pieces=(
        Piece("suika_box", "box", _box, (
            Field("width", 420.0, limits.Range(40.0, 1e4), "size", "inside, px"),),
            group="suika", at=(560.0, 0.0)),
        Piece("suika_line", "game-over line", _line, group="suika", at=(560.0, 560.0)),
    ))
