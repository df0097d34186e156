"""Build the seven goo levels in code and save them as TOML (``python -m games.goo.make_levels``).

Every level starts with a small anchored structure and free goo balls
crawling on its links; the player builds with them and the pipe must suck in
``required`` of them.

1 "Going Up" (tutorial): a short tower from the ground up to a pipe.
2 "The Chasm": a bridge from the left cliff to a lone anchor on the right one;
  the pipe stands beyond it. A sagging chain does not reach.
3 "Overhang": out from a cliff over a pit to a pipe under a rock shelf: a
  cantilever that must carry its own weight and its crawlers.
4 "Hanging On": down from ceiling anchors to a pipe near the floor, every
  crawler hanging on the links.
5 "Windy Peak": a tall tower in a wind that pushes everything to the left.
6 "Up, Up and Away": level 3's overhang with soft links: without balloons the arm droops
  out of the pipe's reach, so five balloons float by the cliff, to be tied to it to hold
  it up (placing a balloon counts as placing a ball); an arm of eight goo balls held up
  by three balloons earns every star (the builder bot's).
7 "Second Thoughts": a tower of green ivy goo leans the wrong way, off to the left, and
  the crawlers are too few to build to the pipe on the right: the ivy is picked off the
  tower and placed again toward the pipe.
Each level's stars: one for the win, one for collecting ``more``, one for
placing at most ``most`` balls (World of Goo's "OCD" goals). A ball placed is one
the pipe cannot collect, so ``more`` is kept below the free balls less ``most``:
the second star asks for a thrifty build, the third for a lean one. The goals are
what a careful build gets: level 2's bridge sags under its crawlers (nine balls for the
builder bot, eight for a straight one).
The saved files in ``games/goo/levels/`` are hand-editable.
"""

from __future__ import annotations

from collections.abc import Callable

from ecsgoo import Anchor, Particle, Sensor, Spring, World, systems
from ecsgoo.game import write_levels

from .components import Goal, GooBall, GooRulesState
from .crawl import GooCrawl
from .game import GooGame
from .pipe import GooPipe
from .rules import GooRules

#: Goo ball radius (px) and mass. Link stiffness 0.7 (XPBD compliance ≈ 4e-4 px per unit
#: force): a truss sags and sways visibly, and a well-built one still stands.
RADIUS, MASS = 10.0, 1.0
STIFFNESS = 0.7
#: The stiffer links of the overhang (1: as stiff as the solver allows): with 0.7 a
#: one-triangle-deep arm droops out of the pipe's reach.
STIFF = 1.0
#: The windy tower's links: with 0.7 the builder's tower bends away from the pipe in the
#: wind (it stands in calm air); 0.85 holds.
WINDY = 0.85
#: Level 5's wind (px/s², to the left): at -350 a tower one triangle wide folds as the
#: crawlers climb it, which players could not see coming; at -280 it sways, and the
#: level's tip says what holds (two triangles side by side at the bottom).
WIND = -280.0
#: Balloons: lighter and larger than a goo ball; a placed one pulls up with LIFT
#: (mass·px/s²): it holds up (LIFT - BALLOON_MASS·g) / g ≈ 2.6 goo balls. At 2000 (1.5
#: balls) level 6's arm of eight goo balls drooped out of the pipe's reach however the
#: five balloons were tied (by hand, and the builder bot took nine: no second star).
BALLOON_MASS, BALLOON_RADIUS, LIFT = 0.5, 12.0, 3000.0


def pipeline(world: World) -> World:
    """The goo pipeline: the solver, structural analysis, the game's rules, the pipe, crawlers."""
    return world.use(systems.Integrate(), systems.Project(), systems.Collide(), systems.Break(),
                     systems.Analyze(), GooRules(), GooPipe(), GooCrawl())


def _ball(world: World, x: float, y: float, anchored: bool = False, free: bool = False,
          kind: str = "common") -> int:
    comps = [Particle(x, y, mass=MASS, radius=RADIUS), GooBall(free=free, kind=kind)]
    return world.create_entity(*comps, *([Anchor()] if anchored else []))


def _balloons(world: World, spots: list[tuple[float, float]]) -> None:
    """Free balloons floating at ``spots`` (px), waiting to be tied on."""
    for x, y in spots:
        world.create_entity(Particle(x, y, mass=BALLOON_MASS, radius=BALLOON_RADIUS),
                            GooBall(free=True, kind="balloon"))


def _links(world: World, pairs: list[tuple[int, int]]) -> list[int]:
    stiffness = world.get_component(GooRulesState)[0][1].stiffness
    return [world.create_entity(Spring(a, b, stiffness=stiffness, max_stretch=2.0))
            for a, b in pairs]


def _crawlers(world: World, links: list[int], count: int) -> None:
    """``count`` free balls on ``links``, evenly spaced along each, alternate ones heading
    each way."""
    for k in range(count):
        spring = world.component(links[k % len(links)], Spring)
        on = len(range(k % len(links), count, len(links)))  # balls on this link
        t = (k // len(links) + 1) / (on + 1)
        a, b = world.component(spring.a, Particle), world.component(spring.b, Particle)
        x, y = a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)
        world.create_entity(Particle(x, y, mass=MASS, radius=RADIUS, mask=0),
                            GooBall(free=True, link=links[k % len(links)], t=t,
                                    heading=1 if k % 2 else -1))


def _lying(world: World, xs: list[float], y: float) -> None:
    """Free balls lying on the ground at ``xs`` (their centres at height ``y``): they walk
    to the structure and climb on."""
    for x in xs:
        _ball(world, x, y, free=True)


def _world(rules: GooRulesState, goal: Goal, stiffness: float = STIFFNESS) -> World:
    """A level's world: its rules (no supply: every ball crawls on the level) and its pipe;
    ``stiffness`` of every link (the base's and the player's)."""
    # a finished structure sleeps; crawlers, new balls, wind and drags keep it awake
    world = World(bounds=(0, 0, 800, 600), sleep=True)
    rules.supply, rules.stiffness = 0, stiffness
    rules.ball_mass, rules.ball_radius = MASS, RADIUS
    world.create_entity(rules)
    # the pipe's intake: balls within ``suck`` of the mouth (discs reaching in)
    world.create_entity(goal, Sensor.circle(goal.x, goal.y, goal.suck))
    return world


def _base(world: World, a: tuple[float, float], b: tuple[float, float],
          c: tuple[float, float]) -> list[int]:
    """Anchors at ``a`` and ``b`` and a ball at ``c``, linked in a triangle: its links."""
    ea, eb = _ball(world, *a, anchored=True), _ball(world, *b, anchored=True)
    ec = _ball(world, *c)
    return _links(world, [(ea, eb), (ea, ec), (eb, ec)])


def tower() -> World:
    """Level 1 (tutorial): two anchors on the ground, a triangle, a pipe not far above."""
    w = _world(GooRulesState(required=4, more=6, most=4), Goal(520, 360, 40, 520, 600, suck=70))
    w.add_polygon([(0, 0), (800, 0), (800, 40), (0, 40)])
    links = _base(w, (450, 50), (550, 50), (500, 137))
    _crawlers(w, links, 8)
    _lying(w, [300, 330, 680], 50)
    return pipeline(w)


def bridge() -> World:
    """Level 2: a 300 px chasm; the pipe stands on the right cliff past a lone anchor."""
    w = _world(GooRulesState(required=3, more=4, most=8), Goal(700, 380, 40, 800, 380, suck=70))
    w.add_polygon([(0, 0), (250, 0), (250, 300), (0, 300)])
    w.add_polygon([(550, 0), (800, 0), (800, 300), (550, 300)])
    links = _base(w, (150, 310), (240, 310), (195, 388))
    _ball(w, 560, 310, anchored=True)
    _crawlers(w, links, 9)
    _lying(w, [30, 60, 90, 120], 310)
    return pipeline(w)


def overhang() -> World:
    """Level 3: out from a cliff over a pit to a pipe hanging under a rock shelf."""
    w = _world(GooRulesState(required=6, more=7, most=6), Goal(510, 440, 40, 510, 520, suck=70),
               STIFF)
    w.add_polygon([(0, 0), (230, 0), (230, 250), (0, 250)])
    w.add_polygon([(430, 520), (800, 520), (800, 600), (430, 600)])
    links = _base(w, (130, 260), (220, 260), (175, 338))
    _crawlers(w, links, 10)
    _lying(w, [20, 45, 70, 95], 260)
    return pipeline(w)


def hanging() -> World:
    """Level 4: anchors under the ceiling; the pipe rises from the floor off to the side."""
    w = _world(GooRulesState(required=5, more=7, most=6), Goal(380, 110, 40, 380, 0, suck=70))
    w.add_polygon([(0, 520), (800, 520), (800, 600), (0, 600)])
    w.add_polygon([(0, 0), (800, 0), (800, 30), (0, 30)])
    links = _base(w, (500, 510), (600, 510), (550, 423))
    _crawlers(w, links, 14)
    return pipeline(w)


def windy() -> World:
    """Level 5: a tall tower to a pipe high up, in a wind that pushes to the left."""
    w = _world(GooRulesState(required=6, wind=WIND, more=7, most=8),
               Goal(420, 470, 40, 420, 600, suck=70), WINDY)
    w.add_polygon([(0, 0), (800, 0), (800, 40), (0, 40)])
    links = _base(w, (330, 50), (430, 50), (380, 137))
    _crawlers(w, links, 10)
    _lying(w, [180, 210, 240, 560, 590, 620], 50)
    return pipeline(w)


def balloons() -> World:
    """Level 6: level 3's overhang with soft links: the arm droops out of the pipe's reach
    unless balloons (floating by the cliff) hold it up."""
    w = _world(GooRulesState(required=5, more=6, most=12, lift=LIFT),
               Goal(510, 440, 40, 510, 520, suck=70))
    w.add_polygon([(0, 0), (230, 0), (230, 250), (0, 250)])
    w.add_polygon([(430, 520), (800, 520), (800, 600), (430, 600)])
    links = _base(w, (130, 260), (220, 260), (175, 338))
    _crawlers(w, links, 10)
    _lying(w, [20, 45, 70, 95], 260)
    _balloons(w, [(50, 420), (100, 460), (150, 420), (60, 500), (140, 500)])
    return pipeline(w)


def ivy() -> World:
    """Level 7: a tower of ivy leaning left, away from the pipe; too few crawlers to reach
    the pipe without picking the ivy off and placing it again."""
    w = _world(GooRulesState(required=4, more=5, most=6), Goal(560, 190, 40, 560, 0, suck=70))
    w.add_polygon([(0, 0), (800, 0), (800, 40), (0, 40)])
    left, right = _ball(w, 170, 50, anchored=True), _ball(w, 260, 50, anchored=True)
    top = _ball(w, 215, 128)
    links = _links(w, [(left, right), (left, top), (right, top)])
    d, e, f, g = (_ball(w, x, y, kind="ivy")
                  for x, y in ((125, 128), (170, 206), (80, 206), (125, 284)))
    _links(w, [(left, d), (top, d), (top, e), (d, e), (d, f), (e, f), (e, g), (f, g)])
    _crawlers(w, links, 8)
    return pipeline(w)


BUILDERS: dict[int, Callable[[], World]] = {1: tower, 2: bridge, 3: overhang, 4: hanging,
                                            5: windy, 6: balloons, 7: ivy}


def build(number: int) -> World:
    """Level ``number`` as the game loads it."""
    return BUILDERS[number]()


def main() -> None:
    """Save every level to ``games/goo/levels/<n>.toml``."""
    for path in write_levels(GooGame, build):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
