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

A world of rigid bodies alone ends its frame without a call when nothing is watched,
touching or sensed, nothing was moved by ``move_to``, it does not sleep and its frame's
kernel looked at the bodies' range with nothing moved since (``_quiet_bodies``); a world
of particles asleep all through the frame with nothing watched, touching or sensed asks
sleeping alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import contact_events, limits, sensors, sleeping
from .flags import stopping, watched
from .kernels.frame_args import quiet_args
from .kernels.frame_end import QUIET, loud, quiet_end
from .physics import astray
from .physics.broadphase import one_cell
from .sensors import Sensor

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
    if ENABLED and st.bodies.n and not p.n and len(st.outline_off) <= 1:
        return _quiet_bodies(world)
    if not ENABLED or st.bodies.n or len(st.outline_off) > 1 or not p.n:
        return False
    st.prepare()  # the rows as a stage or a handler left them, as each service makes them
    if world.rested and world.resting and _unwatched(world, p):
        # asleep all through the frame, nothing watched, touching or sensed: no service has
        # anything to look at but sleeping, which finds everything still at rest
        sleeping.update(world)
        return True
    watch = contact_events.quiet_watch(world)
    seen = None if watch is None else sensors.quiet_args(world)
    look = None if seen is None else sleeping.quiet_args(world)
    if look is None:
        return False
    count, pack, room, last, last_m = seen[0], seen[1:7], seen[7], seen[8], seen[9]
    held = _held(world, pack)
    awake = not (world.rested and world.resting)  # asleep all through: nothing moved
    if not look[1]:  # a world that does not sleep (or slept through): the look alone
        return not loud(held, watch, world.contact_slop, count, room, last, last_m, awake)
    answer, sleeps, resting = quiet_end(held, watch, world.contact_slop, count, room, last,
                                        last_m, awake, *look[2:])
    if answer != QUIET:
        return False
    if look[0]:
        sleeping.quiet_done(world, sleeps, resting)
    return True


def _unwatched(world: World, table: Any) -> bool:
    """In a world whose rows are ``table``'s alone: nothing watched for contact events and
    nothing touching or arriving (``contact_events.idle``, asked of the one table), and no
    sensor."""
    return not (watched(table) or world._has_any(Sensor)) and contact_events.calm(world)


def _quiet_bodies(world: World) -> bool:
    """A world of bodies alone whose frame's end has nothing to do: nothing watched and
    nothing touching or arriving (``contact_events.update`` returns at once), no sensor,
    no body moved by ``move_to`` (``kinematic.stop``), the bodies looked at for their range
    in the frame's kernel with nothing moved since (``astray.check``), and no sleeping."""
    st = world.store
    b = st.bodies
    if world.sleep or stopping(b) or not _unwatched(world, b):
        return False
    return world.__dict__.get("_bodies_within") == (world.frame, st.poses, b.version)


def _held(world: World, pack: tuple[Any, ...]) -> Any:
    """The look's arguments that hold while the particles' rows, the level, the bounds,
    the substep and the sensors' ``pack`` do, in one ``kernels.frame_args.QuietArgs``, kept
    on the world (made again when one changed: typing its ~20 arrays once, not every
    frame): the rows' count and columns; the grid of one cell and the level's shapes and
    layers; the sensors' pack; the range check's limits."""
    p, lvl = world.store.particles, world.level
    packed = lvl._packed()
    # the level's arrays and the sensors' pack by the identity of their tuple and first
    # array (kept below, so their ids are not another's): arrays in a key would be
    # compared element by element
    key = (p, p.version, id(packed), id(pack[0]), world.bounds, world.dt, world.substeps)
    kept = world.__dict__.get("_quiet_held")
    if kept is None or kept[0] != key:
        c = p.cols
        held = quiet_args(p.n, c["pos"], c["prev"], c["radius"], c["layer"], c["mask"],
                          c["events"], *one_cell(p.n), *contact_events.level_shapes(world),
                          lvl.seg_layer, lvl.poly_layer, *pack, limits.MAX_COORD,
                          astray.substep_limit(world))
        kept = world._quiet_held = (key, held, packed, pack)
    return kept[1]
