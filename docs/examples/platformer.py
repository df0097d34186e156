"""Lift: roll the ball onto the elevator, ride it up and pick up both coins.

What a platformer needs: held keys (hold Right to roll, Up jumps when the ball's
feet touch something), a kinematic elevator (it carries the ball; it is never
pushed), sensors that follow the ball (its feet, and a magnet that picks up coins),
and handlers the game declares once (``handlers``): they get the world first and
are wired again after a quick load or on a look-ahead clone.

    ecsgoo play docs/examples/platformer.py
    ecsgoo play docs/examples/platformer.py --headless --frames 900 --bot --screenshot lift.png
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ecsgoo
from ecsgoo import Anchor, Look, Particle, RigidBody, Sensor, World, systems
from ecsgoo.game import Game, Status, register_game

FLOOR, LEDGE = 20.0, 230.0  # tops of the ground and of the ledge, px
LIFT_X, LIFT_W, LIFT_H = 390.0, 120.0, 12.0  # the elevator's centre x and size, px
RADIUS, SPEED, JUMP = 16.0, 170.0, 420.0  # the ball: px, px/s, px/s
PERIOD = 6.0  # s: wait at the bottom, rise, wait at the top, come down
COIN = (255, 200, 60)


@ecsgoo.register_component
@dataclass
class Coin:
    """A coin to pick up (an anchored particle that collides with nothing)."""


@ecsgoo.register_resource
@dataclass
class Cast:
    """Who is who (entity ids), and the coins picked up so far."""

    ball: int = -1
    lift: int = -1
    feet: int = -1
    magnet: int = -1
    picked: int = 0


def lift_height(t: float) -> float:
    """Where the elevator's top is at time ``t`` (s): a wait, an eased rise, a wait, a fall."""
    phase = (t % PERIOD) / PERIOD * 4.0
    ease = lambda u: 0.5 - 0.5 * math.cos(math.pi * u)  # noqa: E731
    rise = [0.0, ease(phase - 1.0), 1.0, 1.0 - ease(phase - 3.0)][int(phase)]
    return FLOOR + 6.0 + (LEDGE - FLOOR - 6.0) * rise


@systems.register_stage
class Controls(systems.Stage):
    """Once a frame: the held keys roll the ball; the elevator moves along its path."""

    name = "lift_controls"

    def __init__(self) -> None:
        self.held: frozenset[str] = frozenset()  # the game hands it the keys held now

    def process(self, world: World) -> None:
        cast = world.resource(Cast)
        ball = world.component(cast.ball, RigidBody)
        want = SPEED * (("right" in self.held) - ("left" in self.held))
        vx = want if want else ball.vx * 0.85
        ball.vx, ball.omega = vx, -vx / RADIUS  # rolling, not sliding
        if "up" in self.held and world.component(cast.feet, Sensor).inside:
            ball.vy = JUMP
        t = (world.frame + 1) * world.dt  # where it is to be when this step ends
        world.move_to(cast.lift, LIFT_X, lift_height(t) - LIFT_H / 2)


@register_game
class Lift(Game):
    """The game: a ball, an elevator, a ledge and two coins."""

    name, title, levels, bots, size = "lift", "Lift", ("up the lift",), ("ride",), (800, 400)
    hints = ("Left/Right roll", "Up jump")
    handlers = {"sensor_entered": "on_sensed"}  # the method gets (world, sensor, entity)

    def build(self) -> World:
        world = World(bounds=(0, 0, 800, 400))
        world.use(Controls(), *(stage() for stage in systems.SOLVER))
        ground = RigidBody.box(400, FLOOR / 2, 800, FLOOR)
        ledge = RigidBody.box(640, LEDGE / 2, 320, LEDGE)
        for block in (ground, ledge):
            world.create_entity(block, Anchor(), Look((90, 100, 120)))
        lift = world.create_entity(RigidBody.box(LIFT_X, FLOOR, LIFT_W, LIFT_H,
                                                 kind="kinematic"), Look((120, 200, 140)))
        ball = world.create_entity(RigidBody.circle(90, FLOOR + RADIUS, RADIUS, friction=0.9),
                                   Look((110, 190, 255)))
        feet = world.create_entity(Sensor.circle(0, -RADIUS, 4, on=ball))
        magnet = world.create_entity(Sensor.circle(0, 0, RADIUS + 8, mask=2, on=ball))
        for x, y in ((230, FLOOR + 20), (700, LEDGE + 20)):
            world.create_entity(Particle(x, y, radius=7, layer=2, mask=0), Anchor(), Coin(),
                                Look(COIN))
        world.add_resource(Cast(ball, lift, feet, magnet))
        return world

    def on_sensed(self, world: World, sensor: int, entity: int) -> None:
        """A coin in the magnet: picked up."""
        cast = world.resource(Cast)
        if sensor == cast.magnet and world.has_component(entity, Coin):
            world.delete_entity(entity)
            cast.picked += 1

    def step(self) -> None:
        self.world.pipeline[0].held = frozenset(self.keys_down)  # Controls (a loaded one too)
        self.world.step()

    def bot_act(self, name: str) -> None:
        """Roll right to the elevator, wait for it at the bottom, ride, roll onto the ledge."""
        cast = self.world.resource(Cast)
        ball = self.world.component(cast.ball, RigidBody)
        lift = self.world.component(cast.lift, RigidBody)
        low = lift.y < FLOOR + 10 and lift.vy >= 0
        if ball.y > LEDGE:  # on the elevator or the ledge: go on right
            go = lift.y > LEDGE - 20 or ball.x > LIFT_X + LIFT_W / 2
        else:
            go = ball.x < 290 or (low and ball.x < LIFT_X - 10) or ball.y > FLOOR + RADIUS + 8
            go = go and not (ball.y > FLOOR + RADIUS + 8 and ball.x > LIFT_X - 10)
        if go and "right" not in self.keys_down:
            self.press_key("right")
        elif not go and "right" in self.keys_down:
            self.release_key("right")

    def status(self) -> Status:
        picked = self.world.resource(Cast).picked
        return Status("won" if picked >= 2 else "running", picked)

    def hud(self) -> list[str]:
        return [f"coins: {self.status().score} / 2", "hold Right to roll, Up to jump"]

