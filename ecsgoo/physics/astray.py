"""A world whose state left the representable range stops with an error that names it.

Checked once a frame after the substeps (``World.end_frame``): a particle or body
beyond ``±limits.MAX_COORD`` px, with a coordinate or angle not finite, or moving
faster than ``limits.MAX_SPEED`` px/s. Beyond there the solver's sums lose every
digit (a 1:10⁶ weight on a mass-1 rigid link once reached 1e60 px without a word);
the error says which entity, where, and on which frame, so a game can tell its own
bug (a force, a spawn) from the engine's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import limits
from ..errors import WorldError
from ..kernels.astray import first_astray, first_astray_body

if TYPE_CHECKING:
    from ..world import World


def check(world: World) -> None:
    """Raise ``WorldError`` naming the first particle or body out of range, if any."""
    st = world.store
    h = world.dt / world.substeps
    step_limit = substep_limit(world)
    for kind, table in (("Particle", st.particles), ("RigidBody", st.bodies)):
        if not table.n:
            continue
        c = table.cols
        if kind == "RigidBody":  # the angles too, in the same call
            row, turned = first_astray_body(table.n, c["pos"], c["prev"], c["angle"],
                                            limits.MAX_COORD, step_limit)
        else:
            row, turned = first_astray(table.n, c["pos"], c["prev"], limits.MAX_COORD,
                                       step_limit), 0
        if row >= 0:
            _raise(world, kind, table, row, "angle" if turned else "x, y", h)


def substep_limit(world: World) -> float:
    """The longest move along an axis a substep may make (px): the largest speed the API
    sets (``limits.MAX_SPEED``) over a substep, and no error at it."""
    return limits.MAX_SPEED * (world.dt / world.substeps) * (1.0 + 1e-9)


def _raise(world: World, kind: str, table: object, row: int, field: str, h: float) -> None:
    c = table.cols  # type: ignore[attr-defined]
    x, y = (float(v) for v in c["pos"][row])
    vx, vy = ((float(c["pos"][row, k]) - float(c["prev"][row, k])) / h for k in range(2))
    entity = int(table.entity[row])  # type: ignore[attr-defined]
    raise WorldError(
        f"entity {entity} ({kind}): left the representable range at frame {world.frame} "
        f"(field {field}: position ({x:.6g}, {y:.6g}) px, velocity ({vx:.6g}, {vy:.6g}) px/s; "
        f"limits ±{limits.MAX_COORD:g} px, {limits.MAX_SPEED:g} px/s): the world stops "
        "here. A force, a spawn or a mass ratio beyond what the solver holds (1:1000 "
        "between jointed bodies) sent it there")
