"""Derived columns and flags: each computed by one function from its inputs.

A particle's or body's inverse mass (``w``, and a body's ``iw``) follows from its
mass (inertia), whether it is pinned (anchored, static) and whether it is
``frozen`` for the frame: a sleeping island nothing awake can reach this frame
(``sleeping.freeze``) is solved as static and so costs the solver next to
nothing; one within reach keeps its inverse mass, so what touches it pushes it
and wakes it. Every writer of ``mass``, ``inertia``, ``pinned`` or ``frozen``
calls ``inverse_masses`` on the rows it wrote; nothing else writes ``w`` or ``iw``.
Whether a world is ``resting`` (the solver's substeps skipped) is ``resting``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .kernels.stillness import all_asleep

if TYPE_CHECKING:
    from .world import World

Rows = Any  # a row, an array of rows, a boolean mask or a slice


def inverse_mass(mass: Any, pinned: Any) -> Any:
    """``0`` where pinned, else ``1 / mass`` (``0`` for an infinite mass)."""
    return np.where(pinned, 0.0, 1.0 / np.asarray(mass, dtype=np.float64))


def inverse_masses(table: Any, rows: Rows = slice(None)) -> None:
    """Write ``w`` (and, for bodies, ``iw``) of ``table``'s ``rows`` from their inputs."""
    c = table.cols
    if isinstance(rows, slice) and rows.start is not None and rows.stop == rows.start + 1:
        rows = rows.start  # one row (a component added): ``_inverse_mass_of`` it
    if isinstance(rows, int | np.integer):
        _inverse_mass_of(c, rows)
        return
    pinned = c["pinned"][rows] | c["frozen"][rows]
    if "kinematic" in c:  # a kinematic body is never pushed
        pinned = pinned | c["kinematic"][rows]
    c["w"][rows] = inverse_mass(c["mass"][rows], pinned)
    if "iw" in c:
        c["iw"][rows] = inverse_mass(c["inertia"][rows], pinned)


def _inverse_mass_of(c: dict[str, np.ndarray], row: int) -> None:
    """``inverse_masses`` of one row, on numpy scalars (the arrays' calls cost ~5 µs a
    row, paid by every component added): the same division, so the same bits."""
    pinned = c["pinned"][row] or c["frozen"][row] or ("kinematic" in c and c["kinematic"][row])
    c["w"][row] = 0.0 if pinned else 1.0 / c["mass"][row]
    if "iw" in c:
        c["iw"][row] = 0.0 if pinned else 1.0 / c["inertia"][row]


def movable(world: World) -> np.ndarray:
    """Per particle row, then per body row: whether it can move (not pinned, finite mass)."""
    p, b = world.store.particles, world.store.bodies
    return np.concatenate([~p.pinned & (p.mass < np.inf), ~b.pinned])


def can_move(store: Any, entity: int) -> bool:
    """``movable`` for one particle or body entity (a kinematic body moves: it has an
    island, as what rests on it sleeps with it)."""
    if entity in store.pslot:
        p, row = store.particles, store.pslot[entity]
        return bool(not p.pinned[row] and p.mass[row] < np.inf)
    return not bool(store.bodies.pinned[store.bslot[entity]])


def resting(world: World) -> bool:
    """Whether everything that can move is asleep (``World(sleep=True)``): the frame's
    substeps can be skipped."""
    if not world.sleep:
        return False
    p, b = world.store.particles, world.store.bodies
    return bool(all_asleep(p.n, p.pinned, p.mass, p.asleep, b.n, b.pinned, b.asleep))
