"""Bots for the rope game: ``cutter`` times its cuts by simulating copies; ``random`` slashes.

Both act only through the game's pointer handlers, as a player would.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ecsgoo import Particle
from ecsgoo.game import Stroke

from .components import Hook, Monster, Star
from .rules import board_of, candy_of, holding, mouth_of
from .swipe import cut_ropes, swipe_across

#: Candidate times for the next cut, frames ahead: every STEP_ONE frames over about one
#: swing with one rope left, every STEP_MANY over a shorter horizon with several.
HORIZON, STEP_ONE = 200, 3
HORIZON_MANY, STEP_MANY = 90, 15
#: Frames of flight simulated after a candidate cut (at most); a flight whose parabola
#: misses Om Nom's mouth by more than MISS_RADII of its reach (how far from his centre
#: the candy's centre is eaten: the mouth sensor's radius plus the candy's) is not
#: simulated further.
FLIGHT, MISS_RADII = 150, 3.0
#: After a partial cut: when the rest are cut, tried every FINE frames over LATER
#: frames if one rope is left, every COARSE frames if several.
LATER, FINE, COARSE = 200, 4, 12
#: Value of a flight that ends tied to a hook (a win is worth more than 10, a loss less
#: than -9): the bot plans again from there once it happens.
HOOKED = 5.0
#: The candy hangs at rest (so waiting changes nothing) if it moves less than AT_REST px
#: over REST_FRAMES frames.
AT_REST, REST_FRAMES = 0.5, 6


def make(name: str, rng: random.Random) -> Any:
    """A bot by name (``cutter`` or ``random``)."""
    if name == "cutter":
        return Cutter()
    if name == "random":
        return RandomSlasher(rng)
    raise ValueError(f"rope: unknown bot {name!r}; choose cutter or random")


class Cutter:
    """Plans when to cut which ropes: for each candidate time (every few frames over one
    swing) and each choice of ropes, it cuts a copy of the world and lets it fly; the plan
    that feeds Om Nom with the most stars wins, then it waits for that frame and swipes.
    """

    def __init__(self) -> None:
        self.plan: tuple[int, list[int]] | None = None
        self.planned_for: list[int] = []

    def act(self, game: Any) -> None:
        world = game.world
        board = board_of(world)
        held = holding(world)
        if board is None or board.result != "running" or not held:
            return
        if self.plan is None or self.planned_for != held or self.plan[0] < world.frame:
            self.plan, self.planned_for = plan(world, held), held
        frame, ropes = self.plan
        if frame == world.frame:
            for p, q in [swipe_across(world, r) for r in ropes]:
                game.on_press(*p, 1)
                game.on_drag(*q)
                game.on_release(*q, 1)
            self.plan = None


def plan(world: Any, held: list[int]) -> tuple[int, list[int]]:
    """The best ``(frame, ropes)`` to cut next, by simulating copies of ``world``.

    Choices: every rope still holding the candy, each single rope, and (with three
    or more) all but one. A choice that leaves ropes holding is worth the best of
    cutting the rest at a later time. If the candy is at rest only "now" is tried.
    """
    choices = [held]
    if len(held) > 1:
        choices += [[r] for r in held]
    if len(held) > 2:
        choices += [[r for r in held if r != keep] for keep in held]
    horizon, step = (HORIZON, STEP_ONE) if len(held) == 1 else (HORIZON_MANY, STEP_MANY)
    if _at_rest(world):
        horizon = 1
    perfect = 10 + len(world.get_component(Star))
    base = world.clone()
    best = (-math.inf, world.frame, held)
    for _ in range(0, horizon, step):
        for ropes in choices:
            trial = base.clone()
            cut_ropes(trial, ropes)
            value = _later(trial) if holding(trial) else _fly(trial)
            if value > best[0]:
                best = (value, base.frame, ropes)
        if best[0] >= perfect or board_of(base).result != "running":
            break
        base.step(step)
    return best[1], best[2]


def _at_rest(world: Any) -> bool:
    """Whether the candy hangs still (it stays put over the next few frames)."""
    candy = candy_of(world)
    trial = world.clone()
    start = trial.component(candy, Particle)
    x, y = start.x, start.y
    trial.step(REST_FRAMES)
    p = trial.component(candy, Particle)
    return math.hypot(p.x - x, p.y - y) < AT_REST


def _later(world: Any) -> float:
    """Value of a partly cut world: the best of cutting the rest at one of the later times."""
    step = FINE if len(holding(world)) == 1 else COARSE
    best = -math.inf
    for _ in range(0, LATER, step):
        trial = world.clone()
        cut_ropes(trial, holding(trial))
        best = max(best, _fly(trial))
        world.step(step)
        if board_of(world).result != "running":
            break
    return best - 0.01  # the same result sooner is better


def _fly(world: Any) -> float:
    """Step ``world`` until the level ends (or FLIGHT frames): 10 + stars for a win,
    HOOKED + stars for a flight a hook catches.

    Stops early, as a loss, once the candy's free flight clearly misses Om Nom (and
    no hook is left to catch it).
    """
    board, candy = board_of(world), world.component(candy_of(world), Particle)
    mouth = mouth_of(world, world.get_component(Monster)[0][0])
    hooks = [h for _, h in world.get_component(Hook) if h.tied_at < 0]
    for _ in range(FLIGHT):
        if board.result != "running" or holding(world):
            break
        if _misses(candy, mouth, -world.gravity[1]) and not _may_hook(candy, hooks):
            break
        world.step()
    stars = sum(s.collected for _, s in world.get_component(Star))
    if board.result == "running" and holding(world):
        return HOOKED + stars / 10
    return 10.0 + stars if board.result == "won" else stars / 10 - 10


def _misses(candy: Any, mouth: Any, g: float) -> bool:
    """Whether a candy in free flight (parabola, gravity ``g`` px/s² down) misses Om Nom's
    mouth sensor by more than MISS_RADII of its reach when it comes down to his height
    (or never gets that high)."""
    x, y, vx, vy = candy.x, candy.y, candy.vx, candy.vy
    disc = vy * vy + 2 * g * (y - mouth.y)
    if disc < 0:
        return True
    t = (vy + math.sqrt(disc)) / g
    return abs(x + vx * t - mouth.x) > MISS_RADII * (mouth.radius + candy.radius)


def _may_hook(candy: Any, hooks: list[Any]) -> bool:
    """Whether a hook may still catch the candy: it is not yet falling below every one
    of them (a falling candy under a hook's reach never rises back into it)."""
    return any(candy.vy > 0 or candy.y >= h.y - h.reach for h in hooks)


class RandomSlasher:
    """Swipes a random straight stroke (over a few frames) now and then."""

    def __init__(self, rng: random.Random, chance: float = 1 / 40, frames: int = 4) -> None:
        self.rng, self.chance, self.frames = rng, chance, frames
        self.stroke = Stroke()

    def act(self, game: Any) -> None:
        if self.stroke.points:
            self.stroke.advance(game)
            return
        if self.rng.random() >= self.chance:
            return
        left, bottom, right, top = board_of(game.world).view
        x, y = self.rng.uniform(left, right), self.rng.uniform(bottom, top)
        angle, length = self.rng.uniform(0, 2 * math.pi), self.rng.uniform(60, 260)
        dx, dy = math.cos(angle) * length / self.frames, math.sin(angle) * length / self.frames
        self.stroke.begin(game, x, y, [(x + dx * k, y + dy * k) for k in range(1, self.frames + 1)])
