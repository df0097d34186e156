"""Sleeping (``World(sleep=True)``): what has stayed slow for half a second stops costing.

At the end of every frame (``World.end_frame``) each particle and rigid body
that moved slower than ``sleep_speed`` over the frame counts one more still
frame (``still``), else its count starts again. What it moved is measured from
where the frame began (``begin_frame``), not from its last substep: in a pile
``pos − prev`` holds the contacts' pushes (±20 px/s in a 500-disc pile that moves
a tenth of a pixel a second), so it could never count as still.

Things that touch or are linked — springs, area and shape constraints, joints,
springs on bodies, particles within ``r1 + r2 + contact_slop``, rigid-body
contacts — form an *island*; an island whose every member has been still for
``SLEEP_FRAMES`` falls asleep together: velocities zero, ``asleep`` set. When
everything that can move is asleep the solver's substeps are skipped altogether
(``World.resting``): a sleeping world costs nothing.

Sleeping never changes what happens, and a sleeping island out of reach costs
next to nothing. As a frame begins (``freeze``) each sleeping island that nothing
awake can reach within the frame — an awake island's box grown by twice its
fastest speed × dt, gravity and forces included, and the contact slop — is
*frozen*: solved as static (inverse mass 0, ``derived.inverse_masses``), so the
solver skips its rows. One within reach keeps its inverse mass, so the solver
pushes it as it would push it awake: a ball rolled into a sleeping crate knocks
it. A row made or deleted during the frame thaws every frozen one
(``Store.prepare``). After the frame (``update``) the frozen thaw, a sleeping row
that was moved faster than ``sleep_speed`` wakes its island, and the others are
put back exactly where they fell asleep, at rest, so a sleeping pile does not
creep. What a push cannot reveal in one frame
wakes explicitly (``wake``): a write of a position, velocity, mass, friction or
motor, a force, a grab, a component added or removed, a spring or joint made to
it; removing something static, changing the bounds or the level wakes
everything (``wake_all``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from . import derived, kinematic
from .flags import any_set
from .kernels.islands import freeze_look, island_labels, sleepers
from .kernels.rows import still_again
from .kernels.stillness import (
    any_ready,
    body_speeds,
    count_still,
    frame_stillness,
    moved_asleep,
    particle_speeds,
)
from .physics.broadphase import one_cell
from .physics.contacts import island_pairs

if TYPE_CHECKING:
    from .world import World

#: The least speed (px/s) that counts as moving; see ``sleep_speed``.
SLEEP_SPEED = 2.0
#: Frames an island must stay still before it sleeps (half a second at 60 Hz).
SLEEP_FRAMES = 30
#: While nothing is asleep, islands are looked for every this many frames only (a
#: scene that never settles pays a tenth of the look).
LOOK_EVERY = 10


class SleepState:
    """What sleeping keeps between calls (``World.sleep_state``): the frame's start and the
    rows of a resting world."""

    def __init__(self) -> None:
        self.start: FrameStart | None = None
        self.resting_rows: tuple[int, int] | None = None
        #: The usual frame's particle and body speeds (px/s; scratch ``_look`` reuses).
        self.speeds: tuple[np.ndarray, np.ndarray] | None = None

    def copy(self) -> SleepState:
        """An independent copy (``World.clone``)."""
        twin = SleepState()
        twin.resting_rows = self.resting_rows
        return twin


def update(world: World) -> None:
    """Count still frames, find the islands, put still ones to sleep, wake mixed ones."""
    st = world.store
    p, b = st.particles, st.bodies
    n, m = p.n, b.n
    if n + m == 0:
        world.resting = False
        return
    state = world.sleep_state
    if _rested_through(world):
        return
    start, state.start = state.start, None
    slow = sleep_speed(world)
    hit = _look(world, start, slow)
    speed, bspeed = _frame_speeds(world, start) if hit is None else state.speeds
    if hit is not False:  # the long way: a sleeping row was hit, or rows came or went
        _hold(world, start, speed, bspeed, slow)
        for table, fast in ((p, speed), (b, bspeed)):
            count_still(table.n, fast, table.asleep, table.still, slow)
    _finish(world, bspeed)


def _rested_through(world: World) -> bool:
    """``update``'s first step: the frame is over, so frozen islands have their inverse
    masses back; then whether there is nothing more to do (all asleep, nothing woke,
    ``wake``, and nothing joined)."""
    st = world.store
    st.thaw()
    return world.resting and world.sleep_state.resting_rows == (st.particles.n, st.bodies.n)


def _finish(world: World, bspeed: np.ndarray, resting: bool | None = None) -> None:
    """``update``'s last steps, once the still counts are in: a kinematic body that moved
    and the grabbed row count no still frame; the island look every ``LOOK_EVERY`` frames;
    whether everything rests (``resting``, when known and no look changed it)."""
    st = world.store
    p, b = st.particles, st.bodies
    kinematic.keep_awake(b, bspeed)
    for table, slot in ((p, st.pslot), (b, st.bslot)):
        row = slot.get(world.grabbed, -1)
        if row >= 0:
            table.still[row] = 0
    if world.frame % LOOK_EVERY == 0:  # islands to put to sleep are looked for only now
        # and then (what was hit woke above; a touch that moved nothing changes only counts)
        _look_for_islands(world)
        resting = None
    world.resting = derived.resting(world) if resting is None else resting
    world.sleep_state.resting_rows = (p.n, b.n)


def quiet_args(world: World) -> tuple[Any, ...] | None:
    """``frame_end.quiet``'s part: ``update``'s first step (``_rested_through``) and then,
    for its usual frame, what the frame's look takes (``_stillness``' arguments but the
    rows' count and columns the kernel has already, then the rows that can move, for
    ``all_asleep``), after a flag that says to call ``quiet_done`` with what it found;
    None when ``update`` must go the long way (no start taken, or rows came or went)."""
    if not world.sleep or _rested_through(world):
        return _NO_LOOK
    look = _stillness(world, world.sleep_state.start, sleep_speed(world))
    if look is None:
        return None
    c, bc = world.store.particles.cols, world.store.bodies.cols
    return (True, True, *look[3:], c["pinned"], c["mass"], bc["pinned"])


def quiet_done(world: World, sleeps: bool, resting: bool) -> None:
    """``update``'s rest after ``frame_end.quiet``'s look found no sleeping row hit
    (``sleeps``: some row sleeps, put back where the frame began; ``resting``: everything
    that can move sleeps)."""
    state = world.sleep_state
    state.start = None
    if sleeps:
        world.store.moved()  # the sleeping rows were put back where the frame began
    _finish(world, state.speeds[1], resting)


def _look_for_islands(world: World) -> None:
    """Put each island whose members have all been still for ``SLEEP_FRAMES`` to sleep,
    wake the others. While no member of any island has been still that long, every
    island is awake after it: that is known without finding the islands (a world that
    keeps moving, as a game played without pause, pays no look)."""
    p, b = world.store.particles, world.store.bodies
    n = p.n
    if not any_ready(n, p.pinned, p.mass, p.still, b.n, b.pinned, b.still, SLEEP_FRAMES):
        _set(world, np.zeros(n, dtype=bool), np.zeros(b.n, dtype=bool))
        return
    island = islands(world)  # as the frame ends
    # an island sleeps when all its members are still long enough; else all are awake
    asleep, same = sleepers(island, n, p.still, b.still, SLEEP_FRAMES, p.pinned, p.mass,
                            b.pinned, p.asleep, b.asleep, p.nap, b.nap)
    if not same:  # (when it is, ``sleepers`` did what ``_set`` would: the awake unnamed)
        _set(world, asleep[:n], asleep[n:], island)


#: ``quiet_args`` when there is nothing to look at: its flags off (typed as the look's).
_NO_LOOK = (False, False, np.zeros((0, 2)), np.zeros(0, dtype=np.bool_),
            np.zeros(0, dtype=np.int64), 0, np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0),
            np.zeros(0), np.zeros(0), np.zeros((0, 3)), np.zeros(0, dtype=np.bool_),
            np.zeros(0, dtype=np.int64), 1.0, 1.0, 1.0, np.zeros(0), np.zeros(0),
            np.zeros(0, dtype=np.bool_), np.zeros(0), np.zeros(0, dtype=np.bool_))


def sleep_speed(world: World) -> float:
    """Slower than this (px/s, for a body with its rim's turning speed) counts as still:
    the speed gravity gives in one frame, ``|g|·dt`` (16 px/s at 980 px/s² and
    60 Hz; pymunk's default idle speed), and at least ``SLEEP_SPEED``.

    A settled pile's particles jitter by up to 8 px/s from frame to frame (a
    tenth of a pixel a frame) for many seconds before the contacts find an exact
    rest, so a threshold of a few px/s kept the 500-disc pile awake (0 % asleep
    after 10 s); at ``|g|·dt`` it sleeps after 7–9 s (three seeds). Something
    slower than that for half a second moves less than 8 px in it, and wakes
    the moment it is pushed, pulled, written or touched.
    """
    return max(SLEEP_SPEED, math.hypot(*world.gravity) * world.dt)


def freeze(world: World) -> None:
    """Freeze the sleeping islands nothing awake can reach this frame (``Store.freeze``;
    the frame's end thaws them)."""
    st = world.store
    p, b = st.particles, st.bodies
    if not (any_set(p.asleep) or any_set(b.asleep)):
        return
    dt = world.dt
    grabbed, pull = st.pslot.get(world.grabbed, -1), 0.0
    if grabbed < 0 and world.grabbed in st.bslot:
        grabbed = p.n + st.bslot[world.grabbed]
    if grabbed >= 0:  # the pointer may pull it as far as the target this frame
        at = p.pos[grabbed] if grabbed < p.n else b.pos[grabbed - p.n]
        pull = math.hypot(*(at - world.grab_target)) / dt
    # what is awake may pass its speed on to anything awake it hits: the fastest counts
    c, bc = p.cols, b.cols
    cold = np.empty(p.n + b.n, dtype=np.bool_)
    _, some = freeze_look(p.n, c["pos"], c["prev"], c["w"], world.frame_force, c["pinned"],
                          c["mass"], c["asleep"], c["nap"], c["radius"], b.n, bc["pos"],
                          bc["prev"], bc["angle"], bc["prev_angle"], bc["extent"], bc["w"],
                          world.body_force, bc["pinned"], bc["asleep"], bc["nap"], st.h, dt,
                          math.hypot(*world.gravity), grabbed, pull,
                          2.0 * world.contact_slop + 1.0, cold)
    if some:  # (nothing that can move awake: the solver does not run, nothing freezes)
        st.freeze(cold[: p.n], cold[p.n:])


def begin_frame(world: World) -> None:
    """Where the particles and bodies are as the frame begins (``World.begin_frame``)."""
    p, b = world.store.particles, world.store.bodies
    if b.n:
        bpose = np.empty((b.n, 3))
        bpose[:, :2], bpose[:, 2] = b.pos, b.angle
        bentity = b.entity.copy()
    else:  # no bodies (a game of particles): nothing to copy (column_stack cost ~4 µs)
        bentity, bpose = _NO_ENTITIES, _NO_POSES
    world.sleep_state.start = FrameStart(p.entity.copy(), p.pos.copy(), p.version,
                                         bentity, bpose, b.version)


#: A frame's start without bodies (shared by every such frame: of no rows, nothing
#: can be written into them, and writable they are the kernels' usual type).
_NO_ENTITIES = np.zeros(0, dtype=np.int64)
_NO_POSES = np.zeros((0, 3))


class FrameStart:
    """Each particle's and body's pose as the frame began, by entity (rows may move)."""

    def __init__(self, entity: np.ndarray, pos: np.ndarray, version: int,
                 bentity: np.ndarray, bpose: np.ndarray, bversion: int) -> None:
        self.entity, self.pos, self.version = entity, pos, version
        self.bentity, self.bpose, self.bversion = bentity, bpose, bversion

    def poses(self, table: Any, body: bool) -> tuple[np.ndarray, np.ndarray | bool]:
        """Per row of ``table`` now: its pose as the frame began (x, y[, angle]) and whether
        it had one (rows added during the frame had none; True: every row had)."""
        entity, pose, version = ((self.bentity, self.bpose, self.bversion) if body
                                 else (self.entity, self.pos, self.version))
        if version == table.version:  # no row came or went: the same rows
            return pose, True
        order = np.argsort(entity, kind="stable")
        at = np.minimum(np.searchsorted(entity[order], table.entity), max(len(order) - 1, 0))
        found = (entity[order][at] == table.entity) if len(order) else np.zeros(table.n, bool)
        out = np.zeros((table.n, pose.shape[1]))
        out[found] = pose[order[at[found]]]
        return out, found


def _hold(world: World, start: FrameStart | None, speed: np.ndarray,
          bspeed: np.ndarray, slow: float) -> None:
    """Sleeping rows the frame moved (``speed``, ``bspeed`` px/s: at ``slow`` or faster)
    wake their islands; the others go back to where the frame began, at rest (nothing
    that sleeps creeps). No start: the solver did not run (the world rested), so nothing
    sleeping moved."""
    p, b = world.store.particles, world.store.bodies
    if start is None:
        return
    hit_p, sleeps_p = moved_asleep(p.n, speed, p.asleep, slow)
    hit_b, sleeps_b = moved_asleep(b.n, bspeed, b.asleep, slow)
    if not (sleeps_p or sleeps_b):
        return
    if hit_p or hit_b:
        hit = np.concatenate([p.asleep & (speed >= slow), b.asleep & (bspeed >= slow)])
        island = islands(world)  # as the solver left them (not the last look's: a loaded
        # world has none, and must wake the same)
        woke = np.isin(island, island[hit])
        _set(world, p.asleep & ~woke[: p.n], b.asleep & ~woke[p.n:])
        p.still[woke[: p.n]] = 0
        b.still[woke[p.n:]] = 0
    for table, body in ((p, False), (b, True)):
        if not any_set(table.asleep):
            continue
        then, known = start.poses(table, body)
        rows = np.flatnonzero(table.asleep & known)
        c = table.cols
        c["pos"][rows] = c["prev"][rows] = then[rows, :2]
        if body:
            c["angle"][rows] = c["prev_angle"][rows] = then[rows, 2]
    world.store.moved()


def _look(world: World, start: FrameStart | None, slow: float) -> bool | None:
    """The usual frame's speeds, holding and still counts in one call
    (``stillness.frame_stillness``; the speeds into ``world.sleep_state.speeds``), when
    every row was there as the frame began: ``False`` when done, ``True`` when a sleeping
    row was hit (the speeds are in, nothing else was written: ``_hold`` wakes its island).
    ``None``, and nothing done, when rows came or went or no start was taken."""
    look = _stillness(world, start, slow)
    if look is None:
        return None
    hit, sleeps = frame_stillness(*look)
    if sleeps and not hit:
        world.store.moved()  # the sleeping rows were put back where the frame began
    return hit


def _stillness(world: World, start: FrameStart | None, slow: float) -> tuple[Any, ...] | None:
    """``frame_stillness``' arguments for the usual frame (the speeds into the kept
    ``world.sleep_state.speeds``), or None when rows came or went or no start was taken."""
    st = world.store
    p, b = st.particles, st.bodies
    if start is None or start.version != p.version or start.bversion != b.version:
        return None
    state = world.sleep_state
    speeds = state.speeds
    if speeds is None or len(speeds[0]) != p.n or len(speeds[1]) != b.n:
        speeds = state.speeds = (np.empty(p.n), np.empty(b.n))
    c, bc = p.cols, b.cols
    return (p.n, c["pos"], c["prev"], start.pos, c["asleep"], c["still"], b.n, bc["pos"],
            bc["prev"], bc["angle"], bc["prev_angle"], bc["extent"], start.bpose, bc["asleep"],
            bc["still"], st.h, world.dt, slow, *speeds)


def _frame_speeds(world: World, start: FrameStart | None) -> tuple[np.ndarray, np.ndarray]:
    """Each particle's and body's speed over the frame (px/s): from where it began, or
    (rows added during the frame, or no start taken) from its last substep."""
    st = world.store
    p, b = st.particles, st.bodies
    speed, bspeed = np.empty(p.n), np.empty(b.n)
    none = np.zeros(0, dtype=np.bool_)
    then, known = (np.zeros((0, 2)), np.zeros(p.n, dtype=np.bool_)) if start is None else \
        start.poses(p, False)
    particle_speeds(p.n, p.cols["pos"], p.cols["prev"], then, none if known is True else known,
                    st.h, world.dt, speed)
    then, known = (np.zeros((0, 3)), np.zeros(b.n, dtype=np.bool_)) if start is None else \
        start.poses(b, True)
    c = b.cols
    body_speeds(b.n, c["pos"], c["prev"], c["angle"], c["prev_angle"], c["extent"], then,
                none if known is True else known, st.h, world.dt, bspeed)
    return speed, bspeed


def islands(world: World) -> np.ndarray:
    """An island label per particle row, then per body row (``n + m`` labels), in one
    kernel call (``kernels.islands.island_labels``; what links rows: its docstring)."""
    return island_labels(*_island_links(world))


def _island_links(world: World) -> tuple[Any, ...]:
    """``island_labels``' arguments: the store's links as the frame ends, the particles'
    grid, the bodies' contact pairs and the sleeping rows' islands."""
    st = world.store
    st.prepare()  # the members' rows as they are now (a deletion may have moved them)
    p, b, s, j, t = st.particles, st.bodies, st.springs, st.joints, st.tethers
    grid = world.broadphase.particles(world) if p.n else one_cell(0)
    return (p.n, b.n, s.a, s.b, s.broken, st.area_off, st.area_idx, st.shape_off,
            st.shape_idx, p.cols["pos"], p.cols["radius"], world.contact_slop, *grid,
            j.a_body, j.a_part, j.b_body, j.b_part, j.broken, t.a_body, t.a_part, t.b_body,
            t.b_part, t.broken, island_pairs(world), p.nap, b.nap, p.pinned, p.mass,
            b.pinned)


def name_naps(world: World) -> None:
    """Rows saved asleep without the island they fell asleep with (files from before
    ``nap``) take it from the islands they are in now; awake rows have none."""
    p, b = world.store.particles, world.store.bodies
    p.nap[~p.asleep] = -1
    b.nap[~b.asleep] = -1
    lost = np.concatenate([p.asleep & (p.nap < 0), b.asleep & (b.nap < 0)])
    if lost.any():
        _name(world, islands(world), np.concatenate([p.asleep, b.asleep]), lost)


def _name(world: World, island: np.ndarray, asleep: np.ndarray, rows: np.ndarray) -> None:
    """Give the flagged ``rows`` their island's name: the least entity of its rows that
    are ``asleep`` (particle rows, then body rows)."""
    p, b = world.store.particles, world.store.bodies
    entity = np.concatenate([p.entity, b.entity])
    least = np.full(int(island.max()) + 1, np.iinfo(np.int64).max)
    np.minimum.at(least, island[asleep], entity[asleep])
    nap = np.concatenate([p.nap, b.nap])
    nap[rows] = least[island[rows]]
    p.nap[:], b.nap[:] = nap[: p.n], nap[p.n:]


def wake_all(world: World) -> None:
    """Wake everything (a bulk write through a table view, new gravity)."""
    p, b = world.store.particles, world.store.bodies
    if any_set(p.asleep) or any_set(b.asleep) or world.resting:
        _set(world, np.zeros(p.n, dtype=bool), np.zeros(b.n, dtype=bool))
        p.still[:] = 0
        b.still[:] = 0
        world.resting = False


def _set(world: World, particles: np.ndarray, bodies: np.ndarray,
         island: np.ndarray | None = None) -> None:
    """Make the flagged rows asleep (at rest where they are), the rest awake (and thawed).

    A row falling asleep takes its ``island``'s name (``nap``: the least entity of the
    island's rows that sleep); a waking one drops it."""
    st = world.store
    p, b = st.particles, st.bodies
    st.thaw(~particles, ~bodies)
    fall = np.concatenate([particles & ~p.asleep, bodies & ~b.asleep])
    if fall.any():
        island = islands(world) if island is None else island
        _name(world, island, np.concatenate([particles, bodies]), fall)
    p.nap[~particles] = -1
    b.nap[~bodies] = -1
    n = p.n
    p.prev[fall[:n]] = p.pos[fall[:n]]
    p.asleep[:] = particles
    b.prev[fall[n:]], b.prev_angle[fall[n:]] = b.pos[fall[n:]], b.angle[fall[n:]]
    b.asleep[:] = bodies


def wake_rows(world: World, table: Any, rows: np.ndarray) -> None:
    """What ``wake`` of each of ``rows``' entities (rows of ``table``, each once) does, at
    once (the views' bulk writes: ``world.particles.place``, ``push``): an asleep row wakes
    its island (``world.wake``, one at a time: rare); an awake row, whose island cannot
    sleep before it, starts its still count again."""
    if not world.sleep or not len(rows):
        return
    cols = table.cols
    woken(world, table, rows, still_again(cols["asleep"], cols["still"], rows))


def woken(world: World, table: Any, rows: np.ndarray, asleep: bool) -> None:
    """``wake_rows`` once ``rows``' still counts started again (``asleep``: one of them is
    asleep, so its island wakes; not the usual case)."""
    if asleep:
        cols = table.cols
        for entity in cols["entity"][rows[cols["asleep"][rows]]].tolist():
            world.wake(entity)  # its island's still counts start again too
    world.resting = False


def wake(world: World, entity: int) -> None:
    """Wake ``entity``'s island now (a write, a force, a grab, a deletion, a break): what
    fell asleep with it (``nap``); their still counts start again (awake already: its
    own, which keeps its island awake as long)."""
    st = world.store
    p, b = st.particles, st.bodies
    world.resting = False
    row, body = st.pslot.get(entity, -1), st.bslot.get(entity, -1)
    if row < 0 and body < 0:
        return  # not a particle or body: whatever it changed, the next frame looks
    table, k = (p, row) if row >= 0 else (b, body)
    if not table.asleep[k]:  # awake, so is its island: it cannot sleep until this one is
        table.still[k] = 0  # still again, as if the island's count started again
        return
    nap = np.concatenate([p.nap, b.nap])  # it wakes with what it fell asleep with
    woke = (nap == table.nap[k]) & (nap >= 0)
    woke[row if row >= 0 else p.n + body] = True
    _set(world, p.asleep & ~woke[: p.n], b.asleep & ~woke[p.n:])
    p.still[woke[: p.n]] = 0
    b.still[woke[p.n:]] = 0
