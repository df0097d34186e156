"""How calm contacts are (issue 22's bars): a 2,000-disc pile at rest, heavy on light,
nine jelly balls spawned touching. Figures, not times: speeds (px/s) and overlaps (px).

Run alone with ``python tools/bench.py calm``. Bars: the pile's 95th-percentile speed
< 2 px/s at 10 s with sleeping off, 100 % asleep within 6 s with it on; a 1:100 disc on
five unit discs: every speed < 20 px/s within 5 s, overlap < 1 px; nine jelly balls:
every vertex < 60 px/s within 5 s; a chain of alternating 1 and 1000 masses, a heavy
ball on a light strand and a crate on a light rope: every link within 5 %.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "tests"), os.path.join(HERE, "..")]

import numpy as np  # noqa: E402

import scenes  # noqa: E402  (tests/scenes.py: the scenes the tests use)
from ecsgoo import Particle, World  # noqa: E402

Row = tuple[str, str, str]


def _speeds(world: World) -> np.ndarray:
    """Every particle's speed (px/s) over the next frame."""
    p = world.store.particles
    before = p.cols["pos"][: p.n].copy()
    world.step()
    return np.hypot(*(p.cols["pos"][: p.n] - before).T) / world.dt


def _pile(sleep: bool) -> World:
    w = scenes.circle_pile(2000, width=1200.0)
    for _, (p,) in w.get_components(Particle):
        p.friction = 0.5
    w.sleep = sleep
    return w


def pile_rows() -> list[Row]:
    w = _pile(False)
    w.step(599)
    v = _speeds(w)
    asleep = _pile(True)
    asleep.step(360)
    st = asleep.store.particles
    share = float(np.mean(st.asleep[: st.n]))
    return [("pile of 2,000 discs at μ 0.5, 10 s, sleeping off",
             f"p95 speed {np.percentile(v, 95):.3g} px/s, max {v.max():.3g}", "bar p95 < 2"),
            ("the same pile with sleeping on, at 6 s", f"{100 * share:.1f} % asleep",
             "bar 100 %")]


def column_rows() -> list[Row]:
    rows = []
    for ratio in (100.0, 1000.0):
        w = scenes.solver(World(bounds=(0, 0, 400, 400)))
        for k in range(5):
            w.create_entity(Particle(200, 10 + 20 * k, radius=10, mass=1.0))
        top = w.create_entity(Particle(200, 110, radius=10, mass=ratio))
        w.step(299)
        v = _speeds(w)
        p = w.store.particles
        y = p.cols["pos"][: p.n, 1]
        overlap = max(20.0 - float(np.diff(np.sort(y)).min()), 10.0 - float(y.min()))
        on_top = w.component(top, Particle).y == y.max()
        rows.append((f"a 1:{ratio:g} disc on a column of five unit discs, 5 s",
                     f"max speed {v.max():.3g} px/s, overlap {overlap:.2f} px, "
                     f"{'on top' if on_top else 'SUNK'}", "bar < 20 px/s, < 1 px"))
    return rows


def jelly_rows() -> list[Row]:
    from games.jelly import build

    w = build.playground_world()
    w.sleep = False  # sleeping would hide a shiver
    for k in range(9):  # three rows of three, each ball touching its neighbours
        build.ball(w, 300 + 80 * (k % 3), 60 + 80 * (k // 3), 40)
    w.step(299)
    v = _speeds(w)
    return [("nine jelly balls spawned touching (playground), 5 s, sleeping off",
             f"max vertex speed {v.max():.3g} px/s", "bar < 60")]


def _links(world: World, ends: list[int]) -> np.ndarray:
    xy = np.array([(world.component(e, Particle).x, world.component(e, Particle).y)
                   for e in ends])
    return np.hypot(*np.diff(xy, axis=0).T)


def hanging_rows() -> list[Row]:
    """What hangs: a chain of alternating 1 and 1000 masses, a 20-mass ball on a strand
    of 0.05 links, a 20-mass crate on such a rope (5 s each; links of 10 px)."""
    from ecsgoo import Anchor, RigidBody, Spring
    from ecsgoo.bodies import rope

    w = scenes.solver(World(bounds=None))
    prev = w.create_entity(Particle(0, 0), Anchor())
    ends, springs = [prev], []
    for k in range(20):
        e = w.create_entity(Particle(0, -10 * (k + 1), radius=4,
                                     mass=1000.0 if k % 2 else 1.0))
        springs.append(w.create_entity(Spring(prev, e)))
        ends.append(e)
        prev = e
    w.step(300)
    snapped = sum(w.component(s, Spring).broken for s in springs)
    rows = [("a chain of 20 links alternating 1 and 1000, 5 s",
             f"{snapped} broken, longest link {_links(w, ends).max() / 10 - 1:+.1%}",
             "bar: none broken, every link within 5 %")]
    for what in ("ball", "crate"):
        w = scenes.solver(World(bounds=None))
        strand = rope(w, (0, 0), (0, -100), 10, mass=0.05)
        if what == "ball":
            load = w.create_entity(Particle(0, -115, radius=12, mass=20.0))
            w.create_entity(Spring(strand.particles[-1], load))
        else:
            load = w.create_entity(RigidBody.box(0, -130, 40, 40, mass=20.0))
            w.create_entity(Spring(strand.particles[-1], load, at_b=(0, -110)))
        w.step(300)
        worst = np.abs(_links(w, strand.particles) / 10 - 1).max()
        rows.append((f"a 20-mass {what} on a rope of ten 0.05 links, 5 s",
                     f"worst link {worst:.1%} off its length", "bar within 5 %"))
    return rows


def bench_calm() -> list[Row]:
    return pile_rows() + column_rows() + jelly_rows() + hanging_rows()


if __name__ == "__main__":
    for row in bench_calm():
        print(" | ".join(row))
