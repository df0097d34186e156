"""The windowed player: an arcade Window that forwards its events to a ``Player``."""

from __future__ import annotations

from typing import Any

from ..game import Game
from .audio import quiet_audio
from .loading import LoadingScreen
from .player import Player

quiet_audio()  # before arcade's import picks the audio driver (see audio.py)

import arcade  # noqa: E402
from pyglet.window import key as _keys  # noqa: E402


def key_name(symbol: int) -> str:
    """arcade/pyglet key symbol → the name games get (``"space"``, ``"p"``, ``"f5"``, ``"1"``)."""
    return _keys.symbol_string(symbol).lower().lstrip("_")


class PlayerWindow(arcade.Window):
    """A window playing ``game`` with the shared player (fixed 60 Hz steps, overlay, widgets)."""

    def __init__(self, game: Game, bot: str | None = None, **window: Any) -> None:
        width, height = game.size
        title = f"ecsgoo — {game.title}"
        # before the window: opening it already dispatches on_resize, which needs the player
        self.player = Player(game, bot, size=(width, height))
        super().__init__(width, height, title, resizable=True, update_rate=1 / 120, **window)
        # first run only: the kernels compile behind a loading screen, the game waits
        self.loading = LoadingScreen.open_if_cold(self, title)

    def on_update(self, delta_time: float) -> None:
        self.player.update(delta_time)

    def on_draw(self) -> None:
        self.player.draw(self)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.ESCAPE:
            self.close()
            return
        self.player.key(key_name(symbol))

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.player.press(x, y, button)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int,
                      modifiers: int) -> None:
        self.player.drag(x, y)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.player.move(x, y)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.player.release(x, y, button)

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self.player.size = (width, height)
        self.player.widgets.layout(width, height)


def play_window(game: Game, bot: str | None = None) -> None:
    """Open a window playing ``game`` until it is closed (Esc)."""
    PlayerWindow(game, bot)
    arcade.run()
