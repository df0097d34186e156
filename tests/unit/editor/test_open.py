"""Opening a level file: its game found from what the file names (``editor.levels``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ecsgoo.editor import Editor
from ecsgoo.errors import WorldFileError

ROOT = Path(__file__).resolve().parents[3]


def _saved(tmp_path: Path) -> tuple[Path, Path]:
    parts_only = Editor("goo", level=1)  # a bundled level with a part moved: no saved_game
    parts_only.move(5, 0, things=[0])
    placed = Editor("rope")
    placed.place("rope_candy", x=300, y=300)
    return parts_only.save(tmp_path / "goo.toml"), placed.save(tmp_path / "rope.toml")


def test_a_file_without_its_game_named_is_opened_with_the_game_of_its_stages(tmp_path):
    goo, rope = _saved(tmp_path)
    assert "saved_game" not in goo.read_text()
    assert Editor(goo).game.name == "goo" and Editor(rope).game.name == "rope"


def test_a_file_of_a_game_not_imported_yet_opens_and_a_stage_of_none_is_named(tmp_path):
    goo, rope = _saved(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text(goo.read_text().replace('"goo_rules"', '"nobody_rules"'))
    script = (
        "import sys\n"
        "from ecsgoo.editor import Editor\n"
        "from ecsgoo.errors import WorldFileError\n"
        "assert not any(m == 'games' or m.startswith('games.') for m in sys.modules)\n"
        f"print(Editor({str(goo)!r}).game.name, Editor({str(rope)!r}).game.name)\n"
        "try:\n"
        f"    Editor({str(bad)!r})\n"
        "except WorldFileError as exc:\n"
        "    print(exc)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    first, second = out.stdout.strip().splitlines()[-2:]
    assert first == "goo rope"
    assert str(bad) in second and "'nobody_rules'" in second


def test_an_unreadable_file_is_the_world_file_error_naming_it(tmp_path):
    with pytest.raises(WorldFileError, match="nothing.toml"):
        Editor(tmp_path / "nothing.toml")
