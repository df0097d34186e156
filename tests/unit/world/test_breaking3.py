"""The third breaking round (issue 29): each case that got past a clear error, pinned.

World files, public World calls and saving; the progress file, environments, the
numba cache and evaluation have their own files (``test_breaking3_*``).
"""

from __future__ import annotations

import os
import stat
import tomllib

import esper
import pytest
import tomli_w

import ecsgoo
from ecsgoo import (
    Particle,
    Sensor,
    World,
    WorldError,
    WorldFileError,
    dumps,
    load,
    loads,
    save,
    systems,
)
from ecsgoo.app.games import discover
from ecsgoo.saving.columns import UNBACKED_ROWS

HEAD = "format_version = 1\n"


def _refused(text: str, *words: str) -> str:
    with pytest.raises(WorldFileError) as info:
        loads(text, "f.toml")
    message = str(info.value)
    assert message.startswith("f.toml:"), message
    for word in words:
        assert word in message, message
    return message


# -- world files ---------------------------------------------------------------------------

def test_an_integer_longer_than_python_converts_is_a_world_file_error():
    _refused(HEAD + "[world]\nframe = " + "9" * 5000 + "\n", "TOML")


@pytest.mark.parametrize("fields, field", [
    ("kind = 'box', x = 1.0, y = 1.0, width = 0.0, height = 5.0", "width"),
    ("kind = 'box', x = 1.0, y = 1.0, width = -5.0, height = 5.0", "width"),
    ("kind = 'box', x = 1e300, y = 1.0, width = 5.0, height = 5.0", "x"),
    ("kind = 'circle', x = 1.0, y = 1.0, radius = 0.0", "radius"),
    ("kind = 'hexagon', x = 1.0, y = 1.0, width = 5.0, height = 5.0", "kind"),
    ("kind = 'polygon', points = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]", "points"),
    ("kind = 'polygon', points = [[0.0, 0.0], [1.0, 0.0]]", "points"),
])
def test_a_sensor_the_constructors_refuse_is_refused_in_a_file(fields, field):
    _refused(HEAD + f"[[entity]]\nid = 1\nsensor = {{ {fields} }}\n", "entity 1 (sensor)",
             f"field {field}")


@pytest.mark.parametrize("make", [
    lambda: Sensor.box(1e300, 0, 10, 10), lambda: Sensor.box(0, 0, 0, 10),
    lambda: Sensor.circle(0, 0, -1), lambda: Sensor.polygon([(0, 0), (1e10, 0), (0, 1)]),
    lambda: Sensor("hexagon", width=5, height=5),
])
def test_the_sensor_constructors_refuse_the_same(make):
    with pytest.raises(WorldError):
        make()


def test_a_contact_state_missing_a_key_is_refused_at_load():
    w = World()
    w.use(*(s() for s in systems.SOLVER))
    w.create_entity(ecsgoo.RigidBody.box(400, 20, 300, 20), ecsgoo.Anchor())
    w.create_entity(ecsgoo.RigidBody.box(400, 39, 20, 20))
    w.step(5)
    doc = tomllib.loads(dumps(w))
    state = next(s["state"] for s in doc["pipeline"] if s["stage"] == "collide")
    assert state["frame_a"]  # the bodies touch: contacts to carry over
    del state["substep_lax"]
    _refused(tomli_w.dumps(doc), "collide", "substep_lax")


def test_a_contact_pair_with_one_id_is_refused_at_load():
    _refused(HEAD + "[resources]\ncontacts = { pairs = [[1]] }\n", "contacts", "pairs")


def test_a_merge_state_with_an_infinite_position_is_refused_at_load():
    text = (HEAD + "[[pipeline]]\nstage = 'merge'\nstate = { entities = [1], x = [inf], "
            "y = [0.0], fruit = [true] }\n[[entity]]\nid = 1\nparticle = { x = 1.0, y = 1.0 }\n")
    _refused(text, "merge", "state")
    _refused(text.replace("x = [inf]", "x = 5"), "merge")
    _refused(text.replace("fruit = [true]", "fruit = ['yes']"), "merge")


def _level(game: str, level: int) -> str:
    discover()
    return (ecsgoo.app.games.find_game(game).level_file(level)).read_text()


def test_a_game_resource_with_arrays_of_different_lengths_is_refused_at_load():
    text = _level("suika", 1).replace("watch = []", "watch = [5]")
    _refused(text, "suika_state", "one length")


def test_a_game_stage_without_the_state_it_requires_is_refused_at_load():
    discover()
    from games.goo.components import Goal
    world = load(ecsgoo.app.games.find_game("goo").level_file(1))
    (entity, _), = world.get_component(Goal)
    world.delete_entity(entity)
    _refused(dumps(world), "goo_", "needs an entity with a goo_goal component")


def test_a_rope_board_of_three_numbers_is_refused_at_load():
    text = _level("rope", 1)
    assert "view = [0.0, 0.0, 800.0, 600.0]" in text
    _refused(text.replace("view = [0.0, 0.0, 800.0, 600.0]", "view = [0.0, 800.0, 600.0]"),
             "view")


@pytest.mark.parametrize("table", ["particle", "body"])
def test_a_previous_position_saying_a_speed_beyond_the_limit_is_refused(table):
    shape = ", shape = 'box', size = [10.0, 10.0]" if table == "body" else ""
    h = 1 / 60 / 6
    row = "x = 100.0, y = 50.0, px = {px!r}, py = 50.0" + shape
    ok = HEAD + f"[[entity]]\nid = 1\n{table} = {{ {row.format(px=100.0 - 0.9e9 * h)} }}\n"
    loads(ok).step()
    _refused(ok.replace(repr(100.0 - 0.9e9 * h), "4194305.0"), f"entity 1 ({table})",
             "field px", "velocity")


def test_a_tiny_file_cannot_ask_for_millions_of_rows():
    text = HEAD + "[particles]\nentity = { from = 1, count = 4194304 }\nx = 1.0\ny = 2.0\n"
    _refused(text, "[particles]", "field entity", "4194304")
    small = loads(text.replace("4194304", str(UNBACKED_ROWS)))
    assert len(small.entities()) == UNBACKED_ROWS


def test_many_rows_of_one_value_save_as_a_file_that_loads():
    w = World()
    w.create_entities([Particle(1.0, 2.0) for _ in range(UNBACKED_ROWS + 1)])
    again = loads(dumps(w, compact=True))
    assert len(again.entities()) == UNBACKED_ROWS + 1


def test_an_id_at_the_largest_value_costs_no_work_per_skipped_id(monkeypatch):
    top = ecsgoo.limits.MAX_ENTITY_ID
    text = HEAD + f"[[entity]]\nid = {top}\nparticle = {{ x = 1.0, y = 2.0 }}\n"
    calls = []
    create = esper.create_entity
    monkeypatch.setattr(esper, "create_entity", lambda *c: calls.append(1) or create(*c))
    world = loads(text)
    again = loads(dumps(world))
    assert again.entities() == [ecsgoo.limits.MAX_ENTITY_ID]
    assert len(calls) <= 4  # the entity itself, in each load: not four million
    assert again.next_entity == ecsgoo.limits.MAX_ENTITY_ID + 1


@pytest.mark.parametrize("text", [
    HEAD + "[[entity]]\nid = 1\n" + "q" * 100_000 + " = {}\n",
    HEAD + "[[pipeline]]\nstage = '" + "q" * 100_000 + "'\n",
    HEAD + "[world]\n" + "q" * 100_000 + " = 1\n",
    HEAD + "[resources]\n" + "q" * 100_000 + " = 1\n",
    HEAD + "[[entity]]\nid = 1\nparticle = { x = 1.0, y = 2.0, " + "q" * 100_000 + " = 1 }\n",
    HEAD + "[[entity]]\nid = 1\nsensor = { kind = '" + "q" * 100_000 + "' }\n",
    HEAD + "[[entity]]\nid = 1\nbody = { shape = '" + "q" * 100_000 + "', size = [1.0], "
    "x = 1.0, y = 1.0 }\n",
])
def test_a_long_unknown_name_is_cut_short_in_the_message(text):
    """The message quoted the whole name: 100 KB of error for one long key."""
    assert len(_refused(text, "qqq...")) < 1000  # the known names may follow


# -- public World calls ----------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda w, e: w.has_component(e, Particle), lambda w, e: w.components_for_entity(e),
    lambda w, e: w.component(e, Particle), lambda w, e: w.remove_component(e, Particle),
    lambda w, e: w.add_component(e, ecsgoo.Anchor()), lambda w, e: w.delete_entity(e),
    lambda w, e: w.has_component("seven", Particle),
])
def test_per_entity_calls_on_a_deleted_entity_raise_world_error(call):
    w = World()
    e = w.create_entity(Particle(10, 10))
    w.delete_entity(e)
    with pytest.raises(WorldError, match="does not exist"):
        call(w, e)
    assert w.try_component(e, Particle) is None


def test_a_member_row_that_does_not_exist_is_world_error():
    from ecsgoo.bodies import jelly_ball  # not imported by ``import ecsgoo`` itself

    w = World()
    jelly_ball(w, 100, 100, radius=20, vertices=6)
    assert len(w.ring_members(0)) == 6
    for row in (1, -1, "0"):
        with pytest.raises(WorldError, match="no area row"):
            w.ring_members(row)


def test_a_component_the_entity_lacks_is_world_error():
    w = World()
    e = w.create_entity(Particle(10, 10))
    with pytest.raises(WorldError, match="has no Fruit"):
        w.remove_component(e, ecsgoo.Fruit)


# -- saving onto what is not a regular file --------------------------------------------------

def _world() -> World:
    w = World()
    w.create_entity(Particle(10, 10))
    return w


def test_save_refuses_a_fifo_and_leaves_it(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(WorldFileError, match="not a regular file"):
        save(_world(), fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe.toml"]


def test_save_refuses_a_directory(tmp_path):
    (tmp_path / "d.toml").mkdir()
    with pytest.raises(WorldFileError, match="a directory"):
        save(_world(), tmp_path / "d.toml")
    assert (tmp_path / "d.toml").is_dir()


def test_save_refuses_a_device_and_leaves_it(tmp_path):
    node = tmp_path / "null.toml"
    try:
        os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("cannot make a device node here (not root)")
    with pytest.raises(WorldFileError, match="not a regular file"):
        save(_world(), node)
    assert stat.S_ISCHR(os.stat(node).st_mode)


def test_save_through_a_symlink_to_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "link.toml").symlink_to(tmp_path / "pipe")
    with pytest.raises(WorldFileError, match="not a regular file"):
        save(_world(), tmp_path / "link.toml")


def test_save_writes_a_new_path_and_a_regular_file(tmp_path):
    save(_world(), tmp_path / "w.toml")
    save(_world(), tmp_path / "w.toml")
    assert len(load(tmp_path / "w.toml").entities()) == 1


# -- public calls with wrong kinds of values ------------------------------------------------


@pytest.mark.parametrize("mask", ["abc", 1.5, None, [1]])
@pytest.mark.parametrize("call", ["raycast", "raycast_all", "query_box", "query_point"])
def test_a_query_mask_that_is_not_a_whole_number_is_a_world_error(call, mask):
    w = _world()
    args = {"raycast": ((0, 0), (10, 10)), "raycast_all": ((0, 0), (10, 10)),
            "query_box": (0, 0, 10, 10), "query_point": (5, 5)}[call]
    with pytest.raises(WorldError, match=f"{call}: field mask must be a whole number"):
        getattr(w, call)(*args, mask=mask)
    getattr(w, call)(*args, mask=0b11)  # and a good one goes through


def test_a_read_only_or_unknown_field_of_a_component_in_a_world_is_a_world_error():
    from ecsgoo import Joint, RigidBody

    w = World(bounds=(0, 0, 400, 400)).use(*(s() for s in systems.SOLVER))
    a = w.create_entity(RigidBody.box(100, 100, 20, 20))
    b = w.create_entity(RigidBody.box(130, 100, 20, 20))
    joint = w.component(w.create_entity(Joint(a, b, 115, 100)), Joint)
    with pytest.raises(WorldError, match="Joint: field a is read-only: it is fixed when"):
        joint.a = b
    with pytest.raises(WorldError, match="Joint: field broken is read-only: the world"):
        joint.broken = True
    body = w.component(a, RigidBody)
    with pytest.raises(WorldError, match="RigidBody: no field 'frction' \\(fields: x, y"):
        body.frction = 0.0  # a typo: before, a new attribute nothing read
    joint.motor_speed = 2.0  # what is writable still is
    body.friction = 0.2
    assert body.friction == 0.2 and joint.a == a
