"""Contact events: ``contact_began`` and ``contact_ended`` for particles and rigid bodies made
with ``events=True``.

At the end of every frame (``World.end_frame``) the World finds the pairs of
particles that touch — centres at most ``r1 + r2 + World.contact_slop`` apart,
the same test Merge uses — where at least one of the two has ``events``; a pair
new since the last frame dispatches ``contact_began(a, b, x, y, nx, ny)`` (``a <
b``, the contact point on ``a``'s disc and the normal from ``a`` to ``b``, px), a
pair gone dispatches ``contact_ended(a, b)``. The slop is what keeps a resting
contact from flickering. The pairs are kept in the ``Contacts`` resource (saved
with the world, so a loaded world dispatches the same events); deleting an
entity ends its contacts at once. No particle with ``events``: nothing is done
beyond one look at the flag column. A rigid body's contacts (with bodies and
particles) are the Collide stage's that pushed in the frame's last substep
(``systems.rigid.touching``): the point is on ``a``, the normal from ``a`` to ``b``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .kernels.queries import touching_pairs
from .physics.contacts import touching_bodies

if TYPE_CHECKING:
    from .world import World


@dataclass
class Contacts:
    """The touching pairs ``[a, b]`` (entities, ``a < b``) at the end of the last frame."""

    pairs: list[list[int]] = field(default_factory=list)


def _touching(world: World) -> list[tuple[int, int]]:
    """The entity pairs touching now with at least one watched particle, ascending."""
    st = world.store.particles
    n = st.n
    watched = st.cols["events"][:n]
    if n == 0 or not watched.any():
        return []
    grid = world.broadphase.particles(world)
    out = np.zeros((16 * int(watched.sum()) + 16, 2), dtype=np.int64)
    while True:
        count = touching_pairs(n, st.cols["pos"], st.cols["radius"], watched,
                               world.contact_slop, *grid, out)
        if count < len(out):
            break
        out = np.zeros((2 * len(out), 2), dtype=np.int64)  # full: look again with room
    entity = st.cols["entity"]
    pairs = {tuple(sorted((int(entity[i]), int(entity[j])))) for i, j in out[:count]}
    return sorted(pairs)


def update(world: World) -> None:
    """Dispatch the contacts that began and ended since the last frame."""
    state = world.resource(Contacts)
    st = world.store
    if state is None and not (st.particles.events.any() or st.bodies.events.any()):
        return  # nothing watched, nothing was touching: the usual case costs nothing
    bodies = touching_bodies(world)
    now = sorted(set(_touching(world)) | set(bodies))
    if state is None:
        if not now:
            return
        state = world.add_resource(Contacts())
    before = {tuple(p) for p in state.pairs}
    state.pairs = [list(p) for p in now]
    for a, b in now:
        if (a, b) not in before:
            where = bodies.get((a, b)) or _where(world, a, b)
            world.dispatch("contact_began", a, b, *where)
    for a, b in sorted(before - set(now)):
        world.dispatch("contact_ended", a, b)


def _where(world: World, a: int, b: int) -> tuple[float, float, float, float]:
    """The contact point on ``a``'s disc and the unit normal from ``a`` to ``b``."""
    p = world.particles
    ra, rb = p.row(a), p.row(b)
    (ax, ay), (bx, by) = p.pos[ra], p.pos[rb]
    d = math.hypot(bx - ax, by - ay)
    nx, ny = ((bx - ax) / d, (by - ay) / d) if d > 0 else (0.0, 1.0)
    r = float(p.radius[ra])
    return float(ax + nx * r), float(ay + ny * r), float(nx), float(ny)


def forget(world: World, entity: int) -> None:
    """``entity`` was deleted: its contacts end now (``contact_ended``)."""
    state = world.resource(Contacts)
    if state is None or not state.pairs:
        return
    gone = [p for p in state.pairs if entity in p]
    if gone:
        state.pairs = [p for p in state.pairs if entity not in p]
        for a, b in gone:
            world.dispatch("contact_ended", a, b)
