"""A world of rigid bodies only solves its frame's later substeps in one kernel call
(``kernels.rigid_frame``), to the same bits as the stages one by one.

``Pipeline.step`` runs the frame's first substep through the stages as always — forces,
a loaded world's contacts, the contacts found for the frame — and then, when the
substeps left would only repeat the same kernels on the same rows, hands them to
``rigid_substeps``: the solver stages are exactly ``Integrate``, ``Project`` (if there)
and ``Collide``; there are no particles (so no springs, tethers, outlines or contacts
found again each substep), no kinematic or grabbed body, no body fast enough to be swept
this frame and no body turning fast enough to have its contacts found each substep; no
profile is taken. Anything else: the stages run every substep, as before.

Measured (a box resting on the ground, 6 substeps): the frame's Python glue was most of
its cost (BENCHMARKS.md, "Small scenes").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..flags import any_set
from ..kernels.rigid_frame import rigid_substeps
from .step import StepContext

if TYPE_CHECKING:
    from ..systems.pipeline import Stage
    from ..world import World

#: Off: every substep through the stages (the tests compare both to the bit).
ENABLED = True


def can_fuse(world: World, stages: Sequence[Stage]) -> bool:
    """Whether this frame's later substeps may go to ``rigid_substeps`` (checked before
    the first; ``fuse`` checks what the first substep found)."""
    if not ENABLED or world.profile is not None or not ours(stages):
        return False
    st = world.store
    b = st.bodies
    return (b.n > 0 and st.particles.n == 0 and st.tethers.n == 0 and
            world.grabbed not in st.bslot and not any_set(b.kinematic))


def ours(stages: Sequence[Stage]) -> bool:
    """Whether the solver stages are exactly ours, Integrate, Project (or not) and Collide
    (a subclass may do anything between substeps)."""
    return tuple(f"{type(s).__module__}.{type(s).__qualname__}" for s in stages) in \
        _SOLVER_STAGES


#: The solver stages (by module and name: the stages import this module) that fuse.
_SOLVER_STAGES = tuple(tuple(f"ecsgoo.systems.{m}.{c}" for m, c in kinds) for kinds in (
    (("integrate", "Integrate"), ("project", "Project"), ("collide", "Collide")),
    (("integrate", "Integrate"), ("collide", "Collide"))))


def fuse(world: World, ctx: StepContext, stages: Sequence[Stage]) -> bool:
    """After the frame's first substep (``ctx``): solve the others in one call if nothing
    they hold needs Python between them; False: the stages go on one by one."""
    found, st = world.contacts, world.store
    if (found.nfast or found.sweep or found.n != found.bodies or len(found.before)
            != len(found.stacked) or found.stacked_key is None or st.particles.n
            or ctx.substeps < 2):
        return False
    b = st.bodies
    c = b.cols
    collide = stages[-1]
    gx, gy = world.gravity
    rigid_substeps(1, ctx.substeps, ctx.h, world.damping ** (ctx.h * 60.0), gx, gy,
                   world.body_force, joint_arrays(st), found.n, found.ci, found.cf,
                   found.bodies, found.order, found.angle0, found.pose, found.stacked,
                   found.before, collide.bounce_speed, b.n, c["pos"], c["prev"], c["angle"],
                   c["prev_angle"], c["w"], c["iw"], *_particle_columns(st))
    found.keep()
    found.keep_substep()
    st.poses += 1  # what the substeps moved, the kept grids no longer hold
    world.substep_index = ctx.substeps - 1
    return True


def joint_arrays(st: Any) -> tuple[Any, ...]:
    """The joint table's arrays in the order ``kernels.joints.joint_substep`` takes them."""
    jc = st.joints.cols
    return (st.joints.n, jc["a_body"], jc["a_part"], jc["b_body"], jc["b_part"], jc["la"],
            jc["lb"], jc["weld"], jc["axis"], jc["rest_angle"], jc["broken"], jc["impulse"],
            jc["spin"], jc["force"], jc["lower"], jc["upper"], jc["motor_speed"],
            jc["motor_torque"], jc["motor_impulse"], jc["lower_impulse"], jc["upper_impulse"])


def _particle_columns(st: Any) -> tuple[Any, ...]:
    """The particle columns the joint and contact kernels take (no rows: never read)."""
    pc = st.particles.cols
    return pc["pos"], pc["prev"], pc["w"]
