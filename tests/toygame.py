"""A tiny game for the player and CLI tests: a truss on anchors, a jelly ball, a rope, fruit.

It overrides no pointer handler, so the player's default grab-and-fling is used;
it offers a slider, a toggle and a button, and one bot.
"""

from __future__ import annotations

from ecsgoo import Anchor, Fruit, Particle, Spring, World, systems
from ecsgoo.bodies import jelly_ball, rope
from ecsgoo.game import Game, Status, Widget, register_game


@register_game
class Toy(Game):
    name = "toy"
    title = "Toy box"
    levels = ("everything", "empty")
    bots = ("poke", "random")

    def build(self) -> World:
        self.pokes, self.changes = 0, []
        world = World(bounds=(0, 0, 800, 600)).use(
            *(stage() for stage in systems.SOLVER), systems.Render())
        if self.level == 2:
            return world
        jelly_ball(world, 200, 300, radius=50)
        rope(world, (500, 560), (640, 560), 10)
        a = world.create_entity(Particle(600, 100, radius=10), Anchor())
        b = world.create_entity(Particle(700, 100, radius=10), Anchor())
        c = world.create_entity(Particle(650, 190, radius=10))
        for u, v in ((a, b), (a, c), (b, c)):
            world.create_entity(Spring(u, v, max_stretch=None))
        for k in range(3):
            world.create_entity(Particle(300 + 60 * k, 500), Fruit(k + 2))
        return world

    def bot_act(self, name: str) -> None:
        if self.world.frame % 30 == 0:
            self.pokes += 1

    def status(self) -> Status:
        return Status("running", self.pokes, {"pokes": self.pokes})

    def widgets(self) -> list[Widget]:
        return [Widget("slider", "gravity", lambda v: self.changes.append(("gravity", v)),
                       980.0, 0.0, 2000.0),
                Widget("toggle", "wireframe", lambda v: self.changes.append(("wire", v)), False),
                Widget("button", "spawn", lambda v: self.changes.append(("spawn", v)))]
