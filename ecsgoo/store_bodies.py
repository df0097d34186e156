"""The store's rigid-body and joint rows (a part of ``Store``, kept in its own module).

Bodies live in ``store.bodies`` (``columns.BODIES``); their shapes are packed
into CSR arrays rebuilt lazily before a step after bodies come or go:
``body_piece_off`` (bodies + 1) into the pieces, ``piece_vert_off`` (pieces + 1)
into ``piece_verts`` ((v, 2) px, body coordinates) and ``piece_radius`` (px; a
circle is one vertex with a radius), with each body's thinnest half thickness in
``body_inner`` (px, ``kernels.rigid.inner_radius``). Joints live in ``store.joints``
(``columns.JOINTS``); their ends are body or particle rows, repointed when rows
move. ``bslot[entity]`` is the body row of an entity.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .columns import NO_LIMIT
from .derived import inverse_masses
from .errors import WorldError
from .kernels.rigid import inner_radii
from .table import Table

F8, I8 = np.float64, np.int64


class BodyRows:
    """Mixin of ``Store``: the body and joint tables and their packed shapes."""

    bodies: Table
    joints: Table
    tethers: Table

    def _init_bodies(self) -> None:
        self.bslot: dict[int, int] = {}
        #: How many bodies were ever removed (rows move then: contact memory is stale).
        self.removals = 0
        self._pieces_dirty = True
        self._rebuild_pieces()

    # -- bodies -------------------------------------------------------------------------

    def add_bodies(self, entities: Any, values: dict[str, Any], owners: list[Any]) -> list[Any]:
        """Give bodies ``owners`` of ``entities`` their rows, every column in ``values`` as
        given (a loaded file's: ``prev``, ``force``, ``asleep``…); return the owners."""
        prev = values.get("prev")
        for k, (entity, comp) in enumerate(zip(_ints(entities), owners, strict=True)):
            pose = None if prev is None else (*prev[k].tolist(), float(values["prev_angle"][k]))
            self.add_body(entity, comp, prev=pose)
        slots = [c._slot for c in owners]
        _given(self.bodies, slots, values)
        if "kinematic" in values:  # a file's kind: never pushed
            inverse_masses(self.bodies, np.asarray(slots, dtype=np.int64))
            for comp in owners:
                comp._vals["kind"] = comp.kind
        return owners

    def add_body(self, entity: int, comp: Any, prev: tuple[float, float, float] | None = None,
                 ) -> None:
        """Give body ``comp`` of ``entity`` its row (``prev``: previous x, y, angle; else at
        the velocity the component holds)."""
        v, h = comp._vals, self.h
        mass, inertia = v["mass"], v["mass"] * comp._unit_inertia
        if prev is None:
            prev = (v["x"] - v["vx"] * h, v["y"] - v["vy"] * h, v["angle"] - v["omega"] * h)
        extent = max(float(np.sqrt((verts**2).sum(1)).max()) + r for verts, r in comp.pieces)
        values = {"pos": (v["x"], v["y"]), "prev": prev[:2], "angle": v["angle"],
                  "prev_angle": prev[2], "mass": mass, "inertia": inertia,
                  "extent": extent, "entity": entity}
        for name in ("friction", "restitution", "group", "layer", "mask", "events"):
            values[name] = v[name]
        values["kinematic"] = v.get("kind") == "kinematic"
        self.bodies.extend([comp], values)
        inverse_masses(self.bodies, comp._slot)
        comp._table = self.bodies
        comp._entity = entity
        self.bslot[entity] = comp._slot
        self._pieces_dirty = True

    def anchor_body(self, slot: int) -> None:
        """Make body row ``slot`` static where it is (inverse mass and inertia 0, at rest)."""
        c = self.bodies.cols
        if c["kinematic"][slot]:
            raise WorldError(f"entity {c['entity'][slot]} (RigidBody): a kinematic body "
                             "cannot take an Anchor (it moves by its velocity; anchored: "
                             "kind='dynamic' with an Anchor is a static body)")
        c["pinned"][slot] = True
        inverse_masses(self.bodies, slot)
        c["prev"][slot] = c["pos"][slot]
        c["prev_angle"][slot] = c["angle"][slot]

    def free_body(self, slot: int) -> None:
        """Undo ``anchor_body``: the body moves again (from rest)."""
        c = self.bodies.cols
        c["pinned"][slot] = False
        inverse_masses(self.bodies, slot)

    def remove_body(self, comp: Any) -> None:
        """Free the row of body ``comp`` (joints on it are removed by the World first)."""
        del self.bslot[comp._entity]
        self.removals += 1
        last = self.bodies.remove(comp._slot)
        if last != comp._slot:
            moved = self.bodies.owner[comp._slot]
            self.bslot[moved._entity] = comp._slot
            for table in (self.joints, self.tethers):
                for col in (table.a_body, table.b_body):
                    col[col == last] = comp._slot
        self._pieces_dirty = True

    def _rebuild_pieces(self) -> None:
        pieces = [p for comp in self.bodies.owner for p in comp.pieces]
        counts = [len(comp.pieces) for comp in self.bodies.owner]
        self.body_piece_off = np.zeros(len(counts) + 1, dtype=I8)
        self.body_piece_off[1:] = np.cumsum(counts, dtype=I8) if counts else []
        self.piece_vert_off = np.zeros(len(pieces) + 1, dtype=I8)
        self.piece_vert_off[1:] = np.cumsum([len(v) for v, _ in pieces], dtype=I8) \
            if pieces else []
        self.piece_verts = (np.concatenate([v for v, _ in pieces]) if pieces
                            else np.zeros((0, 2)))
        self.piece_radius = np.array([r for _, r in pieces], dtype=F8)
        # each body's thinnest half thickness (px), read by the look and the sweep every frame
        self.body_inner = np.zeros(len(counts))
        if counts:  # (a world without bodies loads no kernel for it)
            inner_radii(len(counts), self.body_piece_off, self.piece_vert_off,
                        self.piece_verts, self.piece_radius, self.body_inner)
        self._pieces_dirty = False

    # -- joints -------------------------------------------------------------------------

    def _end(self, joint: int, name: str, entity: int) -> tuple[int, int]:
        """``(body row, particle row)`` of a joint end (one of them -1)."""
        if entity in self.bslot:
            return self.bslot[entity], -1
        if entity in self.pslot:
            return -1, self.pslot[entity]
        raise WorldError(f"entity {joint} (Joint): field {name} refers to entity {entity}, "
                         "which is neither a RigidBody nor a Particle")

    def add_joints(self, entities: Any, values: dict[str, Any], owners: list[Any]) -> list[Any]:
        """Give joints ``owners`` their rows, each column in ``values`` as given; anchors and
        rest angles that are NaN (or left out) are measured as ``add_joint`` does."""
        for k, (entity, comp) in enumerate(zip(_ints(entities), owners, strict=True)):
            local = _pair(values, "la", "lb", k)
            rest = values["rest_angle"][k] if "rest_angle" in values else math.nan
            self.add_joint(entity, comp, local=local,
                           rest_angle=None if math.isnan(rest) else float(rest))
        _given(self.joints, [c._slot for c in owners], values)
        return owners

    def add_joint(self, entity: int, comp: Any, local: tuple[Any, Any] | None = None,
                  rest_angle: float | None = None) -> None:
        """Give joint ``comp`` its row; anchors measured from ``x, y`` unless ``local`` given."""
        v = comp._vals
        (ab, ap), (bb, bp) = self._end(entity, "a", v["a"]), self._end(entity, "b", v["b"])
        if v["weld"] and (ab < 0 or bb < 0):
            raise WorldError(f"entity {entity} (Joint): field weld needs two rigid bodies "
                             "(a particle has no angle to keep)")
        axis = v.get("axis")
        if axis is not None and ab < 0:
            raise WorldError(f"entity {entity} (Joint): field axis needs a rigid body at end "
                             "a (the axis turns with it)")
        turns = v["lower"] > -NO_LIMIT or v["upper"] < NO_LIMIT or v["motor_torque"] > 0.0
        if turns and ab < 0 and bb < 0:
            raise WorldError(f"entity {entity} (Joint): fields lower, upper and motor_torque "
                             "need a rigid body at one end (particles have no angle)")
        c = self.bodies.cols
        if local is None:
            local = (self._local(ab, v["x"], v["y"]), self._local(bb, v["x"], v["y"]))
        if rest_angle is None:  # the joint angle's zero: the ends' relative angle now
            rest_angle = 0.0
            if v["weld"] or turns or axis is not None:  # a particle end has no angle: 0
                rest_angle = ((float(c["angle"][bb]) if bb >= 0 else 0.0)
                              - (float(c["angle"][ab]) if ab >= 0 else 0.0))
        self.joints.extend([comp], {"a_body": ab, "a_part": ap, "b_body": bb, "b_part": bp,
                                    "la": local[0], "lb": local[1], "weld": v["weld"],
                                    "rest_angle": rest_angle, "max_force": v["max_force"],
                                    "lower": v["lower"], "upper": v["upper"],
                                    "motor_speed": v["motor_speed"],
                                    "motor_torque": v["motor_torque"], "entity": entity,
                                    "collide": v.get("collide", False),
                                    "axis": (0.0, 0.0) if axis is None else
                                    self._local_direction(ab, axis)})
        comp._table = self.joints
        comp._entity = entity

    def _local_direction(self, body: int, d: tuple[float, float]) -> tuple[float, float]:
        """World direction ``d`` in body row ``body``'s coordinates."""
        a = self.bodies.cols["angle"][body]
        co, si = math.cos(a), math.sin(a)
        return (co * d[0] + si * d[1], -si * d[0] + co * d[1])

    def _local(self, body: int, x: float, y: float) -> tuple[float, float]:
        """World point ``(x, y)`` in body row ``body``'s coordinates ((0, 0) for a particle)."""
        if body < 0:
            return (0.0, 0.0)
        c = self.bodies.cols
        dx, dy = x - c["pos"][body, 0], y - c["pos"][body, 1]
        a = c["angle"][body]
        co, si = math.cos(a), math.sin(a)
        return (co * dx + si * dy, -si * dx + co * dy)

    def joints_touching(self, entity: int) -> list[Any]:
        """Joints and tethers (springs on bodies) with an end on ``entity``."""
        return [j for table in (self.joints, self.tethers) for j in table.owner
                if entity in (j._vals["a"], j._vals["b"])]

    def _joint_particle_moved(self, old: int, new: int) -> None:
        for table in (self.joints, self.tethers):
            for col in (table.a_part, table.b_part):
                col[col == old] = new

    # -- tethers: springs with an end on a body ---------------------------------------

    def has_body_end(self, comp: Any) -> bool:
        """Whether spring ``comp`` has an end on a rigid body (a tether)."""
        return comp._vals["a"] in self.bslot or comp._vals["b"] in self.bslot

    def add_tethers(self, entities: Any, values: dict[str, Any],
                    owners: list[Any]) -> list[Any]:
        """Give tethers (springs ``owners`` with a body end) their rows, each column in
        ``values`` as given (anchors left out: 0, the centre of mass; rest NaN: measured)."""
        for k, (entity, comp) in enumerate(zip(_ints(entities), owners, strict=True)):
            row = {name: v[k] for name, v in values.items()}
            row.setdefault("rest", math.nan)
            local = _pair(values, "la", "lb", k) or ((0.0, 0.0), (0.0, 0.0))
            self.add_tether(entity, comp, row, local=local)
        return owners

    def add_tether(self, entity: int, comp: Any, values: dict[str, Any],
                   local: tuple[Any, Any] | None = None) -> None:
        """Give spring ``comp`` with a body end its row; ``values``: its spring columns.

        A body end holds at ``comp.at`` (world, px; None: the centre of mass) unless
        ``local`` gives both anchors in body coordinates (a loaded file).
        """
        v = comp._vals
        (ab, ap), (bb, bp) = self._end(entity, "a", v["a"]), self._end(entity, "b", v["b"])
        if local is None:
            local = tuple(self._local(body, *at) if body >= 0 and at is not None else (0.0, 0.0)
                          for body, at in ((ab, comp.at[0]), (bb, comp.at[1])))
        row = {**values, "a_body": ab, "a_part": ap, "b_body": bb, "b_part": bp,
               "la": local[0], "lb": local[1], "entity": entity}
        self.tethers.extend([comp], {k: val for k, val in row.items() if k not in ("a", "b")})
        comp._table = self.tethers
        comp._entity = entity
        if math.isnan(self.tethers.rest[comp._slot]):  # measured now, as a spring's is
            ends = self.tether_ends()
            rest = float(np.hypot(*(ends[1][comp._slot] - ends[0][comp._slot])))
            self.tethers.rest[comp._slot] = 0.0 if rest < 1e-6 else rest

    def tether_ends(self) -> tuple[np.ndarray, np.ndarray]:
        """World points (px) of every tether's two ends now: two (m, 2) arrays."""
        t, b = self.tethers, self.bodies
        out = []
        for body, part, local in ((t.a_body, t.a_part, t.la), (t.b_body, t.b_part, t.lb)):
            on_body = body >= 0
            pts = self.particles.pos[np.where(on_body, 0, part)] if self.particles.n \
                else np.zeros((t.n, 2))
            rows = np.where(on_body, body, 0)
            ang = b.angle[rows] if b.n else np.zeros(t.n)
            c, s = np.cos(ang), np.sin(ang)
            world = np.stack([c * local[:, 0] - s * local[:, 1],
                              s * local[:, 0] + c * local[:, 1]], axis=1)
            centre = b.pos[rows] if b.n else np.zeros((t.n, 2))
            out.append(np.where(on_body[:, None], centre + world, pts))
        return out[0], out[1]


def _given(table: Any, slots: list[int], values: dict[str, Any]) -> None:
    """Write ``values`` (columns by name, a row each) into rows ``slots``; NaN: keep what is
    there (a value the adder measured)."""
    rows = np.asarray(slots, dtype=np.int64)
    for name, v in values.items():
        v = np.asarray(v)
        if v.dtype.kind == "f":
            keep = ~np.isnan(v) if v.ndim == 1 else ~np.isnan(v).any(axis=1)
            table.cols[name][rows[keep]] = v[keep]
        else:
            table.cols[name][rows] = v
    if "events" in values:
        table.watch_version += 1  # the flags changed (``flags.watched``)
    if "kinematic" in values or "stop" in values:
        table.flag_version += 1  # (``flags.kinematic``, ``flags.stopping``)


def _pair(values: dict[str, Any], a: str, b: str, k: int) -> tuple[Any, Any] | None:
    """Row ``k`` of two (n, 2) columns as a pair of points, or None if left out (NaN)."""
    if a not in values or np.isnan(values[a][k]).any() or np.isnan(values[b][k]).any():
        return None
    return (tuple(values[a][k].tolist()), tuple(values[b][k].tolist()))


def _ints(entities: Any) -> list[int]:
    return np.asarray(entities, dtype=np.int64).reshape(-1).tolist()
