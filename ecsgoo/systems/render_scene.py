"""What a frame shows: the Render stage's geometry, built with numpy from the packed arrays.

No GL and no camera here, so physics-only code can import it: ``build_scene``
turns a world into float32 rows in the layouts of ``ecsgoo.app.gl`` (arcade is
imported only to triangulate a polygon), and ``Layout`` caches what depends on
the structure alone, so that the per-frame work is numpy whatever the number of
entities.

What is drawn as what (decided from the structure, cached until it changes):

- a **body** (an AreaConstraint ring or a ShapeMatch outline) is a filled polygon
  with a darker outline, grown by its vertices' radius; its particles (same
  collision group) and the springs inside it are hidden;
- a **rope** (a non-zero collision group whose springs form simple chains, as
  ``bodies.rope`` builds) is a smooth curve: quadratic Bézier pieces from link
  midpoint to link midpoint with the nodes as control points; it breaks where a
  link is broken;
- any other **spring** is a link coloured by stretch: blue (compressed) → green
  (rest) → yellow → red (at its ``max_stretch``; 2 for unbreakable links); the
  most critical links (``critical_count``) get a pink halo;
- **particles** are shaded discs: fruits in their kind's colour and size,
  anchors in steel, others in their group's colour;
- ``Look(color, visible)`` on a particle, spring or body-constraint entity
  overrides the colour or hides it;
- ``wireframe`` shows every particle (as a ring) and every unbroken spring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .. import fruit as _fruit
from .analyze import StructureReport

Color = tuple[int, ...]

#: Outside the world's bounds (letterbox), and the sky gradient inside them (top, bottom).
OUTSIDE: Color = (16, 18, 28)
SKY_TOP: Color = (52, 60, 92)
SKY_BOTTOM: Color = (24, 27, 42)
LEVEL_FILL: Color = (92, 104, 140)
LEVEL_EDGE: Color = (168, 180, 220)
ROPE: Color = (214, 168, 110)
ANCHOR: Color = (176, 186, 204)
PARTICLE: Color = (255, 196, 92)
HALO: Color = (255, 84, 214, 190)
#: Stress colours: compressed, at rest, half way to breaking, breaking.
BLUE, GREEN, YELLOW, RED = (90, 150, 255), (96, 214, 120), (250, 210, 70), (240, 64, 64)
#: Body fill colours, picked by the constraint's entity id (stable across frames).
BODY_PALETTE: tuple[Color, ...] = (
    (255, 112, 140), (104, 196, 255), (148, 226, 116), (255, 186, 84), (186, 140, 255),
    (84, 218, 196), (255, 150, 210), (230, 232, 110),
)
#: Particles of a non-zero group that is neither a body nor a rope, by group.
GROUP_PALETTE: tuple[Color, ...] = (
    (255, 196, 92), (120, 220, 255), (255, 130, 150), (170, 240, 130), (210, 170, 255),
)

_BEZIER_SAMPLES = 6


def rgba(color: Any) -> tuple[float, float, float, float]:
    """``(r, g, b)`` or ``(r, g, b, a)`` in 0..255 as four floats in [0, 1]."""
    c = tuple(float(v) for v in color)
    if len(c) == 3:
        c += (255.0,)
    if len(c) != 4 or not all(0.0 <= v <= 255.0 for v in c):
        raise ValueError(f"colour must be (r, g, b) or (r, g, b, a) in 0..255, got {color!r}")
    return (c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255)


def _table(colors: Any) -> np.ndarray:
    """Colours as float32 RGBA rows (the per-frame builders index or broadcast them)."""
    return np.array([rgba(c) for c in colors], np.float32)


_FRUIT_RGBA = _table(_fruit.COLORS)
_GROUP_RGBA = _table(GROUP_PALETTE)
_HALO_RGBA, _ROPE_RGBA, _PARTICLE_RGBA, _ANCHOR_RGBA, _LEVEL_FILL_RGBA, _LEVEL_EDGE_RGBA = \
    _table((HALO, ROPE, PARTICLE, ANCHOR, LEVEL_FILL, LEVEL_EDGE))


def triangulate(points: Any) -> np.ndarray:
    """Triangles filling the polygon ``points`` (either winding, convex or not), as
    ``(3k, 2)`` float64 vertex rows in the points' units; a fan from the first point
    if the polygon intersects itself (better than nothing)."""
    from arcade.earclip import earclip  # pure Python, but arcade: not at import time

    pts = [(float(x), float(y)) for x, y in np.asarray(points, np.float64).reshape(-1, 2)]
    if len(pts) < 3:
        return np.zeros((0, 2))
    try:
        tris = earclip(pts)
    except Exception:  # earclip raises on self-intersecting polygons
        tris = [(pts[0], pts[i], pts[i + 1]) for i in range(1, len(pts) - 1)]
    return np.array(tris, np.float64).reshape(-1, 2)


@dataclass(eq=False)
class Look:
    """How Render draws the entity it is on: a particle, a spring or a body's constraint.

    ``color``: ``(r, g, b)`` or ``(r, g, b, a)`` in 0..255, or ``None`` for the
    default (fruit colour, stress colour, body palette...). On a spring it
    replaces the stress colour; on an AreaConstraint/ShapeMatch entity it is
    the body's fill. ``visible=False`` hides the entity (the wireframe still
    shows it). Changing a field takes effect on the next drawn frame. Saved
    with worlds as component ``look`` (``register_for_saving``).
    """

    color: tuple[int, ...] | None = None
    visible: bool = True
    #: Bumped on every change to any Look, so Render knows to rebuild its colour tables.
    revision: ClassVar[int] = 0

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "color" and value is not None:
            rgba(value)  # validate now, not at the first draw
            value = tuple(int(v) for v in value)
        object.__setattr__(self, name, bool(value) if name == "visible" else value)
        Look.revision += 1

    def as_dict(self) -> dict[str, Any]:
        """The fields and their values."""
        return {"color": self.color, "visible": self.visible}


@dataclass
class Scene:
    """One frame's geometry (float32 rows, layouts in ``ecsgoo.app.gl``)."""

    backdrop: np.ndarray
    triangles: np.ndarray
    capsules: np.ndarray
    discs: np.ndarray


def build_scene(world: Any, layout: Layout, px: float, wireframe: bool, critical_count: int,
                visible: tuple[float, float, float, float]) -> Scene:
    """This frame's geometry, built with numpy from the packed arrays (no GL needed).

    ``world.store`` must be prepared and ``layout`` describe it (``Layout.describes``);
    ``px`` is the size of one screen pixel in world px (hairline widths); ``wireframe``
    and ``critical_count`` as on ``Render``; ``visible`` is the world rectangle the
    window shows (world px), which the sky fills when the world has no bounds.
    """
    p, s = world.store.particles, world.store.springs
    pos = p.cols["pos"][: p.n]
    radius = p.cols["radius"][: p.n]
    a, b = s.cols["a"][: s.n], s.cols["b"][: s.n]
    alive = ~s.cols["broken"][: s.n]
    stretch = _stretch(pos, a, b, s.cols["rest"][: s.n])
    spring_rgba = np.where(layout.spring_has_look[:, None], layout.spring_look,
                           stress_colors(stretch, s.cols["max_stretch"][: s.n]))
    fills, edges = _bodies(pos, radius, world.store, layout, grow=not wireframe,
                           alpha=0.3 if wireframe else 1.0,
                           half_width=px if wireframe else max(1.4, 1.2 * px))
    link_hw = np.clip(0.38 * np.minimum(radius[a], radius[b]), 1.2, 4.5)
    tris = [layout.level_triangles, fills]
    caps = [layout.level_capsules, edges,
            _halos(world, layout, pos, a, b, alive, critical_count,
                   3.0 * px if wireframe else link_hw + 4.0)]
    if wireframe:
        caps.append(_segments(pos[a[alive]], pos[b[alive]], 0.6 * px, spring_rgba[alive]))
    else:
        show = alive & layout.spring_visible & (layout.spring_role == _LINK)
        caps.append(_segments(pos[a[show]], pos[b[show]], link_hw[show], spring_rgba[show]))
        caps.append(_rope_curves(pos, radius, alive, layout))
    discs = _discs(pos, radius, p, layout, wireframe, px)
    backdrop = _backdrop(visible, world.bounds)
    return Scene(backdrop, _stack(tris, 6), _stack(caps, 9), discs)


def _halos(world: Any, layout: Layout, pos: np.ndarray, a: np.ndarray, b: np.ndarray,
           alive: np.ndarray, count: int, half_width: Any) -> np.ndarray:
    """Pink halos under the most critical links (ropes and bodies are all bridges: skipped).

    ``count``: how many at most; ``half_width``: world px, one for all or one per spring row.
    """
    rows = _critical_rows(world, len(a)) if count > 0 else np.zeros(0, int)
    ok = alive[rows] & layout.spring_visible[rows] & (layout.spring_role[rows] == _LINK)
    rows = rows[ok][:count]
    hw = np.broadcast_to(half_width, len(a))[rows]
    return _segments(pos[a[rows]], pos[b[rows]], hw, _HALO_RGBA)


# -- layout: who is drawn as what, rebuilt when the structure changes -------------------

_LINK, _BODY, _ROPE = 0, 1, 2


class Layout:
    """Roles, fixed colours and rope chains of the current structure (Python work, cached).

    Valid while ``describes(world, looks)``: per-frame drawing only indexes its arrays.
    """

    def __init__(self, world: Any, looks: list) -> None:
        self.key = self._key(world)
        # held, not compared by address: a freed list's or array's address can come back
        self.looks, self.segments = looks, world.level.segments
        st = world.store
        p, s = st.particles, st.springs
        n, m = p.n, s.n
        group = p.cols["group"][:n]
        a, b = s.cols["a"][:m], s.cols["b"][:m]
        members = st.outline_idx
        self.outline_entities = [c._entity for c in st.rings.owner] + [
            c._entity for c in st.shapes.owner if c._vals["outline"]]
        body_groups = np.unique(group[members])
        body = np.isin(group, body_groups[body_groups != 0])
        body[members] = True
        self.spring_role = np.full(m, _LINK, np.int8)
        self.spring_role[body[a] & body[b] & (group[a] == group[b])] = _BODY
        self.particle_role = np.where(body, _BODY, _LINK).astype(np.int8)
        self._find_ropes(n, a, b, group)
        self._apply_looks(world, looks, p, s)
        self._body_colors()
        self.rope_color = np.where(self.spring_has_look[self.rope_row][:, None],
                                   self.spring_look[self.rope_row], _ROPE_RGBA)
        self._level(world.level)

    @staticmethod
    def _key(world: Any) -> tuple:
        st = world.store
        return (st.particles.version, st.springs.version, st.rings.version, st.shapes.version,
                Look.revision, id(world))

    def describes(self, world: Any, looks: list) -> bool:
        """Whether this is still ``world``'s layout: same structure, Looks and level.

        ``looks`` is esper's cached component list: a new list when components came or went.
        """
        return (self.key == self._key(world) and self.looks is looks
                and self.segments is world.level.segments)

    def _find_ropes(self, n: int, a: np.ndarray, b: np.ndarray, group: np.ndarray) -> None:
        """Chains of springs inside one non-zero group, no node with more than two."""
        cand = (self.spring_role == _LINK) & (group[a] == group[b]) & (group[a] != 0)
        rows = np.flatnonzero(cand)
        deg = np.bincount(np.concatenate([a[rows], b[rows]]), minlength=n)
        bad = np.unique(group[deg > 2])
        rows = rows[~np.isin(group[a[rows]], bad)]
        counts = np.bincount(group[a[rows]]) if rows.size else np.zeros(1, np.int64)
        rows = rows[counts[group[a[rows]]] >= 3]
        adj: dict[int, list[tuple[int, int]]] = {}
        for r in rows.tolist():
            adj.setdefault(int(a[r]), []).append((int(b[r]), r))
            adj.setdefault(int(b[r]), []).append((int(a[r]), r))
        extra = self._end_links(a, b, rows)
        chains = _walk_chains(adj, extra)
        ea, eb, er, ec = [], [], [], []
        for c, chain in enumerate(chains):
            for u, v, r in chain:
                ea.append(u), eb.append(v), er.append(r), ec.append(c)
        self.rope_a = np.array(ea, np.int64)
        self.rope_b = np.array(eb, np.int64)
        self.rope_row = np.array(er, np.int64)
        self.rope_chain = np.array(ec, np.int64)
        self.spring_role[self.rope_row] = _ROPE
        in_rope = [u for u in np.concatenate([self.rope_a, self.rope_b]).tolist() if u in adj]
        self.particle_role[np.array(in_rope, np.int64)] = _ROPE  # not a tied-on candy
        self.rope_end = np.zeros(n, bool)
        self.rope_end[[ch[0][0] for ch in chains] + [ch[-1][1] for ch in chains]] = True

    def _end_links(self, a: np.ndarray, b: np.ndarray, rows: np.ndarray) -> dict[int, tuple]:
        """A rope end tied by exactly one other link (a candy): that link continues the rope."""
        nodes = set(a[rows].tolist()) | set(b[rows].tolist())
        other = np.flatnonzero(self.spring_role == _LINK)
        other = other[~np.isin(other, rows)]
        found: dict[int, list[tuple[int, int]]] = {}
        for r in other.tolist():
            for u, v in ((int(a[r]), int(b[r])), (int(b[r]), int(a[r]))):
                if u in nodes and v not in nodes:
                    found.setdefault(u, []).append((v, r))
        return {u: links[0] for u, links in found.items() if len(links) == 1}

    def _apply_looks(self, world: Any, looks: list, p: Any, s: Any) -> None:
        n, m = p.n, s.n
        self.particle_look = np.zeros((n, 4), np.float32)
        self.particle_has_look = np.zeros(n, bool)
        self.particle_visible = np.ones(n, bool)
        self.spring_look = np.zeros((m, 4), np.float32)
        self.spring_has_look = np.zeros(m, bool)
        self.spring_visible = np.ones(m, bool)
        self.body_look: dict[int, Look] = {}
        spring_rows = _rows_of(s.cols["entity"][:m], [entity for entity, _ in looks])
        pslot = world.store.pslot
        for (entity, look), row in zip(looks, spring_rows.tolist(), strict=True):
            slot = pslot.get(entity)
            if slot is not None:
                self._set(slot, look, self.particle_look, self.particle_has_look,
                          self.particle_visible)
            elif row >= 0:
                self._set(row, look, self.spring_look, self.spring_has_look,
                          self.spring_visible)
            else:
                self.body_look[entity] = look

    @staticmethod
    def _set(i: int, look: Look, colors: np.ndarray, has: np.ndarray, vis: np.ndarray) -> None:
        if look.color is not None:
            colors[i] = rgba(look.color)
            has[i] = True
        vis[i] = look.visible

    def _body_colors(self) -> None:
        k = len(self.outline_entities)
        self.body_fill = np.zeros((k, 4), np.float32)
        self.body_visible = np.ones(k, bool)
        for i, entity in enumerate(self.outline_entities):
            look = self.body_look.get(entity)
            color = look.color if look is not None and look.color is not None else \
                BODY_PALETTE[entity % len(BODY_PALETTE)]
            self.body_fill[i] = rgba(color)
            self.body_visible[i] = look is None or look.visible
        self.body_edge = self.body_fill.copy()
        self.body_edge[:, :3] *= 0.55

    def _level(self, level: Any) -> None:
        segs = level.segments
        self.level_capsules = _segments(segs[:, 0:2], segs[:, 2:4], 2.0, _LEVEL_EDGE_RGBA)
        xy = np.concatenate([np.zeros((0, 2))] + [triangulate(poly) for poly in level.polygons])
        out = np.empty((len(xy), 6), np.float32)
        out[:, 0:2], out[:, 2:6] = xy, _LEVEL_FILL_RGBA
        self.level_triangles = out


def _walk_chains(adj: dict[int, list[tuple[int, int]]],
                 extra: dict[int, tuple[int, int]]) -> list[list[tuple[int, int, int]]]:
    """Ordered chains ``[(u, v, spring_row), ...]`` from end nodes (cycles are left out)."""
    seen: set[int] = set()
    chains = []
    for start in sorted(u for u, nb in adj.items() if len(nb) == 1):
        if start in seen:
            continue
        chain, prev, u = [], -1, start
        seen.add(u)
        while True:
            nxt = [(v, r) for v, r in adj[u] if v != prev]
            if not nxt:
                break
            v, r = nxt[0]
            chain.append((u, v, r))
            seen.add(v)
            prev, u = u, v
        if start in extra:
            v, r = extra[start]
            chain.insert(0, (v, start, r))
        if u in extra and u != start:
            v, r = extra[u]
            chain.append((u, v, r))
        chains.append(chain)
    return chains


# -- per-frame geometry (vectorised) ------------------------------------------------------

def _stretch(pos: np.ndarray, a: np.ndarray, b: np.ndarray, rest: np.ndarray) -> np.ndarray:
    length = np.hypot(*(pos[b] - pos[a]).T) if len(a) else np.zeros(0)
    return length / np.maximum(rest, 1e-9)


def stress_colors(stretch: np.ndarray, max_stretch: np.ndarray) -> np.ndarray:
    """RGBA floats per spring: blue (compressed) → green (rest) → yellow → red (max_stretch).

    Green from 0.95 × rest to rest, blue by half the rest length; unbreakable
    springs (``max_stretch`` inf) are coloured as if they broke at 2. The warm
    side follows the square root of the way to breaking, so the few per cent a
    loaded truss stretches already shows (5 % of the way is a quarter to yellow).
    """
    limit = np.where(np.isfinite(max_stretch), max_stretch, 2.0)
    warm = np.sqrt(np.clip((stretch - 1.0) / np.maximum(limit - 1.0, 1e-6), 0.0, 1.0))
    cold = np.clip((0.95 - stretch) / 0.45, 0.0, 1.0)
    # one table lookup per spring: -1 (blue) … 0 (green) … 1 (red), in 255 steps
    key = np.rint((np.where(cold > 0, -cold, warm) + 1.0) * 127.0).astype(np.intp)
    return _STRESS_TABLE[key]


def _stress_table() -> np.ndarray:
    green, yellow, red, blue = (np.array(rgba(x), np.float32) for x in (GREEN, YELLOW, RED, BLUE))
    k = np.linspace(-1.0, 1.0, 255)[:, None]
    t, c = np.clip(k, 0, 1), np.clip(-k, 0, 1)
    warm = np.where(t < 0.5, green + (yellow - green) * (2 * t),
                    yellow + (red - yellow) * (2 * t - 1))
    return np.where(k < 0, green + (blue - green) * c, warm).astype(np.float32)


_STRESS_TABLE = _stress_table()


def _critical_rows(world: Any, m: int) -> np.ndarray:
    """Spring rows of Analyze's critical links, most dangerous first (none without Analyze).

    The report's rows are those of the step that made it: if springs were removed
    since (a cut, a merge) the links are found again by entity, and gone ones dropped.
    """
    report = world.resource(StructureReport)
    if report is None:
        return np.zeros(0, np.int64)
    rows, ents = report.critical_rows, world.store.springs.cols["entity"][:m]
    if rows.size == 0 or (rows.max() < m and np.array_equal(ents[rows], report.critical)):
        return rows
    found = _rows_of(ents, report.critical)
    return found[found >= 0]


def _rows_of(ents: np.ndarray, wanted: Any) -> np.ndarray:
    """The row of each entity of ``wanted`` in ``ents`` (unique entity ids), -1 if absent."""
    wanted = np.asarray(wanted, np.int64)
    if len(ents) == 0:
        return np.full(len(wanted), -1, np.int64)
    order = np.argsort(ents)
    rows = order[np.clip(np.searchsorted(ents, wanted, sorter=order), 0, len(ents) - 1)]
    return np.where(ents[rows] == wanted, rows, -1)


def _backdrop(view: tuple, bounds: tuple | None) -> np.ndarray:
    left, bottom, right, top = bounds if bounds is not None else view
    top_c, bot_c = rgba(SKY_TOP), rgba(SKY_BOTTOM)
    quad = [(left, bottom, bot_c), (right, bottom, bot_c), (right, top, top_c),
            (left, bottom, bot_c), (right, top, top_c), (left, top, top_c)]
    return np.array([(x, y, *c) for x, y, c in quad], np.float32)


def _bodies(pos: np.ndarray, radius: np.ndarray, store: Any, layout: Layout, grow: bool,
            alpha: float, half_width: float) -> tuple[np.ndarray, np.ndarray]:
    """The visible bodies' fills (triangle vertex rows) and outlines (capsule rows).

    A fill is a fan from the outline's centroid; ``grow`` pushes each outline vertex
    out from the centroid by its particle's radius (world px), ``alpha`` scales the
    fill's opacity, ``half_width`` is the outline's (world px).
    """
    off, idx = store.outline_off, store.outline_idx
    if len(off) <= 1 or len(idx) == 0:
        return np.zeros((0, 6), np.float32), np.zeros((0, 9), np.float32)
    counts = np.diff(off)
    owner = np.repeat(np.arange(len(off) - 1), counts)
    xy = pos[idx]
    centre = np.add.reduceat(xy, off[:-1], axis=0) / counts[:, None]
    if grow:
        d = xy - centre[owner]
        d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
        xy = xy + d * radius[idx][:, None]
    nxt = np.arange(len(idx)) + 1  # each vertex's successor round its outline
    nxt[off[1:] - 1] = off[:-1]
    keep = layout.body_visible[owner]
    own, start, end = owner[keep], xy[keep], xy[nxt[keep]]
    fills = np.empty((len(own), 3, 6), np.float32)
    fills[:, 0, 0:2], fills[:, 1, 0:2], fills[:, 2, 0:2] = centre[own], start, end
    color = layout.body_fill[own]  # a copy (fancy indexing): the layout's stays as it is
    color[:, 3] *= alpha
    fills[:, :, 2:6] = color[:, None, :]
    return fills.reshape(-1, 6), _segments(start, end, half_width, layout.body_edge[own])


def _rope_curves(pos: np.ndarray, radius: np.ndarray, alive: np.ndarray,
                 layout: Layout) -> np.ndarray:
    """Ropes as quadratic Bézier pieces between link midpoints, nodes as control points."""
    ea, eb, row, chain = layout.rope_a, layout.rope_b, layout.rope_row, layout.rope_chain
    if len(ea) == 0:
        return np.zeros((0, 9), np.float32)
    live = alive[row] & layout.spring_visible[row]
    same = chain[1:] == chain[:-1]
    joint = np.zeros(len(ea), bool)  # link k continues smoothly into link k + 1
    joint[:-1] = same & live[:-1] & live[1:]
    has_prev = np.zeros(len(ea), bool)
    has_prev[1:] = joint[:-1]
    p0, p1 = pos[ea], pos[eb]
    mid = 0.5 * (p0 + p1)
    hw = np.clip(0.85 * np.minimum(radius[ea], radius[eb]), 1.5, 5.0)
    color = layout.rope_color
    heads = live & ~has_prev
    tails = live & ~joint
    parts = [_segments(p0[heads], mid[heads], hw[heads], color[heads]),
             _segments(mid[tails], p1[tails], hw[tails], color[tails])]
    j = np.flatnonzero(joint)
    if j.size:
        t = np.linspace(0.0, 1.0, _BEZIER_SAMPLES + 1)[None, :, None]
        s0, c, s1 = mid[j][:, None], p1[j][:, None], mid[j + 1][:, None]
        curve = (1 - t) ** 2 * s0 + 2 * (1 - t) * t * c + t ** 2 * s1
        k = _BEZIER_SAMPLES
        parts.append(_segments(curve[:, :-1].reshape(-1, 2), curve[:, 1:].reshape(-1, 2),
                               np.repeat(hw[j], k), np.repeat(color[j], k, axis=0)))
    return np.concatenate(parts)


def _segments(p: np.ndarray, q: np.ndarray, hw: Any, color: np.ndarray) -> np.ndarray:
    """Capsule rows from ``p`` to ``q`` (n × 2, world px); ``hw`` (half width, world px) and
    ``color`` (float RGBA) one for all or one per row."""
    out = np.empty((len(p), 9), np.float32)
    out[:, 0:2], out[:, 2:4], out[:, 4], out[:, 5:9] = p, q, hw, color
    return out


def _discs(pos: np.ndarray, radius: np.ndarray, p: Any, layout: Layout, wire: bool,
           px: float) -> np.ndarray:
    n = p.n
    kind = p.cols["kind"][:n]
    pinned = p.cols["pinned"][:n]
    group = p.cols["group"][:n]
    color = _GROUP_RGBA[group % len(GROUP_PALETTE)]
    color[group == 0] = _PARTICLE_RGBA
    fruit = kind >= 0
    color[fruit] = _FRUIT_RGBA[kind[fruit]]
    color[pinned] = _ANCHOR_RGBA
    color = np.where(layout.particle_has_look[:, None], layout.particle_look, color)
    r = np.where(pinned, np.maximum(radius, 4.0), radius)
    if wire:
        show = np.ones(n, bool)
        ring = np.where(pinned, 0.0, 1.2 * px)
    else:
        role = layout.particle_role
        show = layout.particle_visible & ((role == _LINK) | (role == _ROPE) & (
            layout.rope_end | pinned))
        ring = np.zeros(n)
    out = np.empty((int(show.sum()), 9), np.float32)
    out[:, 0:2], out[:, 2], out[:, 3] = pos[show], r[show], ring[show]
    out[:, 4] = 1.0
    out[:, 5:9] = color[show]
    return out


def _stack(parts: list[np.ndarray], columns: int) -> np.ndarray:
    parts = [x for x in parts if len(x)]
    return np.concatenate(parts) if parts else np.zeros((0, columns), np.float32)


__all__ = ["Layout", "Look", "Scene", "build_scene", "rgba", "stress_colors", "triangulate"]
