"""Who is drawn as what: roles, fixed colours and ropes of the current structure.

Built with Python loops when the structure, the ``Look`` components or the
level change, and cached (``Layout.describes``), so that drawing a frame only
indexes its arrays, whatever the number of entities. What the roles mean is in
``ecsgoo.render``'s docstring.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..look import BODY_PALETTE, Look, rgba
from .colors import LEVEL_EDGE_RGBA, LEVEL_FILL_RGBA, ROPE_RGBA, STATIC_RGBA, table
from .gl import VERTEX_COLUMNS
from .rigid import RigidShapes
from .ropes import find_ropes
from .shapes import segments, triangulate

#: A spring's or particle's role: a plain link (drawn by stretch), part of a body
#: (under its fill), part of a rope (drawn as a curve).
LINK, BODY, ROPE = 0, 1, 2
#: ``BODY_PALETTE`` as float RGBA rows (a body's colour by its entity, indexed, not made).
_BODY_RGBA = table(BODY_PALETTE)


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
        self.outline_entities = [c._entity for c in st.areas.owner] + [
            c._entity for c in st.shapes.owner if c._vals["outline"]]
        body_groups = np.unique(group[members])
        body = np.isin(group, body_groups[body_groups != 0])
        body[members] = True
        self.spring_role = np.full(m, LINK, np.int8)
        self.spring_role[body[a] & body[b] & (group[a] == group[b])] = BODY
        self.particle_role = np.where(body, BODY, LINK).astype(np.int8)
        self.ropes = find_ropes(n, a, b, group, self.spring_role == LINK)
        self.spring_role[self.ropes.row] = ROPE
        self.particle_role[self.ropes.nodes] = ROPE  # not a tied-on candy
        self._apply_looks(world, looks, p, s)
        self._body_colors()
        self._rigid(st)
        self.rope_color = np.where(self.spring_has_look[self.ropes.row][:, None],
                                   self.spring_look[self.ropes.row], ROPE_RGBA)
        self._level(world.level)

    @staticmethod
    def _key(world: Any) -> tuple:
        st = world.store
        return (st.particles.version, st.springs.version, st.areas.version, st.shapes.version,
                st.bodies.version, st.joints.version, Look.revision, id(world))

    def describes(self, world: Any, looks: list) -> bool:
        """Whether this is still ``world``'s layout: same structure, Looks and level.

        ``looks`` is esper's cached component list: a new list when components came or went.
        """
        return (self.key == self._key(world) and self.looks is looks
                and self.segments is world.level.segments)

    def _apply_looks(self, world: Any, looks: list, p: Any, s: Any) -> None:
        n, m = p.n, s.n
        self.particle_look = np.zeros((n, 4), np.float32)
        self.particle_has_look = np.zeros(n, bool)
        self.particle_visible = np.ones(n, bool)
        self.spring_look = np.zeros((m, 4), np.float32)
        self.spring_has_look = np.zeros(m, bool)
        self.spring_visible = np.ones(m, bool)
        self.body_look: dict[int, Look] = {}
        spring_rows = rows_of(s.cols["entity"][:m], [entity for entity, _ in looks])
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

    def _rigid(self, st: Any) -> None:
        """Rigid bodies' shapes (body coordinates) and colours, joints' Looks, by row."""
        self.rigid = RigidShapes(st)
        ents = st.bodies.cols["entity"][: st.bodies.n]
        self.rigid_palette = _BODY_RGBA[ents % len(BODY_PALETTE)].reshape(-1, 4)
        self.rigid_look, self.rigid_has_look, self.rigid_visible = self._looks_of(ents)
        self.joint_look, self.joint_has_look, self.joint_visible = self._looks_of(
            st.joints.cols["entity"][: st.joints.n])

    def _looks_of(self, ents: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Colour, has-colour and visible per row of entities ``ents`` (from their Looks)."""
        k = len(ents)
        colors, has, vis = np.zeros((k, 4), np.float32), np.zeros(k, bool), np.ones(k, bool)
        for i, entity in enumerate(ents.tolist()):
            look = self.body_look.get(entity)
            if look is not None:
                self._set(i, look, colors, has, vis)
        return colors, has, vis

    def rigid_colors(self, pinned: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Fill and outline RGBA per body row: the Look's colour, else static bodies in
        ``STATIC_BODY`` (``pinned``: per body row, now) and moving ones from the palette."""
        fill = np.where(self.rigid_has_look[:, None], self.rigid_look,
                        np.where(pinned[:, None], STATIC_RGBA, self.rigid_palette))
        edge = fill.copy()
        edge[:, :3] *= 0.55
        return fill, edge

    def _level(self, level: Any) -> None:
        segs = level.segments
        self.level_capsules = segments(segs[:, 0:2], segs[:, 2:4], 2.0, LEVEL_EDGE_RGBA)
        xy = np.concatenate([np.zeros((0, 2))] + [triangulate(poly) for poly in level.polygons])
        out = np.empty((len(xy), VERTEX_COLUMNS), np.float32)
        out[:, 0:2], out[:, 2:6] = xy, LEVEL_FILL_RGBA
        self.level_triangles = out


def rows_of(ents: np.ndarray, wanted: Any) -> np.ndarray:
    """The row of each entity of ``wanted`` in ``ents`` (unique entity ids), -1 if absent."""
    wanted = np.asarray(wanted, np.int64)
    if len(ents) == 0:
        return np.full(len(wanted), -1, np.int64)
    order = np.argsort(ents)
    rows = order[np.clip(np.searchsorted(ents, wanted, sorter=order), 0, len(ents) - 1)]
    return np.where(ents[rows] == wanted, rows, -1)
