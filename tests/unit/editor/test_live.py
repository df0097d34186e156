"""The edited world follows each operation by remaking only what changed
(``ecsgoo.editor.build.Live``), looks as the full build of the level does, and the level
knows whether it is saved (``Editor.dirty``)."""

from __future__ import annotations

import random

import pytest
from test_editor import _random_op

from ecsgoo import WorldError
from ecsgoo.components import Spring
from ecsgoo.editor import Editor


def _looks(world) -> tuple:
    """What a world holds, ids aside: particles, bodies, links and the level geometry."""
    p, b = world.particles, world.bodies
    return (sorted(zip(p.pos[:, 0].round(9), p.pos[:, 1].round(9), p.radius, strict=True)),
            sorted(zip(b.pos[:, 0].round(9), b.pos[:, 1].round(9), b.angle.round(9),
                       strict=True)),
            len(world.springs), len(world.joints), len(world.areas), len(world.shapes),
            world.level.lines, world.level.polygons)


def _grid(ed: Editor, n: int) -> list[int]:
    return ed.place_many([("rigid_box" if k % 2 else "particle",
                           {"x": 40.0 + 30 * (k % 20), "y": 40.0 + 30 * (k // 20)})
                          for k in range(n)])


def test_an_edit_remakes_only_the_thing_it_changed():
    ed = Editor("jelly")
    things = _grid(ed, 60)
    before = [ed.built[t].entities for t in things]
    ed.move(5, 0, things=[things[10]])
    after = [ed.built[t].entities for t in things]
    assert [k for k in range(60) if after[k] != before[k]] == [10]
    ed.undo()
    before = [ed.built[t].entities for t in things]
    ed.delete(things=[things[30]])
    assert [ed.built[t].entities for t in things[:30]] == before[:30]
    assert [ed.built[t].entities for t in things[30:59]] == before[31:]


def test_a_spring_after_a_moved_particle_is_tied_again():
    ed = Editor("jelly")
    a = ed.place("particle", x=200, y=300)
    ed.place("particle", x=260, y=300)
    s = ed.place("spring", x=200, y=300, to=[260, 300])
    ed.move(4, 0, things=[a])
    (spring,) = ed.built[s].entities
    assert ed.world.component(spring, Spring).a == ed.built[a].entities[0]


def test_the_edited_world_looks_like_the_level_built_in_full():
    ed = Editor("rope")
    rng = random.Random(7)
    done = 0
    while done < 40:
        try:
            _random_op(ed, rng)
        except WorldError:
            continue
        done += 1
        full = ed._live.full(ed._state)[0]
        try:
            assert _looks(ed.world) == _looks(full)
        finally:
            full.close()


def test_dirty_says_whether_the_level_is_saved(tmp_path):
    ed = Editor("rope")
    assert not ed.dirty
    ed.place("rope_star", x=100, y=100)
    assert ed.dirty
    ed.undo()
    assert not ed.dirty
    ed.redo()
    path = ed.save(tmp_path / "mine.toml")
    assert not ed.dirty and not Editor(path).dirty
    ed.move(10, 0, things=[0])
    assert ed.dirty


def test_a_link_a_piece_did_not_declare_is_caught_by_building_in_full():
    from dataclasses import replace

    ed = Editor("jelly")
    ed.pieces["linker"] = replace(ed.piece("spring"), kind="linker", reads=False)
    ed.place("particle", x=200, y=300)
    b = ed.place("particle", x=260, y=300)
    ed.place("linker", x=200, y=300, to=[260, 300])
    text = ed.text()
    with pytest.raises(WorldError, match=r"linker.*\bto\b"):  # its spring went along:
        ed.delete(things=[b])  # built in full, where the linker finds no particle at `to`
    assert ed.text() == text and _looks(ed.world) == _looks(ed._live.full(ed._state)[0])
