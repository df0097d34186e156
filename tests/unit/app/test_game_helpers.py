"""The Game helpers the bundled games share: level files beside the module, bot strokes."""

from __future__ import annotations

from typing import Any

import pytest

from ecsgoo.game import Game, Stroke
from games.goo import GooGame
from games.jelly import JellyGame
from games.rope import RopeGame
from games.suika import Suika


@pytest.mark.parametrize("cls", [GooGame, RopeGame, Suika, JellyGame])
def test_every_level_file_sits_beside_its_game(cls: type[Game]) -> None:
    for level in range(1, len(cls.levels) + 1):
        path = cls.level_file(level)
        assert path.parent.parent.name == cls.name and path.parent.name == "levels"
        assert path.name == f"{level}.toml" and path.is_file()


class _Recorder(Game):
    def __init__(self) -> None:  # no world: only the input handlers are used
        self.calls: list[tuple[Any, ...]] = []

    def on_press(self, x: float, y: float, button: int) -> None:
        self.calls.append(("press", x, y))

    def on_drag(self, x: float, y: float) -> None:
        self.calls.append(("drag", x, y))

    def on_release(self, x: float, y: float, button: int) -> None:
        self.calls.append(("release", x, y))


def test_stroke_presses_drags_one_point_a_frame_then_releases() -> None:
    game, stroke = _Recorder(), Stroke()
    stroke.begin(game, 0.0, 0.0, [(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)])
    done = [stroke.advance(game) for _ in range(2)]
    done.append(stroke.advance(game, lambda x, y: (x + 10, y)))
    assert done == [False, False, True] and not stroke.points
    assert game.calls == [("press", 0.0, 0.0), ("drag", 1.0, 1.0), ("drag", 2.0, 2.0),
                          ("release", 13.0, 3.0)]
