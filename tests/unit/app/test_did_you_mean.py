"""A mistyped game or bot name is answered with the nearest one (errors.did_you_mean)."""

import pytest

from ecsgoo.errors import did_you_mean


def test_the_nearest_name_is_suggested_and_a_far_one_is_not():
    assert did_you_mean("suiak", ["goo", "jelly", "rope", "suika"]) == "; did you mean suika?"
    assert did_you_mean("Gredy", ("greedy", "lookahead", "random")) == "; did you mean greedy?"
    assert did_you_mean("xyz", ["goo", "jelly", "rope", "suika"]) == ""
    assert did_you_mean("goo", []) == ""


def test_an_unknown_game_suggests_the_nearest():
    from ecsgoo.app.games import find_game

    with pytest.raises(LookupError, match=r"unknown game 'suiak'; did you mean suika\? \(games"):
        find_game("suiak")


def test_an_unknown_bot_suggests_the_nearest_when_playing_and_evaluating():
    from ecsgoo.app.games import find_game
    from ecsgoo.app.player import Player
    from ecsgoo.evaluate import check

    with pytest.raises(ValueError, match=r"no bot named 'cuter'; did you mean cutter\?"):
        Player(find_game("rope")(level=1), "cuter")
    with pytest.raises(ValueError, match=r"no bot named 'gredy'; did you mean greedy\?"):
        check("suika", 1, ["gredy"], 2, 60)
