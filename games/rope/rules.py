"""RopeRules: collect stars the candy touches, tie it to hooks it passes, feed Om Nom,
lose the candy off screen.

Reads: candy particle position and radius; the Sensors on the stars' and Om Nom's entities
(what they held at the end of the last frame: the candy touching a star, reaching his
mouth); Star, Hook, Monster, Board, Rope components.
Writes: Star.taken_at, Hook.tied_at, Board.result; creates a hook's rope; deletes the eaten
candy and the rope ends hanging on it; the previous positions (velocities) of cut ropes' nodes
and of the candy (damping and bending of the pieces: ``cut_pieces``).
Events: ``star_collected(world, star_entity)``, ``candy_hooked(world, hook_entity)``,
``candy_eaten(world, candy_entity)``, ``candy_lost(world, candy_entity)``.
"""

from __future__ import annotations

import math
from typing import Any

from ecsgoo import Particle, Sensor, Spring
from ecsgoo.systems import Stage, register_stage

from .components import Board, Candy, Monster, Rope, Star
from .cut_pieces import PieceFinder, calm
from .index import IndexFinder, RopeIndex
from .tie import add_rope

#: How far (px) past the bottom and sides of the view the candy may go before it
#: counts as lost; above the top it may fly higher, it will fall back.
LOST_MARGIN = 40.0
LOST_ABOVE = 600.0


@register_stage
class RopeRules(Stage):
    """The rules of the rope game, once per frame after the solver stages."""

    name = "rope_rules"

    def __init__(self) -> None:
        self._index = IndexFinder()  # this world's candy, ropes, stars..., kept between frames
        self._pieces = PieceFinder()  # and its cut pieces

    def process(self, world: Any) -> None:
        index = self._index.of(world)
        pieces = self._pieces.pieces(world, index)  # the drag on what cut ropes left
        if pieces is not None:
            calm(world, pieces, index)
        board = index.board
        if board is None or board.result != "running":
            return
        for entity, p in index.candies:
            x, y, r = p.x, p.y, p.radius
            # a handler or a new rope may change the world: the rules after look again
            if _collect_stars(world, index, entity):
                index = self._index.of(world)
            if _tie_hooks(world, index, entity, x, y, r):
                index = self._index.of(world)
            if _reaches_monster(world, index, entity):
                board.result = "won"
                _eat(world, entity)
                world.dispatch("candy_eaten", world, entity)
            elif _off_screen(board.view, x, y, r):
                board.result = "lost"
                world.dispatch("candy_lost", world, entity)
            else:
                continue
            index = self._index.of(world)  # what the event's handlers did, for the next


class RulesIndex:
    """A world's ``RopeIndex`` as its ``RopeRules`` stage keeps it, for a reader outside the
    pipeline (the environment): one look-up per change of structure serves both (a fresh
    world's costs ~60-100 µs, once an episode). A world without the stage: an
    ``IndexFinder`` of its own. A cache: a copy of it starts empty."""

    def __init__(self) -> None:
        self._pipeline: Any = None  # the pipeline whose stage's finder is used
        self._finder = IndexFinder()

    def __deepcopy__(self, memo: dict[int, Any]) -> RulesIndex:
        return RulesIndex()

    def of(self, world: Any) -> RopeIndex:
        """The index of ``world`` as it is now."""
        if world.pipeline is not self._pipeline:  # another world, or new stages (``use``)
            self._pipeline = world.pipeline
            stage = next((s for s in world.pipeline if isinstance(s, RopeRules)), None)
            self._finder = IndexFinder() if stage is None else stage._index
        return self._finder.of(world)


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
    springs = world.springs
    whole = set(springs.entity[~springs.broken].tolist())  # one set, not a look-up per link
    out = [entity for entity, rope in world.get_component(Rope)
           if rope.springs and whole.issuperset(rope.springs)]
    return sorted(out)


def _collect_stars(world: Any, index: RopeIndex, candy: int) -> bool:
    """Take the stars whose sensors hold ``candy``; whether one was (or a sensor added)."""
    changed = False
    for entity, star, sensor in index.stars:
        if sensor is None:  # an old save's star: its sensor is added
            sensor, changed = star_sensor(world, entity), True
        if not star.collected and candy in sensor.inside:
            star.taken_at = world.frame
            world.dispatch("star_collected", world, entity)
            changed = True
    return changed


def _tie_hooks(world: Any, index: RopeIndex, candy: int, x: float, y: float,
               r: float) -> bool:
    """Tie the candy to every hook whose dashed ring its disc touches (as drawn); whether
    one was."""
    tied = False
    for entity, hook in index.hooks:
        if hook.tied_at < 0 and math.hypot(x - hook.x, y - hook.y) <= hook.reach + r:
            hook.tied_at = world.frame
            add_rope(world, (hook.x, hook.y), candy)
            world.dispatch("candy_hooked", world, entity)
            tied = True
    return tied


def _reaches_monster(world: Any, index: RopeIndex, candy: int) -> bool:
    for entity, _, mouth in index.mouths:
        if candy in (mouth_of(world, entity) if mouth is None else mouth).inside:
            return True  # (an old save's Om Nom gets his mouth from mouth_of)
    return False


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
