"""The window's save in a worker process (``editor.saver``): the same bytes as
``Editor.save``, the window free meanwhile."""

from __future__ import annotations

import time

from ecsgoo.editor import Editor
from ecsgoo.editor.view import EditorView


def _wait(view: EditorView, seconds: float = 120.0) -> None:
    end = time.monotonic() + seconds
    while view.saver.busy and time.monotonic() < end:
        view.update(1 / 60)
        time.sleep(0.05)
    assert not view.saver.busy, "the worker did not finish"


def test_a_save_in_the_worker_writes_what_editor_save_writes(tmp_path):
    ed = Editor("rope", level=3)
    ed.place("rigid_box", x=100, y=300, kind="static")
    ed.place("segment", x=50, y=50, to=[200, 60], friction=0.3)
    ed.move(10, 0, things=[1])  # a part (a rope) moved too
    here = ed.save(tmp_path / "here.toml").read_bytes()
    ed.place("particle", x=300, y=300)  # edited again: not saved
    want = ed.text().encode()
    view = EditorView(ed)
    ed.path = tmp_path / "there.toml"
    try:
        view.key("s", ctrl=True)
        assert view.saver.busy
        ed.undo()  # edited while it saves: the state saved is the one asked for
        _wait(view)
        assert (tmp_path / "there.toml").read_bytes() == want and ed.dirty
        ed.path = tmp_path / "again.toml"
        view.key("s", ctrl=True)  # the worker is kept: a second save is quick
        _wait(view)
    finally:
        view.saver.close()
    assert (tmp_path / "again.toml").read_bytes() == here
    assert not ed.dirty and "saved" in view.message[0]


def test_a_save_the_worker_refuses_is_said_and_the_level_stays_dirty(tmp_path):
    ed = Editor("goo")  # no pipe yet: the editor refuses before any worker
    ed.place("goo_ball", x=300, y=100)
    view = EditorView(ed)
    view.key("s", ctrl=True)
    assert not view.saver.busy and "not saved" in view.message[0] and ed.dirty


def test_a_game_a_worker_cannot_import_is_saved_in_place(tmp_path, monkeypatch):
    from toygame import Toy

    from ecsgoo.editor.saver import in_worker
    from ecsgoo.game import GAMES

    monkeypatch.setitem(GAMES, "toy", Toy)  # (another test may have loaded it by path)
    assert in_worker(GAMES["rope"]) and in_worker(None) and in_worker(Toy)
    made = type("Scripted", (Toy,), {"__module__": "__main__"})
    assert not in_worker(made)
    ed = Editor("rope")
    ed.game = made  # a game made in a script: saved here and now
    ed.place("particle", x=100, y=100)
    view = EditorView(ed)
    ed.path = tmp_path / "here.toml"
    view.key("s", ctrl=True)
    assert not view.saver.busy and (tmp_path / "here.toml").exists() and not ed.dirty
