"""The editor's picture repainted region by region (``editor.paint``, ``editor.still``):
an edit repaints its box, and the picture is the one painted whole."""

from __future__ import annotations

import pytest

from ecsgoo.editor import Editor
from ecsgoo.editor.view import EditorView


@pytest.fixture(scope="module")
def window():
    from ecsgoo.app.headless import offscreen_window

    return offscreen_window((1220, 656))


def _picture(view: EditorView, window) -> bytes:
    view.draw(window)
    return bytes(view.still._fbo.read(components=4))


def _whole(view: EditorView, window) -> bytes:
    view.still.forget()
    return _picture(view, window)


def _area(rect) -> float:
    return rect[2] * rect[3]


def test_each_edit_repaints_only_what_it_changed_and_the_picture_is_the_whole_one(window):
    ed = Editor("rope", level=1)
    view = EditorView(ed, (1220, 656))
    box = ed.place("rigid_box", x=150, y=150)
    ball = ed.place("jelly_ball", x=650, y=150, radius=30)
    seg = ed.place("segment", x=100, y=60, to=[300, 80])
    _picture(view, window)
    full = _area(view.area())
    edits = [
        lambda: ed.move(10, 0, things=[box]),
        lambda: ed.set("radius", 40.0, things=[ball]),
        lambda: ed.move(0, 20, things=[seg]),
        lambda: ed.place("rigid_circle", x=500, y=200),
        lambda: ed.delete(things=[box]),
        ed.undo,
        ed.redo,
        lambda: ed.move(5, 5, things=[0]),  # a part of the bundled level: its base changes
        ed.undo,
    ]
    for k, edit in enumerate(edits):
        edit()
        got = _picture(view, window)
        rect = view.painted.rect
        assert "level" in view.still.painted
        assert got == _whole(view, window), f"edit {k}: the repaint differs from the whole"
        if k in (0, 1, 2, 3):  # a thing of its own: its box, not the level
            assert rect is not None and _area(rect) < 0.2 * full, (k, rect)
    ed.place("chain", x=600, y=500, to=[650, 180])  # it ties to the ball: the whole level
    got = _picture(view, window)
    assert view.painted.rect == view.area() and got == _whole(view, window)
    late = ed.place("rigid_box", x=700, y=100)  # after the chain: it reads nothing of it
    _picture(view, window)
    ed.move(0, 5, things=[late])
    got = _picture(view, window)
    assert _area(view.painted.rect) < 0.2 * full and got == _whole(view, window)


def test_a_pointer_over_a_tool_repaints_the_strip_alone(window):
    view = EditorView(Editor("rope", level=1), (1220, 656))
    _picture(view, window)
    button = next(b for b in view.tools() if b.action == "undo")
    view.move(button.x + 5, button.y + 5)
    lit = _picture(view, window)
    assert view.still.painted == {"strip"}
    assert lit == _whole(view, window)
    view.move(600, 300)
    view.draw(window)
    assert view.still.painted == {"strip"}


def test_the_overlay_is_drawn_from_the_live_world_and_leaves_it_as_it_was(window):
    for game, level in (("rope", 1), ("goo", 1), ("suika", 1), ("jelly", 3)):
        ed = Editor(game, level=level)
        text = ed.text()
        view = EditorView(ed, (1220, 656))
        _picture(view, window)
        assert view.painted.calls, f"{game}: its overlay drew nothing"
        assert view.painted.game.world is ed.world
        ed.move(3, 0, things=[0])
        ed.undo()
        _picture(view, window)
        assert ed.text() == text, game


def test_a_sensor_the_game_does_not_draw_is_outlined_in_the_edit(window):
    ed = Editor("rope")
    view = EditorView(ed, (1220, 656))
    empty = _picture(view, window)
    ed.place("sensor", x=400, y=300, width=120, height=80)
    got = _picture(view, window)
    assert got != empty and _area(view.painted.rect) < 0.2 * _area(view.area())
    assert _picture(view, window) == _whole(view, window)
