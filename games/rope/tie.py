"""Tying ropes: a taut Verlet rope from a pin to the candy (levels and hooks make them).

Units are pixels; a rope is a chain of light particles in its own collision
group, the first one anchored (the pin), the last link tied to the candy.
"""

from __future__ import annotations

import itertools
import math

from ecsgoo import Anchor, Particle, Spring, World
from ecsgoo.bodies import new_group

from .components import Rope

NODE_MASS, NODE_RADIUS, PIN_RADIUS = 0.15, 3.0, 7.0
#: Rope link length, px (a rope gets as many links as fit, at least 4).
LINK = 18.0


def add_rope(world: World, pin: tuple[float, float], candy: int) -> int:
    """A taut rope from a pin at ``pin`` to ``candy``; returns the Rope entity.

    Links are unbreakable (``max_stretch=None``): only a swipe cuts them. Each rope
    has its own collision group, which is how Render knows to draw it as a curve.
    Node k of n moves at k/n of the candy's velocity (px/s), as if the rope turned
    with it about the pin, so a rope tied to a flying candy does not jerk it.
    """
    c = world.component(candy, Particle)
    length = math.hypot(c.x - pin[0], c.y - pin[1])
    links = max(4, round(length / LINK))
    group = new_group(world)
    pin_id = world.create_entity(Particle(*pin, mass=NODE_MASS, radius=PIN_RADIUS, group=group),
                                 Anchor())
    nodes = [pin_id]
    for k in range(1, links):
        t = k / links
        nodes.append(world.create_entity(Particle(
            pin[0] + (c.x - pin[0]) * t, pin[1] + (c.y - pin[1]) * t,
            mass=NODE_MASS, radius=NODE_RADIUS, group=group, vx=c.vx * t, vy=c.vy * t)))
    springs = [world.create_entity(Spring(a, b, max_stretch=None))
               for a, b in itertools.pairwise([*nodes, candy])]
    return world.create_entity(Rope(pin=pin_id, nodes=nodes, springs=springs))
