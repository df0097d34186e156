"""The command line, end to end: list, play (headless, fallback without a display), check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from ecsgoo import cli, saving

TOY = str(Path(__file__).resolve().parent / "toygame.py")


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
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", TOY]) == 0
    captured = capsys.readouterr()
    note = captured.err.strip().splitlines()
    assert "no display" in note[0] and "recording to" in note[0] and "poke" in note[0]
    assert (tmp_path / "ecsgoo-toy-level1.gif").is_file()
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
    assert all(word in proc.stdout for word in ("list", "play", "check", "bench", "demo"))
    play = _run("play", "--help")
    assert "--screenshot" in play.stdout and "--bot" in play.stdout
    assert cli.main(["demo", "--frames", "5"]) == 0
