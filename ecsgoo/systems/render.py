"""Render: draw the world straight from the packed arrays, in a constant number of draw calls.

Reads: particle pos, radius, group, kind, pinned; spring a, b, rest, max_stretch,
broken, entity; the outline CSR (``outline_off/outline_idx``); ``world.level``;
``world.bounds``; ``StructureReport.critical`` (when Analyze runs); ``Look``
components.
Writes: nothing in the world (``Render.fit``: the last camera fit, for the player).
Events: none.

Render is a pipeline Stage (``per_substep = False``) so a game can put it in its
pipeline with its settings (wireframe, view) and they are saved with the world;
but its ``process`` does nothing: physics steps never draw (a headless bot run
steps thousands of frames without a GL context). The player calls
``render.draw(world)`` once per *displayed* frame instead; ``Render.of(world)``
finds the pipeline's Render, or a default one.

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

At most six draw calls per frame (the sky; triangles; links as capsules, or lines
when thin in a crowded frame; discs as points, or quads when big: see
``ecsgoo.app.gl``), whatever the number of entities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .. import fruit as _fruit
from .base import Stage, register_stage

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


@dataclass(frozen=True)
class Fit:
    """A world rectangle fitted into a window, aspect preserved and centred.

    ``scale`` is screen px per world px; ``(x0, y0)`` is the world point at the
    window's bottom-left corner.
    """

    scale: float
    x0: float
    y0: float
    width: int
    height: int

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """Window pixel (y up) → world px."""
        return self.x0 + sx / self.scale, self.y0 + sy / self.scale

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """World px → window pixel (y up)."""
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale

    @property
    def centre(self) -> tuple[float, float]:
        """The world point at the window's centre."""
        return self.to_world(self.width / 2, self.height / 2)


def fit(view: tuple[float, float, float, float], width: int, height: int) -> Fit:
    """Fit ``view = (left, bottom, right, top)`` (world px) into a ``width × height`` window."""
    left, bottom, right, top = view
    vw, vh = max(right - left, 1e-6), max(top - bottom, 1e-6)
    scale = min(width / vw, height / vh)
    cx, cy = (left + right) / 2, (bottom + top) / 2
    return Fit(scale, cx - width / 2 / scale, cy - height / 2 / scale, width, height)


@dataclass
class Scene:
    """One frame's geometry (float32 rows, layouts in ``ecsgoo.app.gl``)."""

    backdrop: np.ndarray
    triangles: np.ndarray
    capsules: np.ndarray
    discs: np.ndarray


@register_stage
class Render(Stage):
    """Draws the world with batched GPU geometry (see the module docstring).

    ``wireframe`` shows every particle and spring; ``critical_count`` is how many
    of the most critical links (Analyze's report) get a halo; ``view`` is the
    world rectangle ``(left, bottom, right, top)`` the camera fits into the
    window (default: the world's bounds, else the level and bodies as first seen).
    """

    name = "render"
    per_substep = False

    def __init__(self, wireframe: bool = False, critical_count: int = 5,
                 view: tuple[float, float, float, float] | None = None) -> None:
        self.wireframe = bool(wireframe)
        self.critical_count = int(critical_count)
        self.view = None if view is None else tuple(float(v) for v in view)
        self.fit: Fit | None = None
        self._layout: _Layout | None = None
        self._auto_view: tuple[Any, tuple[float, float, float, float]] | None = None
        self._camera: Any = None

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"wireframe": self.wireframe, "critical_count": self.critical_count}
        if self.view is not None:
            out["view"] = self.view
        return out

    def __deepcopy__(self, memo: dict) -> Render:
        return self.clone()

    def process(self, world: Any) -> None:
        """Nothing: physics steps do not draw (the player calls ``draw`` per displayed frame)."""

    @staticmethod
    def of(world: Any) -> Render:
        """The Render stage of ``world``'s pipeline, or a default one kept with the world."""
        for stage in world.pipeline:
            if isinstance(stage, Render):
                return stage
        found = world.resource(Render)
        if found is None:
            found = world.add_resource(Render())
        return found

    # -- camera -------------------------------------------------------------------------

    def view_rect(self, world: Any, size: tuple[int, int] | None = None
                  ) -> tuple[float, float, float, float]:
        """The world rectangle to show.

        ``view`` if set, else the world's bounds; a world without bounds shows
        ``(0, 0, *size)`` (the game's window size: games place things in
        window pixels), grown to hold the level and bodies as first seen.
        """
        if self.view is not None:
            return self.view
        if world.bounds is not None:
            return tuple(world.bounds)
        if self._auto_view is None or self._auto_view[0] is not world:
            self._auto_view = (world, _contents_rect(world, size))
        return self._auto_view[1]

    # -- drawing ------------------------------------------------------------------------

    def draw(self, world: Any, window: Any = None, size: tuple[int, int] | None = None) -> Fit:
        """Draw ``world`` into the current arcade window (or ``window``); return the camera fit.

        Clears the window, sets a camera that fits ``view_rect(world, size)``
        into it (``size``: the game's nominal window size, default the
        window's), and leaves that camera active for overlays in world coordinates.
        """
        import arcade

        from ..app.gl import batches

        window = window or arcade.get_window()
        width, height = window.get_framebuffer_size()
        self.fit = fit(self.view_rect(world, size or (window.width, window.height)),
                       width, height)
        if not self._fills_window(world):
            window.clear(color=OUTSIDE)  # letterbox; otherwise the sky covers every pixel
        self.camera(window).use()
        gpu = batches(window.ctx)
        gpu.begin()
        gpu.set_pixel(1.0 / self.fit.scale)
        scene = self.scene(world, 1.0 / self.fit.scale)
        gpu.triangles(scene.backdrop, blend=False)
        gpu.triangles(scene.triangles)
        gpu.capsules(scene.capsules)
        gpu.discs(scene.discs)
        return self.fit

    def _fills_window(self, world: Any) -> bool:
        """Whether the sky (the bounds, or the whole view) covers the window."""
        if world.bounds is None:
            return True
        left, bottom, right, top = world.bounds
        f = self.fit
        x0, y0 = f.to_screen(left, bottom)
        x1, y1 = f.to_screen(right, top)
        return x0 <= 0 and y0 <= 0 and x1 >= f.width and y1 >= f.height

    def camera(self, window: Any) -> Any:
        """An arcade Camera2D showing ``self.fit`` (made by ``draw``)."""
        import arcade

        f = self.fit
        if self._camera is None or self._camera._window is not window:
            self._camera = arcade.Camera2D(window=window)
        cam = self._camera
        cam.viewport = arcade.LBWH(0, 0, f.width, f.height)
        cam.projection = arcade.LRBT(-f.width / 2, f.width / 2, -f.height / 2, f.height / 2)
        cam.position = f.centre
        cam.zoom = f.scale
        return cam

    def scene(self, world: Any, px: float = 1.0) -> Scene:
        """This frame's geometry, built with numpy from the packed arrays (no GL needed).

        ``px`` is the size of one screen pixel in world px (hairline widths).
        """
        world.store.prepare()
        layout = self._layout_for(world)
        p, s = world.store.particles, world.store.springs
        pos = p.cols["pos"][: p.n]
        radius = p.cols["radius"][: p.n]
        a, b = s.cols["a"][: s.n], s.cols["b"][: s.n]
        alive = ~s.cols["broken"][: s.n]
        stretch = _stretch(pos, a, b, s.cols["rest"][: s.n])
        spring_rgba = np.where(layout.spring_has_look[:, None], layout.spring_look,
                               stress_colors(stretch, s.cols["max_stretch"][: s.n]))
        wire = self.wireframe
        tris = [layout.level_triangles,
                _body_fills(pos, radius, world.store, layout, grow=not wire,
                            alpha=0.3 if wire else 1.0)]
        caps = [layout.level_capsules,
                _body_outlines(pos, radius, world.store, layout, grow=not wire,
                               width=px if wire else max(1.4, 1.2 * px)),
                self._halos(world, layout, pos, a, b, alive, px)]
        if wire:
            caps.append(_links(pos, a, b, np.full(s.n, 0.6 * px), spring_rgba, alive))
        else:
            show = alive & layout.spring_visible & (layout.spring_role == _LINK)
            hw = np.clip(0.38 * np.minimum(radius[a], radius[b]), 1.2, 4.5)
            caps.append(_links(pos, a, b, hw, spring_rgba, show))
            caps.append(_rope_curves(pos, radius, alive, spring_rgba, layout))
        discs = _discs(pos, radius, p, layout, wire, px)
        backdrop = _backdrop(self._visible(world), world.bounds)
        return Scene(backdrop, _stack(tris, 6), _stack(caps, 9), discs)

    def _visible(self, world: Any) -> tuple[float, float, float, float]:
        """The world rectangle the window shows (all of it, letterbox included)."""
        f = self.fit
        if f is None:
            return self.view_rect(world)
        return (*f.to_world(0, 0), *f.to_world(f.width, f.height))

    def _halos(self, world: Any, layout: _Layout, pos: np.ndarray, a: np.ndarray,
               b: np.ndarray, alive: np.ndarray, px: float) -> np.ndarray:
        """Pink halos under the most critical links (ropes and bodies are all bridges: skipped)."""
        rows = _critical_rows(world, len(a)) if self.critical_count > 0 else np.zeros(0, int)
        ok = alive[rows] & layout.spring_visible[rows] & (layout.spring_role[rows] == _LINK)
        rows = rows[ok][: self.critical_count]
        radius = world.store.particles.cols["radius"]
        hw = np.clip(0.38 * np.minimum(radius[a[rows]], radius[b[rows]]), 1.2, 4.5) + 4.0
        if self.wireframe:
            hw = np.full(len(rows), 3.0 * px)
        return _segments(pos[a[rows]], pos[b[rows]], hw,
                         np.broadcast_to(np.array(rgba(HALO), np.float32), (len(rows), 4)))

    def _layout_for(self, world: Any) -> _Layout:
        st = world.store
        looks = world.get_component(Look)
        key = (st.particles.version, st.springs.version, st.rings.version, st.shapes.version,
               Look.revision, len(looks), world.level.segments.ctypes.data, id(world))
        if self._layout is None or self._layout.key != key or self._layout.looks is not looks:
            self._layout = _Layout(world, key, looks)
        return self._layout


# -- layout: who is drawn as what, rebuilt when the structure changes -------------------

_LINK, _BODY, _ROPE = 0, 1, 2


class _Layout:
    """Roles, fixed colours and rope chains of the current structure (Python work, cached)."""

    def __init__(self, world: Any, key: tuple, looks: list) -> None:
        self.key, self.looks = key, looks
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
        self._body_colors(len(self.outline_entities))
        self._level(world.level)

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
        ents = s.cols["entity"][:m]
        order = np.argsort(ents)
        pslot = world.store.pslot
        for entity, look in looks:
            slot = pslot.get(entity)
            if slot is not None:
                self._set(slot, look, self.particle_look, self.particle_has_look,
                          self.particle_visible)
                continue
            k = np.searchsorted(ents, entity, sorter=order) if m else 0
            if m and k < m and ents[order[k]] == entity:
                self._set(order[k], look, self.spring_look, self.spring_has_look,
                          self.spring_visible)
            else:
                self.body_look[entity] = look

    @staticmethod
    def _set(i: int, look: Look, colors: np.ndarray, has: np.ndarray, vis: np.ndarray) -> None:
        if look.color is not None:
            colors[i] = rgba(look.color)
            has[i] = True
        vis[i] = look.visible

    def _body_colors(self, k: int) -> None:
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
        caps = np.empty((len(segs), 9), np.float32)
        caps[:, 0:4], caps[:, 4], caps[:, 5:9] = segs, 2.0, rgba(LEVEL_EDGE)
        self.level_capsules = caps
        tris = []
        for poly in level.polygons:
            tris += _triangulate(poly)
        out = np.empty((len(tris) * 3, 6), np.float32)
        out[:, 0:2] = np.array(tris, np.float64).reshape(-1, 2) if tris else np.zeros((0, 2))
        out[:, 2:6] = rgba(LEVEL_FILL)
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


def _triangulate(poly: list[tuple[float, float]]) -> list:
    from arcade.earclip import earclip

    try:
        return earclip(poly)
    except Exception:  # a self-intersecting polygon: a fan is better than nothing
        return [(poly[0], poly[i], poly[i + 1]) for i in range(1, len(poly) - 1)]


def _contents_rect(world: Any, size: tuple[int, int] | None
                   ) -> tuple[float, float, float, float]:
    """``(0, 0, *size)`` grown to hold the level and particles (or their padded box)."""
    p = world.store.particles
    pts = [x for x in (p.cols["pos"][: p.n], world.level.segments.reshape(-1, 2)) if len(x)]
    if size is not None:
        pts.append(np.array([[0.0, 0.0], [float(size[0]), float(size[1])]]))
    if not pts:
        return (0.0, 0.0, 800.0, 600.0)
    xy = np.concatenate(pts)
    lo, hi = xy.min(0), xy.max(0)
    pad = 0.0 if size is not None else 0.08 * max(hi[0] - lo[0], hi[1] - lo[1], 100.0)
    return (lo[0] - pad, lo[1] - pad, hi[0] + pad, hi[1] + pad)


# -- per-frame geometry (vectorised) ------------------------------------------------------

def _stretch(pos: np.ndarray, a: np.ndarray, b: np.ndarray, rest: np.ndarray) -> np.ndarray:
    length = np.hypot(*(pos[b] - pos[a]).T) if len(a) else np.zeros(0)
    return length / np.maximum(rest, 1e-9)


def stress_colors(stretch: np.ndarray, max_stretch: np.ndarray) -> np.ndarray:
    """RGBA floats per spring: blue (compressed) → green (rest) → yellow → red (max_stretch).

    Green from 0.95 × rest to rest, blue by half the rest length; unbreakable
    springs (``max_stretch`` inf) are coloured as if they broke at 2.
    """
    limit = np.where(np.isfinite(max_stretch), max_stretch, 2.0)
    warm = np.clip((stretch - 1.0) / np.maximum(limit - 1.0, 1e-6), 0.0, 1.0)
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
    """Spring rows of Analyze's critical links, most dangerous first (none without Analyze)."""
    from .. import systems

    kind = getattr(systems, "StructureReport", None)
    report = world.resource(kind) if kind is not None else None
    if report is None:
        return np.zeros(0, np.int64)
    rows = np.asarray(getattr(report, "critical_rows", ()), np.int64)
    if len(rows) == len(report.critical) and (rows.size == 0 or rows.max() < m):
        return rows
    ents = world.store.springs.cols["entity"][:m]
    order = np.argsort(ents)
    wanted = np.asarray(report.critical, np.int64)
    k = np.clip(np.searchsorted(ents, wanted, sorter=order), 0, max(m - 1, 0))
    found = order[k] if m else k[:0]
    return found[ents[found] == wanted] if m else found


def _backdrop(view: tuple, bounds: tuple | None) -> np.ndarray:
    left, bottom, right, top = bounds if bounds is not None else view
    top_c, bot_c = rgba(SKY_TOP), rgba(SKY_BOTTOM)
    quad = [(left, bottom, bot_c), (right, bottom, bot_c), (right, top, top_c),
            (left, bottom, bot_c), (right, top, top_c), (left, top, top_c)]
    return np.array([(x, y, *c) for x, y, c in quad], np.float32)


def _outline_geometry(pos: np.ndarray, radius: np.ndarray, store: Any, layout: _Layout,
                      grow: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Outline vertices (grown outward by their radius), next-vertex index, owner, centroids."""
    off, idx = store.outline_off, store.outline_idx
    k = len(off) - 1
    if k <= 0 or len(idx) == 0:
        z = np.zeros((0, 2))
        return z, np.zeros(0, np.int64), np.zeros(0, np.int64), z
    counts = np.diff(off)
    owner = np.repeat(np.arange(k), counts)
    xy = pos[idx]
    centre = np.add.reduceat(xy, off[:-1], axis=0) / counts[:, None]
    if grow:
        d = xy - centre[owner]
        d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
        xy = xy + d * radius[idx][:, None]
    nxt = np.arange(len(idx)) + 1
    nxt[off[1:] - 1] = off[:-1]
    return xy, nxt, owner, centre


def _body_fills(pos: np.ndarray, radius: np.ndarray, store: Any, layout: _Layout,
                grow: bool, alpha: float) -> np.ndarray:
    xy, nxt, owner, centre = _outline_geometry(pos, radius, store, layout, grow)
    keep = layout.body_visible[owner]
    xy_keep, nxt_keep, own = xy[keep], nxt[keep], owner[keep]
    out = np.empty((len(own), 3, 6), np.float32)
    out[:, 0, 0:2] = centre[own]
    out[:, 1, 0:2] = xy_keep
    out[:, 2, 0:2] = xy[nxt_keep]
    color = layout.body_fill[own].copy()
    color[:, 3] *= alpha
    out[:, :, 2:6] = color[:, None, :]
    return out.reshape(-1, 6)


def _body_outlines(pos: np.ndarray, radius: np.ndarray, store: Any, layout: _Layout,
                   grow: bool, width: float) -> np.ndarray:
    xy, nxt, owner, _ = _outline_geometry(pos, radius, store, layout, grow)
    keep = layout.body_visible[owner]
    out = np.empty((int(keep.sum()), 9), np.float32)
    out[:, 0:2], out[:, 2:4] = xy[keep], xy[nxt[keep]]
    out[:, 4] = width
    out[:, 5:9] = layout.body_edge[owner[keep]]
    return out


def _links(pos: np.ndarray, a: np.ndarray, b: np.ndarray, hw: np.ndarray,
           colors: np.ndarray, show: np.ndarray) -> np.ndarray:
    out = np.empty((int(show.sum()), 9), np.float32)
    out[:, 0:2], out[:, 2:4] = pos[a[show]], pos[b[show]]
    out[:, 4] = hw[show]
    out[:, 5:9] = colors[show]
    return out


def _rope_curves(pos: np.ndarray, radius: np.ndarray, alive: np.ndarray,
                 spring_rgba: np.ndarray, layout: _Layout) -> np.ndarray:
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
    color = np.where(layout.spring_has_look[row][:, None], layout.spring_look[row],
                     np.array(rgba(ROPE), np.float32))
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


def _segments(p: np.ndarray, q: np.ndarray, hw: np.ndarray, color: np.ndarray) -> np.ndarray:
    out = np.empty((len(p), 9), np.float32)
    out[:, 0:2], out[:, 2:4], out[:, 4], out[:, 5:9] = p, q, hw, color
    return out


def _discs(pos: np.ndarray, radius: np.ndarray, p: Any, layout: _Layout, wire: bool,
           px: float) -> np.ndarray:
    n = p.n
    kind = p.cols["kind"][:n]
    pinned = p.cols["pinned"][:n]
    group = p.cols["group"][:n]
    color = _GROUP_RGBA[group % len(GROUP_PALETTE)]
    color[group == 0] = rgba(PARTICLE)
    fruit = kind >= 0
    color[fruit] = _FRUIT_RGBA[kind[fruit]]
    color[pinned] = rgba(ANCHOR)
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


_FRUIT_RGBA = np.array([rgba(c) for c in _fruit.COLORS], np.float32)
_GROUP_RGBA = np.array([rgba(c) for c in GROUP_PALETTE], np.float32)

__all__ = ["Render", "Look", "Fit", "Scene", "fit", "rgba", "stress_colors"]
