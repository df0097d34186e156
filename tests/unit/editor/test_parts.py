"""A bundled level's content in the editor: parts selected, moved, turned, copied, deleted
and set like placed things, undone to the same file (``ecsgoo.editor.parts``)."""

from __future__ import annotations

import math
import random

import pytest

from ecsgoo import WorldError, saving
from ecsgoo.components import Particle
from ecsgoo.editor import Editor
from ecsgoo.rigid import RigidBody
from ecsgoo.sensors import Sensor


def _bundled(ed: Editor) -> bytes:
    return ed.game.level_file(int(ed.opened.split()[-1])).read_bytes()


def _star(ed: Editor) -> int:
    return next(t for t in range(ed.parts) if ed.title(t).startswith("opened: rope_star"))


def test_every_part_of_a_bundled_level_is_under_its_own_centre():
    ed = Editor("rope", level=1)
    for t in range(ed.parts):
        f = ed.fields(t)
        assert ed.thing_at(f["x"], f["y"]) == t


def test_a_bundled_star_moves_with_its_sensor_and_undoes_to_the_file():
    ed = Editor("rope", level=1)
    t = _star(ed)
    (e,) = ed.built[t].entities
    x, y = ed.world.component(e, Sensor).x, ed.world.component(e, Sensor).y
    ed.select_at(x, y)
    ed.move(15, -5)
    assert ed.selection == [t] and ed.dirty
    assert (ed.world.component(e, Sensor).x, ed.world.component(e, Sensor).y) == (x + 15, y - 5)
    assert "x = 415.0" in ed.text()
    ed.undo()
    assert not ed.dirty and ed.text().encode() == _bundled(ed)


def test_a_part_turns_about_its_centre_particles_and_all():
    ed = Editor("jelly", level=1)
    box = next(t for t in range(ed.parts) if "shape" in ed.title(t) and "area" not in
               ed.title(t))
    cx, cy = ed.fields(box)["x"], ed.fields(box)["y"]
    first = ed.built[box].entities[0]
    px, py = (ed.world.component(first, Particle).x, ed.world.component(first, Particle).y)
    ed.rotate(math.pi / 2, things=[box])
    p = ed.world.component(first, Particle)
    assert (p.x, p.y) == pytest.approx((cx - (py - cy), cy + (px - cx)))
    with pytest.raises(WorldError, match="scale"):
        ed.scale(2.0, things=[box])


def _ties(world, entities, candy):
    """The springs among ``entities`` tied to ``candy``."""
    from ecsgoo import Spring

    return [world.component(e, Spring) for e in entities if world.has_component(e, Spring)
            and candy in (world.component(e, Spring).a, world.component(e, Spring).b)]


def test_each_rope_of_the_candy_is_a_part_and_a_copy_ties_to_the_same_candy():
    import math

    from ecsgoo import Particle

    ed = Editor("rope", level=3)
    ropes = [t for t in range(ed.parts) if ed.title(t).startswith("opened: rope_rope")]
    (candy,) = [t for t in range(ed.parts) if ed.title(t).startswith("opened: rope_candy")]
    assert len(ropes) == 3 and len(ed.built[candy].entities) == 1
    (candy_e,) = ed.built[candy].entities
    (copy,) = ed.duplicate(0, -40, things=[ropes[0]])
    world = saving.loads(ed.text())
    (tie,) = _ties(world, ed.built[copy].entities, candy_e)  # the copy is tied to the candy
    a, b = world.component(tie.a, Particle), world.component(tie.b, Particle)
    assert tie.rest == pytest.approx(math.hypot(b.x - a.x, b.y - a.y))  # reaches, no pull
    assert len([c for e in world.entities() for c in world.components_for_entity(e)
                if type(c).__name__ == "Rope"]) == 4
    ed.delete(things=[ropes[1]])
    game = ed.play_test()
    for _ in range(60):
        game.step()
    assert game.status().result == "running"  # the candy still hangs from three ropes
    ed.move(0, 30, things=[candy])  # the candy moved: each rope's tie reaches it
    world = saving.loads(ed.text())
    left = [t for t in range(ed.parts) if ed.title(t).startswith("opened: rope_rope")]
    assert len(left) == 3
    for t in left:
        (tie,) = _ties(world, ed.built[t].entities, candy_e)
        a, b = world.component(tie.a, Particle), world.component(tie.b, Particle)
        assert tie.rest == pytest.approx(math.hypot(b.x - a.x, b.y - a.y))
    for _ in range(3):
        assert ed.undo()
    assert ed.text().encode() == _bundled(ed)


def test_goo_crawlers_go_with_the_structure_they_crawl_on():
    from ecsgoo import Particle

    ed = Editor("goo", level=1)
    (structure,) = [t for t in range(ed.parts) if "springs" in ed.title(t)]
    world = ed.world
    crawlers = [e for e in ed.built[structure].entities
                if any(getattr(c, "link", 0) for c in world.components_for_entity(e))]
    assert len(crawlers) == 8
    before = {e: (world.component(e, Particle).x, world.component(e, Particle).y)
              for e in crawlers}
    ed.move(20, 0, things=[structure])
    world = ed.world
    for e, (x, y) in before.items():
        p = world.component(e, Particle)
        assert (p.x, p.y) == pytest.approx((x + 20, y))
    ed.delete(things=[structure])
    assert not any(ed.world.entity_exists(e) for e in crawlers)


def test_a_part_has_its_place_as_fields_and_its_components_fields():
    ed = Editor("rope", level=1)
    t = _star(ed)
    (e,) = ed.built[t].entities
    ed.set("x", 300.0, things=[t])
    assert ed.fields(t)["x"] == pytest.approx(300.0)
    with pytest.raises(WorldError, match=r"\bradius\b"):
        ed.set("radius", 20.0, things=[t])
    ed.set(e, Sensor, "radius", 25.0)  # the component's own field, in the base
    assert ed.world.component(e, Sensor).radius == 25.0
    with pytest.raises(WorldError, match=r"\bradius\b"):
        ed.set(e, "sensor", "radius", -3.0)
    with pytest.raises(WorldError, match="has no RigidBody"):
        ed.set(e, RigidBody, "mass", 2.0)
    candy = next(e for e in ed.built[0].entities
                 if getattr(ed.world.try_component(e, Particle), "mass", None) == 4.0)
    ed.set(candy, "particle", "mass", 5.0)  # a built-in by its file name
    assert ed.world.component(candy, Particle).mass == 5.0
    with pytest.raises(WorldError, match=r"\bmass\b"):
        ed.set(candy, Particle, "mass", -1.0)


def test_set_on_a_placed_things_entity_sets_its_pieces_field():
    ed = Editor("rope")
    t = ed.place("rigid_box", x=100, y=100)
    (e,) = ed.built[t].entities
    ed.set(e, RigidBody, "width", 80)
    assert ed.fields(t)["width"] == 80
    (e,) = ed.built[t].entities  # made again by the edit: a new entity
    assert ed.world.component(e, RigidBody).size[0] == 80
    with pytest.raises(WorldError, match="no field 'radius'"):
        ed.set(e, RigidBody, "radius", 3)


def _random_op(ed: Editor, rng: random.Random) -> None:
    n = len(ed.things)
    ed.select(rng.sample(range(n), rng.randint(1, min(2, n))))
    op = rng.choice(["place", "move", "move", "rotate", "duplicate", "delete", "delete", "set"])
    if op == "place":
        ed.place(rng.choice(["particle", "rigid_box", "segment", "sensor"]),
                 x=rng.uniform(50, 750), y=rng.uniform(50, 550))
    elif op == "move":
        ed.move(rng.uniform(-50, 50), rng.uniform(-50, 50))
    elif op == "rotate":
        ed.rotate(rng.uniform(-3, 3))
    elif op == "duplicate":
        ed.duplicate()
    elif op == "delete" and len(ed.things) > 3:
        ed.delete()
    elif op == "set":
        ed.set("y", rng.uniform(50, 550), things=ed.selection[:1])


@pytest.mark.parametrize("game", ["rope", "goo", "jelly"])
def test_a_hundred_random_operations_on_a_bundled_level_undo_to_its_file(game):
    ed = Editor(game, level=1)
    rng = random.Random(2028)
    done = on_parts = 0
    while done < 100:
        before = len(ed._past)
        try:
            _random_op(ed, rng)
        except WorldError:
            continue
        changed = len(ed._past) > before
        done += changed
        on_parts += changed and ed._past[-1][0] != ed._state[0]  # the base: a part changed
    assert on_parts >= 15 and ed.dirty
    for _ in range(100):
        assert ed.undo()
    assert not ed.dirty and ed.text().encode() == _bundled(ed)


def test_deleted_and_copied_level_pieces_keep_their_surfaces():
    from ecsgoo import World
    from ecsgoo.editor.parts import copy_parts, delete_parts, find_parts

    w = World()
    for k in range(3):
        w.add_segment((0, 10 * k), (50, 10 * k), friction=0.1 * (k + 1), layer=1 << k)
    w.add_polygon([(0, 0), (10, 0), (0, 10)], restitution=0.5)
    parts = find_parts(w)
    segs = [p for p in parts if p.lines]
    copy, made = copy_parts(w, [segs[2], parts[-1]], lambda x, y: (x + 100, y))
    assert copy.level.line_surfaces[3:] == [w.level.line_surfaces[2]]
    assert copy.level.poly_surfaces == [(None, 0.5, 1)] * 2
    delete_parts(w, [segs[1]])
    assert w.level.line_surfaces == [(0.1, None, 1), (0.1 * 3, None, 4)]
    assert w.level.seg_layer.tolist() == [1, 4, 1, 1, 1]
