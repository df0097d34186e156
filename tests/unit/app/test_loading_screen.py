"""The loading screen: drawn readably, holds the window's events while loading, then lets go."""

import time

import numpy as np
import pytest
from pyglet.event import EventDispatcher

from ecsgoo.app import loading
from ecsgoo.app.draw import Draw
from ecsgoo.app.headless import offscreen_window
from ecsgoo.app.loading import BAR_HEIGHT, BAR_WIDTH, LoadingScreen, draw_loading


class Probe:
    """A handler below the loading screen: what reaches it reached the window."""

    def __init__(self) -> None:
        self.presses = 0

    def on_mouse_press(self, *args) -> None:
        self.presses += 1


def _send(win, *event) -> None:
    """Dispatch ``event`` now, through the handler stack (a Window would queue it outside
    its event loop)."""
    EventDispatcher.dispatch_event(win, *event)


def _until_finished(screen: LoadingScreen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout  # the only clock: a generous bound
    while not screen.finished:
        assert time.monotonic() < deadline, "the warm-up never finished"
        time.sleep(0.01)


@pytest.fixture
def window():
    win = offscreen_window((800, 600))
    probe = Probe()
    win.push_handlers(probe)
    yield win, probe
    win.remove_handlers(probe)


def test_the_screen_draws_the_title_the_message_and_a_bar_filled_done_over_total(window):
    import arcade

    win, _ = window
    win.clear(color=(0, 0, 0))
    win.default_camera.use()
    draw_loading(Draw(), "ecsgoo — Test", 1, 4, 800, 600)
    image = np.asarray(arcade.get_image(0, 0, 800, 600).convert("RGB"), float)
    x0, row = (800 - BAR_WIDTH) // 2, 600 - (300 + 1)  # image rows run down
    filled, empty = image[row, x0 + 10], image[row, x0 + BAR_WIDTH - 10]
    assert tuple(filled) == loading._BAR and tuple(empty) == loading._TRACK
    assert tuple(image[row, x0 + BAR_WIDTH // 4 + 3]) == loading._TRACK  # a quarter filled
    above = image[: 600 - (300 + BAR_HEIGHT + 10)]
    assert (above.max(axis=2) > 200).sum() > 500, "the title and message are drawn"


def test_a_count_with_no_total_yet_swings_a_block_along_the_bar(window):
    import arcade

    win, _ = window
    x0, row = (800 - BAR_WIDTH) // 2, 600 - (300 + 1)
    for phase, lit, dark in ((0.0, x0 + 10, x0 + BAR_WIDTH - 10),
                             (1.0, x0 + BAR_WIDTH - 10, x0 + 10)):
        win.clear(color=(0, 0, 0))
        win.default_camera.use()
        draw_loading(Draw(), "ecsgoo — Test", 12, 0, 800, 600, phase=phase)
        image = np.asarray(arcade.get_image(0, 0, 800, 600).convert("RGB"), float)
        assert tuple(image[row, lit]) == loading._BAR, phase
        assert tuple(image[row, dark]) == loading._TRACK, phase
    below = image[600 - (300 - 10):]
    assert (below.max(axis=2) > 100).sum() > 50, "the count of kernels ready is drawn"


def test_while_loading_input_is_held_back_and_afterwards_it_reaches_the_window(window):
    import arcade

    win, probe = window
    screen = LoadingScreen(win, "test")
    _send(win, "on_mouse_press", 10, 10, 1, 0)
    _send(win, "on_draw")
    assert probe.presses == 0
    assert not screen.on_key_press(arcade.key.ESCAPE, 0)  # Esc passes: the window closes
    _until_finished(screen)
    _send(win, "on_update", 1 / 60)  # the screen lets go here
    _send(win, "on_mouse_press", 10, 10, 1, 0)
    assert probe.presses == 1


def test_an_error_while_compiling_is_raised_in_the_window(window, monkeypatch):
    def broken(progress):
        raise RuntimeError("no compiler")

    monkeypatch.setattr(loading, "parallel_warm_up", broken)
    win, _ = window
    screen = LoadingScreen(win, "test")
    _until_finished(screen)
    with pytest.raises(RuntimeError, match="no compiler"):
        _send(win, "on_update", 1 / 60)


def test_a_game_about_to_be_played_is_warmed_up_its_way(window, monkeypatch):
    seen = []
    monkeypatch.setattr(loading, "game_warm_up", lambda game, progress: seen.append(game))
    monkeypatch.setattr(loading, "cache_is_cold", lambda: True)
    win, _ = window
    game = object()
    screen = LoadingScreen.open_if_cold(win, "test", game=game)
    _until_finished(screen)
    _send(win, "on_update", 1 / 60)
    assert seen == [game]


def test_the_screen_opens_only_on_a_cold_cache(window, monkeypatch):
    win, _ = window
    monkeypatch.setattr(loading, "cache_is_cold", lambda: False)
    assert LoadingScreen.open_if_cold(win, "test") is None
    monkeypatch.setattr(loading, "cache_is_cold", lambda: True)
    screen = LoadingScreen.open_if_cold(win, "test")
    assert isinstance(screen, LoadingScreen)
    _until_finished(screen)
    _send(win, "on_update", 1 / 60)
