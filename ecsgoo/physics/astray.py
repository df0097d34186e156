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
    """Raise ``WorldError`` naming the first particle or body out of range, if any. The
    bodies are not looked at again when the whole frame's kernel looked at them
    (``physics.rigid_frame``) and nothing moved since: no stage ran, no position was
    written, no row came or went (``World._bodies_within``)."""
    st = world.store
    p, b = st.particles, st.bodies
    if p.n:
        c = p.cols
        row = first_astray(p.n, c["pos"], c["prev"], limits.MAX_COORD, substep_limit(world))
        if row >= 0:
            _raise(world, "Particle", p, row, "x, y")
    if b.n and world.__dict__.get("_bodies_within") != (world.frame, st.poses, b.version):
        c = b.cols  # the angles too, in the same call
        row, turned = first_astray_body(b.n, c["pos"], c["prev"], c["angle"],
                                        limits.MAX_COORD, substep_limit(world))
        if row >= 0:
            _raise(world, "RigidBody", b, row, "angle" if turned else "x, y")


def substep_limit(world: World) -> float:
    """The longest move along an axis a substep may make (px): the largest speed the API
    sets (``limits.MAX_SPEED``) over a substep, and no error at it."""
    return limits.MAX_SPEED * (world.dt / world.substeps) * (1.0 + 1e-9)


def _raise(world: World, kind: str, table: object, row: int, field: str) -> None:
    h = world.dt / world.substeps
    c = table.cols  # type: ignore[attr-defined]
    x, y = (float(v) for v in c["pos"][row])
    vx, vy = ((float(c["pos"][row, k]) - float(c["prev"][row, k])) / h for k in range(2))
    entity = int(table.entity[row])  # type: ignore[attr-defined]
    raise WorldError(
        f"entity {entity} ({kind}): left the representable range at frame {world.frame} "
        f"(field {field}: position ({x:.6g}, {y:.6g}) px, velocity ({vx:.6g}, {vy:.6g}) px/s; "
        f"limits ±{limits.MAX_COORD:g} px, {limits.MAX_SPEED:g} px/s): the world stops "
        "here. A force, a spawn or a mass ratio beyond what the solver holds (1:1000 "
        "between jointed bodies, or a joint far off a small light body: an arm many times "
        "its size) sent it there")
