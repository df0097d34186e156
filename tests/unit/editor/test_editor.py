"""The level editor's operations, headless (``ecsgoo.editor.Editor``)."""

from __future__ import annotations

import math
import random

import pytest
from editor_levels import LEVEL_ONE

from ecsgoo import WorldError
from ecsgoo.editor import FRAMEWORK, Editor, user_levels_dir


@pytest.fixture
def rope_level():
    ed = Editor("rope")
    LEVEL_ONE["rope"](ed)
    return ed


def test_place_move_rotate_scale_duplicate_delete(rope_level):
    ed = rope_level
    box = ed.place("rigid_box", x=100, y=100, width=40, height=20)
    assert ed.selection == [box]
    ed.move(10, -5)
    assert (ed.fields(box)["x"], ed.fields(box)["y"]) == (110, 95)
    ed.rotate(math.pi / 2)
    assert ed.fields(box)["angle"] == pytest.approx(math.pi / 2)
    ed.scale(2.0)
    assert ed.fields(box)["width"] == 80
    (copy,) = ed.duplicate()
    assert ed.fields(copy)["x"] == 130 and ed.kind(copy) == "rigid_box"
    n = len(ed.things)
    ed.delete()
    assert len(ed.things) == n - 1 and ed.selection == []


def test_selecting_by_point_and_box(rope_level):
    ed = rope_level
    star = ed.thing_at(400, 322)
    assert ed.kind(star) == "rope_star"
    assert ed.select_at(650, 100) == [ed.things.index(("rope_monster", ed.fields(
        ed.select_at(650, 100)[0])))]
    picked = ed.select_box(560, 200, 700, 420)
    assert {ed.kind(t) for t in picked} == {"rope_star"} and len(picked) == 2
    assert ed.select_at(20, 580) == []


def test_undo_and_redo_step_through_every_operation(rope_level):
    ed = rope_level
    start = ed.text()
    ed.place("rope_star", x=100, y=100)
    ed.move(5, 5)
    after = ed.text()
    assert ed.undo() and ed.undo()
    assert ed.text() == start
    assert ed.redo() and ed.redo() and ed.text() == after
    assert not ed.redo()


def _random_op(ed: Editor, rng: random.Random) -> None:
    n = len(ed.things)
    if n:
        ed.select(rng.sample(range(n), rng.randint(1, min(3, n))))
    op = rng.choice(["place", "place", "move", "rotate", "scale", "duplicate", "delete", "set",
                     "level"])
    if op == "place" or not n:
        kind = rng.choice(["particle", "anchor", "jelly_ball", "soft_box", "rigid_box",
                           "rigid_circle", "rigid_polygon", "rope", "chain", "segment",
                           "polygon", "sensor", "rope_star", "rope_hook", "rope_monster"])
        ed.place(kind, x=rng.uniform(50, 750), y=rng.uniform(50, 550))
    elif op == "move":
        ed.move(rng.uniform(-50, 50), rng.uniform(-50, 50))
    elif op == "rotate":
        ed.rotate(rng.uniform(-3, 3))
    elif op == "scale":
        ed.scale(rng.uniform(0.5, 1.5))
    elif op == "duplicate":
        ed.duplicate()
    elif op == "delete":
        ed.delete()
    elif op == "set":
        t = ed.selection[0]
        ed.set("x", rng.uniform(50, 750), things=[t])
    else:
        ed.set_level("gravity", [0.0, rng.uniform(-1500, -100)])


def test_a_hundred_random_operations_then_a_hundred_undos_give_back_the_file(rope_level,
                                                                            tmp_path):
    ed = rope_level
    first = ed.save(tmp_path / "start.toml").read_bytes()
    rng = random.Random(28)
    done = 0
    while done < 100:
        before = len(ed._past)
        try:
            _random_op(ed, rng)
        except WorldError:
            continue  # refused (a hinge with nothing under it, a scale past a limit)
        done += len(ed._past) > before
    for _ in range(100):
        assert ed.undo()
    assert ed.save(tmp_path / "end.toml").read_bytes() == first


@pytest.mark.parametrize("piece", FRAMEWORK, ids=lambda p: p.kind)
def test_every_refused_value_names_its_field(piece):
    ed = Editor("rope")
    LEVEL_ONE["rope"](ed)
    fields = {}
    if piece.kind == "spring":  # between two particles
        ed.place("particle", x=200, y=300)
        ed.place("particle", x=260, y=300)
        fields = {"to": [260, 300]}
    elif piece.kind == "hinge":  # on two overlapping bodies
        ed.place("rigid_box", x=190, y=300)
        ed.place("rigid_box", x=210, y=300)
    elif piece.kind == "sensor_on":  # on a body
        ed.place("rigid_box", x=200, y=300)
    t = ed.place(piece.kind, x=200, y=300, **fields)
    text = ed.text()
    for field in piece.all_fields():
        bads = ["ten", float("nan"), -math.inf] if not isinstance(field.default, bool) else [3]
        if field.role in ("point", "outline"):
            bads = ["ten", [[1.0]], [[-math.inf, 0.0]]]
        for bad in bads:
            with pytest.raises(WorldError, match=rf"\b{field.name}\b"):
                ed.set(field.name, bad, things=[t])
            assert ed.text() == text  # refused: nothing changed


def test_a_bad_level_setting_is_refused_naming_it(rope_level):
    ed = rope_level
    with pytest.raises(WorldError, match="damping"):
        ed.set_level("damping", 2.0)
    with pytest.raises(WorldError, match="no setting"):
        ed.set_level("colour", 1)


def test_save_goes_to_the_users_folder_and_never_over_a_bundled_level(tmp_path):
    ed = Editor("rope", level=2)
    bundled = ed.game.level_file(2)
    before = bundled.read_bytes()
    ed.place("rope_star", x=100, y=100)
    path = ed.save()
    assert path.parent == user_levels_dir("rope") and path.name.startswith("level-")
    assert bundled.read_bytes() == before
    again = Editor(path)  # reopens as it was made: the same things, the same file
    assert again.things == ed.things and again.text() == ed.text()
    assert again.save() == path


@pytest.mark.parametrize("name", sorted(LEVEL_ONE))
def test_a_level_opened_and_saved_unchanged_is_the_same_file(name, tmp_path):
    ed = Editor(name, level=1)
    assert ed.path is None and not ed.dirty  # a bundled level: saves go elsewhere
    assert ed.parts == len(ed.things) > 0 and {k for k, _ in ed.things} == {"part"}
    assert ed.save(tmp_path / "same.toml").read_bytes() == ed.game.level_file(1).read_bytes()


def test_play_test_leaves_the_edit_exactly_as_it_was(rope_level):
    ed = rope_level
    text = ed.text()
    game = ed.play_test()
    for _ in range(60):
        game.step()
    assert game.world is not ed.world
    assert ed.text() == text


def test_a_goo_level_without_its_pipe_cannot_be_saved_yet(tmp_path):
    ed = Editor("goo")
    ed.place("goo_structure")
    assert "goo_goal" in ed.problem
    with pytest.raises(WorldError, match="cannot save yet"):
        ed.save(tmp_path / "x.toml")
    ed.place("goo_pipe")
    assert ed.problem is None
    ed.save(tmp_path / "x.toml")


def test_each_kind_of_operation_undoes_and_redoes_exactly_and_undo_reaches_150_back():
    from ecsgoo.sensors import Sensor

    ed = Editor("rope", level=1)
    box = ed.place("rigid_box", x=100, y=100)
    star = next(t for t in range(ed.parts) if "rope_star" in ed.title(t))
    (sensor,) = [e for e in ed.built[star].entities if ed.world.has_component(e, Sensor)]
    ops = {
        "place": lambda: ed.place("jelly_ball", x=500, y=200),
        "place_many": lambda: ed.place_many([("particle", {"x": 50, "y": 50}),
                                             ("segment", {"x": 10, "y": 10, "to": [90, 20]})]),
        "move": lambda: ed.move(5, 0, things=[box, star]),
        "rotate": lambda: ed.rotate(0.3, things=[box, star]),
        "scale": lambda: ed.scale(1.5, things=[box]),
        "duplicate": lambda: ed.duplicate(things=[box, star]),
        "delete": lambda: ed.delete(things=[star]),
        "set a field": lambda: ed.set("mass", 3.0, things=[box]),
        "set a part's component": lambda: ed.set(sensor, Sensor, "radius", 30.0),
        "set the level": lambda: ed.set_level("damping", 0.99),
    }
    for name, op in ops.items():
        before = ed.text()
        op()
        after = ed.text()
        assert after != before, name
        assert ed.undo() and ed.text() == before, name
        assert ed.redo() and ed.text() == after, name
        assert ed.undo() and ed.text() == before, name
    start = ed.text()
    for k in range(150):
        ed.move(1.0 if k % 2 else -2.0, 0.0, things=[box])
    for _ in range(150):
        assert ed.undo()
    assert ed.text() == start
