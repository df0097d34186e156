"""The editor's screen driven like a mouse and keys would (``EditorView``, no window)."""

from __future__ import annotations

import pytest

from ecsgoo.editor import Editor
from ecsgoo.editor.view import EditorView


def _screen(view: EditorView, x: float, y: float) -> tuple[float, float]:
    return view.fit().to_screen(x, y)


def _click(view: EditorView, x: float, y: float) -> None:
    sx, sy = _screen(view, x, y)
    view.press(sx, sy)
    view.release(sx, sy)


def _tool(view: EditorView, kind: str) -> None:
    (button,) = [b for b in view.tools() if b.action == f"tool:{kind}"]
    view.press(button.x + 5, button.y + 5)


def test_a_rope_level_made_by_mouse_plays_and_undoes():
    view = EditorView(Editor("rope"))
    _tool(view, "rope_candy")
    _click(view, 400, 380)
    _tool(view, "rope_rope")
    _click(view, 250, 520)
    _click(view, 550, 520)
    _tool(view, "rope_star")
    _click(view, 400, 250)
    _tool(view, "rope_monster")
    _click(view, 400, 100)
    ed = view.editor
    assert [k for k, _ in ed.things] == ["rope_candy", "rope_rope", "rope_rope", "rope_star",
                                         "rope_monster"]
    text = ed.text()
    view.key("space")  # play-test, B its bot, Esc back
    view.key("b")
    for _ in range(300):
        view.player.step()
    assert view.player.game.status().result == "won"
    view.key("escape")
    assert view.player is None and ed.text() == text
    view.key("z", ctrl=True)
    assert len(ed.things) == 4


def test_drag_moves_the_thing_on_the_grid_and_the_panel_sets_a_field():
    view = EditorView(Editor("rope"))
    _tool(view, "rigid_box")
    _click(view, 200, 200)
    _tool(view, "select")
    ed = view.editor
    sx, sy = _screen(view, 200, 200)
    view.press(sx, sy)
    view.drag_to(sx + 33, sy + 18)
    view.release(sx + 33, sy + 18)
    assert (ed.fields(0)["x"], ed.fields(0)["y"]) == (230, 220)
    (width,) = [box for name, _, box in view.panel_rows() if name == "width"]
    view.press(width.x + 5, width.y + 5)
    view.text("7")
    view.text("5")
    view.key("return")
    assert ed.fields(0)["width"] == 75
    view.press(width.x + 5, width.y + 5)
    view.text("-3")
    view.key("return")
    assert ed.fields(0)["width"] == 75 and "width" in view.message[0]


def test_a_polygon_is_drawn_point_by_point():
    view = EditorView(Editor("rope"))
    _tool(view, "polygon")
    for x, y in ((100, 100), (200, 100), (200, 150), (150, 150), (150, 200), (100, 200)):
        _click(view, x, y)
    view.key("return")
    ((kind, fields),) = view.editor.things[-1:]
    assert kind == "polygon" and len(fields["points"]) == 6


def test_a_bundled_levels_star_is_clicked_and_dragged():
    view = EditorView(Editor("rope", level=1))
    ed = view.editor
    star = next(t for t in range(ed.parts) if "rope_star" in ed.title(t))
    x, y = ed.fields(star)["x"], ed.fields(star)["y"]
    sx, sy = _screen(view, x, y)
    view.press(sx, sy)
    view.drag_to(sx + 40, sy)
    view.release(sx + 40, sy)
    assert ed.selection == [star] and ed.fields(star)["x"] > x + 20 and ed.dirty
    assert [name for name, _, _ in view.panel_rows()] == ["x", "y"]
    view.key("z", ctrl=True)
    assert not ed.dirty


def _leaving(view: EditorView) -> list[str]:
    left: list[str] = []
    view.on_leave = lambda: left.append("left")
    return left


def test_leaving_with_unsaved_edits_asks_save_discard_or_cancel(tmp_path):
    view = EditorView(Editor("rope"))
    left = _leaving(view)
    view.key("escape")
    assert left == ["left"]  # nothing to save: it leaves at once
    left.clear()
    view.editor.place("rope_star", x=100, y=100)
    view.editor.select()
    view.key("escape")
    assert view.prompt is not None and left == [] and "unsaved" in view.message[0]
    view.key("escape")  # cancel: keep editing
    assert view.prompt is None and left == [] and view.editor.dirty
    view.key("escape")
    (discard,) = [b for b in view.prompt.buttons(view.panel_rect()) if b.action == "discard"]
    view.press(discard.x + 5, discard.y + 5)
    assert left == ["left"] and view.prompt is None
    left.clear()
    view.editor.path = tmp_path / "mine.toml"
    view.leave(why="close the window")
    view.key("s")
    assert left == ["left"] and not view.editor.dirty and view.editor.path.exists()


def test_the_window_paints_its_picture_again_only_when_it_changes():
    from ecsgoo.app.headless import offscreen_window

    view = EditorView(Editor("rope", level=1))
    window = offscreen_window(view.size)
    view.draw(window)
    view.draw(window)
    view.move(*_screen(view, 30, 30))  # over the level, lighting nothing up
    view.draw(window)
    assert view.still.paints == 1
    view.editor.select(0)
    view.draw(window)
    view.editor.move(10, 0)
    view.draw(window)
    view.draw(window)
    assert view.still.paints == 3


def test_a_click_on_a_choice_field_takes_its_next_value():
    view = EditorView(Editor("rope"))
    _tool(view, "rigid_box")
    _click(view, 200, 200)
    ed = view.editor
    (row,) = [b for name, _, b in view.panel_rows() if name == "kind"]
    for want in ("static", "kinematic", "dynamic"):
        view.press(row.x + 5, row.y + 5)
        assert ed.fields(ed.selection[0])["kind"] == want


def test_e_in_a_game_edits_the_level_at_hand_and_esc_goes_to_its_level_select(tmp_path):
    import arcade

    from ecsgoo.app.window import PlayerWindow
    from games.rope.game import RopeGame

    win = PlayerWindow(RopeGame(level=2), None)
    try:
        win.on_key_press(arcade.key.E, 0)
        assert win.player is None and win.editor.editor.opened == "bundled level 2"
        win.on_draw()
        win.on_key_press(arcade.key.ESCAPE, 0)  # nothing edited: leaves at once
        assert win.editor is None and win.launcher.screen == "rope"
        mine = Editor("rope")
        mine.place("rope_candy", x=300, y=300)
        path = mine.save(tmp_path / "mine.toml")
        win.start("rope", 1, RopeGame.custom_level(path=path))
        win.on_key_press(arcade.key.E, 0)  # a level of the user's: that file
        assert win.editor.editor.path == path and win.editor.editor.things == mine.things
    finally:
        win.close()


def test_the_mouse_turns_and_sizes_with_the_handles_and_keys_copy_delete_and_snap():
    import math

    view = EditorView(Editor("rope"))
    ed = view.editor
    _tool(view, "rigid_box")
    _click(view, 300, 300)
    _tool(view, "select")
    _click(view, 300, 300)
    f = view.fit()
    handles = view._handles(f)
    hx, hy = handles["rotate"]  # above the box: drag it a quarter turn round to the left
    cx, cy = _screen(view, 300, 300)
    r = math.hypot(hx - cx, hy - cy)
    view.press(hx, hy)
    view.drag_to(cx - r, cy)
    view.release(cx - r, cy)
    assert ed.fields(0)["angle"] == pytest.approx(math.pi / 2)
    sx, sy = view._handles(view.fit())["scale"]  # the corner, dragged twice as far out
    view.press(sx, sy)
    view.drag_to(cx + 2 * (sx - cx), cy + 2 * (sy - cy))
    view.release(cx + 2 * (sx - cx), cy + 2 * (sy - cy))
    assert ed.fields(0)["width"] == pytest.approx(80.0)
    view.key("d", ctrl=True)
    assert len(ed.things) == 2 and ed.selection == [1]
    assert ed.fields(1)["x"] == ed.fields(0)["x"] + 20
    view.key("delete")
    assert len(ed.things) == 1
    view.key("g")
    assert not view.snap
    ed.select(0)
    view.key("right")  # a nudge of 1 px off the grid, 10 on it
    assert ed.fields(0)["x"] == 301


def test_ctrl_z_and_ctrl_y_undo_and_redo_in_the_window():
    view = EditorView(Editor("rope"))
    _tool(view, "particle")
    _click(view, 200, 200)
    _click(view, 300, 200)
    ed = view.editor
    view.key("z", ctrl=True)
    assert len(ed.things) == 1
    view.key("y", ctrl=True)
    assert len(ed.things) == 2


@pytest.mark.parametrize("game", ["rope", "goo", "suika", "jelly"])
def test_every_tool_fits_the_strip_without_covering_another(game):
    from ecsgoo.editor.view import FOOT, STRIP, TOP
    from ecsgoo.editor.window import editor_size

    ed = Editor(game)
    view = EditorView(ed, editor_size(ed))
    buttons = view.tools()
    assert len(buttons) == len(ed.placeable()) + 6
    for b in buttons:
        assert 0 <= b.x and b.x + b.w <= STRIP and FOOT <= b.y
        assert b.y + b.h <= view.size[1] - TOP and len(b.label) <= 24
    rows = sorted((b.y, b.y + b.h) for b in buttons)
    assert all(top <= nxt for (_, top), (nxt, _) in zip(rows, rows[1:], strict=False))
