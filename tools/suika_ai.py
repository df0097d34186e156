"""Suika's AI players compared: average final score over many seeds.

Each game is played by one bot from the start until the box overflows (or
``--frames`` frames, 60 per second of play), the same fruit sequence for every
bot on a given seed. Games run in parallel on a ``ProcessPoolExecutor``.

    python tools/suika_ai.py                       # greedy, random, lookahead × 20 seeds
    python tools/suika_ai.py --bots greedy random --seeds 8
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor


def play(bot: str, seed: int, frames: int) -> dict:
    """One game of ``bot`` on ``seed``: its status, frames played and wall time."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    from games.suika import Suika

    t0 = time.perf_counter()
    game = Suika(seed=seed)
    frame = 0
    while frame < frames and game.status().result == "running":
        game.bot_act(bot)
        game.step()
        frame += 1
    game.world.check()
    return {"bot": bot, "seed": seed, "frames": frame, "seconds": time.perf_counter() - t0,
            **game.status().as_dict()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", nargs="+", default=["greedy", "random", "lookahead"])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(bot, seed) for bot in args.bots for seed in range(args.seeds)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play, bot, seed, args.frames) for bot, seed in jobs]
        games = [f.result() for f in futures]
    print(f"suika AI: {args.seeds} seeds, up to {args.frames} frames each, "
          f"{args.workers} workers, {time.perf_counter() - t0:.0f} s")
    print(f"{'bot':<10} {'avg score':>9} {'stdev':>6} {'min':>5} {'max':>5} {'drops':>6} "
          f"{'won':>4} {'ended':>5} {'s/game':>6}")
    for bot in args.bots:
        mine = [g for g in games if g["bot"] == bot]
        scores = [g["score"] for g in mine]
        print(f"{bot:<10} {statistics.mean(scores):>9.1f} {statistics.pstdev(scores):>6.0f} "
              f"{min(scores):>5} {max(scores):>5} "
              f"{statistics.mean(g['drops'] for g in mine):>6.0f} "
              f"{sum(g['result'] == 'won' for g in mine):>4} "
              f"{sum(g['result'] != 'running' for g in mine):>5} "
              f"{statistics.mean(g['seconds'] for g in mine):>6.1f}")


if __name__ == "__main__":
    main()
