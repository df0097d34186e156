"""A game's first start on a cold kernel cache (``warmup.game_warm_up``): its rehearsal
compiles here, the rest in a helper behind it; the rehearsal leaves the game untouched.

That the rehearsal reaches what play reaches, and the helper process:
``tests/e2e/test_warmup.py``."""

from __future__ import annotations

from typing import Any

from ecsgoo import warmup


def _goo() -> Any:
    import ecsgoo.app.games as registry
    from ecsgoo.game import GAMES

    registry.discover()
    return GAMES["goo"](level=1, seed=0)


def test_a_cold_start_of_a_game_compiles_its_rehearsal_here_and_the_rest_behind(monkeypatch):
    calls: list[Any] = []
    monkeypatch.setattr(warmup, "cache_is_cold", lambda kernels=None: True)
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(warmup, "start_background",
                        lambda first, sleepers: calls.append((first, sleepers)))
    monkeypatch.setattr(warmup, "first_frames", lambda game: calls.append(game))
    game = _goo()
    warmup.game_warm_up(game)
    # goo is particles: their kernels behind the game, after its world falling asleep
    # (its discs meet no area, shape or static body)
    assert calls == [("soft", (False, False)), game]
    calls.clear()
    monkeypatch.setattr(warmup, "warm_up", lambda progress=None: calls.append("all") or 0)
    monkeypatch.setattr(warmup.os, "cpu_count", lambda: 1)
    warmup.game_warm_up(game)
    assert calls == ["all"]  # one core: everything first, no helper to take the game's core
    monkeypatch.setattr(warmup, "cache_is_cold", lambda kernels=None: False)
    calls.clear()
    assert warmup.game_warm_up(game) == 0 and calls == []


def test_terminal_warm_up_of_a_game_goes_the_games_way(monkeypatch):
    seen: list[Any] = []
    monkeypatch.setattr(warmup, "cache_is_cold", lambda kernels=None: True)
    monkeypatch.setattr(warmup, "game_warm_up", lambda game, progress: seen.append(game) or 0)
    game = _goo()
    warmup.terminal_warm_up(game=game)
    assert seen == [game]


def test_the_helper_is_told_the_form_a_world_falls_asleep_in():
    from ecsgoo import World
    from ecsgoo.components import AreaConstraint, Particle
    from ecsgoo.rigid import RigidBody

    world = World()
    assert warmup.sleepers_form(world) is None  # it does not sleep: nothing to compile
    world.sleep = True
    assert warmup.sleepers_form(world) == (False, False)
    ring = [world.create_entity(Particle(x, 0.0)) for x in (0.0, 10.0, 20.0)]
    world.create_entity(AreaConstraint(ring))
    world.create_entity(RigidBody.box(0, 0, 10, 10))
    assert warmup.sleepers_form(world) == (True, True)
    world.close()


def test_a_rehearsal_leaves_the_game_as_it_was():
    game = _goo()
    world, before, state = game.world, game.world.state_hash(), game.rng.getstate()
    warmup.first_frames(game, frames=30)
    assert game.world is world and world.state_hash() == before
    assert game.rng.getstate() == state and world.frame == 0


def test_a_game_that_cannot_be_made_again_rehearses_on_its_world_alone():
    from ecsgoo.game import Game

    game = _goo()
    odd = Game.__new__(type("Odd", (type(game),), {"__init__": lambda self, **kw: 1 / 0}))
    odd.__dict__.update(game.__dict__)
    twin = warmup._rehearsal(odd)
    assert type(twin) is Game and twin.bots == () and twin.world is not game.world
    twin.world.close()


def test_on_a_first_run_the_launcher_opens_at_once_and_a_picked_game_waits_for_its_own(
        monkeypatch):
    from ecsgoo.app import loading, window

    started: list[str] = []
    opened: list[Any] = []
    monkeypatch.setattr(warmup, "cache_is_cold", lambda kernels=None: True)
    monkeypatch.setattr(warmup, "start_background", lambda first="soft": started.append(first))
    monkeypatch.setattr(loading.LoadingScreen, "open_if_cold",
                        classmethod(lambda cls, win, title, game=None: opened.append(game)))
    win = window.PlayerWindow()
    try:
        assert win.loading is None and started == ["soft"] and opened == []
        win.start("goo", 1)
        assert opened == [win.player.game]  # its rehearsal behind a loading screen
        win.edit("goo", 1)
        assert opened[-1] is None  # the editor: every kernel first (a play-test reaches any)
    finally:
        win.close()


def test_a_rehearsal_that_raises_stops_there_and_the_game_is_left_as_it_was(monkeypatch):
    game = _goo()
    before = game.world.state_hash()
    calls = []

    def broken(self, name):
        calls.append(name)
        raise RuntimeError("a broken bot")

    monkeypatch.setattr(type(game), "bot_act", broken)
    warmup.first_frames(game, frames=30)  # no error: play shows it, where it happens
    assert calls == ["builder"] and game.world.state_hash() == before
