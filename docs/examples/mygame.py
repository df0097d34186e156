"""Basket: click to drop a ball; every ball that settles in the basket scores. Ten wins.

How a game is put together: a world, a pipeline of stages, one rule (a Stage of
our own), one input handler, and a bot. It runs with the bundled games' player:

    ecsgoo play docs/examples/mygame.py
    ecsgoo play docs/examples/mygame.py --headless --frames 600 --bot --screenshot basket.png
"""

from __future__ import annotations

from dataclasses import dataclass

from ecsgoo import Look, Particle, World, register_component, register_resource, systems
from ecsgoo.game import Game, Status, register_game

LEFT, RIGHT, RIM = 520.0, 680.0, 130.0  # the basket's walls and height, px
BLUE, GOLD = (110, 190, 255), (255, 200, 60)


@register_component
@dataclass
class Ball:
    """A component of our own: marks a dropped ball and whether it has scored."""

    scored: bool = False


@register_resource
@dataclass
class Tally:
    """A resource (one per world): the score."""

    score: int = 0


@systems.register_stage  # registered things save and load with the world (F5 / F9)
class ScoreBaskets(systems.Stage):
    """The rule, once per frame: a ball at rest inside the basket scores once and turns gold."""

    name = "score_baskets"

    def process(self, world: World) -> None:
        tally = world.resource(Tally)
        for _, (p, ball, look) in world.get_components(Particle, Ball, Look):
            if not ball.scored and LEFT < p.x < RIGHT and p.y < RIM and abs(p.vy) < 20:
                ball.scored, look.color = True, GOLD
                tally.score += 1


@register_game
class Basket(Game):
    name = "basket"
    title = "Basket"
    levels = ("one basket",)
    bots = ("aim",)

    def build(self) -> World:
        world = World(bounds=(0, 0, 800, 600))
        world.use(*(stage() for stage in systems.SOLVER), ScoreBaskets())
        world.add_segment((LEFT, 0), (LEFT, RIM))
        world.add_segment((RIGHT, 0), (RIGHT, RIM))
        world.add_resource(Tally())
        return world

    def on_press(self, x: float, y: float, button: int) -> None:
        """The input handler: drop a ball from the top, above the pointer."""
        ball = Particle(x, 560, radius=14, restitution=0.3)
        self.world.create_entity(ball, Ball(), Look(BLUE))

    def bot_act(self, name: str) -> None:
        if self.world.frame % 40 == 0:
            self.on_press(self.rng.uniform(LEFT + 15, RIGHT - 15), 560, 1)

    def status(self) -> Status:
        score = self.world.resource(Tally).score
        return Status("won" if score >= 10 else "running", score)

    def hud(self) -> list[str]:
        return [f"in the basket: {self.status().score} / 10", "click to drop a ball"]

    def draw_overlay(self, draw) -> None:
        draw.text((LEFT + RIGHT) / 2, RIM + 12, "basket", GOLD, 16, anchor_x="center")
