"""One frame's geometry, built with numpy from the packed arrays: no GL and no camera.

``build_scene`` turns a world and its ``Layout`` into float32 rows in the
layouts of ``render.gl`` (body fills and outlines, rigid bodies and joints
(``render.rigid``), links coloured by stretch, halos, ropes, discs, the sky),
with no per-entity Python work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..look import SKY_BOTTOM, SKY_TOP, rgba
from ..systems.analyze import StructureReport
from .colors import ANCHOR_RGBA, FRUIT_RGBA, GROUP_RGBA, HALO_RGBA, PARTICLE_RGBA, stress_colors
from .gl import CAPSULE_COLUMNS, DISC_COLUMNS, VERTEX_COLUMNS
from .layout import LINK, ROPE, Layout, rows_of
from .rigid import joint_rows, rigid_rows
from .ropes import rope_curves
from .shapes import segments, stack


@dataclass
class Scene:
    """One frame's geometry (float32 rows, layouts in ``render.gl``)."""

    backdrop: np.ndarray
    triangles: np.ndarray
    capsules: np.ndarray
    discs: np.ndarray

    def within(self, rect: tuple[float, float, float, float]) -> Scene:
        """Only the shapes whose box reaches into ``rect`` (world px ``(x0, y0, x1, y1)``),
        in their order (the backdrop whole): what a partial repaint draws."""
        x0, y0, x1, y1 = rect

        def meets(xs: list[np.ndarray], ys: list[np.ndarray], grow: Any = 0.0) -> np.ndarray:
            """Whether the box of the points ``xs[i], ys[i]`` (grown by ``grow``) meets rect."""
            return ((np.maximum.reduce(xs) + grow >= x0) & (np.minimum.reduce(xs) - grow <= x1)
                    & (np.maximum.reduce(ys) + grow >= y0)
                    & (np.minimum.reduce(ys) - grow <= y1))

        t = self.triangles
        keep = meets([t[0::3, 0], t[1::3, 0], t[2::3, 0]], [t[0::3, 1], t[1::3, 1], t[2::3, 1]])
        tri = t.reshape(-1, 3 * VERTEX_COLUMNS)[keep].reshape(-1, VERTEX_COLUMNS)
        c, d = self.capsules, self.discs
        caps = c[meets([c[:, 0], c[:, 2]], [c[:, 1], c[:, 3]], c[:, 4])]
        discs = d[meets([d[:, 0]], [d[:, 1]], d[:, 2])]
        return Scene(self.backdrop, tri, caps, discs)


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
    rigid_fills, rigid_edges = _rigid(world.store, layout, wireframe, px)
    joint_discs, joint_caps = joint_rows(world.store, layout.joint_look, layout.joint_has_look,
                                         layout.joint_visible | wireframe, px)
    link_hw = np.clip(0.38 * np.minimum(radius[a], radius[b]), 1.2, 4.5)
    tris = [layout.level_triangles, fills, rigid_fills]
    caps = [layout.level_capsules, edges, rigid_edges,
            _halos(world, layout, pos, a, b, alive, critical_count,
                   3.0 * px if wireframe else link_hw + 4.0)]
    if wireframe:
        caps.append(segments(pos[a[alive]], pos[b[alive]], 0.6 * px, spring_rgba[alive]))
    else:
        show = alive & layout.spring_visible & (layout.spring_role == LINK)
        caps.append(segments(pos[a[show]], pos[b[show]], link_hw[show], spring_rgba[show]))
        row = layout.ropes.row
        caps.append(rope_curves(pos, radius, layout.ropes,
                                alive[row] & layout.spring_visible[row], layout.rope_color))
    caps.append(joint_caps)
    discs = stack([_discs(pos, radius, p, layout, wireframe, px), joint_discs], DISC_COLUMNS)
    backdrop = _backdrop(visible, world.bounds)
    return Scene(backdrop, stack(tris, VERTEX_COLUMNS), stack(caps, CAPSULE_COLUMNS), discs)


def _stretch(pos: np.ndarray, a: np.ndarray, b: np.ndarray, rest: np.ndarray) -> np.ndarray:
    """Length / rest length per spring (1 at rest)."""
    length = np.hypot(*(pos[b] - pos[a]).T) if len(a) else np.zeros(0)
    return length / np.maximum(rest, 1e-9)


def _halos(world: Any, layout: Layout, pos: np.ndarray, a: np.ndarray, b: np.ndarray,
           alive: np.ndarray, count: int, half_width: Any) -> np.ndarray:
    """Pink halos under the most critical links (ropes and bodies are all bridges: skipped).

    ``count``: how many at most; ``half_width``: world px, one for all or one per spring row.
    """
    rows = _critical_rows(world, len(a)) if count > 0 else np.zeros(0, int)
    ok = alive[rows] & layout.spring_visible[rows] & (layout.spring_role[rows] == LINK)
    rows = rows[ok][:count]
    hw = np.broadcast_to(half_width, len(a))[rows]
    return segments(pos[a[rows]], pos[b[rows]], hw, HALO_RGBA)


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
    found = rows_of(ents, report.critical)
    return found[found >= 0]


def _rigid(store: Any, layout: Layout, wire: bool, px: float) -> tuple[np.ndarray, np.ndarray]:
    """Rigid bodies' fills (triangle vertex rows) and outlines (capsule rows).

    Static (anchored) bodies in ``STATIC_BODY``, others from the palette, a ``Look``
    overrides; the wireframe shows every body, faintly filled, with hairline outlines.
    """
    pinned = store.bodies.cols["pinned"][: store.bodies.n]
    fill, edge = layout.rigid_colors(pinned)
    visible = layout.rigid_visible | wire
    return rigid_rows(store, layout.rigid, fill, edge, visible, 0.3 if wire else 1.0,
                      px if wire else max(1.4, 1.2 * px))


def _backdrop(view: tuple, bounds: tuple | None) -> np.ndarray:
    """The sky: two triangles over ``bounds`` (or ``view``), a vertical gradient."""
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
        return (np.zeros((0, VERTEX_COLUMNS), np.float32),
                np.zeros((0, CAPSULE_COLUMNS), np.float32))
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
    fills = np.empty((len(own), 3, VERTEX_COLUMNS), np.float32)
    fills[:, 0, 0:2], fills[:, 1, 0:2], fills[:, 2, 0:2] = centre[own], start, end
    color = layout.body_fill[own]  # a copy (fancy indexing): the layout's stays as it is
    color[:, 3] *= alpha
    fills[:, :, 2:6] = color[:, None, :]
    return fills.reshape(-1, VERTEX_COLUMNS), segments(start, end, half_width,
                                                       layout.body_edge[own])


def _discs(pos: np.ndarray, radius: np.ndarray, p: Any, layout: Layout, wire: bool,
           px: float) -> np.ndarray:
    """Disc rows of the particles shown: those of no body or rope, and a rope's ends and pins.

    Fruits in their kind's colour, anchors in steel (at least 4 px radius), others in
    their group's colour; a ``Look`` overrides it. The wireframe shows every particle,
    as a ring ``1.2 * px`` wide (world px).
    """
    n = p.n
    kind = p.cols["kind"][:n]
    pinned = p.cols["pinned"][:n]
    group = p.cols["group"][:n]
    color = GROUP_RGBA[group % len(GROUP_RGBA)]
    color[group == 0] = PARTICLE_RGBA
    fruit = kind >= 0
    color[fruit] = FRUIT_RGBA[kind[fruit]]
    color[pinned] = ANCHOR_RGBA
    color = np.where(layout.particle_has_look[:, None], layout.particle_look, color)
    r = np.where(pinned, np.maximum(radius, 4.0), radius)
    if wire:
        show = np.ones(n, bool)
        ring = np.where(pinned, 0.0, 1.2 * px)
    else:
        role = layout.particle_role
        show = layout.particle_visible & ((role == LINK) | (role == ROPE) & (
            layout.ropes.end | pinned))
        ring = np.zeros(n)
    out = np.empty((int(show.sum()), DISC_COLUMNS), np.float32)
    out[:, 0:2], out[:, 2], out[:, 3] = pos[show], r[show], ring[show]
    out[:, 4] = 1.0
    out[:, 5:9] = color[show]
    return out
