"""Builders for common bodies: jelly balls, shape-matched boxes, ropes and chains.

Each builder creates entities in a world and returns their ids, so a game (or
a level file) can hold and change them like any others.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from .components import Anchor, AreaConstraint, Particle, ShapeMatch, Spring
from .world import World


@dataclass
class Body:
    """The entities of one built body."""

    particles: list[int] = field(default_factory=list)
    springs: list[int] = field(default_factory=list)
    constraint: int | None = None
    group: int = 0


def new_group(world: World) -> int:
    """A collision group number no particle of ``world`` uses yet."""
    used = world.store.particles.group
    return int(used.max()) + 1 if len(used) and used.max() >= 1 else 1


def _link(world: World, a: int, b: int, **spring: float | None) -> int:
    return world.create_entity(Spring(a, b, **spring))


def jelly_ball(world: World, x: float, y: float, radius: float = 40.0, vertices: int = 24,
               pressure: float = 1.0, mass: float = 0.2, stiffness: float = 1.0,
               max_stretch: float | None = None, group: int | None = None) -> Body:
    """A pressurised soft ball: a ring, skip-one springs, spokes to a centre, an area constraint.

    ``vertices`` + 1 particles (px, mass units each), ``3 · vertices`` springs.
    The body gets its own collision group unless ``group`` is given. Pressure
    other than 1 asks for a different area than rigid springs allow: give such
    balls ``stiffness`` below 1 (e.g. 0.05–0.5) or they shiver.
    """
    g = new_group(world) if group is None else group
    r_vertex = max(2.0, math.pi * radius / vertices)
    ring = [world.create_entity(Particle(
        x + radius * math.cos(2 * math.pi * k / vertices),
        y + radius * math.sin(2 * math.pi * k / vertices),
        mass=mass, radius=r_vertex, group=g)) for k in range(vertices)]
    centre = world.create_entity(Particle(x, y, mass=mass, radius=r_vertex, group=g))
    opts = {"stiffness": stiffness, "max_stretch": max_stretch}
    springs = [_link(world, ring[k], ring[(k + 1) % vertices], **opts) for k in range(vertices)]
    springs += [_link(world, ring[k], ring[(k + 2) % vertices], **opts) for k in range(vertices)]
    # spokes in opposite pairs (0, n/2, 1, n/2+1, …): solved in ring order, their
    # Gauss–Seidel corrections drag the centre round and the ball spins up by itself
    half = (vertices + 1) // 2
    spokes = [k for j in range(half) for k in (j, j + half) if k < vertices]
    springs += [_link(world, ring[k], centre, **opts) for k in spokes]
    con = world.create_entity(AreaConstraint(ring, pressure=pressure))
    return Body(ring + [centre], springs, con, g)


def box(world: World, x: float, y: float, width: float = 40.0, height: float = 40.0,
        alpha: float = 1.0, mass: float = 0.5, group: int | None = None) -> Body:
    """A shape-matched box of 8 particles (corners and edge midpoints, around the outline)."""
    g = new_group(world) if group is None else group
    hw, hh = width / 2, height / 2
    pts = [(-hw, -hh), (0, -hh), (hw, -hh), (hw, 0), (hw, hh), (0, hh), (-hw, hh), (-hw, 0)]
    r = min(width, height) / 6
    ids = [world.create_entity(Particle(x + px, y + py, mass=mass, radius=r, group=g))
           for px, py in pts]
    con = world.create_entity(ShapeMatch(ids, alpha=alpha))
    return Body(ids, [], con, g)


def rope(world: World, start: tuple[float, float], end: tuple[float, float], segments: int,
         mass: float = 0.1, radius: float = 3.0, pin_start: bool = True,
         max_stretch: float | None = None, group: int | None = None) -> Body:
    """A Verlet rope of ``segments`` links from ``start`` to ``end``, pinned at ``start``."""
    g = new_group(world) if group is None else group
    ids = []
    for k in range(segments + 1):
        t = k / segments
        comps = [Particle(start[0] + (end[0] - start[0]) * t,
                          start[1] + (end[1] - start[1]) * t, mass=mass, radius=radius, group=g)]
        if k == 0 and pin_start:
            comps.append(Anchor())
        ids.append(world.create_entity(*comps))
    springs = [_link(world, a, b, max_stretch=max_stretch) for a, b in itertools.pairwise(ids)]
    return Body(ids, springs, None, g)
