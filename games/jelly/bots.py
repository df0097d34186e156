"""The playground's bots: ``poker`` grabs bodies and flings them, ``random`` flails.

Both act only through the game's input handlers (``on_press``/``on_drag``/
``on_release``), like a player's mouse. A bot keeps its own gesture state
(where the pointer is, where it is heading); that is input, not world state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

#: Pointer speed of the bots' drags (px per frame).
POKE_SPEED = 22.0


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


def poker(game: Any, g: Gesture, rng: random.Random) -> None:
    """Pause, grab a random body by one of its particles, yank it somewhere, let go."""
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
