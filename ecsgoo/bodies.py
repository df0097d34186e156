"""Builders for common bodies: jelly balls, shape-matched boxes, ropes and chains.

Each builder creates entities in a world and returns a ``Body``: their ids, so
a game (or a level file) can hold and change them like any others, and a
handle that moves, pushes and deletes the body as one. Every builder takes the
particles' surface and filters too (keyword-only, ``Particle``'s defaults):
``layer``, ``mask``, ``friction``, ``restitution`` and ``events``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

from .columns import PARTICLES
from .components import Anchor, AreaConstraint, Particle, ShapeMatch, Spring
from .errors import WorldError
from .world import World

#: What every builder passes on to its particles, and Particle's defaults for them.
SURFACE = ("layer", "mask", "friction", "restitution", "events")
_DEFAULTS = {name: PARTICLES.default(name) for name in SURFACE}


def _surface(given: dict[str, Any]) -> dict[str, Any]:
    """The surface and filter keywords of a builder call, checked by name."""
    unknown = sorted(set(given) - set(SURFACE))
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r} (a builder takes "
                        f"{', '.join(SURFACE)} for its particles)")
    return {**_DEFAULTS, **given}


@dataclass
class Body:
    """A built body: the entities of its particles, springs and constraint, and handles on them.

    ``centre`` is the centre particle's entity (jelly balls), else ``None``.
    The methods act on the live world: ``centroid``, ``translate``,
    ``set_velocity`` and ``delete``.
    """

    particles: list[int] = field(default_factory=list)
    springs: list[int] = field(default_factory=list)
    constraint: int | None = None
    group: int = 0
    centre: int | None = None
    world: World | None = field(default=None, repr=False, compare=False)

    def _views(self) -> list[Particle]:
        w = self._world()
        return [w.component(e, Particle) for e in self.particles if w.entity_exists(e)
                and w.has_component(e, Particle)]

    def _world(self) -> World:
        if self.world is None:
            raise WorldError("Body: not attached to a world (made by hand, not by a builder)")
        return self.world

    @property
    def alive(self) -> bool:
        """Whether any of its particles still exists."""
        return bool(self._views())

    def centroid(self) -> tuple[float, float]:
        """The mean position of its particles, px (``WorldError`` once it is deleted)."""
        views = self._views()
        if not views:
            raise WorldError("Body: all its particles are gone")
        return (math.fsum(v.x for v in views) / len(views),
                math.fsum(v.y for v in views) / len(views))

    def translate(self, dx: float, dy: float) -> None:
        """Move every particle by ``(dx, dy)`` px, keeping velocities (pins move too)."""
        for v in self._views():
            v.x, v.y = v.x + dx, v.y + dy

    def set_velocity(self, vx: float, vy: float) -> None:
        """Give every particle the velocity ``(vx, vy)`` px/s."""
        for v in self._views():
            v.vx, v.vy = vx, vy

    def delete(self) -> None:
        """Remove its particles, springs and constraint from the world (what is left of them)."""
        w = self._world()
        for e in [*self.particles, *self.springs, self.constraint]:
            if e is not None and w.entity_exists(e):
                w.delete_entity(e)


def new_group(world: World) -> int:
    """A collision group number no particle of ``world`` uses yet."""
    used = world.store.particles.group
    return int(used.max()) + 1 if len(used) and used.max() >= 1 else 1


def _link(world: World, a: int, b: int, **spring: float | None) -> int:
    return world.create_entity(Spring(a, b, **spring))


def jelly_ball(world: World, x: float, y: float, radius: float = 40.0, vertices: int = 24,
               pressure: float = 1.0, mass: float = 0.2, stiffness: float = 1.0,
               max_stretch: float | None = None, group: int | None = None,
               **surface: Any) -> Body:
    """A pressurised soft ball: a ring, skip-one springs, spokes to a centre, an area constraint.

    ``vertices`` + 1 particles (px, mass units each), ``3 · vertices`` springs.
    The body gets its own collision group unless ``group`` is given. Pressure
    other than 1 asks for a different area than rigid springs allow: give such
    balls ``stiffness`` below 1 (e.g. 0.05–0.5) or they shiver.
    """
    g = new_group(world) if group is None else group
    s = _surface(surface)
    r_vertex = max(2.0, math.pi * radius / vertices)
    *ring, centre = world.create_entities([*(Particle(
        x + radius * math.cos(2 * math.pi * k / vertices),
        y + radius * math.sin(2 * math.pi * k / vertices),
        mass=mass, radius=r_vertex, group=g, **s) for k in range(vertices)),
        Particle(x, y, mass=mass, radius=r_vertex, group=g, **s)])
    opts = {"stiffness": stiffness, "max_stretch": max_stretch}
    ends = [(ring[k], ring[(k + 1) % vertices]) for k in range(vertices)]
    ends += [(ring[k], ring[(k + 2) % vertices]) for k in range(vertices)]
    # spokes in opposite pairs (0, n/2, 1, n/2+1, …): solved in ring order, their
    # Gauss–Seidel corrections drag the centre round and the ball spins up by itself
    half = (vertices + 1) // 2
    ends += [(ring[k], centre) for j in range(half) for k in (j, j + half) if k < vertices]
    springs = world.create_entities([Spring(a, b, **opts) for a, b in ends])
    con = world.create_entity(AreaConstraint(ring, pressure=pressure))
    return Body(ring + [centre], springs, con, g, centre, world)


#: Largest collision radius of a box's particles (px). Big discs make a bumpy
#: surface whose slanted disc–disc contacts wedge the boxes below apart, so a
#: pile cannot stand; small ones let boxes rest on each other's flat outlines.
BOX_DISC = 2.0


def box(world: World, x: float, y: float, width: float = 40.0, height: float = 40.0,
        alpha: float = 1.0, mass: float = 0.5, group: int | None = None,
        radius: float | None = None, **surface: Any) -> Body:
    """A shape-matched box of 8 particles (corners and edge midpoints) centred at ``(x, y)``.

    It spans ``width`` × ``height`` px: its particles' discs (``radius`` px, by
    default ``BOX_DISC`` or a tenth of the shorter side if that is smaller) sit
    inside the outline, touching it, so boxes collide where they are drawn and
    stack like boxes. ``mass`` is per particle.
    """
    if not (width > 0 and height > 0):
        raise WorldError(f"box: width and height must be > 0, got {width}, {height}")
    g = new_group(world) if group is None else group
    r = min(BOX_DISC, min(width, height) / 10) if radius is None else radius
    hw, hh = width / 2 - r, height / 2 - r
    pts = [(-hw, -hh), (0, -hh), (hw, -hh), (hw, 0), (hw, hh), (0, hh), (-hw, hh), (-hw, 0)]
    s = _surface(surface)
    ids = world.create_entities([Particle(x + px, y + py, mass=mass, radius=r, group=g, **s)
                                 for px, py in pts])
    con = world.create_entity(ShapeMatch(ids, alpha=alpha))
    return Body(ids, [], con, g, None, world)


def rope(world: World, start: tuple[float, float], end: tuple[float, float], segments: int,
         mass: float = 0.1, radius: float = 3.0, pin_start: bool = True,
         max_stretch: float | None = None, group: int | None = None,
         **surface: Any) -> Body:
    """A Verlet rope of ``segments`` links from ``start`` to ``end``, pinned at ``start``."""
    g = new_group(world) if group is None else group
    s = _surface(surface)
    ids = []
    for k in range(segments + 1):
        t = k / segments
        comps = [Particle(start[0] + (end[0] - start[0]) * t,
                          start[1] + (end[1] - start[1]) * t, mass=mass, radius=radius,
                          group=g, **s)]
        if k == 0 and pin_start:
            comps.append(Anchor())
        ids.append(world.create_entity(*comps))
    springs = [_link(world, a, b, max_stretch=max_stretch) for a, b in itertools.pairwise(ids)]
    return Body(ids, springs, None, g, None, world)
