"""Build the three goo levels in code and save them as TOML (``python -m games.goo.make_levels``).

1 "Going Up": a tower from a base on the ground up to a pipe in the sky.
2 "The Chasm": a bridge from the left cliff across to the right one, whose pipe
  stands beyond a lone anchored ball.
3 "Hanging On": a structure hanging from ceiling anchors down to a pipe near the floor.
The saved files in ``games/goo/levels/`` are hand-editable.
"""

from __future__ import annotations

from collections.abc import Callable

from ecsgoo import Anchor, Particle, Sensor, Spring, World, systems
from ecsgoo.game import write_levels

from .components import Goal, GooBall, GooRulesState
from .game import GooGame
from .rules import GooCrawl, GooRules

#: Goo ball radius (px) and mass. Link stiffness 0.7 (XPBD compliance ≈ 4e-4 px per unit
#: force): a truss sags and sways visibly, and a well-built one still stands.
RADIUS, MASS = 10.0, 1.0
STIFFNESS = 0.7


def pipeline(world: World) -> World:
    """The goo pipeline: the solver, structural analysis, the game's rules, crawling balls."""
    return world.use(systems.Integrate(), systems.Project(), systems.Collide(), systems.Break(),
                     systems.Analyze(), GooRules(), GooCrawl())


def _ball(world: World, x: float, y: float, anchored: bool = False, free: bool = False) -> int:
    comps = [Particle(x, y, mass=MASS, radius=RADIUS), GooBall(free=free)]
    return world.create_entity(*comps, *([Anchor()] if anchored else []))


def _links(world: World, pairs: list[tuple[int, int]]) -> None:
    for a, b in pairs:
        world.create_entity(Spring(a, b, stiffness=STIFFNESS, max_stretch=2.0))


def _world(rules: GooRulesState, goal: Goal) -> World:
    world = World(bounds=(0, 0, 800, 600))
    rules.stiffness, rules.ball_mass, rules.ball_radius = STIFFNESS, MASS, RADIUS
    world.create_entity(rules)
    # the pipe's intake: a ball's disc reaching into the mouth's circle
    world.create_entity(goal, Sensor.circle(goal.x, goal.y, goal.radius))
    return world


def tower() -> World:
    """Level 1: two anchors on the ground and one ball; the pipe hangs from the sky."""
    w = _world(GooRulesState(supply=10, supply_x=90, supply_y=90),
               Goal(520, 490, 40, 520, 600))
    w.add_polygon([(0, 0), (800, 0), (800, 40), (0, 40)])
    a, b = _ball(w, 450, 50, anchored=True), _ball(w, 550, 50, anchored=True)
    top = _ball(w, 500, 137)
    _links(w, [(a, b), (a, top), (b, top)])
    for x in (230, 290, 720):
        _ball(w, x, 50, free=True)
    return pipeline(w)


def bridge() -> World:
    """Level 2: a 300 px chasm; the pipe stands on the right cliff past a lone anchor."""
    w = _world(GooRulesState(supply=12, supply_x=110, supply_y=400),
               Goal(700, 380, 40, 800, 380))
    w.add_polygon([(0, 0), (250, 0), (250, 300), (0, 300)])
    w.add_polygon([(550, 0), (800, 0), (800, 300), (550, 300)])
    a, b = _ball(w, 150, 310, anchored=True), _ball(w, 240, 310, anchored=True)
    top = _ball(w, 195, 388)
    _links(w, [(a, b), (a, top), (b, top)])
    _ball(w, 560, 310, anchored=True)
    for x in (40, 80):
        _ball(w, x, 310, free=True)
    return pipeline(w)


def hanging() -> World:
    """Level 3: anchors under the ceiling; the pipe rises from the floor off to the right."""
    w = _world(GooRulesState(supply=10, supply_x=730, supply_y=90),
               Goal(380, 110, 40, 380, 0))
    w.add_polygon([(0, 520), (800, 520), (800, 600), (0, 600)])
    w.add_polygon([(0, 0), (800, 0), (800, 30), (0, 30)])
    a, b = _ball(w, 500, 510, anchored=True), _ball(w, 600, 510, anchored=True)
    low = _ball(w, 550, 423)
    _links(w, [(a, b), (a, low), (b, low)])
    for x in (120, 180):
        _ball(w, x, 40, free=True)
    return pipeline(w)


BUILDERS: dict[int, Callable[[], World]] = {1: tower, 2: bridge, 3: hanging}


def build(number: int) -> World:
    """Level ``number`` as the game loads it."""
    return BUILDERS[number]()


def main() -> None:
    """Save every level to ``games/goo/levels/<n>.toml``."""
    for path in write_levels(GooGame, build):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
