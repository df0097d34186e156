"""Benchmarks of the environments and of evaluation (``ecsgoo bench envs eval eval1000``).

- ``bench_envs``: environment steps per second of each id under random actions
  (headless, no rendering), beside the raw ``World.step`` rate of the very
  frames those steps ran (the time spent inside ``World.step`` itself).
- ``bench_eval``: ``ecsgoo eval`` throughput, whole suika games of the random
  bot, on 1 and 2 local workers and on Ray with 2 workers (a local instance
  started for the run), and what Ray's start and stop add.
- ``bench_eval1000``: the time to evaluate 1,000 suika seeds (random bot,
  whole games) on 2 local workers.

Steps per CPU-second beside CartPole and LunarLander: ``bench_env_speed.py``.
"""

from __future__ import annotations

import os
import time
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")


def _timed_world(env: Any, spent: list[float]) -> None:
    """Make the env's current world add the seconds each ``World.step`` takes to ``spent``."""
    world = env.unwrapped.game.world
    if getattr(world, "_timed", False):
        return
    plain = world.step

    def step(*args: Any, **kwargs: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return plain(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0

    world.step, world._timed = step, True


def _env_rate(env_id: str, steps: int) -> dict[str, float]:
    """Env steps/s, frames per step and World.step frames/s over ``steps`` random steps."""
    import gymnasium as gym

    import ecsgoo.envs  # noqa: F401

    env = gym.make(env_id)
    env.reset(seed=0)
    env.action_space.seed(0)
    spent, frames, seed = [0.0], 0, 0
    t0 = time.perf_counter()
    for _ in range(steps):
        _timed_world(env, spent)
        before = env.unwrapped.game.world.frame
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        frames += env.unwrapped.game.world.frame - before
        if terminated or truncated:
            seed += 1
            env.reset(seed=seed)
    total = time.perf_counter() - t0
    env.close()
    return {"steps/s": steps / total, "frames/step": frames / steps,
            "world frames/s": frames / spent[0], "share": spent[0] / total}


def bench_envs(steps: int = 400) -> list[tuple[str, str, str]]:
    """Each environment's step rate beside the World.step rate of the same frames."""
    rows = []
    for env_id in ("ecsgoo/Suika-v0", "ecsgoo/Rope-v0", "ecsgoo/Goo-v0"):
        r = _env_rate(env_id, steps)
        rows.append((f"{env_id}, {steps} random steps (headless, no rendering)",
                     f"{r['steps/s']:,.0f} steps/s ({r['frames/step']:.1f} frames a step)",
                     f"World.step alone {r['world frames/s']:,.0f} frames/s, "
                     f"{100 * r['share']:.0f} % of the env's time"))
    return rows


def _eval_minutes(seeds: int, workers: int, engine: str) -> float:
    """Wall minutes of evaluating ``seeds`` whole random-bot suika games."""
    from ecsgoo.evaluate import evaluate

    t0 = time.perf_counter()
    evaluate("suika", ["random"], seeds, workers=workers, engine=engine)
    return (time.perf_counter() - t0) / 60


def _ray_start_stop() -> float:
    """Seconds to start a local 2-CPU Ray instance, run one empty task, and stop it."""
    import ray

    t0 = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.get(ray.remote(lambda: None).remote())
    ray.shutdown()
    return time.perf_counter() - t0


def bench_eval(seeds: int = 60) -> list[tuple[str, str, str]]:
    """eval throughput (episodes/min) on 1 and 2 workers and on Ray with 2, and Ray's start."""
    _eval_minutes(2, 1, "local")  # compile/load the kernels outside the timings
    one, two = _eval_minutes(seeds, 1, "local"), _eval_minutes(seeds, 2, "local")
    what = f"eval suika, random bot, {seeds} whole games"
    rows = [(f"{what}, 1 worker", f"{seeds / one:.1f} episodes/min", "the reference"),
            (f"{what}, 2 local workers", f"{seeds / two:.1f} episodes/min",
             f"{one / two:.2f}x 1 worker")]
    try:
        ray_two = _eval_minutes(seeds, 2, "ray")
        start = _ray_start_stop()
    except ImportError as exc:
        return [*rows, (f"{what}, --engine ray", "skipped", str(exc))]
    return [*rows, (f"{what}, --engine ray, 2 workers (a local instance)",
                    f"{seeds / ray_two:.1f} episodes/min",
                    f"{one / ray_two:.2f}x 1 worker; {60 * (ray_two - two):+.1f} s over 2 local "
                    f"workers; a local Ray's start + one task + stop alone {start:.1f} s")]


def bench_eval1000(seeds: int = 1000) -> list[tuple[str, str, str]]:
    """Evaluating 1,000 suika seeds (random bot, whole games) on 2 local workers."""
    _eval_minutes(2, 1, "local")
    minutes = _eval_minutes(seeds, 2, "local")
    return [(f"eval suika, random bot, {seeds:,} whole games, 2 local workers",
             f"{minutes:.1f} min ({seeds / minutes:.0f} episodes/min)", "")]
