"""Support: what carries a load is never lighter than its load, in resting contacts and
hanging springs (how the particles pass the mass-ratio bars; see ``carried``).

A contact or spring between particles splits its correction by inverse mass. With
one Gauss–Seidel pass a substep, a heavy disc on light ones moves its supports almost
the whole overlap, the light discs below share it, and the column never catches up:
a 1:100 disc on five unit discs still moved at 458 px/s after 5 s and a 1:1000 disc
sank to the ground (measured on the landed code). A chain of links alternating 1 and
1000 under a pin stretched 300–500 % and broke: each light link, moved by its heavy
neighbour's full error, cannot pass the load up.

Shock propagation (Guendelman, Bridson & Fedkiw 2003; the height-based mass scaling
of Macklin et al. 2014 is its smooth form) solves resting contacts as if the lower
body were heavier. Here it is applied only where a light thing carries a heavy one,
and only as far as equal masses: the carrier's inverse mass is brought down to the
load's, by how closely the pair lines up with gravity (``s``, 0 side by side, 1 one
straight above the other). A column or chain of mixed masses then converges as one of
equal masses does (1:1000 column: at rest, 0.05 px overlap; 1:1000 chain: links within
1.4 % of their rest lengths). Equal masses are untouched, so piles, jelly and
every uniform scene solve exactly as before; impacts (approaching faster than the
bounce speed) and fast-moving springs keep their true masses, so collisions and
swings conserve momentum.

Tried first, and dropped: warm-starting the springs' multipliers across substeps (the
position-level multiplier holds each substep's velocity correction too; re-applied,
every chain, even a uniform one, blew up within a second), and full shock
propagation (the lower body immovable): a pile's jammed contacts then push upward
only, the pile boiled (95th-percentile speed 35–550 px/s at 10 s, against 73).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def carried(wi, wj, s):
    """Inverse masses ``(wi, wj)`` with the carrier brought toward its load's.

    ``s`` in [−1, 1]: > 0 when ``j`` carries ``i`` (``j`` under it in a contact or a
    strut, above it in a hanging spring), < 0 when ``i`` carries ``j``; its size is how
    closely the pair lines up with gravity. Only a carrier lighter than its load
    changes, to at most the load's inverse mass (equal shares) at ``|s| = 1``; a load
    that cannot move (0) needs no carrying.
    """
    if s > 0.0 and wj > wi > 0.0:
        wj += s * (wi - wj)
    elif s < 0.0 and wi > wj > 0.0:
        wi -= s * (wj - wi)
    return wi, wj


#: px/s: springs whose ends both move slower than this are at rest for ``carried``
#: (contacts use Collide's ``bounce_speed``: slower approaches do not bounce).
RESTING_SPEED = 100.0
