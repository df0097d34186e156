"""A frame's end with nothing to report, in one call (``frame_end.quiet``): the contact
events' look (``touching.watched_touch_nothing``), the sensors' (``sensing.
sense_discs_again``), the range check (``astray.first_astray``), then sleeping's frame
look (``stillness.frame_stillness``) and whether everything that can move sleeps
(``stillness.all_asleep``). Units: px, s, px/s.
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
def quiet_end(n, pos, prev, radius, layer, mask, events, watch, slop, x0, y0, cell, nx, ny,
              start, items, segs, poly_off, poly_xy, poly_idx, walls, use_bounds, seg_layer,
              poly_layer, count, kind, geo, s_poly_off, s_poly_xy, s_poly_idx, s_mask, out,
              last, last_m, astray, max_coord, step_limit, sleep, then, asleep, still, m,
              bpos, bprev, angle, prev_angle, extent, bthen, basleep, bstill, h, dt, slow,
              speed, bspeed, pinned, mass, bpinned):
    """The particles' frame end when it reports nothing: no watched disc (``watch``)
    touches another or the level (through the grid ``x0 … items``); the ``count``
    sensors hold the pairs ``last[:last_m]`` they held (through the same grid: one cell,
    so in row order); no row left the representable range (``astray``); then, with
    ``sleep``, the frame's stillness (written: the sleepers put back, the still counts,
    the speeds into ``speed``, ``bspeed``). Returns ``(answer, sleeps, resting)``:
    ``QUIET`` (all done; ``sleeps``: some row sleeps, ``resting``: everything that can
    move does), ``LOUD`` or ``HIT`` (see above), nothing written."""
    if watch and not watched_touch_nothing(n, pos, radius, events, slop, x0, y0, cell, nx,
                                           ny, start, items, segs, poly_off, poly_xy,
                                           poly_idx, walls, use_bounds, mask, seg_layer,
                                           poly_layer):
        return LOUD, False, False
    if count:
        _, same = sense_discs_again(count, kind, geo, s_poly_off, s_poly_xy, s_poly_idx,
                                    s_mask, pos, radius, layer, x0, y0, cell, nx, ny, start,
                                    items, out, last, last_m)
        if not same:
            return LOUD, False, False
    if astray and first_astray(n, pos, prev, max_coord, step_limit) >= 0:
        return LOUD, False, False
    if not sleep:
        return QUIET, False, False
    hit, sleeps = frame_stillness(n, pos, prev, then, asleep, still, m, bpos, bprev, angle,
                                  prev_angle, extent, bthen, basleep, bstill, h, dt, slow,
                                  speed, bspeed)
    if hit:
        return HIT, True, False
    return QUIET, sleeps, all_asleep(n, pinned, mass, asleep, m, bpinned, basleep)
