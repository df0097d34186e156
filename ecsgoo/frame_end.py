"""A frame's end that has nothing to report, in one kernel call (``World.end_frame``).

Most frames of a game of particles end with nothing to say: no watched particle
touches anything, every sensor holds what it held, nothing left the representable
range, no sleeping row was hit. ``quiet`` asks all of that at once
(``kernels.frame_end.quiet_end``), then does sleeping's usual frame look in the same
call; each service hands it its part (``contact_events.quiet_watch``,
``sensors.quiet_args``, ``sleeping.quiet_args``). Anything else — something to report,
a row come or gone, rigid bodies, soft bodies' outlines, more rows than one cell of
the grid takes — goes the usual way, service by service, to the same bits: the look
writes nothing unless it is all done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import contact_events, limits, sensors, sleeping
from .kernels.frame_end import QUIET, quiet_end
from .physics import astray
from .physics.broadphase import one_cell

if TYPE_CHECKING:
    from .world import World

#: Off: every frame ends service by service (the tests compare both to the bit).
ENABLED = True


def quiet(world: World) -> bool:
    """End the frame in one call if it has nothing to report: what ``contact_events.
    update``, ``sensors.update``, ``kinematic.stop``, ``astray.check`` and ``sleeping.
    update`` would do. Whether it did; when not, nothing was written but the frozen rows
    thawed (which ``sleeping.update`` does first anyway)."""
    st = world.store
    p = st.particles
    if not ENABLED or st.bodies.n or len(st.outline_off) > 1 or not p.n:
        return False
    st.prepare()  # the rows as a stage or a handler left them, as each service makes them
    watch = contact_events.quiet_watch(world)
    seen = None if watch is None else sensors.quiet_args(world)
    look = None if seen is None else sleeping.quiet_args(world)
    if look is None:
        return False
    rows, level, limit = _held(world)
    answer, sleeps, resting = quiet_end(*rows, watch, world.contact_slop, *level, *seen,
                                        not (world.rested and world.resting),
                                        limits.MAX_COORD, limit, *look[1:])
    if answer != QUIET:
        return False
    if look[0]:
        sleeping.quiet_done(world, sleeps, resting)
    return True


def _held(world: World) -> tuple[Any, ...]:
    """``quiet_end``'s arguments that hold while the particles' rows, the level, the
    bounds and the substep do, kept on the world (made again when one changed): the rows'
    count and columns; the grid of one cell and the level's shapes and layers; the range
    check's substep limit."""
    p, lvl = world.store.particles, world.level
    packed = lvl._packed()
    # the level's arrays by the identity of their tuple (kept below, so its id is not
    # another's): arrays in a key would be compared element by element
    key = (p, p.version, id(packed), world.bounds, world.dt, world.substeps)
    kept = world.__dict__.get("_quiet_held")
    if kept is None or kept[0] != key:
        c = p.cols
        rows = (p.n, c["pos"], c["prev"], c["radius"], c["layer"], c["mask"], c["events"])
        level = (*one_cell(p.n), *contact_events.level_shapes(world), lvl.seg_layer,
                 lvl.poly_layer)
        kept = world._quiet_held = (key, (rows, level, astray.substep_limit(world)), packed)
    return kept[1]
