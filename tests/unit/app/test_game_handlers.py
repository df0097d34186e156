"""Handlers a game keeps: (world, *args), declared once, wired on build, load, adopt, clone."""

from __future__ import annotations

import pytest

import ecsgoo
from ecsgoo import Particle, World, systems
from ecsgoo.game import Game, handles


class Drop(Game):
    """Two discs fall on the floor; the game counts their landings and sensor visits."""

    name = "drop_handlers_test"
    handlers = {"contact_began": "on_hit", "spring_broke": ("on_snap",)}

    def build(self) -> World:
        world = World(bounds=(0, 0, 400, 300))
        world.use(*(s() for s in systems.SOLVER))
        for x in (100, 200):
            world.create_entity(Particle(x, 40, radius=8, events=True))
        world.create_entity(ecsgoo.Sensor.box(200, 10, 400, 20))
        self.hits: list[tuple[World, int]] = []
        self.entered: list[World] = []
        return world

    def on_hit(self, world: World, a: int, b: int, *rest: float) -> None:
        self.hits.append((world, a))

    def on_snap(self, world: World, spring: int) -> None:
        pass

    @handles("sensor_entered")
    def on_enter(self, world: World, sensor: int, entity: int) -> None:
        self.entered.append(world)


def test_handlers_get_the_world_first_and_are_wired_on_build():
    game = Drop()
    game.world.step(40)
    assert len(game.hits) == 2 and all(w is game.world for w, _ in game.hits)
    assert game.entered and all(w is game.world for w in game.entered)


def test_a_clone_keeps_them_and_passes_itself():
    game = Drop()
    ahead = game.world.clone()
    ahead.step(40)
    assert len(game.hits) == 2 and all(w is ahead for w, _ in game.hits)


def test_load_and_adopt_wire_them_once():
    game = Drop()
    loaded = ecsgoo.loads(ecsgoo.dumps(game.world))
    game.adopt(loaded)
    game.adopt(loaded)  # again: still once
    loaded.step(40)
    assert len(game.hits) == 2
    game.restart()
    game.world.step(40)
    assert len(game.hits) == 2  # restart made new lists


def test_adopting_a_clone_of_another_games_world_rewires_it():
    first, second = Drop(), Drop()
    second.adopt(first.world.clone())
    second.world.step(40)
    assert len(second.hits) == 2 and not first.hits


def test_set_handler_with_world_and_old_signatures():
    w = World(bounds=(0, 0, 400, 300))
    w.use(*(s() for s in systems.SOLVER))
    w.create_entity(Particle(100, 40, radius=8, events=True))
    got: dict[str, tuple] = {}
    w.set_handler("contact_began", lambda a, b, x, y, nx, ny: got.setdefault("old", (a, b)))
    w.set_handler("contact_began", lambda world, a, b, *r: got.setdefault("new", (world, a)),
                  with_world=True)
    w.set_handler("joint_broke", lambda world, j: None, with_world=True)
    w.step(40)
    assert got["old"][1] == -1 and got["new"][0] is w
    w.dispatch("joint_broke", w, 7)  # carries the world already: not given twice


def test_a_handler_name_that_is_no_method_is_refused():
    class Bad(Drop):
        handlers = {"contact_began": "nope"}

    with pytest.raises(TypeError, match="'contact_began' names 'nope'"):
        Bad()
