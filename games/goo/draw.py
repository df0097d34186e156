"""Drawing the goo game over the rendered world: pipe, goo balls with eyes, supply, previews.

The Render stage has already drawn the level, the links in stress colours and
the pink halo on the most critical links; this adds what is World of Goo.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .rules import goals, stars
from .structure import Balls, balls, goal, pipe_node, rules_state

GOO = (26, 24, 30)
DEBRIS = (92, 70, 70)
LOOSE = (40, 36, 48)
CRAWLER, CRAWLER_RIM = (34, 30, 40), (150, 230, 160, 140)
EYE, PUPIL = (250, 250, 250), (10, 10, 10)
#: Ivy goo: green (placed, free); balloons: a pink balloon with a knot and a shine.
IVY, IVY_FREE = (60, 150, 52), (92, 186, 78)
BALLOON, BALLOON_KNOT, BALLOON_SHINE = (236, 84, 120), (190, 56, 92), (255, 210, 225, 200)
BALLOON_STRING = (230, 230, 230, 160)
PIPE, PIPE_RIM = (120, 128, 140), (70, 76, 88)
GOAL_GLOW = (120, 255, 150, 60)
OPEN_GLOW, OPEN_RANGE = (140, 255, 170, 130), (140, 255, 170, 150)
OK_LINK, BAD, RANGE = (255, 255, 255, 210), (255, 80, 80), (255, 255, 255, 50)
SNAP = (255, 90, 60)
HINT = (255, 200, 120)
COUNT = (255, 255, 255)
STAR = (255, 210, 80)
WIND, WIND_TEXT = (220, 235, 255, 50), (220, 235, 255, 150)


def draw_scene(game: Any, draw: Any) -> None:
    """Everything the goo game adds on top of the Render stage's picture."""
    world = game.world
    bs = balls(world)
    _wind(world, draw)
    _pipe(world, bs, draw)
    _balls(world, bs, draw)
    _pipe_count(world, draw)  # over the balls: a balloon tied by the mouth does not hide it
    _supply(world, draw)
    _snaps(game, draw)
    _drag(game, draw)
    _hint(game, draw)
    _tutorial(game, draw)
    _banner(world, draw)


def _pipe(world: Any, bs: Balls, draw: Any) -> None:
    """The pipe and its suction range (bright while open: the structure reached it)."""
    g = goal(world)
    pulse = 0.5 + 0.5 * math.sin(world.frame * 0.1)
    is_open = pipe_node(world, bs) >= 0
    draw.circle(g.x, g.y, g.radius * (1.0 + 0.15 * pulse), OPEN_GLOW if is_open else GOAL_GLOW)
    draw.circle_outline(g.x, g.y, g.suck, OPEN_RANGE if is_open else RANGE, width=2)
    draw.line(g.x, g.y, g.end_x, g.end_y, PIPE_RIM, width=g.radius * 1.3)
    draw.line(g.x, g.y, g.end_x, g.end_y, PIPE, width=g.radius * 1.0)
    draw.circle_outline(g.x, g.y, g.radius * 0.75, PIPE_RIM, width=8)
    draw.circle(g.x, g.y, g.radius * 0.55, (12, 12, 16))


def _pipe_count(world: Any, draw: Any) -> None:
    """The count the pipe has collected, on its body just past the mouth (nothing of the
    level is there)."""
    g, rules = goal(world), rules_state(world)
    length = math.hypot(g.end_x - g.x, g.end_y - g.y) or 1.0
    along = min(length * 0.6, 1.7 * g.radius) / length
    tx, ty = g.x + (g.end_x - g.x) * along, g.y + (g.end_y - g.y) * along - 7
    draw.text(tx, ty, f"{rules.collected}/{rules.required}", COUNT, size=14, anchor_x="center",
              bold=True)


def _wind(world: Any, draw: Any) -> None:
    """Faint streaks drifting with the level's wind (none in calm air)."""
    wind = rules_state(world).wind
    if wind == 0.0:
        return
    left, bottom, right, top = world.bounds
    width, span = right - left, 60.0
    drift = wind * 0.05 * world.frame  # px: the streaks move downwind
    for k in range(9):
        x = left + (k * 337.0 + drift) % (width - span)  # the streak spans x .. x + span
        y = bottom + 80 + (k * 211.0) % (top - bottom - 140)
        draw.line(x, y, x + span, y, WIND, width=2)
    draw.text(right - 70, top - 30, "wind ←" if wind < 0 else "wind →", WIND_TEXT, size=13,
              anchor_x="center")


def _balls(world: Any, bs: Balls, draw: Any) -> None:
    """Goo balls (not the anchors, which Render draws in steel), with eyes that watch the pipe.

    Structure balls first, then the free ones over the links: a crawler has a pale
    rim, and a ball flying into the pipe shrinks as it nears the mouth. Ivy is green,
    balloons are balloons (``_balloon``)."""
    r = rules_state(world).ball_radius
    g = goal(world)
    order = np.argsort(bs.free, kind="stable")
    for k in order.tolist():
        if bs.pinned[k]:
            continue
        x, y = bs.pos[k].tolist()
        if bs.kind[k] == "balloon":
            _balloon(draw, x, y, r, bs.free[k], g.x - x, g.y - y)
            continue
        size = r
        if bs.sucked[k]:
            size = r * min(1.0, max(0.35, math.hypot(g.x - x, g.y - y) / g.suck))
        if bs.crawling[k]:
            draw.circle(x, y, size + 2.0, CRAWLER_RIM)
        draw.circle(x, y, size, _color(bs, k), shade=True)
        _eyes(draw, x, y, size, g.x - x, g.y - y)


def _color(bs: Balls, k: int) -> tuple[int, ...]:
    """Ball ``k``'s colour: by kind, and whether it is free, crawling or debris."""
    if bs.kind[k] == "ivy":
        return IVY_FREE if bs.free[k] else (IVY if bs.grounded[k] else DEBRIS)
    if bs.free[k]:
        return CRAWLER if bs.crawling[k] else LOOSE
    return GOO if bs.grounded[k] else DEBRIS


def _balloon(draw: Any, x: float, y: float, r: float, free: bool, dx: float,
             dy: float) -> None:
    """A balloon over its particle at ``(x, y)``: an oval 1.3 ``r`` wide and 1.6 ``r`` tall
    (px), a knot under it and a shine; a free one trails a short string."""
    if free:
        draw.line(x, y - 1.5 * r, x + 0.25 * r, y - 2.6 * r, BALLOON_STRING, width=2)
    t = np.linspace(0.0, 2.0 * math.pi, 28, endpoint=False)
    cy = y + 0.15 * r
    draw.polygon(np.column_stack([x + 1.3 * r * np.cos(t), cy + 1.6 * r * np.sin(t)]),
                 BALLOON)
    draw.polygon([(x, cy - 1.5 * r), (x - 0.35 * r, cy - 1.95 * r),
                  (x + 0.35 * r, cy - 1.95 * r)], BALLOON_KNOT)
    draw.circle(x - 0.55 * r, cy + 0.75 * r, 0.28 * r, BALLOON_SHINE)
    _eyes(draw, x, cy - 0.1 * r, r, dx, dy)


def _eyes(draw: Any, x: float, y: float, r: float, dx: float, dy: float) -> None:
    d = math.hypot(dx, dy) or 1.0
    lx, ly = 0.12 * r * dx / d, 0.12 * r * dy / d
    for side in (-1, 1):
        ex, ey = x + side * 0.36 * r, y + 0.2 * r
        draw.circle(ex, ey, 0.3 * r, EYE)
        draw.circle(ex + lx, ey + ly, 0.14 * r, PUPIL)


def _supply(world: Any, draw: Any) -> None:
    """The supply pile, for a level that has one (the bundled levels have none)."""
    rules = rules_state(world)
    if rules.supply <= 0:
        return
    r = rules.ball_radius
    shown = min(rules.supply, 10)
    for k in range(shown):
        row, col = divmod(k, 4)
        x = rules.supply_x + (col - 1.5) * 2.2 * r + (row % 2) * r
        draw.circle(x, rules.supply_y + row * 1.8 * r, r, GOO, shade=True)
    draw.text(rules.supply_x, rules.supply_y - 2.6 * r, f"{rules.supply} left", HINT, size=14,
              anchor_x="center")


def _snaps(game: Any, draw: Any) -> None:
    for ends, until in game.snaps:
        fade = max(0.0, (until - game.world.frame) / 20.0)
        (x1, y1), (x2, y2) = ends.tolist()
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        color = (*SNAP, int(255 * fade))
        draw.line(x1, y1, x1 + (mx - x1) * fade, y1 + (my - y1) * fade, color, width=4)
        draw.line(x2, y2, x2 + (mx - x2) * fade, y2 + (my - y2) * fade, color, width=4)
        draw.circle(mx, my, 10 * (1.5 - fade), (255, 220, 120, int(200 * fade)))


def _drag(game: Any, draw: Any) -> None:
    spot = game.preview()
    if spot is None:
        return
    world = game.world
    r = rules_state(world).ball_radius
    for entity in spot.targets or spot.near:
        tx, ty = world.particles.pos[world.particles.row(entity)].tolist()
        draw.line(spot.x, spot.y, tx, ty, OK_LINK if spot.ok else (*BAD, 160), width=4)
    reach = rules_state(world).build_range
    draw.circle_outline(spot.x, spot.y, reach, (*BAD, 90) if not spot.ok else RANGE, width=2)
    if not spot.ok:
        draw.text(*_inside(world, spot.x, spot.y + 2.2 * r), spot.hint, BAD, size=13,
                  anchor_x="center")
    if game.drag.ball < 0:
        draw.circle(spot.x, spot.y, r, GOO if spot.ok else BAD, shade=True)
        _eyes(draw, spot.x, spot.y, r, 0.0, -1.0)


def _hint(game: Any, draw: Any) -> None:
    if game.hint is None:
        return
    text, x, y, _until = game.hint
    draw.text(*_inside(game.world, x, y + 25), text, BAD, size=14, anchor_x="center")


#: Level 5's tip, shown until the pipe collects its first ball: what holds in the wind.
WIND_TIP = ("Wind! A tower one triangle wide folds", "when the goo balls climb it: build",
            "two triangles side by side, then go up.")


def _tutorial(game: Any, draw: Any) -> None:
    """Level 1 says how to play until the first ball is placed, then what the pipe does;
    level 5 says what stands in the wind."""
    rules = rules_state(game.world)
    if game.level not in (1, 5) or rules.result != "running" or rules.collected:
        return
    if game.level == 5:
        lines, x, y = WIND_TIP, 170, 470  # upwind of the tower, under the wind's streaks
    else:
        lines = (("Press on a goo ball crawling on the structure,", "drag it up and let go:",
                  "it links to the two nearest balls.") if rules.placed == 0 else
                 ("Build up to the pipe: once the structure", "reaches it, the crawling balls",
                  f"are sucked in. Collect {rules.required}."))
        x, y = 200, 330
    for k, line in enumerate(lines):
        draw.text(x, y - 22 * k, line, HINT, size=13, anchor_x="center")


def _inside(world: Any, x: float, y: float) -> tuple[float, float]:
    """``(x, y)`` moved in from the edges so a centred line of text stays on screen."""
    left, bottom, right, top = world.bounds
    return min(max(x, left + 130), right - 130), min(max(y, bottom + 20), top - 20)


#: The end banner, px: its width and how far it reaches below and above its middle.
BANNER_W, BANNER_BELOW, BANNER_ABOVE = 310.0, 96.0, 48.0


def banner_box(world: Any, place: tuple[float, float] | None = None
               ) -> tuple[float, float, float, float]:
    """The end banner's rectangle ``(x, y, w, h)`` (px) around ``place`` (default
    ``banner_place``): always inside the level's bounds, text included."""
    cx, cy = place if place is not None else banner_place(world)
    return cx - BANNER_W / 2, cy - BANNER_BELOW, BANNER_W, BANNER_BELOW + BANNER_ABOVE


def banner_place(world: Any) -> tuple[float, float]:
    """The end banner's middle ``(x, y)``: of places near the top, the middle and the bottom,
    centred or to a side (the whole banner inside the bounds), the first with the fewest balls
    of the structure and the pipe under it, so the finished structure stays in view."""
    left, bottom, right, top = world.bounds
    bs, g = balls(world), goal(world)
    pos = bs.pos[~bs.free]  # the structure: balls left lying about may go under it
    margin = 8.0
    side = BANNER_W / 2 + margin
    xs = ((left + right) / 2, right - side, left + side)
    ys = (top - BANNER_ABOVE - margin, (bottom + top) / 2, bottom + BANNER_BELOW + margin)

    def covered(place: tuple[float, float]) -> int:
        x, y, w, h = banner_box(world, place)
        x0, x1, y0, y1 = x - 15, x + w + 15, y - 15, y + h + 15
        inside = (pos[:, 0] > x0) & (pos[:, 0] < x1) & (pos[:, 1] > y0) & (pos[:, 1] < y1)
        mouth = x0 - g.radius < g.x < x1 + g.radius and y0 - g.radius < g.y < y1 + g.radius
        tube = sum(x0 < g.x + (g.end_x - g.x) * t < x1 and y0 < g.y + (g.end_y - g.y) * t < y1
                   for t in np.linspace(0.0, 1.0, 9))
        return int(inside.sum()) + 100 * int(mouth) + 10 * int(tube)

    return min(((x, y) for y in ys for x in xs), key=covered)


def banner_lines(world: Any) -> list[str]:
    """What the end banner says under its title: the stars and score and the star goals
    when won, the reason when lost."""
    rules = rules_state(world)
    if rules.result != "won":
        return [rules.reason]
    got = stars(rules)
    return [f"{'★' * got}{'☆' * (3 - got)}   score {rules.collected}", *goals(rules)]


def _banner(world: Any, draw: Any) -> None:
    rules = rules_state(world)
    if rules.result == "running":
        return
    cx, cy = banner_place(world)
    x, y, w, h = banner_box(world, (cx, cy))
    won = rules.result == "won"
    draw.rect(x, y, w, h, (0, 0, 0, 160))
    draw.text(cx, cy + 16, "LEVEL COMPLETE!" if won else "THE GOO IS LOST",
              (140, 255, 160) if won else BAD, size=22, anchor_x="center", bold=True)
    for k, line in enumerate(banner_lines(world)):
        star = won and k == 0
        draw.text(cx, cy - 18 - 20 * k - 6 * int(k > 0), line, STAR if star else HINT,
                  size=17 if star else 12, anchor_x="center")
