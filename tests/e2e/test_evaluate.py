"""Evaluating bots and policies over seeds: the same scores on every engine and through the
environments, seeds, the summary, the command line, the reports, no user files."""

from __future__ import annotations

import csv
import json
import statistics

import numpy as np
import pytest

from ecsgoo.evaluate import (
    FRAMES,
    GAME_ENVS,
    evaluate,
    interval95,
    parse_seeds,
    play,
    summarize,
    t_quantile,
)
from ecsgoo.evaluate.report import plot, write_csv

#: Short suika games (20 drops of the random bot): cheap, and their scores differ by seed.
SHORT = {"game": "suika", "players": ["random"], "seeds": 3, "frames": 600}


def test_a_game_without_an_environment_plays_the_headless_run_of_play():
    from ecsgoo.app.headless import run_headless
    from games.jelly import JellyGame

    bot = JellyGame.bots[0]
    episode = play("jelly", 1, bot, 2, 120)
    alone = run_headless(JellyGame(seed=2), 120, bot, progress=False)
    assert episode == {"bot": bot, "seed": 2, **alone}
    assert evaluate("jelly", bot, [2], frames=120)[bot] == [episode]


def test_the_environments_are_the_ones_ecsgoo_envs_registers():
    envs = pytest.importorskip("ecsgoo.envs")
    assert sorted(GAME_ENVS.values()) == sorted(envs.ENVS)
    for game, env_id in GAME_ENVS.items():
        assert envs.ENVS[env_id][0].game_class.name == game
        assert envs.ENVS[env_id][0]().max_frames == FRAMES


#: Every bundled bot of every environment, with a frame cap short enough for a test.
BOTS = [("rope", "cutter", 20_000), ("rope", "random", 20_000), ("goo", "builder", 1200),
        ("goo", "random", 600), ("suika", "greedy", 450), ("suika", "random", 450),
        ("suika", "lookahead", 120)]


@pytest.mark.parametrize(("game", "bot", "frames"), BOTS)
def test_a_bot_scores_through_the_environment_what_it_scores_in_eval(game, bot, frames,
                                                                      monkeypatch):
    """Issue 27's bar, seeds 0-9 and every bundled bot, each episode played once: eval plays
    it in the environment a user makes (``gym.make(env_id, max_frames=frames)``, level 1)
    while a wrapper sums its rewards as ``envs.episode_return`` does, and eval's score must
    be that sum; ``episode_return`` itself plays seed 0 again the user's way."""
    gym = pytest.importorskip("gymnasium")
    import ecsgoo.envs as envs

    class Summed(gym.Wrapper):
        summed, episodes = 0.0, 0

        def reset(self, **kwargs):
            self.summed, self.episodes = 0.0, self.episodes + 1
            return super().reset(**kwargs)

        def step(self, action):
            out = super().step(action)
            self.summed += float(out[1])
            return out

    made: list[tuple[tuple, dict, Summed]] = []
    make = gym.make

    def make_and_sum(*args, **kwargs):
        made.append((args, kwargs, Summed(make(*args, **kwargs))))
        return made[-1][2]

    seeds = list(range(10))
    monkeypatch.setattr(gym, "make", make_and_sum)
    runs = evaluate(game, bot, seeds, frames=frames)[bot]
    monkeypatch.undo()
    assert [(args, kwargs) for args, kwargs, _ in made] == \
        [((GAME_ENVS[game],), {"level": 1, "max_frames": frames})] * len(seeds)
    assert [e["score"] for e in runs] == [env.summed for _, _, env in made]
    assert all(env.episodes == 1 for _, _, env in made)
    env = make(GAME_ENVS[game], max_frames=frames)
    assert envs.episode_return(env, envs.bot_policy(env, bot), seed=0) == runs[0]["score"]
    env.close()
    assert [e["seed"] for e in runs] == seeds and all(e["env"] == GAME_ENVS[game] for e in runs)
    if game == "rope" and bot == "cutter":
        assert all(e["result"] == "won" for e in runs)


def test_seeds_from_the_command_line():
    assert parse_seeds("3") == [0, 1, 2]
    assert parse_seeds("100-103") == [100, 101, 102, 103]
    assert parse_seeds("3,5,10-12") == [3, 5, 10, 11, 12]
    assert parse_seeds("7,") == [7] == parse_seeds("7-7")
    for bad, says in (("5-2", "ends before it starts"), ("a-3", "not a seed"), (",", "no seed"),
                      ("-3", "not a seed")):
        with pytest.raises(ValueError, match=says):
            parse_seeds(bad)


def test_any_seeds_play_the_games_of_those_seeds():
    runs = evaluate(**{**SHORT, "seeds": [5, 2]})["random"]
    alone = evaluate(**{**SHORT, "seeds": 6})["random"]
    assert [e["seed"] for e in runs] == [5, 2]
    assert runs == [alone[5], alone[2]]
    with pytest.raises(ValueError, match="a seed is given twice"):
        evaluate(**{**SHORT, "seeds": [1, 1]})
    with pytest.raises(ValueError, match="seeds must be >= 0"):
        evaluate(**{**SHORT, "seeds": [-1]})


def _leftmost(observation):
    """A policy: drop every fruit at the far left."""
    return np.zeros(1, np.float32)


def test_a_policy_is_evaluated_like_a_bot(tmp_path, monkeypatch):
    pytest.importorskip("gymnasium")
    (tmp_path / "mypolicy.py").write_text(
        "import numpy as np\n\ndef act(observation):\n    return np.full(1, 0.5, np.float32)\n")
    monkeypatch.chdir(tmp_path)
    runs = evaluate("ecsgoo/Suika-v0", ["mypolicy:act", _leftmost, "random"], [0, 1],
                    frames=300)
    assert list(runs) == ["mypolicy:act", f"{__name__}:_leftmost", "random"]
    centre, left = runs["mypolicy:act"], runs[f"{__name__}:_leftmost"]
    assert centre[0]["policy"] == "mypolicy:act" and "bot" not in centre[0]
    assert [e["score"] for e in centre] != [e["score"] for e in left]
    assert evaluate("suika", "mypolicy:act", [0, 1], frames=300, workers=2)["mypolicy:act"] \
        == centre
    with pytest.raises(LookupError, match="has no function nope"):
        evaluate("suika", "mypolicy:nope", 1)
    with pytest.raises(LookupError, match="cannot import nomodule"):
        evaluate("suika", "nomodule:act", 1)
    with pytest.raises(ValueError, match="jelly is not an environment"):
        evaluate("jelly", "mypolicy:act", 1)


def test_one_and_two_workers_give_the_same_episodes():
    one = evaluate(**SHORT, workers=1)
    two = evaluate(**SHORT, workers=2)
    assert one == two
    scores = [e["score"] for e in one["random"]]
    assert [e["seed"] for e in one["random"]] == [0, 1, 2] and len(set(scores)) > 1


def test_ray_gives_the_same_episodes_for_bots_and_policies(tmp_path, monkeypatch):
    """A bot, a policy from a module of the working folder and a callable, in one Ray
    instance started for the call (one start: it is most of the cost): Ray's workers import
    and unpickle the policies and play the same episodes as one local worker."""
    pytest.importorskip("ray")
    pytest.importorskip("gymnasium")
    (tmp_path / "raypolicy.py").write_text(
        "import numpy as np\n\ndef act(observation):\n    return np.full(1, 0.7, np.float32)\n")
    monkeypatch.chdir(tmp_path)
    players = [*SHORT["players"], "raypolicy:act", _leftmost]
    local = evaluate(**{**SHORT, "players": players}, workers=1)
    assert evaluate(**{**SHORT, "players": players}, workers=2, engine="ray") == local
    assert [e["score"] for e in local["raypolicy:act"]] != \
        [e["score"] for e in local[f"{__name__}:_leftmost"]]


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
    with pytest.raises(LookupError, match="unknown game 'nope'"):
        evaluate("nope", ["random"], seeds=1)
    with pytest.raises(ValueError, match="engine must be one of local, ray"):
        evaluate("suika", ["random"], seeds=1, engine="dask")
    with pytest.raises(ValueError, match="--address is for --engine ray"):
        evaluate("suika", ["random"], seeds=1, address="auto")


def _episodes(scores, bot="b"):
    return [{"game": "g", "level": 1, "bot": bot, "seed": k, "frames": 10,
             "result": "won" if s > 2 else "lost", "score": s, "extra": k}
            for k, s in enumerate(scores)]


def test_summary_line():
    line = summarize(_episodes([1, 3, 5]), frames=600)
    version, commit = line.pop("version"), line.pop("commit")
    assert line == {"game": "g", "level": 1, "bot": "b", "episodes": 3, "mean": 3.0,
                    "std": 2.0, "ci95": pytest.approx(4.302653 * 2 / np.sqrt(3)),
                    "min": 1, "max": 5, "won": 2, "scores": [1, 3, 5], "seeds": [0, 1, 2],
                    "frames_cap": 600}
    assert isinstance(version, str) and version
    assert commit is None or len(commit.split("+")[0]) == 40
    assert interval95([4]) == 0.0


def test_the_interval_is_students_t():
    # t(0.975, df) from the published tables
    for df, t in ((1, 12.7062), (2, 4.3027), (3, 3.1824), (9, 2.2622), (19, 2.0930),
                  (100, 1.9840)):
        assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-4)
    assert t_quantile(0.5, 4) == pytest.approx(0.0, abs=1e-12)
    scores = [3, 9, 4, 10]
    assert interval95(scores) == pytest.approx(3.1824 * statistics.stdev(scores) / 2, rel=1e-4)


def test_eval_on_the_command_line_defaults_to_the_games_first_bot(capsys, tmp_path, monkeypatch):
    """One JSON line with the caps, seeds and version; no file in the data folder changes."""
    from ecsgoo.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["eval", "suika", "--seeds", "4-5", "--frames", "300", "--workers", "1"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["bot"] == "greedy" and line["seeds"] == [4, 5] and line["frames_cap"] == 300
    assert line["env"] == "ecsgoo/Suika-v0" and line["steps_cap"] == 1000
    assert line["std"] == pytest.approx(statistics.stdev(line["scores"]))
    assert not any(tmp_path.rglob("*")), "eval wrote into the data folder"
    with pytest.raises(SystemExit) as refused:
        main(["eval", "suika", "--seeds", "2-1"])
    assert refused.value.code == 2 and "ends before it starts" in capsys.readouterr().err


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


def test_eval_on_the_command_line_takes_a_policy_and_an_environment_id(capsys, tmp_path,
                                                                       monkeypatch):
    """``ecsgoo eval ENV --policy module:function --seeds LIST``: one JSON line naming the
    policy, its scores the environment's for that policy on those seeds."""
    gym = pytest.importorskip("gymnasium")
    import ecsgoo.envs as envs
    from ecsgoo.cli import main

    (tmp_path / "clipolicy.py").write_text(
        "import numpy as np\n\ndef act(observation):\n    return np.full(1, 0.8, np.float32)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["eval", "ecsgoo/Suika-v0", "--policy", "clipolicy:act", "--seeds", "3,1",
                 "--frames", "300", "--workers", "1"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["policy"] == "clipolicy:act" and "bot" not in line
    assert line["seeds"] == [3, 1] and line["env"] == "ecsgoo/Suika-v0"
    import clipolicy

    env = gym.make("ecsgoo/Suika-v0", max_frames=300)
    assert line["scores"] == [envs.episode_return(env, clipolicy.act, s) for s in (3, 1)]
    assert not (tmp_path / "data").exists(), "eval wrote into the data folder"
