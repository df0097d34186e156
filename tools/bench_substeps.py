"""The World's default substeps, measured (``bench substeps``): what 2, 3, 4 and 6
substeps a frame give and cost.

- box pyramids of base 20 and 50 (``bench pyramid``'s scenes), pymunk beside them:
  median ms a frame and the share of boxes still standing after 10 s;
- the 30-link chain (``bench chain``): CPU µs a frame and its worst hinge gap;
- 40 jelly balls (``scenes.jelly_field``): CPU ms a frame and the smallest share of a
  ball's rest area it keeps after 5 s.
"""

from __future__ import annotations

import time

import bench
import bench_joints
import numpy as np
import peers

import scenes
from ecsgoo.components import AreaConstraint

SUBSTEPS = (2, 3, 4, 6)
Row = tuple[str, str, str]


def _pyramids() -> list[Row]:
    rows = []
    for base in (20, 50):
        theirs = peers.PymunkPyramid(base)
        ms, standing, _, _ = bench._pyramid_run(theirs.step, theirs.centres)
        cells = []
        for k in SUBSTEPS:
            run = bench._ecsgoo_pyramid(base, k)
            cells.append(run if isinstance(run, str) else
                         f"{k}: {run[0]:.2f} ms ({run[0] / ms:.2f}×), {run[1]:.0%} standing")
        rows.append((f"pyramid base {base}, by substeps", "; ".join(cells),
                     f"pymunk {ms:.2f} ms, {standing:.0%} standing"))
    return rows


def _chain() -> Row:
    cells = []
    for k in SUBSTEPS:
        chain = bench_joints._EcsgooChain()
        chain.world.substeps = k
        for _ in range(bench_joints.SETTLE):
            chain.step()
        worst, spent = 0.0, 0.0
        for _ in range(bench_joints.FRAMES):
            t0 = time.process_time()
            chain.step()
            spent += time.process_time() - t0
            worst = max(worst, chain.gap())
        cells.append(f"{k}: {spent / bench_joints.FRAMES * 1e6:.0f} µs, gap {worst:.3f} px")
    return ("chain of 30, by substeps", "; ".join(cells), "CPU; worst hinge gap")


def _area_kept(world) -> float:
    p = world.particles
    kept = []
    for _, con in world.get_component(AreaConstraint):
        xy = np.array([p.pos[p.row(e)] for e in con.particles])
        x, y = xy[:, 0], xy[:, 1]
        kept.append(0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
                    / con.rest_area)
    return min(kept)


def _jelly() -> Row:
    cells = []
    for k in SUBSTEPS:
        w = scenes.jelly_field(40)
        w.substeps = k
        w.step(300)
        t0 = time.process_time()
        w.step(60)
        ms = (time.process_time() - t0) / 60 * 1000
        cells.append(f"{k}: {ms:.2f} ms, area ≥ {_area_kept(w):.1%}")
    return ("40 jelly balls, by substeps", "; ".join(cells), "CPU; least area kept")


def bench_substeps() -> list[Row]:
    return [*_pyramids(), _chain(), _jelly()]
