"""Benchmark saving and loading a big world: 10,000 particles and 30,000 springs.

The world is a 100 × 100 grid of particles, each linked to its right, upper and
diagonal neighbours (29,601 springs) plus 399 springs between random far pairs,
stepped a few frames so that every particle and spring has its own state. It is
saved and loaded in the default (column) form, and in the per-entity form for
comparison; each time is the median of 3 runs. Target: save ≤ 1 s, load ≤ 1 s.
The loaded world is checked to continue bit for bit.

Run: ``python tools/bench_saving.py``
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from typing import Any

import numpy as np

import ecsgoo
from ecsgoo import Particle, Spring, World, systems


def big_world(side: int = 100, extra: int = 399, seed: int = 0) -> World:
    """``side²`` particles in a grid with about ``3 · side²`` springs, stepped 3 frames."""
    rng = np.random.default_rng(seed)
    w = World(bounds=None, gravity=(0.0, -98.0))
    w.use(systems.Integrate(), systems.Project(), systems.Collide(particles=False),
          systems.Break())
    ids = [w.create_entity(Particle(12.0 * i + rng.uniform(-1, 1), 12.0 * j, radius=3.0))
           for i in range(side) for j in range(side)]
    for i in range(side):
        for j in range(side):
            for di, dj in ((1, 0), (0, 1), (1, 1)):
                if i + di < side and j + dj < side:
                    w.create_entity(Spring(ids[i * side + j], ids[(i + di) * side + j + dj]))
    for a, b in rng.integers(0, len(ids), (extra, 2)).tolist():
        if a != b:
            w.create_entity(Spring(ids[a], ids[b]))
    w.step(3)
    return w


def _median(func: Any, runs: int = 3) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def bench_saving(side: int = 100, runs: int = 3) -> dict[str, Any]:
    """Save/load seconds and file sizes (bytes) of the big world, column and per-entity forms."""
    w = big_world(side)
    out: dict[str, Any] = {"particles": w.store.particles.n, "springs": w.store.springs.n}
    with tempfile.TemporaryDirectory() as tmp:
        for form, compact in (("columns", True), ("per_entity", False)):
            path = os.path.join(tmp, f"{form}.toml")
            save_s, _ = _median(lambda c=compact, p=path: ecsgoo.save(w, p, compact=c), runs)
            load_s, loaded = _median(lambda p=path: ecsgoo.load(p), runs)
            w2 = w.clone()
            w2.step(5)
            loaded.step(5)
            out[form] = {"save_s": round(save_s, 3), "load_s": round(load_s, 3),
                         "bytes": os.path.getsize(path),
                         "bit_exact": loaded.state_hash() == w2.state_hash()}
    out["default_form"] = "columns" if w.store.particles.n + w.store.springs.n > \
        ecsgoo.saving.COMPACT_ABOVE else "per_entity"
    out["target_s"] = 1.0
    return out


if __name__ == "__main__":
    print(json.dumps(bench_saving()))
