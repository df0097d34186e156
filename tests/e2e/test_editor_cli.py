"""``ecsgoo edit`` and ``ecsgoo play GAME FILE.toml`` from the command line (issue 28)."""

from __future__ import annotations

import json

from PIL import Image

from ecsgoo import cli
from ecsgoo.editor import Editor


def test_edit_draws_a_new_level_a_bundled_one_and_a_file_headless(tmp_path, capsys):
    mine = Editor("rope")
    mine.place("rope_candy", x=300, y=300)
    mine.place("rope_rope", x=300, y=500)
    path = mine.save(tmp_path / "mine.toml")
    for k, args in enumerate((["rope"], ["rope", "--level", "2"], ["rope", str(path)],
                              ["goo", "--level", "1"])):
        png = tmp_path / f"edit{k}.png"
        assert cli.main(["edit", *args, "--headless", "--screenshot", str(png)]) == 0, args
        with Image.open(png) as im:
            assert im.size[0] > 800 and len(set(im.convert("L").getdata())) > 20, args


def test_edit_without_a_window_or_picture_says_what_to_do(capsys):
    assert cli.main(["edit", "rope", "--headless"]) != 0
    assert "--screenshot" in capsys.readouterr().err


def test_play_runs_a_level_the_editor_saved(tmp_path, capsys):
    ed = Editor("rope", level=1)
    ed.move(0, 10, things=[0])  # the candy a little lower: still the bot's to win
    path = ed.save(tmp_path / "lower.toml")
    assert cli.main(["play", "rope", str(path), "--headless", "--bot", "--frames",
                     "600"]) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line["game"] == "rope" and line["result"] == "won"
