"""The playground's pieces for the level editor (``ecsgoo edit jelly``): its jelly balls
(with shape memory), stackable boxes and their pyramid, crates, the challenges' goals (a
crate pyramid to topple, a basket) and the seesaw. The framework's ropes and chains are the
playground's. After building, every spring takes the playground's stiffness."""

from __future__ import annotations

from ecsgoo import World, limits
from ecsgoo.editor import Field, Kit, Piece, emptied
from ecsgoo.rigid import RigidBody
from ecsgoo.saving import load

from . import build
from .basket import basket
from .challenge import Topple
from .game import JellyGame
from .rules import STIFFNESS_DEFAULT, set_stiffness

_SIDE = limits.Range(4.0, 1e3)


def _pyramid(world: World, x: float, y: float, layers: int, side: float) -> None:
    """``build.pyramid`` standing on ``y`` (px) instead of the ground."""
    for layer in range(layers):
        count = layers - layer
        for k in range(count):
            build.shaped_box(world, x + (k - (count - 1) / 2) * (side + build.BOX_GAP),
                             y + side / 2 + layer * (side + 0.5), side)


def _topple(world: World, x: float, y: float, base: int, needed: int, flings: int) -> int:
    crates = build.crate_pyramid(world, x, base)
    return world.create_entity(Topple(crates, [world.component(c, RigidBody).y
                                               for c in crates], flings, needed))


KIT = Kit(
    blank=lambda: emptied(load(JellyGame.level_file(1))),
    finish=lambda world: set_stiffness(world, STIFFNESS_DEFAULT),
    pieces=(
        Piece("jelly_ball", "jelly ball", lambda w, x, y, radius: build.ball(w, x, y, radius),
              (Field("radius", 40.0, limits.Range(8.0, 200.0), "size", "px"),),
              group="jelly", at=(110.0, 55.0)),
        Piece("jelly_box", "jelly box", lambda w, x, y, side: build.shaped_box(w, x, y, side),
              (Field("side", build.BOX_SIDE, _SIDE, "size", "px"),), group="jelly"),
        Piece("jelly_pyramid", "box pyramid", _pyramid, (
            Field("layers", 4, limits.whole(1, 12)),
            Field("side", build.BOX_SIDE, _SIDE, "size", "px")),
            group="jelly", at=(590.0, 0.0)),
        Piece("jelly_crate", "crate", lambda w, x, y, side, angle: build.crate(w, x, y, side,
                                                                            angle), (
            Field("side", build.CRATE_SIDE, _SIDE, "size", "px"),
            Field("angle", 0.0, ("RigidBody", "angle"), "angle")), group="jelly"),
        Piece("jelly_topple", "goal: crate pyramid to topple", _topple, (
            Field("base", 4, limits.whole(1, 10)),
            Field("needed", 4, limits.whole(1, 55), doc="crates to knock down"),
            Field("flings", 3, limits.whole(1, 100))), group="jelly", at=(610.0, 0.0)),
        Piece("jelly_basket", "goal: basket", lambda w, x, y: basket(
            w, x, y, line=build.BASKET_LINE), group="jelly", at=(620.0, 330.0)),
        Piece("jelly_seesaw", "seesaw", lambda w, x, y, length: build.seesaw(w, x, length),
              (Field("length", 300.0, limits.Range(40.0, 2e3), "size", "px"),),
              group="jelly", at=(250.0, 0.0)),
    ))
