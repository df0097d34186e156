"""A frame of a world of discs and springs in one call, or its later substeps
(``physics.disc_frame``).

Each substep is what the solver stages do for particles without bodies, areas, shapes or
outlines, in their order and with the same kernels: Integrate (``integrate``), Project's
springs and chains (``sweep_springs``, ``solve_chains``, ``rounds`` a substep), then
Collide: the soft disc contacts found at the frame's first substep (``disc_substep``),
then the soft bodies' outlines (``outlines``), the static bodies (``rigid.particles_on_static``,
in a world whose bodies are all static: a ground of anchored boxes) and the level's
segments, polygons and bounds (``collide_level``). Project's areas and shapes (jelly) are
``project_rounds``'. Called from Python,
that was some thirty function calls a substep around the arithmetic (a Suika cup of
a few dozen fruit, a rope of a dozen links). Units: px, s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .contacts import collide_level
from .discs import disc_substep, find_frame, outran, remember, warm_from
from .grid import build_grid, build_grid_without
from .integrate import integrate
from .outlines import collide_outlines, collide_self, off_static_corners
from .project import project_rounds
from .rigid import particles_on_static, with_static_edges
from .rows import copy_rows


@njit(cache=True)
def disc_substeps(first, count, begun, h, damp, gx, gy, force, n, pos, prev, w, pinned, pin,
                  m, ij, cf, soft, push_speed, bounce_speed, at, reach, track, path,
                  radius, friction,
                  restitution, mask, vmin, push, hold, slop, segs, since, seg_surf,
                  seg_layer, poly_off, poly_xy, poly_idx, poly_surf, poly_layer, bounds,
                  use_bounds, rounds, ends, vals, order, lam, chains, chain_off, chain_rows,
                  chain_ends, scratch, ta_body, ta_part, tb_body, tb_part, tla, tlb,
                  trest, tcompliance, tlam, bpos, bangle, bw, biw, grabbed, from_x, from_y,
                  to_x, to_y, pull, sb, statics, alpha):
    """Substeps ``first..count − 1`` of the frame (``count`` a frame) for ``n`` particles:
    integrate under gravity ``(gx, gy)`` and ``force`` (``begun``: substep ``first`` was
    integrated and projected already, its contacts found), the ``m`` disc contacts (``ij``,
    ``cf``, ``soft``, at most ``push_speed`` px/s out, restitution after the last
    substep above ``bounce_speed``), then the bodies (``sb``: a ``frame_args.BodiesArgs``:
    soft bodies' outlines and static bodies, each of no rows where there are none; or None
    in a world of discs and springs alone; ``statics``: the same where there are static
    bodies, else None — a world of soft bodies alone compiles without their kernels, a
    sixth of jelly's first frame) and the level
    (``vmin``, ``push``, ``hold``: px a substep; ``segs``: the level's segments and the
    static bodies' edges, ``Collide``'s; ``since``: room for where each particle was,
    when there are ``segs``).
    Between the two, when ``rounds`` (Project's iterations; 0: no Project, or nothing for
    it), the springs packed at the first substep (``ends``, ``vals``, ``order`` into
    ``lam``), their ``chains``, the areas and the shapes (``sb``; ``alpha``: a shape's
    stiffness an application, as Project works it out) (``kernels.chains``; the tether and
    body columns empty,
    ``ta_body`` to ``tlam`` flat: a tuple of them cost the call ~1 µs to type). The
    ``grabbed`` row (or −1) is pulled ``pull`` of the way to the pointer each substep, the
    pointer's move from ``from`` to ``to`` (px) spread over the frame as Integrate spreads it.

    Returns the substep it stopped in, its integration and springs done, when a particle
    outran its ``reach`` from ``at`` or strayed from its path (``track``, ``path``: its
    contacts are found again in Python, as ``Discs.stale`` says after Project), or
    ``count`` when the frame is done.
    """
    tethers = (ta_body, ta_part, tb_body, tb_part, tla, tlb, trest, tcompliance, tlam)
    for k in range(first, count):
        if k > first or not begun:
            _integrate(k, count, n, pos, prev, force, w, pinned, pin, gx, gy, damp, h, grabbed,
                       from_x, from_y, to_x, to_y, pull)
            if rounds:
                _project(rounds, ends, vals, order, lam, chains, chain_off, chain_rows,
                         chain_ends, scratch, tethers, bpos, bangle, bw, biw, pos, w, h, sb,
                         alpha)
            # where Collide asks (``Discs.stale``)
            if m and outran(n, pos, at, reach, track, path[k, 0], path[k, 1]):
                return k
        if len(segs):
            copy_rows(prev, since, n)  # where each was before this substep's contacts
        disc_substep(m, ij, cf, pos, prev, h, soft, push_speed, k == count - 1,
                     bounce_speed)
        if sb is not None:  # (None: compiled without the bodies' kernels, a game of discs'
            _meet_bodies(sb, statics, n, pos, prev, w, radius, mask, friction,  # first
                         restitution, vmin, push, hold)  # frame needs none of them)
        collide_level(n, pos, prev, w, radius, friction, restitution, vmin, push, hold,
                      True, slop, mask, segs, since, seg_surf, seg_layer, poly_off, poly_xy,
                      poly_idx, poly_surf, poly_layer, bounds, use_bounds)
    return count


@njit(cache=True)
def _static_masses(sb):
    """The static bodies' inverse masses as ``particles_on_static`` takes them
    (``contacts.static_inverse_masses``: a frozen body is not static, nothing that moves
    this frame reaches it; such a world has no kinematic body)."""
    if not sb.any_frozen:
        return sb.w
    return np.where(sb.frozen[: len(sb.w)], 1.0, sb.w)


#: Static bodies × particles up to which ``_meet_bodies`` tests every pair (one cell), not
#: the pairs of a grid made each substep: the same pairs meet (the grid's cells reach past
#: any overlap; a frozen particle, in no cell, has no inverse mass: the test skips it).
ONE_CELL = 64


@njit(cache=True)
def _meet_bodies(sb, statics, n, pos, prev, w, radius, mask, friction, restitution, vmin,
                 push, hold):
    """Collide's substep of the bodies, after the disc contacts', in its order: the
    particles off the soft bodies' outlines and the self-colliding ones' own, then out of
    the static bodies (``statics``: ``sb`` if there are any, else None: compiled without
    them), and the outlines off their corners; over the grid Collide makes
    there (``broadphase.solver_particles``: frozen rows left out), or one cell of every
    particle when few pairs of static bodies and particles alone meet (``ONE_CELL``)."""
    static_n = 0
    if statics is not None:
        static_n = statics.n
    if static_n or sb.outline_n:
        if static_n * n <= ONE_CELL and not sb.outline_n:  # (outlines read the grid's order)
            grid = _one_cell(n)
        elif sb.any_frozen:
            grid = build_grid_without(n, pos, radius, sb.slop, sb.pfrozen)
        else:
            grid = build_grid(n, pos, radius, sb.slop)
        x0, y0, cell, gnx, gny, start, items = grid
        if sb.outline_n:
            collide_outlines(sb.outline_n, sb.outline_off, sb.outline_idx, pos, prev, w,
                             radius, sb.pgroup, sb.player, mask, friction, restitution, x0, y0,
                             cell, gnx, gny, start, items, vmin, push, hold)
        if _any_self(sb):
            _self(sb, pos, prev, w, radius, friction, restitution, vmin, push, hold)
        if statics is not None:
            _on_statics(statics, n, pos, prev, w, radius, mask, friction, restitution, vmin,
                        push, hold, x0, y0, cell, gnx, gny, start, items)
    elif _any_self(sb):
        _self(sb, pos, prev, w, radius, friction, restitution, vmin, push, hold)


@njit(cache=True)
def _on_statics(sb, n, pos, prev, w, radius, mask, friction, restitution, vmin, push, hold,
                x0, y0, cell, gnx, gny, start, items):
    """``_meet_bodies``' particles out of the static bodies of ``sb``, and the outlines off
    their corners, over the grid given."""
    if not sb.n:
        return
    static_w = _static_masses(sb)
    particles_on_static(sb.n, sb.pos, sb.angle, static_w, sb.extent, sb.group,
                        sb.layer, sb.mask, sb.friction, sb.restitution, sb.piece_off,
                        sb.vert_off, sb.verts, sb.radius, pos, prev, w, radius,
                        sb.pgroup, sb.player, mask, friction, restitution, x0, y0,
                        cell, gnx, gny, start, items, vmin, push, hold)
    if sb.corner_n:  # (every outline: Collide's, whether it meets outlines or not)
        off_static_corners(sb.n, sb.pos, sb.angle, static_w, sb.friction,
                           sb.restitution, sb.piece_off, sb.vert_off, sb.verts,
                           sb.radius, sb.group, sb.layer, sb.mask, sb.corner_n,
                           sb.outline_off, sb.outline_idx, pos, prev, w, radius,
                           sb.pgroup, sb.player, mask, friction, restitution, vmin,
                           push, hold)


@njit(cache=True)
def _self(sb, pos, prev, w, radius, friction, restitution, vmin, push, hold):
    """The self-colliding areas' particles off their own outline (``collide_self``)."""
    collide_self(sb.area_n, sb.area_off, sb.area_idx, sb.self_collide, pos, prev, w, radius,
                 friction, restitution, vmin, push, hold)


@njit(cache=True)
def _any_self(sb):
    """Whether an area collides with itself (Collide asks it each substep: the flags do
    not change within a frame)."""
    for r in range(sb.area_n):
        if sb.self_collide[r]:
            return True
    return False


@njit(cache=True)
def _one_cell(n):
    """A grid (``grid.build_grid``'s form) of one cell wider than any world holding all
    ``n`` particles in row order (``broadphase.one_cell``'s, with a finite width: the cell
    range around a body is arithmetic on it)."""
    return 0.0, 0.0, 1e300, 1, 1, np.array([0, n], dtype=np.int64), np.arange(n)


@njit(cache=True)
def _rest(sb):
    """Integrate's rest of the static bodies (``rigid.integrate_bodies``): where they are
    is where they were."""
    for i in range(sb.n):
        sb.prev[i, 0], sb.prev[i, 1], sb.prev_angle[i] = sb.pos[i, 0], sb.pos[i, 1], sb.angle[i]


#: Keys up to which ``_sorting_order`` sorts by insertion (a frame's few dozen contacts,
#: found mostly in key order already), not by ``np.argsort``'s quicksort.
FEW_KEYS = 64


@njit(cache=True)
def _sorting_order(keys):
    """The order that sorts ``keys`` (unique: any sort gives this one, ``np.argsort``'s too):
    by insertion for up to ``FEW_KEYS`` of them (0.34 against 0.50 µs for 46 keys in a
    random order, less in the near order they are found in)."""
    m = len(keys)
    if m > FEW_KEYS:
        return np.argsort(keys)
    order = np.empty(m, dtype=np.int64)
    for r in range(m):
        key = keys[r]
        j = r
        while j > 0 and keys[order[j - 1]] > key:
            order[j] = order[j - 1]
            j -= 1
        order[j] = r
    return order


@njit(cache=True)
def _integrate(k, count, n, pos, prev, force, w, pinned, pin, gx, gy, damp, h, grabbed, from_x,
               from_y, to_x, to_y, pull):
    """Integrate's substep ``k`` of ``count`` (``systems.integrate.Integrate.solve``): the
    pointer's target is ``(k + 1) / count`` of its way from ``from`` to ``to`` (px)."""
    t = (k + 1) / count
    integrate(n, pos, prev, force, w, pinned, pin, gx, gy, damp, h, grabbed,
              from_x + (to_x - from_x) * t, from_y + (to_y - from_y) * t, pull)


@njit(cache=True)
def _project(rounds, ends, vals, order, lam, chains, off, rows, cends, scratch, tethers,
             bpos, bangle, bw, biw, pos, w, h, sb, alpha):
    """One substep of Project after the frame's first (``systems.project.Project.solve``
    without tethers): the packed multipliers from 0, then ``project.project_rounds`` with
    the areas and shapes of ``sb`` (``alpha``: the shapes' stiffness an application), or
    none (``sb`` None)."""
    vals[:, 2] = 0.0
    no_rows, no_ints = np.zeros(0), np.zeros(1, dtype=np.int64)  # of nothing: never read
    no_flags, no_pairs = np.zeros(0, dtype=np.bool_), np.zeros((0, 2))
    if sb is None:
        project_rounds(rounds, h, pos, w, w, ends, vals, order, lam, chains, off, rows, cends,
                       scratch, *tethers, 0, no_flags, no_flags, bpos, bangle, bw, biw, 0,
                       no_ints, no_ints, no_rows, no_rows, no_rows, no_pairs, 0, no_ints,
                       no_ints, no_pairs, no_rows, no_rows)
    else:
        project_rounds(rounds, h, pos, w, sb.mass, ends, vals, order, lam, chains, off, rows,
                       cends, scratch, *tethers, 0, no_flags, no_flags, bpos, bangle, bw, biw,
                       sb.area_n, sb.area_off, sb.area_idx, sb.rest_area, sb.pressure,
                       sb.stiffness, sb.grad, sb.shape_n, sb.shape_off, sb.shape_idx,
                       sb.shape_rest, alpha, sb.scale)


@njit(cache=True)
def disc_frame_held(a, s, sb, statics, alpha, any_frozen, ents, old_keys, old, ij, cf, at,
                    reach, track, path, since, grabbed, from_x, from_y, to_x, to_y, pull,
                    out_keys, out_flipped, out_sorted, kept_keys, kept):
    """The whole frame of ``disc_substeps``' world, its first substep too, with what
    outlives the frame in ``a`` (``frame_args.DiscFrameArgs``), Project's springs, chains,
    tethers and bodies in ``s`` (``frame_args.SpringArgs``), the soft and static bodies in
    ``sb`` (``frame_args.BodiesArgs``: the static ones' edges join the level's segments,
    except for the look for the disc contacts, as in Collide; ``statics``: ``sb`` if there
    are static bodies, else None), the shapes' ``alpha``, and
    the frame's own arguments after them: what the stages do at the first substep —
    integrate, Project, then Collide's look for the frame's disc contacts (``find_frame``
    from where each particle is now, into ``at`` and ``reach``, the rows matched to last
    frame's ``old_keys``: ``Discs.find``) — then ``disc_substeps`` for the contacts of the
    first substep and the substeps after it.

    One function, not a call of a flat one with the fields as 95 arguments: each array is
    then counted (numba's reference count) once a frame, not twice.

    Returns ``(k, m, done)``: ``k`` as ``disc_substeps`` (0 when the contacts did not
    fit: ``m`` < 0, the first substep's Collide is left to the stages), the ``m`` contacts
    found, their keys written into ``out_keys``, ``out_flipped`` and ``out_sorted`` (the
    order that sorts them; the keys are unique, so any sort gives this one), and when the
    frame is done (``k == count``) the ``done`` (``m``; else 0) rows ``Discs.keep``
    remembers of them written into ``kept_keys`` and ``kept`` (``remember``). Each of
    those has room for every contact row (``len(ij)``): arrays made here and returned cost
    the call ~0.5 µs each to hand to Python."""
    count, h, damp, gx, gy, force, n = a.count, a.h, a.damp, a.gx, a.gy, a.force, a.n
    pos, prev, w, pinned, pin, group, layer = a.pos, a.prev, a.w, a.pinned, a.pin, a.group, a.layer
    frozen, extra, wall, shift, downx, downy = a.frozen, a.extra, a.wall, a.shift, a.downx, a.downy
    pairs, soft, push_speed, bounce_speed = a.pairs, a.soft, a.push_speed, a.bounce_speed
    radius, friction, restitution, mask = a.radius, a.friction, a.restitution, a.mask
    vmin, push, hold, slop, level_segs = a.vmin, a.push, a.hold, a.slop, a.segs
    seg_surf, seg_layer, poly_off, poly_xy = a.seg_surf, a.seg_layer, a.poly_off, a.poly_xy
    poly_idx, poly_surf, poly_layer = a.poly_idx, a.poly_surf, a.poly_layer
    bounds, use_bounds = a.walls, a.use_bounds
    rounds, ends, vals, order, lam, chains = s.rounds, s.ends, s.vals, s.order, s.lam, s.chains
    chain_off, chain_rows, chain_ends, scratch = s.chain_off, s.chain_rows, s.chain_ends, s.scratch
    ta_body, ta_part, tb_body, tb_part = s.ta_body, s.ta_part, s.tb_body, s.tb_part
    tla, tlb, trest, tcompliance, tlam = s.tla, s.tlb, s.trest, s.tcompliance, s.tlam
    bpos, bangle, bw, biw = s.bpos, s.bangle, s.bw, s.biw
    tethers = (ta_body, ta_part, tb_body, tb_part, tla, tlb, trest, tcompliance, tlam)
    if statics is None:
        segs = level_segs
    else:
        _rest(statics)  # and the static bodies' edges with the level's (``contacts``' look)
        segs = with_static_edges(level_segs, statics.n, statics.pos, statics.angle,
                                 _static_masses(statics), statics.piece_off,
                                 statics.vert_off, statics.verts)
    _integrate(0, count, n, pos, prev, force, w, pinned, pin, gx, gy, damp, h, grabbed, from_x,
               from_y, to_x, to_y, pull)
    if rounds:
        _project(rounds, ends, vals, order, lam, chains, chain_off, chain_rows, chain_ends,
                 scratch, tethers, bpos, bangle, bw, biw, pos, w, h, sb, alpha)
    copy_rows(pos, at, n)
    m, keys, flipped = find_frame(n, pos, prev, w, radius, group, layer, mask, friction,
                                  restitution, frozen, any_frozen, float(count), extra, bounds,
                                  use_bounds, level_segs, h, ij, cf, pairs, seg_surf, seg_layer,
                                  downx, downy, bounce_speed, ents, wall, shift, reach,
                                  pinned, force, gx, gy, damp, 0, grabbed, track, path)
    if m < 0:
        return 0, m, 0
    by_key = _sorting_order(keys)
    for k in range(m):  # (a loop: numba's array copy links its shape error's text)
        out_keys[k], out_flipped[k], out_sorted[k] = keys[k], flipped[k], by_key[k]
    if len(old_keys) and m:
        warm_from(m, keys, flipped, by_key, cf, old_keys, old)
    k = disc_substeps(0, count, True, h, damp, gx, gy, force, n, pos, prev, w, pinned, pin, m,
                      ij, cf, soft, push_speed, bounce_speed, at, reach, track, path,
                      radius, friction,
                      restitution, mask, vmin, push, hold, slop, segs, since, seg_surf,
                      seg_layer, poly_off, poly_xy, poly_idx, poly_surf, poly_layer, bounds,
                      use_bounds, rounds, ends, vals, order, lam, chains, chain_off,
                      chain_rows, chain_ends, scratch, *tethers, bpos, bangle, bw, biw,
                      grabbed, from_x, from_y, to_x, to_y, pull, sb, statics, alpha)
    done = m if k == count else 0  # the frame's impulses, for the next frame's warm start
    remember(done, keys, flipped, by_key, cf, kept_keys, kept)
    return k, m, done


