"""Build rope levels in code: pins, Verlet ropes, the candy, stars, Om Nom.

``make_levels.py`` uses these to write ``levels/*.toml``; tests use them for
small scenes. Units are pixels, y up; the visible screen is ``Board.view``.
"""

from __future__ import annotations

from typing import Any

from ecsgoo import Anchor, Particle, Sensor, World, systems
from ecsgoo.render import Render

from .components import Board, Candy, Hook, Monster, Star
from .rules import RopeRules, mouth_sensor
from .tie import add_rope

#: Candy: heavy, so the rope nodes (NODE_MASS each) barely slow its flight.
CANDY_MASS, CANDY_RADIUS = 4.0, 14.0
#: Frames the ropes sag before a level starts (see ``settle``).
SETTLE_FRAMES = 120


def new_world(view: tuple[float, float, float, float] = (0, 0, 800, 600),
              damping: float = 0.998) -> World:
    """An empty rope world: no walls (the candy may fly off screen), its pipeline, a Board."""
    world = World(bounds=None, damping=damping)
    # Collide stays for level geometry; candy and ropes pass through each other.
    world.use(systems.Integrate(), systems.Project(), systems.Collide(particles=False),
              systems.Break(), RopeRules(), Render(view=view))
    world.create_entity(Board(view=[float(v) for v in view]))
    return world


def add_candy(world: World, x: float, y: float) -> int:
    """The candy particle at ``(x, y)``; returns its entity."""
    return world.create_entity(Particle(x, y, mass=CANDY_MASS, radius=CANDY_RADIUS), Candy())


def add_star(world: World, x: float, y: float) -> int:
    """A star to collect at ``(x, y)``, with its sensor: the candy's disc touching the star."""
    star = Star(float(x), float(y))
    return world.create_entity(star, Sensor.circle(star.x, star.y, star.radius))


def add_hook(world: World, x: float, y: float, reach: float) -> int:
    """A hook at ``(x, y)`` that ties a new rope to the candy passing within ``reach`` px."""
    return world.create_entity(Hook(float(x), float(y), float(reach)))


def add_monster(world: World, x: float, y: float) -> int:
    """Om Nom, the goal, at ``(x, y)``, with his mouth: a sensor the candy's disc reaches
    when its centre comes within ``Monster.radius``."""
    monster = Monster(float(x), float(y))
    return world.create_entity(monster, mouth_sensor(monster, CANDY_RADIUS))


def build(spec: dict[str, Any]) -> World:
    """A level from a spec: ``candy`` (x, y), ``pins`` [(x, y)], ``stars`` [(x, y)],
    ``monster`` (x, y), optional ``hooks`` [(x, y, reach)], ``damping`` and ``swing``."""
    world = new_world(damping=spec.get("damping", 0.998))
    candy = add_candy(world, *spec["candy"])
    for pin in spec["pins"]:
        add_rope(world, pin, candy)
    for star in spec["stars"]:
        add_star(world, *star)
    for hook in spec.get("hooks", ()):
        add_hook(world, *hook)
    add_monster(world, *spec["monster"])
    settle(world, candy, hold=spec.get("swing", False))
    return world


def settle(world: World, candy: int, hold: bool, frames: int = SETTLE_FRAMES) -> None:
    """Let the level come to rest before it starts: the ropes sag into shape.

    Steps with heavy damping, the candy pinned where the spec put it if ``hold``
    (it starts a swing when the level begins) or free (it hangs still), then stops
    every particle and resets the frame counter.
    """
    damping = world.damping
    world.damping = 0.8
    if hold:
        world.add_component(candy, Anchor())
    world.step(frames)
    if hold:
        world.remove_component(candy, Anchor)
    world.damping, world.frame = damping, 0
    world.particles.write("prev", world.particles.pos)  # at rest
