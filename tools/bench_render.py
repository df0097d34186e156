"""Render benchmark: a frame of 5,000 particles and 15,000 springs, batched vs one call each.

Draws the same scene headless (offscreen GL) with ``systems.Render`` (three
batched draw calls) and with one ``arcade.draw_circle_filled`` / ``draw_line``
call per particle and spring, the way a first version would. Times include
waiting for the GPU (a pixel read-back ends each frame).

    ARCADE_HEADLESS=1 python tools/bench_render.py [--particles N] [--springs M]
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")

import numpy as np  # noqa: E402

from ecsgoo import Particle, Spring, World  # noqa: E402
from ecsgoo.render import Render  # noqa: E402


def scene(particles: int = 5000, springs: int = 15000, seed: int = 0) -> World:
    """A jittered lattice over 800×600 (a big cloth or truss): neighbours linked, ~3 per node."""
    rng = np.random.default_rng(seed)
    w = World(bounds=(0, 0, 800, 600))
    cols = int(np.ceil(np.sqrt(particles * 800 / 600)))
    dx = 780 / cols
    k = np.arange(particles)
    xy = np.column_stack([10 + (k % cols) * dx, 10 + (k // cols) * dx])
    xy += rng.uniform(-0.2 * dx, 0.2 * dx, xy.shape)
    ids = [w.create_entity(Particle(x, y, radius=0.3 * dx)) for x, y in xy]
    pairs = [(i, i + step) for step in (1, cols, cols + 1, cols - 1) for i in range(particles)
             if i + step < particles and abs((i + step) % cols - i % cols) <= 1]
    for a, b in pairs[:springs]:
        w.create_entity(Spring(ids[a], ids[b], rest=dx * rng.uniform(0.8, 1.6)))
    return w


def _frame_batched(render: Render, world: World, window: object) -> None:
    render.draw(world, window)


def _frame_naive(world: World, window: object) -> None:
    import arcade

    window.clear()
    p, s = world.store.particles, world.store.springs
    pos = p.cols["pos"][: p.n]
    for (x, y), r in zip(pos.tolist(), p.cols["radius"][: p.n].tolist(), strict=True):
        arcade.draw_circle_filled(x, y, r, (255, 196, 92))
    a, b = s.cols["a"][: s.n], s.cols["b"][: s.n]
    for (x1, y1), (x2, y2) in zip(pos[a].tolist(), pos[b].tolist(), strict=True):
        arcade.draw_line(x1, y1, x2, y2, (96, 214, 120), 2)


def _time(frame, repeats: int, clock=time.perf_counter) -> float:
    """Best time of ``repeats`` frames, ms (the machine is shared: the best is the cost)."""
    import arcade

    frame()
    arcade.get_image(0, 0, 1, 1)  # warm up: shaders, buffers
    best = float("inf")
    for _ in range(repeats):
        t0 = clock()
        frame()
        arcade.get_image(0, 0, 1, 1)  # wait for the GPU to finish the frame
        best = min(best, clock() - t0)
    return best * 1000


def bench_render(particles: int = 5000, springs: int = 15000, repeats: int = 20,
                 naive_repeats: int = 2) -> dict:
    """Best milliseconds per frame: ``batched_ms`` (Render; ``batched_cpu_ms`` its CPU time
    over all threads), ``scene_build_ms`` (its numpy part), ``naive_ms`` (one arcade call
    per particle and spring), and their ratio."""
    from ecsgoo.app.headless import offscreen_window

    window = offscreen_window((800, 600))
    world = scene(particles, springs)
    render = Render()
    batched = _time(lambda: _frame_batched(render, world, window), repeats)
    # CPU time of all threads (llvmpipe rasterises on every core): the work, whatever the load
    cpu = _time(lambda: _frame_batched(render, world, window), repeats, time.process_time)
    build = _time(lambda: render.scene(world, 1.0), repeats)
    naive = _time(lambda: _frame_naive(world, window), naive_repeats)
    return {"particles": particles, "springs": springs, "batched_ms": round(batched, 2),
            "batched_cpu_ms": round(cpu, 2),
            "scene_build_ms": round(build, 2), "naive_ms": round(naive, 1),
            "speedup": round(naive / batched, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--particles", type=int, default=5000)
    parser.add_argument("--springs", type=int, default=15000)
    args = parser.parse_args()
    r = bench_render(args.particles, args.springs)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"render {r['particles']} particles + {r['springs']} springs, headless "
          f"({os.cpu_count()} cores, load average {load:.1f}):")
    print(f"  batched (systems.Render)   {r['batched_ms']:8.2f} ms/frame "
          f"(CPU, all threads {r['batched_cpu_ms']:.1f} ms; numpy scene build "
          f"{r['scene_build_ms']:.2f} ms)")
    print(f"  one draw call each         {r['naive_ms']:8.1f} ms/frame   "
          f"→ {r['speedup']}× faster batched")


if __name__ == "__main__":
    main()
