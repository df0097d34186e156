"""Steps per CPU-second of the environments beside Gymnasium's own (``ecsgoo bench env_speed``).

Each environment plays the same fixed work every round: random actions (the
action space seeded like the episode), episodes of seeds 0, 1, … until
``SPEED_STEPS[id]`` steps have run. ``SPEED_ROUNDS`` rounds go round all the
environments in turn, and each reports its best round (CPU time of this process,
``time.process_time``: another process's load does not count, but a busy shared
machine still slows every figure, so the ratio to CartPole is given too). Then,
for the ecsgoo environments, where a step's time goes (physics, the game's own
stages, the environment layer) and the CPU ms of an ``rgb_array`` frame and of an
``obs="pixels"`` picture; then each stage's µs a frame (``--stages``: that table
alone). LunarLander needs ``box2d`` and pygame (gymnasium's
box2d package imports its car racing module, which imports pygame).

The bar (issue 27): Suika ≥ 400, Rope ≥ 3,000, Goo ≥ 100 steps per CPU-second.
"""

from __future__ import annotations

import os
import time
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

#: The environments measured, Gymnasium's own first, and the steps a round plays of each.
SPEED_STEPS = {"CartPole-v1": 100_000, "LunarLander-v3": 30_000, "ecsgoo/Suika-v0": 300,
               "ecsgoo/Rope-v0": 1_500, "ecsgoo/Goo-v0": 60}
#: Rounds, interleaved: each environment's best counts.
SPEED_ROUNDS = 3
#: Steps each measured environment plays before its clock starts (``cpu_rate``).
WARM_STEPS = 10
#: Steps per CPU-second issue 27 asks of each ecsgoo environment.
SPEED_BARS = {"ecsgoo/Suika-v0": 400, "ecsgoo/Rope-v0": 3_000, "ecsgoo/Goo-v0": 100}


def _make(env_id: str, **kwargs: Any) -> Any:
    import gymnasium as gym

    import ecsgoo.envs  # noqa: F401  (registers the ids)

    return gym.make(env_id, **kwargs)


def _episodes(env: Any, steps: int, on_step: Any = None) -> int:
    """Play random seeded episodes (seeds 0, 1, …) until ``steps`` steps ran; the episodes
    started. ``on_step(env)`` runs before each step."""
    done, episodes = True, 0
    for _ in range(steps):
        if done:
            env.reset(seed=episodes)
            env.action_space.seed(episodes)
            episodes += 1
        if on_step is not None:
            on_step(env)
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        done = terminated or truncated
    return episodes


def cpu_rate(env_id: str, steps: int) -> tuple[float, int]:
    """Steps per CPU-second of ``steps`` random-action steps (see ``_episodes``) and the
    episodes they took, after ``WARM_STEPS`` steps of their own (what compiles or loads
    from the cache, once: a kernel first used a few steps in is loaded then)."""
    env = _make(env_id)
    _episodes(env, WARM_STEPS)
    start = time.process_time()
    episodes = _episodes(env, steps)
    spent = time.process_time() - start
    env.close()
    return steps / spent, episodes


def time_split(env_id: str, steps: int) -> dict[str, float]:
    """Of a step's time (wall clock, over ``steps`` steps, from ``stage_profile``): the
    shares (0–1) in the physics (``World.step`` but the game's own stages), in the game's
    stages (from ``games.``) and outside ``World.step`` (the environment layer, the
    game's view updates, resets)."""
    frame, parts = stage_profile(env_id, steps)
    env = _make(env_id)
    game = {s.name for s in env.unwrapped.game.world.pipeline
            if type(s).__module__.startswith("games.")}
    env.close()
    rules = sum(t for name, t in parts.items() if name in game)
    outside = parts["outside World.step"]
    return {"physics": (frame - outside - rules) / frame, "game": rules / frame,
            "env": outside / frame}


def stage_profile(env_id: str, steps: int) -> tuple[float, dict[str, float]]:
    """Where a frame's time goes, for whoever makes the physics step cheaper: wall µs per
    frame of each pipeline stage (a solver stage summed over its substeps), of
    ``World.begin_frame`` and ``World.end_frame`` (contact events, sensors, sleeping), and
    of everything outside ``World.step`` (``"outside World.step"``), over ``steps`` random
    steps after the same steps once (compiles, caches). Returns the µs of a whole frame
    (the step's time over its frames) and the parts."""
    from ecsgoo.world import World

    parts: dict[str, float] = {}
    frames = [0]
    plain, begin, end = World.step, World.begin_frame, World.end_frame

    def timed(world: World, n: int = 1) -> None:
        world.profile = parts
        t0 = time.perf_counter()
        try:
            plain(world, n)
        finally:
            parts["World.step"] = parts.get("World.step", 0.0) + time.perf_counter() - t0
            frames[0] += n

    def around(method: Any, name: str) -> Any:
        def run(world: World) -> None:
            t0 = time.perf_counter()
            try:
                method(world)
            finally:
                parts[name] = parts.get(name, 0.0) + time.perf_counter() - t0
        return run

    env = _make(env_id)
    _episodes(env, steps)
    World.step = timed  # type: ignore[method-assign]
    World.begin_frame = around(begin, "begin_frame")  # type: ignore[method-assign]
    World.end_frame = around(end, "end_frame")  # type: ignore[method-assign]
    try:
        t0 = time.perf_counter()
        _episodes(env, steps)
        total = time.perf_counter() - t0
    finally:
        World.step, World.begin_frame, World.end_frame = plain, begin, end  # type: ignore
        env.close()
    n = max(frames[0], 1)
    parts["outside World.step"] = total - parts.pop("World.step", 0.0)
    return 1e6 * total / n, {k: 1e6 * v / n for k, v in sorted(parts.items(),
                                                               key=lambda kv: -kv[1])}


def _frame_ms(env_id: str, frames: int = 20) -> float:
    """CPU ms of one ``render()`` of an ``rgb_array`` environment (after a first frame),
    a step between frames (only the ``render`` calls are timed)."""
    env = _make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    env.render()
    spent = 0.0
    for _ in range(frames):
        env.step(env.action_space.sample())
        start = time.process_time()
        env.render()
        spent += time.process_time() - start
    env.close()
    return 1000 * spent / frames


def _pixels_ms(env_id: str, frames: int = 200) -> float:
    """CPU ms of one ``obs="pixels"`` observation (the numpy picture), a few steps in."""
    env = _make(env_id, obs="pixels")
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(5):
        env.step(env.action_space.sample())
    start = time.process_time()
    for _ in range(frames):
        env.unwrapped._observation()
    env.close()
    return 1000 * (time.process_time() - start) / frames


def _pictures(env_id: str) -> str:
    """What an ``rgb_array`` frame (and an ecsgoo ``obs="pixels"`` picture) costs."""
    try:
        out = f"an `rgb_array` frame {_frame_ms(env_id):.1f} CPU-ms"
    except Exception as exc:  # CartPole's and LunarLander's pictures need pygame
        out = f"`rgb_array` not measured ({type(exc).__name__})"
    if env_id.startswith("ecsgoo/"):
        out += f"; `obs=\"pixels\"` {_pixels_ms(env_id):.2f} CPU-ms"
    return out


def _rounds(rounds: int) -> dict[str, list[tuple[float, int]] | Exception]:
    """Each environment's ``(rate, episodes)`` per round, rounds interleaved (or why not)."""
    runs: dict[str, list[tuple[float, int]] | Exception] = {k: [] for k in SPEED_STEPS}
    for _ in range(rounds):
        for env_id, steps in SPEED_STEPS.items():
            kept = runs[env_id]
            if isinstance(kept, list):
                try:
                    kept.append(cpu_rate(env_id, steps))
                except Exception as exc:  # LunarLander without box2d or pygame
                    runs[env_id] = exc
    return runs


def bench_env_speed(rounds: int = SPEED_ROUNDS) -> list[tuple[str, str, str]]:
    """Steps per CPU-second of each environment, Gymnasium's beside ecsgoo's, one run."""
    runs, rows = _rounds(rounds), []
    cartpole = runs["CartPole-v1"]
    reference = max(r for r, _ in cartpole) if isinstance(cartpole, list) else None
    for env_id, steps in SPEED_STEPS.items():
        kept = runs[env_id]
        if isinstance(kept, Exception):
            rows.append((f"`{env_id}`", "skipped", f"{type(kept).__name__}: {kept}"))
            continue
        best = max(r for r, _ in kept)
        notes = [f"{steps:,} steps ({kept[0][1]} episodes) a round, rounds "
                 + " / ".join(f"{r:,.0f}" for r, _ in kept)]
        if reference:
            notes.append(f"1/{reference / best:,.0f} of CartPole")
        if env_id in SPEED_BARS:
            bar = SPEED_BARS[env_id]
            notes.append(f"bar {bar:,}: {'met' if best >= bar else f'{best / bar:.0%} of it'}")
            split = time_split(env_id, steps // 2)
            notes.append(f"time: physics {split['physics']:.0%}, the game's stages "
                         f"{split['game']:.0%}, outside World.step {split['env']:.0%}")
        notes.append(_pictures(env_id))
        rows.append((f"`{env_id}`", f"**{best:,.0f}**", "; ".join(notes)))
    return rows


def stage_rows(steps: dict[str, int] | None = None) -> list[tuple[str, str, str]]:
    """``stage_profile`` of each ecsgoo environment as table rows (µs a frame, shares)."""
    rows = []
    for env_id, count in (steps or {k: v for k, v in SPEED_STEPS.items()
                                    if k in SPEED_BARS}).items():
        frame, parts = stage_profile(env_id, count)
        shown = ", ".join(f"{k} {v:.0f} ({v / frame:.0%})" for k, v in parts.items())
        rows.append((f"`{env_id}`", f"**{frame:.0f}**", shown))
    return rows


if __name__ == "__main__":
    import sys

    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        sys.exit(0)
    if "--stages" not in sys.argv[1:]:
        print("| environment | steps per CPU-second (best round) | same run |\n|---|---|---|")
        for row in bench_env_speed():
            print("| " + " | ".join(row) + " |", flush=True)
    print("\n| environment | µs a frame (wall) | stages and frame parts, µs a frame (share) |\n"
          "|---|---|---|")
    for row in stage_rows():
        print("| " + " | ".join(row) + " |", flush=True)
