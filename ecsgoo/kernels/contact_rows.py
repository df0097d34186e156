"""What a rigid contact's row holds, and the arithmetic of one contact's solve.

Rows of ``ci`` (body a, body b or -1, particle b or -1, the particle after it along a
soft body's outline or -1) and ``cf`` (the columns below) are the contacts of
``rigid_solver`` and the lanes it solves them in (``lanes``); ``pose`` rows are the
bodies' as its passes see them. Here so that both take them from one place.
"""

from __future__ import annotations

from numba import njit

# cf columns: normal (a → b); where the anchors are (see ``poses``); the arms the
# impulses act through (world, as found) and the effective masses along the normal and
# the tangent; friction, restitution; normal and tangent impulses (accumulated,
# mass·px/s); approach speed when found (px/s); largest normal impulse of the frame;
# where along a soft body's outline edge (particle ci[k, 2] to ci[k, 3]) b is, 0..1
NX, NY, RAX, RAY, RBX, RBY, JAX, JAY, JBX, JBY, MN, MT = range(12)
MU, E, LN, LT, UN0, LMAX, T = range(12, 19)
# a body pair's contact as found, in a's coordinates: anchors on a and b (b's own), the
# normal, and where b was relative to a (x, y, angle) — to reuse it while that holds
LAX, LAY, LBX, LBY, LNX, LNY, RPX, RPY, RPA = range(19, 28)
CF = 28


#: ``pose``'s columns: where a body is (x, y, cos, sin of its turn since the frame's
#: contacts were found: ``poses``) and, while ``_sweep_bodies`` runs, its velocity
#: (px/s, rad/s), which the passes change in place of its positions, and whether a
#: contact changed it (1.0: the body's positions are written back, others keep theirs)
VX, VY, OM, TOUCHED = 4, 5, 6, 7
POSE = 8


@njit(cache=True, inline="always")
def _arm_point(x, y, c, s, rx, ry):
    """``(x, y) + R · r`` with ``R`` the rotation of cosine ``c`` and sine ``s``."""
    return x + c * rx - s * ry, y + s * rx + c * ry


@njit(cache=True, inline="always")
def _hard_impulse(old, mass, vn, s, inv_h):
    """The new accumulated normal impulse of a hard contact (mass·px/s) at normal speed
    ``vn`` (px/s) and separation ``s`` (px): a gap (s > 0, speculative) may close
    this substep, no more; an overlap is left to the position pass (``separate``)."""
    bias = s * inv_h if s > 0.0 else 0.0
    return max(old - mass * (vn + bias), 0.0)


@njit(cache=True, inline="always")
def _rel(vax, vay, oma, rax, ray, vbx, vby, omb, rbx, rby):
    """Velocity of b's contact point relative to a's (arms ``ra``, ``rb``)."""
    return vbx - omb * rby - (vax - oma * ray), vby + omb * rbx - (vay + oma * rax)


@njit(cache=True, inline="always")
def _normal_then_friction(k, cf, s, inv_h, vax, vay, oma, vbx, vby, omb, jax, jay, jbx, jby,
                          wa, iwa, wb, iwb):
    """Contact ``k``'s solve at separation ``s`` (px): ``_normal_then_friction_of`` with
    its impulses accumulated in ``cf``. Returns the ends' velocities, the normal impulse
    applied (on b) and the friction impulse still to apply (along the tangent
    ``(ny, −nx)``)."""
    nx, ny = cf[k, NX], cf[k, NY]
    vax, vay, oma, vbx, vby, omb, ln, lt, lmax, dt = _normal_then_friction_of(
        nx, ny, cf[k, LN], cf[k, LT], cf[k, LMAX], cf[k, MN], cf[k, MT], cf[k, MU], s, inv_h,
        vax, vay, oma, vbx, vby, omb, jax, jay, jbx, jby, wa, iwa, wb, iwb)
    dn = ln - cf[k, LN]
    cf[k, LN], cf[k, LT], cf[k, LMAX] = ln, lt, lmax
    return vax, vay, oma, vbx, vby, omb, dn * nx, dn * ny, dt


@njit(cache=True, inline="always")
def _normal_then_friction_of(nx, ny, ln, lt, lmax, mn, mt, mu, s, inv_h, vax, vay, oma, vbx,
                             vby, omb, jax, jay, jbx, jby, wa, iwa, wb, iwb):
    """A contact's solve at separation ``s`` (px), normal ``n``, arms ``ja``/``jb``, its
    accumulated normal and tangent impulses ``ln``/``lt`` (mass·px/s; ``lmax`` the
    largest normal step), effective masses ``mn``/``mt`` and friction ``mu``: the hard
    normal impulse, applied to the ends' velocities before friction sees them, then
    Coulomb friction (at most μ × the normal impulse). Returns the ends' velocities, the
    new ``ln``, ``lt`` and ``lmax``, and the friction impulse still to apply (along the
    tangent ``(ny, −nx)``)."""
    ux, uy = _rel(vax, vay, oma, jax, jay, vbx, vby, omb, jbx, jby)
    new = _hard_impulse(ln, mn, ux * nx + uy * ny, s, inv_h)
    dn = new - ln
    jx, jy = dn * nx, dn * ny
    vax, vay, oma = vax - jx * wa, vay - jy * wa, oma - iwa * (jax * jy - jay * jx)
    vbx, vby, omb = vbx + jx * wb, vby + jy * wb, omb + iwb * (jbx * jy - jby * jx)
    ux, uy = _rel(vax, vay, oma, jax, jay, vbx, vby, omb, jbx, jby)
    limit = mu * new
    friction = min(max(lt - mt * (ux * ny - uy * nx), -limit), limit)
    return (vax, vay, oma, vbx, vby, omb, new, friction, max(lmax, dn), friction - lt)
