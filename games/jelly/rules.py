"""The playground's world data and its rule stages: settings writers, inflater, fling score.

Everything a quick save must keep lives in the world: the slider settings live
in the world's rows (spring compliance, shape alpha), in an ``Inflation`` component
(the pressure the balls ease toward, by the ``Inflate`` stage) and in the world's
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
#: Most a ball's pressure changes in one frame (a factor): the slider's whole range in
#: ~0.8 s.
PRESSURE_RATE = 1.04
ALPHA = (0.04, 1.0)
#: Shape-match alpha of a jelly ball's memory (fraction per 1/60 s): however soft its
#: springs, a crumpled ball turns the right way out again within a second or two (weak
#: enough that at the softest springs it still slumps and squashes like a water bag).
BALL_MEMORY = 0.035
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
    return _the_one(world, PlaygroundStats)


def _the_one(world: World, kind: type) -> Any:
    """The world's one component of ``kind``, made (with its defaults) if it has none."""
    found = world.get_component(kind)
    if found:
        return found[0][1]
    made = kind()
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
    """Ask every jelly ball for pressure ``value``; ``Inflate`` eases them there.

    The balls (and any spawned later) reach it within a second at most, a
    factor ``PRESSURE_RATE`` per frame: a ring whose target area jumps at
    once (a click at the slider's end) is thrown apart by its own area
    constraint — soft springs let it fold inside out, stiff ones crinkle.
    """
    inflation(world).target = float(value)


def apply_pressure(world: World, value: Any) -> None:
    """Give the jelly balls pressure ``value`` now (one number, or one per ring).

    Target area = rest area × pressure. A ball's inner springs (spokes and
    skip-one links) follow: their rest lengths scale with √pressure, the size
    the target area asks for. The skin (the ring's edges) keeps its length
    above pressure 1, so at 2.2 it is stretched taut; below 1 it contracts
    too (√pressure), so at 0.35 the ball is a small slumped blob. Springs left
    at lengths the target area forbids fight the area constraint every
    substep, and with stiff springs that fight shows as a violent shiver (a
    skin of full length crinkling round a 0.35 area buckled at ~800 px/s).
    """
    if not len(world.areas):
        return
    old = world.areas.pressure.copy()
    world.areas.write("pressure", value)
    new = world.areas.pressure
    skin = np.sqrt(np.minimum(new, 1.0) / np.minimum(old, 1.0))
    scale_inner_springs(world, np.sqrt(new / old), skin)
    shapes, rings = memories(world)
    world.shapes.write("scale", np.sqrt(new[rings]), shapes)


def memories(world: World) -> tuple[np.ndarray, np.ndarray]:
    """The shape rows that are a jelly ball's memory (a ShapeMatch on an AreaConstraint's
    entity) and each one's ring row."""
    ring_of = {int(e): k for k, e in enumerate(world.areas.entity)}
    pairs = [(s, ring_of[int(e)]) for s, e in enumerate(world.shapes.entity) if int(e) in ring_of]
    out = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    return out[:, 0], out[:, 1]


def box_shapes(world: World) -> np.ndarray:
    """The shape rows the alpha slider moves: every ShapeMatch but the balls' memories."""
    return np.setdiff1d(np.arange(len(world.shapes)), memories(world)[0])


@dataclass
class Inflation:
    """The pressure the slider asks of every jelly ball (``Inflate`` eases them to it)."""

    target: float = 1.0


register_component(Inflation, name="jelly_inflation")


def inflation(world: World) -> Inflation:
    """The world's ``Inflation`` (created, at pressure 1, if the world has none)."""
    return _the_one(world, Inflation)


@register_stage
class Inflate(Stage):
    """Move every ring's pressure toward ``Inflation.target``, ``PRESSURE_RATE``× a frame at most.

    Reads: ring pressure; ``Inflation``. Writes: ring pressure, ball spring rest lengths
    (``apply_pressure``). Nothing to do, and no work, once every ring is there.
    """

    name = "jelly_inflate"

    def process(self, world: Any) -> None:
        if not len(world.areas):
            return
        target = inflation(world).target
        now = world.areas.pressure
        if np.all(now == target):
            return
        apply_pressure(world, np.clip(target, now / PRESSURE_RATE, now * PRESSURE_RATE))


def ball_centre(world: World, ring: int) -> int:
    """The particle row of ring ``ring``'s centre: its group's one particle off the ring.

    -1 if there is none (a ring without spokes).
    """
    members = world.area_members(ring)
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
    size = np.zeros(len(world.areas), dtype=np.int64)
    for k in range(len(world.areas)):
        ring = world.area_members(k)
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
    """The pressure the slider asks for (``Inflation.target``; the balls ease toward it)."""
    return inflation(world).target


def set_alpha(world: World, value: float) -> None:
    """Give every shape-matched box the alpha ``value`` (1 rigid … 0.04 soft memory).

    The jelly balls' memories keep ``BALL_MEMORY``.
    """
    world.shapes.write("alpha", value, box_shapes(world))


def alpha(world: World) -> float:
    """The mean shape-match alpha of the boxes (1 if there are none)."""
    rows = box_shapes(world)
    return float(np.mean(world.shapes.alpha[rows])) if len(rows) else 1.0


def kinetic_energy(world: World) -> float:
    """½ Σ m v² over the movable particles (mass·px²/s²)."""
    p = world.particles
    movable = p.w > 0
    v = p.velocity[movable]
    return float(0.5 * np.sum(p.mass[movable] * np.sum(v**2, axis=1)))
