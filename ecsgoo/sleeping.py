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
``SLEEP_FRAMES`` falls asleep together: velocities zero, inverse masses 0 (the
solver's kernels skip what cannot move), ``asleep`` set. It wakes together as
soon as one member is not still: something awake and moving touches it (it joins
the island), or the game writes a position or velocity, applies a force, grabs,
deletes or breaks something of it (``wake``). When everything is asleep the
solver's substeps are skipped altogether (``World.resting``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .kernels.graph import component_labels
from .kernels.grid import build_grid
from .kernels.queries import touching_pairs

if TYPE_CHECKING:
    from .world import World

#: The least speed (px/s) that counts as moving; see ``sleep_speed``.
SLEEP_SPEED = 2.0
#: Frames an island must stay still before it sleeps (half a second at 60 Hz).
SLEEP_FRAMES = 30
#: While nothing is asleep, islands are looked for every this many frames only (a
#: scene that never settles pays a tenth of the look).
LOOK_EVERY = 10


def update(world: World) -> None:
    """Count still frames, find the islands, put still ones to sleep, wake mixed ones."""
    st = world.store
    p, b = st.particles, st.bodies
    n, m = p.n, b.n
    if n + m == 0:
        world.resting = False
        return
    if world.resting and world.__dict__.get("_resting_rows") == (n, m):
        return  # all asleep, nothing woke (``wake``) and nothing joined: nothing changed
    speed, bspeed = _frame_speeds(world)
    slow = sleep_speed(world)
    for table, fast in ((p, speed), (b, bspeed)):
        still = table.still
        still[:] = np.where(table.asleep, still, np.where(fast < slow, still + 1, 0))
    grabbed_p = st.pslot.get(world.grabbed, -1)
    grabbed_b = st.bslot.get(world.grabbed, -1)
    if grabbed_p >= 0:
        p.still[grabbed_p] = 0
    if grabbed_b >= 0:
        b.still[grabbed_b] = 0
    if not (p.asleep.any() or b.asleep.any()) and world.frame % LOOK_EVERY:
        return  # nothing to wake: look for islands to put to sleep only now and then
    labels = islands(world)
    world.island = labels
    # an island sleeps when all its members are still long enough; else all are awake
    still = np.concatenate([p.still, b.still]) >= SLEEP_FRAMES
    movable = np.concatenate([~p.pinned & (p.mass < np.inf), ~b.pinned])
    restless = np.zeros(labels.max() + 1, dtype=bool)
    np.logical_or.at(restless, labels, movable & ~still)
    asleep = movable & ~restless[labels]
    _set(world, asleep[:n], asleep[n:])
    world.resting = bool(asleep[movable].all()) if movable.any() else False
    world._resting_rows = (n, m)


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


def begin_frame(world: World) -> None:
    """Where the particles and bodies are as the frame begins (``World.begin_frame``)."""
    p, b = world.store.particles, world.store.bodies
    world._frame_start = (p.pos.copy(), b.pos.copy(), b.angle.copy())


def _frame_speeds(world: World) -> tuple[np.ndarray, np.ndarray]:
    """Each particle's and body's speed over the frame (px/s): from where it began, or
    (rows added during the frame, or no start taken) from its last substep."""
    st = world.store
    p, b, h = st.particles, st.bodies, st.h
    speed = np.hypot(*(p.pos - p.prev).T) / h
    bspeed = (np.hypot(*(b.pos - b.prev).T) + np.abs(b.angle - b.prev_angle) * b.extent) / h
    start = world.__dict__.pop("_frame_start", None)
    if start is not None:
        pos0, bpos0, angle0 = start
        # a row that now holds another entity (a deletion moved it) seems to have jumped:
        # it counts as moving, which only keeps it awake a frame longer
        k, kb = min(len(pos0), p.n), min(len(bpos0), b.n)
        speed[:k] = np.hypot(*(p.pos[:k] - pos0[:k]).T) / world.dt
        bspeed[:kb] = (np.hypot(*(b.pos[:kb] - bpos0[:kb]).T)
                       + np.abs(b.angle[:kb] - angle0[:kb]) * b.extent[:kb]) / world.dt
    return speed, bspeed


def islands(world: World) -> np.ndarray:
    """An island label per particle row, then per body row (``n + m`` labels)."""
    st = world.store
    p, b = st.particles, st.bodies
    n, m = p.n, b.n
    a_list, b_list = [], []
    s = st.springs
    live = ~s.broken
    a_list.append(s.a[live])
    b_list.append(s.b[live])
    for off, idx in ((st.ring_off, st.ring_idx), (st.shape_off, st.shape_idx)):
        if len(idx) > 1:  # consecutive members of one constraint are linked
            same = np.ones(len(idx) - 1, dtype=bool)
            same[off[1:-1] - 1] = False
            a_list.append(idx[:-1][same])
            b_list.append(idx[1:][same])
    if n:
        grid = build_grid(n, p.cols["pos"], p.cols["radius"], world.contact_slop)
        out = np.zeros((8 * n + 16, 2), dtype=np.int64)
        watched = np.ones(n, dtype=np.bool_)
        while True:
            count = touching_pairs(n, p.cols["pos"], p.cols["radius"], watched,
                                   world.contact_slop, *grid, out)
            if count < len(out):
                break
            out = np.zeros((2 * len(out), 2), dtype=np.int64)
        a_list.append(out[:count, 0])
        b_list.append(out[:count, 1])
    for table in (st.joints, st.tethers):  # ends: a body row is n + row
        live = ~table.broken
        ea = np.where(table.a_body >= 0, n + table.a_body, table.a_part)[live]
        eb = np.where(table.b_body >= 0, n + table.b_body, table.b_part)[live]
        a_list.append(ea)
        b_list.append(eb)
    pairs = _body_contact_pairs(world)
    if len(pairs):
        a_list.append(pairs[:, 0])
        b_list.append(pairs[:, 1])
    ua = np.concatenate(a_list).astype(np.int64) if a_list else np.zeros(0, dtype=np.int64)
    ub = np.concatenate(b_list).astype(np.int64) if b_list else np.zeros(0, dtype=np.int64)
    # static things (pinned, immovable) carry no island: two piles on one floor are two
    fixed = np.concatenate([p.pinned | ~(p.mass < np.inf), b.pinned])
    keep = ~(fixed[ua] | fixed[ub])
    return component_labels(n + m, ua[keep], ub[keep])


def _body_contact_pairs(world: World) -> np.ndarray:
    """The rigid bodies' contacts of the last substep as label pairs (a body row is
    ``n + row``, a particle its row)."""
    from .systems.rigid import collide_contacts

    found = collide_contacts(world)
    st = world.store
    n, m = st.particles.n, st.bodies.n
    if found is None or not m:
        return np.zeros((0, 2), dtype=np.int64)
    rows = []
    for ci, k in ((found.old_ci, found.old_n), (found.sub_ci, found.sub_n)):
        c = ci[:k]
        ok = (c[:, 0] < m) & ((c[:, 1] >= 0) | (c[:, 2] >= 0)) & (c[:, 1] < m) & (c[:, 2] < n)
        c = c[ok]
        rows.append(np.stack([n + c[:, 0], np.where(c[:, 1] >= 0, n + c[:, 1], c[:, 2])],
                             axis=1))
    return np.concatenate(rows) if rows else np.zeros((0, 2), dtype=np.int64)


def wake_all(world: World) -> None:
    """Wake everything (a bulk write through a table view, new gravity)."""
    p, b = world.store.particles, world.store.bodies
    if p.asleep.any() or b.asleep.any() or world.resting:
        _set(world, np.zeros(p.n, dtype=bool), np.zeros(b.n, dtype=bool))
        p.still[:] = 0
        b.still[:] = 0
        world.resting = False


def _set(world: World, particles: np.ndarray, bodies: np.ndarray) -> None:
    """Make the flagged rows asleep (held: no velocity, inverse mass 0), the rest awake."""
    st = world.store
    p, b = st.particles, st.bodies
    fall = particles & ~p.asleep
    rise = ~particles & p.asleep
    p.prev[fall] = p.pos[fall]
    p.w[fall] = 0.0
    p.w[rise] = np.where(p.pinned[rise], 0.0, 1.0 / p.mass[rise])
    p.asleep[:] = particles
    fall = bodies & ~b.asleep
    rise = ~bodies & b.asleep
    b.prev[fall], b.prev_angle[fall] = b.pos[fall], b.angle[fall]
    b.w[fall] = b.iw[fall] = 0.0
    b.w[rise] = np.where(b.pinned[rise], 0.0, 1.0 / b.mass[rise])
    b.iw[rise] = np.where(b.pinned[rise], 0.0, 1.0 / b.inertia[rise])
    b.asleep[:] = bodies


def wake(world: World, entity: int) -> None:
    """Wake ``entity``'s island now (a write, a force, a grab, a deletion, a break)."""
    st = world.store
    p, b = st.particles, st.bodies
    row = st.pslot.get(entity, -1)
    label_row = row
    if row < 0:
        body = st.bslot.get(entity, -1)
        if body < 0:
            return
        label_row = p.n + body
    labels = world.island
    if labels is None or label_row >= len(labels) or len(labels) != p.n + b.n:
        woke = np.ones(p.n + b.n, dtype=bool)  # the islands are stale: wake everything
    else:
        woke = labels == labels[label_row]
    if not (np.concatenate([p.asleep, b.asleep]) & woke).any() and row >= 0:
        p.still[row] = 0
        world.resting = False
        return
    _set(world, p.asleep & ~woke[: p.n], b.asleep & ~woke[p.n:])
    p.still[woke[: p.n]] = 0
    b.still[woke[p.n:]] = 0
    world.resting = False
