"""One substep of Project in one call (``systems.project.Project.solve``): the springs'
symmetric Gauss–Seidel rounds with, after each sweep, the chains, the areas, the shapes
and the tethers, then the multipliers back into the springs' ``lam``.

Called from Python, the rounds were three to five kernel calls each (a rope's first
substep paid ~30 µs of calls around its arithmetic). The same kernels in the same order,
so the same bits. Units: px, s.
"""

from __future__ import annotations

from numba import njit

from .area import solve_area
from .chains import solve_chains
from .distance import sweep_springs, unpack_lam
from .shape import solve_shape
from .tethers import solve_tethers


@njit(cache=True)
def project_rounds(rounds, h, pos, w, mass, ends, vals, order, lam, chains, chain_off,
                   chain_rows, chain_ends, scratch, ta_body, ta_part, tb_body, tb_part, tla,
                   tlb, trest, tcompliance, tlam, tether_n, tether_broken, skip, bpos, bangle,
                   bw, biw, area_n, area_off, area_idx, rest_area, pressure, stiffness, grad,
                   shape_n, shape_off, shape_idx, shape_rest, alpha, scale):
    """``rounds`` rounds of Project over the packed springs (``ends``, ``vals``; the
    backward sweeps on odd rounds, one more backward for an odd count), each sweep followed
    by the ``chains`` (``kernels.chains``), the ``area_n`` areas, the ``shape_n`` shapes
    (``alpha``: each one's stiffness an application) and the ``tether_n`` tethers but those
    in chains (``skip``); ``ta_body`` to ``tlam``: the columns ``chains.tether_columns``
    gives, flat (a tuple of them cost the call ~1 µs to type). The springs' multipliers go
    back into ``lam`` in ``order``."""
    tethers = (ta_body, ta_part, tb_body, tb_part, tla, tlb, trest, tcompliance, tlam)
    for r in range(rounds):
        sweep_springs(ends, vals, pos, w, h, r % 2 == 1)
        if chains:
            solve_chains(chains, chain_off, chain_rows, chain_ends, vals, pos, w, h, scratch,
                         tethers, bpos, bangle, bw, biw)
        if area_n:
            solve_area(area_n, pos, w, area_off, area_idx, rest_area, pressure, stiffness,
                       grad)
        if shape_n:
            solve_shape(shape_n, pos, w, mass, shape_off, shape_idx, shape_rest, alpha,
                        scale)
        if tether_n:
            solve_tethers(tether_n, tethers[0], tethers[1], tethers[2], tethers[3],
                          tethers[4], tethers[5], tethers[6], tethers[7], tether_broken,
                          skip, tethers[8], bpos, bangle, bw, biw, pos, w, h)
    if rounds % 2:
        sweep_springs(ends, vals, pos, w, h, True)
        if chains:
            solve_chains(chains, chain_off, chain_rows, chain_ends, vals, pos, w, h, scratch,
                         tethers, bpos, bangle, bw, biw)
    unpack_lam(order, vals, lam)
