"""Evaluating bots over seeds: the same scores on every engine, the summary, the reports."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from ecsgoo.evaluate import evaluate, interval95, play, summarize
from ecsgoo.evaluate.report import plot, write_csv

#: Short suika games (20 drops of the random bot): cheap, and their scores differ by seed.
SHORT = {"game": "suika", "bots": ["random"], "seeds": 3, "frames": 600}


def test_an_episode_is_the_headless_run_of_play():
    from ecsgoo.app.headless import run_headless
    from games.suika import Suika

    episode = play("suika", 1, "random", 2, 600)
    alone = run_headless(Suika(seed=2), 600, "random", progress=False)
    assert episode == {"bot": "random", "seed": 2, **alone}


def test_one_and_two_workers_give_the_same_episodes():
    one = evaluate(**SHORT, workers=1)
    two = evaluate(**SHORT, workers=2)
    assert one == two
    scores = [e["score"] for e in one["random"]]
    assert [e["seed"] for e in one["random"]] == [0, 1, 2] and len(set(scores)) > 1


def test_ray_gives_the_same_episodes():
    pytest.importorskip("ray")
    assert evaluate(**SHORT, workers=2, engine="ray") == evaluate(**SHORT, workers=1)


def test_several_bots_play_the_same_seeds():
    runs = evaluate("suika", ["greedy", "random"], seeds=2, frames=60)
    assert list(runs) == ["greedy", "random"]
    assert [e["seed"] for e in runs["greedy"]] == [e["seed"] for e in runs["random"]] == [0, 1]


def test_bad_evaluations_are_refused_before_any_episode():
    with pytest.raises(ValueError, match="no bot named 'nope'"):
        evaluate("suika", ["nope"], seeds=1)
    with pytest.raises(ValueError, match="level must be 1..2"):
        evaluate("suika", ["random"], seeds=1, level=7)
    with pytest.raises(ValueError, match="seeds must be >= 1"):
        evaluate("suika", ["random"], seeds=0)
    with pytest.raises(ValueError, match="engine must be one of local, ray"):
        evaluate("suika", ["random"], seeds=1, engine="dask")
    with pytest.raises(ValueError, match="--address is for --engine ray"):
        evaluate("suika", ["random"], seeds=1, address="auto")


def _episodes(scores, bot="b"):
    return [{"game": "g", "level": 1, "bot": bot, "seed": k, "frames": 10,
             "result": "won" if s > 2 else "lost", "score": s, "extra": k}
            for k, s in enumerate(scores)]


def test_summary_line():
    line = summarize(_episodes([1, 3, 5]))
    assert line == {"game": "g", "level": 1, "bot": "b", "episodes": 3, "mean": 3.0,
                    "std": pytest.approx(np.std([1, 3, 5])), "min": 1, "max": 5, "won": 2,
                    "scores": [1, 3, 5]}
    assert interval95([1, 3, 5]) == pytest.approx(1.96 * 2 / np.sqrt(3))
    assert interval95([4]) == 0.0


def test_csv_rows_and_histogram(tmp_path):
    from PIL import Image

    runs = {"a": _episodes([1, 3, 5], "a"), "b": _episodes([2, 2, 9], "b")}
    write_csv(tmp_path / "runs.csv", runs)
    with open(tmp_path / "runs.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["bot"], r["seed"], r["score"]) for r in rows][:2] == [("a", "0", "1"),
                                                                     ("a", "1", "3")]
    assert list(rows[0]) == ["game", "level", "bot", "seed", "result", "score", "frames",
                             "extra"]
    pytest.importorskip("matplotlib")
    plot(tmp_path / "runs.png", runs)
    image = np.asarray(Image.open(tmp_path / "runs.png").convert("RGB"), float)
    assert image.shape[1] > image.shape[0] and image.std() > 10
