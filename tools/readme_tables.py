"""Regenerate the README's evaluation tables from ``ecsgoo eval`` runs.

    python tools/readme_tables.py [--seeds 20] [--workers 2] [--table suika|bots] [--write]

Plays every bundled bot of suika, rope and goo (level 1) on seeds 0..N-1 with
``ecsgoo.evaluate.evaluate`` (what ``ecsgoo eval GAME --bot NAME --seeds N`` does:
through the game's environment, each episode capped at 20,000 frames), prints
the Markdown tables, and with ``--write`` puts them into README.md between the
``<!-- table:NAME -->`` and ``<!-- /table:NAME -->`` markers, draws
``docs/suika-eval.png`` (each suika bot's histogram) and keeps the runs' JSON
lines in ``docs/eval-tables.json`` (with the ecsgoo version and commit). ``--table``
plays and writes only that table (its games' lines in the JSON replaced, the others
kept): ``bots`` takes a minute or two, ``suika`` most of an hour on 2 cores (lookahead's
games that reach the cap).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ARCADE_HEADLESS", "1")

from ecsgoo.evaluate import FRAMES, evaluate, summarize  # noqa: E402
from ecsgoo.evaluate.report import plot  # noqa: E402

#: The bots each game is evaluated with, in the tables' order.
BOTS = {"suika": ("greedy", "random", "lookahead"), "rope": ("cutter", "random"),
        "goo": ("builder", "random")}
#: What the suika table says of each bot.
SUIKA_NOTES = {"greedy": "`greedy` (the default `--bot`)", "random": "`random`",
               "lookahead": "`lookahead` (tries greedy's 5 best drops on `World.clone()`, "
                            "90 frames each)"}


def suika_table(runs: dict[str, list[dict[str, Any]]], seeds: int) -> str:
    """The suika table: per bot its mean, std, 95 % interval, min, max and watermelons."""
    lines = [f"| bot | average score over {seeds} seeds | std | 95 % interval of the mean | "
             "min | max | games with a watermelon | still going at the cap |",
             "|---|---|---|---|---|---|---|---|"]
    for bot, episodes in runs.items():
        s = summarize(episodes)
        melons = sum(e.get("watermelons", 0) > 0 for e in episodes)
        capped = sum(e["result"] == "running" for e in episodes)
        lines.append(f"| {SUIKA_NOTES[bot]} | **{s['mean']:.0f}** | {s['std']:.0f} | "
                     f"± {s['ci95']:.0f} | {s['min']} | {s['max']} | {melons} | {capped} |")
    return "\n".join(lines)


def bots_table(results: dict[str, dict[str, list[dict[str, Any]]]], seeds: int) -> str:
    """Rope's and goo's bots on level 1: mean score, its interval, games won."""
    lines = [f"| game (level 1) | bot | average score over {seeds} seeds | 95 % interval | "
             "won |", "|---|---|---|---|---|"]
    for game, runs in results.items():
        for bot, episodes in runs.items():
            s = summarize(episodes)
            lines.append(f"| {game} | `{bot}` | **{s['mean']:.0f}** | ± {s['ci95']:.0f} | "
                         f"{s['won']} of {s['episodes']} |")
    return "\n".join(lines)


def replace(text: str, name: str, table: str) -> str:
    """``text`` with the block between the markers of ``name`` replaced by ``table``."""
    pattern = re.compile(rf"(<!-- table:{name} -->\n).*?(\n<!-- /table:{name} -->)", re.S)
    if not pattern.search(text):
        raise LookupError(f"README.md has no <!-- table:{name} --> … <!-- /table:{name} --> "
                          "markers")
    return pattern.sub(lambda m: m.group(1) + table + m.group(2), text)


#: The games each README table is played from.
TABLE_GAMES = {"suika": ("suika",), "bots": ("rope", "goo")}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--table", action="append", choices=list(TABLE_GAMES),
                        help="only this table (again for more; default: every one)")
    parser.add_argument("--write", action="store_true",
                        help="write README.md, docs/suika-eval.png and docs/eval-tables.json")
    args = parser.parse_args(argv)
    chosen = args.table or list(TABLE_GAMES)
    games = [g for name in chosen for g in TABLE_GAMES[name]]
    results = {game: evaluate(game, BOTS[game], args.seeds, frames=FRAMES,
                              workers=args.workers) for game in games}
    tables = {}
    if "suika" in chosen:
        tables["suika"] = suika_table(results["suika"], args.seeds)
    if "bots" in chosen:
        tables["bots"] = bots_table({g: results[g] for g in ("rope", "goo")}, args.seeds)
    for name, table in tables.items():
        print(f"<!-- table:{name} -->\n{table}\n")
    if args.write:
        readme = ROOT / "README.md"
        text = readme.read_text(encoding="utf-8")
        for name, table in tables.items():
            text = replace(text, name, table)
        readme.write_text(text, encoding="utf-8")
        if "suika" in results:
            plot(ROOT / "docs" / "suika-eval.png", results["suika"])
        kept = ROOT / "docs" / "eval-tables.json"
        old = [json.loads(line) for line in kept.read_text(encoding="utf-8").splitlines()
               if line.strip()] if kept.exists() else []
        lines = [line for line in old if line["game"] not in results]  # the tables not run
        lines += [summarize(e) for runs in results.values() for e in runs.values()]
        lines.sort(key=lambda line: list(BOTS).index(line["game"]))
        kept.write_text("\n".join(json.dumps(line) for line in lines) + "\n",
                        encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
