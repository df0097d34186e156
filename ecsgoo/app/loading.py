"""The loading screen: the physics kernels compile in the background while the window draws.

Only on a first run (a cold numba cache, see ``ecsgoo.warmup``): the kernels
compile in a worker thread (what a game's first fifteen seconds of play reach,
``game_warm_up``, the rest in a helper process meanwhile; with no game yet, all of them,
``parallel_warm_up``), and the window keeps drawing "compiling the physics
kernels (first run only)…" with a progress bar. numba spends most of a compile
in LLVM, which releases the GIL, so the window redraws at its usual rate.

esper's state is module-wide, so while the worker steps its scene nothing else
may touch a World: the screen takes every update, draw and input event of the
window (Esc and closing still work) and gives them back when the kernels are ready.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from ..startup import settle
from ..warmup import MESSAGE, TerminalProgress, cache_is_cold, game_warm_up, parallel_warm_up
from .draw import Draw

_BACKGROUND = (14, 16, 26)
_TEXT, _DIM = (230, 234, 246), (170, 178, 200)
_TRACK, _BAR = (40, 44, 62), (120, 200, 255)
#: The bar's size in window pixels.
BAR_WIDTH, BAR_HEIGHT = 360, 14
#: Seconds between redraws while loading: software GL (llvmpipe) drawing at 60 Hz took
#: a core from the compile (14.4 s instead of 11 s on 2 cores).
LOADING_DRAW_RATE = 1 / 15


class LoadingScreen:
    """Event handlers pushed on ``window`` until the warm-up has finished in a worker thread
    (``game_warm_up`` for a ``game`` about to be played, else ``parallel_warm_up``).

    ``done``/``total`` count the kernels ready; the terminal gets the same line
    (``TerminalProgress``). The window redraws at ``LOADING_DRAW_RATE`` meanwhile,
    then at ``draw_rate`` (s) again. An error in the worker is raised in the
    window's next update.
    """

    def __init__(self, window: Any, title: str, draw_rate: float = 1 / 60,
                 game: Any = None) -> None:
        self.window, self.title, self._draw_rate = window, title, draw_rate
        self.game = game
        self.done, self.total = 0, 0
        self.error: BaseException | None = None
        self._terminal = TerminalProgress()
        self._draw = Draw()
        self._worker = threading.Thread(target=self._compile, name="ecsgoo-warm-up",
                                        daemon=True)  # closing the window must not wait
        window.push_handlers(self)
        window.set_draw_rate(LOADING_DRAW_RATE)
        self._worker.start()

    @classmethod
    def open_if_cold(cls, window: Any, title: str, game: Any = None) -> LoadingScreen | None:
        """A loading screen on ``window`` if the kernel cache is cold, else ``None``
        (``game``: the game about to be played, if any)."""
        if not cache_is_cold():
            return None
        settle()  # a compile makes garbage by the gigabyte: the collector back on for it
        return cls(window, title, game=game)

    @property
    def finished(self) -> bool:
        """Whether the worker is done (the screen is gone after the next update)."""
        return not self._worker.is_alive()

    def _compile(self) -> None:
        try:
            if self.game is not None:
                game_warm_up(self.game, self._progress)
            else:
                parallel_warm_up(self._progress)
        except BaseException as exc:  # handed to the main thread, raised there
            self.error = exc

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self._terminal(done, total)

    # -- the window's events while loading --------------------------------------------------

    def on_update(self, delta_time: float) -> bool:
        if self.finished:
            self.window.remove_handlers(self)
            self.window.set_draw_rate(self._draw_rate)
            if self.error is not None:
                raise self.error
        return True

    def on_draw(self) -> bool:
        self.window.clear(color=_BACKGROUND)
        self.window.default_camera.use()
        swing = time.monotonic() % 2.0  # the open-ended bar's block: there and back in 2 s
        draw_loading(self._draw, self.title, self.done, self.total, *self.window.get_size(),
                     phase=swing if swing <= 1.0 else 2.0 - swing)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        import arcade

        return symbol != arcade.key.ESCAPE  # Esc still reaches the window: it closes

    def _swallow(self, *args: Any) -> bool:
        return True

    on_key_release = on_text = on_mouse_press = on_mouse_release = _swallow
    on_mouse_drag = on_mouse_motion = on_mouse_scroll = _swallow


def draw_loading(draw: Draw, title: str, done: int, total: int, width: int,
                 height: int, phase: float = 0.0) -> None:
    """The screen: ``title``, the message, and a bar filled ``done / total`` (window px).

    A total of 0 (not known: a game's warm-up, ``warmup.game_warm_up``) shows a block
    a quarter of the bar long, ``phase`` (0–1) of the way along, and how many are ready.
    """
    x, y = (width - BAR_WIDTH) / 2, height / 2 - BAR_HEIGHT / 2
    draw.set_pixel(1.0)
    draw.text(width / 2, y + 70, title, _TEXT, 20, anchor_x="center", bold=True)
    draw.text(width / 2, y + 34, MESSAGE, _TEXT, 14, anchor_x="center")
    draw.rect(x, y, BAR_WIDTH, BAR_HEIGHT, _TRACK)
    if total:
        draw.rect(x, y, BAR_WIDTH * min(done / total, 1.0), BAR_HEIGHT, _BAR)
    else:
        block = BAR_WIDTH / 4
        draw.rect(x + (BAR_WIDTH - block) * min(max(phase, 0.0), 1.0), y, block, BAR_HEIGHT,
                  _BAR)
    count = (f"{done} / {total} kernels" if total else f"{done} kernels ready" if done else
             "starting…")
    draw.text(width / 2, y - 28, count, _DIM, 11, anchor_x="center")
    draw.flush()
