"""A frame's later substeps of a world of rigid bodies only, in one call
(``physics.rigid_frame``).

Each substep is what the solver stages do for bodies alone, in their order and with
the same kernels: Integrate (``integrate_bodies``), Project (``joint_substep``),
Collide (``contact_substep`` on the contacts found at the frame's first substep, then
the shock pass over its stacked rows). Called from Python, that was some forty
function calls a substep around a few microseconds of arithmetic. Units: px, rad, s.
"""

from __future__ import annotations

from numba import njit

from .joints import joint_substep
from .rigid import integrate_bodies
from .rigid_solver import contact_substep
from .stacks import shock


@njit(cache=True)
def rigid_substeps(first, count, h, damp, gx, gy, force, joints, nc, ci, cf, nb_rows, order,
                   angle0, pose, stacked, before, bounce, m, bpos, bprev, bangle,
                   bprev_angle, bw, biw, ppos, pprev, pw):
    """Substeps ``first..count − 1`` of the frame (``count`` a frame) for ``m`` bodies:
    integrate under gravity ``(gx, gy)`` and ``force``, the joints (``joints``: the joint
    table's arrays, ``physics.rigid_frame.joint_arrays``), the ``nc`` contacts (the first
    ``nb_rows`` between bodies in ``order``; restitution after the last substep, above
    ``bounce`` px/s) and the shock pass over ``stacked``."""
    for k in range(first, count):
        integrate_bodies(m, bpos, bprev, bangle, bprev_angle, force, bw, gx, gy, damp, h)
        if joints[0] > 0:
            joint_substep(*joints, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev,
                          pw, h)
        contact_substep(nc, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw, ppos, pprev,
                        pw, h, m, angle0, pose, k == count - 1, bounce, nb_rows, order)
        if len(stacked):
            shock(len(stacked), stacked, ci, cf, bpos, bprev, bangle, bprev_angle, bw, biw,
                  m, angle0, pose, ppos, before, gx, gy, h)
