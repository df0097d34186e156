"""Collide: bounds, static level geometry, circle pairs and soft-body outlines.

Reads: particle pos, prev, w, radius, group, friction, restitution; the world's
bounds and level; the outline CSR arrays.
Writes: particle pos, prev (positions separated, velocities given impulses).
Events: none.
"""

from __future__ import annotations

from typing import Any

from ..kernels.contacts import collide_bounds, collide_polygons, collide_segments
from ..kernels.grid import build_grid
from ..kernels.outlines import collide_outlines
from ..kernels.pairs import collide_pairs
from .base import Stage, register_stage


@register_stage
class Collide(Stage):
    """Contacts, in the order pairs → outlines → level → bounds (bounds have the last word).

    ``particles``: circle–circle contacts; ``outlines``: particles vs soft-body
    outlines; ``bounce_speed`` (px/s): slower impacts do not bounce, so resting
    contacts stay at rest; ``push_speed`` (px/s): the most velocity resolving one
    overlap may create — deeper overlaps are resolved without flinging.
    """

    name = "collide"
    per_substep = True

    def __init__(self, particles: bool = True, outlines: bool = True,
                 bounce_speed: float = 100.0, push_speed: float = 300.0) -> None:
        self.particles, self.outlines = particles, outlines
        self.bounce_speed, self.push_speed = bounce_speed, push_speed

    def settings(self) -> dict[str, Any]:
        return {"particles": self.particles, "outlines": self.outlines,
                "bounce_speed": self.bounce_speed, "push_speed": self.push_speed}

    def substep(self, world: Any, h: float) -> None:
        st = world.store
        p = st.particles
        c = p.cols
        n, vmin, push = p.n, self.bounce_speed * h, self.push_speed * h
        args = (c["pos"], c["prev"], c["w"], c["radius"], c["friction"], c["restitution"])
        if n and (self.particles or self.outlines):
            x0, y0, cell, nx, ny, start, items = build_grid(n, c["pos"], c["radius"],
                                                            world.contact_slop)
            if self.particles:
                collide_pairs(c["pos"], c["prev"], c["w"], c["radius"], c["group"],
                              c["friction"], c["restitution"], nx, ny, start, items, vmin, push)
            if self.outlines and len(st.outline_off) > 1:
                collide_outlines(len(st.outline_off) - 1, st.outline_off, st.outline_idx,
                                 c["pos"], c["prev"], c["w"], c["group"], c["friction"],
                                 c["restitution"], x0, y0, cell, nx, ny, start, items, vmin, push)
        lvl = world.level
        if len(lvl.segments):
            collide_segments(n, *args, lvl.segments, vmin, push)
        if len(lvl.polygons):
            collide_polygons(n, *args, lvl.poly_off, lvl.poly_xy, lvl.poly_idx, vmin, push)
        if world.bounds is not None:
            collide_bounds(n, *args, *world.bounds, vmin, push)
