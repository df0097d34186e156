"""Asking the world what is where: rays, points and boxes (``World.raycast`` and friends).

Particles are found by their disc, rigid bodies by their shape (its convex
pieces), soft bodies (an AreaConstraint ring or a ShapeMatch outline) by their
outline polygon — as the entity of their constraint — and level geometry by
its segments and the world's bounds (``entity`` ``None``).
Particles and rigid bodies go through broad-phase grids (``kernels.grid``),
built by the first query of a frame and kept while nothing has moved (a
sensor, a ray batch or a game's many queries in a frame share them); outlines
and level segments are few and are tested one by one.

``mask`` selects by collision layer: a particle is found when its ``layer``
shares a bit with ``mask``, a soft body when its first outline particle's
does; level geometry is always hit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from . import limits
from .errors import WorldError
from .geometry import point_in_polygon, segments_intersect
from .kernels.queries import (
    bodies_along,
    bodies_in_box,
    box_particles,
    first_hit,
    ray_bodies,
    ray_particles,
    ray_rings,
    ray_segments,
)

if TYPE_CHECKING:
    from .world import World

#: Every layer bit: the default ``mask``.
ALL = -1


@dataclass(frozen=True)
class Hit:
    """Where a ray met something: ``entity`` (``None``: level geometry), the point (px),
    the surface normal facing the ray's start, and ``fraction`` of the way from p to q."""

    entity: int | None
    x: float
    y: float
    nx: float
    ny: float
    fraction: float


def _hit(entity: int | None, x: float, y: float, nx: float, ny: float, fraction: float) -> Hit:
    """``Hit(entity, x, y, nx, ny, fraction)``, made without the frozen dataclass's
    ``__init__`` (an ``object.__setattr__`` a field: ~0.8 µs of a ~8 µs ray); the same
    object, as frozen and as equal."""
    hit = object.__new__(Hit)
    hit.__dict__.update(entity=entity, x=x, y=y, nx=nx, ny=ny, fraction=fraction)
    return hit


def _point(p: tuple[float, float], what: str) -> tuple[float, float]:
    """``p`` as two finite floats, else WorldError naming the query."""
    if type(p) is tuple and len(p) == 2:  # the common case, checked fast
        x, y = p
        if isinstance(x, float) and isinstance(y, float) and math.isfinite(x + y) and \
                math.isfinite(x - y):  # both finite (an inf or a NaN makes one of them not)
            return float(x), float(y)
    try:
        if isinstance(p, str | bytes):  # "ab" would be two letters
            raise TypeError
        x, y = (float(v) for v in p)
    except (TypeError, ValueError):  # (1,), None, ("a", 1), three numbers
        x = y = math.nan
    if not (math.isfinite(x) and math.isfinite(y)):
        shown = repr(p) if len(repr(p)) <= 40 else repr(p)[:37] + "..."
        raise WorldError(f"{what}: the point must be two finite numbers, got {shown}")
    return x, y


def _grid(world: World) -> tuple:
    """The particles' grid as they are now (``World.broadphase``)."""
    return world.broadphase.particles(world)


def _body_grid(world: World) -> tuple:
    """The rigid bodies' grid as they are now (``World.broadphase``)."""
    return world.broadphase.bodies(world)


def _layer_ok(world: World, mask: int) -> np.ndarray:
    """Per particle row (the whole column): whether ``mask`` sees its layer."""
    p = world.store.particles
    if int(mask) == ALL:  # every layer: a kept column of True
        kept = world.__dict__.get("_query_all")
        if kept is None or len(kept) != len(p.cols["layer"]):
            kept = world._query_all = np.ones(len(p.cols["layer"]), dtype=np.bool_)
        return kept
    return (p.cols["layer"] & int(mask)) != 0


def outline_owners(st: Any) -> list[int]:
    """Each outline's constraint entity, in ``Store.outline_off``'s order: the areas', then
    the shapes' that have an outline (the store whole: ``Store.prepare``)."""
    owners = [c._entity for c in st.areas.owner[: st.areas.n]]
    return owners + [c._entity for c in st.shapes.owner[: st.shapes.n] if c._vals["outline"]]


def _outlines(world: World, mask: int = ALL) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The outline CSR (particle rows) and each outline's constraint entity (or ``-1`` for
    one whose layer ``mask`` does not see)."""
    st = world.store
    st.prepare()
    owners = outline_owners(st)
    layer = world.store.particles.layer
    off, idx = st.outline_off, st.outline_idx
    owners = [o if layer[idx[off[k]]] & int(mask) else -1 for k, o in enumerate(owners)]
    return off, idx, owners


def raycast_all(world: World, p: tuple[float, float], q: tuple[float, float],
                mask: int = ALL, ignore: Any = None, group: int = 0) -> list[Hit]:
    """Every hit of the segment ``p → q`` (px), nearest first (each thing once); what
    ``ignore`` and ``group`` name is passed over (``skipping``)."""
    (px, py), (qx, qy) = _point(p, "raycast_all"), _point(q, "raycast_all")
    dx, dy = qx - px, qy - py
    return _hits(world, px, py, dx, dy, _mask(mask, "raycast_all"), False,
                 skipping(ignore, group, "raycast_all"))


def raycast(world: World, p: tuple[float, float], q: tuple[float, float],
            mask: int = ALL, ignore: Any = None, group: int = 0) -> Hit | None:
    """The first hit of the segment ``p → q`` (px), or ``None``; what ``ignore`` and
    ``group`` name is passed over (a ray from inside the player's own ball)."""
    (px, py), (qx, qy) = _point(p, "raycast"), _point(q, "raycast")
    mask, skip = _mask(mask, "raycast"), skipping(ignore, group)
    st = world.store
    st.prepare()
    if st.particles.n and not st.bodies.n and len(st.outline_off) < 2:
        return _first_of_discs_and_level(world, px, py, qx - px, qy - py, mask, skip)
    hits = _hits(world, px, py, qx - px, qy - py, mask, True, skip)
    return hits[0] if hits else None


def _first_of_discs_and_level(world: World, px: float, py: float, dx: float, dy: float,
                              mask: int, skip: tuple[frozenset[int], int]) -> Hit | None:
    """``raycast`` in a world of particles and the level alone: the nearest of both in
    one kernel call (``first_hit``), the same Hit as ``_hits`` makes."""
    p = world.store.particles
    c = p.cols
    ok, grid, segs = _disc_look(world, mask, skip)
    kind, index, t = first_hit(px, py, dx, dy, c["pos"], c["radius"], ok, *grid, c["entity"],
                               segs, world.level.seg_layer, mask)
    if kind == 2:
        return _edge_hit(None, px, py, dx, dy, t, segs[index, :2], segs[index, 2:])
    if kind == 1:
        return _disc_hit(c, index, px, py, dx, dy, t)
    return None


def _disc_look(world: World, mask: int,
               skip: tuple[frozenset[int], int]) -> tuple[np.ndarray, tuple, np.ndarray]:
    """What ``first_hit`` reads beside the particles' columns: the rows it may hit, their
    grid and the level's segments with the bounds' walls. A ray that sees every layer and
    passes over nothing — most rays — takes them as kept while the particles' poses and
    rows, the slop, the level's segments and the bounds are as they were (three looks of
    ~0.35 µs each, ~1 µs of a ray); any other asks them again."""
    st, p = world.store, world.store.particles
    if mask != ALL or skip is not NO_SKIP:
        c = p.cols
        ok = _allowed(_layer_ok(world, mask), c["entity"], c["group"], p.n, skip)
        return ok, _grid(world), _level_segments(world)
    segs = world.level.segments
    key = (st.poses, p.version, p.n, world.contact_slop, id(segs), world.bounds)
    kept = world.__dict__.get("_disc_look")
    if kept is None or kept[0] != key:
        look = (_layer_ok(world, mask), _grid(world), _level_segments(world))
        kept = world._disc_look = (key, segs, look)  # (the segments kept: their id is theirs)
    return kept[2]


def skipping(ignore: Any = None, group: int = 0,
             what: str = "raycast") -> tuple[frozenset[int], int]:
    """What a query passes over: the entities ``ignore`` names — one entity, several, or
    a ``bodies.Body`` (its particles and constraint) — and, ``group`` not 0, every
    particle and body of that collision group and the outlines of its soft bodies."""
    if ignore is None and type(group) is int and group == 0:  # the common case, fast
        return NO_SKIP
    if ignore is None:
        out: frozenset[int] = frozenset()
    elif hasattr(ignore, "particles"):  # a Body
        extra = [] if ignore.constraint is None else [ignore.constraint]
        parts = [*ignore.particles, *extra]
        out = frozenset(int(e) for e in parts)
    elif isinstance(ignore, (int, np.integer)):
        out = frozenset([int(ignore)])
    else:
        try:
            out = frozenset(int(e) for e in ignore)
        except (TypeError, ValueError):
            raise WorldError(f"{what}: ignore must be an entity, entities or a Body, got "
                             f"{ignore!r}") from None
    return out, limits.INT.check(group, what, "group")


def _mask(mask: Any, what: str) -> int:
    """A query's ``mask`` as an int (layer bits; -1 every layer), or WorldError naming it."""
    if type(mask) is int and -limits.MAX_INT <= mask <= limits.MAX_INT:
        return mask  # the common case, checked fast
    return limits.INT.check(mask, what, "mask")


#: A query that passes over nothing (``skipping()``).
NO_SKIP: tuple[frozenset[int], int] = (frozenset(), 0)


def _allowed(ok: np.ndarray, entity: np.ndarray, groups: np.ndarray, n: int,
             skip: tuple[frozenset[int], int]) -> np.ndarray:
    """``ok`` (per row) less the rows ``skip`` passes over."""
    ignored, group = skip
    if not ignored and not group:
        return ok
    ok = ok.copy()
    if ignored:
        ok[:n] &= ~np.isin(entity[:n], np.fromiter(ignored, dtype=np.int64))
    if group:
        ok[:n] &= groups[:n] != group
    return ok


def passes(skip: tuple[frozenset[int], int], entity: np.ndarray, groups: np.ndarray,
           n: int) -> np.ndarray:
    """Per row ``0..n``: True where ``skip`` (from ``skipping``) does not pass over it."""
    return _allowed(np.ones(n, dtype=np.bool_), entity, groups, n, skip)


def _hits(world: World, px: float, py: float, dx: float, dy: float, mask: int,
          first: bool, skip: tuple[frozenset[int], int] = (frozenset(), 0)) -> list[Hit]:
    """The hits in order (``first``: only the nearest of each kind is made into a Hit,
    then the nearest of those: a ray through a pile meets dozens of discs)."""
    hits = _particle_hits(world, px, py, dx, dy, mask, first, skip)
    hits += _body_hits(world, px, py, dx, dy, mask, skip)
    hits += _outline_hits(world, px, py, dx, dy, mask, skip)
    hits += _level_hits(world, px, py, dx, dy, mask, first)
    hits.sort(key=lambda h: (h.fraction, -1 if h.entity is None else h.entity))
    return hits[:1] if first else hits


def _particle_hits(world: World, px: float, py: float, dx: float, dy: float,
                   mask: int, first: bool = False,
                   skip: tuple[frozenset[int], int] = (frozenset(), 0)) -> list[Hit]:
    p = world.store.particles
    n = p.n
    if n == 0:
        return []
    pos, radius = p.cols["pos"], p.cols["radius"]
    rows, ts = np.empty(1 if first else n, dtype=np.int64), np.empty(1 if first else n)
    entity = p.cols["entity"]
    # first: the nearest only (ties: the lowest entity, as the sort would)
    ok = _allowed(_layer_ok(world, mask), entity, p.cols["group"], n, skip)
    count = ray_particles(px, py, dx, dy, pos, radius, ok, *_grid(world),
                          rows, ts, first, entity)
    rows, ts = rows[:count], ts[:count]
    return [_disc_hit(p.cols, row, px, py, dx, dy, t)
            for row, t in zip(rows.tolist(), ts.tolist(), strict=True)]


def _disc_hit(c: dict[str, np.ndarray], row: int, px: float, py: float, dx: float,
              dy: float, t: float) -> Hit:
    """The hit on particle ``row`` (of the columns ``c``) at fraction ``t``."""
    # Python floats, not numpy's scalars (the same doubles, the same arithmetic: each
    # numpy scalar operation costs ~0.1 µs)
    cx, cy = c["pos"][row].tolist()
    r = c["radius"].item(row)
    x, y = px + t * dx, py + t * dy
    nx, ny = (x - cx) / r, (y - cy) / r
    if t == 0.0:  # started inside: the normal faces back along the ray
        nx, ny = _unit(-dx, -dy)
    return _hit(c["entity"].item(row), x, y, nx, ny, t)


def _body_hits(world: World, px: float, py: float, dx: float, dy: float,
               mask: int, skip: tuple[frozenset[int], int] = (frozenset(), 0)) -> list[Hit]:
    st = world.store
    b = st.bodies
    if b.n == 0:
        return []
    st.prepare()
    rows = np.zeros(b.n, dtype=np.int64)
    m = bodies_along(px, py, dx, dy, b.n, *_body_grid(world), rows)
    hit, ts, normals = np.zeros(m, dtype=np.int64), np.zeros(m), np.zeros((m, 2))
    count = ray_bodies(px, py, dx, dy, rows, m, b.cols["pos"], b.cols["angle"],
                       b.cols["extent"],
                       _allowed((b.layer & int(mask)) != 0, b.entity, b.group, b.n, skip),
                       st.body_piece_off,
                       st.piece_vert_off, st.piece_verts, st.piece_radius, hit, ts, normals)
    return [Hit(int(b.entity[r]), px + t * dx, py + t * dy, float(nx), float(ny), t)
            for r, t, (nx, ny) in zip(hit[:count].tolist(), ts[:count].tolist(),
                                      normals[:count].tolist(), strict=True)]


def _outline_hits(world: World, px: float, py: float, dx: float, dy: float,
                  mask: int, skip: tuple[frozenset[int], int] = (frozenset(), 0)) -> list[Hit]:
    world.store.prepare()  # the outlines as they are now
    if len(world.store.outline_off) < 2:
        return []  # no soft body: no outline to look along
    off, idx, owners = _outlines(world, mask)
    ignored, group = skip
    if ignored or group:
        p = world.store.particles
        owners = [-1 if o in ignored or (group and len(idx) and p.group[idx[off[k]]] == group)
                  else o for k, o in enumerate(owners)]
    k = len(owners)
    if k == 0:
        return []
    rings, ts, edges = np.zeros(k, dtype=np.int64), np.zeros(k), np.zeros(k, dtype=np.int64)
    pos = world.store.particles.cols["pos"]
    count = ray_rings(px, py, dx, dy, pos, off, idx, rings, ts, edges)
    out = []
    for ring, t, edge in zip(rings[:count].tolist(), ts[:count].tolist(),
                             edges[:count].tolist(), strict=True):
        if owners[ring] < 0:
            continue
        s, e = off[ring], off[ring + 1]
        a, b = pos[idx[s + edge]], pos[idx[s + (edge + 1) % (e - s)]]
        out.append(_edge_hit(owners[ring], px, py, dx, dy, t, a, b))
    return out


def _level_segments(world: World) -> np.ndarray:
    """The level's segments and the bounds' four walls (kept while both are the same)."""
    segs, bounds = world.level.segments, world.bounds
    kept = world.__dict__.get("_query_level")
    if kept is not None and kept[0] is segs and kept[1] == bounds:
        return kept[2]
    out = segs
    if bounds is not None:  # the walls and floor are level geometry too
        left, bottom, right, top = bounds
        walls = [(left, bottom, right, bottom), (right, bottom, right, top),
                 (right, top, left, top), (left, top, left, bottom)]
        out = np.vstack([segs, np.array(walls, dtype=np.float64)])
    world._query_level = (segs, bounds, out)
    return out


def _level_hits(world: World, px: float, py: float, dx: float, dy: float,
                mask: int = ALL, first: bool = False) -> list[Hit]:
    """The level's hits: the segments whose layer ``mask`` holds, and the bounds
    (``first``: the nearest only; of two as near, the one listed first, as the sort of
    them all would keep)."""
    segs = _level_segments(world)
    if not len(segs):
        return []
    ids, ts = np.zeros(len(segs), dtype=np.int64), np.zeros(len(segs))
    count = ray_segments(px, py, dx, dy, segs, ids, ts)
    layers = world.level.seg_layer
    found = [(k, t) for k, t in zip(ids[:count].tolist(), ts[:count].tolist(), strict=True)
             if k >= len(layers) or mask & int(layers[k])]
    if first and len(found) > 1:
        found = [min(found, key=lambda kt: kt[1])]
    return [_edge_hit(None, px, py, dx, dy, t, segs[k, :2], segs[k, 2:]) for k, t in found]


def _edge_hit(entity: int | None, px: float, py: float, dx: float, dy: float, t: float,
              a: np.ndarray, b: np.ndarray) -> Hit:
    """A hit on edge ``ab`` at fraction ``t``; the normal faces the ray's start."""
    (ax, ay), (bx, by) = a.tolist(), b.tolist()  # (Python floats: ``_disc_hit``)
    nx, ny = _unit(-(by - ay), bx - ax)
    if nx * dx + ny * dy > 0:
        nx, ny = -nx, -ny
    return _hit(entity, px + t * dx, py + t * dy, nx, ny, t)


def _unit(x: float, y: float) -> tuple[float, float]:
    n = math.hypot(x, y)
    return (x / n, y / n) if n > 0 else (0.0, 0.0)


def query_box(world: World, x0: float, y0: float, x1: float, y1: float,
              mask: int = ALL, ignore: Any = None, group: int = 0) -> list[int]:
    """Entities overlapping the box (px, corners in any order), ascending.

    Particles whose disc overlaps it; rigid bodies whose shape does; soft bodies
    whose outline overlaps it (as their constraint's entity). What ``ignore`` and
    ``group`` name is passed over, as by ``raycast``.
    """
    (x0, y0), (x1, y1) = _point((x0, y0), "query_box"), _point((x1, y1), "query_box")
    mask = _mask(mask, "query_box")
    skip = skipping(ignore, group, "query_box")
    box = min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
    found = set(world.store.particles.entity[box_rows(world, box, mask, skip)].tolist())
    found.update(owner for owner, _ in box_outlines(world, box, mask, skip))
    found.update(entity for entity, _ in box_bodies(world, box, mask, skip)
                 if _shape_meets_box(world, entity, box))
    return sorted(found)


def box_bodies(world: World, box: tuple[float, float, float, float], mask: int = ALL,
               skip: tuple[frozenset[int], int] = NO_SKIP,
               ) -> list[tuple[int, list[tuple[np.ndarray, float]]]]:
    """Rigid bodies whose bounding circle reaches ``box``: ``(entity, pieces)`` with each
    piece's world vertices (px) and radius — the candidates an exact test looks at
    (those ``skip`` passes over left out)."""
    b = world.store.bodies
    if b.n == 0:
        return []
    x0, y0, x1, y1 = box
    rows = np.zeros(b.n, dtype=np.int64)
    rows = rows[: bodies_in_box(x0, y0, x1, y1, b.n, *_body_grid(world), rows)]
    pos, ext, layer = b.pos[rows], b.extent[rows], b.layer[rows]
    near = ((pos[:, 0] + ext >= x0) & (pos[:, 0] - ext <= x1) & (pos[:, 1] + ext >= y0)
            & (pos[:, 1] - ext <= y1) & ((layer & int(mask)) != 0))
    near = _allowed(near, b.entity[rows], b.group[rows], len(rows), skip)
    return [(int(b.entity[row]), _pieces(world.store, row)) for row in rows[near].tolist()]


def _pieces(st: Any, row: int) -> list[tuple[np.ndarray, float]]:
    """Body row ``row``'s pieces now: world vertices (px; a circle: its centre), radius."""
    b = st.bodies
    c, s = math.cos(b.angle[row]), math.sin(b.angle[row])
    turn = np.array([[c, s], [-s, c]])
    out = []
    for q in range(st.body_piece_off[row], st.body_piece_off[row + 1]):
        verts = st.piece_verts[st.piece_vert_off[q]: st.piece_vert_off[q + 1]]
        out.append((verts @ turn + b.pos[row], float(st.piece_radius[q])))
    return out


def _shape_meets_box(world: World, entity: int, box: tuple[float, float, float, float]) -> bool:
    """Whether rigid body ``entity``'s shape overlaps ``box`` exactly."""
    x0, y0, x1, y1 = box
    for xy, r in _pieces(world.store, world.store.bslot[entity]):
        if len(xy) == 1:  # a circle: its centre's distance to the box
            cx, cy = xy[0]
            if math.hypot(cx - min(max(cx, x0), x1), cy - min(max(cy, y0), y1)) <= r:
                return True
        elif _polygon_meets_box(xy, x0, y0, x1, y1):
            return True
    return False


def box_rows(world: World, box: tuple[float, float, float, float], mask: int = ALL,
             skip: tuple[frozenset[int], int] = NO_SKIP) -> np.ndarray:
    """The particle rows whose disc overlaps ``box`` = ``(x0, y0, x1, y1)`` (px, ordered),
    but those ``skip`` passes over."""
    n = world.store.particles.n
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    rows = np.zeros(n, dtype=np.int64)
    c = world.store.particles.cols
    ok = _allowed(_layer_ok(world, mask), c["entity"], c["group"], n, skip)
    count = box_particles(*box, c["pos"], c["radius"], ok, *_grid(world), rows)
    return rows[:count]


def box_outlines(world: World, box: tuple[float, float, float, float], mask: int = ALL,
                 skip: tuple[frozenset[int], int] = NO_SKIP) -> list[tuple[int, np.ndarray]]:
    """The soft bodies whose outline overlaps ``box``: ``(constraint entity, member rows)``
    (those ``skip`` passes over — by entity, or their particles' group — left out)."""
    off, idx, owners = _outlines(world, mask)
    c = world.store.particles.cols
    pos = c["pos"]
    ignored, group = skip
    out = []
    for k, owner in enumerate(owners):
        members = idx[off[k]: off[k + 1]]
        if owner in ignored or (group and len(members) and c["group"][members[0]] == group):
            continue
        if owner >= 0 and _polygon_meets_box(pos[members], *box):
            out.append((owner, members))
    return out


def query_point(world: World, x: float, y: float, mask: int = ALL, ignore: Any = None,
                group: int = 0) -> list[int]:
    """Entities at the point ``(x, y)`` (px): particle discs, rigid bodies and soft bodies,
    ascending (``ignore``, ``group``: as ``query_box``)."""
    return query_box(world, x, y, x, y, _mask(mask, "query_point"), ignore, group)


def _polygon_meets_box(xy: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether polygon ``xy`` and the box overlap (a vertex in, a corner in, or edges cross)."""
    if xy[:, 0].max() < x0 or xy[:, 0].min() > x1 or xy[:, 1].max() < y0 or xy[:, 1].min() > y1:
        return False
    inside = (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
    if inside.any() or point_in_polygon((x0, y0), xy):
        return True
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        for k in range(len(xy)):
            if segments_intersect(a, b, xy[k], xy[(k + 1) % len(xy)]):
                return True
    return False
