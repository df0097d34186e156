"""Cut the Rope on ecsgoo: swing the candy on Verlet ropes, cut at the right moment, feed Om Nom.

Shows Verlet ropes (springs that only a swipe breaks) drawn as smooth Bézier
curves, a heavy candy swinging on them, and the path the candy would fly if
the ropes holding it were cut now: dots, predicted by stepping a copy of the
world (``ecsgoo.trajectory.simulate``) after every step and every cut, so it
is never stale: green when that flight ends in Om Nom's mouth, and cutting
every rope at that frame then feeds him. Stars are collected when the candy
touches them; a hook (a knob in a dashed ring) ties a new rope to the candy
the first time its disc touches the ring; the level is won when the candy
reaches Om Nom and lost when it leaves the screen; 0–3 stars at the end, the
stars collected less the hints used (score 1000 + 500 per star for a win).

Controls: press, drag across a rope and release to cut it (every segment of
the pointer's path cuts what it crosses; a fading blade trail follows the
pointer). ``t``: a hint, the flight shown for two seconds (three a level, each
costs one of the stars earned; Cut the Rope shows none, so neither does this
unless asked). ``r`` restarts the level.

Run: ``ecsgoo play rope [--level 1..5]``; headless with the bot:
``ecsgoo play rope --headless --frames 300 --bot`` (``--bot random`` slashes at
random). The picture in ``docs/rope.png`` is
``ecsgoo play rope --headless --frames 78 --screenshot docs/rope.png``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from ecsgoo import World
from ecsgoo.game import Game, Status, register_game
from ecsgoo.geometry import cut
from ecsgoo.trajectory import simulate

from . import bot, draw
from .components import Star
from .rules import board_of, candy_of, holding
from .swipe import cut_ropes

#: Frames of flight the preview looks ahead.
PREVIEW_FRAMES = 80
#: How many frames a blade trail point stays visible.
TRAIL_FRAMES = 10
#: How long a hint (T) shows the candy's flight, frames.
HINT_FRAMES = 120


@register_game
class RopeGame(Game):
    """Cut the Rope: one, two and three ropes holding a candy over Om Nom, then hooks
    that tie a new rope to the candy flying past."""

    name = "rope"
    title = "Cut the Rope"
    levels = ("First Swing", "Two Pins", "Cat's Cradle", "The Hook", "Relay")
    bots = ("cutter", "random")
    editor_kit = ".pieces"  # the level editor's pieces (ecsgoo edit)
    hints = ("swipe across a rope to cut it", "T hint")

    def _reset_view(self) -> None:
        self.trail: deque[tuple[float, float, int, int]] = deque(maxlen=64)
        self.strokes = 0  # swipes so far: the blade joins only points of one stroke
        self.pointer: tuple[float, float] | None = None
        self._flight: tuple[np.ndarray, bool] = (np.zeros((0, 2)), False)
        self._flight_stale = True  # predicted again when next asked for (drawn, read)
        self._bots: dict[str, Any] = {}

    def build(self) -> World:
        """Load ``levels/<n>.toml`` (written by ``make_levels.py``)."""
        world = self.load_level()
        self._reset_view()
        return world

    def adopt(self, world: World) -> None:
        """Continue from ``world`` (a quick load): drops the cached preview, trail and plans."""
        self.world = world
        self._reset_view()
        self._refresh_preview()

    def step(self) -> None:
        """One 1/60 s step: the pipeline (its RopeRules stage applies the rules), then views."""
        self.world.step()
        self._refresh_preview()

    # -- status ----------------------------------------------------------------

    def stars(self) -> tuple[int, int]:
        """Stars collected so far and stars in the level."""
        stars = [s for _, s in self.world.get_component(Star)]
        return sum(s.collected for s in stars), len(stars)

    def status(self) -> Status:
        """``won``/``lost``/``running``; ``stars``: those collected less the hints used;
        feeding Om Nom scores 1000 + 500 per star."""
        board = board_of(self.world)
        result = board.result if board is not None else "running"
        collected, total = self.stars()
        used = board.hints_used if board is not None else 0
        got = max(collected - used, 0)
        score = 1000 + 500 * got if result == "won" else 0
        return Status(result, score, {"stars": got, "stars_total": total,
                                      "hints_used": used})

    def hud(self) -> list[str]:
        """The level and the stars, the hints left, then the score once it ends."""
        s = self.status()
        got, total = s.extra["stars"], s.extra["stars_total"]
        lines = [f"{self.levels[self.level - 1]} · stars {got}/{total}"]
        board = board_of(self.world)
        if s.result == "running" and board is not None:
            left = board.hints - board.hints_used
            lines.append(f"T: hint ({left} left, each costs a star)" if left else "no hints left")
        if s.result != "running":
            lines.append(f"score {s.score} · R: play again")
        return lines

    # -- the hint ----------------------------------------------------------------

    def hint(self) -> bool:
        """Show the candy's flight for ``HINT_FRAMES`` (T); False if none are left, one is
        showing or nothing holds the candy."""
        board = board_of(self.world)
        if (board is None or board.result != "running" or self.hint_shown
                or board.hints_used >= board.hints or not holding(self.world)):
            return False
        board.hints_used += 1
        board.hint_until = self.world.frame + HINT_FRAMES
        return True

    @property
    def hint_shown(self) -> bool:
        """Whether a hint is on screen now (the flight is drawn only then)."""
        board = board_of(self.world)
        return board is not None and self.world.frame < board.hint_until

    # -- input -----------------------------------------------------------------

    def on_press(self, x: float, y: float, button: int = 1) -> None:
        """Start a swipe."""
        self.pointer = (x, y)
        self.strokes += 1
        self.trail.append((x, y, self.world.frame, self.strokes))

    def on_drag(self, x: float, y: float) -> None:
        """Extend the swipe: the segment from the last pointer point cuts what it crosses."""
        if self.pointer is None:
            self.on_press(x, y)
            return
        if cut(self.world, self.pointer, (x, y)):
            self._refresh_preview()  # the ropes changed: never show the old flight
        self.pointer = (x, y)
        self.trail.append((x, y, self.world.frame, self.strokes))

    def on_release(self, x: float, y: float, button: int = 1) -> None:
        """End the swipe (its last segment cuts too)."""
        if self.pointer is not None and self.pointer != (x, y):
            self.on_drag(x, y)
        self.pointer = None

    def on_key(self, key: str) -> None:
        """``t`` shows a hint; ``r`` restarts the level."""
        if key == "t":
            if not self.hint():
                self.sound("grab", 0.6)  # none left (or one on screen): a dull click
        elif key == "r":
            self.restart()

    # -- bots and drawing --------------------------------------------------------

    def bot_act(self, name: str) -> None:
        """``cutter`` plans its cuts on copies of the world; ``random`` swipes at random."""
        if name not in self._bots:
            self._bots[name] = bot.make(name, self.rng)
        self._bots[name].act(self)

    def draw_overlay(self, d: Any) -> None:
        """Stars, Om Nom, the candy, the predicted path and the blade trail."""
        shown = self.hint_shown
        draw.scene(d, self.world, self.preview if shown else np.zeros((0, 2)),
                   shown and self.preview_feeds, self._trail_points(), self.status())

    # -- helpers -----------------------------------------------------------------

    def _trail_points(self) -> list[tuple[float, float, float, int]]:
        """Recent pointer points: ``(x, y, freshness in (0, 1] (1 = this frame), stroke)``."""
        now = self.world.frame
        return [(x, y, 1.0 - (now - t) / TRAIL_FRAMES, k) for x, y, t, k in self.trail
                if now - t < TRAIL_FRAMES]

    @property
    def preview(self) -> np.ndarray:
        """The candy's flight (px, a row a frame) if every rope holding it were cut now;
        empty when nothing holds it or the level is over."""
        return self._predicted()[0]

    @property
    def preview_feeds(self) -> bool:
        """Whether the previewed flight ends in Om Nom's mouth."""
        return self._predicted()[1]

    def _refresh_preview(self) -> None:
        """The world changed (a step, a cut, a load): the preview is predicted again when
        it is next drawn or read — never stale, and free in a headless run nobody watches
        (flying a copy 80 frames is most of a frame's cost)."""
        self._flight_stale = True

    def _predicted(self) -> tuple[np.ndarray, bool]:
        if self._flight_stale:
            self._flight, self._flight_stale = self._predict(self.world), False
        return self._flight

    @staticmethod
    def _predict(world: World) -> tuple[np.ndarray, bool]:
        """Fly a copy of ``world`` with the candy's ropes cut: its path and whether Om Nom
        eats it on the way."""
        ropes = holding(world)
        candy = candy_of(world)
        if not ropes or candy is None or board_of(world).result != "running":
            return np.zeros((0, 2)), False
        copy = world.clone()
        cut_ropes(copy, ropes)
        path = simulate(copy, candy, PREVIEW_FRAMES)
        end = _first_nan(path)  # only Om Nom makes the candy vanish
        return path[:end], end < len(path)


def _first_nan(path: np.ndarray) -> int:
    """Rows before the first NaN row (the candy was eaten or the copy lost it)."""
    bad = np.flatnonzero(np.isnan(path[:, 0]))
    return int(bad[0]) if len(bad) else len(path)
