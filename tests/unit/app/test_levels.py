"""Each bundled game's levels have one source: its make_levels.py, and the TOML it wrote."""

from __future__ import annotations

import importlib

import pytest

from ecsgoo.app.games import discover
from ecsgoo.game import stale_levels

GAMES = ("goo", "rope", "suika", "jelly")


@pytest.mark.parametrize("name", GAMES)
def test_the_saved_levels_are_what_make_levels_builds(name):
    games, _ = discover()
    make = importlib.import_module(f"games.{name}.make_levels")
    assert stale_levels(games[name], make.build) == [], (
        f"run `python -m games.{name}.make_levels` to write the levels again")
