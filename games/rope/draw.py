"""Drawing the rope game's own things over the world: stars, Om Nom, candy, preview, blade.

Everything is in world coordinates (px, y up) through the player's ``Draw``
helper; Render has already drawn the ropes (Bézier curves) and the pins.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ecsgoo import Particle, Spring
from ecsgoo.look import ROPE

from .components import Candy, Hook, Monster, Rope, Star

GOLD, GOLD_DARK, GLOW = (255, 214, 64), (196, 140, 20), (255, 200, 70, 55)
OM_NOM, OM_NOM_DARK, BELLY = (118, 196, 52), (64, 122, 28), (168, 226, 96)
MOUTH, TOOTH = (120, 24, 36), (255, 255, 240)
BOX, BOX_DARK = (186, 138, 84), (128, 88, 48)
CANDY, CANDY_DARK, STRIPE = (232, 60, 96), (150, 28, 60), (255, 236, 240)
PREVIEW, PREVIEW_FEEDS = (255, 255, 255), (140, 255, 120)
BLADE = (210, 240, 255)
HOOK, HOOK_RING = (200, 210, 230), (200, 210, 230, 150)
#: Width of a rope (px), as Render draws one of NODE_RADIUS nodes (2 × 0.85 × 3 px).
ROPE_WIDTH = 5.1
#: Render draws a rope only from this many links (fewer look like goo links).
RENDER_MIN_LINKS = 3
#: Frames a collected star's sparkle lasts.
SPARKLE_FRAMES = 24


def scene(d: Any, world: Any, preview: np.ndarray, feeds: bool,
          trail: list[tuple[float, float, float, int]], status: Any) -> None:
    """The whole overlay, back to front (``feeds``: the previewed flight ends in Om Nom)."""
    candy = _candy_pos(world)
    _stubs(d, world)
    for _, hook in world.get_component(Hook):
        _hook(d, hook)
    for _, star in world.get_component(Star):
        _star(d, star, world.frame)
    for _, monster in world.get_component(Monster):
        _monster(d, monster, candy, status.result == "won")
    _preview(d, preview, feeds)
    if candy is not None:
        _candy(d, *candy)
    _blade(d, trail)
    if status.result != "running":
        _banner(d, world, status)


def _candy_pos(world: Any) -> tuple[float, float, float] | None:
    for _, (_, p) in world.get_components(Candy, Particle):
        return p.x, p.y, p.radius
    return None


def _stubs(d: Any, world: Any) -> None:
    """Rope stubs too short for Render's rope curves (a pin and a node or two, left
    hanging after Om Nom ate the candy), drawn as rope: tan, round at the free end."""
    for _, rope in world.get_component(Rope):
        links = [s for s in map(lambda e: world.try_component(e, Spring), rope.springs)
                 if s is not None]
        if len(links) >= RENDER_MIN_LINKS:
            continue
        for link in links:
            if link.broken:
                continue
            a, b = world.component(link.a, Particle), world.component(link.b, Particle)
            d.line(a.x, a.y, b.x, b.y, ROPE, ROPE_WIDTH)
            d.circle(b.x, b.y, ROPE_WIDTH / 2 + 1, ROPE)


def _hook(d: Any, hook: Hook) -> None:
    """A hook: its reach as a dashed ring until it ties the candy, and its knob."""
    if hook.tied_at < 0:
        for k in range(24):
            a0, a1 = k * math.pi / 12, (k + 0.5) * math.pi / 12
            d.line(hook.x + hook.reach * math.cos(a0), hook.y + hook.reach * math.sin(a0),
                   hook.x + hook.reach * math.cos(a1), hook.y + hook.reach * math.sin(a1),
                   HOOK_RING, 2)
    d.circle(hook.x, hook.y, 9, HOOK)
    d.circle(hook.x, hook.y, 4, BOX_DARK)


def star_points(x: float, y: float, r: float, spin: float = 0.0) -> np.ndarray:
    """The ten corners of a five-pointed star of outer radius ``r`` around ``(x, y)``."""
    k = np.arange(10)
    radius = np.where(k % 2 == 0, r, r * 0.45)
    angle = math.pi / 2 + spin + k * math.pi / 5
    return np.column_stack([x + radius * np.cos(angle), y + radius * np.sin(angle)])


def _star(d: Any, star: Star, frame: int) -> None:
    if not star.collected:
        wobble = 0.08 * math.sin(frame * 0.08 + star.x)
        d.circle(star.x, star.y, star.radius * 1.25, GLOW)
        d.polygon(star_points(star.x, star.y, star.radius + 1.5, wobble), GOLD_DARK)
        d.polygon(star_points(star.x, star.y, star.radius - 1.0, wobble), GOLD)
        return
    age = frame - star.taken_at
    if age < SPARKLE_FRAMES:  # a ring and a shrinking star fly off where it was taken
        t = age / SPARKLE_FRAMES
        alpha = int(255 * (1 - t))
        d.circle_outline(star.x, star.y, star.radius * (1 + 1.5 * t), (*GOLD, alpha), 3)
        d.polygon(star_points(star.x, star.y + 40 * t, star.radius * (1 - t) + 1, 3 * t),
                  (*GOLD, alpha))


def _monster(d: Any, m: Monster, candy: tuple[float, float, float] | None, fed: bool) -> None:
    r = m.radius
    d.rect(m.x - 1.25 * r, m.y - 1.75 * r, 2.5 * r, 0.9 * r, BOX_DARK)  # his box
    d.rect(m.x - 1.15 * r, m.y - 1.7 * r, 2.3 * r, 0.75 * r, BOX)
    d.circle(m.x - 0.55 * r, m.y - 0.85 * r, 0.35 * r, OM_NOM_DARK)  # feet
    d.circle(m.x + 0.55 * r, m.y - 0.85 * r, 0.35 * r, OM_NOM_DARK)
    d.circle(m.x, m.y, r + 2, OM_NOM_DARK)
    d.circle(m.x, m.y, r, OM_NOM)
    d.circle(m.x, m.y - 0.3 * r, 0.55 * r, BELLY)
    d.polygon([(m.x - 0.7 * r, m.y + 0.8 * r), (m.x - 0.45 * r, m.y + 1.35 * r),
               (m.x - 0.25 * r, m.y + 0.9 * r)], OM_NOM)  # antennae nubs
    d.polygon([(m.x + 0.25 * r, m.y + 0.9 * r), (m.x + 0.45 * r, m.y + 1.35 * r),
               (m.x + 0.7 * r, m.y + 0.8 * r)], OM_NOM)
    near = 0.0
    look = (0.0, 0.0)
    if candy is not None:
        dx, dy = candy[0] - m.x, candy[1] - m.y
        dist = math.hypot(dx, dy) or 1.0
        near = max(0.0, 1.0 - (dist - r) / 220.0)
        look = (dx / dist, dy / dist)
    _mouth(d, m, 1.0 if near > 0.35 and not fed else 0.25, fed)
    for side in (-1, 1):
        ex, ey = m.x + side * 0.38 * r, m.y + 0.3 * r
        d.circle(ex, ey, 0.3 * r, (255, 255, 255))
        d.circle(ex + look[0] * 0.12 * r, ey + look[1] * 0.12 * r, 0.14 * r, (20, 20, 20))


def _mouth(d: Any, m: Monster, opening: float, fed: bool) -> None:
    r = m.radius
    w, h = 0.55 * r, (0.1 + 0.45 * opening) * r
    cx, cy = m.x, m.y - 0.2 * r
    if fed:  # a satisfied grin
        pts = [(cx + w * math.cos(a), cy + 0.25 * r * math.sin(a))
               for a in np.linspace(math.pi, 2 * math.pi, 12)]
        d.polyline(pts, MOUTH, 4)
        return
    pts = [(cx + w * math.cos(a), cy + h * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 20)]
    d.polygon(pts, MOUTH)
    d.rect(cx - 0.25 * r, cy + h - 0.16 * r, 0.18 * r, 0.14 * r, TOOTH)
    d.rect(cx + 0.07 * r, cy + h - 0.16 * r, 0.18 * r, 0.14 * r, TOOTH)


def _candy(d: Any, x: float, y: float, r: float) -> None:
    for side in (-1, 1):  # the wrapper's twisted ends
        d.polygon([(x + side * 0.8 * r, y), (x + side * 1.6 * r, y + 0.6 * r),
                   (x + side * 1.6 * r, y - 0.6 * r)], CANDY_DARK)
    d.circle(x, y, r + 1.5, CANDY_DARK)
    d.circle(x, y, r, CANDY, shade=True)
    for k in (-1, 0, 1):
        off = k * 0.5 * r
        d.line(x + off - 0.35 * r, y - 0.75 * r, x + off + 0.35 * r, y + 0.75 * r, STRIPE, 3)


def _preview(d: Any, preview: np.ndarray, feeds: bool) -> None:
    """Every third predicted position as a dot, fading with time; green if it feeds Om Nom."""
    pts = preview[2::3]
    color = PREVIEW_FEEDS if feeds else PREVIEW
    for k in range(0, len(pts), 5):
        alpha = int(255 - 150 * k / max(len(pts), 1))
        d.dots(pts[k:k + 5], 3.2, (*color, alpha))


def _blade(d: Any, trail: list[tuple[float, float, float, int]]) -> None:
    """The blade: segments between recent points of one stroke, thinner and fainter with age."""
    for (x1, y1, f1, s1), (x2, y2, f2, s2) in itertools.pairwise(trail):
        if s1 == s2:
            fresh = min(f1, f2)
            d.line(x1, y1, x2, y2, (*BLADE, int(255 * fresh)), 1.5 + 6 * fresh)


def _banner(d: Any, world: Any, status: Any) -> None:
    """The end of the level: the verdict and the stars earned, in the middle of the screen."""
    x, y = 400.0, 330.0
    d.rect(x - 190, y - 70, 380, 130, (20, 24, 40, 200))
    won = status.result == "won"
    d.text(x, y + 22, "Om Nom is fed!" if won else "The candy is lost",
           (255, 255, 255), 26, anchor_x="center", bold=True)
    lit = banner_stars(status)
    for k, gold in enumerate(lit):
        sx = x + (k - (len(lit) - 1) / 2) * 56
        d.polygon(star_points(sx, y - 28, 22), GOLD if gold else (90, 90, 110))


def banner_stars(status: Any) -> list[bool]:
    """Which of the end banner's stars are gold: the stars collected, as the HUD counts
    them (``status.extra["stars"]`` of ``stars_total``), won or lost."""
    got, total = status.extra["stars"], status.extra["stars_total"]
    return [k < got for k in range(total)]
