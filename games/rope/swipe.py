"""Swipes that cut one rope: where a bot (or the preview) slices, and cutting with them."""

from __future__ import annotations

import math
from typing import Any

from ecsgoo import Particle, Spring
from ecsgoo.geometry import cut

from .components import Rope

#: Half length of a bot's swipe across a rope link, px.
HALF = 34.0


def swipe_across(world: Any, rope: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """A short swipe ``(p, q)`` (px) across the middle link of ``rope``, square to it."""
    r = world.component(rope, Rope)
    link = world.component(r.springs[len(r.springs) // 2], Spring)
    a, b = world.component(link.a, Particle), world.component(link.b, Particle)
    mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
    dx, dy = b.x - a.x, b.y - a.y
    n = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / n * HALF, dx / n * HALF
    return (mx - nx, my - ny), (mx + nx, my + ny)


def cut_ropes(world: Any, ropes: list[int]) -> list[int]:
    """Cut each rope in ``ropes`` with ``swipe_across``; return the spring entities cut."""
    swipes = [swipe_across(world, r) for r in ropes]  # all measured before any cut
    out: list[int] = []
    for p, q in swipes:
        out += cut(world, p, q)
    return out
