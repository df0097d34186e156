"""The framework's pieces the API grew: a rigid body's kind, a sensor on a body, a level
segment's and polygon's surface (``editor.pieces``)."""

from __future__ import annotations

import json

import pytest

from ecsgoo import saving
from ecsgoo.components import Anchor
from ecsgoo.editor import Editor
from ecsgoo.errors import WorldError
from ecsgoo.rigid import RigidBody
from ecsgoo.saving.placed import Placed
from ecsgoo.sensors import Sensor


def _body(ed: Editor, t: int) -> int:
    (e,) = [e for e in ed.built[t].entities if ed.world.has_component(e, RigidBody)]
    return e


def test_a_rigid_body_is_dynamic_static_or_kinematic():
    ed = Editor("rope")
    kinds = {k: ed.place(shape, x=100 + 80 * i, y=300, kind=k)
             for i, (k, shape) in enumerate((("dynamic", "rigid_box"),
                                             ("static", "rigid_circle"),
                                             ("kinematic", "rigid_polygon")))}
    w = ed.world
    for kind, t in kinds.items():
        e = _body(ed, t)
        assert w.has_component(e, Anchor) == (kind == "static")
        assert w.component(e, RigidBody).kind == ("kinematic" if kind == "kinematic"
                                                  else "dynamic")
    with pytest.raises(WorldError, match="field kind must be one of"):
        ed.set("kind", "wobbly", things=[kinds["static"]])
    ed.set("kind", "kinematic", things=[kinds["dynamic"]])
    assert ed.world.component(_body(ed, kinds["dynamic"]), RigidBody).kind == "kinematic"


def test_a_level_saved_with_the_first_static_field_opens_with_its_kind(tmp_path):
    ed = Editor("rope")
    ed.place("rigid_box", x=100, y=300, kind="static")
    path = ed.save(tmp_path / "new.toml")
    old = path.read_text().replace('\\"kind\\":\\"static\\"', '\\"static\\":true')
    assert old != path.read_text()
    (tmp_path / "old.toml").write_text(old)
    again = Editor(tmp_path / "old.toml")
    assert again.fields(again.parts)["kind"] == "static" and "static" not in again.fields(0)
    again.move(10, 0, things=[again.parts])  # moved: still pinned
    assert again.world.has_component(_body(again, again.parts), Anchor)


def test_level_geometry_keeps_its_surface_through_edits_and_the_file(tmp_path):
    ed = Editor("rope")
    seg = ed.place("segment", x=100, y=100, to=[300, 100], friction=0.2, restitution=0.5,
                   layer=2)
    poly = ed.place("polygon", x=500, y=100, friction=1.5)
    plain = ed.place("segment", x=100, y=200, to=[300, 200])
    level = ed.world.level
    assert level.line_surfaces[-2:] == [(0.2, 0.5, 2), (None, None, 1)]
    assert level.poly_surfaces[-1] == (1.5, None, 1)
    ed.move(0, 10, things=[plain])  # remade alone: the others keep theirs
    ed.delete(things=[poly])
    ed.undo()
    level = ed.world.level
    assert level.line_surfaces[-2:] == [(0.2, 0.5, 2), (None, None, 1)]
    assert level.poly_surfaces[-1] == (1.5, None, 1)
    back = saving.load(ed.save(tmp_path / "s.toml"))
    assert back.level.line_surfaces[-2:] == [(0.2, 0.5, 2), (None, None, 1)]
    with pytest.raises(WorldError, match="restitution"):
        ed.set("restitution", 2.0, things=[seg])
    ed.set("friction", None, things=[seg])
    assert ed.world.level.line_surfaces[-2] == (None, 0.5, 2)


def test_a_sensor_on_a_body_follows_it_and_is_remade_with_it():
    ed = Editor("rope")
    box = ed.place("rigid_box", x=200, y=300, width=60, height=30)
    sensor = ed.place("sensor_on", x=210, y=300, width=20, height=20, dx=5.0)
    (s,) = [e for e in ed.built[sensor].entities if ed.world.has_component(e, Sensor)]
    assert ed.world.component(s, Sensor).on == _body(ed, box)
    ed.move(40, 0, things=[box])  # the sensor (read what lay under it) is made again
    (s,) = [e for e in ed.built[sensor].entities if ed.world.has_component(e, Sensor)]
    assert ed.world.component(s, Sensor).on == _body(ed, box)
    with pytest.raises(WorldError, match="sensor_on.*field x"):
        ed.place("sensor_on", x=700, y=500)
    placed = saving.loads(ed.text()).resource(Placed)
    assert json.loads(placed.fields[1])["dx"] == 5.0


def test_a_sensor_on_a_body_is_one_part_with_it_moved_and_copied_together():
    from ecsgoo import World, systems

    w = World().use(*(s() for s in systems.SOLVER))
    body = w.create_entity(RigidBody.box(300, 200, 60, 30, angle=0.5))
    w.create_entity(Sensor.box(10, 0, 20, 20, on=body))
    ed = Editor(w)
    assert ed.parts == 1 and len(ed.built[0].entities) == 2
    x0, y0, x1, y1 = ed.built[0].box
    assert 250 < x0 and x1 < 350 and 160 < y0 and y1 < 240  # round the body, not (0, 0)
    ed.move(50, 0, things=[0])
    (copy,) = ed.duplicate(0, 100, things=[0])
    w = ed.world
    sensors = {e: w.component(e, Sensor) for e in w.entities() if w.has_component(e, Sensor)}
    assert sorted((s.x, s.y) for s in sensors.values()) == [(10, 0), (10, 0)]  # its frame
    hosts = sorted(s.on for s in sensors.values())
    assert len(set(hosts)) == 2 and all(w.has_component(h, RigidBody) for h in hosts)
    assert w.component(hosts[0], RigidBody).x == pytest.approx(350)
