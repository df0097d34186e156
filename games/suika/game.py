"""Suika (merge watermelon): drop fruits into a box; two of a kind merge into the next kind.

Shows circle piles that must stay stable when jammed (friction, almost no
bounce, mass ratios up to 19×), the Merge stage with chain reactions, and a game
rule measured by displacement: a fruit that stays put above the red line for
1.5 s ends the game. The game is won if a watermelon was made by then, else lost;
either way the score is what counts.

Controls: move the pointer to aim the held fruit along the top, click to drop
it (one drop every 0.5 s); Left/Right arrows aim, Down or Enter drops; after a
game over, click to play again (after a second: the game-over screen is seen
first; R restarts any time). Every new game has a new seed (its fruit
sequence), shown under the panel: ``ecsgoo play suika --seed N`` replays it. A
game left mid-way (Esc, R) keeps its score in the progress and the best. The next fruit, the
score and the best are on the right (a player's best final score per level is
kept between launches, see ``best.py``; a bot's games are not kept); the merge
ladder (cherry up to watermelon) on the left.

Run: ``ecsgoo play suika`` (``--bot`` for the greedy AI, ``--bot lookahead``,
``--bot random``; ``--seed N`` fixes the fruit sequence).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ecsgoo import Particle, World, fruit
from ecsgoo.game import Game, Status, register_game

from . import ai, rules
from . import best as best_file
from .pop import Pops
from .rules import DROP_Y, HEIGHT, WIDTH, state

#: Aim step of the arrow keys, px.
KEY_STEP = 10.0
#: Frames after game over before a click or a drop key starts the next game (the
#: game-over screen is seen first, whatever the click was meant for).
OVER_HOLD = 60
#: Keys that drop the held fruit (space is declared in ``Suika.keys``, so it drops
#: instead of pausing; P still pauses).
DROP_KEYS = ("space", "down", "return", "enter")


@register_game
class Suika(Game):
    """The merge game: a box, fruits 0–4 at random (``seed``), greedy/look-ahead/random bots."""

    name = "suika"
    title = "Suika Game"
    levels = tuple(name for name, _, _ in rules.LEVELS.values())
    bots = ("greedy", "lookahead", "random")
    editor_kit = ".pieces"  # the level editor's pieces (ecsgoo edit)
    keys = ("space",)
    hints = ("click or Space drops",)
    fresh_seeds = True  # every game a new fruit sequence; its seed is shown to replay it
    counts_unfinished = True  # a game left mid-way keeps its score
    requires = (rules.SuikaState,)
    size = (int(WIDTH), int(HEIGHT))

    def __init__(self, level: int = 1, seed: int = 0) -> None:
        self.best = best_file.load(level)
        self.pops = Pops()
        super().__init__(level, seed)

    def build(self) -> World:
        """Load ``levels/<n>.toml`` and deal the held and next fruit from ``self.rng``."""
        # the random bot has its own generator so that every bot sees the same fruits
        self.bot_rng = random.Random(f"suika-bot-{self.seed}")
        self.bot_played = False  # a bot's game does not count for the kept best
        self._kept = False  # this game's end was offered to the best-score file
        self.over_frames = 0  # steps since game over (a click starts anew after OVER_HOLD)
        world = self.load_level()
        st = state(world)
        st.current, st.next = self._draw_kind(), self._draw_kind()
        return world

    def _draw_kind(self) -> int:
        return self.rng.randrange(rules.DROP_KINDS)

    def step(self) -> None:
        self.pops.watch(self.world)
        if not state(self.world).over:  # the box freezes at game over: see what overflowed
            self.world.step()
        st = state(self.world)
        self.best = max(self.best, st.score)
        if st.over:
            self.over_frames += 1
        if st.over and not self._kept:
            self._keep_best(st.score)

    def on_leave(self) -> None:
        """Left mid-way (Esc, R, closing): the score so far is offered to the best file."""
        self._keep_best(state(self.world).score)

    def _ready_again(self) -> bool:
        """Game over, and shown long enough for a click to mean "play again"."""
        return state(self.world).over and self.over_frames >= OVER_HOLD

    def _keep_best(self, score: int) -> None:
        """Offer a player's final ``score`` to the best-score file (a bot's is not kept),
        once per game."""
        if self.bot_played or self._kept:
            return
        self._kept = True
        try:
            best_file.save(self.level, score)
        except OSError as exc:  # a read-only data folder must not end the game
            print(f"suika: best score not kept ({exc.strerror})")

    def status(self) -> Status:
        st = state(self.world)
        result = ("won" if st.melons else "lost") if st.over else "running"
        return Status(result, st.score, {"best": self.best, "drops": st.drops,
                                         "watermelons": st.melons,
                                         "next": fruit.NAMES[st.next], "seed": self.seed})

    def hud(self) -> list[str]:
        st = state(self.world)
        lines = [f"drops {st.drops}"]  # score and best are in the right panel, big
        if st.melons:
            lines.append(f"watermelons {st.melons}: a win")
        return lines

    # -- input ------------------------------------------------------------------------

    def _aim(self, x: float) -> None:
        st = state(self.world)
        st.aim = rules.clamp_aim(self.world, x, st.current)

    def _drop(self) -> None:
        if rules.can_drop(self.world):
            jitter = self.rng.uniform(-rules.DROP_JITTER, rules.DROP_JITTER)
            rules.drop(self.world, state(self.world).aim, self._draw_kind(), jitter)
            self.sound("drop")

    def on_move(self, x: float, y: float) -> None:
        self._aim(x)

    def on_drag(self, x: float, y: float) -> None:
        self._aim(x)

    def on_press(self, x: float, y: float, button: int) -> None:
        if not state(self.world).over:
            self._aim(x)

    def on_release(self, x: float, y: float, button: int) -> None:
        if state(self.world).over:
            if self._ready_again():
                self.restart()
            return
        self._aim(x)
        self._drop()

    def on_key(self, key: str) -> None:
        st = state(self.world)
        if key in DROP_KEYS:
            if st.over:
                if self._ready_again():
                    self.restart()
            else:
                self._drop()
        elif key in ("left", "right"):
            self._aim(st.aim + (KEY_STEP if key == "right" else -KEY_STEP))

    # -- bots -------------------------------------------------------------------------

    def bot_act(self, name: str) -> None:
        """Aim and drop as soon as a drop is allowed (the same handlers a player uses)."""
        self.bot_played = True
        if not rules.can_drop(self.world):
            return
        if name == "random":
            x = ai.random_drop(self.world, self.bot_rng)
        elif name == "lookahead":
            x = ai.lookahead(self.world)
        elif name == "greedy":
            x = ai.greedy(self.world)
        else:
            raise ValueError(f"suika: unknown bot {name!r}; choose from {', '.join(self.bots)}")
        self.on_move(x, DROP_Y)
        self.on_press(x, DROP_Y, 1)
        self.on_release(x, DROP_Y, 1)

    # -- drawing ----------------------------------------------------------------------

    def draw_overlay(self, draw: Any) -> None:
        """The merge pops, the game-over line, the held fruit with its drop guide, NEXT,
        SCORE and BEST."""
        st = state(self.world)
        self.pops.draw(draw, self.world)
        left, right = st.left, st.right
        line = rules.line_y(self.world)
        for x in np.arange(left, right, 24.0):  # a dashed red line
            draw.line(x, line, min(x + 12.0, right), line, (230, 60, 60, 200), 3)
        self._draw_warnings(draw)
        if not st.over:
            r = fruit.RADII[st.current]
            ready = rules.can_drop(self.world)
            draw.line(st.aim, DROP_Y - r, st.aim, 0.0, (255, 255, 255, 50), 2)
            draw.circle(st.aim, DROP_Y, r, (*fruit.COLORS[st.current], 255 if ready else 90),
                        shade=True)
        cx = (right + WIDTH) / 2
        draw.text(cx, HEIGHT - 60, "NEXT", (240, 240, 240), 18, anchor_x="center", bold=True)
        draw.circle_outline(cx, HEIGHT - 130, 52, (240, 240, 240, 160), 3)
        draw.circle(cx, HEIGHT - 130, fruit.RADII[st.next], fruit.COLORS[st.next], shade=True)
        draw.text(cx, HEIGHT - 205, fruit.NAMES[st.next], (220, 220, 220), 14, anchor_x="center")
        draw.text(cx, HEIGHT - 270, "SCORE", (240, 240, 240), 18, anchor_x="center", bold=True)
        draw.text(cx, HEIGHT - 315, str(st.score), (250, 220, 90), 32, anchor_x="center",
                  bold=True)
        draw.text(cx, HEIGHT - 345, f"best {self.best}", (200, 200, 200), 14, anchor_x="center")
        draw.text(cx, 40.0, f"seed {self.seed}", (170, 170, 190), 12, anchor_x="center")
        if st.melons:
            draw.text(cx, HEIGHT - 375, f"watermelons {st.melons}", fruit.COLORS[-1], 14,
                      anchor_x="center")
        self._draw_ladder(draw, left)
        if st.over:
            cy = HEIGHT / 2
            mid = (left + right) / 2
            draw.rect(left, cy - 72, right - left, 122, (0, 0, 0, 170))
            draw.text(mid, cy + 5, "GAME OVER", (255, 90, 90), min(34.0, (right - left) / 10),
                      anchor_x="center", bold=True)
            again = "click or R: a new game" if self._ready_again() else "…"
            draw.text(mid, cy - 30, again, (230, 230, 230), 14, anchor_x="center")
            draw.text(mid, cy - 56, f"this game: --seed {self.seed}", (190, 190, 205), 12,
                      anchor_x="center")

    def _draw_warnings(self, draw: Any) -> None:
        """A red ring, thicker as the grace time runs out, on each fruit resting above the line."""
        st, w = state(self.world), self.world
        grace = rules.rules_of(w).grace
        for entity, since in zip(st.watch, st.watch_since, strict=True):
            waited = (w.frame - since) * w.dt / grace
            fruit = w.try_component(entity, Particle) if w.entity_exists(entity) else None
            if waited >= 0.2 and fruit is not None:
                draw.circle_outline(fruit.x, fruit.y, fruit.radius + 4, (255, 40, 40, 230),
                                    2 + 5 * min(waited, 1))

    @staticmethod
    def _draw_ladder(draw: Any, width: float) -> None:
        """The merge ladder in the left panel (``width`` px): each kind, its name, its points."""
        x, right = width * 0.3, width * 0.85
        draw.text(width / 2, 420.0, "MERGE LADDER", (240, 240, 240), 16, anchor_x="center",
                  bold=True)
        draw.text(right, 388.0, "points", (200, 200, 200), 12, anchor_x="right")
        for kind in range(fruit.LARGEST + 1):
            y = 75.0 + 29.0 * kind
            draw.circle(x, y, 5.0 + kind, fruit.COLORS[kind], shade=True)
            draw.text(x + 28, y, fruit.NAMES[kind], (225, 225, 225), 12, anchor_y="center")
            draw.text(right, y, f"+{fruit.SCORES[kind]}", (250, 220, 90), 12, anchor_x="right",
                      anchor_y="center")
