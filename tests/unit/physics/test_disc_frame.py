"""A world of discs and springs: the whole frame in one kernel call, or its later substeps
(``physics.disc_frame``), give the same bits as the stages one substep at a time, the way
games use it too (spawning, deleting, sleeping, saving mid-run, springs breaking)."""

from __future__ import annotations

import numpy as np
import pytest
import spy

import scenes
from ecsgoo import (
    Anchor,
    AreaConstraint,
    Particle,
    RigidBody,
    Spring,
    World,
    bodies,
    saving,
    systems,
)
from ecsgoo.physics import disc_frame, threads


def _pile() -> World:
    return scenes.circle_pile(300, width=400.0)


def _cup() -> World:
    """A cup of the level's segments and a polygon, bouncy discs of mixed masses (one
    pinned) poured in fast enough to outrun their reach."""
    w = World(bounds=(0, 0, 600, 900), sleep=False).use(*(s() for s in systems.SOLVER))
    w.level.add_segment((100, 300), (150, 40))
    w.level.add_segment((500, 300), (450, 40), friction=0.1)
    w.level.add_polygon([(250, 60), (350, 60), (300, 120)])
    rng = np.random.default_rng(5)
    for k in range(60):
        w.create_entity(Particle(200 + (k % 10) * 20 + rng.uniform(-2, 2), 400 + (k // 10) * 30,
                                 vy=-900.0 * rng.uniform(0.5, 1.5), radius=rng.uniform(5, 12),
                                 mass=float(rng.choice([0.1, 1.0, 50.0])),
                                 restitution=float(rng.choice([0.0, 0.8]))))
    w.create_entity(Particle(300, 250, radius=8), Anchor())
    return w


def _games(world: World, frames: int, save_at: int | None = None) -> World:
    """Step ``frames`` frames, spawning a disc every 7th and deleting the oldest every
    11th (from outside the step, as a game's input would), reloaded from a save at
    ``save_at``."""
    made = []
    for f in range(frames):
        if f % 7 == 0:
            made.append(world.create_entity(Particle(300 + f % 5, 700, radius=9, vy=-400.0)))
        if f % 11 == 0 and made:
            world.delete_entity(made.pop(0))
        if f == save_at:
            world = saving.loads(saving.dumps(world))
        world.step()
    return world


def _ropes() -> World:
    """Two ropes of springs hung from anchors (one a chain, one crossed by a brace the
    chains leave to the sweep), swinging into the cup's discs and segments; a stiff
    three-link strand falls onto them, and the first rope's heavy end snaps off."""
    w = _cup()
    for x0, links, brace in ((180.0, 12, False), (420.0, 9, True)):
        ends = [w.create_entity(Particle(x0, 800.0, radius=4), Anchor())]
        end_mass = 2.0 if brace else 40.0
        for k in range(1, links + 1):
            ends.append(w.create_entity(Particle(x0 + 14.0 * k, 800.0, radius=4,
                                                 mass=end_mass if k == links else 0.5)))
            last = k == links and not brace  # the first rope's end snaps as it swings
            w.create_entity(Spring(ends[-2], ends[-1], compliance=1e-7,
                                   max_stretch=1.0001 if last else None))
        if brace:
            w.create_entity(Spring(ends[2], ends[5], compliance=1e-4))
    strand = [w.create_entity(Particle(300.0 + 20 * k, 600.0, radius=6)) for k in range(3)]
    for a, b in zip(strand, strand[1:], strict=False):
        w.create_entity(Spring(a, b, compliance=0.0, max_stretch=1.05))
    return w


def _ropes_odd() -> World:
    """The ropes with an odd iteration count (Project's closing backward sweep)."""
    w = _ropes()
    w.iterations = 3
    return w


def _crowd() -> World:
    """Sixty discs dropped on nearly one spot: more contacts than rows were made for
    (``room_for``), found again with more."""
    w = World(bounds=(0, 0, 400, 400), sleep=False).use(*(s() for s in systems.SOLVER))
    rng = np.random.default_rng(3)
    for _ in range(60):
        w.create_entity(Particle(200 + rng.uniform(-3, 3), 100 + rng.uniform(-3, 3),
                                 radius=10))
    return w


def _crowd_without_project() -> World:
    """The crowd with Integrate and Collide alone (Suika's solver)."""
    w = _crowd()
    w.use(systems.Integrate(), systems.Collide())
    return w


def _drag(world: World, frames: int) -> World:
    """Step the ropes (``world``) ``frames`` frames, the heavy end of the first dragged across
    the cup by the pointer (a new target every frame, as a player's hand moves it; at
    times fast enough to outrun its reach), let go, then another particle grabbed and
    flung."""
    ends = world.store.particles.entity
    first, other = int(ends[73]), int(ends[20])
    for f in range(frames):
        if f == 5:
            world.grab(first, 200.0, 750.0)
        elif 5 < f < 60:
            world.grab(first, 220.0 + 6.0 * f + (40.0 if f % 9 == 0 else 0.0), 750.0 - 4.0 * f)
        elif f == 60:
            world.release()
        elif f == 70:
            world.grab(other, 300.0, 500.0)
        elif f == 71:
            world.grab(other, 380.0, 560.0)
        elif f == 72:
            world.release()
        world.step()
    return world


def _one_substep() -> World:
    """The cup at one substep a frame: the first is the last."""
    w = _cup()
    w.substeps = 1
    return w


def _on_static_bodies(sleep: bool = False) -> World:
    """The README's ground: discs and a rope on anchored bodies (a floor box, a tilted
    box, a circle, a concave polygon, one of another layer that the discs of layer 1 pass
    through), fast enough to outrun their reach and cross a thin body; a level segment
    and the bounds too. With ``sleep``: the discs come to rest and freeze."""
    w = World(bounds=(0, 0, 600, 900), sleep=sleep).use(*(s() for s in systems.SOLVER))
    w.level.add_segment((20, 400), (120, 300))
    for body in (RigidBody.box(300, 20, 560, 30, friction=0.8),
                 RigidBody.box(150, 200, 200, 6, angle=-0.35, friction=0.2, restitution=0.5),
                 RigidBody.circle(430, 160, 45, friction=0.0),
                 RigidBody.polygon(470, 330, [(0, 0), (80, 0), (80, 60), (40, 20), (0, 60)]),
                 RigidBody.box(300, 120, 80, 80, layer=4, mask=4)):
        w.create_entity(body, Anchor())
    rng = np.random.default_rng(11)
    for k in range(48):
        w.create_entity(Particle(120 + (k % 12) * 30 + rng.uniform(-2, 2), 500 + (k // 12) * 40,
                                 vy=-1200.0 * rng.uniform(0.2, 1.2), radius=rng.uniform(5, 12),
                                 mass=float(rng.choice([0.2, 1.0, 20.0])),
                                 restitution=float(rng.choice([0.0, 0.7])),
                                 layer=1 if k % 5 else 2, mask=1 if k % 5 else 7))
    ends = [w.create_entity(Particle(250.0, 450.0, radius=4), Anchor())]
    for k in range(1, 9):
        ends.append(w.create_entity(Particle(250.0 + 14.0 * k, 450.0, radius=4)))
        w.create_entity(Spring(ends[-2], ends[-1], compliance=1e-7))
    return w


def _static_bodies_moved(world: World, frames: int) -> World:
    """Step ``frames`` frames as a game does with its ground: the tilted box moved and
    turned between frames, a dynamic box dropped in (the stages' frames), anchored as it
    falls and deleted, a static box made and deleted, saved and loaded halfway."""
    bodies = world.store.bodies.entity[: world.store.bodies.n].tolist()
    tilted = world.component(bodies[1], RigidBody)
    made: list[int] = []
    for f in range(frames):
        if 10 <= f < 30:
            tilted.x, tilted.angle = tilted.x + 2.0, tilted.angle + 0.02
        if f == 28:
            world.add_component(made[-1], Anchor())  # falling, anchored: it stops there
        if f == 20:
            made.append(world.create_entity(RigidBody.box(300, 600, 40, 40)))
        if f == 35:
            world.delete_entity(made.pop())
        if f == 40:
            made.append(world.create_entity(RigidBody.box(200, 60, 60, 20), Anchor()))
        if f == 50:
            world = saving.loads(saving.dumps(world))
        if f == 60:
            world.delete_entity(made.pop())
        world.step()
    return world


def _jelly(sleep: bool = False, outlines: bool = True) -> World:
    """The jelly playground's kinds of soft body dropped into the cup and onto anchored
    bodies: pressurised balls (one soft, one self-colliding, one hit fast), shape-matched
    boxes (one floppy), loose discs among them; a thin static wall whose corners the
    outlines keep off. With ``sleep``: they come to rest and freeze; without
    ``outlines``: Collide meets none."""
    w = _cup()
    w.sleep = sleep
    w.use(systems.Integrate(), systems.Project(), systems.Collide(outlines=outlines))
    w.create_entity(RigidBody.box(300, 200, 8, 120, angle=0.2), Anchor())
    w.create_entity(RigidBody.circle(480, 120, 25), Anchor())
    bodies.jelly_ball(w, 200, 600, radius=40, vertices=16)
    bodies.jelly_ball(w, 320, 700, radius=30, vertices=12, pressure=1.5, stiffness=0.3)
    self_hit = bodies.jelly_ball(w, 420, 560, radius=35, vertices=14)
    w.store.areas.cols["self_collide"][w.store.areas.n - 1] = True
    for k in self_hit.particles[:3]:
        w.component(k, Particle).vy = -1500.0
    bodies.box(w, 260, 780, 50, 40)
    bodies.box(w, 380, 820, 40, 40, alpha=0.2)
    return w


def _corner(outlines: bool = False) -> World:
    """Jelly balls dropped onto the corner of a thin anchored wall, Collide meeting no
    outlines (or meeting them): the outlines are kept off the static corners all the same."""
    w = World(bounds=(0, 0, 600, 600)).use(systems.Integrate(), systems.Project(),
                                           systems.Collide(outlines=outlines))
    w.create_entity(RigidBody.box(300, 150, 6, 200), Anchor())
    w.create_entity(RigidBody.box(300, 20, 560, 20), Anchor())
    for k in range(4):
        bodies.jelly_ball(w, 290 + 6 * k, 320 + 70 * k, radius=30, vertices=12)
    return w


def _without_springs(kind: str) -> World:
    """Soft bodies with no spring at all (Project's rounds for them alone): shape-matched
    boxes of five stiffnesses, or one pressurised, self-colliding ring."""
    w = World(bounds=(0, 0, 600, 600)).use(*(s() for s in systems.SOLVER))
    if kind == "shapes":
        for k in range(5):
            bodies.box(w, 100 + 90 * k, 100 + 40 * k, 40, 40, alpha=0.3 + 0.1 * k)
        return w
    ring = [w.create_entity(Particle(300 + 40 * np.cos(k * np.pi / 6),
                                     300 + 40 * np.sin(k * np.pi / 6), radius=5))
            for k in range(12)]
    w.create_entity(AreaConstraint(ring, pressure=1.2, self_collide=True))
    return w


SCENES = {"pile": (_pile, 90), "cup": (_cup, 120), "ropes": (_ropes, 150),
          "shapes without springs": (lambda: _without_springs("shapes"), 120),
          "an area without springs": (lambda: _without_springs("area"), 120),
          "jelly": (_jelly, 150), "jelly without outlines": (lambda: _jelly(outlines=False), 60),
          "jelly on a corner": (_corner, 120),
          "jelly on a corner, outlines met": (lambda: _corner(outlines=True), 120),
          "jelly, asleep": (lambda: _jelly(sleep=True), 400),
          "on static bodies": (_on_static_bodies, 120),
          "on static bodies, asleep": (lambda: _on_static_bodies(sleep=True), 400),
          "ropes, odd iterations": (_ropes_odd, 90),
          "sleeping pile": (lambda: scenes.circle_pile(120, width=300.0), 400),
          "crowd": (_crowd, 30), "crowd without Project": (_crowd_without_project, 30),
          "one substep": (_one_substep, 60)}


def _state(world: World) -> bytes:
    p, b = world.store.particles, world.store.bodies
    cols = [p.cols[k][: p.n].tobytes() for k in ("pos", "prev", "frozen")]
    cols += [b.cols[k][: b.n].tobytes() for k in ("pos", "prev", "angle", "prev_angle")]
    sc = world.store.springs.cols
    cols += [sc[k][: world.store.springs.n].tobytes() for k in ("lam", "broken")]
    d = world.discs
    return b"".join(cols + [d.keys.tobytes(), d.memory.tobytes()])


def _run(make, frames: int, fused: bool, games: bool = False) -> bytes:
    disc_frame.ENABLED = fused
    try:
        w = make()
        w = _games(w, frames, save_at=frames // 2) if games else (w.step(frames) or w)
        return _state(w)
    finally:
        disc_frame.ENABLED = True


@pytest.mark.parametrize("name", sorted(SCENES))
def test_the_fused_substeps_give_the_same_bits_as_the_stages(name):
    make, frames = SCENES[name]
    assert _run(make, frames, True) == _run(make, frames, False)


def _fused_and_not(play) -> tuple[bytes, bytes]:
    """``_state`` of what ``play()`` returns, fused and through the stages."""
    states = []
    for fused in (True, False):
        disc_frame.ENABLED = fused
        try:
            states.append(_state(play()))
        finally:
            disc_frame.ENABLED = True
    return states[0], states[1]


def test_a_grabbed_particle_is_pulled_in_the_kernel_to_the_bits_of_the_stages():
    fused, stages = _fused_and_not(lambda: _drag(_ropes(), 90))
    assert fused == stages
    w = _ropes()
    x, y = w.store.particles.pos[73].tolist()
    w.grab(int(w.store.particles.entity[73]), x + 3.0, y)
    seen = _spied(w, 2)  # a grabbed particle's frames go to the kernel (before: the stages)
    assert len(seen) == 2 and (0, 0) not in seen


@pytest.mark.parametrize("make", [_cup, _ropes])
def test_the_same_bits_while_a_game_spawns_deletes_and_saves(make):
    assert _run(make, 80, True, games=True) == _run(make, 80, False, games=True)


def _retuned(world: World, frames: int) -> World:
    """Step ``frames`` frames, changing between them what the fused call's kept arguments
    hold for (``disc_frame._held``): gravity, damping, the substeps, Collide's speeds, the
    bounds, the level, a pushed particle's row written, one spawned."""
    collide = world.pipeline[-1]
    changes = {
        3: lambda: setattr(world, "gravity", (40.0, -700.0)),
        6: lambda: setattr(world, "damping", 0.9),
        9: lambda: setattr(world, "substeps", 4),
        12: lambda: setattr(collide, "push_speed", 90.0),
        15: lambda: setattr(collide, "bounce_speed", 20.0),
        18: lambda: setattr(collide, "hold_speed", 1e4),
        21: lambda: setattr(world, "bounds", (0.0, 0.0, 580.0, 900.0)),
        24: lambda: world.add_segment((120, 200), (480, 180)),
        27: lambda: world.particles.write("radius", 7.0, [3]),
        30: lambda: world.create_entity(Particle(300, 600, radius=6)),
    }
    for f in range(frames):
        if f in changes:
            changes[f]()
        world.step()
    return world


def _jelly_played(world: World, frames: int) -> World:
    """Step ``frames`` frames as the jelly playground is played: a ball grabbed and flung,
    a ball and a box made mid-run, a ball deleted, its area's pressure changed, saved and
    loaded halfway."""
    for f in range(frames):
        if f == 10:
            world.grab(int(world.store.particles.entity[65]), 250.0, 700.0)
        elif 10 < f < 30:
            world.grab(int(world.store.particles.entity[65]), 250.0 + 9.0 * f, 700.0)
        elif f == 30:
            world.release()
        if f == 35:
            made = bodies.jelly_ball(world, 150, 750, radius=30, vertices=10)
            bodies.box(world, 450, 750, 30, 30)
        if f == 45:
            world = saving.loads(saving.dumps(world))
        if f == 50:
            con = world.get_component(AreaConstraint)[0][0]
            world.component(con, AreaConstraint).pressure = 1.4
        if f == 60:
            for e in made.particles:
                world.delete_entity(e)
        world.step()
    return world


def test_jelly_played_gives_the_bits_of_the_stages():
    fused, stages = _fused_and_not(lambda: _jelly_played(_jelly(), 90))
    assert fused == stages
    assert all(k > 0 for k, _ in _spied(_jelly(), 20))  # its frames: the kernel's


def test_a_world_whose_project_threads_share_leaves_its_substeps_to_the_stages(monkeypatch):
    monkeypatch.setattr(threads, "PROJECT_MIN", 40)  # (the jelly's 122 springs: enough)
    monkeypatch.setattr(threads, "count", lambda world: world.threads)  # (however many cores)
    w = _jelly()
    assert _spied(w, 2) != []  # one thread: the kernel's
    w.threads = 2
    assert _spied(w, 2) == [] and _spied(w, 2, "fuse") == []  # Project in parts: the stages


class _Helper:
    """A stand-in for the background compile: compiling until it ends with ``code``."""

    def __init__(self) -> None:
        self.code: int | None = None

    def poll(self) -> int | None:
        return self.code


def test_a_cold_start_leaves_worlds_with_bodies_to_the_stages_until_the_helper_ends():
    helper = _Helper()
    disc_frame.defer_bodies(helper)
    try:
        jelly, pile = _jelly(), _pile()
        assert _spied(jelly, 2) == []  # the form with bodies: the helper's to compile
        assert _spied(pile, 2) == [(6, 0)] * 2  # discs alone: fused as ever
        helper.code = 0
        assert _spied(jelly, 2) != []  # the helper done: fused
        failed = _Helper()
        failed.code = 1
        disc_frame.defer_bodies(failed)
        assert _spied(jelly, 2) == []  # it failed: the stages, not a compile mid-play
    finally:
        disc_frame._compiling.clear()


def test_discs_on_static_bodies_moved_made_and_deleted_give_the_bits_of_the_stages():
    fused, stages = _fused_and_not(lambda: _static_bodies_moved(_on_static_bodies(), 80))
    assert fused == stages
    w = _on_static_bodies()
    seen = _spied(w, 90)  # every frame in the kernel, static bodies and all (it stops
    assert len(seen) == 90 and all(k > 0 for k, _ in seen)  # where a fast disc outruns)
    assert seen.count((6, 0)) > 45  # slower: whole frames in one call
    assert w.contacts.n == w.contacts.old_n == 0  # they have no contacts of their own
    p = w.store.particles
    x, bottom = p.pos[: p.n, 0], p.pos[: p.n, 1] - p.radius[: p.n]
    over = (x > 30.0) & (x < 570.0)  # over the ground box (some rolled off its ends)
    assert over.sum() > 40 and bottom[over].min() > 33.0  # on it (top at 35 px), not through
    w.create_entity(RigidBody.box(300, 700, 40, 40))
    assert _spied(w, 2) == []  # a body that moves: the stages


def _boxes_asleep(frames: int) -> World:
    """Dynamic boxes and discs on an anchored ground fall asleep (frozen: no inverse mass,
    so every body of the world is as static); discs dropped far from them fuse the frames
    with the boxes asleep, then one dropped on a box wakes it (the stages' frames)."""
    w = World(bounds=(0, 0, 900, 600), sleep=True).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(450, 20, 880, 30), Anchor())
    for k in range(3):
        w.create_entity(RigidBody.box(120 + 60 * k, 56, 40, 40, friction=0.7))
        w.create_entity(Particle(130 + 60 * k, 120, radius=8))
    for f in range(frames):
        if f in (300, 320, 340):
            w.create_entity(Particle(700 + (f - 300), 300, radius=9, vy=-200.0))
        if f == 380:
            w.create_entity(Particle(180, 300, radius=9, vy=-300.0))  # onto the middle box
        w.step()
    return w


def test_bodies_asleep_are_static_to_the_fused_frame_and_wake_to_the_stages():
    fused, stages = _fused_and_not(lambda: _boxes_asleep(460))
    assert fused == stages
    w = _boxes_asleep(302)  # all asleep, then a disc dropped far away: the boxes frozen
    assert len(_spied(w, 10)) == 10  # for its frames (no inverse mass): in the kernel
    assert (w.store.bodies.cols["w"][1:4] > 0).all()  # (and thawed at each frame's end)


def test_the_kept_arguments_follow_every_setting_changed_between_frames():
    fused, stages = _fused_and_not(lambda: _retuned(_cup(), 40))
    assert fused == stages


def test_the_springs_multipliers_are_the_last_substeps_as_break_reads_them():
    def lam(fused: bool) -> bytes:
        disc_frame.ENABLED = fused
        try:
            w = _ropes()
            w.step(40)
            return w.store.springs.cols["lam"][: w.store.springs.n].tobytes()
        finally:
            disc_frame.ENABLED = True
    assert lam(True) == lam(False)


def _spied(world: World, frames: int, name: str = "whole") -> list[tuple[int, int]]:
    with spy.returns(disc_frame, name) as seen:
        world.step(frames)
    return seen


def test_it_takes_whole_frames_and_stops_where_a_disc_outruns_its_reach():
    assert _spied(_pile(), 3) == [(6, 0)] * 3  # the default 6 substeps: all in one call
    w = _cup()
    with spy.returns(disc_frame, "fuse") as later:
        seen = _spied(w, 40)
    assert (6, 0) in seen and len(seen) == 40
    stops = [s for s in seen + later if s[1] == 2]  # Collide finds them again, then
    assert stops and all(0 < k < 6 for k, _ in stops)  # the kernel goes on
    assert (6, 0) in later  # the rest of a frame after a stop


@pytest.mark.parametrize("make", [_crowd, _crowd_without_project])
def test_contacts_that_do_not_fit_are_found_again_by_the_stages_then_fused_on(make):
    w = make()
    collide = len(w.pipeline.groups[0][1]) - 1  # Integrate (and Project) were the kernel's
    with spy.returns(disc_frame, "fuse") as later:
        seen = _spied(w, 1)
    assert seen == [(0, collide)] and later[-1] == (6, 0)
    assert _spied(w, 1) == [(6, 0)]  # the next frame: room enough


def test_a_large_world_leaves_its_first_substep_to_the_stages(monkeypatch):
    monkeypatch.setattr(disc_frame, "WHOLE_MAX", 299)
    w = _pile()  # 300 discs
    with spy.returns(disc_frame, "fuse") as later:
        assert _spied(w, 2) == [(0, 0)] * 2
    assert later == [(6, 0)] * 2


def test_it_does_not_fuse_what_needs_python_between_substeps():
    for name in ("whole", "fuse"):
        w = _pile()
        w.profile = {}
        assert _spied(w, 2, name) == []  # a profile times every stage
    w = _pile()
    a, b = w.store.particles.entity[:2].tolist()
    w.create_entity(Spring(a, b))
    assert _spied(w, 2) == [(6, 0)] * 2  # springs and chains: Project's part of the kernel
