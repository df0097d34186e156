"""The progress file under what breaks it (issue 29): bounded parsing, every value checked,
records of two processes merged, a damaged file kept before it is replaced."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import stat

import numpy as np
import pytest

from ecsgoo import cli
from ecsgoo.app.progress import MAX_BYTES, Progress, Record, progress_path


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"games": ' * 50_000 + "{}" + "}" * 50_000,
    '{"games": {"rope": {"levels": {"1": {"best_score": Infinity}}}}}',
    '{"games": {"rope": {"levels": {"1": {"best_score": NaN}}}}}',
    '{"games": {"rope": {"levels": {"1": {"best_score": 1e400}}}}}',
    '{"games": {"rope": {"levels": {"1": {"best_score": ' + "9" * 5000 + "}}}}}",
    '{"games": {"rope": {"levels": {"1": {"best_score": -3}}}}}',
    '{"games": {"rope": {"levels": {"one": {"best_score": 3}}}}}',
    '{"games": {"rope": {"levels": {"1": {"best_stars": true}}}}}',
    '{"games": {"rope": {"top": [{"score": 5, "level": 1, "date": "yesterday"}]}}}',
    '{"games": {"rope": {"top": [{"score": 5, "level": 1}]}}}',
    '{"games": {"rope": {"levels": [1, 2]}}}',
    '{"games": {"": {}}}',
    '{"games": []}',
    "[]",
    '"games"',
])
def test_a_bad_file_is_reported_in_one_line_and_started_afresh(tmp_path, text):
    path = tmp_path / "progress.json"
    path.write_text(text)
    p = Progress.load(path)
    assert "unreadable" in p.problem and "\n" not in p.problem and len(p.problem) < 200
    assert p.levels == {} and p.top == {}


def test_a_file_over_the_size_limit_is_not_read_whole(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text('{"games": {}, "pad": "' + "x" * MAX_BYTES + '"}')
    assert "larger than" in Progress.load(path).problem


def test_ecsgoo_list_with_an_infinite_best_score_reports_it_and_lists(capsys):
    path = progress_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"games": {"rope": {"levels": {"1": {"best_score": Infinity}}}}}')
    try:
        assert cli.main(["list", "--json"]) == 0
        out = capsys.readouterr()
        assert "unreadable" in out.err
        assert json.loads(out.out.splitlines()[-1])["games"]
    finally:
        path.unlink()


def test_a_damaged_file_is_kept_before_it_is_replaced(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text('{"games": {"rope": [1, 2')
    p = Progress.load(path)
    p.record("rope", 3, "won", 1000, 1)
    p.save()
    assert (tmp_path / "progress.json.damaged").read_text() == '{"games": {"rope": [1, 2'
    assert Progress.load(path).best("rope", 3).best_stars == 1
    path.write_text("garbage")
    Progress.load(path).save()
    assert (tmp_path / "progress.json.damaged-2").read_text() == "garbage"


def test_two_loads_saving_in_turn_keep_both_wins(tmp_path):
    path = tmp_path / "progress.json"
    one, two = Progress.load(path), Progress.load(path)
    one.record("goo", 1, "won", 10, 2)
    two.record("goo", 1, "won", 30, 1)
    one.save()
    two.save()
    best = Progress.load(path).best("goo", 1)
    assert (best.best_score, best.best_stars, best.wins) == (30, 2, 2)
    assert two.best("goo", 1).wins == 2  # what it saved is what it holds now


def _record_levels(path: str, game: str, count: int) -> None:
    for level in range(1, count + 1):
        p = Progress.load(path)  # load, modify, save: as a game process does
        p.record(game, level, "won", level, 1)
        p.save()


def test_two_processes_recording_at_once_keep_every_record(tmp_path):
    path = str(tmp_path / "progress.json")
    ctx = multiprocessing.get_context("fork")
    workers = [ctx.Process(target=_record_levels, args=(path, game, 100))
               for game in ("rope", "goo")]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    p = Progress.load(path)
    assert not p.problem
    assert sum(len(levels) for levels in p.levels.values()) == 200


def test_a_fifo_where_the_file_was_is_reported_not_waited_on(tmp_path):
    """Opening a FIFO blocks until a writer comes: every game's start and `ecsgoo list`
    hung. It is reported, moved aside as .damaged on the next save, and replaced."""
    path = tmp_path / "progress.json"
    os.mkfifo(path)
    signal.setitimer(signal.ITIMER_REAL, 20.0)  # a regression fails here, not hangs CI
    try:
        p = Progress.load(path)
        assert "not a regular file" in p.problem
        p.record("rope", 1, "won", 10, 1)
        p.save()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    assert stat.S_ISFIFO(os.stat(tmp_path / "progress.json.damaged").st_mode)
    assert Progress.load(path).best("rope", 1).best_stars == 1


@pytest.mark.parametrize("game, level, result, score, stars, date", [
    ("rope", 0, "won", 1, 1, None), ("rope", 1, "won", 2**60, 1, None),
    ("rope", 1, "won", float("nan"), 1, None), ("rope", 1, "won", "10", 1, None),
    ("rope", 1, "won", 1, 1, "yesterday"), ("x" * 201, 1, "won", 1, 1, None),
    ("", 1, "won", 1, 1, None), ("rope", 1, "drawn", 1, 1, None),
])
def test_a_record_the_file_could_not_hold_is_refused_before_it_is_kept(
        tmp_path, game, level, result, score, stars, date):
    """Saved as given, each made the whole file unreadable to the next load."""
    p = Progress.load(tmp_path / "progress.json")
    with pytest.raises(ValueError, match="Progress.record: "):
        p.record(game, level, result, score, stars, date)
    assert p.pending == [] and p.levels == {}


def test_whole_numbers_of_other_types_and_negative_counts_are_kept_as_they_read():
    p = Progress(path=None)
    p.record("rope", np.int64(2), "won", 30.0, np.int32(-1))
    assert p.best("rope", 2) == Record(best_score=30, best_stars=0, wins=1)
    assert type(p.pending[0][3]) is int
