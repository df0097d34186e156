"""Evaluating bots and policies: every seed played, on a process pool or a Ray cluster.

``evaluate("suika", ["greedy", "random"], seeds=20)`` plays seeds 0..19 with
each bot; ``evaluate("ecsgoo/Rope-v0", "mymodule:act", range(100, 200))`` plays
seeds 100..199 with any Gymnasium policy, ``act(observation) -> action``. Every
player gets the same games: the seed fixes every random choice. It returns each
episode's summary, in seed order.

A game that is a Gymnasium environment (suika, rope, goo; ``ecsgoo.envs``) is
played through that environment, made as ``gymnasium.make(ENV_ID, level=L,
max_frames=F)``: its bots are ``ecsgoo.envs.bot_policy``, so a bot scores here
exactly what it scores through the environment on the same seed (one code
path: the same actions, the same step and frame caps). Other games (jelly, a
``.py`` game) play the headless run of ``ecsgoo play GAME --headless --bot NAME
--seed S --frames F`` (it ends one second after the game is won or lost).
Neither reads nor writes the player's files (progress, best scores).

The engines (``engines.py``) only decide where episodes run, never what they
give: the scores are the same on 1 or K local workers and on Ray.
``summarize`` makes the JSON line (sample std, Student-t 95 % interval, the
seeds, the caps, the ecsgoo version and commit); ``report.py`` writes per-seed
CSV rows and a histogram.
"""

from __future__ import annotations

import importlib
import math
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..errors import did_you_mean
from ..game import EPISODE_FRAMES as FRAMES  # the envs read it there too: no import loop
from .engines import ENGINES, Job, worker_cap

#: Environment ids of the bundled games that are environments (``ecsgoo.envs.ENVS``).
GAME_ENVS = {"suika": "ecsgoo/Suika-v0", "rope": "ecsgoo/Rope-v0", "goo": "ecsgoo/Goo-v0"}

#: A player: a bot's name, a policy ``"module:function"``, or a policy callable.
Player = str | Callable[[Any], Any]


def parse_seeds(text: str) -> list[int]:
    """``--seeds``: ``N`` is seeds 0..N-1; ``A-B`` is A..B (both included); a comma list
    mixes ranges and single seeds (``3,5,10-12``; a single seed alone: ``7-7`` or ``7,``).
    """
    text = text.strip()
    if text.isdigit():
        return list(range(int(text)))
    seeds: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"seeds: {part!r} is not a seed or a range A-B of seeds "
                             f"(in {text!r})")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"seeds: range {part!r} ends before it starts")
        seeds.extend(range(first, last + 1))
    if not seeds:
        raise ValueError(f"seeds: {text!r} names no seed")
    return seeds


def _seed_list(seeds: int | Iterable[int]) -> list[int]:
    if isinstance(seeds, int):
        if seeds < 1:
            raise ValueError(f"seeds must be >= 1, got {seeds}")
        return list(range(seeds))
    out = [int(s) for s in seeds]
    if not out:
        raise ValueError("seeds: no seed given")
    if min(out) < 0:
        raise ValueError(f"seeds must be >= 0, got {min(out)}")
    if len(set(out)) != len(out):
        raise ValueError("seeds: a seed is given twice")
    return out


def env_of(target: str) -> str | None:
    """The environment id ``target`` (a game name or an environment id) is played through,
    or ``None`` for a game that is not an environment."""
    if target in GAME_ENVS.values():
        return target
    return GAME_ENVS.get(target)


def _game_class(target: str) -> type:
    from ..app.games import find_game

    env_id = env_of(target)
    if env_id is not None:
        return find_game(next(g for g, e in GAME_ENVS.items() if e == env_id))
    return find_game(target)


def player_name(player: Player) -> str:
    """How a player is named in the results: the bot's name or ``"module:function"``."""
    if isinstance(player, str):
        return player
    kind = player if hasattr(player, "__qualname__") else type(player)
    return f"{kind.__module__}:{kind.__qualname__}"


def is_policy(player: Player) -> bool:
    """Whether ``player`` is a policy (``"module:function"`` or a callable), not a bot name."""
    return callable(player) or ":" in player


def load_policy(spec: str) -> Callable[[Any], Any]:
    """The function ``spec`` (``"module:function"``, importable from the current folder
    too) names; LookupError in one line if it cannot be found."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise LookupError(f"policy {spec!r}: give it as module:function")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise LookupError(f"policy {spec!r}: cannot import {module_name} ({exc})") from None
    found: Any = module
    for part in attr.split("."):
        found = getattr(found, part, None)
    if not callable(found):
        raise LookupError(f"policy {spec!r}: {module_name} has no function {attr}")
    return found


def play(game: str, level: int, bot: str, seed: int, frames: int = FRAMES) -> dict[str, Any]:
    """One headless episode: ``game`` (a name or a ``.py`` path) at ``level`` and ``seed``,
    ``bot`` playing, for at most ``frames`` frames. Returns the run's summary plus bot and
    seed. (Games that are environments are evaluated through them: ``play_env``.)
    """
    from ..app.games import find_game
    from ..app.headless import run_headless

    instance = find_game(game)(level=level, seed=seed)
    try:
        result = run_headless(instance, frames, bot, progress=False)
    finally:
        instance.world.close()
    return {"bot": bot, "seed": seed, **result}


def play_env(env_id: str, level: int, player: Player, seed: int,
             frames: int = FRAMES) -> dict[str, Any]:
    """One episode of environment ``env_id`` (``gymnasium.make(env_id, level=level,
    max_frames=frames)``) from ``reset(seed=seed)``, ``player`` (a bundled bot's name,
    ``"module:function"`` or a callable policy) choosing each action. Returns the game's
    summary (game, level, frames, result, score, extras), the player, seed and steps."""
    import gymnasium as gym

    import ecsgoo.envs as envs

    env = gym.make(env_id, level=level, max_frames=frames)
    try:
        if is_policy(player):
            policy = load_policy(player) if isinstance(player, str) else player
            who = {"policy": player_name(player)}
        else:
            policy, who = envs.bot_policy(env, player), {"bot": player}
        observation, info = env.reset(seed=seed)
        steps, done = 0, False
        while not done:
            observation, _, terminated, truncated, info = env.step(policy(observation))
            steps += 1
            done = terminated or truncated
        game = env.unwrapped.game
        status = {k: v for k, v in info.items() if k not in ("seed", "frame")}
        return {**who, "seed": seed, "game": game.name, "env": env_id, "level": level,
                "frames": info["frame"], "steps": steps, **status}
    finally:
        env.close()


def _episode(target: str, level: int, player: Player, seed: int, frames: int) -> dict[str, Any]:
    """One job of an engine: through the environment if ``target`` has one, else headless."""
    env_id = env_of(target)
    if env_id is not None:
        return play_env(env_id, level, player, seed, frames)
    return play(target, level, player, seed, frames)  # type: ignore[arg-type]


def check(target: str, level: int, players: Sequence[Player], seeds: int | Iterable[int],
          frames: int) -> list[int]:
    """Refuse a bad evaluation before any episode runs (ValueError/LookupError in one line);
    the seeds, as a list."""
    cls = _game_class(target)
    if not 1 <= level <= len(cls.levels):
        raise ValueError(f"{cls.name}: level must be 1..{len(cls.levels)}, got {level}")
    if not players:
        raise ValueError("nothing to evaluate: give a bot or a policy")
    env_id = env_of(target)
    for player in players:
        if is_policy(player):
            if env_id is None:
                raise ValueError(f"{cls.name} is not an environment: a policy needs one of "
                                 f"{', '.join(GAME_ENVS)} (or their ids); use --bot")
            if isinstance(player, str):
                load_policy(player)
        elif player not in cls.bots:
            raise ValueError(f"{cls.name}: no bot named {player!r}"
                             f"{did_you_mean(player, cls.bots)} (bots: "
                             f"{', '.join(cls.bots) or 'none'})")
    if env_id is not None:
        try:
            import gymnasium  # noqa: F401
        except ImportError:
            raise LookupError(f"{cls.name} is evaluated through its environment {env_id}, "
                              "which needs Gymnasium: pip install 'ecsgoo[rl]'") from None
    if frames < 1:
        raise ValueError(f"frames must be >= 1, got {frames}")
    return _seed_list(seeds)


class LostEpisodes(RuntimeError):
    """Some episodes were lost (their worker process died, again when played again).

    ``runs`` holds the episodes that finished (``{player: [episode, ...]}``, seed
    order), ``lost`` the ``(player, seed)`` of the others.
    """

    def __init__(self, runs: dict[str, list[dict[str, Any]]], lost: list[tuple[str, int]]):
        total = sum(map(len, runs.values())) + len(lost)
        seeds = ", ".join(f"{p} seed {s}" for p, s in lost[:5]) + (" …" if len(lost) > 5 else "")
        super().__init__(f"{len(lost)} of {total} episodes lost: their worker process died, "
                         f"and again when played again ({seeds}); the others are kept")
        self.runs, self.lost = runs, lost


def evaluate(game: str, players: Player | Sequence[Player], seeds: int | Iterable[int],
             level: int = 1, frames: int = FRAMES, workers: int = 1, engine: str = "local",
             address: str | None = None,
             progress: Callable[[], None] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Play ``seeds`` (a count N: 0..N-1, or the seeds themselves) with each of ``players``;
    ``{player name: [episode, ...]}`` in seed order.

    ``game`` is a game name, an environment id (``"ecsgoo/Rope-v0"``) or a game's
    ``.py`` path; a player is a bot's name, a policy ``"module:function"`` or a
    callable ``policy(observation) -> action`` (one player may be given alone).
    ``frames`` caps each episode. ``engine`` is ``"local"`` (a process pool of
    ``workers``; 1 plays in this process) or ``"ray"`` (Ray tasks: a local Ray
    instance of ``workers`` CPUs started for the call, or the cluster at
    ``address``). ``workers`` is capped at what the machine holds (``worker_cap``: cores,
    memory; said on stderr). ``progress()`` is called as each episode finishes. If a
    worker process dies its episodes are played again; any still lost raise
    ``LostEpisodes``, which holds those that finished.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    group = [players] if isinstance(players, str) or callable(players) else list(players)
    seed_list = check(game, level, group, seeds, frames)
    jobs: list[Job] = [(game, level, p, s, frames) for p in group for s in seed_list]
    if address is None:  # a cluster's size is its own
        workers, why = worker_cap(workers, len(jobs))
        if why:
            print(f"ecsgoo eval: {why}", file=sys.stderr)
    done = ENGINES[engine](_episode, jobs, workers, address, progress or (lambda: None))
    n = len(seed_list)
    runs = {player_name(p): [e for e in done[k * n:(k + 1) * n] if e is not None]
            for k, p in enumerate(group)}
    lost = [(player_name(job[2]), job[3]) for job, e in zip(jobs, done, strict=True)
            if e is None]
    if lost:
        raise LostEpisodes(runs, lost)
    return runs


def summarize(episodes: Sequence[dict[str, Any]], frames: int = FRAMES) -> dict[str, Any]:
    """The JSON line of one player's episodes: game, level, bot or policy, episodes, mean,
    std (sample, n − 1), ci95 (half-width of the Student-t 95 % interval of the mean),
    min, max, won (episodes won), the scores and seeds in seed order, the frame cap
    ``frames`` (and the environment and its step cap when played through one), the
    ecsgoo version and the commit of its source (``null`` outside a git checkout)."""
    scores = [e["score"] for e in episodes]
    first = episodes[0]
    who = {"policy": first["policy"]} if "policy" in first else {"bot": first["bot"]}
    line: dict[str, Any] = {"game": first["game"], "level": first["level"], **who,
                            "episodes": len(scores), "mean": statistics.fmean(scores),
                            "std": statistics.stdev(scores) if len(scores) > 1 else 0.0,
                            "ci95": interval95(scores), "min": min(scores), "max": max(scores),
                            "won": sum(e["result"] == "won" for e in episodes),
                            "scores": scores, "seeds": [e["seed"] for e in episodes],
                            "frames_cap": frames}
    if "env" in first:
        line["env"] = first["env"]
        line["steps_cap"] = _steps_cap(first["env"])
    return {**line, "version": version(), "commit": commit()}


def _steps_cap(env_id: str) -> int | None:
    import gymnasium as gym

    import ecsgoo.envs  # noqa: F401

    return gym.spec(env_id).max_episode_steps


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom
    (bisection on the exact CDF; 0.975 and df 3 give 3.1824)."""
    if df < 1:
        raise ValueError(f"df must be >= 1, got {df}")
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if _t_cdf(mid, df) < p else (low, mid)
    return (low + high) / 2


def _t_cdf(t: float, df: int) -> float:
    """P(T <= t) for t >= 0: 1 − I_x(df/2, 1/2) / 2 with x = df / (df + t²)."""
    return 1.0 - 0.5 * _beta_regularized(df / (df + t * t), df / 2, 0.5)


def _beta_regularized(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function (Lentz's continued fraction)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _beta_regularized(1.0 - x, b, a)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 500):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * f / a


def interval95(scores: Sequence[float]) -> float:
    """Half-width of the 95 % interval of the mean: t(0.975, n − 1) · s / √n (s the sample
    std); 0 for fewer than two scores."""
    if len(scores) < 2:
        return 0.0
    n = len(scores)
    return t_quantile(0.975, n - 1) * statistics.stdev(scores) / math.sqrt(n)


def version() -> str:
    """ecsgoo's version (the installed distribution's; ``"unknown"`` if not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("ecsgoo")
    except PackageNotFoundError:
        return "unknown"


def commit() -> str | None:
    """The git commit of the ecsgoo source this runs from, with ``+dirty`` if it has
    uncommitted changes; ``None`` outside a git checkout."""
    root = Path(__file__).resolve().parent.parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


__all__ = ["FRAMES", "GAME_ENVS", "LostEpisodes", "check", "commit", "env_of", "evaluate",
           "interval95", "load_policy", "parse_seeds", "play", "play_env", "summarize",
           "t_quantile", "version"]
