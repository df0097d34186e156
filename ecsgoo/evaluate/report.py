"""Reports of an evaluation: per-seed CSV rows and a score histogram per bot."""

from __future__ import annotations

import csv
import os
import statistics
from collections.abc import Sequence
from typing import Any

from . import interval95

#: Columns every CSV row starts with; the games' own status fields follow.
COLUMNS = ("game", "level", "bot", "seed", "result", "score", "frames")


def write_csv(path: str | os.PathLike, runs: dict[str, list[dict[str, Any]]]) -> None:
    """One row per bot and seed: ``COLUMNS``, then the game's extras (as in its status)."""
    rows = [episode for episodes in runs.values() for episode in episodes]
    extras = [key for key in dict.fromkeys(k for row in rows for k in row) if key not in COLUMNS]
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, [*COLUMNS, *extras], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def plot(path: str | os.PathLike, runs: dict[str, list[dict[str, Any]]]) -> None:
    """A PNG: each bot's score histogram side by side (shared bins), its mean as a line
    and the mean's 95 % interval shaded. Needs matplotlib (``pip install 'ecsgoo[plot]'``)."""
    try:
        import matplotlib
    except ImportError:
        raise LookupError("--plot needs matplotlib: pip install 'ecsgoo[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    scores = {bot: [e["score"] for e in episodes] for bot, episodes in runs.items()}
    every = [s for bot_scores in scores.values() for s in bot_scores]
    bins = np.histogram_bin_edges(every, bins=min(20, max(len(set(every)), 1)))
    fig, axes = plt.subplots(1, len(scores), figsize=(4 * len(scores), 3.2), sharex=True,
                             sharey=True, squeeze=False)
    for ax, (bot, values) in zip(axes[0], scores.items(), strict=True):
        _panel(ax, bot, values, bins)
    first = next(iter(runs.values()))[0]
    fig.suptitle(f"{first['game']} level {first['level']}: {len(every)} episodes")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _panel(ax: Any, bot: str, values: Sequence[float], bins: Any) -> None:
    """One bot's histogram, mean line and shaded 95 % interval of the mean."""
    mean, half = statistics.fmean(values), interval95(values)
    ax.hist(values, bins=bins, color="#4c8bd6", edgecolor="white")
    ax.axvspan(mean - half, mean + half, color="#f0a030", alpha=0.3, label="95 % interval")
    ax.axvline(mean, color="#d05020", label=f"mean {mean:.0f}")
    ax.set_title(f"{bot}: {mean:.0f} ± {half:.0f}")
    ax.set_xlabel("score")
    ax.legend(fontsize=8)
