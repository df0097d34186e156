"""Benchmark the analyze stage: what it adds to a frame of the 200-jelly-ball scene.

Steps ``tests/scenes.py jelly_field(200)`` (5,000 particles, 14,400 springs)
alternating blocks of frames with and without ``Analyze`` at the end of the
pipeline (alternating cancels the drift of a settling scene and of a shared
machine), reads the stage's own time from ``world.profile``, and times a full
analysis (the cost of a frame in which the structure changed; steady frames
reuse the graph answers and only re-rank). Beside it,
the worst case for the ranking: 200 hanging ropes whose every link is a bridge.
The peer is networkx (bridges + connected components) on the same graph.
Target: Analyze adds ≤ 1 ms per frame on the jelly scene.

Run: ``python tools/bench_analyze.py [frames]``
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "tests")]

import networkx as nx  # noqa: E402

import scenes  # noqa: E402
from ecsgoo import World, systems  # noqa: E402
from ecsgoo.bodies import rope  # noqa: E402

TARGET_MS = 1.0


def rope_field(ropes: int = 200, segments: int = 24) -> World:
    """``ropes`` pinned ropes side by side: every link is critical (a bridge)."""
    w = scenes.solver(World(bounds=(0, 0, ropes * 10 + 40, 700)))
    for k in range(ropes):
        rope(w, (20 + 10 * k, 680), (20 + 10 * k, 680 - 20 * segments), segments,
             max_stretch=2.0)
    return w


def _frame_ms(world: World, frames: int) -> list[float]:
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        world.step()
        times.append((time.perf_counter() - t0) * 1e3)
    return times


def _added_ms(world: World, frames: int, block: int = 10) -> dict:
    """Frame times with and without Analyze, and the stage's own time, medians in ms.

    ``added_ms``: median frame with Analyze minus median frame without (blocks of
    ``block`` frames, alternating; noisy on a shared machine). ``analyze_stage_ms``:
    the stage's own time per frame from ``world.profile`` (median; the mean
    includes the odd preemption). ``analyze_full_ms``: a full analysis (what a
    frame costs when the structure changed: a link broke, a body spawned) by a
    fresh stage, timed between frames.
    """
    plain = world.pipeline
    with_analyze = (*plain, systems.Analyze())
    world.use(*with_analyze)
    world.step(3)  # compile, and give the stage its first report
    off, on = [], []
    for _ in range(max(frames // (2 * block), 1)):
        world.use(*plain)
        off += _frame_ms(world, block)
        world.use(*with_analyze)
        on += _frame_ms(world, block)
    stage, full = [], []
    for _ in range(frames):
        world.profile = {}
        world.step()
        stage.append(world.profile["analyze"] * 1e3)
        t0 = time.perf_counter()
        systems.Analyze().analyze(world)
        full.append((time.perf_counter() - t0) * 1e3)
    world.profile = None
    report = world.resource(systems.StructureReport)
    return {
        "particles": world.store.particles.n,
        "springs": world.store.springs.n,
        "critical": len(report.critical),
        "frame_ms_without": round(statistics.median(off), 3),
        "frame_ms_with": round(statistics.median(on), 3),
        "added_ms": round(statistics.median(on) - statistics.median(off), 3),
        "analyze_stage_ms": round(statistics.median(stage), 3),
        "analyze_stage_mean_ms": round(statistics.mean(stage), 3),
        "analyze_full_ms": round(statistics.median(full), 3),
    }


def _networkx_ms(world: World) -> float:
    """nx.bridges + nx.connected_components on the same spring graph (graph building excluded)."""
    p, s = world.store.particles, world.store.springs
    graph = nx.MultiGraph()
    graph.add_nodes_from(range(p.n))
    live = ~s.cols["broken"][: s.n]
    graph.add_edges_from(zip(s.cols["a"][: s.n][live].tolist(),
                             s.cols["b"][: s.n][live].tolist(), strict=True))
    t0 = time.perf_counter()
    list(nx.bridges(graph))
    list(nx.connected_components(graph))
    return (time.perf_counter() - t0) * 1e3


def bench_analyze(frames: int = 200) -> dict:
    """Analyze's cost per frame on the jelly scene (and the all-bridges rope scene)."""
    out = {}
    for name, world in (("jelly_field_200", scenes.jelly_field(200)),
                        ("rope_field_200", rope_field(200))):
        row = _added_ms(world, frames)
        row["networkx_ms"] = round(_networkx_ms(world), 1)
        out[name] = row
    out["target_ms"] = TARGET_MS
    jelly = out["jelly_field_200"]
    out["ok"] = max(jelly["analyze_stage_ms"], jelly["analyze_full_ms"]) <= TARGET_MS
    return out


if __name__ == "__main__":
    print(json.dumps(bench_analyze(*(int(a) for a in sys.argv[1:2]))))
