"""Support: in a resting contact, what carries a load is never lighter than its load
(how particle columns of mixed masses pass the mass-ratio bars; see ``carried``).

A contact between particles splits its correction by inverse mass. A heavy disc on
light ones moves its supports almost the whole overlap, the light discs below share
it, and the column never catches up: with the one positional pass a substep of
before, a 1:100 disc on five unit discs still moved at 458 px/s after 5 s and a
1:1000 disc sank to the ground; the soft contacts (``kernels.discs``) on their own
leave the 1:100 column 6 px deep in overlap and the 1:1000 disc sinks as well
(measured).

Shock propagation (Guendelman, Bridson & Fedkiw 2003; the height-based mass scaling
of Macklin et al. 2014 is its smooth form) solves resting contacts as if the lower
body were heavier. Here it is applied only where a light disc carries a heavy one,
and only as far as equal masses: the carrier's inverse mass is brought down to the
load's, by how closely the pair lines up with gravity (``s``: 0 side by side, 1 one
straight above the other). Both columns then rest (speeds below 1e-9 px/s, 0.28 px of
overlap). Equal masses are untouched, so piles and jelly solve as before, and
impacts (approaching faster than the bounce speed) keep their true masses.

The price: such a contact moves the pair's centre of mass, which only a support
(the ground, a pin) takes up; a contact in free fall carries no load, so it does no
harm there. Tried and dropped:

- the same rule in springs and tethers: a 1:1000 chain then hung within 0.1 %, but a
  balloon lifting a ball no longer accelerated as F/m says (a spring is not one-sided:
  it carries loads that nothing supports);
- full shock propagation (the lower disc immovable): a pile's jammed contacts then push
  upward only, and the pile boiled (95th-percentile speed 35–550 px/s at 10 s);
- warm-starting the springs' XPBD multipliers across substeps: the multiplier holds
  each substep's velocity correction too, and re-applied, every chain, even a uniform
  one, blew up within a second.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def carried(wi, wj, s):
    """Inverse masses ``(wi, wj)`` with the carrier brought toward its load's.

    ``s`` in [−1, 1]: > 0 when ``j`` carries ``i`` (``j`` under it), < 0 when ``i``
    carries ``j``; its size is how closely the pair lines up with gravity. Only a
    carrier lighter than its load changes, to at most the load's inverse mass (equal
    shares) at ``|s| = 1``; a load that cannot move (0) needs no carrying.
    """
    if s > 0.0 and wj > wi > 0.0:
        wj += s * (wi - wj)
    elif s < 0.0 and wi > wj > 0.0:
        wi -= s * (wj - wi)
    return wi, wj
