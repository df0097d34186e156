"""Scenes shared by the tests and the benchmarks (small sizes in tests, big in bench)."""

from __future__ import annotations

import numpy as np

from ecsgoo import Anchor, Particle, Spring, World, systems
from ecsgoo.bodies import jelly_ball


def solver(world: World) -> World:
    """Give ``world`` the standard solver pipeline."""
    return world.use(systems.Integrate(), systems.Project(), systems.Collide(), systems.Break())


def circle_pile(count: int, seed: int = 0, width: float = 1200.0) -> World:
    """``count`` circles of radius 8–16 dropped on a grid into a box ``width`` wide."""
    rng = np.random.default_rng(seed)
    cols = int(width // 34)
    rows = count // cols + 1
    w = solver(World(bounds=(0, 0, width, 40 * rows + 200)))
    for k in range(count):
        x = 20 + (k % cols) * 34 + rng.uniform(-1, 1)
        y = 20 + (k // cols) * 34
        w.create_entity(Particle(x, y, radius=rng.uniform(8, 16), mass=1.0))
    return w


def jelly_field(balls: int, vertices: int = 24, seed: int = 0) -> World:
    """``balls`` jelly balls in rows inside a wide box."""
    per_row = 20
    rows = balls // per_row + 1
    w = solver(World(bounds=(0, 0, per_row * 100 + 40, rows * 110 + 300)))
    rng = np.random.default_rng(seed)
    for k in range(balls):
        jelly_ball(w, 60 + (k % per_row) * 100 + rng.uniform(-5, 5), 80 + (k // per_row) * 110,
                   radius=40, vertices=vertices)
    return w


def pendulum(length: float = 200.0, angle: float = 0.1) -> tuple[World, int]:
    """A bob on a rigid link from a pin, released at ``angle`` radians, no damping."""
    w = solver(World(bounds=None, damping=1.0))
    pin = w.create_entity(Particle(400, 500), Anchor())
    bob = w.create_entity(Particle(400 + length * np.sin(angle), 500 - length * np.cos(angle)))
    w.create_entity(Spring(pin, bob, max_stretch=None))
    return w, bob


def chaos(seed: int = 1) -> World:
    """Heavy and light particles, a jelly and a chain thrown around a box."""
    rng = np.random.default_rng(seed)
    w = solver(World(bounds=(0, 0, 600, 500)))
    for _ in range(60):
        w.create_entity(Particle(rng.uniform(20, 580), rng.uniform(20, 480),
                                 mass=float(rng.choice([0.5, 5.0])), radius=rng.uniform(5, 15),
                                 vx=rng.uniform(-900, 900), vy=rng.uniform(-900, 900)))
    jelly_ball(w, 300, 250, radius=50)
    return w


def pyramid_layout(base: int, size: float = 40.0,
                   gap: float | None = None) -> list[tuple[float, float]]:
    """Box centres of a ``base``-wide pyramid of ``size`` px boxes on a ground whose top is
    y = 0, bottom row first: row r holds ``base - r`` boxes ``size + gap`` apart (``gap``
    5 % of ``size`` unless given, like Box2D's pyramid sample), centred on x = 0, each row
    resting exactly on the one below (y = size/2 + r*size). Every engine's builder uses it."""
    gap = 0.05 * size if gap is None else gap
    pitch = size + gap
    return [((i - (base - r - 1) / 2) * pitch, size / 2 + r * size)
            for r in range(base) for i in range(base - r)]


def pyramid_ground(base: int, size: float = 40.0) -> tuple[float, float, float, float]:
    """The static ground of ``pyramid_layout``: centre x, centre y, width, height (top at
    y = 0, twice as wide as the pyramid's base plus a box either side)."""
    width = 2 * (base + 2) * size * 1.05
    return 0.0, -size / 2, width, size


def box_pyramid(base: int, size: float = 40.0,
                gap: float | None = None) -> tuple[World, list[int]]:
    """The rigid-body stacking test (Box2D's ``pyramid``): ``pyramid_layout`` boxes with
    friction 0.6 and mass 1 on a static ground box; the world and the boxes in placement
    order (bottom row first, left to right)."""
    from ecsgoo import RigidBody  # rigid bodies are newer than the rest of this module

    w = World(gravity=(0, -980), bounds=None).use(*(s() for s in systems.SOLVER))
    gx, gy, gw, gh = pyramid_ground(base, size)
    w.create_entity(RigidBody.box(gx, gy, gw, gh, friction=0.6), Anchor())
    boxes = [w.create_entity(RigidBody.box(x, y, size, size, angle=0.0, mass=1.0, friction=0.6,
                                           restitution=0.0))
             for x, y in pyramid_layout(base, size, gap)]
    return w, boxes


def ray_batch(width: float, height: float, band: tuple[float, float], count: int = 1000,
              seed: int = 0, across: float = 0.2) -> np.ndarray:
    """``count`` rays ``(px, py, qx, qy)`` inside a ``width`` × ``height`` box (px, 5 px in
    from its walls, so no ray reaches them): most from the top down to the floor at random
    x (slanted by up to ±100 px), the fraction ``across`` horizontal — left to right or
    right to left — at random heights in ``band`` (y from, y to). Fixed ``seed``."""
    rng = np.random.default_rng(seed)
    lo, hi = 5.0, width - 5.0
    rays = np.empty((count, 4))
    flat = rng.random(count) < across
    down = ~flat
    x = rng.uniform(lo, hi, count)
    rays[down, 0], rays[down, 1] = x[down], height - 5.0
    rays[down, 2] = np.clip(x[down] + rng.uniform(-100, 100, count)[down], lo, hi)
    rays[down, 3] = 5.0
    y = rng.uniform(band[0], band[1], count)
    left = rng.random(count) < 0.5
    rays[flat, 0] = np.where(left[flat], lo, hi)
    rays[flat, 2] = np.where(left[flat], hi, lo)
    rays[flat, 1] = rays[flat, 3] = y[flat]
    return rays
