"""Project: every constraint — springs, areas (pressure), shape matching, tethers, joints.

Springs, areas, shapes and tethers (springs with an end on a body) are XPBD,
Gauss–Seidel, ``iterations`` rounds a substep; then the joints (hinges, welds,
limits, motors) as hard impulses, warm-started across frames
(``kernels.joints.joint_substep``).

Reads: particle pos, prev, w, mass; spring a, b, rest, compliance, broken; area and
shape CSR arrays, pressure, stiffness, alpha; tether and joint rows; body pos,
prev, angle, prev_angle, w, iw.
Writes: particle pos (prev: a joint's position pass); body pos, prev, angle,
prev_angle; spring and tether lam (reset every substep); joint impulses and force.
Events: none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..kernels.chains import (
    chain_room,
    chain_scratch,
    find_chains,
    tether_columns,
)
from ..kernels.distance import pack_springs, pack_springs_taken
from ..kernels.joints import joint_substep
from ..kernels.project import project_rounds
from ..kernels.tethers import solve_tethers
from ..physics import threads
from ..physics.rigid_frame import joint_arrays as _joint_arrays
from .pipeline import Stage, register_stage

if TYPE_CHECKING:
    from ..physics import StepContext
    from ..world import World


@register_stage
class Project(Stage):
    """``iterations`` rounds per substep (``None``: the world's setting).

    The springs are read once a frame, at its first substep (packed in sweep
    order, see ``_packed``): a spring's rest, compliance or broken flag written
    between frames or by a per-frame stage acts from the next frame's first
    substep; written by a per-substep stage of a game's own, from the next frame.
    """

    name = "project"
    per_substep = True

    def __init__(self, iterations: int | None = None) -> None:
        self.iterations = (None if iterations is None
                           else limits.check("Project", "iterations", iterations))
        self._parts = threads.ProjectParts()  # for a world of more than one thread

    def settings(self) -> dict[str, Any]:
        return {"iterations": self.iterations}

    def solve(self, world: World, ctx: StepContext) -> None:
        h = ctx.h
        st = world.store
        areas, shapes = st.areas, st.shapes
        pc = st.particles.cols  # kernels take whole columns and loop over the first n rows
        rounds = self.iterations or world.iterations
        if not (st.springs.n or areas.n or shapes.n):  # only springs on bodies, if any
            if st.tethers.n:
                st.tethers.lam[:] = 0.0
                alone = np.zeros(st.tethers.n, dtype=np.bool_)  # no chains without springs
                for _ in range(rounds):
                    _solve_tethers_once(world, h, alone)
            _solve_joints(world, h)
            return
        if st.tethers.n:
            st.tethers.lam[:] = 0.0
        # alpha means "fraction per 1/60 s frame"; spread it over every application (no
        # shape: its empty column as it is, not ~3 µs of numpy each substep)
        alpha = 1.0 - (1.0 - shapes.alpha) ** (h * 60.0 / rounds) if shapes.n else shapes.alpha
        sc, order, (ends, vals) = st.springs.cols, st.spring_order, self._packed(world)
        # islands on their own threads (a world of few springs does not ask: every substep)
        parts = threads.count(world) if st.springs.n >= threads.PROJECT_MIN else 1
        if parts > 1 and self._parts.usable(world, parts):
            self._parts.solve(world, parts, rounds, h, ends, vals, alpha)
            _solve_joints(world, h)
            return
        count, off, rows, cends, scratch, skip, _ = st.spring_chains
        bc, tc, rc = st.bodies.cols, st.tethers.cols, areas.cols
        # the rounds alternate the sweep direction and end on a backward sweep: a
        # symmetric Gauss–Seidel pass (a one-way sweep feeds energy into high-valence
        # nodes, e.g. a jelly ball's centre with 24 spokes, until it explodes)
        project_rounds(rounds, h, pc["pos"], pc["w"], pc["mass"], ends, vals, order,
                       sc["lam"], count, off, rows, cends, scratch, *tether_columns(tc),
                       st.tethers.n, tc["broken"], skip, bc["pos"], bc["angle"], bc["w"],
                       bc["iw"], areas.n, st.area_off, st.area_idx, rc["rest_area"],
                       rc["pressure"], rc["stiffness"], st.scratch, shapes.n, st.shape_off,
                       st.shape_idx, st.shape_rest, alpha, shapes.cols["scale"])
        _solve_joints(world, h)

    @staticmethod
    def _packed(world: World) -> tuple[Any, Any]:
        """The springs packed in sweep order with ``lam`` 0 (``pack_springs``): packed at
        a frame's first substep and kept for the others (a tenth of the jelly scene's
        Project), as nothing but a per-substep stage of the game's own could change a
        spring's ends, rest, compliance or broken flag between a frame's substeps
        (such a change counts from the next frame). The chains (ropes, strands:
        ``kernels.chains``) are taken out of the sweep then."""
        st = world.store
        ends, vals = st.spring_pack
        key = (world.frame, st.springs.version, id(st.spring_order), st.tethers.version,
               st.tethers.n)
        if st.spring_pack_key != key:
            sc = st.springs.cols
            chains = _chains_key(st)
            if st.spring_chains_key == chains:  # the chains found before hold: taken out
                pack_springs_taken(st.spring_order, sc["a"], sc["b"], sc["rest"],
                                   sc["compliance"], sc["broken"], sc["lam"], ends, vals,
                                   st.spring_chains[6])
            else:  # found again (``_chains``) when the springs or tethers changed (a
                # tenth of the jelly scene's frame went to finding none)
                sc["lam"][:] = 0.0
                pack_springs(st.spring_order, sc["a"], sc["b"], sc["rest"],
                             sc["compliance"], sc["broken"], sc["lam"], ends, vals)
                st.spring_chains = _chains(ends, st)
                st.spring_chains_key = chains
            st.spring_pack_key = key
        else:
            vals[:, 2] = 0.0
        return ends, vals


def _chains_key(st: Any) -> tuple[Any, ...]:
    """What the chains of the packed springs are found from: the springs, their order and
    broken flags, the particles' rows, the tethers and their broken flags."""
    sc, tc = st.springs.cols, st.tethers.cols
    return (st.springs.version, id(st.spring_order), st.particles.version, st.tethers.version,
            st.tethers.n, sc["broken"][: st.springs.n].tobytes(),
            tc["broken"][: st.tethers.n].tobytes())


def _chains(ends: Any, st: Any) -> tuple[Any, ...]:
    """The chains of the packed springs and the tethers (``kernels.chains.find_chains``,
    which takes them out of ``ends`` and flags them in the tethers' skip): (count,
    offsets, links, their ends, scratch, the tethers' skip, the packed springs taken)."""
    t = st.tethers
    tc, nt = t.cols, t.n
    a_body, b_body = tc["a_body"][:nt], tc["b_body"][:nt]
    one = (a_body >= 0) != (b_body >= 0)  # a body at one end, a particle at the other
    part = np.where(a_body < 0, tc["a_part"][:nt], tc["b_part"][:nt])
    tp = np.where(one & ~tc["broken"][:nt], part, -1)
    side = (a_body >= 0).astype(np.int64)  # 0: the particle is the a end
    body = np.where(a_body >= 0, a_body, b_body)
    off, rows, cends = chain_room(len(ends) + nt)
    skip = np.zeros(nt, dtype=np.bool_)
    count = find_chains(ends, st.particles.n, tp, side, body, off, rows, cends, skip)
    links = rows[: off[count]]
    longest = int(np.diff(off[: count + 1]).max()) if count else 1
    return (count, off, rows, cends, chain_scratch(longest), skip, links[links >= 0])


def _solve_joints(world: World, h: float) -> None:
    """One substep of the joints (``kernels.joints.joint_substep``), in Project."""
    st = world.store
    if st.joints.n:
        c, pc = st.bodies.cols, st.particles.cols
        joint_substep(*_joint_arrays(st), c["pos"], c["prev"], c["angle"], c["prev_angle"],
                      c["w"], c["iw"], pc["pos"], pc["prev"], pc["w"], h)


def _solve_tethers_once(world: World, h: float, skip: Any) -> None:
    """One XPBD pass over the tethers (springs with an end on a body) but those in chains
    (``skip``), in Project."""
    st = world.store
    t = st.tethers
    bc, pc = st.bodies.cols, st.particles.cols
    if t.n:
        tc = t.cols
        solve_tethers(t.n, tc["a_body"], tc["a_part"], tc["b_body"], tc["b_part"], tc["la"],
                      tc["lb"], tc["rest"], tc["compliance"], tc["broken"], skip, tc["lam"],
                      bc["pos"], bc["angle"], bc["w"], bc["iw"], pc["pos"], pc["w"], h)
