"""World of Goo: build a wobbly truss of goo balls up, across or down to the pipe.

Free goo balls crawl along the structure's links, node to node; shows springs
that sag under them, stress colours from green to red, the most critical links
(whose loss would split the structure) outlined, links snapping after three
frames past twice their rest length, and debris falling.

Controls: press on a crawling (or loose) goo ball and drag it; the would-be
links show while you drag; release to attach it to the two nearest balls
within reach. Kinds of goo: black common goo stays where it is placed; green ivy
goo can be pressed on again once placed: it comes off the structure (its links
go) and is placed anew; a balloon (a free one floats still) attaches with one
strand to the nearest ball and pulls the structure up, and can be picked off again.
A red ghost and a hint say why a spot is refused (the ball then
drops, and climbs back on the structure when it meets it). ``z`` or the Undo
button takes the last ball back: it crawls again.

Win: once the structure reaches the pipe, the crawlers travel to it and are
sucked in; the pipe must collect the level's number ("4 of 4 collected").
Lose: the structure collapses (fewer than half its balls still connected to an
anchor) or too few balls are left to collect enough.

Run: ``ecsgoo play goo [--level 1..7]``; headless with the bot:
``ecsgoo play goo --headless --frames 900 --bot --screenshot docs/goo.png``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ecsgoo import Particle, Spring, World
from ecsgoo.game import Game, Status, Widget, register_game

from .bot import Bot
from .components import GooRulesState
from .crawl import GooCrawl  # noqa: F401  (registers the goo stages the levels use)
from .draw import draw_scene
from .pipe import GooPipe  # noqa: F401
from .rules import GooRules, goals, stars  # noqa: F401  (GooRules: registers its stage)
from .structure import (
    attach_targets,
    balls,
    detach,
    drop_off,
    kind_of,
    place_ball,
    rules_state,
    to_place,
    undo,
)

#: A press within this many ball radii of a loose ball picks that ball up.
PICK_RADII = 2.5
#: Frames a refusal hint and a snapped link stay on screen.
HINT_FRAMES, SNAP_FRAMES = 90, 20


@dataclass
class Drag:
    """The ball being dragged: a loose ``ball`` entity, or ``-1`` for one from the supply."""

    ball: int
    x: float
    y: float


@register_game
class GooGame(Game):
    """World of Goo on ecsgoo: a tower, a bridge, an overhang, a hanging structure, a windy
    tower, an overhang held up by balloons, an ivy tower to rebuild."""

    name = "goo"
    title = "World of Goo"
    levels = ("Going Up (tower)", "The Chasm (bridge)", "Overhang (cantilever)",
              "Hanging On (ceiling)", "Windy Peak (tower in wind)",
              "Up, Up and Away (balloons)", "Second Thoughts (ivy)")
    bots = ("builder", "random")
    editor_kit = ".pieces"  # the level editor's pieces (ecsgoo edit)
    hints = ("drag a ball to build", "Z undo")
    requires = (GooRulesState,)

    def build(self) -> World:
        """Load ``levels/<n>.toml`` (written by ``make_levels.py``, hand-editable)."""
        world = self.load_level()
        self.adopt(world)
        return world

    def adopt(self, world: World) -> None:
        """Play on ``world`` (a fresh level or a quick load): reset the drag, hints, bots.

        Everything that decides the game lives in the world; this only re-wires the
        snap handler (handlers are not saved) and drops what was on screen.
        """
        self.world = world
        self.drag: Drag | None = None
        self.hint: tuple[str, float, float, int] | None = None
        self.snaps: list[tuple[np.ndarray, int]] = []
        self._bots: dict[str, Bot] = {}
        world.set_handler("spring_broke", self._on_snap)

    def _on_snap(self, world: World, spring: int) -> None:
        link = world.component(spring, Spring)
        a, b = world.component(link.a, Particle), world.component(link.b, Particle)
        self.snaps.append((np.array([[a.x, a.y], [b.x, b.y]]), world.frame + SNAP_FRAMES))

    def step(self) -> None:
        self.world.step()
        self.snaps = [(ends, until) for ends, until in self.snaps if until > self.world.frame]
        if self.hint is not None and self.hint[3] <= self.world.frame:
            self.hint = None

    # -- status -----------------------------------------------------------------------

    def status(self) -> Status:
        """Score when won: the balls collected (extra ones beyond ``required`` count);
        ``stars`` 1–3 by the level's goals (``rules.goals`` says them)."""
        rules = rules_state(self.world)
        return Status(rules.result, rules.collected if rules.result == "won" else 0,
                      {"placed": rules.placed, "balls_left": to_place(self.world),
                       "reason": rules.reason,
                       "collected": rules.collected, "required": rules.required,
                       "stars": stars(rules), "stars_total": 3})

    def hud(self) -> list[str]:
        rules, bs = rules_state(self.world), balls(self.world)
        free = to_place(self.world, bs)
        floating = int(np.sum(bs.usable & bs.balloon))
        lines = [f"{self.levels[self.level - 1]}: {rules.collected} of {rules.required} "
                 f"collected, {free} free, {rules.placed} placed"
                 + (f", {floating} balloon{'s' * (floating != 1)} free" if floating else "")]
        if rules.result == "running":
            lines.append(", ".join(goals(rules)[1:]))
        else:
            lines.append(rules.reason)
        return lines

    def widgets(self) -> list[Widget]:
        return [Widget("button", "Undo (z)", lambda _value: self._undo())]

    # -- input ------------------------------------------------------------------------

    def _running(self) -> bool:
        return rules_state(self.world).result == "running"

    def on_press(self, x: float, y: float, button: int = 1) -> None:
        if not self._running():
            return
        ball = self._loose_ball_at(x, y)
        if ball >= 0:  # off its link (or, ivy or a balloon, off the structure): held, it
            detach(self.world, ball)  # passes through the structure
            self.world.grab(ball, x, y)
            drop_off(self.world, ball)
            self.world.component(ball, Particle).mask = 0
        elif rules_state(self.world).supply <= 0:
            self._show_hint("take a goo ball: press on one crawling on the structure", x, y)
            return
        self.drag = Drag(ball, x, y)
        self.sound("grab")

    def on_drag(self, x: float, y: float) -> None:
        """The held ball goes where the pointer is, at once (paused too: the preview and the
        "too close" test judge the spot under the pointer), and stays still there."""
        if self.drag is None:
            return
        self.drag.x, self.drag.y = x, y
        if self.drag.ball >= 0:
            # what ``p.x, p.y, p.vx, p.vy = x, y, 0, 0`` on its Particle does, in one checked
            # write (four setters cost ~35 µs, and a drag is a frame's pointer move)
            p = self.world.particles
            p.place(np.array([p.row(self.drag.ball)]), np.array([[float(x), float(y)]]),
                    np.zeros((1, 2)))
            self.world.grab(self.drag.ball, x, y)

    def on_release(self, x: float, y: float, button: int = 1) -> None:
        if self.drag is None:
            return
        self.on_drag(x, y)
        drag, self.drag = self.drag, None
        if drag.ball >= 0:
            self.world.release()
        if not self._running():
            if drag.ball >= 0:
                drop_off(self.world, drag.ball)
            return
        px, py = self.drop_point(drag)
        spot = place_ball(self.world, px, py, drag.ball)
        self.sound("attach" if spot.ok else "grab")
        if spot.ok:
            self.hint = None  # an old refusal says nothing of this ball (paused, it would stay)
        else:
            if drag.ball >= 0:  # it falls where it was let go
                drop_off(self.world, drag.ball)
            self._show_hint(spot.hint, px, py)

    def on_key(self, key: str) -> None:
        if key == "z":
            self._undo()

    def _undo(self) -> None:
        if self._running() and self.drag is None and not undo(self.world):
            self._show_hint("nothing to undo", *self._supply_xy())

    # -- helpers ----------------------------------------------------------------------

    def drop_point(self, drag: Drag) -> tuple[float, float]:
        """Where the dragged ball is: the pointer, or the loose ball being pulled there."""
        if drag.ball < 0:
            return drag.x, drag.y
        p = self.world.component(drag.ball, Particle)
        return p.x, p.y

    def preview(self) -> Any:
        """The attach decision for the ball being dragged now (``None`` if none)."""
        if self.drag is None:
            return None
        return attach_targets(self.world, *self.drop_point(self.drag), self.drag.ball,
                              kind_of(self.world, self.drag.ball))

    def _loose_ball_at(self, x: float, y: float) -> int:
        """The ball a press at ``(x, y)`` picks up: the nearest free ball or placed ivy or
        balloon within ``PICK_RADII`` ball radii; ``-1`` if none."""
        bs = balls(self.world)
        loose = np.flatnonzero(bs.usable | bs.detachable)
        if not len(loose):
            return -1
        dist = np.hypot(*(bs.pos[loose] - (x, y)).T)
        k = int(np.argmin(dist))
        reach = PICK_RADII * rules_state(self.world).ball_radius
        return int(bs.entities[loose[k]]) if dist[k] <= reach else -1

    def _supply_xy(self) -> tuple[float, float]:
        rules = rules_state(self.world)
        return rules.supply_x, rules.supply_y

    def _show_hint(self, text: str, x: float, y: float) -> None:
        self.hint = (text, x, y, self.world.frame + HINT_FRAMES)

    # -- bots and drawing -------------------------------------------------------------

    def bot_act(self, name: str) -> None:
        if not self._running():
            return
        if name not in self._bots:
            self._bots[name] = Bot(name, self.rng)
        self._bots[name].act(self)

    def draw_overlay(self, draw: Any) -> None:
        draw_scene(self, draw)
