"""Sensors: regions that push nothing, keep who is inside, and say who came and went."""

from __future__ import annotations

import math

import numpy as np
import pytest
import spy

from ecsgoo import Particle, Sensor, World, WorldError, dumps, loads, sensors, systems
from ecsgoo.bodies import jelly_ball
from ecsgoo.errors import WorldFileError
from ecsgoo.limits import MAX_OUTLINE_POINTS
from events import continued, record

EVENTS = {"sensor_entered": "in", "sensor_left": "out"}


def _world() -> tuple[World, list]:
    w = World(gravity=(0, 0), bounds=None, damping=1.0).use(*(s() for s in systems.SOLVER))
    return w, record(w, **EVENTS)


@pytest.mark.parametrize("make", [lambda: Sensor.box(300, 100, 100, 100),
                                  lambda: Sensor.circle(300, 100, 50),
                                  lambda: Sensor.polygon([(250, 50), (350, 50), (350, 150),
                                                          (250, 150)])])
def test_a_particle_passing_through_enters_once_and_leaves_once(make):
    w, log = _world()
    s = w.create_entity(make())
    e = w.create_entity(Particle(100, 100, radius=5, vx=300))
    for _ in range(90):
        w.step()
    assert log == [("in", s, e), ("out", s, e)]
    p = w.component(e, Particle)
    assert p.vx == pytest.approx(300) and p.y == pytest.approx(100), "it pushes nothing"
    assert w.component(s, Sensor).inside == []


def test_inside_is_what_overlaps_now_and_a_resting_body_does_not_flicker():
    w, log = _world()
    s = w.create_entity(Sensor.box(400, 300, 200, 200))
    a = w.create_entity(Particle(400, 300))
    b = w.create_entity(Particle(506, 300, radius=8))  # its disc reaches the box's edge
    w.create_entity(Particle(700, 300))
    ball = jelly_ball(w, 330, 300, radius=40)
    for _ in range(30):
        w.step()
    inside = w.component(s, Sensor).inside
    assert a in inside and b in inside and ball.constraint in inside
    assert len([x for x in log if x[2] == a]) == 1, "entered once, no flicker"


def test_a_deleted_entity_leaves_at_once_and_saves_cleanly():
    w, log = _world()
    s = w.create_entity(Sensor.circle(0, 0, 30))
    e = w.create_entity(Particle(0, 0))
    w.step()
    w.delete_entity(e)
    assert log[-1] == ("out", s, e) and w.component(s, Sensor).inside == []
    loads(dumps(w))


def test_sensors_save_and_keep_dispatching_the_same_events():
    w, log = _world()
    w.create_entity(Sensor.box(300, 100, 100, 100))
    w.create_entity(Particle(200, 100, radius=5, vx=300))
    w.step(15)
    original, loaded = continued(w, log, 60, **EVENTS)
    assert loaded == original and loaded


def test_masks_and_bad_shapes():
    w, log = _world()
    w.create_entity(Sensor.box(0, 0, 100, 100, mask=0b10))
    w.create_entity(Particle(0, 0))
    w.step()
    assert log == [], "by default particles are on layer 1"
    with pytest.raises(WorldError, match="width"):
        Sensor.box(0, 0, -1, 5)
    with pytest.raises(WorldError, match="radius"):
        Sensor.circle(0, 0, 0)
    with pytest.raises(WorldError, match="no area"):
        Sensor.polygon([(0, 0), (1, 1), (2, 2)])
    with pytest.raises(WorldError, match="finite"):
        Sensor.circle(float("nan"), 0, 1)


def test_a_sensor_sees_a_rigid_body_pass_through():
    from ecsgoo import Anchor, RigidBody

    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    got = record(w, sensor_entered="in", sensor_left="out")
    s = w.create_entity(Sensor.box(400, 150, 200, 10))
    w.create_entity(RigidBody.box(400, 10, 800, 20), Anchor())
    plank = w.create_entity(RigidBody.box(400, 300, 150, 8))  # wider than nothing: edges cross
    w.step(15)
    assert got == []
    w.step(60)
    assert got == [("in", s, plank), ("out", s, plank)]
    assert w.component(s, Sensor).inside == []


def _inside_after_a_step(sensor: Sensor, body) -> list[int]:
    from ecsgoo import Anchor

    w = World(gravity=(0, 0), bounds=None).use(*(s() for s in systems.SOLVER))
    s = w.create_entity(sensor)
    w.create_entity(body, Anchor())
    w.step()
    return w.component(s, Sensor).inside


@pytest.mark.parametrize("sensor", [
    Sensor.box(401.0, 305.0, 0.5, 0.5),                    # on the edge between two 2-px samples
    Sensor.circle(401.0, 305.2, 0.3),                      # likewise, a hair's breadth off it
    Sensor.polygon([(399, 290), (401, 290), (401, 320), (399, 320)]),  # across: no corner inside
    Sensor.box(400.0, 300.0, 2e6, 2e6),                    # far around it
    Sensor.box(400.0, 300.0, 1.0, 1.0),                    # deep inside it
])
def test_a_sensor_finds_a_body_piece_exactly(sensor):
    from ecsgoo import RigidBody

    assert len(_inside_after_a_step(sensor, RigidBody.box(400, 300, 200, 10))) == 1


@pytest.mark.parametrize("sensor", [Sensor.box(400.0, 306.0, 0.5, 0.5),
                                    Sensor.circle(400.0, 305.5, 0.4),
                                    Sensor.polygon([(0, 0), (10, 0), (5, 10)])])
def test_a_sensor_near_a_body_but_apart_finds_nothing(sensor):
    from ecsgoo import RigidBody

    assert _inside_after_a_step(sensor, RigidBody.box(400, 300, 200, 10)) == []


@pytest.mark.parametrize("sensor", [
    Sensor.box(0.0, 0.0, 3e6, 3e6),
    Sensor.polygon([(-1e6, -1e6), (1e6, -1e6), (0.0, 0.0)]),
])
def test_a_body_a_million_pixels_wide_costs_its_edges_not_its_length(sensor):
    """The edges were sampled every 2 px: 2 million points a frame for this body, and
    times a polygon sensor's edges in memory (gigabytes); exact edges cost 4 × k."""
    from ecsgoo import RigidBody

    assert len(_inside_after_a_step(sensor, RigidBody.box(0, 0, 1e6, 1e6))) == 1


def test_a_sensor_outline_has_at_most_the_outline_limit():
    ring = [(100 * math.cos(k / 50), 100 * math.sin(k / 50))
            for k in range(MAX_OUTLINE_POINTS + 1)]
    w = World()
    w.create_entity(Sensor.polygon(ring[:-1]))
    assert loads(dumps(w))  # the most points save and load
    with pytest.raises(WorldError, match="3 to 256"):
        Sensor.polygon(ring)
    points = ", ".join(f"[{x!r}, {y!r}]" for x, y in ring)
    with pytest.raises(WorldFileError, match=r"^f.toml: entity 1 \(sensor\).*3 to 256"):
        loads(f"format_version = 1\n[[entity]]\nid = 1\nsensor = {{ kind = 'polygon', "
              f"points = [{points}] }}\n", "f.toml")


@pytest.mark.parametrize("field, value", [
    ("width", 0.0), ("radius", -1.0), ("x", math.nan), ("y", 1e300), ("kind", "hexagon"),
    ("kind", "polygon"), ("mask", "x"), ("points", [(0, 0), (1, 1)]),
])
def test_writing_a_field_the_constructor_refuses_is_refused_and_changes_nothing(field, value):
    """Each was taken, then raised from inside the next step (IndexError for a polygon
    without points, ValueError from int() for the mask) or made the world unsaveable."""
    w, _ = _world()
    made = {"points": Sensor.polygon([(0, 0), (10, 0), (0, 10)]),
            "radius": Sensor.circle(50, 50, 10)}.get(field, Sensor.box(50, 50, 10, 10))
    s = w.create_entity(made)
    before = dumps(w)
    with pytest.raises(WorldError):
        setattr(w.component(s, Sensor), field, value)
    assert dumps(w) == before
    w.step()


def test_writing_good_fields_moves_and_reshapes_it():
    w, _ = _world()
    s = w.create_entity(Sensor.box(50, 50, 10, 10))
    e = w.create_entity(Particle(200, 200))
    sensor = w.component(s, Sensor)
    sensor.x, sensor.y, sensor.width = 200, 200, 20
    w.step()
    assert sensor.inside == [e] and type(sensor.x) is float
    sensor.points = [(0, 0), (10, 0), (0, 10)]
    sensor.kind = "polygon"
    w.step()
    assert sensor.inside == [] and loads(dumps(w)).component(s, Sensor).kind == "polygon"


def _star_body():
    """A concave star of 8 arms (outer radius 100 px, notches at 40 px) centred at
    (400, 300): cut into several convex pieces, whose edges a sensor tests at once."""
    from ecsgoo import RigidBody

    ring = [((100 if k % 2 == 0 else 40) * math.cos(math.pi * k / 8),
             (100 if k % 2 == 0 else 40) * math.sin(math.pi * k / 8)) for k in range(16)]
    body = RigidBody.polygon(400, 300, ring)
    assert len(body.pieces) > 2
    return body


_NOTCH = (400 + 70 * math.cos(math.pi / 8), 300 + 70 * math.sin(math.pi / 8))  # 17.7 px out


@pytest.mark.parametrize("sensor, found", [
    (Sensor.box(400, 300, 2, 2), True),                  # at the centre: inside a piece
    (Sensor.circle(499, 300, 2), True),                  # on an arm's tip
    (Sensor.box(*_NOTCH, 2, 2), False),                  # in a notch, between two arms
    (Sensor.circle(*_NOTCH, 15), False),
    (Sensor.circle(*_NOTCH, 20), True),                  # reaching the arms' edges
    (Sensor.polygon([(_NOTCH[0] - 1, _NOTCH[1]), (_NOTCH[0] + 1, _NOTCH[1]),
                     (_NOTCH[0], _NOTCH[1] + 1)]), False),
])
def test_a_concave_body_is_found_by_the_edges_of_all_its_pieces(sensor, found):
    assert bool(_inside_after_a_step(sensor, _star_body())) is found


@pytest.mark.parametrize("path", ["create_entity", "add_component", "create_entities",
                                  "clone", "loads"])
def test_a_sensor_made_after_a_sensor_free_stretch_senses_whatever_path_it_came_by(path):
    """A world with no sensor skips their look at a frame's end; one made by any path
    (and one whose last sensor went) is seen again."""
    w, log = _world()
    e = w.create_entity(Particle(0, 0))
    gone = w.create_entity(Sensor.circle(500, 500, 5))
    w.step()
    w.delete_entity(gone)
    w.step(3)  # no sensor now
    make = Sensor.circle(0, 0, 30)
    if path == "create_entity":
        s = w.create_entity(make)
    elif path == "add_component":
        s = w.create_entity()
        w.add_component(s, make)
    elif path == "create_entities":
        [s] = w.create_entities([make])
    else:
        s = w.create_entity(make)
        w = w.clone() if path == "clone" else loads(dumps(w))
        log = record(w, **EVENTS)
    w.step()
    assert log == [("in", s, e)]
    w.remove_component(s, Sensor)
    w.step()
    assert not w._has_any(Sensor)


def _count_full_looks(monkeypatch) -> list[int]:
    """``[count]`` of the full looks (``sensors.sense_all``) from now on."""
    from ecsgoo import sensors

    looks, plain = [0], sensors.sense_all

    def counted(world, shown):
        looks[0] += 1
        return plain(world, shown)

    monkeypatch.setattr(sensors, "sense_all", counted)
    return looks


def test_frames_with_nothing_inside_any_sensor_skip_the_full_look(monkeypatch):
    """Sensors that held nothing and hold nothing are known so from one kernel pass
    (``sensors._all_empty``): the same events as the full look every frame, and no full
    look while discs pass beside the sensors."""
    from ecsgoo import frame_end, sensors

    def run(shortcut: bool) -> tuple[list, int]:
        w, log = _world()
        boxes = [w.create_entity(Sensor.box(300 + 150 * k, 100, 60, 60)) for k in range(3)]
        w.create_entity(Sensor.circle(300, 400, 30, mask=2))
        for k in range(6):  # three cross the boxes' row, three pass above them
            w.create_entity(Particle(100, 100 + 90 * (k % 2) * 3, radius=5, vx=150.0 + 40 * k))
        looks = _count_full_looks(monkeypatch)
        if not shortcut:
            monkeypatch.setattr(sensors, "_all_empty", lambda world, found: False)
            monkeypatch.setattr(sensors, "_discs_seen", lambda world, found: None)
            monkeypatch.setattr(frame_end, "ENABLED", False)  # the one-call end asks too
        for _ in range(120):
            w.step()
        monkeypatch.undo()
        assert len({e for _, s, e in log if s in boxes}) == 3
        return log, looks[0]

    (fast, looked), (full, every) = run(True), run(False)
    assert fast == full and every >= 120 and 0 < looked <= every - 20


@pytest.mark.parametrize("seed", range(3))
def test_frames_where_the_sensors_hold_what_they_held_skip_the_full_look(monkeypatch, seed):
    """Discs that stay in a sensor frame after frame are known so from one kernel pass
    (``sensors._discs_seen``): the same events and the same ``inside`` lists as the full
    look every frame, through discs coming, going, resting inside, deleted while inside,
    a sensor moved, one added and a list written by hand; far fewer full looks."""
    from ecsgoo import frame_end, sensors

    def run(shortcut: bool) -> tuple[list, list, int]:
        rng = np.random.default_rng(seed)
        w, log = _world()
        boxes = [w.create_entity(Sensor.box(150 + 200 * k, 60, 160, 120)) for k in range(3)]
        discs = [w.create_entity(Particle(*rng.uniform([20, 20], [780, 180]), radius=6,
                                          vx=float(rng.normal(0, 40)))) for _ in range(30)]
        looks = _count_full_looks(monkeypatch)
        if not shortcut:
            monkeypatch.setattr(sensors, "_discs_seen", lambda world, found: None)
            monkeypatch.setattr(frame_end, "ENABLED", False)  # the one-call end asks too
        held = []
        for frame in range(240):
            if frame == 60:  # one inside a sensor
                w.delete_entity(next(e for e in discs for b in boxes
                                     if e in w.component(b, Sensor).inside))
            if frame == 90:
                w.component(boxes[1], Sensor).x += 40.0
            if frame == 120:
                boxes.append(w.create_entity(Sensor.circle(400, 40, 80)))
            if frame == 150:
                w.component(boxes[2], Sensor).inside = []  # by hand: found again, entered
            w.step()
            held.append([list(w.component(b, Sensor).inside) for b in boxes])
        monkeypatch.undo()
        return log, held, looks[0]

    (fast, fast_held, looked), (full, full_held, every) = run(True), run(False)
    assert fast == full and fast_held == full_held
    assert len(fast) > 10 and any(len(h) > 2 for frame in fast_held for h in frame)
    assert every >= 240 and looked < every / 2


@pytest.mark.parametrize("seed", range(3))
def test_what_the_lists_name_is_checked_through_rows_coming_and_going(monkeypatch, seed):
    """A quiet frame checks the pairs the ``inside`` lists name (``sensors._held_pairs``),
    not rows kept from a look: discs made and deleted (rows moved under those inside), a
    handler that makes or deletes one, a save and load mid-run, lists written out of
    order or naming what is not a particle give the same events and lists as the full
    look every frame."""
    from ecsgoo import frame_end, sensors

    def run(shortcut: bool) -> tuple[list, list]:
        rng = np.random.default_rng(seed)
        w = World(gravity=(0, 0), bounds=None, damping=1.0).use(*(s() for s in systems.SOLVER))
        boxes = [w.create_entity(Sensor.box(200 + 300 * k, 100, 200, 160)) for k in range(2)]
        now, log = [w], []

        def disc(x0: float = 20, x1: float = 780) -> None:
            now[0].create_entity(Particle(float(rng.uniform(x0, x1)),
                                          float(rng.uniform(20, 180)), radius=6,
                                          vx=float(rng.normal(0, 30))))

        def delete() -> None:
            discs = [e for e, _ in now[0].get_component(Particle)]
            if len(discs) > 10:
                now[0].delete_entity(int(rng.choice(discs)))

        def left(sensor: int, other: int) -> None:  # a game's handler: makes or deletes
            log.append(("out", sensor, other))
            disc(700, 780) if rng.random() < 0.5 else delete()

        def wire(world: World) -> None:
            world.set_handler("sensor_entered", lambda s, e: log.append(("in", s, e)))
            world.set_handler("sensor_left", left)

        for _ in range(25):
            disc()
        wire(w)
        if not shortcut:
            monkeypatch.setattr(sensors, "_discs_seen", lambda world, found: None)
            monkeypatch.setattr(frame_end, "ENABLED", False)  # the one-call end asks too
        held = []
        for frame in range(200):
            roll = rng.random()
            if roll < 0.05:
                disc()
            elif roll < 0.1:
                delete()
            if frame == 80:  # saved and loaded: its lists, nothing kept from a look
                w = now[0] = loads(dumps(w))
                wire(w)
            if frame == 120:
                sensor = w.component(boxes[0], Sensor)
                sensor.inside = sensor.inside[::-1]  # out of order: written anew, no event
            if frame == 140:
                w.component(boxes[1], Sensor).inside = [boxes[0]]  # not a particle: it left
            w.step()
            held.append([list(w.component(b, Sensor).inside) for b in boxes])
        monkeypatch.undo()
        return log, held

    (fast, fast_held), (full, full_held) = run(True), run(False)
    assert fast == full and fast_held == full_held
    assert len(fast) > 10 and ("out", 2, 1) in fast  # boxes[0], named in boxes[1] by hand
    assert any(len(h) > 1 for frame in fast_held[100:140] for h in frame[:1])


def test_discs_made_and_deleted_elsewhere_need_no_full_look(monkeypatch):
    """Sensors holding resting discs hold the same entities whatever rows come and go
    elsewhere: every frame ends in one call (no full look), the lists unchanged."""
    from ecsgoo import frame_end

    w, log = _world()
    box = w.create_entity(Sensor.box(100, 100, 100, 100))
    held = [w.create_entity(Particle(80 + 20 * k, 100, radius=5)) for k in range(3)]
    w.step()
    assert log == [("in", box, e) for e in held]
    looks = _count_full_looks(monkeypatch)
    far = []
    with spy.returns(frame_end, "quiet") as ended:
        for frame in range(30):
            if frame % 3 == 0:
                far.append(w.create_entity(Particle(500 + 10 * frame, 400, radius=4)))
            if frame % 5 == 4:  # the first row made: the last row moves into its place
                w.delete_entity(far.pop(0))
            w.step()
    assert looks[0] == 0 and ended == [True] * 30
    assert w.component(box, Sensor).inside == held and len(log) == 3


def test_the_sensors_pack_outlives_esper_listing_them_anew(monkeypatch):
    """A spawn elsewhere makes esper list the sensors anew; the same sensors keep their
    pack (``_packed`` is not made again), while a sensor replaced by another is packed anew
    and sensed where it is."""
    w, log = _world()
    box = w.create_entity(Sensor.box(100, 100, 100, 100))
    w.create_entity(Particle(100, 100, radius=5))
    w.step()
    made = []
    real = sensors._packed

    def packed(shown):
        made.append(len(shown))
        return real(shown)

    monkeypatch.setattr(sensors, "_packed", packed)
    for k in range(5):
        w.create_entity(Particle(500 + 20 * k, 400, radius=4))
        w.step()
    assert made == []
    w.remove_component(box, Sensor)
    w.add_component(box, Sensor.box(500, 400, 200, 60))  # over the spawned ones
    w.step()
    assert made and w.component(box, Sensor).inside
