"""What a game maker reaches for: held keys, filters on every builder, messages that say
what an entity is."""

from __future__ import annotations

import pytest
from toygame import Toy

from ecsgoo import Joint, Particle, RigidBody, World, WorldError, bodies, systems
from ecsgoo.app import Player


def test_held_keys_are_in_keys_down_until_released_and_the_game_hears_both():
    game = Toy()
    heard: list[tuple[str, str]] = []
    game.on_key = lambda k: heard.append(("down", k))
    game.on_key_release = lambda k: heard.append(("up", k))
    player = Player(game)
    player.key("D")
    player.key("left")
    assert game.keys_down == {"d", "left"}
    player.key_release("D")
    assert game.keys_down == {"left"} and heard == [("down", "d"), ("down", "left"),
                                                   ("up", "d")]
    player.key_release("x")  # never went down: nothing to tell
    assert heard[-1] == ("up", "d")


def test_the_players_own_keys_are_not_held_for_the_game():
    game = Toy()
    player = Player(game)
    player.key("p")  # pause: the player's
    assert game.keys_down == set() and player.paused


def test_a_bot_holds_keys_headless_through_the_game():
    game = Toy()
    game.press_key("d")
    assert "d" in game.keys_down
    game.release_key("d")
    assert game.keys_down == set()


def test_every_builder_takes_the_particles_surface_and_filters():
    w = World()
    made = [bodies.jelly_ball(w, 100, 100, layer=4, mask=2, friction=0.9, restitution=0.5,
                              events=True),
            bodies.box(w, 300, 100, layer=4, mask=2, friction=0.9, restitution=0.5,
                       events=True),
            bodies.rope(w, (500, 300), (600, 300), 4, layer=4, mask=2, friction=0.9,
                        restitution=0.5, events=True)]
    for body in made:
        for e in body.particles:
            p = w.component(e, Particle)
            assert (p.layer, p.mask, p.friction, p.restitution, p.events) == (
                4, 2, 0.9, 0.5, True)
    plain = bodies.jelly_ball(w, 100, 300)
    p = w.component(plain.particles[0], Particle)
    assert (p.layer, p.mask, p.events) == (1, -1, False)
    with pytest.raises(TypeError, match="colour"):
        bodies.box(w, 0, 0, colour=3)
    with pytest.raises(WorldError, match="friction"):
        bodies.rope(w, (0, 0), (10, 0), 2, friction=-1.0)


def test_is_sleeping_on_a_joint_says_it_is_a_joint():
    w = World(sleep=True).use(*(s() for s in systems.SOLVER))
    a = w.create_entity(RigidBody.box(0, 0, 10, 10))
    b = w.create_entity(RigidBody.box(20, 0, 10, 10))
    j = w.create_entity(Joint(a, b, 10, 0))
    with pytest.raises(WorldError, match=f"entity {j}: is a Joint"):
        w.is_sleeping(j)
    w.delete_entity(b)
    with pytest.raises(WorldError, match="not alive"):
        w.is_sleeping(b)


def test_a_game_file_plays_by_its_path_with_no_game_name(capsys):
    import json
    from pathlib import Path

    from ecsgoo import cli

    toy = str(Path(__file__).resolve().parents[2] / "toygame.py")
    assert cli.main(["play", "--game", toy, "--headless", "--frames", "3"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["game"], summary["frames"]) == ("toy", 3)
