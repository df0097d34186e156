"""Project: XPBD distance, area (pressure) and shape-matching constraints, Gauss–Seidel.

Reads: particle pos, w, mass; spring a, b, rest, compliance, broken; ring and
shape CSR arrays, pressure, stiffness, alpha.
Writes: particle pos; spring lam (XPBD multipliers, reset every substep).
Events: none.
"""

from __future__ import annotations

from typing import Any

from .. import limits
from ..kernels.area import solve_area
from ..kernels.distance import solve_distance
from ..kernels.shape import solve_shape
from .base import Stage, register_stage


@register_stage
class Project(Stage):
    """``iterations`` rounds per substep (``None``: the world's setting)."""

    name = "project"
    per_substep = True

    def __init__(self, iterations: int | None = None) -> None:
        self.iterations = (None if iterations is None
                           else limits.check("Project", "iterations", iterations))

    def settings(self) -> dict[str, Any]:
        return {"iterations": self.iterations}

    def substep(self, world: Any, h: float) -> None:
        st = world.store
        p, rings, shapes = st.particles, st.rings, st.shapes
        rounds = self.iterations or world.iterations
        st.springs.lam[:] = 0.0
        # alpha means "fraction per 1/60 s frame"; spread it over every application
        alpha = 1.0 - (1.0 - shapes.alpha) ** (h * 60.0 / rounds)
        order, backward = st.spring_order, st.spring_order_reversed
        for r in range(rounds):
            # alternate the sweep direction and end on a backward sweep: a symmetric
            # Gauss–Seidel pass (a one-way sweep feeds energy into high-valence nodes,
            # e.g. a jelly ball's centre with 24 spokes, until it explodes)
            self._distance(st, order if r % 2 == 0 else backward, h)
            if rings.n:
                solve_area(rings.n, p.pos, p.w, st.ring_off, st.ring_idx, rings.rest_area,
                           rings.pressure, rings.stiffness, st.scratch)
            if shapes.n:
                solve_shape(shapes.n, p.pos, p.w, p.mass, st.shape_off, st.shape_idx,
                            st.shape_rest, alpha)
        if rounds % 2:
            self._distance(st, backward, h)

    @staticmethod
    def _distance(st: Any, order: Any, h: float) -> None:
        p, s = st.particles, st.springs
        solve_distance(order, p.pos, p.w, s.a, s.b, s.rest, s.compliance, s.broken, s.lam, h)
