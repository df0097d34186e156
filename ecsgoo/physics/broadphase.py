"""The broad phase: the grids of the world as it is now, each made once per pose.

Collide, contact events, sleeping, sensors and the queries all ask here
(``World.broadphase``) instead of building grids of their own. A grid is kept
until something could have moved what it holds: every stage run, a position
write through a component, a bulk write, a sleeping row put back — each bumps
``Store.poses`` (a counter: no array comparisons) — or a row added or removed
(the table's ``version``). So the frame's end builds the particles' grid once for
events, sleeping and queries together, and a substep's Collide builds its own.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..kernels.grid import build_body_grid, build_grid, build_grid_without

if TYPE_CHECKING:
    from ..world import World


@functools.lru_cache(maxsize=8)
def one_cell(n: int) -> tuple:
    """A grid of one cell holding all ``n`` particles, in row order: what the grid kernels'
    neighbour walks take (``build_grid``'s types), for a look at a few rows among a few
    hundred, where a cell's neighbours would be all of them anyway and making the real
    grid costs more than testing every row (contact events, sensors).

    The cell is infinitely wide, so every finite point falls in it without a clamp. Kept
    per ``n`` (the kernels only read it): a frame asks it once or twice."""
    return (0.0, 0.0, math.inf, 1, 1, np.array([0, n], dtype=np.int64),
            np.arange(n, dtype=np.int64))


class BroadPhase:
    """The particles' and the bodies' grids (``kernels.grid``), kept while they hold."""

    def __init__(self) -> None:
        self._particles: tuple[Any, Any] | None = None
        self._moving: tuple[Any, Any] | None = None
        self._bodies: tuple[Any, Any] | None = None

    def particles(self, world: World) -> tuple:
        """The particles' grid (``build_grid``, cells sized for ``World.contact_slop``)."""
        st = world.store
        st.prepare()  # and the rest of the store whole, for what reads it beside the grid
        p = st.particles
        key = (st.poses, p.version, p.n, world.contact_slop)
        if self._particles is None or self._particles[0] != key:
            grid = build_grid(p.n, p.cols["pos"], p.cols["radius"], world.contact_slop)
            self._particles = (key, grid)
        return self._particles[1]

    def kept_particles(self, world: World) -> tuple | None:
        """``particles``' grid if it holds the particles as they are now, else None (it
        is not made)."""
        st = world.store
        p = st.particles
        key = (st.poses, p.version, p.n, world.contact_slop)
        return self._particles[1] if self._particles is not None and \
            self._particles[0] == key else None

    def solver_particles(self, world: World) -> tuple:
        """The particles' grid without the frozen rows (``sleeping.freeze``): Collide's.
        Nothing awake can reach those this frame, so they meet nothing that moves; left
        out, a frozen pile costs its contacts nothing."""
        st = world.store
        p = st.particles
        st.prepare()  # may thaw (a row came or went): then the whole grid
        if not st.any_frozen:
            return self.particles(world)
        key = (st.poses, p.version, p.n, world.contact_slop, st.frozen_version)
        if self._moving is None or self._moving[0] != key:
            grid = build_grid_without(p.n, p.cols["pos"], p.cols["radius"],
                                      world.contact_slop, p.cols["frozen"])
            self._moving = (key, grid)
        return self._moving[1]

    def bodies(self, world: World) -> tuple:
        """The rigid bodies' grid (``build_body_grid``: bounding circles)."""
        st = world.store
        st.prepare()  # the bodies' pieces too: what is looked up in the grid reads them
        b = st.bodies
        key = (st.poses, b.version, b.n)
        if self._bodies is None or self._bodies[0] != key:
            self._bodies = (key, build_body_grid(b.n, b.cols["pos"], b.cols["extent"]))
        return self._bodies[1]
