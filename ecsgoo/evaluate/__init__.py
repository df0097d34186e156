"""Evaluating bots: every seed of a game played by a bot, on a process pool or a Ray cluster.

``evaluate("suika", ["greedy", "random"], seeds=20)`` plays seeds 0..19 with
each bot (the same game for every bot on a seed: ``Game(level, seed)`` fixes
every random choice) and returns each episode's summary, in seed order. An
episode is exactly the headless run of ``ecsgoo play GAME --headless --bot
NAME --seed S --frames F``: it ends one second after the game is won or lost,
or after ``frames`` frames. The engines (``engines.py``) only decide where
episodes run, never what they give: the scores are the same on 1 or K local
workers and on Ray. ``report.py`` writes per-seed CSV rows and a histogram.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from .engines import ENGINES, Job

#: Most frames an episode runs unless told otherwise (5 min 33 s of game time).
FRAMES = 20_000


def play(game: str, level: int, bot: str, seed: int, frames: int = FRAMES) -> dict[str, Any]:
    """One episode: ``game`` (a name or a ``.py`` path) at ``level`` and ``seed``, ``bot``
    playing, for at most ``frames`` frames. Returns the run's summary plus bot and seed.
    """
    from ..app.games import find_game
    from ..app.headless import run_headless

    instance = find_game(game)(level=level, seed=seed)
    try:
        result = run_headless(instance, frames, bot, progress=False)
    finally:
        instance.world.close()
    return {"bot": bot, "seed": seed, **result}


def check(game: str, level: int, bots: Sequence[str], seeds: int, frames: int) -> None:
    """Refuse a bad evaluation before any episode runs (ValueError/LookupError in one line)."""
    from ..app.games import find_game

    cls = find_game(game)
    if not 1 <= level <= len(cls.levels):
        raise ValueError(f"{cls.name}: level must be 1..{len(cls.levels)}, got {level}")
    for bot in bots:
        if bot not in cls.bots:
            raise ValueError(f"{cls.name}: no bot named {bot!r} (bots: "
                             f"{', '.join(cls.bots) or 'none'})")
    if seeds < 1:
        raise ValueError(f"seeds must be >= 1, got {seeds}")
    if frames < 1:
        raise ValueError(f"frames must be >= 1, got {frames}")


def evaluate(game: str, bots: Sequence[str], seeds: int, level: int = 1, frames: int = FRAMES,
             workers: int = 1, engine: str = "local", address: str | None = None,
             progress: Callable[[], None] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Play seeds ``0 .. seeds - 1`` with each of ``bots``; ``{bot: [episode, ...]}``.

    ``engine`` is ``"local"`` (a process pool of ``workers``; 1 plays in this
    process) or ``"ray"`` (Ray tasks: a local Ray instance of ``workers`` CPUs
    started for the call, or the existing cluster at ``address``).
    ``progress()`` is called as each episode finishes, in whatever order.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    check(game, level, bots, seeds, frames)
    jobs: list[Job] = [(game, level, bot, seed, frames) for bot in bots for seed in range(seeds)]
    done = ENGINES[engine](play, jobs, workers, address, progress or (lambda: None))
    return {bot: done[k * seeds:(k + 1) * seeds] for k, bot in enumerate(bots)}


def summarize(episodes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The JSON line of one bot's episodes: game, level, bot, episodes, mean, std
    (population), min, max, won (episodes won) and the scores in seed order."""
    scores = [e["score"] for e in episodes]
    first = episodes[0]
    return {"game": first["game"], "level": first["level"], "bot": first["bot"],
            "episodes": len(scores), "mean": statistics.fmean(scores),
            "std": statistics.pstdev(scores), "min": min(scores), "max": max(scores),
            "won": sum(e["result"] == "won" for e in episodes), "scores": scores}


def interval95(scores: Sequence[float]) -> float:
    """Half-width of the 95 % interval of the mean (normal approximation): 1.96 s / √n."""
    if len(scores) < 2:
        return 0.0
    return 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))


__all__ = ["FRAMES", "check", "evaluate", "interval95", "play", "summarize"]
