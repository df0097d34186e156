"""The playground's world data and its one rule stage: settings writers, fling score, tracker.

Everything a quick save must keep lives in the world: the slider settings live
in the world's rows (spring compliance, ring pressure, shape alpha) and in the world's
own settings (gravity, damping); the score lives in a ``PlaygroundStats``
component on one entity, updated by the ``FlingTracker`` stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ecsgoo import Particle, World, limits, register_component
from ecsgoo.systems import Stage, register_stage

#: Slider ranges (low, high). Stiffness stops at 0.9: at 1 (compliance 0) a jelly ball's
#: rigid ring, skip-one links and spokes amplify round-off until it shivers (from 1e-11
#: to ~3000 px/s within 20 frames of free fall), and past 0.9 a deflated ball shivers.
DAMPING = (0.90, 1.0)
GRAVITY = (0.0, 2000.0)
STIFFNESS = (0.02, 0.9)
#: The levels' spring stiffness: soft enough for pressure to shape the balls.
STIFFNESS_DEFAULT = 0.6
PRESSURE = (0.35, 2.2)
ALPHA = (0.04, 1.0)
#: A release faster than this (px/s) counts as a fling.
FLING_SPEED = 400.0
#: How long after a fling its height still counts (frames).
FLIGHT_FRAMES = 180


@dataclass
class PlaygroundStats:
    """The score of a playground session (one entity holds it).

    ``flings``: releases faster than ``FLING_SPEED``; ``max_height``: the
    highest a flung particle's centre rose within ``FLIGHT_FRAMES`` of its
    release (px above the ground); ``flung``: that particle's entity (-1: none
    in flight) and ``flung_until`` the last frame it is watched (both written
    by the game on release and by ``FlingTracker``).
    """

    flings: int = 0
    max_height: float = 0.0
    flung: int = -1
    flung_until: int = 0


register_component(PlaygroundStats, name="jelly_stats")


def stats(world: World) -> PlaygroundStats:
    """The world's ``PlaygroundStats`` (created if the world has none)."""
    found = world.get_component(PlaygroundStats)
    if found:
        return found[0][1]
    made = PlaygroundStats()
    world.create_entity(made)
    return made


@register_stage
class FlingTracker(Stage):
    """Raise ``PlaygroundStats.max_height`` while a flung particle is in flight.

    Reads: particle pos; ``PlaygroundStats``. Writes: ``PlaygroundStats``.
    """

    name = "jelly_tracker"

    def process(self, world: Any) -> None:
        st = stats(world)
        flung = world.try_component(st.flung, Particle) if world.entity_exists(st.flung) else None
        if flung is None or world.frame > st.flung_until:
            st.flung = -1
            return
        ground = world.bounds[1] if world.bounds is not None else 0.0
        y = flung.y - ground
        st.max_height = max(st.max_height, y)


# -- settings: bulk writes through the world's views, reads back from them ------------


def set_stiffness(world: World, k: float) -> None:
    """Give every spring stiffness ``k`` (one write over the compliance column)."""
    world.set_stiffness(k)


def stiffness(world: World) -> float:
    """The springs' mean stiffness (1 if there are none)."""
    if not len(world.springs):
        return 1.0
    return float(limits.stiffness_of(float(np.mean(world.springs.compliance))))


def set_pressure(world: World, value: float) -> None:
    """Give every jelly ball the pressure ``value`` (target area = rest area × pressure).

    A ball's inner springs (spokes and skip-one links) follow: their rest
    lengths scale with √pressure, the size the target area asks for. The skin
    (the ring's edges) keeps its length above pressure 1, so at 2.2 it is
    stretched taut; below 1 it contracts too (√pressure), so at 0.35 the ball
    is a small slumped blob. Springs left at lengths the target area forbids
    fight the area constraint every substep, and with stiff springs that
    fight shows as a violent shiver (a skin of full length crinkling round a
    0.35 area buckled at ~800 px/s).
    """
    if not len(world.rings):
        return
    old = world.rings.pressure.copy()
    world.rings.write("pressure", value)
    skin = np.sqrt(np.minimum(value, 1.0) / np.minimum(old, 1.0))
    scale_inner_springs(world, np.sqrt(value / old), skin)


def ball_centre(world: World, ring: int) -> int:
    """The particle row of ring ``ring``'s centre: its group's one particle off the ring.

    -1 if there is none (a ring without spokes).
    """
    members = world.ring_members(ring)
    groups = world.particles.group
    group = groups[members[0]]
    if group == 0:
        return -1
    inner = np.setdiff1d(np.flatnonzero(groups == group), members)
    return int(inner[0]) if len(inner) == 1 else -1


def scale_inner_springs(world: World, factor: np.ndarray,
                        skin: np.ndarray | None = None) -> None:
    """Multiply the rest length of ring ``k``'s inner springs by ``factor[k]``
    (and of its skin, the ring's edges, by ``skin[k]`` if given).

    Inner springs join two particles of the ball (ring vertices or its centre)
    but are not an edge of the ring.
    """
    n = len(world.particles)
    ball = np.full(n, -1, dtype=np.int64)
    place = np.full(n, -1, dtype=np.int64)  # index around the ring; the centre has none
    size = np.zeros(len(world.rings), dtype=np.int64)
    for k in range(len(world.rings)):
        ring = world.ring_members(k)
        ball[ring], place[ring], size[k] = k, np.arange(len(ring)), len(ring)
        centre = ball_centre(world, k)
        if centre >= 0:
            ball[centre] = k
    a, b = world.springs.a, world.springs.b
    same = (ball[a] >= 0) & (ball[a] == ball[b])
    step = np.abs(place[a] - place[b])
    edge = (place[a] >= 0) & (place[b] >= 0) & ((step == 1) | (step == size[ball[a]] - 1))
    rest = world.springs.rest.copy()
    inner = same & ~edge
    rest[inner] *= factor[ball[a][inner]]
    if skin is not None:
        rim = same & edge
        rest[rim] *= skin[ball[a][rim]]
    world.springs.write("rest", rest)


def pressure(world: World) -> float:
    """The mean pressure of the area constraints (1 if there are none)."""
    return float(np.mean(world.rings.pressure)) if len(world.rings) else 1.0


def set_alpha(world: World, value: float) -> None:
    """Give every shape-matched body the alpha ``value`` (1 rigid … 0.04 soft memory)."""
    world.shapes.write("alpha", value)


def alpha(world: World) -> float:
    """The mean shape-match alpha (1 if there are no shapes)."""
    return float(np.mean(world.shapes.alpha)) if len(world.shapes) else 1.0


def kinetic_energy(world: World) -> float:
    """½ Σ m v² over the movable particles (mass·px²/s²)."""
    p = world.particles
    movable = p.w > 0
    v = p.velocity[movable]
    return float(0.5 * np.sum(p.mass[movable] * np.sum(v**2, axis=1)))
