"""The goo game's pieces for the level editor (``ecsgoo edit goo``): the pipe, a starting
structure (two anchors and a ball linked in a triangle, with crawlers on its links) and
goo balls. The empty level is level 1 emptied (its rules: balls to collect, stars' goals)."""

from __future__ import annotations

from ecsgoo import Anchor, Particle, Sensor, Spring, World, limits
from ecsgoo.editor import Field, Kit, Piece, emptied
from ecsgoo.saving import load

from .components import Goal, GooBall, GooRulesState
from .game import GooGame


def _rules(world: World) -> GooRulesState:
    return world.get_component(GooRulesState)[0][1]


def _ball(world: World, x: float, y: float, free: bool = True, anchored: bool = False) -> int:
    rules = _rules(world)
    comps = [Particle(x, y, mass=rules.ball_mass, radius=rules.ball_radius),
             GooBall(free=free and not anchored)]
    return world.create_entity(*comps, *([Anchor()] if anchored else []))


def _pipe(world: World, x: float, y: float, radius: float, end: list[float],
          suck: float) -> int:
    goal = Goal(x, y, radius, end[0], end[1], suck=suck)
    return world.create_entity(goal, Sensor.circle(x, y, suck))


def _structure(world: World, x: float, y: float, width: float, height: float,
               crawlers: int) -> list[int]:
    """Anchors at ``(x ∓ width/2, y)``, a ball ``height`` above ``(x, y)``, linked; then
    ``crawlers`` free balls spread over the links, alternate ones heading each way."""
    rules = _rules(world)
    a = _ball(world, x - width / 2, y, anchored=True)
    b = _ball(world, x + width / 2, y, anchored=True)
    c = _ball(world, x, y + height, free=False)
    links = [world.create_entity(Spring(p, q, stiffness=rules.stiffness, max_stretch=2.0))
             for p, q in ((a, b), (a, c), (b, c))]
    for k in range(crawlers):
        spring = world.component(links[k % 3], Spring)
        on = len(range(k % 3, crawlers, 3))
        t = (k // 3 + 1) / (on + 1)
        p, q = world.component(spring.a, Particle), world.component(spring.b, Particle)
        world.create_entity(
            Particle(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y), mass=rules.ball_mass,
                     radius=rules.ball_radius, mask=0),
            GooBall(free=True, link=links[k % 3], t=t, heading=1 if k % 2 else -1))
    return links


def _crawling_on(comp: object) -> list[int]:
    """The link a crawler is on: it goes with the structure (its file saves it as a number)."""
    return [comp.link] if isinstance(comp, GooBall) and comp.link else []


KIT = Kit(
    blank=lambda: emptied(load(GooGame.level_file(1))),
    pieces=(
        Piece("goo_pipe", "pipe", _pipe, (
            Field("radius", 40.0, limits.Range(1.0, 1e4), "size", "px"),
            Field("end", [520.0, 600.0], role="point", doc="where the pipe leads (px)"),
            Field("suck", 70.0, limits.Range(1.0, 1e4), "size", "intake radius (px)")),
            group="goo", at=(520.0, 360.0)),
        Piece("goo_structure", "starting structure", _structure, (
            Field("width", 100.0, limits.Range(1.0, 1e4), "size", "between the anchors"),
            Field("height", 87.0, limits.Range(-1e4, 1e4), "size", "to the top ball"),
            Field("crawlers", 8, limits.whole(0, 200), doc="free balls on its links")),
            group="goo", at=(500.0, 50.0)),
        Piece("goo_ball", "goo ball", _ball, (
            Field("free", True, doc="the player may build with it"),
            Field("anchored", False)), group="goo", at=(300.0, 50.0)),
    ),
    links=_crawling_on,
)
