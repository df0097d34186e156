"""Bridge: drag from pin to pin to lay planks across the gap, then press G to send the cart.

Planks are rigid bodies hinged at both ends to what is there (a pin, or the end of
a plank already laid). They are kinematic while you build (they hold still where they
are laid) and turn dynamic when the cart goes (``RigidBody.kind``); the cart is a
chassis on two wheels whose hinges are motors (``motor_speed``, ``motor_torque``). Get
it to the flag (a sensor) with at most six planks; a plank snaps above ``max_force``
and the cart falls.

    ecsgoo play docs/examples/bridge.py
    ecsgoo play docs/examples/bridge.py --headless --frames 900 --bot --screenshot bridge.png
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import ecsgoo
from ecsgoo import Anchor, Joint, Look, Particle, RigidBody, Sensor, World, systems
from ecsgoo.game import Game, Status, register_game

DECK, LEFT, RIGHT = 200.0, 240.0, 560.0  # the cliffs' top and inner edges, px
PINS = ((LEFT, DECK), (RIGHT, DECK), (400.0, 80.0))  # where planks can start, px
SNAP, PLANKS = 14.0, 6  # how near an end must be to a pin or plank end (px); the budget
PLANK_GROUP, CART_GROUP = 1, 2
WOOD, ROCK = (200, 150, 90), (90, 100, 120)


@ecsgoo.register_resource
@dataclass
class Site:
    """What is built: the pins and plank ends one can hinge to (entity, x, y), the
    planks, the cart's motors and chassis, the flag, whether it goes and arrived."""

    ends: list[list[float]] = field(default_factory=list)
    planks: list[int] = field(default_factory=list)
    motors: list[int] = field(default_factory=list)
    cart: int = -1
    flag: int = -1
    going: bool = False
    arrived: bool = False


def build_cart(world: World, x: float, y: float) -> tuple[int, list[int]]:
    """A 70 px chassis on two wheels; returns it and the wheel hinges (motors, off)."""
    chassis = world.create_entity(RigidBody.box(x, y + 22, 70, 14, mass=2.0,
                                                group=CART_GROUP), Look((220, 80, 80)))
    motors = []
    for dx in (-26.0, 26.0):
        wheel = world.create_entity(RigidBody.circle(x + dx, y + 12, 12, mass=1.0,
                                                     friction=1.0, group=CART_GROUP))
        motors.append(world.create_entity(Joint(chassis, wheel, x + dx, y + 12)))
    return chassis, motors


@register_game
class Bridge(Game):
    """The game: two cliffs, three pins, the planks laid, a cart and a flag."""

    name, title, levels, bots, keys = "bridge", "Bridge", ("one gap",), ("truss",), ("g",)
    hints = ("drag pin to pin: a plank", "G go")
    handlers = {"sensor_entered": "on_flag"}

    def build(self) -> World:
        world = World(bounds=(0, 0, 800, 600))
        world.use(*(stage() for stage in systems.SOLVER))
        for x0, x1 in ((0.0, LEFT), (RIGHT, 800.0)):
            cliff = RigidBody.box((x0 + x1) / 2, DECK / 2, x1 - x0, DECK, group=PLANK_GROUP)
            world.create_entity(cliff, Anchor(), Look(ROCK))
        site = world.add_resource(Site())
        for x, y in PINS:
            pin = world.create_entity(Particle(x, y, radius=5, mask=0), Anchor())
            site.ends.append([pin, x, y])
        site.cart, site.motors = build_cart(world, 120.0, DECK)
        site.flag = world.create_entity(Sensor.box(720, DECK + 40, 40, 60))
        self.start: tuple[float, float] | None = None
        return world

    def on_flag(self, world: World, sensor: int, entity: int) -> None:
        site = world.resource(Site)
        if sensor == site.flag and entity == site.cart:
            site.arrived = True

    def _end_at(self, x: float, y: float) -> list[float] | None:
        """The pin or plank end within SNAP px of ``(x, y)``, or None."""
        near = [e for e in self.world.resource(Site).ends
                if math.hypot(e[1] - x, e[2] - y) <= SNAP]
        return min(near, key=lambda e: math.hypot(e[1] - x, e[2] - y)) if near else None

    def lay(self, p: tuple[float, float], q: tuple[float, float]) -> bool:
        """A plank from ``p`` to ``q`` (px), hinged to what is at each end; False if an
        end has nothing to hinge to or the budget is spent."""
        site = self.world.resource(Site)
        a, b = self._end_at(*p), self._end_at(*q)
        if len(site.planks) >= PLANKS or a is None or (b is None and q[1] < DECK - 150):
            return False
        (ax, ay), (bx, by) = a[1:], (b[1:] if b else q)
        length = math.hypot(bx - ax, by - ay)
        if length < 2 * SNAP:
            return False
        plank = self.world.create_entity(RigidBody.box(
            (ax + bx) / 2, (ay + by) / 2, length, 8, angle=math.atan2(by - ay, bx - ax),
            mass=0.5, friction=0.9, group=PLANK_GROUP,
            kind="dynamic" if site.going else "kinematic"), Look(WOOD))
        for end, x, y in ((a, ax, ay), (b, bx, by)):
            if end is not None:
                self.world.create_entity(Joint(int(end[0]), plank, x, y, max_force=6e4))
        site.ends += [[plank, ax, ay], [plank, bx, by]]
        site.planks.append(plank)
        return True

    def go(self) -> None:
        """The planks bear loads from now on; the cart's motors start (clockwise: it drives
        to the right)."""
        site = self.world.resource(Site)
        site.going = True
        for plank in site.planks:
            self.world.component(plank, RigidBody).kind = "dynamic"
        for motor in site.motors:
            joint = self.world.component(motor, Joint)
            joint.motor_speed, joint.motor_torque = -8.0, 4e5

    def on_press(self, x: float, y: float, button: int) -> None:
        self.start = (x, y)

    def on_release(self, x: float, y: float, button: int) -> None:
        if self.start is not None:
            self.lay(self.start, (x, y))
        self.start = None

    def on_key(self, key: str) -> None:
        if key == "g":
            self.go()

    def draw_overlay(self, draw: Any) -> None:
        for _, x, y in self.world.resource(Site).ends:
            draw.circle_outline(x, y, SNAP * 0.6, (240, 240, 240), width=1)
        draw.circle(720, DECK + 60, 6, (120, 230, 120))

    def bot_act(self, name: str) -> None:
        """A deck of two planks on a post from the low pin, then go."""
        plan = [((LEFT, DECK), (400, DECK)), ((400, DECK), (RIGHT, DECK)),
                ((400, 80), (400, DECK))]
        k = self.world.frame // 10
        if self.world.frame % 10 == 0 and k < len(plan):
            self.lay(*plan[k])
        if self.world.frame == 60:
            self.press_key("g")
            self.release_key("g")

    def status(self) -> Status:
        site = self.world.resource(Site)
        extra = {"planks": len(site.planks)}
        if site.arrived:
            return Status("won", PLANKS - len(site.planks), extra)
        fell = self.world.component(site.cart, RigidBody).y < DECK - 60
        return Status("lost" if fell else "running", 0, extra)

    def hud(self) -> list[str]:
        site = self.world.resource(Site)
        return [f"planks: {len(site.planks)} / {PLANKS}", "drag between pins; G sends the cart"]
