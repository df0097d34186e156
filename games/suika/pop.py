"""The merge pop, drawing only: the new fruit swells and settles, a few bits fly off.

``Pops`` listens to ``fruits_merged`` and remembers each merge for POP_FRAMES
frames; ``circles`` says what to draw at a frame (world px), the game's
``draw_overlay`` draws them over the fruits. Nothing here is saved or touches
the physics: a quick load or a restart only loses the pops in flight.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ecsgoo import Particle, fruit

#: How long a pop lasts (frames), how much the new fruit swells at its peak (a fraction
#: of its radius), how many bits fly off, how far (px) and how big they are (px).
POP_FRAMES, SWELL, BITS, BIT_REACH, BIT_RADIUS = 18, 0.22, 8, 1.6, 4.0

Circle = tuple[float, float, float, tuple[int, ...]]


@dataclass
class _Pop:
    entity: int | None  # the new fruit (None: two watermelons vanished)
    kind: int  # the kind of the new fruit (LARGEST + 1 past the top: the watermelons' burst)
    x: float
    y: float
    frame: int


class Pops:
    """Merges in the last POP_FRAMES frames of one world, for drawing."""

    def __init__(self) -> None:
        self.pops: list[_Pop] = []
        self._world: Any = None

    def watch(self, world: Any) -> None:
        """Listen to ``world``'s merges (once per world: a restart or quick load makes a new
        one, and handlers are not saved)."""
        if world is not self._world:
            world.set_handler("fruits_merged", self._on_merge)
            self._world, self.pops = world, []

    def _on_merge(self, world: Any, event: Any) -> None:
        self.pops.append(_Pop(event.entity, event.kind + 1, event.x, event.y, world.frame))

    def circles(self, world: Any) -> list[Circle]:
        """What to draw now: per live pop the swollen fruit (its colour, shaded by the caller)
        then its bits, ``(x, y, radius px, rgba)``."""
        self.pops = [p for p in self.pops if world.frame - p.frame < POP_FRAMES]
        out: list[Circle] = []
        for pop in self.pops:
            t = (world.frame - pop.frame) / POP_FRAMES
            kind = min(pop.kind, fruit.LARGEST)
            radius = fruit.RADII[kind] * (1.6 if pop.kind > fruit.LARGEST else 1.0)
            x, y = pop.x, pop.y
            if pop.entity is not None and world.entity_exists(pop.entity):
                p = world.component(pop.entity, Particle)
                x, y = p.x, p.y
                out.append((x, y, radius * (1 + SWELL * math.sin(math.pi * t)),
                            (*fruit.COLORS[kind], 255)))
            alpha = int(255 * (1 - t))
            for k in range(BITS):
                a = 2 * math.pi * (k + 0.5 * (pop.kind % 2)) / BITS
                reach = radius * (1 + (BIT_REACH - 1) * t)
                out.append((x + reach * math.cos(a), y + reach * math.sin(a),
                            BIT_RADIUS * (1 - 0.5 * t), (*fruit.COLORS[kind], alpha)))
        return out

    def draw(self, d: Any, world: Any) -> None:
        """Draw the live pops with the player's ``Draw`` helper."""
        for x, y, r, color in self.circles(world):
            d.circle(x, y, r, color, shade=r > BIT_RADIUS)
