"""The goal card of a challenge level: what to do, how far along, the flings left, big.

Drawn in the level's top-left corner (levels 3 and 4 keep it clear), over the
world, so the goal and the throws left are in view while playing, not only in
the HUD's small line. A playground level (1, 2) has none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecsgoo import World

from . import basket, challenge, rules

GOAL, TEXT, DIM = (255, 226, 140), (235, 238, 250), (150, 156, 180)
THROW, SPENT = (120, 230, 150), (80, 86, 110)
#: The card, px: its width (at the least: it grows to fit its lines) and height, its
#: top-left corner's inset from the level's, and the margin left and right of its text.
WIDTH, HEIGHT, INSET, MARGIN = 330.0, 86.0, 14.0, 12.0


@dataclass
class Card:
    """``goal`` in words, ``progress`` (how far along), ``flings_left`` of ``flings``."""

    goal: str
    progress: str
    flings_left: int
    flings: int


def card(world: World, won_down: int | None = None) -> Card | None:
    """The card of ``world``'s challenge, or None on a playground level; ``won_down``:
    the crates down when the pyramid was won (the score), shown instead of the count now."""
    thrown = rules.stats(world).flings
    cup = basket.goal(world)
    if cup is not None:
        seconds = max(0, cup.frames - world.frame) // 60
        progress = ("in the basket!" if cup.landed
                    else f"throw from left of the line · {seconds} s left")
        return Card("a ball in the basket", progress, max(0, cup.flings - thrown),
                    cup.flings)
    goal = challenge.goal(world)
    if goal is None:
        return None
    return Card(f"knock {goal.needed} crates down",
                f"{challenge.down(world, goal) if won_down is None else won_down}"
                f" of {goal.needed} down",
                max(0, goal.flings - thrown), goal.flings)


def width(d: Any, c: Card) -> float:
    """The card's width on ``d``: ``WIDTH``, or wider so that its longest line fits (a
    basket level's "throw from left of the line · 42 s left" ran past the card's edge)."""
    measure = getattr(d, "text_width", None)
    lines = [(f"GOAL: {c.goal}", 15.0, True), (c.progress, 14.0, False)]
    widths = [measure(text, size, bold) if callable(measure) else None
              for text, size, bold in lines]
    return max([WIDTH] + [float(w) + 2 * MARGIN for w in widths
                          if isinstance(w, (int, float))])


def draw(d: Any, world: World, won_down: int | None = None) -> None:
    """Draw the card (nothing on a playground level); ``won_down`` as for ``card``."""
    c = card(world, won_down)
    if c is None:
        return
    left, _bottom, _right, top = world.bounds
    x, y = left + INSET, top - INSET - HEIGHT
    d.rect(x, y, width(d, c), HEIGHT, (10, 12, 24, 190))
    d.text(x + MARGIN, y + HEIGHT - 26, f"GOAL: {c.goal}", GOAL, 15, bold=True)
    d.text(x + MARGIN, y + HEIGHT - 50, c.progress, TEXT, 14)
    d.text(x + MARGIN, y + 12, "flings", DIM, 12)
    for k in range(c.flings):
        d.circle(x + 72 + 22 * k, y + 17, 8, THROW if k < c.flings_left else SPENT, shade=True)
    d.text(x + 80 + 22 * c.flings, y + 12, f"{c.flings_left} left", TEXT, 12)
