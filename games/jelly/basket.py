"""Level 4's goal: land a jelly ball in the basket with three flings at most, in 45 s.

The basket is a cup of static rigid planks on a post; a ``Sensor`` fills the
inside of the cup. Balls are thrown from behind a line: the pointer that pulls
a grabbed body never goes past it, so a ball cannot be carried into the basket
(the game clamps it, ``clamp``), and a throw whose pointer crosses it lets go of the
ball there (``thrown_over``). A ``Basket`` component (saved with the level) names that
sensor and counts how long a ball's centre particle has stayed inside it
(``BasketWatch``, a stage of every playground): ``HOLD`` frames in a row and the
ball has *landed* — a ball that only bounces through does not count. The level
is won once a ball has landed; it is lost once the last allowed fling's flight
is over (``rules.FLIGHT_FRAMES``), at a fling too many, or when the time is up,
with no ball in the basket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecsgoo import Anchor, Look, RigidBody, Sensor, World, register_component
from ecsgoo.systems import Stage, register_stage

from . import rules

#: Frames a ball's centre must stay in the basket to have landed (½ s).
HOLD = 30
#: The basket's inside (px): width, and the height of its walls above the floor.
INSIDE, WALLS = 100.0, 60.0
#: Thickness of the basket's planks (px).
PLANK = 12.0
#: The basket's colour (RGB): wicker.
WICKER = (196, 150, 84)


@dataclass
class Basket:
    """Land a ball in ``sensor`` (a ``Sensor`` entity) with at most ``flings`` flings,
    thrown from left of ``line`` (x, px), by frame ``frames`` (45 s).

    ``held``: frames in a row a ball's centre has been inside (``BasketWatch``
    writes it); ``landed``: it stayed ``HOLD`` frames (the level is won);
    ``spare``: the flings left when it landed.
    """

    sensor: int = -1
    line: float = 400.0
    flings: int = 3
    frames: int = 2700
    held: int = 0
    landed: bool = False
    spare: int = 0


register_component(Basket, name="jelly_basket", refs=("sensor",))


def goal(world: World) -> Basket | None:
    """The world's ``Basket`` goal, or None (a level without a basket)."""
    found = world.get_component(Basket)
    return found[0][1] if found else None


def basket(world: World, x: float, floor: float, line: float) -> int:
    """A static cup centred on ``x`` whose floor's top is ``floor`` px up, on a post, and
    its goal (throws from left of ``line``, px): the ``Basket``'s entity (also the sensor's).
    """
    ground = world.bounds[1] if world.bounds is not None else 0.0
    look = Look(color=WICKER)
    half = INSIDE / 2 + PLANK / 2
    planks = [(x, floor - PLANK / 2, INSIDE + 2 * PLANK, PLANK),  # the floor
              (x - half, floor + WALLS / 2, PLANK, WALLS),  # the walls
              (x + half, floor + WALLS / 2, PLANK, WALLS),
              (x, (ground + floor - PLANK) / 2, 24.0, floor - PLANK - ground)]  # the post
    for cx, cy, w, h in planks:
        world.create_entity(RigidBody.box(cx, cy, w, h, friction=0.8), Anchor(), look)
    goal_ = Basket(line=line)
    goal_.sensor = world.create_entity(Sensor.box(x, floor + WALLS / 2, INSIDE, WALLS), goal_)
    return goal_.sensor


def clamp(world: World, x: float, y: float) -> tuple[float, float]:
    """The pointer ``(x, y)`` kept behind the basket level's throwing line (unchanged
    without a basket)."""
    b = goal(world)
    return (x, y) if b is None else (min(x, b.line), y)


def thrown_over(world: World, x: float, velocity: tuple[float, float]) -> bool:
    """Whether a pointer at ``x`` (px) moving at ``velocity`` (px/s) while it holds a body
    is a throw over the basket level's line: past it, toward the basket, faster than
    ``rules.FLING_SPEED`` (a slow drag stays held back at the line). False without a
    basket."""
    b = goal(world)
    return (b is not None and x > b.line and velocity[0] > 0
            and math.hypot(*velocity) > rules.FLING_SPEED)


def _centres(world: World) -> set[int]:
    """The entities of the jelly balls' centre particles."""
    out = set()
    for r in range(len(world.areas)):
        row = rules.ball_centre(world, r)
        if row >= 0:
            out.add(int(world.particles.entity[row]))
    return out


@register_stage
class BasketWatch(Stage):
    """Count the frames a ball's centre stays in the basket; mark it landed after ``HOLD``.

    Reads: the basket's ``Sensor.inside`` (as of the end of the last frame), the balls.
    Writes: ``Basket.held``, ``Basket.landed``. Nothing to do without a basket.
    """

    name = "jelly_basket"

    def process(self, world: Any) -> None:
        b = goal(world)
        if b is None or b.landed:
            return
        if rules.stats(world).flings > b.flings or result(world, b) == "lost":
            b.held = 0  # thrown once too often, or out of flings or time: nothing counts now
            return
        inside = world.component(b.sensor, Sensor).inside
        b.held = b.held + 1 if _centres(world).intersection(inside) else 0
        if b.held >= HOLD:
            b.landed = True
            b.spare = max(0, b.flings - rules.stats(world).flings)


def result(world: World, b: Basket) -> str:
    """``"won"``, ``"lost"`` or ``"running"``."""
    if b.landed:
        return "won"
    st = rules.stats(world)
    spent = st.flings > b.flings or (st.flings == b.flings and world.frame > st.flung_until)
    if (spent or world.frame > b.frames) and b.held == 0:
        return "lost"
    return "running"


def score(b: Basket) -> int:
    """Flings to spare when it landed, plus one (3 for a first-fling basket); 0 until then."""
    return b.spare + 1 if b.landed else 0


def hud(world: World, b: Basket) -> str:
    """The goal's line for the HUD."""
    if b.landed:
        return "in the basket!"
    left = max(0, b.flings - rules.stats(world).flings)
    seconds = max(0, b.frames - world.frame) // 60
    return (f"fling a ball into the basket: {left} fling{'s' if left != 1 else ''} left, "
            f"{seconds} s")


def draw(draw: Any, world: World, b: Basket) -> None:
    """A faint frame round the basket's inside (green once a ball is settling in it) and
    the throwing line."""
    s = world.component(b.sensor, Sensor)
    color = (120, 230, 140, 200) if b.held else (255, 255, 255, 50)
    x0, y0, x1, y1 = s.x - s.width / 2, s.y - s.height / 2, s.x + s.width / 2, s.y + s.height / 2
    draw.polyline([(x0, y1), (x0, y0), (x1, y0), (x1, y1)], color, 2)
    top = world.bounds[3] if world.bounds is not None else s.y + 300.0
    ground = world.bounds[1] if world.bounds is not None else 0.0
    for y in range(int(ground) + 10, int(top), 30):  # a dashed line
        draw.line(b.line, y, b.line, y + 14, (255, 255, 255, 60), 2)
