"""Rigid bodies and joints as GPU rows: the shapes in body coordinates, cached; placed per frame.

``RigidShapes`` is built from the store's packed pieces (``body_piece_off``,
``piece_vert_off``, ``piece_verts``, ``piece_radius``) when bodies come or go,
and holds every body's fill triangles, outline edges and circles in *body*
coordinates, each tagged with its body row. A frame then only rotates and
moves them with numpy (``rigid_rows``): no Python work per body.

- a polygon piece is filled as a fan; the body's outline is every piece edge
  that no other piece of the same body shares (a concave body split into
  convex pieces shows its outer outline only, no internal diagonals);
- a circle piece (one vertex with a radius) is a filled ``CIRCLE_SIDES``-gon
  with its outline and a radius line from the centre, so its rotation shows;
- a joint is a small ring at its hinge (on end a), a weld a small square
  turned with body a; both coloured by stress ``force / max_force`` with the
  springs' colours (``colors.stress_colors``), steel if unbreakable; broken
  joints are not drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .colors import ANCHOR_RGBA, stress_colors
from .gl import CAPSULE_COLUMNS, DISC_COLUMNS, VERTEX_COLUMNS
from .shapes import segments

#: Sides of the polygon a circle piece is filled with.
CIRCLE_SIDES = 32
#: A joint's ring: radius and ring width (px); a weld's square: half side (px).
JOINT_RADIUS, JOINT_RING, WELD_HALF = 5.0, 2.2, 4.5


class RigidShapes:
    """Every body's triangles, outline edges and circles in body coordinates (cached).

    Arrays (``T`` triangles, ``E`` edges, ``C`` circles): ``tri_body`` (T,) body
    rows and ``tri`` (T, 3, 2) px; ``edge_body`` (E,) and ``edge`` (E, 2, 2) px;
    ``circle_body`` (C,), ``circle_centre`` (C, 2) and ``circle_radius`` (C,) px.
    """

    def __init__(self, store: Any) -> None:
        body_off = store.body_piece_off
        vert_off = store.piece_vert_off
        verts = np.asarray(store.piece_verts, np.float64).reshape(-1, 2)
        radius = np.asarray(store.piece_radius, np.float64)
        pieces = len(vert_off) - 1
        piece_body = np.repeat(np.arange(len(body_off) - 1), np.diff(body_off))
        counts = np.diff(vert_off)
        vert_piece = np.repeat(np.arange(pieces), counts)
        poly = counts[vert_piece] >= 3  # vertices of polygon pieces (a circle has one)
        # each vertex's successor round its piece
        nxt = np.arange(len(verts)) + 1
        if pieces:
            nxt[vert_off[1:] - 1] = vert_off[:-1]
        # fans: (first vertex, v, successor of v) for every v but the first and the last
        first = vert_off[:-1][vert_piece]
        fan = poly & (np.arange(len(verts)) != first) & (nxt != first)
        self.tri_body = piece_body[vert_piece[fan]]
        self.tri = np.stack([verts[first[fan]], verts[fan], verts[nxt[fan]]], axis=1)
        # outline edges: those no other piece of the body shares (in the other direction)
        ev = np.flatnonzero(poly)
        start, end = verts[ev], verts[nxt[ev]]
        owner = piece_body[vert_piece[ev]]
        keep = _unshared(owner, start, end)
        self.edge_body = owner[keep]
        self.edge = np.stack([start[keep], end[keep]], axis=1)
        circle = np.flatnonzero(counts == 1)
        self.circle_body = piece_body[circle]
        self.circle_centre = verts[vert_off[:-1][circle]]
        self.circle_radius = radius[circle]


def _unshared(owner: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Which edges (``owner`` body row, ``start → end`` px) have no reverse edge in their body
    (ends compared on a 1e-6 px grid; whole rows compared as bytes, in numpy)."""
    if not len(owner):
        return np.zeros(0, bool)
    q = np.round(np.concatenate([start, end], axis=1) / 1e-6).astype(np.int64)
    o = np.asarray(owner, np.int64)[:, None]
    both = np.ascontiguousarray(np.concatenate([np.hstack([o, q]),
                                                np.hstack([o, q[:, 2:], q[:, :2]])]))
    rows = both.view(np.dtype((np.void, both.dtype.itemsize * both.shape[1]))).ravel()
    _, key = np.unique(rows, return_inverse=True)
    key = key.ravel()
    return ~np.isin(key[len(owner):], key[: len(owner)])


def _place(local: np.ndarray, rows: np.ndarray, pos: np.ndarray, cos: np.ndarray,
           sin: np.ndarray) -> np.ndarray:
    """Body-coordinate points ``local`` (N, ..., 2) of body ``rows`` (N,) in world px now."""
    shape = (len(rows),) + (1,) * (local.ndim - 2)
    c, s = cos[rows].reshape(shape), sin[rows].reshape(shape)
    x, y = local[..., 0], local[..., 1]
    out = np.empty(local.shape, np.float64)
    out[..., 0] = c * x - s * y + pos[rows, 0].reshape(shape)
    out[..., 1] = s * x + c * y + pos[rows, 1].reshape(shape)
    return out


def rigid_rows(store: Any, shapes: RigidShapes, fill: np.ndarray, edge: np.ndarray,
               visible: np.ndarray, alpha: float, half_width: float,
               ) -> tuple[np.ndarray, np.ndarray]:
    """The bodies' fill triangles (vertex rows) and outlines and radius lines (capsule rows).

    ``fill``, ``edge`` (bodies, 4) float RGBA and ``visible`` (bodies,) per body row;
    ``alpha`` scales the fill's opacity, ``half_width`` is the outline's (world px).
    """
    b = store.bodies
    n = b.n
    pos, angle = b.cols["pos"][:n], b.cols["angle"][:n]
    cos, sin = np.cos(angle), np.sin(angle)
    # circles as polygons: the same fan and edges as polygon pieces, made per frame
    k = np.flatnonzero(visible[shapes.circle_body])
    cb, cc, cr = shapes.circle_body[k], shapes.circle_centre[k], shapes.circle_radius[k]
    t = np.linspace(0.0, 2 * np.pi, CIRCLE_SIDES + 1)
    ring = cc[:, None, :] + cr[:, None, None] * np.stack([np.cos(t), np.sin(t)], -1)[None]
    ring = _place(ring, cb, pos, cos, sin)  # (C, sides + 1, 2), closed
    centre = _place(cc, cb, pos, cos, sin)
    tk = np.flatnonzero(visible[shapes.tri_body])
    tris = _place(shapes.tri[tk], shapes.tri_body[tk], pos, cos, sin)
    tri_body = shapes.tri_body[tk]
    circle_tris = np.empty((len(cb), CIRCLE_SIDES, 3, 2))
    circle_tris[:, :, 0] = centre[:, None, :]
    circle_tris[:, :, 1], circle_tris[:, :, 2] = ring[:, :-1], ring[:, 1:]
    all_tris = np.concatenate([tris, circle_tris.reshape(-1, 3, 2)])
    owner = np.concatenate([tri_body, np.repeat(cb, CIRCLE_SIDES)])
    out = np.empty((len(all_tris), 3, VERTEX_COLUMNS), np.float32)
    out[:, :, 0:2] = all_tris
    color = fill[owner]  # a copy: the layout's stays as it is
    color[:, 3] *= alpha
    out[:, :, 2:6] = color[:, None, :]
    ek = np.flatnonzero(visible[shapes.edge_body])
    ends = _place(shapes.edge[ek], shapes.edge_body[ek], pos, cos, sin)
    spoke = centre + cr[:, None] * np.stack([cos[cb], sin[cb]], -1)  # angle 0 points +x
    caps = [segments(ends[:, 0], ends[:, 1], half_width, edge[shapes.edge_body[ek]]),
            segments(ring[:, :-1].reshape(-1, 2), ring[:, 1:].reshape(-1, 2), half_width,
                     np.repeat(edge[cb], CIRCLE_SIDES, axis=0)),
            segments(centre, spoke, half_width, edge[cb])]
    return out.reshape(-1, VERTEX_COLUMNS), np.concatenate(caps).astype(np.float32)


def joint_points(store: Any) -> np.ndarray:
    """Each joint's hinge (its anchor on end a) in world px now, (joints, 2)."""
    j, b = store.joints, store.bodies
    m = j.n
    ab, ap = j.cols["a_body"][:m], j.cols["a_part"][:m]
    la = j.cols["la"][:m]
    out = store.particles.cols["pos"][np.maximum(ap, 0)].copy()
    on = ab >= 0
    rows = ab[on]
    angle = b.cols["angle"][rows]
    c, s = np.cos(angle), np.sin(angle)
    out[on, 0] = b.cols["pos"][rows, 0] + c * la[on, 0] - s * la[on, 1]
    out[on, 1] = b.cols["pos"][rows, 1] + s * la[on, 0] + c * la[on, 1]
    return out


def joint_colors(force: np.ndarray, max_force: np.ndarray) -> np.ndarray:
    """RGBA per joint: the springs' stress colours by ``force / max_force`` (green at
    rest, yellow half way, red at breaking), steel for unbreakable joints."""
    breakable = np.isfinite(max_force)
    ratio = np.where(breakable, force / np.where(breakable, np.maximum(max_force, 1e-9), 1.0),
                     0.0)
    out = stress_colors(1.0 + np.clip(ratio, 0.0, 1.0), np.full(len(force), 2.0))
    return np.where(breakable[:, None], out, ANCHOR_RGBA)


def joint_rows(store: Any, look: np.ndarray, has_look: np.ndarray, visible: np.ndarray,
               px: float) -> tuple[np.ndarray, np.ndarray]:
    """Hinges as ring discs and welds as squares (capsule rows): ``(discs, capsules)``.

    ``look``/``has_look``/``visible`` per joint row (a ``Look`` on the joint entity);
    ``px`` is one screen pixel in world px (the marks keep at least a few pixels).
    """
    j = store.joints
    m = j.n
    c = j.cols
    show = visible & ~c["broken"][:m]
    color = np.where(has_look[:, None], look,
                     joint_colors(np.abs(c["force"][:m]), c["max_force"][:m]))
    at = joint_points(store)
    weld = c["weld"][:m]
    hinge = np.flatnonzero(show & ~weld)
    r = max(JOINT_RADIUS, 3.0 * px)
    discs = np.empty((2 * len(hinge), DISC_COLUMNS), np.float32)
    dark = np.array([0.1, 0.1, 0.14, 0.85], np.float32)
    discs[0::2, 0:2], discs[0::2, 2], discs[0::2, 3] = at[hinge], r + px, 0.0
    discs[0::2, 4], discs[0::2, 5:9] = 0.0, dark  # a dark backing: visible on any fill
    discs[1::2, 0:2], discs[1::2, 2], discs[1::2, 3] = at[hinge], r, max(JOINT_RING, 1.5 * px)
    discs[1::2, 4], discs[1::2, 5:9] = 0.0, color[hinge]
    welds = np.flatnonzero(show & weld)
    ab = c["a_body"][:m][welds]
    angle = store.bodies.cols["angle"][ab]
    h = max(WELD_HALF, 2.5 * px)
    corners = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    co, si = np.cos(angle)[:, None], np.sin(angle)[:, None]
    sq = np.empty((len(welds), 4, 2))
    sq[..., 0] = at[welds, 0][:, None] + co * corners[:, 0] - si * corners[:, 1]
    sq[..., 1] = at[welds, 1][:, None] + si * corners[:, 0] + co * corners[:, 1]
    nxt = np.roll(sq, -1, axis=1)
    hw = max(1.1, 0.8 * px)
    caps = np.concatenate([
        segments(sq.reshape(-1, 2), nxt.reshape(-1, 2), hw + px, dark),
        segments(sq.reshape(-1, 2), nxt.reshape(-1, 2), hw, np.repeat(color[welds], 4, axis=0)),
    ]) if len(welds) else np.zeros((0, CAPSULE_COLUMNS), np.float32)
    return discs, caps
