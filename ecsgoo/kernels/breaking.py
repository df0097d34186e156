"""Spring stretch bookkeeping and breaking, once per frame."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def update_springs(m, pos, a, b, rest, max_stretch, stretch, broken, buckled, over,
                   break_frames, out):
    """Measure every spring; break those over ``max_stretch`` for ``break_frames`` frames.

    ``stretch = |x_b − x_a| / rest``; ``buckled = stretch < 0.5``; ``over``
    counts consecutive frames with ``stretch > max_stretch`` (reset otherwise).
    Newly broken spring rows are written to ``out``; returns how many.
    """
    count = 0
    for s in range(m):
        i, j = a[s], b[s]
        d = math.hypot(pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1])
        st = d / rest[s] if rest[s] > 0.0 else 1.0
        stretch[s] = st
        buckled[s] = st < 0.5 and not broken[s]
        if broken[s]:
            continue
        if st > max_stretch[s]:
            over[s] += 1
            if over[s] >= break_frames:
                broken[s] = True
                out[count] = s
                count += 1
        else:
            over[s] = 0
    return count


@njit(cache=True, _nrt=False)
def joints_over(n, force, max_force, broken):
    """How many of joint rows ``0..n`` held more than their ``max_force`` over the last
    substep and are not broken yet (most frames: none, asked without numpy's temporaries)."""
    count = 0
    for k in range(n):
        if force[k] > max_force[k] and not broken[k]:
            count += 1
    return count
