"""The first run's compile of the physics kernels: a cold cache is detected, progress is told.

numba compiles a kernel the first time it is called with new argument types and
keeps the machine code in its cache (``__pycache__`` beside ``ecsgoo/kernels``,
or ``NUMBA_CACHE_DIR``). With a cold cache a game's first step stalled for
8–9 s with no word (≈ 11 s for all 40 kernels on 2 cores); from a warm cache a
kernel loads in ≈ 15 ms. ``warm_up`` steps a tiny scene that reaches every
kernel the games use instead, calling ``progress(done, total)`` as each compiles,
so the player can show what it is doing (``ecsgoo.app.loading`` in a window,
``terminal_warm_up`` on stderr). Nothing here imports arcade.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pkgutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numba
import numpy as np
from numba.core import event
from numba.core.registry import CPUDispatcher

from . import kernels as _kernels_package
from .link_only import callees_for_linking, compile_recorded
from .numba_cache import LINKED_RECORD, WARM_MARKER, package_digest
from .progress_bar import is_terminal
from .startup import fewer_scans, settle

#: What the terminal and the loading screen say while kernels compile.
MESSAGE = "compiling the physics kernels (first run only)…"

#: ``progress(done, total)``: kernels ready (loaded or compiled) out of all of them; a total
#: of 0: out of an unknown number (a game's warm-up, until its last call).
Progress = Callable[[int, int], None]


def physics_kernels() -> list[CPUDispatcher]:
    """Every kernel in ``ecsgoo.kernels`` that numba compiles (and caches) on its own.

    Helpers marked ``inline="always"`` are compiled into their callers, never alone;
    the threads' kernels (``parallel=True``, ``kernels.threaded``) on a world's first
    frame of more than one thread, not here.
    """
    found = []
    for info in pkgutil.iter_modules(_kernels_package.__path__):
        module = importlib.import_module(f"{_kernels_package.__name__}.{info.name}")
        found += [obj for obj in vars(module).values()
                  if isinstance(obj, CPUDispatcher) and obj.__module__ == module.__name__
                  and obj.targetoptions.get("inline") != "always"
                  and not obj.targetoptions.get("parallel")]
    return found


def cache_is_cold(kernels: Sequence[CPUDispatcher] | None = None) -> bool:
    """Whether some kernel has no usable cache entry (none yet, or its source changed since).

    Reads numba's cache index of each kernel (~30 ms for all of them). numba keeps the
    index behind private names; should they change, this says "cold", which
    only costs a warm-up that compiles nothing and so shows nothing. Asked of every
    physics kernel (``kernels`` None), a yes is remembered in a marker file beside their
    entries (``warm_marker``), named for numba's version and the kernels' sources: the
    next process reads that one file. A corrupt entry dropped removes it
    (``numba_cache``); a kernel file changed names another.
    """
    marker = None
    if kernels is None:
        kernels = physics_kernels()
        marker = warm_marker(kernels)
        if marker is not None and os.path.exists(marker):
            return False
    for kernel in kernels:
        try:
            if not kernel._cache._cache_file._load_index():
                return True
        except (AttributeError, OSError):
            return True
    if marker is not None:
        try:
            with open(marker, "w"):
                pass
        except OSError:  # a read-only cache: the next process reads the entries again
            pass
    return False


def warm_marker(kernels: Sequence[CPUDispatcher]) -> str | None:
    """The file that says every one of ``kernels`` (the physics kernels) had a cache entry
    for these sources and this numba: in their cache folder; None if numba's private
    names moved."""
    return _beside_entries(kernels, WARM_MARKER)


def linked_record(kernels: Sequence[CPUDispatcher]) -> str | None:
    """The file where a cold start's rehearsal writes what it compiled for linking only
    (``link_only.callees_for_linking``), for a warm-up to compile in full
    (``own_entries``): in the kernels' cache folder, named as ``warm_marker``."""
    return _beside_entries(kernels, LINKED_RECORD)


def _beside_entries(kernels: Sequence[CPUDispatcher], prefix: str) -> str | None:
    try:
        folder = kernels[0]._cache._cache_path
    except (AttributeError, IndexError):
        return None
    root = os.path.dirname(os.path.dirname(os.path.abspath(_kernels_package.__file__)))
    digest = package_digest(os.path.realpath(root))[:16]
    return os.path.join(folder, f"{prefix}{numba.__version__}-{digest}")


def own_entries(kernels: Sequence[CPUDispatcher] | None = None) -> int:
    """Compile in full each kernel signature a cold start's rehearsal compiled for linking
    only (``linked_record``): a warm-up reaching the rehearsal's kernels loads them from
    the cache and so never compiles what they call, whose entries a warm cache needs
    (``cache_is_cold``). Returns how many recorded signatures it compiled or loaded."""
    record = linked_record(physics_kernels() if kernels is None else kernels)
    return compile_recorded(record) if record is not None else 0


class _CompileListener(event.Listener):
    """Tells ``progress`` whenever one of ``kernels`` starts or ends a real compile.

    numba sends ``numba:compile`` only for compiles, not for loads from the cache,
    so the count of compiles says whether the cache was cold. ``open_ended``: the run
    reaches an unknown share of ``kernels`` (a game's rehearsal), so the total is told as
    0 until the end, then as the kernels it made ready.
    """

    def __init__(self, kernels: Sequence[CPUDispatcher], progress: Progress | None,
                 open_ended: bool = False) -> None:
        self.kernels = list(kernels)
        self._ids = {id(k) for k in self.kernels}
        self.progress = progress
        self.open_ended = open_ended
        self.compiled = 0
        self._told = (-1, -1)  # the last (done, total) told

    def ready(self) -> int:
        """Kernels with machine code in this process (loaded or compiled)."""
        return sum(1 for k in self.kernels if k.overloads)

    def on_start(self, ev: event.Event) -> None:
        if id(ev.data["dispatcher"]) in self._ids:
            self._tell()

    def on_end(self, ev: event.Event) -> None:
        if id(ev.data["dispatcher"]) in self._ids:
            self.compiled += 1
            self._tell()

    def finish(self) -> None:
        """After compiling: say ``(total, total)`` once, unless that was the last word
        (open-ended: ``(ready, ready)``)."""
        total = self.ready() if self.open_ended else len(self.kernels)
        if self.compiled and self._told != (total, total):
            self._tell(total, total)

    def _tell(self, done: int | None = None, total: int | None = None) -> None:
        done = self.ready() if done is None else done
        if total is None:
            total = 0 if self.open_ended else len(self.kernels)
        self._told = (done, total)
        if self.progress is not None:
            self.progress(done, total)


def warm_up(progress: Progress | None = None) -> int:
    """Load or compile every physics kernel (and what a cold start compiled for linking
    only: ``own_entries``); return how many compiles ran (0: cache warm).

    ``progress(done, total)`` is called as each kernel's compile starts and ends
    (never when all load from the cache), and last with ``(total, total)``.
    Takes ≈ 11 s cold (2 cores), ≈ 0.2 s warm, ~1 ms once loaded in this process.
    """
    kernels = physics_kernels()
    return compile_watched(kernels, lambda: (_step_tiny_scene(), own_entries(kernels)),
                           progress)


def compile_watched(kernels: Sequence[CPUDispatcher], run: Callable[[], object],
                    progress: Progress | None = None, open_ended: bool = False) -> int:
    """Call ``run()``, telling ``progress(done, total)`` of every compile of ``kernels``.

    Returns the number of compiles (0 when every kernel ``run`` reached came
    from the cache). If any ran, the last call is ``progress(total, total)``.
    ``open_ended``: ``run`` reaches only some of ``kernels``, how many is not known; the
    total is told as 0 until the last call, ``progress(ready, ready)``.
    """
    listener = _CompileListener(kernels, progress, open_ended)
    with event.install_listener("numba:compile", listener), fewer_scans():
        run()
    listener.finish()
    return listener.compiled


def _rigid_half() -> None:
    """``parallel_warm_up``'s helper process: the rigid bodies' half of the scene, with the
    collector's scans as ``compile_watched`` has them."""
    with fewer_scans():
        _step_tiny_scene("rigid")


def _step_tiny_scene(part: str = "all") -> None:
    """Reach every kernel with the argument types the stages pass: two steps of a scene
    with each kind of body, constraint and static geometry, a merge and a cut.

    ``part`` ``"soft"`` leaves the rigid bodies out, ``"rigid"`` has nothing else (about
    half of the compile each, for ``parallel_warm_up``)."""
    from . import systems
    from .bodies import box, jelly_ball, rope
    from .components import AreaConstraint, Fruit, Particle
    from .geometry import cut
    from .sensors import Sensor
    from .world import World

    soft, rigid = part in ("all", "soft"), part in ("all", "rigid")
    world = World(bounds=(0, 0, 400, 300)).use(
        systems.Integrate(), systems.Project(), systems.Collide(), systems.Break(),
        systems.Analyze(), systems.Merge())
    try:
        world.level.add_segment((0, 60), (120, 40))
        world.level.add_polygon([(300, 0), (400, 0), (400, 80)])
        if soft:
            ball = jelly_ball(world, 100, 150, radius=30, vertices=8)
            world.component(ball.constraint, AreaConstraint).self_collide = True
            box(world, 250, 150)
            rope(world, (200, 280), (300, 280), 4, max_stretch=0.5)
            world.create_entity(Particle(40, 250), Fruit(0))
            world.create_entity(Particle(60, 250), Fruit(0))  # touching: they merge
            world.create_entity(Particle(300, 290, radius=5, events=True))
            world.create_entity(Sensor.box(100, 150, 80, 80))  # on the ball and its outline
        if rigid:
            crate = _rigid_bodies(world)
            world.grab(crate, 322, 150)  # a body held by the pointer
        world.step(2)
        world.release()
        if soft:
            cut(world, (250, 300), (250, 250))
        world.step()
        _ask(world)
        for stage in world.pipeline:  # and the positional contacts (Collide(soft=False))
            if isinstance(stage, systems.Collide):
                stage.soft = False
        world.step()
    finally:
        world.close()
    if soft:
        _sleepers()
        _rope_frames()
        _soft_frames()
        _game_kernels()
    if rigid:
        _rigid_alone()


def _game_kernels() -> None:
    """The games' own kernels, with the arrays their stages pass (the particles' read-only
    columns, rows of their own): the rope game's cut pieces (``kernels.calm``), the goo
    game's crawlers (``kernels.riders``)."""
    from .components import Anchor, Particle
    from .kernels.calm import calm_pieces
    from .kernels.riders import ride_links
    from .world import World

    world = World(bounds=(0, 0, 200, 100))
    try:
        pin = world.create_entity(Particle(10, 90), Anchor(10, 90))
        world.create_entities([Particle(10 + 10 * k, 80) for k in range(1, 4)])
        world.step()
        p, pins = world.particles, np.array([world.particles.row(pin)], dtype=np.int64)
        one, two = np.array([1], dtype=np.int64), np.array([2, 3], dtype=np.int64)
        calm_pieces(p.pos, p.prev.copy(), p.mass, p.pinned, one, pins, two, pins, one.copy(),
                    two[:1].copy(), np.array([0, 2], dtype=np.int64),
                    np.asarray(world.down, dtype=np.float64), world.substeps, 0.93, 0.5, 0.6,
                    1.0)
        gx, gy = world.gravity
        ride_links(p.pos, p.prev, world.h, p.pinned, p.mass, one, pins, two[:1].copy(),
                   np.array([0.5]), 1.0, gx, gy, 0.0, np.empty((1, 2)), np.empty((1, 2)),
                   np.zeros((len(p), 2)), np.zeros(len(p), dtype=np.bool_))
        _crawlers(world)
        world.sleep = True  # the views' bulk writes (kernels.rows), waking what they move
        p.place(two, p.pos[two], np.zeros((2, 2)))
        p.place(two, velocity=np.zeros(2), axis=0)
        p.push(two, np.zeros((2, 2)))
        p.write("prev", p.prev[two], two)  # a checked bulk write (kernels.rows.write_checked)
        p.write("prev", p.prev.copy())  # of every row: checked first (kernels.rows.within)
    finally:
        world.close()


def _crawlers(world: Any) -> None:
    """The goo crawl's frame (``kernels.riders.crawl_frame``) with the types its stage
    passes: a link of the structure, a ball crawling on it and one walking to it; and the
    goo balls' rows and links (``kernels.structure.members``)."""
    from .components import Spring
    from .kernels.riders import crawl_frame
    from .kernels.structure import members

    first = int(world.particles.entity[0])
    world.create_entity(Spring(first, int(world.particles.entity[1])))
    world.step()
    p, s = world.particles, world.springs
    n, m = 4, len(p)
    rows, ids = np.arange(n, dtype=np.int64), p.entity[:n].copy()
    structure = np.array([True, True, False, False])
    link = np.array([0, 0, int(s.entity[0]), 0], dtype=np.int64)
    gx, gy = world.gravity
    crawl_frame(p.pos, p.prev, world.h, p.pinned, p.mass, p.radius, s.entity, s.a, s.b,
                s.broken, rows, ids, structure, ~structure, link, np.zeros(n),
                np.ones(n, dtype=np.int64), world.grabbed, 45.0, world.dt, world.frame, 0,
                3.0, 250.0, 0.013, 1.0, gx, gy, 1.0, np.empty(n, dtype=np.int64),
                np.empty(n), np.empty((n, 2)), np.empty((n, 2)),
                np.zeros((m, 2)), np.zeros(m, dtype=np.bool_))
    grounded = np.zeros(m, dtype=bool)
    grounded.flags.writeable = False  # the analyze report's, read-only
    members(p.entity, p.pinned, s.a, s.b, s.broken, grounded, ids.copy())


def _rigid_alone() -> None:
    """Rigid bodies only, a hinge and a heavy box on a light one: a frame's later substeps
    in one call (``kernels.rigid_frame``)."""
    from . import systems
    from .components import Anchor
    from .rigid import Joint, RigidBody
    from .world import World

    world = World(bounds=(0, 0, 400, 300)).use(systems.Integrate(), systems.Project(),
                                                systems.Collide())
    try:
        world.create_entity(RigidBody.box(200, 10, 300, 20), Anchor())
        light = world.create_entity(RigidBody.box(200, 25, 30, 10, mass=1.0))
        world.create_entity(RigidBody.box(200, 45, 30, 30, mass=100.0))
        world.create_entity(Joint(light, world.create_entity(RigidBody.box(240, 25, 30, 10)),
                                  225, 25))
        world.step(2)
    finally:
        world.close()


def sleepers_form(world: Any) -> tuple[bool, bool] | None:
    """The form of ``_sleepers`` that ``world``'s sleep reaches — ``(areas, statics)``:
    whether its discs meet areas or shapes, whether it has static bodies — or None if it
    does not sleep."""
    if not world.sleep:
        return None
    st = world.store
    return bool(st.areas.n or st.shapes.n), bool(st.bodies.n)


def _sleepers(areas: bool = False, statics: bool = False) -> None:
    """A disc asleep on the floor while another falls, watched: the sleeping kernels, the
    contact events' look with nothing to report, a sensor holding the same disc frame
    after frame, and a ray where there are only discs. So that the whole disc frame's
    kernel takes the form the game compiled (``physics.disc_frame``: the other form was a
    sixth of jelly's rehearsal), ``areas``: with a ring of three discs kept by an area,
    asleep at the floor's far end; ``statics``: with a small static body out of the way."""
    from . import systems
    from .components import Anchor, AreaConstraint, Particle
    from .rigid import RigidBody
    from .sensors import Sensor
    from .world import World

    world = World(bounds=(0, 0, 200, 100), sleep=True).use(systems.Integrate(),
                                                            systems.Collide())
    try:
        if areas:
            ring = [world.create_entity(Particle(x, y, radius=2, group=7))
                    for x, y in ((180, 3), (195, 3), (188, 12))]
            world.create_entity(AreaConstraint(ring))
        if statics:
            world.create_entity(RigidBody.box(100, 50, 10, 4), Anchor())
        world.create_entity(Particle(20, 5, radius=5))
        world.create_entity(Sensor.box(20, 10, 30, 30))  # holding it: the look again
        world.step(90)
        world.create_entity(Particle(150, 80, radius=5, events=True))  # watched, in flight
        world.step(2)
        # one more disc in the sensor: its frame goes the long way, the watched disc in
        # flight touching nothing (``contact_events._touch_free``)
        world.create_entity(Particle(28, 15, radius=3))
        world.step()
        world.raycast((0.0, 5.0), (200.0, 5.0))  # discs and the level alone: one call
    finally:
        world.close()


def _rope_frames() -> None:
    """A rope stepped frame after frame with its chain found before: Project's packing
    with the chain taken out (``kernels.distance.pack_springs_taken``)."""
    from . import systems
    from .bodies import rope
    from .world import World

    world = World(bounds=(0, 0, 200, 100)).use(*(s() for s in systems.SOLVER))
    try:
        rope(world, (20, 90), (120, 90), 4)
        world.step(3)
    finally:
        world.close()


def _soft_frames() -> None:
    """Soft bodies on a static body, a heavy disc dropped fast on a light one: the fused
    disc frame's forms with bodies (``physics.disc_frame._bodies_args``), with static
    bodies and without (jelly's: ``_statics``), their whole frames and, after the light
    disc is flung past its reach and the stages find its contacts again, their later
    substeps."""
    from . import systems
    from .bodies import box, jelly_ball
    from .components import Anchor, AreaConstraint, Particle
    from .rigid import RigidBody
    from .world import World

    for statics in (True, False):
        world = World(bounds=(0, 0, 300, 200)).use(*(s() for s in systems.SOLVER))
        try:
            if statics:
                world.create_entity(RigidBody.box(150, 20, 200, 10), Anchor())
            ball = jelly_ball(world, 100, 60, radius=20, vertices=8)
            world.component(ball.constraint, AreaConstraint).self_collide = True
            box(world, 200, 60, 30, 30)
            world.create_entity(Particle(150, 30, radius=4, mass=0.1))
            world.create_entity(Particle(151, 60, radius=6, mass=50.0, vy=-2000.0))
            world.step(3)
        finally:
            world.close()


def parallel_warm_up(progress: Progress | None = None) -> int:
    """``warm_up``, with a second process compiling the rigid bodies' kernels meanwhile.

    numba compiles one function at a time in a process; on two cores a cold cache is
    compiled about twice as fast this way (BENCHMARKS.md, "The test suite"). Both write
    the same cache (numba writes each entry whole); this process steps the soft-body
    half, waits for the helper, then steps the whole scene, which loads what the helper
    compiled and compiles anything left. Returns this process's compiles. With one core,
    or from a warm cache, it is ``warm_up``.
    """
    if (os.cpu_count() or 1) < 2 or not cache_is_cold():
        return warm_up(progress)
    helper = _helper("_rigid_half")

    def both_halves() -> None:
        try:
            _step_tiny_scene("soft")
        finally:
            helper.wait()  # whatever it did not compile, the whole scene compiles here
        _step_tiny_scene()
        own_entries()

    return compile_watched(physics_kernels(), both_halves, progress)


def game_warm_up(game: Any, progress: Progress | None = None) -> int:
    """``warm_up`` for ``game`` (an ``ecsgoo.Game``) about to be played: what its first
    fifteen seconds of play reach compile here (``first_frames``), and every kernel in a helper
    process at a low priority, which goes on while the game plays (stopped when this
    process ends; the next start goes on from what it wrote). A kernel the game reaches
    later loads from what the helper wrote, or compiles then if it has not got there yet.

    A game starts after about a quarter of the compile of every kernel: what its
    rehearsal's kernels only call compiles for linking into them (``link_only``;
    BENCHMARKS.md, stop 62).
    Returns this process's compiles; from a warm cache, nothing. With one core,
    ``warm_up`` (a helper would take the game's core).
    """
    if not cache_is_cold():
        return 0
    if (os.cpu_count() or 1) < 2:
        return warm_up(progress)
    # the helper starts with what the game reaches later (a world of it falling asleep),
    # then the kernels of its kind (particles, or bodies alone): what a later moment or
    # level of it is likeliest to reach
    store = game.world.store
    start_background("rigid" if store.bodies.n and not store.particles.n else "soft",
                     sleepers_form(game.world))
    # what only the rehearsal's kernels call compiles for linking into them, no more, and
    # is recorded: the helper compiles it in full (``own_entries``), every kernel's own
    # entry (``link_only``: a third of the compile)
    kernels = physics_kernels()
    with callees_for_linking(linked_record(kernels)):
        return compile_watched(kernels, lambda: first_frames(game), progress,
                               open_ended=True)


def first_frames(game: Any, frames: int = 900) -> None:
    """Reach what the first ``frames`` frames (fifteen seconds) of playing ``game`` reach,
    on a rehearsal that leaves it as it was: a new game of its kind continuing a copy of
    its world (``Game.adopt``, ``World.clone``), played by its first bot if it has one
    (drops, cuts, placed balls), then something grabbed and let go and what a press asks
    under the pointer. A game that cannot be made again from its kind, level and seed (a
    user's own) rehearses on the copy of its world alone; one whose rehearsal raises stops
    there (play shows the error where it happens).

    What play reaches later or seldom compiles behind it, in the background helper
    (``game_warm_up``): first a world asleep in the game's form (``_sleepers``), rays and
    box queries with every other kernel after; what play gets to before the helper has
    compiles then, lazily, as numba would."""
    twin = _rehearsal(game)
    bot = twin.bots[0] if twin.bots else None
    try:
        try:
            for _ in range(frames):
                if bot is not None and twin.status().result == "running":
                    twin.bot_act(bot)
                twin.step()
        except Exception:  # noqa: BLE001 - a bot's or a game's error is play's to show,
            pass  # where it happens: the rehearsal stops with what it compiled so far
        world = twin.world
        held = _something_to_grab(world)
        if held is not None:
            world.grab(*held)
            world.step()
            world.release()
        # what a press asks under the pointer (jelly's, the editor's)
        world.query_point(*(held[1:] if held is not None else (0.0, 0.0)))
    finally:
        twin.world.close()


def _rehearsal(game: Any) -> Any:
    """A game of ``game``'s kind, level and seed continuing a copy of its world; if it
    cannot be made so, a bare ``Game`` with no bots, rules or handlers on the copy."""
    from .game import Game

    try:
        twin = type(game)(level=game.level, seed=game.seed)
    except Exception:  # noqa: BLE001 - any game's own constructor: the rehearsal is a help
        twin = Game.__new__(Game)
        twin.bots, twin._world = (), None
    built = twin._world
    twin.adopt(game.world.clone())
    if built is not None and twin.world is not built:
        built.close()
    return twin


def _something_to_grab(world: Any) -> tuple[int, float, float] | None:
    """A particle or body that moves (not pinned, not static) and where it is, or None."""
    st = world.store
    for table in (st.particles, st.bodies):
        free = np.flatnonzero(table.cols["w"][: table.n] > 0)
        if len(free):
            x, y = table.cols["pos"][free[0]]
            return int(table.cols["entity"][free[0]]), float(x), float(y)
    return None


def compile_behind_if_cold() -> bool:
    """On a cold cache, start the background helper (every kernel, at a low priority) and
    say so; the launcher opens meanwhile, and a game picked from it warms up its own way
    (``game_warm_up``: what the helper has written loads)."""
    if not cache_is_cold():
        return False
    start_background("soft")
    return True


#: The helper that compiles in the background while a game plays (``start_background``).
_background: subprocess.Popen | None = None


def start_background(first: str = "soft",
                     sleepers: tuple[bool, bool] | None = None) -> subprocess.Popen:
    """Start the background helper (``_in_background``, with ``first`` and ``sleepers``)
    unless one is running; it stops when this process ends. Until it has ended, the fused
    disc frame leaves worlds with bodies to the stages (``physics.disc_frame.
    defer_bodies``)."""
    global _background
    if _background is None or _background.poll() is not None:
        stop_background()  # (the last one has ended: its pipe closed)
        _background = _helper("_in_background", first, os.getpid(), sleepers, pipe=True)
        atexit.unregister(stop_background)  # registered once however many start
        atexit.register(stop_background)
        from .physics import disc_frame

        disc_frame.defer_bodies(_background)  # its form with bodies: the helper's to compile
    return _background


def stop_background() -> None:
    """Stop the background helper, if it is still compiling, and close its pipe."""
    if _background is None:
        return
    if _background.poll() is None:
        _background.terminate()
        _background.wait()
    if _background.stdin is not None:
        _background.stdin.close()  # (this process's end of it: ``_end_with``)


def _in_background(first: str, parent: int,
                   sleepers: tuple[bool, bool] | None = None) -> None:
    """``game_warm_up``'s helper process, at a low priority: a world falling asleep in the
    form ``sleepers`` gives (``sleepers_form``; none if None), the games' own kernels (a
    rope's cut, goo's crawlers), the ``first`` half of the tiny scene, then all of it;
    then the marker that says the cache is warm (``cache_is_cold``). It ends when its
    ``parent`` process does, however that ends (``stop_background`` needs an orderly exit):
    ``start_background`` gives it a pipe on its stdin (``_end_with``)."""
    if hasattr(os, "nice"):
        os.nice(10)
    threading.Thread(target=_end_with, args=(parent, True), daemon=True).start()
    with fewer_scans():
        if sleepers is not None:
            _sleepers(*sleepers)
        _game_kernels()
        _step_tiny_scene(first)
        _step_tiny_scene()
        own_entries()  # what the game's rehearsal compiled for linking only
    cache_is_cold()


def _end_with(parent: int, piped: bool = False) -> None:
    """End this process as soon as ``parent`` has ended: this one is handed on (its parent
    id changes: POSIX), or, if ``piped``, the pipe on its stdin ends (the parent's end is
    closed as the parent ends, however it ends: Windows too, where a process is not
    handed on and its parent id stays)."""
    if piped:
        threading.Thread(target=_exit_at_end_of, args=(sys.stdin,), daemon=True).start()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _exit_at_end_of(stream: TextIO) -> None:
    """``os._exit(0)`` once ``stream`` ends (nothing is ever written to it); nothing if
    there is no stream (a process started without one)."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        return
    try:
        while buffer.read(4096):
            pass
    except (OSError, ValueError):  # a broken pipe (Windows), a closed stream: ended too
        pass
    os._exit(0)


def _helper(name: str, *args: Any, pipe: bool = False) -> subprocess.Popen:
    """A Python process calling this module's ``name(*args)`` (plain values), with this
    process's kernel cache folder and this checkout on its path, its output discarded;
    with ``pipe``, a pipe on its stdin that this process keeps open and never writes to
    (``_end_with``)."""
    env = dict(os.environ)
    if numba.config.CACHE_DIR:  # a folder chosen for this run (numba_cache) or by the user
        env["NUMBA_CACHE_DIR"] = numba.config.CACHE_DIR
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-c", f"from ecsgoo.warmup import {name}; {name}(*{args!r})"],
        env=env, stdin=subprocess.PIPE if pipe else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)


def _rigid_bodies(world: Any) -> int:
    """A static crate, a box and a wheel on it, a hinge, a weld, a spring on a body and a
    particle touching one: every rigid-body kernel and contact kind. Returns the box."""
    from .components import Anchor, Particle, Spring
    from .rigid import Joint, RigidBody

    world.create_entity(RigidBody.box(330, 120, 100, 20), Anchor())
    crate = world.create_entity(RigidBody.box(320, 145, 30, 30))
    wheel = world.create_entity(RigidBody.circle(350, 145, 10))
    world.create_entity(Joint(crate, wheel, 335, 145))
    plank = world.create_entity(RigidBody.polygon(320, 200, [(0, 0), (30, 0), (30, 8)]))
    world.create_entity(Joint(plank, crate, 325, 180, weld=True))
    hook = world.create_entity(Particle(300, 250), Anchor())
    world.create_entity(Spring(hook, plank, at_b=(322, 201)))
    world.create_entity(Particle(305, 162, radius=5))
    # off to the side: heavy boxes resting on a light one and on a particle (the shock
    # pass, kernels.stacks)
    # and a thin fast plank (the sweep, kernels.continuous)
    world.create_entity(RigidBody.box(620, 100, 80, 20), Anchor())
    world.create_entity(RigidBody.box(620, 115, 30, 10, mass=1.0))
    world.create_entity(RigidBody.box(620, 135, 30, 30, mass=100.0))
    world.create_entity(Particle(648, 115, radius=5))  # and one on a particle
    world.create_entity(RigidBody.box(648, 130, 20, 20, mass=100.0))
    dart = world.create_entity(RigidBody.box(520, 160, 20, 2, mass=1.0))
    world.component(dart, RigidBody).vx = 6000.0
    return crate


def _ask(world: Any) -> None:
    """Rays and queries through every kind of thing (their kernels)."""
    world.raycast((0, 150), (400, 150))
    world.raycast_all((10, 10), (390, 290))
    world.query_box(280, 100, 360, 200)
    world.query_point(320, 145)


class TerminalProgress:
    """A ``Progress`` on ``stream`` (stderr): ``ecsgoo: MESSAGE n/N`` (``n ready`` while the
    total is not known) redrawn in place on a terminal (at most 4× a second), and where
    ``stream`` is not one (a pipe, a log) only a few whole lines: at the start, each
    quarter of a known total, and ``done in … s``."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.terminal = is_terminal(self.stream)
        self.start: float | None = None
        self.shown = 0.0
        self._quarter = -1
        self.open_ended = False  # told a total of 0: a game's warm-up (the rest behind it)

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        self.open_ended = self.open_ended or not total
        if self.start is None:
            self.start = now
        elif (done < total or not total) and not self._due(now, done, total) \
                or self._quarter == 4:
            return  # not worth a redraw, or "done" said already
        self.shown = now
        finished = done == total > 0
        if finished:
            self._quarter = 4
        line = f"ecsgoo: {MESSAGE} {done}/{total}" if total else f"ecsgoo: {MESSAGE} {done} ready"
        if finished:
            line += f" done in {now - self.start:.1f} s"
            if self.open_ended:
                line += " (the rest compile in the background)"
        if self.terminal:
            self.stream.write("\r" + line + ("\n" if finished else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def _due(self, now: float, done: int, total: int) -> bool:
        """Whether an update is worth showing: a redraw a quarter second after the last
        on a terminal, a newly reached quarter of a known total elsewhere."""
        if self.terminal:
            return now - self.shown >= 0.25
        if not total:
            return False
        quarter = 4 * done // total
        if quarter > max(self._quarter, 0):
            self._quarter = quarter
            return True
        return False


def terminal_warm_up(stream: TextIO | None = None, game: Any = None) -> int:
    """The warm-up with its progress on ``stream`` (stderr) when the cache is cold; else
    nothing at all: ``game_warm_up`` for a ``game`` about to be played, else
    ``parallel_warm_up``. Returns how many kernels compiled here."""
    if not cache_is_cold():
        return 0
    settle()  # a compile makes garbage by the gigabyte: the collector back on for it
    if game is not None:
        return game_warm_up(game, TerminalProgress(stream))
    return parallel_warm_up(TerminalProgress(stream))
