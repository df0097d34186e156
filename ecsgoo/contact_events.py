"""Contact events: ``contact_began`` and ``contact_ended`` when either side asks (``events``).

At the end of every frame (``World.end_frame``) the World finds what touches a
particle or rigid body made with ``events=True``: other particles (centres at
most ``r1 + r2 + World.contact_slop`` apart, the test Merge uses), rigid bodies
(a particle's disc within the slop of a body's shape, static bodies too:
``kernels.touching``; bodies with each other: the contact graph's rows that
pushed in the frame, ``physics.contacts.touching_bodies``) and the level (its
segments, polygons and the bounds; the other end is ``-1``) and soft bodies'
outlines between their particles (a disc on an edge of a jelly ball: the other end
is the outline's particle nearer the point, so a disc sliding along an outline ends
one contact and begins the next as it passes a vertex). A pair new since the last
frame dispatches::

    contact_began(a, b, x, y, nx, ny, impulse, speed)

``a < b`` (or ``b == -1``: the level), the contact point on ``a`` and the unit
normal from ``a`` to ``b`` (px), the normal ``impulse`` of the hit (mass·px/s: the
momentum the contact took out of the moving end(s) along the normal over the
frame, gravity and forces aside) and ``speed``, how fast the two closed along the
normal as the frame began (px/s) — a game decides "was that hard?" from them.
A pair still closing faster than ``CLOSING_SPEED`` at the frame's end has not hit
yet (it came within the slop on its way in): it begins next frame, with the hit's
impulse. A pair gone dispatches ``contact_ended(a, b)``. Handlers written for the
six arguments of old get six (``World.set_handler``).

The pairs are kept in the ``Touching`` resource (saved with the world, so a loaded
world dispatches the same events); deleting an entity ends its contacts at once.
With nothing watched nothing is done beyond one look at the flag columns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .flags import watched, watched_count
from .kernels.queries import touching_pairs
from .kernels.touching import (
    discs_on_bodies,
    discs_on_level,
    discs_on_outlines,
    watched_touch_nothing,
)
from .physics.broadphase import one_cell
from .physics.contacts import touching_bodies

if TYPE_CHECKING:
    from .world import World

#: A pair closing faster than this (px/s) at the frame's end has not hit yet.
CLOSING_SPEED = 20.0
#: Below this many disc tests (watched rows × rows) the touching pairs are found in a grid
#: of one cell (``broadphase.one_cell``): making the particles' grid cost more than the
#: tests (a few µs).
FEW_TESTS = 4096
Where = tuple[float, float, float, float]


@dataclass
class Touching:
    """The touching pairs ``[a, b]`` (entities, ``a < b``; ``b = -1``: the level) at the end
    of the last frame, and those that came within the slop still closing fast (``arriving``,
    with their point and normal ``[x, y, nx, ny]`` in ``arriving_at``), whose hit comes next
    frame."""

    pairs: list[list[int]] = field(default_factory=list)
    arriving: list[list[int]] = field(default_factory=list)
    arriving_at: list[list[float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name, size, kinds in (("pairs", 2, (int,)), ("arriving", 2, (int,)),
                                  ("arriving_at", 4, (int, float))):
            for row in getattr(self, name):
                ok = isinstance(row, list) and len(row) == size and all(
                    type(v) in kinds and math.isfinite(v) for v in row)
                if not ok:
                    raise ValueError(f"{name} must hold rows of {size} "
                                     f"{'entity ids' if size == 2 else 'numbers'}, got {row!r}")
        if len(self.arriving) != len(self.arriving_at):
            raise ValueError("arriving and arriving_at must have a row each for every pair")


#: The old name (``Touching`` is what it holds; the solver's contacts are ``World.contacts``).
Contacts = Touching


class FrameVelocities:
    """Every particle's and body's velocity as the frame began (px/s), found by entity
    (rows may move during the frame). Taken every frame something is watched but read
    only when a contact begins, so a take is kept cheap (``_Start``)."""

    def __init__(self, world: World) -> None:
        self.particles, self.bodies = _Start(), _Start()
        self.take(world)

    def take(self, world: World) -> None:
        """Take the velocities as they are now (the frame begins)."""
        st = world.store
        self.h = st.h
        self.particles.take(st.particles)
        self.bodies.take(st.bodies)

    def of(self, entity: int, body: bool) -> np.ndarray | None:
        """``entity``'s velocity as the frame began, or None (made during the frame)."""
        start = self.bodies if body else self.particles
        rows = np.flatnonzero(start.entity[: start.n] == entity)
        # (pos − prev) / h of that row: the bits of the whole column's division
        return start.moved[rows[0]] / self.h if len(rows) else None


class _Start:
    """One table's rows as the frame began: their entities and ``pos − prev`` (px), in
    buffers kept from frame to frame. The entities are copied again only when rows came
    or went (``Table.version``: nothing else writes them); ``pos − prev`` is one subtraction
    of the whole columns into the buffer, the division by ``h`` waiting for a contact that
    begins (a take that sliced, subtracted, divided and copied was ~2.4 µs)."""

    def __init__(self) -> None:
        self.table: Any = None
        self.version, self.n = -1, 0
        self.entity, self.moved = _NO_ENTITIES, _NO_VELOCITIES

    def take(self, table: Any) -> None:
        """Take ``table``'s rows as they are now."""
        n = self.n = table.n
        if not n:
            return  # no rows (no bodies): nothing to copy
        cols = table.cols
        if self.table is not table or self.version != table.version:
            self.table, self.version = table, table.version
            self.entity = cols["entity"][:n].copy()
        pos = cols["pos"]
        if self.moved.shape != pos.shape:  # the columns grew (or another table's)
            self.moved = np.empty_like(pos)
        np.subtract(pos, cols["prev"], out=self.moved)  # every row: slices cost more


#: A frame's start without rows (shared by every such table: of no rows, nothing can be
#: written into them, and writable they are the kernels' usual type).
_NO_ENTITIES = np.zeros(0, dtype=np.int64)
_NO_VELOCITIES = np.zeros((0, 2))


def begin_frame(world: World) -> None:
    """Keep the velocities the frame begins with, if anything is watched (into the
    buffers of the last frame's, ``World._frame_start``)."""
    st = world.store
    if not (watched(st.particles) or watched(st.bodies)):
        world.event_start = None
        return
    start = world.__dict__.get("_frame_start")
    if start is None:
        world.event_start = world._frame_start = FrameVelocities(world)
    else:
        start.take(world)
        world.event_start = start


def idle(world: World) -> bool:
    """Whether ``update`` has nothing to do: nothing watched and nothing touching or
    arriving, so nothing begins or ends (a game that watched once included)."""
    st = world.store
    return not (watched(st.particles) or watched(st.bodies)) and calm(world)


def calm(world: World) -> bool:
    """No pair was touching or arriving at the end of the last frame."""
    state = world.resource(Touching)
    return state is None or not (state.pairs or state.arriving)


def update(world: World) -> None:
    """Dispatch the contacts that began and ended since the last frame."""
    if idle(world):
        return  # the usual case costs nothing
    if calm(world) and _touch_free(world):
        return  # nothing touched a watched thing and nothing does (a fruit in flight)
    state = world.resource(Touching)
    st = world.store
    found = _touching(world)
    if state is None:
        if not found:
            return
        state = world.add_resource(Touching())
    before = {tuple(p) for p in state.pairs}
    slots = (st.pslot, st.bslot)
    arrived = {(a, b): tuple(at) for (a, b), at in zip(state.arriving, state.arriving_at,
                                                         strict=True)
               if all(e < 0 or any(e in slot for slot in slots) for e in (a, b))}
    start = world.event_start
    began, arriving, bounced = [], [], []
    for pair, where in sorted(found.items()):
        if pair in before:
            continue
        if where is None:  # two discs: their point and normal, worked out only now
            found[pair] = where = _between_discs(world, *pair)
        impulse, speed, closing = _strength(world, start, pair, where)
        if closing > CLOSING_SPEED and pair not in arrived:
            found.pop(pair)  # still on its way in: it hits next frame
            arriving.append((list(pair), list(where)))
            continue
        began.append((pair, where, impulse, speed))
    for pair, where in sorted(arrived.items()):  # hit and gone within the frame
        if pair not in found and pair not in before:
            impulse, speed, _ = _strength(world, start, pair, where)
            bounced.append((pair, where, impulse, speed))
    state.pairs = [list(p) for p in sorted(found)]
    state.arriving = [pair for pair, _ in arriving]
    state.arriving_at = [where for _, where in arriving]
    for (a, b), where, impulse, speed in began + bounced:
        world.dispatch("contact_began", a, b, *where, impulse, speed)
    for a, b in sorted(before - set(found)) + [pair for pair, *_ in bounced]:
        world.dispatch("contact_ended", a, b)


def quiet_watch(world: World) -> bool | None:
    """``frame_end.quiet``'s part, in a world of particles alone: whether its look must
    test the watched particles for a touch (True) or nothing is watched (False); None when
    ``update`` must look in full (pairs touching or arriving since the last frame, or
    more watched tests than one cell takes)."""
    if not calm(world):
        return None
    p = world.store.particles
    watching = watched_count(p)
    if watching * p.n > FEW_TESTS:
        return None
    return watching > 0


def _touch_free(world: World) -> bool:
    """Whether no watched particle touches another particle or the level, in a world of
    particles alone (no bodies, no soft body's outline): one kernel call
    (``watched_touch_nothing``: ``_particle_pairs``' and ``_particles_on_things``' looks,
    without the pairs' sets and the points' lists ``_touching`` makes); False whenever
    it must look."""
    st = world.store
    if st.bodies.n or len(st.outline_off) > 1:
        return False
    p = st.particles
    n = p.n
    if not n:
        return True
    st.prepare()
    c, lvl = p.cols, world.level
    return watched_touch_nothing(n, c["pos"], c["radius"], c["events"], world.contact_slop,
                                 *_pairs_grid(world, n, watched_count(p)), *level_shapes(world),
                                 c["mask"], lvl.seg_layer, lvl.poly_layer)


def _touching(world: World) -> dict[tuple[int, int], Where | None]:
    """Every touching pair with a watched end: its point on ``a`` and normal ``a → b``
    (None for two discs: ``_between_discs`` works it out, for the pairs that begin)."""
    out: dict[tuple[int, int], Where | None] = dict.fromkeys(_particle_pairs(world))
    for pair, where in touching_bodies(world).items():
        out.setdefault(pair, where)
    for pair, where in _particles_on_things(world):
        out.setdefault(pair, where)
    for pair, where in _particles_on_outlines(world):
        out.setdefault(pair, where)
    return out


def _particles_on_outlines(world: World) -> list[tuple[tuple[int, int], Where]]:
    """Particles touching a soft body's outline between its particles, where either asks:
    the pair names the outline's particle nearer the touching point."""
    st = world.store
    p = st.particles
    if not watched(p):
        return []
    st.prepare()  # the store whole: the outlines are current
    if len(st.outline_off) < 2:
        return []  # no soft body (before: the particles' grid was made first)
    grid = world.broadphase.particles(world)
    c = p.cols
    hits = np.zeros((watched_count(p) * 4 + 16, 6))
    while True:
        count = discs_on_outlines(len(st.outline_off) - 1, st.outline_off, st.outline_idx,
                                  c["pos"], c["radius"], c["group"], c["layer"], c["mask"],
                                  c["events"], world.contact_slop, *grid, hits)
        if count <= len(hits):
            break
        hits = np.zeros((2 * count, 6))
    entity, out = p.entity, []
    for row, other, x, y, nx, ny in hits[:count].tolist():
        a, e = int(entity[int(row)]), int(entity[int(other)])
        out.append(((a, e), (x, y, nx, ny)) if a < e else ((e, a), (x, y, -nx, -ny)))
    return out


def _particle_pairs(world: World) -> list[tuple[int, int]]:
    """Touching particle pairs with at least one watched particle, by entity, sorted."""
    p = world.store.particles
    n, watching = p.n, watched_count(p)
    if n == 0 or not watching:
        return []
    c = p.cols
    grid = _pairs_grid(world, n, watching)
    out = np.zeros((16 * watching + 16, 2), dtype=np.int64)
    while True:
        count = touching_pairs(n, c["pos"], c["radius"], c["events"], world.contact_slop,
                               *grid, out)
        if count < len(out):
            break
        out = np.zeros((2 * len(out), 2), dtype=np.int64)  # full: look again with room
    entity = p.cols["entity"]
    found = np.sort(entity[out[:count]], axis=1)
    return sorted({(a, b) for a, b in found.tolist()})


def _pairs_grid(world: World, n: int, watching: int) -> tuple[Any, ...]:
    """The grid ``touching_pairs`` looks through for ``watching`` of ``n`` particles: a
    falling fruit among a cupful tests every row, in one cell (the same pairs)."""
    return one_cell(n) if watching * n <= FEW_TESTS else world.broadphase.particles(world)


def _on_level(world: World, rows: np.ndarray, out: np.ndarray) -> int:
    """How many of the particles ``rows`` touch the level (``kernels.touching``'s
    ``discs_on_level``, the rows of ``out``: ``(row, -1, x, y, nx, ny)``)."""
    c, lvl = world.store.particles.cols, world.level
    return discs_on_level(rows, c["pos"], c["radius"], world.contact_slop,
                          *level_shapes(world), out, c["mask"], lvl.seg_layer, lvl.poly_layer)


def level_shapes(world: World) -> tuple[Any, ...]:
    """The level as the kernels that test discs against it take it: its segments, its
    polygons (offsets, corners, the corners' rows), the bounds' walls and whether there
    are bounds."""
    lvl, walls = world.level, world.bounds
    return (lvl.segments, lvl.poly_off, lvl.poly_xy, lvl.poly_idx,
            world.contacts.walls_for(walls), walls is not None)


def _between_discs(world: World, a: int, b: int) -> Where:
    """The contact point on ``a``'s disc and the unit normal from ``a`` to ``b``."""
    p = world.particles
    ra, rb = p.row(a), p.row(b)
    (ax, ay), (bx, by) = p.pos[ra], p.pos[rb]
    d = math.hypot(bx - ax, by - ay)
    nx, ny = ((bx - ax) / d, (by - ay) / d) if d > 0 else (0.0, 1.0)
    r = float(p.radius[ra])
    return float(ax + nx * r), float(ay + ny * r), float(nx), float(ny)


def _particles_on_things(world: World) -> list[tuple[tuple[int, int], Where]]:
    """Watched particles touching a rigid body or the level (``kernels.touching``)."""
    st = world.store
    p, b = st.particles, st.bodies
    rows = np.flatnonzero(p.events)
    if not len(rows):
        return []
    st.prepare()  # the bodies' pieces as they are now
    c, bc, slop = p.cols, b.cols, world.contact_slop
    hits = np.zeros((len(rows) + 8, 6))
    if b.n:
        while True:
            count = discs_on_bodies(rows, c["pos"], c["radius"], c["group"], c["layer"],
                                    c["mask"], slop, b.n, bc["pos"], bc["angle"],
                                    bc["extent"], bc["group"], bc["layer"], bc["mask"],
                                    st.body_piece_off, st.piece_vert_off, st.piece_verts,
                                    st.piece_radius, hits)
            if count <= len(hits):
                break
            hits = np.zeros((2 * count, 6))
        on_bodies = hits[:count].copy()
    else:
        on_bodies = np.zeros((0, 6))
    level = np.zeros((len(rows), 6))
    k = _on_level(world, rows, level)
    out = []
    hits = np.concatenate([on_bodies, level[:k]]) if len(on_bodies) else level[:k]
    for row, other, x, y, nx, ny in hits.tolist():
        a = int(p.entity[int(row)])
        if other < 0:
            out.append(((a, -1), (x, y, nx, ny)))
            continue
        e = int(b.entity[int(other)])
        out.append(((a, e), (x, y, nx, ny)) if a < e else ((e, a), (x, y, -nx, -ny)))
    return out


def _strength(world: World, start: FrameVelocities | None, pair: tuple[int, int],
              where: Where) -> tuple[float, float, float]:
    """The hit's normal impulse (mass·px/s), how fast the ends closed as the frame began
    and how fast they close now (px/s)."""
    n = np.array(where[2:])
    ends = [_end(world, start, e) for e in pair]
    (ma, va0, va1), (mb, vb0, vb1) = ends
    speed = float((va0 - vb0) @ n)
    closing = float((va1 - vb1) @ n)
    # the momentum the contact gave along n: into b (+n), out of a (-n), measured on one
    # end that moves: a watched one if it can, the lighter (the other may lean on more)
    movable = [(not _watched(world, e), m, sign, v0, v1, e)
               for sign, (m, v0, v1), e in ((-1.0, ends[0], pair[0]), (1.0, ends[1], pair[1]))
               if m < math.inf]
    impulse = 0.0
    if movable:
        _, m, sign, v0, v1, e = min(movable, key=lambda t: t[:2])
        impulse = max(0.0, sign * m * float((v1 - _expected(world, e, v0)) @ n))
    return impulse, max(speed, 0.0), closing


def _watched(world: World, entity: int) -> bool:
    """Whether ``entity`` (a particle or body) has ``events``."""
    st = world.store
    if entity in st.pslot:
        return bool(st.particles.events[st.pslot[entity]])
    return bool(st.bodies.events[st.bslot[entity]])


def _end(world: World, start: FrameVelocities | None,
         entity: int) -> tuple[float, np.ndarray, np.ndarray]:
    """An end's mass (inf: it cannot move), velocity as the frame began and now (px/s)."""
    st = world.store
    zero = np.zeros(2)
    if entity < 0:
        return math.inf, zero, zero
    body = entity not in st.pslot
    row, table = (st.bslot[entity], st.bodies) if body else (st.pslot[entity], st.particles)
    now = (table.pos[row] - table.prev[row]) / st.h
    then = None if start is None else start.of(entity, body)
    mass = math.inf if table.pinned[row] else float(table.mass[row])
    return mass, now if then is None else then, now


def _expected(world: World, entity: int, v0: np.ndarray) -> np.ndarray:
    """Where ``entity``'s velocity would be after the frame with no contact: damped, plus
    gravity and the frame's force."""
    if entity < 0:
        return np.zeros(2)
    st = world.store
    kept = world.damping ** (world.dt * 60.0)
    if entity in st.pslot:
        row, mass, force = st.pslot[entity], st.particles.mass, world.frame_force
    else:
        row, mass, force = st.bslot[entity], st.bodies.mass, world.body_force
    push = force[row] / mass[row] if row < len(force) else np.zeros(2)
    return v0 * kept + (np.array(world.gravity) + push) * world.dt


def forget(world: World, entity: int) -> None:
    """``entity`` was deleted: its contacts end now (``contact_ended``)."""
    state = world.resource(Touching)
    if state is None:
        return
    keep = [k for k, pair in enumerate(state.arriving) if entity not in pair]
    state.arriving = [state.arriving[k] for k in keep]
    state.arriving_at = [state.arriving_at[k] for k in keep]
    gone = [p for p in state.pairs if entity in p]
    if gone:
        state.pairs = [p for p in state.pairs if entity not in p]
        for a, b in gone:
            world.dispatch("contact_ended", a, b)

