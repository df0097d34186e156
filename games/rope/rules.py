"""RopeRules: collect stars the candy touches, tie it to hooks it passes, feed Om Nom,
lose the candy off screen.

Reads: candy particle position and radius; the Sensors on the stars' and Om Nom's entities
(what they held at the end of the last frame: the candy touching a star, reaching his
mouth); Star, Hook, Monster, Board, Rope components.
Writes: Star.taken_at, Hook.tied_at, Board.result; creates a hook's rope; deletes the eaten
candy and the rope ends hanging on it; the previous positions (velocities) of cut ropes' nodes
and of the candy (damping and bending of the pieces: ``_drag_cut_ropes``).
Events: ``star_collected(world, star_entity)``, ``candy_hooked(world, hook_entity)``,
``candy_eaten(world, candy_entity)``, ``candy_lost(world, candy_entity)``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ecsgoo import Particle, Sensor, Spring
from ecsgoo.systems import Stage, register_stage

from .components import Board, Candy, Hook, Monster, Rope, Star
from .tie import add_rope

#: How far (px) past the bottom and sides of the view the candy may go before it
#: counts as lost; above the top it may fly higher, it will fall back.
LOST_MARGIN = 40.0
LOST_ABOVE = 600.0
#: Of a cut rope node's velocity, the part kept each frame (the rest is air drag).
CUT_DRAG = 0.93
#: Of the non-rigid motion of the candy and the tails hanging on it, the part taken each
#: frame (what makes a tail curl as the candy swings).
TAIL_DAMP = 0.6
#: Bending stiffness of cut rope pieces: of the slack between a node's two neighbours
#: (their distance short of the two links' lengths), the part pushed out each frame.
BEND = 1.0


@register_stage
class RopeRules(Stage):
    """The rules of the rope game, once per frame after the solver stages."""

    name = "rope_rules"

    def process(self, world: Any) -> None:
        _drag_cut_ropes(world)
        board = board_of(world)
        if board is None or board.result != "running":
            return
        for entity, (_, p) in list(world.get_components(Candy, Particle)):
            x, y, r = p.x, p.y, p.radius
            _collect_stars(world, entity)
            _tie_hooks(world, entity, x, y, r)
            if _reaches_monster(world, entity):
                board.result = "won"
                _eat(world, entity)
                world.dispatch("candy_eaten", world, entity)
            elif _off_screen(board.view, x, y, r):
                board.result = "lost"
                world.dispatch("candy_lost", world, entity)


def _drag_cut_ropes(world: Any) -> None:
    """Calm the pieces cut ropes leave, so they hang straight instead of curling.

    A light chain with nothing pulling it taut swings and curls for seconds (the level's
    damping is low, for the candy's swing), and it has no bending stiffness. Each frame:
    the stub on a pin keeps ``CUT_DRAG`` of its velocity (air drag: it hangs straight down
    within a second); the tail still tied to the candy loses ``TAIL_DAMP`` of the motion
    that is not a rigid motion of it and the candy (``_damp_deformation``: the candy's
    swing and flight are not slowed); and both get skip-one bending (``_bend``), which
    unfolds a piece even where nothing pulls it straight (the candy in free flight). A
    piece cut free at both ends falls as it is. Cut the Rope's cut ropes hang like that.
    """
    stubs: list[int] = []
    tails: list[int] = []
    chains: list[list[int]] = []
    candy = candy_of(world)
    for _, rope in world.get_component(Rope):
        stub, tail = _cut_pieces(world, rope)
        stubs += stub
        tails += tail
        chains += [[rope.pin, *stub], [*tail, *([candy] if tail else [])]]
    parts = world.particles
    if stubs:
        rows = parts.rows(stubs)
        pos, prev = parts.pos[rows], parts.prev[rows]
        parts.write("prev", pos - (pos - prev) * CUT_DRAG, rows)
    if tails:
        _damp_deformation(world, np.append(parts.rows(tails), parts.row(candy)))
    _bend(world, [parts.rows(c) for c in chains if len(c) >= 3])


def _cut_pieces(world: Any, rope: Rope) -> tuple[list[int], list[int]]:
    """The node entities of a cut ``rope``'s stub on its pin (nodes 1.. up to the first cut
    link) and of its tail on the candy (after the last cut link; empty once the candy is
    gone); both empty for a whole rope."""
    springs = [world.try_component(s, Spring) for s in rope.springs]
    cut = [k for k, s in enumerate(springs) if s is None or s.broken]
    if not cut:
        return [], []  # whole: it holds the candy, taut
    stub = [n for n in rope.nodes[1:cut[0] + 1] if world.entity_exists(n)]
    tail = [n for n in rope.nodes[cut[-1] + 1:] if world.entity_exists(n)]
    return stub, tail if candy_of(world) is not None else []


def _damp_deformation(world: Any, rows: np.ndarray) -> None:
    """Take ``TAIL_DAMP`` of the motion of the particles at ``rows`` (the candy and the
    tails hanging on it) that is not a rigid motion of them all (Müller et al. 2007, PBD
    velocity damping): their momentum and angular momentum are unchanged, so the candy's
    swing and flight keep their energy, and only the curling dies out. Velocities are
    frame displacements here, ``pos - prev`` (px)."""
    parts = world.particles
    pos, prev = parts.pos[rows], parts.prev[rows]
    m = parts.mass[rows]
    v = pos - prev
    centre = (m[:, None] * pos).sum(axis=0) / m.sum()
    v_cm = (m[:, None] * v).sum(axis=0) / m.sum()
    r = pos - centre
    spin = (m * (r[:, 0] * v[:, 1] - r[:, 1] * v[:, 0])).sum()
    inertia = (m * (r * r).sum(axis=1)).sum()
    omega = spin / inertia if inertia > 1e-9 else 0.0
    rigid = v_cm + omega * np.column_stack([-r[:, 1], r[:, 0]])
    parts.write("prev", pos - (v + TAIL_DAMP * (rigid - v)), rows)


def _bend(world: Any, chains: list[Any]) -> None:
    """Skip-one bending on cut pieces (each an array of particle rows in order along it):
    a node's two neighbours closer than its two links are long are pushed apart by ``BEND``
    of the slack, split by inverse mass (equal and opposite: no momentum from nowhere), as a
    velocity for the next frame. The links then pull the node between them into line, so a
    piece in free fall, where no gravity straightens it, does not stay folded."""
    if not chains:
        return
    a = np.concatenate([c[:-2] for c in chains])
    m = np.concatenate([c[1:-1] for c in chains])
    b = np.concatenate([c[2:] for c in chains])
    parts = world.particles
    pos, prev = parts.pos, parts.prev
    chord = pos[b] - pos[a]
    span = np.hypot(*chord.T)
    slack = (np.hypot(*(pos[m] - pos[a]).T) + np.hypot(*(pos[b] - pos[m]).T)) - span
    wa, wb = _inverse_mass(parts, a), _inverse_mass(parts, b)
    share = np.where(wa + wb > 0, BEND * slack / np.maximum(span, 1e-9)
                     / np.maximum(wa + wb, 1e-12), 0.0)[:, None] * chord / world.substeps
    push = np.zeros_like(pos)
    np.add.at(push, a, -share * wa[:, None])
    np.add.at(push, b, share * wb[:, None])
    rows = np.unique(np.concatenate([a, b]))
    parts.write("prev", prev[rows] - push[rows], rows)


def _inverse_mass(parts: Any, rows: np.ndarray) -> np.ndarray:
    """1 / mass of ``rows``, 0 for a pinned particle."""
    return np.where(parts.pinned[rows], 0.0, 1.0 / parts.mass[rows])


def board_of(world: Any) -> Board | None:
    """The level's Board component (None in a world without one)."""
    boards = world.get_component(Board)
    return boards[0][1] if boards else None


def candy_of(world: Any) -> int | None:
    """The candy's entity, or None once it has been eaten."""
    candies = world.get_component(Candy)
    return candies[0][0] if candies else None


def holding(world: Any) -> list[int]:
    """Entities of the Rope components still holding the candy (no link cut), by id."""
    if candy_of(world) is None:
        return []
    out = []
    for entity, rope in world.get_component(Rope):
        springs = [world.try_component(s, Spring) for s in rope.springs]
        if springs and all(s is not None and not s.broken for s in springs):
            out.append(entity)
    return sorted(out)


def _collect_stars(world: Any, candy: int) -> None:
    for entity, star in world.get_component(Star):
        if not star.collected and candy in star_sensor(world, entity).inside:
            star.taken_at = world.frame
            world.dispatch("star_collected", world, entity)


def _tie_hooks(world: Any, candy: int, x: float, y: float, r: float) -> None:
    """Tie the candy to every hook whose dashed ring its disc touches (as drawn)."""
    for entity, hook in list(world.get_component(Hook)):
        if hook.tied_at < 0 and math.hypot(x - hook.x, y - hook.y) <= hook.reach + r:
            hook.tied_at = world.frame
            add_rope(world, (hook.x, hook.y), candy)
            world.dispatch("candy_hooked", world, entity)


def _reaches_monster(world: Any, candy: int) -> bool:
    return any(candy in mouth_of(world, entity).inside
               for entity, _ in world.get_component(Monster))


def mouth_sensor(monster: Monster, candy_radius: float) -> Sensor:
    """Om Nom's mouth: the circle whose edge a candy of ``candy_radius`` px touches when
    its centre comes within ``monster.radius`` of him."""
    return Sensor.circle(monster.x, monster.y, max(monster.radius - candy_radius, 1.0))


def mouth_of(world: Any, monster: int) -> Sensor:
    """The Sensor on Om Nom's entity ``monster``: his mouth.

    A world saved before he had one (an old quick save) gets it here, the size the old
    rule checked by hand (the candy's centre within his radius).
    """
    def make() -> Sensor:
        candies = list(world.get_components(Candy, Particle))
        radius = candies[0][1][1].radius if candies else 14.0
        return mouth_sensor(world.component(monster, Monster), radius)
    return _sensor_on(world, monster, make)


def star_sensor(world: Any, star: int) -> Sensor:
    """The Sensor on the star's entity (added, the star's own disc, to an old save)."""
    def make() -> Sensor:
        s = world.component(star, Star)
        return Sensor.circle(s.x, s.y, s.radius)
    return _sensor_on(world, star, make)


def _sensor_on(world: Any, entity: int, make: Any) -> Sensor:
    sensor = world.try_component(entity, Sensor)
    if sensor is None:
        world.add_component(entity, make())
        sensor = world.component(entity, Sensor)
    return sensor


def _off_screen(view: list[float], x: float, y: float, r: float) -> bool:
    left, bottom, right, top = view
    return (y + r < bottom - LOST_MARGIN or x + r < left - LOST_MARGIN
            or x - r > right + LOST_MARGIN or y - r > top + LOST_ABOVE)


def _eat(world: Any, candy: int) -> None:
    """Delete the candy and the rope pieces that hung on it (no longer tied to a pin)."""
    for _, rope in world.get_component(Rope):
        keep = len(rope.nodes)
        for k, s in enumerate(rope.springs):
            spring = world.try_component(s, Spring)
            if spring is None or spring.broken:
                keep = k + 1  # nodes 0..k stay on the pin
                break
        for node in rope.nodes[keep:]:
            world.delete_entity(node)
        rope.nodes = rope.nodes[:keep]
        rope.springs = [s for s in rope.springs[:keep] if world.entity_exists(s)]
    world.delete_entity(candy)
