"""Sleeping: still islands sleep together, wake together, and cost little while asleep."""

import numpy as np
import pytest

import scenes
from ecsgoo import (
    Anchor,
    Fruit,
    Joint,
    Particle,
    RigidBody,
    Spring,
    World,
    dumps,
    loads,
    sleeping,
    systems,
)


def _stack(sleep: bool = True) -> tuple[World, list[int]]:
    """A static floor and a three-box tower on it."""
    w = World(bounds=None, sleep=sleep).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(0, -10, 400, 20), Anchor())
    boxes = [w.create_entity(RigidBody.box(0, 20 + 40 * k, 40, 40)) for k in range(3)]
    return w, boxes


def test_a_still_stack_falls_asleep_and_stays_exactly_put():
    w, boxes = _stack()
    w.step(120)
    assert all(w.is_sleeping(b) for b in boxes) and w.resting
    before = w.bodies.pos.copy()
    w.step(120)
    assert np.array_equal(w.bodies.pos, before)  # not a hair of drift while asleep


def test_sleep_is_off_by_default():
    w, boxes = _stack(sleep=False)
    w.step(120)
    assert not any(w.is_sleeping(b) for b in boxes) and not w.resting


def test_writes_forces_and_grabs_wake_the_island():
    for poke in ("write", "force", "grab"):
        w, boxes = _stack()
        w.step(120)
        top = boxes[-1]
        if poke == "write":
            w.component(top, RigidBody).vx = 30.0
        elif poke == "force":
            w.apply_force(top, 5000.0, 0.0)
        else:
            w.grab(top, 5, 120)
        assert not any(w.is_sleeping(b) for b in boxes), poke  # all of the tower at once
        w.release()
        w.step()
        assert w.component(top, RigidBody).x != 0.0, poke


@pytest.mark.parametrize("how", ["apply_force", "push", "a pinned ball"])
def test_a_force_on_a_resting_world_acts_over_the_next_frame(how):
    """A world asleep all through skips taking the (zero) forces each frame; a force
    applied then is still the next frame's, and spent after it."""
    w = World(sleep=True).use(*(s() for s in systems.SOLVER))
    w.create_entity(Particle(400, 10, radius=10))
    pinned = w.create_entity(Particle(200, 300, radius=10), Anchor())
    ball = w.create_entity(Particle(300, 10, radius=10))
    for _ in range(600):
        w.step()
        if w.resting:
            break
    assert w.resting
    w.step(5)
    target = pinned if how == "a pinned ball" else ball
    row = w.particles.row(target)
    if how == "push":
        w.particles.push([row], [[300.0, 0.0]])
    else:
        w.apply_force(target, 300.0, 0.0)
    w.step()
    assert w.frame_force[row].tolist() == [300.0, 0.0]
    for _ in range(3):
        w.step()
    assert not w.frame_force.any()


def test_something_awake_landing_on_a_sleeping_stack_wakes_it():
    w, boxes = _stack()
    w.step(120)
    assert w.resting
    drop = w.create_entity(RigidBody.box(0, 300, 30, 30))
    w.step(40)
    assert not w.is_sleeping(boxes[-1]) or w.component(drop, RigidBody).y < 160
    assert w.component(drop, RigidBody).y > 135 - 1.0  # it landed on the tower, not in it
    w.step(200)
    assert w.is_sleeping(drop) and all(w.is_sleeping(b) for b in boxes)


def test_removing_a_support_wakes_what_rested_on_it():
    w, boxes = _stack()
    w.step(120)
    w.delete_entity(boxes[0])
    w.step(30)
    assert w.component(boxes[1], RigidBody).y < 60 - 5  # it fell into the gap


def test_particles_sleep_too_and_a_loaded_world_continues_bit_for_bit():
    w = World(bounds=(0, 0, 400, 300), sleep=True).use(*(s() for s in systems.SOLVER))
    dots = [w.create_entity(Particle(100 + 30 * k, 5, radius=5)) for k in range(4)]
    w.create_entity(RigidBody.box(300, 10, 40, 20))
    w.step(90)
    assert all(w.is_sleeping(d) for d in dots)
    twin = loads(dumps(w))
    assert all(twin.is_sleeping(d) for d in dots) and twin.resting == w.resting
    for world in (w, twin):
        world.create_entity(Particle(100, 200, radius=5))  # falls onto the first dot
        world.step(60)
    assert twin.state_hash() == w.state_hash()


def test_a_settled_pile_of_500_discs_sleeps_within_10_s_and_stays_exactly_put():
    """The issue's bar: ≥ 95 % asleep after 10 s, nothing drifts while asleep. The pile's
    contacts jitter (pos − prev reads ±20 px/s) long after it looks still; what counts
    is how far each disc moved over the frame."""
    w = scenes.circle_pile(500)
    w.sleep = True
    w.step(600)
    p = w.store.particles
    assert p.asleep.mean() >= 0.95 and w.resting
    before = p.pos.copy()
    w.step(120)
    assert np.hypot(*(p.pos - before).T).max() <= 1.0


def test_what_moves_faster_than_gravity_gives_in_a_frame_does_not_sleep():
    """``sleep_speed`` is |g|·dt (16 px/s here): a disc gliding at 30 px/s on a
    frictionless floor stays awake; one at 10 px/s, slowed by nothing, sleeps."""
    w = World(bounds=(0, 0, 4000, 300), damping=1.0, sleep=True)
    w.use(*(s() for s in systems.SOLVER))
    assert sleeping.sleep_speed(w) == pytest.approx(980.0 / 60)
    fast = w.create_entity(Particle(100, 5, radius=5, vx=30.0, friction=0.0))
    slow = w.create_entity(Particle(2000, 5, radius=5, vx=10.0, friction=0.0))
    w.step(120)
    assert not w.is_sleeping(fast) and w.is_sleeping(slow)
    assert sleeping.sleep_speed(World(gravity=(0.0, 0.0), sleep=True)) == sleeping.SLEEP_SPEED


def test_a_bulk_write_or_new_gravity_wakes_a_sleeping_world():
    """What the game changes in bulk (``w.particles.write``) or turning gravity around
    must move what slept, as a write through one component does."""
    for change in (lambda w: w.particles.write("radius", 8.0),
                   lambda w: setattr(w, "gravity", (0.0, 980.0))):
        w = World(bounds=(0, 0, 400, 300), sleep=True).use(*(s() for s in systems.SOLVER))
        dots = [w.create_entity(Particle(100 + 30 * k, 5, radius=5)) for k in range(4)]
        w.step(90)
        assert all(w.is_sleeping(d) for d in dots) and w.resting
        change(w)
        assert not any(w.is_sleeping(d) for d in dots) and not w.resting
        w.step(10)
        assert w.component(dots[0], Particle).y > 5.5  # grown, or falling up: it moved


# -- sleeping never changes what happens: the same scene with sleep on and off -------------

def _solver(sleep: bool) -> World:
    return World(bounds=(0, 0, 1000, 600), sleep=sleep).use(*(s() for s in systems.SOLVER))


def _ball_and_crate(sleep: bool) -> tuple[float, bool]:
    """A ball that slept is woken by a velocity write and rolled into a sleeping crate:
    where the crate ends up, and whether it slept before."""
    w = _solver(sleep)
    crate = w.create_entity(RigidBody.box(600, 20, 40, 40))
    ball = w.create_entity(RigidBody.circle(400, 20, 15, mass=6))
    w.step(120)
    slept = w.is_sleeping(crate) and w.is_sleeping(ball)
    w.component(ball, RigidBody).vx = 800
    w.step(40)
    return w.component(crate, RigidBody).x, slept


def test_a_woken_ball_knocks_a_sleeping_crate_as_far_as_an_awake_one():
    awake, _ = _ball_and_crate(False)
    asleep, slept = _ball_and_crate(True)
    assert slept
    assert awake - 602 > 100  # knocked well away
    assert asleep - 602 == pytest.approx(awake - 602, rel=0.10)


def _crate_on_a_platform(sleep: bool, change: str) -> tuple[tuple[float, float, float], bool]:
    """A crate asleep on a static platform, then one change a game makes; the crate's pose
    a second later, and whether it slept when the change came."""
    w = _solver(sleep)
    platform = w.create_entity(RigidBody.box(500, 200, 300, 20), Anchor())
    crate = w.create_entity(RigidBody.box(500, 231, 40, 40, friction=2.0))
    hub = w.create_entity(RigidBody.box(200, 400, 10, 10), Anchor())
    wheel = w.create_entity(RigidBody.circle(200, 400, 30))
    hinge = w.create_entity(Joint(hub, wheel, 200, 400))
    if change == "friction":
        w.gravity = (300.0, -980.0)  # it holds at friction 2 (tan θ = 0.31)
    w.step(100)
    slept = w.is_sleeping(crate) and w.is_sleeping(wheel)
    if change == "delete the platform":
        w.delete_entity(platform)
    elif change == "no bounds":
        w.delete_entity(platform)
        w.step(150)  # it falls to the floor of the bounds, and sleeps there
        slept = w.is_sleeping(crate)
        w.bounds = None
    elif change == "friction":
        w.component(crate, RigidBody).friction = 0.0
    elif change == "motor":
        joint = w.component(hinge, Joint)
        joint.motor_torque, joint.motor_speed = 1e7, 5.0
        crate = wheel
    elif change == "spring":
        pin = w.create_entity(Particle(800, 400), Anchor())
        w.create_entity(Spring(pin, crate, at_b=(500, 231), rest=100.0))
    w.step(60)
    b = w.component(crate, RigidBody)
    return (b.x, b.y, b.omega), slept


@pytest.mark.parametrize("change", ["delete the platform", "no bounds", "friction", "motor",
                                    "spring"])
def test_a_change_to_what_a_sleeping_thing_feels_acts_as_if_it_were_awake(change):
    awake, _ = _crate_on_a_platform(False, change)
    asleep, slept = _crate_on_a_platform(True, change)
    assert slept
    moved = {"delete the platform": 1, "no bounds": 1, "friction": 0, "motor": 2, "spring": 0}
    k = moved[change]
    start = (500.0, 230.0, 0.0)[k]
    assert abs(awake[k] - start) > 20 or (k == 2 and abs(awake[2]) > 4)  # it did act
    assert asleep[k] - start == pytest.approx(awake[k] - start, rel=0.05)


def test_a_fruit_on_a_sleeping_particle_wakes_it():
    w = _solver(True)
    e = w.create_entity(Particle(500, 10, radius=10))
    w.step(60)
    assert w.is_sleeping(e)
    w.add_component(e, Fruit(3))
    assert not w.is_sleeping(e)
    assert w.particles.w[w.particles.row(e)] == pytest.approx(1.0 / w.component(e, Particle).mass)
    w.step(30)
    assert w.component(e, Particle).radius == w.particles.radius[w.particles.row(e)]


def test_sleeping_particles_can_be_found_grabbed_and_flung():
    w = _solver(True)
    e = w.create_entity(Particle(500, 10, radius=10))
    w.step(60)
    assert w.is_sleeping(e)
    assert w.nearest_particle(500, 10, movable=True) == e
    w.grab(e, 500, 10)
    assert not w.is_sleeping(e)
    for k in range(1, 6):
        w.grab(e, 500 + 40 * k, 10 + 40 * k)
        w.step()
    w.release()
    p = w.component(e, Particle)
    assert p.vx > 500 and p.vy > 500  # flung with the pointer's speed


def test_deleting_entities_of_a_sleeping_world_mid_frame_keeps_the_rest_where_it_slept():
    """A stage after the solver deletes a body of a half-asleep world: rows move, and the
    sleeping ones are still put back where they slept (by entity, not by row)."""
    class Delete(systems.Stage):
        name = "delete_test"

        def __init__(self) -> None:
            self.doomed: list[int] = []

        def process(self, world):
            while self.doomed:
                world.delete_entity(self.doomed.pop())

    stage = Delete()
    w = World(bounds=(0, 0, 1000, 600), sleep=True).use(*(s() for s in systems.SOLVER), stage)
    boxes = [w.create_entity(RigidBody.box(100 + 60 * k, 20, 40, 40)) for k in range(6)]
    w.step(90)
    assert all(w.is_sleeping(b) for b in boxes)
    poses = {b: (w.component(b, RigidBody).x, w.component(b, RigidBody).y) for b in boxes}
    faller = w.create_entity(RigidBody.circle(900, 300, 10))  # keeps the solver running
    stage.doomed = [boxes[0]]
    w.step(3)
    for b in boxes[1:]:
        assert (w.component(b, RigidBody).x, w.component(b, RigidBody).y) == poses[b]
        assert w.is_sleeping(b)
    assert not w.is_sleeping(faller)


def test_removing_a_still_kinematic_platform_wakes_what_it_held_and_nothing_else():
    """A kinematic body is pushed by nothing but belongs to its island (what rests on it
    sleeps with it): removing one wakes that island, as removing a box does, not the world
    as removing a static floor does."""
    w, boxes = _stack()
    platform = w.create_entity(RigidBody.box(300, 100, 120, 10, kind="kinematic"))
    crate = w.create_entity(RigidBody.box(300, 126, 40, 40))
    w.step(150)
    assert all(w.is_sleeping(e) for e in [*boxes, platform, crate])
    w.delete_entity(platform)
    assert not w.is_sleeping(crate)  # it falls
    assert all(w.is_sleeping(e) for e in boxes)  # the tower apart from it sleeps on
    w.step(30)
    assert w.component(crate, RigidBody).y < 126 - 5
    assert all(w.is_sleeping(e) for e in boxes)


def _count_islands(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    plain = sleeping.islands

    def counted(world: World) -> np.ndarray:
        calls[0] += 1
        return plain(world)

    monkeypatch.setattr(sleeping, "islands", counted)
    return calls


def test_while_nothing_has_been_still_long_enough_no_island_is_looked_for(monkeypatch):
    """No row that can move still for ``SLEEP_FRAMES``: no island can fall asleep, so the
    look (every ``LOOK_EVERY`` frames) wakes what sleeps without finding the islands; once
    the stack has been still that long it looks, and the stack falls asleep."""
    w, boxes = _stack()
    for body in boxes:  # thrown up: none is still for the first half second
        w.component(body, RigidBody).vy = 400.0
    calls = _count_islands(monkeypatch)
    w.step(sleeping.SLEEP_FRAMES)
    assert calls[0] == 0
    w.step(240)
    assert calls[0] > 0 and all(w.is_sleeping(b) for b in boxes)


@pytest.mark.parametrize("seed", range(3))
def test_skipping_the_island_look_gives_the_bits_of_the_full_look(monkeypatch, seed):
    """The same random world stepped with the shortcut and with every look done in full
    (``any_ready`` forced true): the same state and the same sleepers at every look,
    through falling asleep, a hit that wakes it, and a write."""
    rng = np.random.default_rng(seed)

    def world() -> World:
        w = World(bounds=(0, 0, 600, 400), sleep=True).use(*(s() for s in systems.SOLVER))
        for x, y, r in zip(rng.uniform(50, 550, 12), rng.uniform(10, 300, 12),
                           rng.uniform(5, 15, 12), strict=True):
            w.create_entity(Particle(float(x), float(y), radius=float(r)))
        w.create_entity(RigidBody.box(300, 30, 60, 30))
        return w

    state = rng.bit_generator.state
    short = world()
    rng.bit_generator.state = state
    full = world()
    runs = []
    for w, forced in ((short, False), (full, True)):
        if forced:
            monkeypatch.setattr(sleeping, "any_ready", lambda *args: True)
        hashes = []
        for frame in range(300):
            if frame == 200:
                w.create_entity(Particle(300, 380, radius=10))  # lands on the sleepers
            if frame == 250:
                w.particles.write("prev", w.particles.pos + 0.5)
            w.step()
            hashes.append((w.state_hash(), w.store.particles.asleep.tobytes(),
                           w.store.bodies.asleep.tobytes(), w.resting))
        runs.append(hashes)
        monkeypatch.undo()
    assert runs[0] == runs[1]
    assert any(h[3] for h in runs[0])  # it did fall asleep on the way
