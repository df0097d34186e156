"""Benchmarks: named scenes, timed in one process, each beside its peer where it has one.

Run ``python tools/bench.py`` (or ``ecsgoo bench``) for all, or name some:
``python tools/bench.py pile jelly``. Prints a Markdown table to paste into
BENCHMARKS.md. Times are wall-clock medians/means on this machine; compare the
ratios, not the absolute figures.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "tests"), HERE]

import numpy as np  # noqa: E402

import scenes  # noqa: E402
from ecsgoo import Particle, World  # noqa: E402
from ecsgoo.bodies import jelly_ball  # noqa: E402

Row = tuple[str, str, str]


def _ms_per_frame(world: World, frames: int) -> float:
    t0 = time.perf_counter()
    world.step(frames)
    return (time.perf_counter() - t0) * 1000 / frames


def _warm() -> None:
    """Compile every kernel once so no timing includes numba's start-up."""
    scenes.chaos().step(2)


def _pymunk_pile(count: int, width: float, steps: int) -> float:
    import pymunk

    rng = np.random.default_rng(0)
    cols = int(width // 34)
    height = 40 * (count // cols + 1) + 200
    space = pymunk.Space()
    space.gravity = (0, -980)
    space.iterations = 10
    corners = [(0, 0), (width, 0), (width, height), (0, height)]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        seg = pymunk.Segment(space.static_body, a, b, 1.0)
        seg.friction, seg.elasticity = 0.4, 0.1
        space.add(seg)
    for k in range(count):  # the same positions and radii as scenes.circle_pile
        x = 20 + (k % cols) * 34 + rng.uniform(-1, 1)
        y = 20 + (k // cols) * 34
        r = rng.uniform(8, 16)
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, r))
        body.position = (x, y)
        shape = pymunk.Circle(body, r)
        shape.friction, shape.elasticity = 0.4, 0.1
        space.add(body, shape)
    t0 = time.perf_counter()
    for _ in range(steps):
        space.step(1 / 60)
    return (time.perf_counter() - t0) * 1000 / steps


def bench_pile(count: int = 2000, frames: int = 300) -> list[Row]:
    """A pile of circles (radius 8–16) settling in a box: ecsgoo vs pymunk, same scene."""
    width = 1200.0
    ours = _ms_per_frame(scenes.circle_pile(count, width=width), frames)
    peer = _pymunk_pile(count, width, frames)
    return [(f"pile of {count} circles, {frames} frames settling",
             f"{ours:.2f} ms/frame (6 substeps)",
             f"pymunk {peer:.2f} ms/step (10 iterations); ratio {ours / peer:.2f} "
             "(target ≤ 0.5)")]


def bench_jelly(balls: int = 200, frames: int = 120) -> list[Row]:
    """200 jelly balls × 24 vertices with the full solver pipeline (target ≤ 8 ms/frame)."""
    w = scenes.jelly_field(balls)
    w.step(30)
    ms = _ms_per_frame(w, frames)
    p, s = w.store.particles.n, w.store.springs.n
    return [(f"{balls} jelly balls ({p} particles, {s} springs)", f"{ms:.2f} ms/frame",
             "target ≤ 8 ms")]


def _free(count: int) -> World:
    w = scenes.solver(World(bounds=(0, 0, 100 * count, 1e6), gravity=(0, 0)))
    for k in range(count):
        w.create_entity(Particle(50.0 + 100 * k, 500.0, vx=1.0))
    return w


def bench_fixed_cost() -> list[Row]:
    """Per-frame cost with 10 particles, and how 10,000 free particles scale against 1,000."""
    small = _median_ms(_free(10), 2000)
    one, ten = _median_ms(_free(1000), 200), _median_ms(_free(10000), 50)
    return [("pipeline, 10 particles", f"{small:.3f} ms/frame", "target ≤ 0.1 ms"),
            ("1,000 vs 10,000 free particles", f"{one:.3f} vs {ten:.3f} ms/frame",
             f"ratio {ten / one:.1f}× (target ≤ 16×)")]


def _median_ms(world: World, frames: int) -> float:
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        world.step()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def bench_spawn(balls: int = 200, repeats: int = 15) -> list[Row]:
    """Spawning one jelly ball (25 particles, 72 springs) into the 200-ball world, then a step."""
    w = scenes.jelly_field(balls)
    w.step(5)
    plain, spawn = [], []
    for k in range(repeats):
        t0 = time.perf_counter()
        w.step()
        plain.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        jelly_ball(w, 100 + 80 * k, 2000, radius=30)
        w.step()
        spawn.append(time.perf_counter() - t0)
    extra = (statistics.median(spawn) - statistics.median(plain)) * 1000
    return [("spawn 1 jelly ball into the 200-ball world + step",
             f"+{extra:.2f} ms over a plain step", "target ≤ 3 ms")]


def bench_stages(balls: int = 200, frames: int = 60) -> list[Row]:
    """Per-stage ms per frame on the jelly scene, so the next bottleneck is visible."""
    w = scenes.jelly_field(balls)
    w.step(5)
    w.profile = {}
    w.step(frames)
    return [(f"stage {name} (jelly {balls})", f"{sec * 1000 / frames:.2f} ms/frame", "")
            for name, sec in w.profile.items()]


PYRAMID_FRAMES = 600  # 10 s of 1/60 s frames
PYRAMID_SLACK = 5.0  # px: a box whose centre is this close to where it was placed still stands
Poses = Callable[[], list[tuple[float, float, float]]]  # each box's x, y (px), angle (rad)


def _pyramid_run(step: Callable[[], None], centres: Poses,
                 frames: int = PYRAMID_FRAMES) -> tuple[float, float, float, float]:
    """Step a pyramid ``frames`` frames: median ms a frame, the fraction of boxes within
    ``PYRAMID_SLACK`` px of where they were placed, the largest distance (px) and the
    largest tilt (degrees; a box on its side has turned 90°, a sagging stack a few)."""
    placed = np.array(centres())
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    dx, dy, turned = (np.array(centres()) - placed).T
    moved = np.hypot(dx, dy)
    return (statistics.median(times) * 1000, float(np.mean(moved <= PYRAMID_SLACK)),
            float(moved.max()), float(np.degrees(np.abs(turned).max())))


def _pyramid_cell(name: str, run: tuple[float, float, float, float], unit: str) -> str:
    ms, standing, worst, tilt = run
    return (f"{name}{ms:.2f} ms/{unit}, {standing:.0%} within {PYRAMID_SLACK:g} px "
            f"(max {worst:.1f} px, tilt {tilt:.0f}°)")


def _ecsgoo_pyramid(base: int) -> tuple[float, float, float, float] | str:
    """ecsgoo's ``scenes.box_pyramid`` run, or why not (ecsgoo without ``RigidBody``)."""
    try:
        from ecsgoo import RigidBody
    except ImportError as err:
        return f"unavailable ({type(err).__name__}: no ecsgoo.RigidBody)"
    scenes.box_pyramid(3)[0].step(2)  # compile the rigid-body kernels outside the timing
    world, boxes = scenes.box_pyramid(base)
    views = [world.component(box, RigidBody) for box in boxes]
    return _pyramid_run(world.step, lambda: [(v.x, v.y, v.angle) for v in views])


def _pyramid_rows(bases: tuple[int, ...]) -> list[Row]:
    import peers

    rows = []
    for base in bases:
        count = base * (base + 1) // 2
        ours = _ecsgoo_pyramid(base)
        if isinstance(ours, str):
            ours_cell = ours
        else:
            ours_cell = _pyramid_cell("", ours, "frame (6 substeps)")
        cells, pymunk_ms = [], None
        for name, build, unit in (("pymunk", peers.PymunkPyramid, "step (10 iterations)"),
                                  ("Box2D", peers.Box2DPyramid, "step (8+3 iterations)")):
            try:
                scene = build(base)
            except ImportError:
                cells.append(f"{name} not installed")
                continue
            run = _pyramid_run(scene.step, scene.centres)
            cells.append(_pyramid_cell(f"{name} ", run, unit))
            if name == "pymunk":
                pymunk_ms = run[0]
        if not isinstance(ours, str) and pymunk_ms is not None:
            cells.append(f"ratio ecsgoo/pymunk {ours[0] / pymunk_ms:.2f}")
        rows.append((f"pyramid base {base} ({count} boxes of 40 px), "
                     f"{PYRAMID_FRAMES} frames standing", ours_cell, "; ".join(cells)))
    return rows


def bench_pyramid() -> list[Row]:
    """Box2D's pyramid stacking test, bases 10 and 20: ms/frame and how many boxes still stand
    after 10 s, in ecsgoo, pymunk and Box2D 2.3 (same layout: ``scenes.pyramid_layout``)."""
    return _pyramid_rows((10, 20))


def bench_pyramid50() -> list[Row]:
    """The large pyramid (base 50, 1275 boxes), apart from ``pyramid`` as it takes a while."""
    return _pyramid_rows((50,))


def _start_seconds(cache: str, png: str) -> tuple[float, float]:
    """Seconds of ``ecsgoo play goo --headless --frames 1 --screenshot PNG`` in a new
    process using the numba cache ``cache``: process start to the first frame drawn and
    saved (the PNG's modification time), and to the process gone (numba's and the GL
    context's teardown add ~0.4 s here)."""
    import subprocess

    root = os.path.join(HERE, "..")  # python -m runs this checkout's ecsgoo
    cmd = [sys.executable, "-m", "ecsgoo", "play", "goo", "--headless", "--frames", "1",
           "--screenshot", png]
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "ARCADE_HEADLESS": "1"}
    if os.path.exists(png):
        os.unlink(png)
    start, t0 = time.time(), time.perf_counter()
    subprocess.run(cmd, cwd=root, env=env, check=True, capture_output=True)
    return os.path.getmtime(png) - start, time.perf_counter() - t0


def bench_startup(warm_runs: int = 5) -> list[Row]:
    """Start-up to the first frame: cold (empty numba cache: every kernel compiles) and warm."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        cache, png = os.path.join(tmp, "numba"), os.path.join(tmp, "first.png")
        cold, _ = _start_seconds(cache, png)
        runs = [_start_seconds(cache, png) for _ in range(warm_runs)]
    first = statistics.median(r[0] for r in runs)
    whole = statistics.median(r[1] for r in runs)
    return [("start-up, cold cache (every kernel compiles), goo to its first frame",
             f"{cold:.1f} s", "says so while it compiles (terminal and window)"),
            (f"start-up, warm cache, goo to its first frame (median of {warm_runs})",
             f"{first:.2f} s (process gone at {whole:.2f} s)", "target ≤ 1 s")]


def _optional(module: str, func: str) -> Callable[[], list[Row]]:
    """A benchmark from another tools/ module, as table rows: the rows it returns, or one
    row per key of the dict it returns (figures as it reports them)."""

    def run() -> list[Row]:
        mod = __import__(module)
        result = getattr(mod, func)()
        if isinstance(result, list):  # rows already: (scene, ecsgoo, peer / target)
            return result
        return [(f"{module}: {k}", _figure(v), "") for k, v in result.items()]

    return run


def _figure(value: object) -> str:
    """A table cell: floats to 3 places, dicts as ``key value`` pairs (no raw braces)."""
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_figure(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_figure(v) for v in value)
    return str(value)


BENCHES: dict[str, Callable[[], list[Row]]] = {
    "pile": bench_pile,
    "jelly": bench_jelly,
    "fixed": bench_fixed_cost,
    "spawn": bench_spawn,
    "stages": bench_stages,
    "startup": bench_startup,
    "pyramid": bench_pyramid,
    "pyramid50": bench_pyramid50,
    "graph": _optional("bench_graph", "bench_graph"),
    "analyze": _optional("bench_analyze", "bench_analyze"),
    "saving": _optional("bench_saving", "bench_saving"),
    "render": _optional("bench_render", "bench_render"),
    "envs": _optional("bench_envs", "bench_envs"),
    "eval": _optional("bench_envs", "bench_eval"),
    "eval1000": _optional("bench_envs", "bench_eval1000"),
}


def _arguments(argv: list[str]) -> list[str]:
    """The scene names asked for (all when none); ``--help`` and unknown names exit here."""
    import argparse

    # `ecsgoo bench` runs this file with PROG set to its own name
    parser = argparse.ArgumentParser(
        prog=globals().get("PROG", "tools/bench.py"),
        description="Run benchmark scenes, each beside its peer, and print a Markdown table "
                    "for BENCHMARKS.md. Scenes: " + ", ".join(BENCHES) + ".")
    parser.add_argument("scenes", nargs="*", metavar="SCENE", help="scenes to run (default: all)")
    names = parser.parse_args(argv).scenes
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        parser.error(f"unknown scene {unknown[0]!r} (scenes: {', '.join(BENCHES)})")
    return names or list(BENCHES)


def main(argv: list[str]) -> None:
    """Run the named benchmarks (all by default) and print a Markdown table."""
    names = _arguments(argv)
    _warm()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d')}\n")
    print("| scene | ecsgoo | peer / target |\n|---|---|---|")
    for name in names:
        try:
            rows = BENCHES[name]()
        except ImportError as err:
            rows = [(name, "skipped", f"not available: {err}")]
        for row in rows:
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
