"""The playground's bots: ``poker`` grabs bodies and flings them, ``random`` flails.

Both act only through the game's input handlers (``on_press``/``on_drag``/
``on_release``), like a player's mouse. A bot keeps its own gesture state
(where the pointer is, where it is heading); that is input, not world state.
On the basket level the poker aims: it tries a few throws on a copy of the world
(``World.clone``) and makes the one that lands best (``aim``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import basket

#: Pointer speed of the bots' drags (px per frame).
POKE_SPEED = 22.0
#: Where the aiming poker lets go of a ball (px: x behind the line, y), and over how
#: many frames it drags there: the throws it tries on a copy of the world.
THROWS = tuple((dx, y, frames) for dx in (-80.0, 0.0) for y in (260.0, 320.0, 380.0)
               for frames in (5, 7))
#: Frames of flight a tried throw is watched for.
WATCH = 120


@dataclass
class Gesture:
    """One press–drag–release: pointer at ``(x, y)`` heading to ``(tx, ty)``."""

    x: float = 0.0
    y: float = 0.0
    tx: float = 0.0
    ty: float = 0.0
    frames_left: int = 0
    pressed: bool = False
    wait: int = 30
    #: An aimed throw still to make: the pointer's positions, one a frame, then let go.
    path: list[tuple[float, float]] = field(default_factory=list)


def _movable_particle(game: Any, rng: random.Random) -> tuple[float, float] | None:
    """The position of a random movable particle (px), or ``None``."""
    p = game.world.particles
    rows = np.flatnonzero(p.w > 0)
    if not len(rows):
        return None
    row = int(rows[rng.randrange(len(rows))])
    x, y = p.pos[row]
    return float(x), float(y)


def _toward(g: Gesture, speed: float) -> None:
    dx, dy = g.tx - g.x, g.ty - g.y
    d = (dx * dx + dy * dy) ** 0.5
    if d <= speed:
        g.x, g.y = g.tx, g.ty
    else:
        g.x, g.y = g.x + dx / d * speed, g.y + dy / d * speed


def _ball_behind(world: Any, line: float) -> tuple[int, np.ndarray] | None:
    """A ball left of ``line`` (px) to throw: its centre particle's entity and its ring's
    centroid (px); the one nearest the line, or None."""
    from .rules import ball_centre

    best = None
    for r in range(len(world.areas)):
        row = ball_centre(world, r)
        c = world.particles.pos[world.area_members(r)].mean(axis=0)
        if row >= 0 and c[0] < line and (best is None or c[0] > best[1][0]):
            best = (int(world.particles.entity[row]), c)
    return best


def _path(start: np.ndarray, end: tuple[float, float], frames: int) -> list[tuple[float, float]]:
    return [(float(start[0] + (end[0] - start[0]) * k / frames),
             float(start[1] + (end[1] - start[1]) * k / frames)) for k in range(1, frames + 1)]


def _landing(world: Any, cup: Any, centre: int, path: list[tuple[float, float]]) -> float:
    """How well a throw along ``path`` does on a copy of ``world``: frames its ball's centre
    spends in the basket, less its nearest miss (px) / 100."""
    from ecsgoo import Particle, Sensor

    sim = world.clone()
    for x, y in path:
        sim.grab(centre, x, y)
        sim.step()
    sim.release()
    s = sim.component(cup.sensor, Sensor)
    p = sim.component(centre, Particle)
    inside, nearest = 0, np.inf
    for _ in range(WATCH):
        sim.step()
        dx, dy = abs(p.x - s.x) - s.width / 2, abs(p.y - s.y) - s.height / 2
        inside += dx < 0 and dy < 0
        nearest = min(nearest, float(np.hypot(max(dx, 0.0), max(dy, 0.0))))
    sim.close()
    return inside - nearest / 100.0


def aim(game: Any, g: Gesture) -> bool:
    """Plan the best of ``THROWS`` for the ball nearest the basket's line (``g.path``);
    False when there is no basket or no ball behind the line."""
    cup = basket.goal(game.world)
    found = None if cup is None else _ball_behind(game.world, cup.line)
    if found is None:
        return False
    centre, at = found
    paths = [_path(at, (cup.line + dx, y), frames) for dx, y, frames in THROWS]
    g.path = max(paths, key=lambda path: _landing(game.world, cup, centre, path))
    g.x, g.y = float(at[0]), float(at[1])
    return True


def _throw(game: Any, g: Gesture) -> None:
    """One frame of an aimed throw: press, drag along ``g.path``, let go at its end."""
    if not g.pressed:
        game.on_press(g.x, g.y, 1)
        g.pressed = True
    g.x, g.y = g.path.pop(0)
    game.on_drag(g.x, g.y)
    if not g.path:
        game.on_release(g.x, g.y, 1)
        g.pressed = False
        g.wait = 200  # watch it land before the next one


def poker(game: Any, g: Gesture, rng: random.Random) -> None:
    """Pause, grab a random body by one of its particles, yank it somewhere, let go.

    On the basket level: throw a ball at the basket (``aim``) instead.
    """
    if g.path:
        _throw(game, g)
        return
    if not g.pressed and basket.goal(game.world) is not None:
        g.wait -= 1
        if g.wait <= 0 and game.status().result == "running" and aim(game, g):
            _throw(game, g)
        return
    if not g.pressed:
        g.wait -= 1
        if g.wait > 0:
            return
        at = _movable_particle(game, rng)
        if at is None:
            g.wait = 30
            return
        g.x, g.y = at
        w, h = game.size
        g.tx, g.ty = rng.uniform(60.0, w - 60.0), rng.uniform(80.0, h - 60.0)
        g.frames_left = rng.randint(12, 40)
        g.pressed = True
        game.on_press(g.x, g.y, 1)
        return
    g.frames_left -= 1
    _toward(g, POKE_SPEED * rng.uniform(0.6, 1.4))
    game.on_drag(g.x, g.y)
    if g.frames_left <= 0:
        game.on_release(g.x, g.y, 1)
        g.pressed = False
        g.wait = rng.randint(15, 50)


def flail(game: Any, g: Gesture, rng: random.Random) -> None:
    """Press, drag and release at random places and random times (the baseline)."""
    w, h = game.size
    if not g.pressed:
        if rng.random() < 0.05:
            g.x, g.y = rng.uniform(0.0, w), rng.uniform(0.0, h)
            g.pressed = True
            game.on_press(g.x, g.y, 1)
        return
    g.tx, g.ty = rng.uniform(0.0, w), rng.uniform(0.0, h)
    _toward(g, rng.uniform(0.0, 3 * POKE_SPEED))
    game.on_drag(g.x, g.y)
    if rng.random() < 0.05:
        game.on_release(g.x, g.y, 1)
        g.pressed = False


BOTS = {"poker": poker, "random": flail}
