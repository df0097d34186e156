"""app.progress: best stars and scores per level, a top-10, kept in one JSON file."""

import json
import os

from ecsgoo.app.progress import TOP, Progress, listing, progress_path, record_finished


def test_the_file_lives_in_the_test_data_folder_not_the_users():
    assert str(progress_path()).startswith(os.environ["XDG_DATA_HOME"])


def test_records_keep_the_best_and_survive_a_reload(tmp_path):
    path = tmp_path / "progress.json"
    p = Progress.load(path)
    assert p.best("rope", 1).best_stars == 0 and not p.problem
    assert p.record("rope", 1, "won", 2000, 2, date="2026-01-02")
    assert not p.record("rope", 1, "won", 1500, 1), "worse: no record"
    assert p.record("rope", 1, "lost", 0, 3) is False, "stars count only for a win"
    p.save()
    again = Progress.load(path)
    best = again.best("rope", 1)
    assert (best.best_score, best.best_stars, best.wins) == (2000, 2, 2)
    assert again.top["rope"][0] == {"score": 2000, "level": 1, "date": "2026-01-02"}


def test_the_top_list_keeps_ten_highest_first(tmp_path):
    p = Progress.load(tmp_path / "p.json")
    for score in range(1, 15):
        p.record("suika", 1, "lost", score * 10)
    assert [t["score"] for t in p.top["suika"]] == [140 - 10 * k for k in range(TOP)]


def test_saving_is_atomic_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "sub" / "progress.json"
    p = Progress.load(path)
    p.record("goo", 2, "won", 5, 1)
    p.save()
    before = path.read_text()

    def broken_dump(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(json, "dump", broken_dump)
    p.record("goo", 2, "won", 50, 3)
    p.save()  # fails half-way: the old file is still whole
    assert path.read_text() == before and "not saved" in p.problem
    assert [f.name for f in path.parent.iterdir()] == ["progress.json"]


def test_a_corrupt_file_is_reported_in_one_line_and_replaced(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text('{"games": {"rope": [1, 2')
    p = Progress.load(path)
    assert "unreadable" in p.problem and "\n" not in p.problem and str(tmp_path) not in p.problem
    p.record("rope", 3, "won", 1000, 1)
    p.save()
    assert Progress.load(path).best("rope", 3).best_stars == 1


def test_finished_games_are_recorded_but_not_bot_runs():
    class Finished:
        name, level = "fake", 2

        def status(self):
            from ecsgoo.game import Status
            return Status("won", 70)

    assert record_finished(Finished(), bot="builder") is None
    progress = record_finished(Finished())
    assert progress.best("fake", 2).best_stars == 1, "a win without stars of its own earns one"


def test_listing_has_the_documented_shape(tmp_path):
    class Rope:
        title, levels = "Cut the Rope", ("First Swing", "Two Pins")

    p = Progress.load(tmp_path / "p.json")
    p.record("rope", 2, "won", 1500, 1)
    out = listing({"rope": Rope}, p)
    assert out["games"][0]["name"] == "rope"
    assert out["games"][0]["levels"] == [
        {"level": 1, "title": "First Swing", "best_score": 0, "best_stars": 0},
        {"level": 2, "title": "Two Pins", "best_score": 1500, "best_stars": 1}]
