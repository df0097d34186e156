"""``World(threads=2)`` beside one thread (``bench threads``): the 8,000 and 32,000
circle piles and the 200 jelly balls.

Both worlds of a scene step in turn, ``ROUNDS`` rounds of ``FRAMES`` frames after
``SETTLE``, so a busy minute slows both alike. Wall time per frame (the threads'
gain; CPU time counts both cores), the best round and the median, and whether the two
worlds ended with the same bits (they must: ``physics.threads``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import scenes
from ecsgoo import World

SETTLE, FRAMES, ROUNDS = 30, 8, 12

SCENES: dict[str, Callable[[], World]] = {
    "8,000 circles": lambda: scenes.circle_pile(8000, width=2400.0),
    "32,000 circles": lambda: scenes.circle_pile(32000, width=4800.0),
    "200 jelly balls": lambda: scenes.jelly_field(200),
}


def _rounds(make: Callable[[], World]) -> tuple[dict[int, list[float]], bool]:
    """Wall ms a frame of each round, by thread count, and whether the bits agree."""
    worlds = {}
    for count in (1, 2):
        worlds[count] = w = make()
        w.threads = count
        w.step(SETTLE)
    ms: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(ROUNDS):
        for count, w in worlds.items():
            t0 = time.perf_counter()
            w.step(FRAMES)
            ms[count].append((time.perf_counter() - t0) / FRAMES * 1000)
    return ms, worlds[1].state_hash() == worlds[2].state_hash()


def bench_threads() -> list[Row]:
    rows = []
    for name, make in SCENES.items():
        ms, same = _rounds(make)
        one, two = (min(ms[k]) for k in (1, 2))
        med1, med2 = (statistics.median(ms[k]) for k in (1, 2))
        rows.append((f"{name}, threads=2 vs 1 (wall)",
                     f"{two:.2f} vs {one:.2f} ms/frame best ({two / one:.2f}×); median "
                     f"{med2:.2f} vs {med1:.2f} ({med2 / med1:.2f}×)",
                     "same bits" if same else "**different bits**"))
    return rows


Row = tuple[str, str, str]
