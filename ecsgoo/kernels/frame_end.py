"""A frame's end with nothing to report, in one call (``frame_end.quiet``): the contact
events' look (``touching.watched_touch_nothing``), the sensors' (``sensing.
sense_discs_again``), the range check (``astray.first_astray``): ``loud``; then, in a
world that sleeps, sleeping's frame look (``stillness.frame_stillness``) and whether
everything that can move sleeps (``stillness.all_asleep``): ``quiet_end``. What holds from
frame to frame comes in one argument (``frame_args.QuietArgs``). Units: px, s, px/s.
"""

from __future__ import annotations

from numba import njit

from .astray import first_astray
from .sensing import sense_discs_again
from .stillness import all_asleep, frame_stillness
from .touching import watched_touch_nothing

#: ``quiet_end``'s answers: all done; something to report (nothing written); nothing to
#: report but a sleeping row was hit (nothing written: sleeping's long way wakes it).
QUIET, LOUD, HIT = 0, 1, 2


@njit(cache=True)
def loud(a, watch, slop, count, out, last, last_m, astray):
    """Whether the particles' frame end has something to report (nothing written but the
    sensors' look into ``out``): a watched disc (``watch``) touches another or the level
    (``a``, ``frame_args.QuietArgs``: the rows, the grid of one cell, the level), the
    ``count`` sensors (``a``'s pack) do not hold just the pairs ``last[:last_m]`` they held
    (through the same grid: one cell, so in row order), or a row left the representable
    range (``astray``)."""
    if watch and not watched_touch_nothing(a.n, a.pos, a.radius, a.events, slop, a.x0, a.y0,
                                           a.cell, a.nx, a.ny, a.start, a.items, a.segs,
                                           a.poly_off, a.poly_xy, a.poly_idx, a.walls,
                                           a.use_bounds, a.mask, a.seg_layer, a.poly_layer):
        return True
    if count:
        _, same = sense_discs_again(count, a.kind, a.geo, a.s_poly_off, a.s_poly_xy,
                                    a.s_poly_idx, a.s_mask, a.pos, a.radius, a.layer, a.x0,
                                    a.y0, a.cell, a.nx, a.ny, a.start, a.items, out, last,
                                    last_m)
        if not same:
            return True
    return astray and first_astray(a.n, a.pos, a.prev, a.max_coord, a.step_limit) >= 0


@njit(cache=True)
def quiet_end(a, watch, slop, count, out, last, last_m, astray, then, asleep, still, m, bpos,
              bprev, angle, prev_angle, extent, bthen, basleep, bstill, h, dt, slow, speed,
              bspeed, pinned, mass, bpinned):
    """The particles' frame end when it reports nothing (``loud``), then sleeping's frame
    look: the frame's stillness (written: the sleepers put back, the still counts, the
    speeds into ``speed``, ``bspeed``). Returns ``(answer, sleeps, resting)``: ``QUIET``
    (all done; ``sleeps``: some row sleeps, ``resting``: everything that can move does),
    ``LOUD`` or ``HIT`` (see above), nothing written. A world that does not sleep asks
    ``loud`` alone (the sleepers' arrays cost a call ~1 µs to hand over)."""
    if loud(a, watch, slop, count, out, last, last_m, astray):
        return LOUD, False, False
    n, pos, prev = a.n, a.pos, a.prev
    hit, sleeps = frame_stillness(n, pos, prev, then, asleep, still, m, bpos, bprev, angle,
                                  prev_angle, extent, bthen, basleep, bstill, h, dt, slow,
                                  speed, bspeed)
    if hit:
        return HIT, True, False
    return QUIET, sleeps, all_asleep(n, pinned, mass, asleep, m, bpinned, basleep)
