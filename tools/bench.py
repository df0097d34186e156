"""Benchmarks: named scenes, timed in one process, each beside its peer where it has one.

Run ``python tools/bench.py`` (or ``ecsgoo bench``) for all, or name some:
``python tools/bench.py pile jelly``. Prints a Markdown table to paste into
BENCHMARKS.md. Times are wall-clock medians/means on this machine; compare the
ratios, not the absolute figures.
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "tests"), HERE]

import numpy as np  # noqa: E402

import scenes  # noqa: E402
from ecsgoo import Anchor, Particle, RigidBody, World, systems  # noqa: E402
from ecsgoo.bodies import jelly_ball  # noqa: E402

Row = tuple[str, str, str]


def _warm() -> None:
    """Compile every kernel once so no timing includes numba's start-up."""
    scenes.chaos().step(2)


def _pymunk_pile(count: int, width: float, steps: int) -> float:
    space = _pymunk_pile_space(count, width)
    t0 = time.process_time()
    for _ in range(steps):
        space.step(1 / 60)
    return (time.process_time() - t0) * 1000 / steps


def _pymunk_pile_space(count: int, width: float) -> Any:
    """``scenes.circle_pile(count, width=width)`` as a pymunk Space (10 iterations)."""
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
    return space


def _box2d_pile(count: int, width: float, steps: int) -> float | None:
    """The same pile in Box2D 2.3 (metres: 1 m = 100 px; bodies never sleep; friction
    0.4, restitution 0.1, mass 1 each; one ``Step(1/60, 8, 3)`` a frame): CPU ms a step,
    or None without Box2D."""
    try:
        import Box2D
    except ImportError:
        return None
    m = 0.01
    rng = np.random.default_rng(0)
    cols = int(width // 34)
    height = 40 * (count // cols + 1) + 200
    world = Box2D.b2World(gravity=(0, -9.8), doSleep=False)
    walls = world.CreateStaticBody()
    corners = [(0, 0), (width, 0), (width, height), (0, height)]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        walls.CreateEdgeFixture(vertices=[(a[0] * m, a[1] * m), (b[0] * m, b[1] * m)],
                                friction=0.4, restitution=0.1)
    for k in range(count):  # the same positions and radii as scenes.circle_pile
        x = 20 + (k % cols) * 34 + rng.uniform(-1, 1)
        y = 20 + (k // cols) * 34
        r = rng.uniform(8, 16) * m
        body = world.CreateDynamicBody(position=(x * m, y * m), allowSleep=False)
        body.CreateCircleFixture(radius=r, density=1.0 / (math.pi * r * r), friction=0.4,
                                 restitution=0.1)
    t0 = time.process_time()
    for _ in range(steps):
        world.Step(1 / 60, 8, 3)
    return (time.process_time() - t0) * 1000 / steps


#: interleaved rounds of the side-by-side scenes: each reports its best round, the
#: least disturbed by whatever else the machine runs (the ratio is of the bests).
ROUNDS = 3


def _cpu_ms_per_frame(world: World, frames: int) -> float:
    """CPU ms a frame (this process only: another's load does not count)."""
    t0 = time.process_time()
    world.step(frames)
    return (time.process_time() - t0) * 1000 / frames


#: Box2D 2.3's pile above this many circles is left out: its step grows as N² here
#: (1.6 s a step at 8,000 circles: a run of the 8,000 pile took 24 minutes).
BOX2D_PILE_MAX = 4000


def bench_pile(count: int = 2000, frames: int = 300) -> list[Row]:
    """A pile of circles (radius 8–16) settling in a box: ecsgoo vs pymunk (and Box2D up to
    ``BOX2D_PILE_MAX`` circles), same scene, ``ROUNDS`` rounds interleaved, CPU time."""
    width = 1200.0
    ours, peer, box2d = [], [], []
    for _ in range(ROUNDS):
        ours.append(_cpu_ms_per_frame(scenes.circle_pile(count, width=width), frames))
        peer.append(_pymunk_pile(count, width, frames))
        if count <= BOX2D_PILE_MAX:
            box2d.append(_box2d_pile(count, width, frames))
    a, b = min(ours), min(peer)
    theirs = (f"Box2D left out above {BOX2D_PILE_MAX} circles" if not box2d else
              "Box2D not installed" if None in box2d else
              f"Box2D 2.3 {min(box2d):.2f} ms/step (8+3 iterations; rounds {_runs(box2d)}); "
              f"ratio to Box2D {a / min(box2d):.2f}")
    return [(f"pile of {count} circles, {frames} frames settling",
             f"{a:.2f} ms/frame (6 substeps; rounds {_runs(ours)})",
             f"pymunk {b:.2f} ms/step (10 iterations; rounds {_runs(peer)}); "
             f"ratio {a / b:.2f} (target ≤ 0.5); {theirs}")]


def bench_jelly(balls: int = 200, frames: int = 120) -> list[Row]:
    """200 jelly balls × 24 vertices with the full solver pipeline (target ≤ 8 ms/frame):
    CPU time, the best of ``ROUNDS`` runs."""
    runs = []
    for _ in range(ROUNDS):
        w = scenes.jelly_field(balls)
        w.step(30)
        runs.append(_cpu_ms_per_frame(w, frames))
    p, s = w.store.particles.n, w.store.springs.n
    return [(f"{balls} jelly balls ({p} particles, {s} springs)",
             f"{min(runs):.2f} ms/frame CPU (rounds {_runs(runs)})", "target ≤ 8 ms")]


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


def _settled_pile(count: int = 2000, frames: int = 300) -> World:
    w = scenes.circle_pile(count)
    w.step(frames)
    return w


def _pile_rays(world: World, count: int = 1000) -> np.ndarray:
    """``scenes.ray_batch`` over ``world``'s box, the horizontal ones through the middle
    half of the pile's height."""
    left, bottom, right, top = world.bounds
    ys = world.particles.pos[:, 1]
    return scenes.ray_batch(right - left, top - bottom, (0.25 * ys.max(), 0.75 * ys.max()),
                            count)


def bench_rays(count: int = 2000, rays: int = 1000, passes: int = 3) -> list[Row]:
    """``World.raycast`` (first hit) through a settled pile of ``count`` circles, ``rays``
    rays from above and across (best of ``passes`` over the batch), beside pymunk's
    ``segment_query_first`` on the same circles (ecsgoo's settled centres and radii copied
    in), and how often both hit the same one."""
    import peers
    import pymunk

    w = _settled_pile(count)
    batch = _pile_rays(w, rays).tolist()
    pos, radius = w.particles.pos.copy(), w.particles.radius.copy()
    row_of = {int(e): k for k, e in enumerate(w.particles.entity.tolist())}
    peer = peers.PymunkCircles(pos, radius)
    space, filt = peer.space, pymunk.ShapeFilter()
    w.raycast((1.0, 1.0), (2.0, 2.0))  # compile the query kernels outside the timing
    ours_us = peer_us = math.inf
    for _ in range(passes):  # the best pass of each: the machine is shared
        t0 = time.perf_counter()
        ours = [w.raycast((px, py), (qx, qy)) for px, py, qx, qy in batch]
        ours_us = min(ours_us, (time.perf_counter() - t0) * 1e6 / rays)
        t0 = time.perf_counter()
        theirs = [space.segment_query_first((px, py), (qx, qy), 0, filt)
                  for px, py, qx, qy in batch]
        peer_us = min(peer_us, (time.perf_counter() - t0) * 1e6 / rays)
    ours_rows = [None if h is None else row_of.get(h.entity, -1) for h in ours]
    theirs_rows = [None if h is None else peer.index[h.shape] for h in theirs]
    same = np.mean([a == b for a, b in zip(ours_rows, theirs_rows, strict=True)])
    missed = sum(h is None for h in ours)
    return [(f"{rays} rays (first hit) through a settled pile of {count} circles",
             f"{ours_us:.1f} µs/ray (`World.raycast`, best of {passes}; {missed} rays hit "
             "nothing)",
             f"pymunk `segment_query_first` {peer_us:.1f} µs/ray on the same circles; "
             f"ratio {ours_us / peer_us:.1f}; same circle hit for {same:.1%} of rays")]


def _with_layers(world: World) -> World:
    """Every particle given its layers and events explicitly: every other one on layer 2,
    all masks -1 (all layers: everything still collides), events off."""
    for k, e in enumerate(world.particles.entity.tolist()):
        p = world.component(int(e), Particle)
        p.layer, p.mask, p.events = (2 if k % 2 else 1), -1, False
    return world


def bench_layers(rounds: int = 3) -> list[Row]:
    """The pile (2,000 circles, 300 frames settling) and 200 jelly balls (120 frames after
    30) plain and with layers/masks/events set but unused (``_with_layers``), alternated
    in the same run: per run the median ms of a frame (both variants step the same frames),
    the best of ``rounds`` runs each (whole runs here slow by up to 70 % when the shared
    machine is busy, plain or layered alike) and the ratio of the bests."""
    def pile(layered: bool) -> float:
        w = scenes.circle_pile(2000)
        return _median_ms(_with_layers(w) if layered else w, 300)

    def jelly(layered: bool) -> float:
        w = scenes.jelly_field(200)
        if layered:
            _with_layers(w)
        w.step(30)
        return _median_ms(w, 120)

    rows = []
    for name, run in (("pile of 2000 circles, 300 frames settling", pile),
                      ("200 jelly balls, 120 frames", jelly)):
        plain, layered = [], []
        for k in range(rounds):  # A B B A A B: drift in the machine's load hits both alike
            for flag in ((False, True) if k % 2 == 0 else (True, False)):
                (layered if flag else plain).append(run(flag))
        a, b = min(plain), min(layered)
        rows.append((f"{name}: plain vs layers 1/2, masks -1, events off",
                     f"best {a:.2f} vs {b:.2f} ms/frame (runs {_runs(plain)} vs {_runs(layered)})",
                     f"ratio {b / a:.3f} (bar: no regression beyond noise)"))
    return rows


def _runs(values: list[float]) -> str:
    return "/".join(f"{v:.2f}" for v in values)


def _sparse(count: int, side: float = 100_000.0, seed: int = 0) -> World:
    """``count`` free particles (radius 4, slow random velocities) spread uniformly over a
    ``side`` × ``side`` px world, no gravity, no bounds."""
    rng = np.random.default_rng(seed)
    w = scenes.solver(World(bounds=None, gravity=(0, 0)))
    xy, v = rng.uniform(0, side, (count, 2)), rng.uniform(-20, 20, (count, 2))
    for (x, y), (vx, vy) in zip(xy.tolist(), v.tolist(), strict=True):
        w.create_entity(Particle(x, y, radius=4.0, vx=vx, vy=vy))
    return w


def bench_sparse() -> list[Row]:
    """The broad phase's growth: 1,000 vs 10,000 free particles (r 4) spread over
    100,000 × 100,000 px (median ms/frame; bar ≤ 12×), with each stage's share."""
    rows, ms = [], []
    for count, frames in ((1000, 200), (10000, 60)):
        w = _sparse(count)
        w.step(2)
        ms.append(_median_ms(w, frames))
        w.profile = {}
        w.step(frames)
        stages = ", ".join(f"{k} {v * 1000 / frames:.3f}" for k, v in w.profile.items())
        rows.append((f"{count} free particles over 100,000 × 100,000 px",
                     f"{ms[-1]:.3f} ms/frame", f"stages (ms/frame): {stages}"))
    rows.append(("sparse 1,000 vs 10,000", f"ratio {ms[1] / ms[0]:.1f}×", "bar ≤ 12×"))
    return rows


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


#: ecsgoo's runs of a pyramid: the default substeps, and two (a rigid-body game's setting:
#: pymunk takes one step of 10 iterations, Box2D v3 four substeps).
PYRAMID_SUBSTEPS = (6, 2)


def _ecsgoo_pyramid(base: int, substeps: int) -> tuple[float, float, float, float] | str:
    """ecsgoo's ``scenes.box_pyramid`` run at ``substeps`` a frame, or why not (ecsgoo
    without ``RigidBody``)."""
    try:
        from ecsgoo import RigidBody
    except ImportError as err:
        return f"unavailable ({type(err).__name__}: no ecsgoo.RigidBody)"
    scenes.box_pyramid(3)[0].step(2)  # compile the rigid-body kernels outside the timing
    world, boxes = scenes.box_pyramid(base)
    world.substeps = substeps
    views = [world.component(box, RigidBody) for box in boxes]
    return _pyramid_run(world.step, lambda: [(v.x, v.y, v.angle) for v in views])


def _pyramid_rows(bases: tuple[int, ...]) -> list[Row]:
    import peers

    rows = []
    for base in bases:
        count = base * (base + 1) // 2
        ours = {k: _ecsgoo_pyramid(base, k) for k in PYRAMID_SUBSTEPS}
        ours_cell = "; ".join(
            run if isinstance(run, str) else _pyramid_cell("", run, f"frame ({k} substeps)")
            for k, run in ours.items())
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
        if pymunk_ms is not None:
            cells += [f"ratio ecsgoo ({k} substeps)/pymunk {run[0] / pymunk_ms:.2f}"
                      for k, run in ours.items() if not isinstance(run, str)]
        rows.append((f"pyramid base {base} ({count} boxes of 40 px), "
                     f"{PYRAMID_FRAMES} frames standing", ours_cell, "; ".join(cells)))
    return rows


def _ecsgoo_small(name: str) -> World:
    """``peers.small_layout(name)`` in ecsgoo: the World's defaults, no bounds, the ground
    an anchored body."""
    import peers

    w = World(bounds=None).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(*peers.SMALL_GROUND), Anchor())
    for x, y, width, height, mass in peers.small_layout(name):
        w.create_entity(RigidBody.box(x, y, width, height, mass=mass))
    return w


def _cpu_us(step: Callable[[], object], frames: int) -> float:
    """CPU µs a call of ``step`` (this process only)."""
    t0 = time.process_time()
    for _ in range(frames):
        step()
    return (time.process_time() - t0) * 1e6 / frames


def bench_small(frames: int = 3000, rounds: int = 5) -> list[Row]:
    """Small scenes, where a frame's fixed cost is all there is: one box resting on the
    ground, a 1:100 column of five boxes, the ground alone; ecsgoo (the World's
    defaults) beside pymunk and Box2D 2.3 in the same process, after 2 s of settling,
    CPU µs a frame, the best of ``rounds`` interleaved rounds."""
    import peers

    rows = []
    for name, bar in (("one box", "≤ 5×"), ("column", "≤ 5×"), ("empty", "")):
        scenes_ = {"ecsgoo": _ecsgoo_small(name).step, "pymunk": peers.PymunkSmall(name).step}
        try:
            scenes_["Box2D"] = peers.Box2DSmall(name).step
        except ImportError:
            pass
        for step in scenes_.values():
            for _ in range(120):
                step()
        best = {k: math.inf for k in scenes_}
        for _ in range(rounds):
            for k, step in scenes_.items():
                best[k] = min(best[k], _cpu_us(step, frames))
        label = {"one box": "one 40 px box resting on the ground",
                 "column": "a 1:100 column of five 40 px boxes on the ground",
                 "empty": "the ground alone"}[name]
        theirs = "; ".join(f"{k} {v:.2f} µs" for k, v in best.items() if k != "ecsgoo")
        ratio = best["ecsgoo"] / best["pymunk"]
        rows.append((label, f"{best['ecsgoo']:.1f} µs/frame (6 substeps)",
                     f"{theirs}; ratio to pymunk {ratio:.1f}" + (f" (bar {bar})" if bar else "")))
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
    """Start-up to the first frame: cold (empty numba cache: what goo's first fifteen seconds
    reach compiles, the rest in a helper behind it) and warm (every kernel cached)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        cache, png = os.path.join(tmp, "numba"), os.path.join(tmp, "first.png")
        cold, _ = _start_seconds(cache, png)
        # the cold start's helper ended with it: the rest compiled now, as it would have
        subprocess.run([sys.executable, "-c", "from ecsgoo import warmup; "
                        "warmup.parallel_warm_up()"], cwd=os.path.join(HERE, ".."),
                       env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True,
                       capture_output=True)
        runs = [_start_seconds(cache, png) for _ in range(warm_runs)]
    first = statistics.median(r[0] for r in runs)
    whole = statistics.median(r[1] for r in runs)
    return [("start-up, cold cache (what goo's first fifteen seconds reach compiles, the rest "
             "behind it), goo to its first frame", f"{cold:.1f} s",
             "says so while it compiles (terminal and window)"),
            (f"start-up, warm cache, goo to its first frame (median of {warm_runs})",
             f"{first:.2f} s (process gone at {whole:.2f} s)", "target ≤ 1 s")]


#: A game's rehearsal into an empty cache, as ``warmup.game_warm_up`` runs it before play
#: (without its helper): CPU-s of the first frame, then of the rest (``first_frames``).
_REHEARSAL = """
import json, time
from ecsgoo import warmup
from ecsgoo.app import games
from ecsgoo.link_only import callees_for_linking
game = games.find_game({name!r})(level=1)
kernels = warmup.physics_kernels()
with callees_for_linking(warmup.linked_record(kernels)):
    t0 = time.process_time()
    warmup.compile_watched(kernels, lambda: game.world.clone().step())
    t1 = time.process_time()
    warmup.compile_watched(kernels, lambda: warmup.first_frames(game), open_ended=True)
    t2 = time.process_time()
print(json.dumps([t1 - t0, t2 - t1]))
"""


def bench_rehearsals(names: tuple[str, ...] = ("goo", "rope", "suika", "jelly")) -> list[Row]:
    """The cold compile a player waits for: each game's rehearsal (what its first fifteen
    seconds reach) into an empty numba cache, CPU-s, each in a process of its own."""
    import json
    import subprocess
    import tempfile

    rows = []
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            run = subprocess.run([sys.executable, "-c", _REHEARSAL.format(name=name)],
                                 cwd=os.path.join(HERE, ".."), capture_output=True, text=True,
                                 env={**os.environ, "NUMBA_CACHE_DIR": cache}, check=True)
        first, rest = json.loads(run.stdout.strip().splitlines()[-1])
        rows.append((f"cold compile, {name}'s rehearsal (its first frame + the rest of its "
                     "first fifteen seconds), empty cache",
                     f"{first:.1f} + {rest:.1f} = {first + rest:.1f} CPU-s", "target ≤ 30 CPU-s"))
    return rows


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


def _asleep_share(world: World) -> float:
    """The fraction of movable particles and bodies asleep."""
    st = world.store
    p, b = st.particles, st.bodies
    movable = np.concatenate([~p.pinned & (p.mass < np.inf), ~b.pinned])
    asleep = np.concatenate([p.asleep, b.asleep])
    return float(asleep[movable].mean()) if movable.any() else 0.0


def bench_sleep() -> list[Row]:
    """A settled scene's frame asleep vs awake (``World(sleep=True)``): the base-20 box
    pyramid after 3 s, and the 500-circle pile after 10 s (how much of it sleeps)."""
    rows = []
    for name, make, settle in (
            ("pyramid base 20 (210 boxes), after 3 s", lambda: scenes.box_pyramid(20)[0], 180),
            ("pile of 500 circles, after 10 s", lambda: scenes.circle_pile(500), 600)):
        cost = {}
        for sleep in (False, True):
            w = make()
            w.sleep = sleep
            w.step(settle)
            cost[sleep] = (_median_ms(w, 120), _asleep_share(w))
        (awake, _), (asleep, share) = cost[False], cost[True]
        rows.append((f"{name}: asleep vs awake", f"{asleep:.3f} vs {awake:.3f} ms/frame, "
                     f"{100 * share:.0f} % asleep",
                     f"ratio {asleep / awake:.2f} (target < 0.3, ≥ 95 % asleep)"))
        w = make()
        w.sleep = True
        w.step(settle)
        mixed = _median_ms(_one_falling(w), 40)
        rows.append((f"{name}: asleep with one ball falling above it vs awake",
                     f"{mixed:.3f} vs {awake:.3f} ms/frame",
                     f"ratio {mixed / awake:.2f} (its sleeping islands are frozen: "
                     "out of the ball's reach)"))
    return rows


def bench_sleeping_pile(frames: int = 3000, rounds: int = 5) -> list[Row]:
    """The 500-circle pile once all of it sleeps: ecsgoo (``World(sleep=True)``) beside
    pymunk (``sleep_time_threshold`` 0.5 s), CPU µs a frame, best of ``rounds`` rounds of
    ``frames`` taken in turn."""
    w = scenes.circle_pile(500)
    w.sleep = True
    for _ in range(3600):
        w.step()
        if w.resting:
            break
    space = _pymunk_pile_space(500, 1200.0)
    space.sleep_time_threshold = 0.5
    for _ in range(3600):
        space.step(1 / 60)
        if all(b.is_sleeping for b in space.bodies):
            break
    asleep = sum(b.is_sleeping for b in space.bodies)
    ours, theirs = [], []
    for _ in range(rounds):
        for out, step in ((ours, w.step), (theirs, lambda: space.step(1 / 60))):
            t0 = time.process_time()
            for _ in range(frames):
                step()
            out.append((time.process_time() - t0) * 1e6 / frames)
    a, b = min(ours), min(theirs)
    return [("pile of 500 circles, all asleep (CPU µs a frame, best round)",
             f"{a:.2f} µs (resting: {w.resting}; rounds {_runs(ours)})",
             f"pymunk {b:.2f} µs ({asleep}/500 asleep; rounds {_runs(theirs)}); "
             f"ratio {a / b:.2f} (target ≤ 1.5)")]


def _one_falling(world: World) -> World:
    """``world`` with a ball dropped 600 px above its highest thing (it falls for ~1 s)."""
    p, b = world.store.particles, world.store.bodies
    xy = np.concatenate([p.pos, b.pos])
    top, left = float(xy[:, 1].max()), float(xy[:, 0].min())
    world.create_entity(Particle(left, top + 600.0, radius=8.0, vx=100.0))
    world.step(2)
    return world


BENCHES: dict[str, Callable[[], list[Row]]] = {
    "pile": bench_pile,
    # the large piles (where it measured pymunk's cost growing as N^1.56)
    "pile8000": lambda: bench_pile(8000),
    "pile32000": lambda: bench_pile(32000),
    "jelly": bench_jelly,
    "fixed": bench_fixed_cost,
    "spawn": bench_spawn,
    "stages": bench_stages,
    "rays": bench_rays,
    "layers": bench_layers,
    "sparse": bench_sparse,
    "startup": bench_startup,
    "rehearsals": bench_rehearsals,
    "pyramid": bench_pyramid,
    "small": bench_small,
    "pyramid50": bench_pyramid50,
    "sleep": bench_sleep,
    "sleeping_pile": bench_sleeping_pile,
    "chain": _optional("bench_joints", "bench_chain"),
    "graph": _optional("bench_graph", "bench_graph"),
    "analyze": _optional("bench_analyze", "bench_analyze"),
    "saving": _optional("bench_saving", "bench_saving"),
    "render": _optional("bench_render", "bench_render"),
    "envs": _optional("bench_envs", "bench_envs"),
    "eval": _optional("bench_envs", "bench_eval"),
    "eval1000": _optional("bench_envs", "bench_eval1000"),
    "env_speed": _optional("bench_env_speed", "bench_env_speed"),
    "editor": _optional("bench_editor", "bench_editor"),
    "calm": _optional("bench_calm", "bench_calm"),
    "threads": _optional("bench_threads", "bench_threads"),
    "substeps": _optional("bench_substeps", "bench_substeps"),
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
