"""Kinematic bodies: moved by their velocity alone, never pushed.

A kinematic body (``RigidBody.box(..., kind="kinematic")``) has inverse mass and
inertia 0 (``derived.inverse_masses``), like a static one, but it keeps its
velocity: Integrate advances it by ``(pos − prev)`` each substep with no gravity,
damping or force. The contact solver and the joints read every end's velocity from
``pos − prev``, so a rider's contact with a moving platform sees the platform's
velocity (friction carries it, the normal impulse holds it up without a bounce),
and particles meet it through the solver's contacts, not the static bodies'
positional pass. ``World.move_to`` gives it the velocity that carries it to a pose
over the next step, and flags it (``stop``) to be at rest again as that step ends.

While it moves it never counts as still (``keep_awake``), so its island — what it
touches — stays awake with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import limits
from .errors import WorldError
from .flags import kinematic, stopping

if TYPE_CHECKING:
    from .world import World


def rows(bodies: Any) -> np.ndarray:
    """The kinematic body rows of the store's body table (often none)."""
    return np.flatnonzero(bodies.kinematic)


def moves(cols: dict[str, np.ndarray], kin: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kinematic rows' last substep move: ``(pos − prev, angle − prev_angle)``, px, rad."""
    return cols["pos"][kin] - cols["prev"][kin], cols["angle"][kin] - cols["prev_angle"][kin]


def advance(cols: dict[str, np.ndarray], kin: np.ndarray, move: tuple[Any, Any]) -> None:
    """After the bodies' integration (which leaves a body of inverse mass 0 at rest where
    it was): the kinematic rows move on by ``move`` (``moves`` before it), ``prev`` kept."""
    cols["pos"][kin] = cols["prev"][kin] + move[0]
    cols["angle"][kin] = cols["prev_angle"][kin] + move[1]


def move_to(world: World, entity: int, x: float, y: float, angle: float | None) -> None:
    """Give kinematic body ``entity`` the velocity that takes it to ``(x, y, angle)`` (px,
    rad; ``angle`` None: as it is) over the next step; it is at rest as that step ends."""
    st = world.store
    if entity not in st.bslot:
        raise WorldError(f"entity {entity}: move_to needs a kinematic RigidBody, and it is "
                         f"{world._kind_of(entity)}")
    s, c = st.bslot[entity], st.bodies.cols
    if not c["kinematic"][s]:
        raise WorldError(f"entity {entity} (RigidBody): move_to moves kinematic bodies only "
                         "(make it with kind='kinematic'; a dynamic body: write x, y)")
    x = limits.check("RigidBody", "x", x)
    y = limits.check("RigidBody", "y", y)
    goal = c["angle"][s] if angle is None else limits.check("RigidBody", "angle", angle)
    k = 1.0 / world.substeps  # the share of the way each substep goes
    world.wake(entity)
    c["prev"][s] = c["pos"][s] - (np.array([x, y]) - c["pos"][s]) * k
    c["prev_angle"][s] = c["angle"][s] - (goal - c["angle"][s]) * k
    c["stop"][s] = True
    st.bodies.flag_version += 1  # (``flags.stopping``)


def stop(world: World) -> None:
    """As a frame ends: the kinematic bodies ``move_to`` moved come to rest where they are."""
    b = world.store.bodies
    if not b.n or not stopping(b):
        return
    c, s = b.cols, np.flatnonzero(b.stop)
    c["prev"][s] = c["pos"][s]
    c["prev_angle"][s] = c["angle"][s]
    c["stop"][s] = False
    b.flag_version += 1


def keep_awake(bodies: Any, frame_speed: np.ndarray) -> None:
    """A kinematic body that moved over the frame (``frame_speed`` px/s per row) or moves
    now counts no still frames: it never falls asleep while it moves."""
    if not bodies.n or not kinematic(bodies):
        return
    moving = ((frame_speed > 0.0) | (bodies.pos != bodies.prev).any(axis=1)
              | (bodies.angle != bodies.prev_angle))
    bodies.still[bodies.kinematic & moving] = 0
