"""The command line, end to end: list, play (headless, fallback without a display), check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ecsgoo import cli, saving
from ecsgoo.progress_bar import is_progress
from ecsgoo.warmup import MESSAGE

TOY = str(Path(__file__).resolve().parents[1] / "toygame.py")
BASKET = str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "mygame.py")


def _run(*args: str, env: dict | None = None, cwd: Path | None = None):
    return subprocess.run([sys.executable, "-m", "ecsgoo", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "ARCADE_HEADLESS": "1",
                                                       **(env or {})}, cwd=cwd)


def test_list_shows_games_levels_and_bots(capsys):
    import toygame  # noqa: F401  (registers "toy" like a bundled game would)

    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "toy" in out and "Toy box" in out
    assert "1: everything  2: empty" in out and "poke, random" in out


def test_play_headless_end_to_end(tmp_path):
    from PIL import Image

    shot = tmp_path / "shot.png"
    proc = _run("play", TOY, "--level", "1", "--headless", "--frames", "30", "--bot",
                "--seed", "3", "--screenshot", str(shot))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary == {"game": "toy", "level": 1, "frames": 30, "result": "running",
                       "score": 1, "pokes": 1}
    image = np.asarray(Image.open(shot).convert("RGB"), float)
    assert image.std() > 10 and len(np.unique(image.reshape(-1, 3), axis=0)) > 50


def test_play_without_a_display_falls_back_to_a_recorded_headless_run(tmp_path, monkeypatch,
                                                                      capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("ARCADE_HEADLESS", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(cli, "FALLBACK_FRAMES", 12)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", TOY]) == 0
    captured = capsys.readouterr()
    note = captured.err.strip().splitlines()
    gif = tmp_path / "data" / "ecsgoo" / "recordings" / "toy-level1.gif"
    assert "no display" in note[0] and f"recording to {gif}" in note[0] and "poke" in note[0]
    assert gif.is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["data"], "nothing written where it ran"
    assert json.loads(captured.out.strip().splitlines()[-1])["frames"] == 12


def test_errors_are_one_line_without_a_traceback(capsys):
    assert cli.main(["play", "no-such-game"]) == 1
    assert cli.main(["play", TOY, "--level", "9", "--headless"]) == 1
    assert cli.main(["play", TOY, "--headless", "--bot", "nope", "--frames", "1"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 3
    assert "unknown game 'no-such-game'" in err and "level must be 1..2" in err
    assert "no bot named 'nope'" in err


def test_check_a_bad_file_exits_1_without_a_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("format_version = 1\n[[entity]]\nid = 1\nparticle = { x = 1.0, y = nan }\n")
    proc = _run("check", str(bad))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "bad.toml" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_check_a_good_file(tmp_path, capsys):
    from ecsgoo import Particle, World

    w = World()
    w.create_entity(Particle(1, 2))
    good = tmp_path / "good.toml"
    saving.save(w, good)
    assert cli.main(["check", str(good)]) == 0
    assert "good.toml" in capsys.readouterr().out


def test_help_and_demo():
    proc = _run("--help")
    assert proc.returncode == 0
    assert all(word in proc.stdout for word in ("list", "play", "check", "bench", "demo", "eval"))
    play = _run("play", "--help")
    assert "--screenshot" in play.stdout and "--bot" in play.stdout
    assert cli.main(["demo", "--frames", "5"]) == 0


def test_version_and_subcommand_help():
    proc = _run("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("ecsgoo ")
    for args in (("bench", "--help"), ("check", "--help"), ("list", "--help"),
                 ("eval", "--help")):
        proc = _run(*args)
        assert proc.returncode == 0 and "usage: ecsgoo " + args[0] in proc.stdout, args


def test_bench_refuses_an_unknown_scene_in_one_line():
    proc = _run("bench", "nosuch")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "ecsgoo bench: error: unknown scene 'nosuch' (scenes: pile," in proc.stderr


def test_bench_table_cells_hold_no_raw_dicts():
    import runpy

    bench = runpy.run_path(str(Path(__file__).resolve().parents[2] / "tools" / "bench.py"))
    assert bench["_figure"]({"a": 1.5, "b": {"c": 2}}) == "a 1.500, b c 2"


def test_a_misspelt_flag_is_reported_in_the_subcommand_usage(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["play", TOY, "--levle", "2"])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert "usage: ecsgoo play" in err and "unrecognized arguments: --levle 2" in err


@pytest.mark.parametrize(("flag", "path", "says"), [
    ("--screenshot", "{tmp}/no/such/dir/x.png", "folder {tmp}/no/such/dir does not exist"),
    ("--screenshot", "/proc/x.png", "cannot write there"),
    ("--screenshot", "{tmp}/x.jpg", "must end in .png"),
    ("--record", "{tmp}/x.png", "must end in .gif"),
    ("--screenshot", "{tmp}", "must end in .png"),
])
def test_output_paths_are_checked_before_the_run(tmp_path, capsys, monkeypatch, flag, path,
                                                 says):
    ran = []
    monkeypatch.setattr(cli, "_make_game", lambda args: ran.append(args))
    path, says = path.format(tmp=tmp_path), says.format(tmp=tmp_path)
    assert cli.main(["play", TOY, "--headless", flag, path]) == 1
    err = capsys.readouterr().err
    assert not ran, "refused before the game was even built"
    assert says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "no").exists(), "no folder was created"


def test_a_quick_save_plays_and_checks_from_the_command_line(tmp_path, monkeypatch):
    from toygame import Toy

    from ecsgoo.app import Player

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    player = Player(Toy(level=2, seed=4))
    player.update(0.1)
    player.key("f5")
    save = player.save_path()
    proc = _run("play", str(save), "--headless", "--frames", "3", "--game", TOY)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert (summary["game"], summary["level"], summary["frames"]) == ("toy", 2, 3)
    # a custom game is never imported because the file names it
    proc = _run("play", str(save), "--headless", "--frames", "3")
    assert proc.returncode == 1 and "saved by game 'toy'" in proc.stderr
    assert "--game" in proc.stderr and "Traceback" not in proc.stderr
    assert _run("check", str(save), "--game", TOY).returncode == 0


def test_check_a_custom_games_save_with_its_module(tmp_path):
    from ecsgoo.app.games import load_path

    game = load_path(BASKET)(level=1)
    game.world.step(3)
    save = tmp_path / "basket.toml"
    saving.save(game.world, save)
    refused = _run("check", str(save))
    assert refused.returncode == 1 and "unknown" in refused.stderr
    proc = _run("check", str(save), "--game", BASKET)
    assert proc.returncode == 0 and "basket.toml" in proc.stdout, proc.stderr


BAD_GAME = """
from ecsgoo import World, WorldError, systems
from ecsgoo.game import Game, register_game


class Rule(systems.Stage):
    name = "bad_rule_{kind}"

    def process(self, world):
        if world.frame == 2:
            {statement}


@register_game
class Bad(Game):
    name = "bad_{kind}"

    def build(self):
        return World().use(*(s() for s in systems.SOLVER), Rule())
"""


@pytest.mark.parametrize(("kind", "statement", "says"), [
    ("world", "raise WorldError('entity 3: no such goal')", "error: entity 3: no such goal"),
    ("key", "return {}['missing']", "error: KeyError: 'missing'"),
])
def test_errors_from_game_code_point_at_game_code(tmp_path, kind, statement, says):
    game = tmp_path / f"bad_{kind}.py"
    game.write_text(BAD_GAME.format(kind=kind, statement=statement))
    proc = _run("play", str(game), "--headless", "--frames", "5", cwd=tmp_path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    # a cold kernel cache (kernels edited since the last run) says so first, and a slow run
    # its progress (a loaded machine: 2 frames in 2.4 s, seen): neither is the error
    lines = [line for line in proc.stderr.strip().splitlines()
             if MESSAGE not in line and not is_progress(line)]
    assert says in lines[0]
    assert lines[1:] == [f"  bad_{kind}.py:11 in process: {statement}"], lines


def test_a_headless_run_ends_a_second_after_the_result(tmp_path):
    proc = _run("play", "rope", "--headless", "--frames", "3000", "--bot")
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["result"] == "won" and summary["frames"] < 3000


def test_eval_prints_one_json_line_per_bot_with_the_scores_of_the_environment(tmp_path, capsys):
    rows = tmp_path / "runs.csv"
    assert cli.main(["eval", "suika", "--bot", "random", "--bot", "greedy", "--seeds", "2",
                     "--frames", "300", "--workers", "1", "--csv", str(rows)]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.strip().splitlines()]
    assert [line["bot"] for line in lines] == ["random", "greedy"]
    assert set(lines[0]) == {"game", "level", "bot", "episodes", "mean", "std", "ci95", "min",
                             "max", "won", "scores", "seeds", "frames_cap", "env", "steps_cap",
                             "version", "commit"}
    assert lines[0]["episodes"] == 2 and len(lines[0]["scores"]) == 2
    assert "episode" in captured.err, "a progress bar on stderr"
    assert rows.read_text().count("\n") == 5
    import gymnasium as gym  # suika is evaluated through its environment

    import ecsgoo.envs as envs

    env = gym.make("ecsgoo/Suika-v0", max_frames=300)
    assert envs.episode_return(env, envs.bot_policy(env, "random"), 1) == lines[0]["scores"][1]


@pytest.mark.parametrize(("args", "says"), [
    (["--bot", "nope"], "no bot named 'nope'"),
    (["--bot", "random", "--level", "9"], "level must be 1..2"),
    (["--bot", "random", "--csv", "{tmp}/x.txt"], "csv {tmp}/x.txt: the file must end in .csv"),
    (["--bot", "random", "--plot", "{tmp}/no/x.png"], "folder {tmp}/no does not exist"),
    (["--bot", "random", "--address", "auto"], "--address is for --engine ray"),
])
def test_eval_errors_are_one_line(tmp_path, capsys, args, says):
    args = [a.format(tmp=tmp_path) for a in args]
    assert cli.main(["eval", "suika", "--seeds", "1", "--workers", "1", *args]) == 1
    err = capsys.readouterr().err
    assert says.format(tmp=tmp_path) in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if "error" in line]) == 1


def test_list_json_shows_best_results_from_the_progress_file(capsys):
    from ecsgoo.app.progress import Progress

    progress = Progress.load()
    progress.record("rope", 2, "won", 1500, 2)
    progress.save()
    assert cli.main(["list", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rope = next(g for g in out["games"] if g["name"] == "rope")
    assert set(rope["levels"][0]) >= {"level", "title", "best_score", "best_stars"}
    assert rope["levels"][1]["best_score"] == 1500 and rope["levels"][1]["best_stars"] == 2
    assert cli.main(["list"]) == 0
    assert "best    2: 1500 **" in capsys.readouterr().out


def test_a_corrupt_progress_file_is_one_line_on_stderr_never_a_crash(capsys):
    from ecsgoo.app.progress import progress_path

    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    saved = path.read_bytes() if path.exists() else None
    path.write_text("not json")
    try:
        assert cli.main(["list", "--json"]) == 0
        captured = capsys.readouterr()
        assert json.loads(captured.out)["games"]
        assert captured.err.count("\n") == 1 and "unreadable" in captured.err
    finally:
        path.write_bytes(saved) if saved is not None else path.unlink()


def test_play_without_a_game_draws_the_launcher_headless(tmp_path):
    from PIL import Image

    png = tmp_path / "menu.png"
    assert cli.main(["play", "--headless", "--screenshot", str(png)]) == 0
    image = np.asarray(Image.open(png).convert("RGB"), float)
    assert image.std() > 10, "a picture, not a blank"
    assert cli.main(["play", "--headless"]) == 1, "headless, the launcher needs --screenshot"


def test_the_first_command_without_a_display_plays_goo_until_the_bot_wins(tmp_path, monkeypatch,
                                                                          capsys):
    from PIL import Image

    from ecsgoo.app.headless import AFTER_RESULT, GIF_FRAMES

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("ARCADE_HEADLESS", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert cli.main(["play", "goo"]) == 0  # the README's first command, as it runs there
    captured = capsys.readouterr()
    summary = json.loads(captured.out.strip().splitlines()[-1])
    assert summary["result"] == "won" and summary["frames"] < cli.FALLBACK_FRAMES
    assert "until the level is decided" in captured.err
    gif = Image.open(tmp_path / "data" / "ecsgoo" / "recordings" / "goo-level1.gif")
    assert 1 < gif.n_frames <= GIF_FRAMES + 1
    # a true-speed GIF: its frames span the run (the last second after the win included)
    assert gif.n_frames * gif.info["duration"] >= 1000 * (summary["frames"] - AFTER_RESULT) / 60


def test_play_help_says_esc_goes_back(capsys):
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Esc back to the launcher" in out and "Esc quit" not in out
