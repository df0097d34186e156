"""tools/readme_tables.py: the README's eval tables are the recorded runs, and ``--table``
writes one table and keeps the other's runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))

import readme_tables  # noqa: E402


def _lines() -> list[dict]:
    text = (ROOT / "docs" / "eval-tables.json").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_the_readme_bots_table_shows_the_recorded_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for line in _lines():
        if line["game"] in readme_tables.TABLE_GAMES["bots"]:
            row = (f"| {line['game']} | `{line['bot']}` | **{line['mean']:.0f}** | "
                   f"± {line['ci95']:.0f} | {line['won']} of {line['episodes']} |")
            assert row in readme, row


def _episodes(game: str, bots, seeds, frames, workers):
    return {bot: [{"game": game, "level": 1, "bot": bot, "seed": s, "frames": 10,
                   "result": "won", "score": 3 + s} for s in range(seeds)] for bot in bots}


def test_one_table_is_written_and_the_other_tables_runs_are_kept(tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("a\n<!-- table:suika -->\nold suika\n"
                                        "<!-- /table:suika -->\nb\n<!-- table:bots -->\n"
                                        "old bots\n<!-- /table:bots -->\n", encoding="utf-8")
    suika = {"game": "suika", "bot": "greedy", "mean": 1.0}
    (tmp_path / "docs" / "eval-tables.json").write_text(json.dumps(suika) + "\n")
    monkeypatch.setattr(readme_tables, "ROOT", tmp_path)
    monkeypatch.setattr(readme_tables, "evaluate", _episodes)
    assert readme_tables.main(["--table", "bots", "--seeds", "2", "--write"]) == 0
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "old suika" in readme and "old bots" not in readme
    assert "| goo | `builder` | **4** |" in readme and "2 of 2 |" in readme
    lines = [json.loads(s) for s in (tmp_path / "docs" / "eval-tables.json").read_text()
             .splitlines()]
    assert lines[0] == suika
    assert [(x["game"], x["bot"]) for x in lines[1:]] == [
        ("rope", "cutter"), ("rope", "random"), ("goo", "builder"), ("goo", "random")]
    assert not (tmp_path / "docs" / "suika-eval.png").exists(), "no suika run, no plot"
    with pytest.raises(SystemExit):
        readme_tables.main(["--table", "nope"])
