"""Building the playground: the box pyramid, the levels in code, and the spawners.

``make_levels.py`` saves what ``build_level`` makes to ``levels/<n>.toml``;
the spawn buttons call ``spawn`` during play.
"""

from __future__ import annotations

import random

from ecsgoo import Anchor, AreaConstraint, Joint, Look, RigidBody, ShapeMatch, World, systems
from ecsgoo.bodies import Body, box, jelly_ball, rope
from ecsgoo.look import CRATE
from ecsgoo.render import Render

from .basket import BasketWatch, basket
from .challenge import Topple
from .rules import (
    BALL_MEMORY,
    STIFFNESS_DEFAULT,
    FlingTracker,
    Inflate,
    Inflation,
    PlaygroundStats,
    alpha,
    set_stiffness,
    stiffness,
)

#: World bounds (px).
WIDTH, HEIGHT = 800.0, 600.0
#: Box side (px); ``bodies.box`` keeps its small collision discs inside the outline.
BOX_SIDE = 48.0
#: Gap between boxes of one layer (px): the discs of a box's bottom edge stay clear
#: of those of the top edges below (needs 4r ≤ gap ≤ side − 4r, r = ``bodies.BOX_DISC``).
BOX_GAP = 12.0
#: Particle budget: spawning stops here so the playground stays fluid.
MAX_PARTICLES = 700
#: Rigid body budget (crates).
MAX_BODIES = 80
#: Body kinds the spawn buttons make.
KINDS = ("ball", "box", "rope", "chain", "crate")
#: Crate side (px) of the crate pyramid, and the range a spawned crate's side is drawn from.
CRATE_SIDE, CRATE_SIDES = 40.0, (40.0, 60.0)
#: Collision group of the seesaw's plank and its post (they must not collide at the hinge);
#: far above the groups ``bodies.new_group`` gives the soft bodies.
SEESAW_GROUP = 10_000


def playground_world() -> World:
    """An empty playground: walls, the solver pipeline, the balls' inflater, the fling
    tracker and the basket's watch (idle without a basket)."""
    # what has come to rest sleeps; a throw, a spawn landing on it, or any slider (its
    # bulk writes, new gravity) wakes it
    w = World(bounds=(0.0, 0.0, WIDTH, HEIGHT), sleep=True)
    w.use(Inflate(), systems.Integrate(), systems.Project(), systems.Collide(),
          systems.Break(), FlingTracker(), BasketWatch(), Render())
    w.create_entity(PlaygroundStats())
    w.create_entity(Inflation())
    return w


def ball(world: World, x: float, y: float, radius: float) -> Body:
    """A jelly ball centred at ``(x, y)``, ``radius`` px, with a soft shape memory.

    ``bodies.jelly_ball`` plus a ``ShapeMatch`` (alpha ``rules.BALL_MEMORY``, on the
    ball's ``AreaConstraint`` entity, not an outline of its own) over its ring and
    centre: the springs go as soft as the stiffness slider asks, and the memory
    still turns a crumpled outline the right way out again. Its outline collides with
    itself (``AreaConstraint.self_collide``): slammed or deflated, it wrinkles
    instead of folding through itself.
    """
    body = jelly_ball(world, x, y, radius=radius)
    world.add_component(body.constraint, ShapeMatch(body.particles, alpha=BALL_MEMORY,
                                                    outline=False))
    # its skin keeps off its own other edges: a crumpled ball wrinkles, it does not fold
    world.component(body.constraint, AreaConstraint).self_collide = True
    return body


def shaped_box(world: World, x: float, y: float, side: float = BOX_SIDE,
               alpha: float = 1.0) -> Body:
    """A stackable shape-matched box (8 particles) centred at ``(x, y)`` px."""
    return box(world, x, y, side, side, alpha=alpha, mass=0.5)


def pyramid(world: World, cx: float, layers: int = 4, side: float = BOX_SIDE,
            gap: float = BOX_GAP, alpha: float = 1.0) -> list[Body]:
    """A pyramid of ``layers`` rows of boxes standing on the ground, centred on ``cx``."""
    ground = world.bounds[1] if world.bounds is not None else 0.0
    bodies = []
    for layer in range(layers):
        count = layers - layer
        # half a pixel of air per layer: the boxes settle onto each other at once
        y = ground + side / 2 + layer * (side + 0.5)
        for k in range(count):
            x = cx + (k - (count - 1) / 2) * (side + gap)
            bodies.append(shaped_box(world, x, y, side, alpha))
    return bodies


def crate(world: World, x: float, y: float, side: float = CRATE_SIDE,
          angle: float = 0.0) -> int:
    """A wooden crate: a rigid ``side`` px box centred at ``(x, y)``; its entity."""
    return world.create_entity(RigidBody.box(x, y, side, side, angle=angle, mass=1.0,
                                             friction=0.6), Look(CRATE))


def crate_pyramid(world: World, cx: float, base: int = 4, side: float = CRATE_SIDE,
                  gap: float = 4.0) -> list[int]:
    """A pyramid of rigid crates, ``base`` on the ground, centred on ``cx``; their entities."""
    ground = world.bounds[1] if world.bounds is not None else 0.0
    out = []
    for layer in range(base):
        count = base - layer
        y = ground + side / 2 + layer * side
        for k in range(count):
            out.append(crate(world, cx + (k - (count - 1) / 2) * (side + gap), y, side))
    return out


#: Level 4's throwing line (x, px): a grabbed body is never pulled past it.
BASKET_LINE = 340.0
#: The seesaw plank's colour (RGB): a lighter wood than the crates.
PLANK = (204, 160, 102)


def seesaw(world: World, cx: float, length: float = 300.0, height: float = 70.0,
           ) -> tuple[int, int, int]:
    """A plank on a hinge atop a static post: ``(post, plank, joint)`` entities.

    The post is an earthy static wedge on the ground; the plank (``length`` px)
    turns about its middle, ``height`` px above the ground.
    """
    ground = world.bounds[1] if world.bounds is not None else 0.0
    top = ground + height
    post = world.create_entity(RigidBody.polygon(
        cx, ground, [(-32.0, 0.0), (32.0, 0.0), (6.0, height), (-6.0, height)],
        group=SEESAW_GROUP), Anchor())
    plank = world.create_entity(RigidBody.box(cx, top + 7.0, length, 14.0, mass=3.0,
                                              friction=0.8, group=SEESAW_GROUP),
                                Look(color=PLANK))  # wood, not a ball's colour
    joint = world.create_entity(Joint(post, plank, cx, top + 7.0))
    return post, plank, joint


def chain(world: World, start: tuple[float, float], end: tuple[float, float],
          links: int) -> Body:
    """A chain: a rope of fewer, heavier links with big discs."""
    return rope(world, start, end, links, mass=0.4, radius=7.0)


def hang_rope(world: World, x: float, length: float, segments: int) -> Body:
    """A thin rope pinned to the ceiling at ``x``."""
    top = world.bounds[3] - 10.0 if world.bounds is not None else HEIGHT - 10.0
    return rope(world, (x, top), (x, top - length), segments, mass=0.1, radius=3.0)


def hammock(world: World, left: tuple[float, float], right: tuple[float, float],
            links: int, sag: float) -> Body:
    """A chain pinned at both ends with ``sag`` px of slack (built straight, then pinned in)."""
    body = chain(world, left, (right[0] + sag, right[1]), links)
    last = body.particles[-1]
    world.add_component(last, Anchor(x=right[0], y=right[1]))
    return body


def build_level(level: int) -> World:
    """Level ``level`` (1: the pyramid playground, 2: the hammock, 3: crates and a
    seesaw, 4: the basket) built in code."""
    w = playground_world()
    if level == 4:
        ball(w, 110.0, 45.0, 35.0)  # the ball to throw
        ball(w, 250.0, 40.0, 30.0)  # and a spare
        basket(w, 620.0, 330.0, line=BASKET_LINE)  # the goal (games/jelly/basket)
        for k in range(4):  # a stack of boxes under the throw: in the way of a flat one
            shaped_box(w, 430.0, BOX_SIDE / 2 + k * (BOX_SIDE + 0.5))
    elif level == 3:
        ball(w, 130.0, 420.0, 34.0)  # falls onto the seesaw's left end
        ball(w, 480.0, 45.0, 35.0)
        hang_rope(w, 470.0, 200.0, 12)
        crates = crate_pyramid(w, 610.0)  # the goal: knock it down (games/jelly/challenge)
        w.create_entity(Topple(crates, [w.component(c, RigidBody).y for c in crates]))
        seesaw(w, 250.0)
        crate(w, 375.0, 118.0, 36.0)  # on the right end: the ball falling on the left
        # end flips it
    elif level == 1:
        pyramid(w, 590.0)
        for x, r in ((110.0, 45.0), (245.0, 38.0), (370.0, 30.0)):
            ball(w, x, r + 10.0, r)
        hang_rope(w, 465.0, 230.0, 14)
        chain(w, (260.0, HEIGHT - 10.0), (260.0, HEIGHT - 270.0), 9)
    else:
        hammock(w, (120.0, 330.0), (560.0, 330.0), 14, 90.0)
        for x, r in ((200.0, 40.0), (330.0, 34.0), (460.0, 44.0)):
            ball(w, x, 430.0, r)
        for k in range(3):
            shaped_box(w, 690.0, BOX_SIDE / 2 + k * (BOX_SIDE + 0.5))
        hang_rope(w, 520.0, 150.0, 10)
        pyramid(w, 200.0, layers=2)
    set_stiffness(w, STIFFNESS_DEFAULT)
    return w


def spawn(world: World, kind: str, rng: random.Random) -> Body | None:
    """Drop a new body of ``kind`` (see ``KINDS``) at a random place near the top.

    It takes the current slider settings (stiffness, alpha; a ball inflates to the
    slider's pressure within a second). Returns
    ``None`` when the particle budget is spent, and for a crate (a rigid box of
    40–60 px, a little turned; none past ``MAX_BODIES``).
    """
    if kind == "crate":
        if len(world.bodies) >= MAX_BODIES:
            return None
        crate(world, rng.uniform(80.0, WIDTH - 80.0), HEIGHT - 80.0,
              rng.uniform(*CRATE_SIDES), rng.uniform(-0.4, 0.4))
        return None
    per_kind = {"ball": 25, "box": 8, "rope": 13, "chain": 8}
    if len(world.particles) + per_kind[kind] > MAX_PARTICLES:
        return None
    k = stiffness(world)
    x = rng.uniform(80.0, WIDTH - 80.0)
    top = HEIGHT - 10.0
    if kind == "ball":  # born at pressure 1: ``Inflate`` takes it to the slider's
        body = ball(world, x, HEIGHT - 110.0, rng.uniform(28.0, 46.0))
    elif kind == "box":
        body = shaped_box(world, x, HEIGHT - 80.0, alpha=alpha(world))
    elif kind == "rope":
        body = hang_rope(world, x, rng.uniform(120.0, 240.0), 12)
    else:
        body = chain(world, (x, top), (x, top - rng.uniform(120.0, 200.0)), 7)
    world.set_stiffness(k, body.springs)  # the slider's stiffness
    return body
