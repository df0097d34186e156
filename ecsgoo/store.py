"""The packed store: the hot state of every particle, spring, ring and shape as arrays.

Entities and components (in esper) are the truth for structure; this store is
the truth for the hot state. It is maintained incrementally: adding a component
appends a row, removing one swap-removes it, and only the small CSR index arrays
of rings and shapes are rebuilt (lazily, before the next step) when a ring or
shape is added or a particle row moves. Steady-state frames do no per-entity
Python work.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import fruit as _fruit
from .components import AreaConstraint, Particle, ShapeMatch, Spring, _Rider
from .errors import WorldError
from .kernels.coloring import color_order
from .table import Table

F8, I8, B1 = np.float64, np.int64, np.bool_

#: Particle columns. pos/prev/w/pinned/pin are touched every substep.
PARTICLE_COLUMNS = {
    "pos": (F8, 2), "prev": (F8, 2), "w": (F8, 0), "radius": (F8, 0), "group": (I8, 0),
    "friction": (F8, 0), "restitution": (F8, 0), "pinned": (B1, 0), "pin": (F8, 2),
    "force": (F8, 2), "mass": (F8, 0), "kind": (I8, 0), "entity": (I8, 0),
}
#: Spring columns; ``lam`` is the XPBD multiplier, reset every substep.
SPRING_COLUMNS = {
    "a": (I8, 0), "b": (I8, 0), "rest": (F8, 0), "compliance": (F8, 0), "lam": (F8, 0),
    "max_stretch": (F8, 0), "stretch": (F8, 0), "broken": (B1, 0), "buckled": (B1, 0),
    "over": (I8, 0), "entity": (I8, 0),
}
RING_COLUMNS = {"rest_area": (F8, 0), "pressure": (F8, 0), "stiffness": (F8, 0)}
SHAPE_COLUMNS = {"alpha": (F8, 0)}


class Store:
    """Structure-of-arrays for one World: ``particles``, ``springs``, ``rings``, ``shapes``.

    ``pslot[entity]`` is the particle row of an entity. Ring and shape members
    are in CSR form: ``ring_off`` (rings + 1) and ``ring_idx`` (particle rows),
    likewise ``shape_off``, ``shape_idx`` and ``shape_rest`` (rest offsets).
    """

    def __init__(self, h: float) -> None:
        self.particles = Table(PARTICLE_COLUMNS)
        self.springs = Table(SPRING_COLUMNS)
        self.rings = Table(RING_COLUMNS, 8)
        self.shapes = Table(SHAPE_COLUMNS, 8)
        self.particles.h = h
        self.pslot: dict[int, int] = {}
        self._csr_dirty = True
        self._rows_stale = False
        self._rebuild_csr()
        self._order_version = -1
        self.spring_order = self.spring_order_reversed = np.zeros(0, dtype=I8)

    # -- attaching components -------------------------------------------------

    def attach(self, entity: int, comp: Any) -> None:
        """Give ``comp`` (already in esper on ``entity``) its row in the store."""
        if isinstance(comp, Particle):
            self._attach_particle(entity, comp)
        elif isinstance(comp, _Rider):
            self._attach_rider(entity, comp)
        elif isinstance(comp, Spring):
            self._attach_spring(entity, comp)
        elif isinstance(comp, AreaConstraint):
            self._attach_ring(entity, comp)
        elif isinstance(comp, ShapeMatch):
            self._attach_shape(entity, comp)

    def _attach_particle(self, entity: int, p: Particle) -> None:
        v = p._vals
        h = self.particles.h
        pos = (v["x"], v["y"])
        w = 0.0 if math.isinf(v["mass"]) else 1.0 / v["mass"]
        slot = self.particles.append(p, {
            "pos": pos, "prev": (pos[0] - v["vx"] * h, pos[1] - v["vy"] * h), "w": w,
            "radius": v["radius"], "group": v["group"], "friction": v["friction"],
            "restitution": v["restitution"], "pin": pos, "mass": v["mass"], "kind": -1,
            "entity": entity,
        })
        p._table = self.particles
        p._entity = entity
        self.pslot[entity] = slot

    def _host(self, entity: int, comp: Any) -> Particle:
        slot = self.pslot.get(entity)
        if slot is None:
            raise WorldError(f"entity {entity} ({type(comp).__name__}): needs a Particle "
                             "on the same entity")
        return self.particles.owner[slot]

    def _attach_rider(self, entity: int, comp: _Rider) -> None:
        host = self._host(entity, comp)
        cols, s = self.particles.cols, host._slot
        if type(comp).__name__ == "Anchor":
            if comp.at is not None:
                cols["pos"][s] = comp.at
            cols["pinned"][s] = True
            cols["pin"][s] = cols["pos"][s]
            cols["prev"][s] = cols["pos"][s]
            cols["w"][s] = 0.0
        else:  # Fruit: size and mass follow the kind
            kind = comp._vals["kind"]
            cols["kind"][s] = kind
            cols["radius"][s] = _fruit.RADII[kind]
            cols["mass"][s] = _fruit.mass(kind)
            cols["w"][s] = 0.0 if cols["pinned"][s] else 1.0 / cols["mass"][s]
        comp._host = host

    def _slots_of(self, entity: int, kind: str, field: str, members: list[int]) -> np.ndarray:
        out = np.empty(len(members), dtype=I8)
        for i, e in enumerate(members):
            slot = self.pslot.get(e)
            if slot is None:
                raise WorldError(f"entity {entity} ({kind}): field {field} refers to entity "
                                 f"{e}, which is not a particle")
            out[i] = slot
        return out

    def _attach_spring(self, entity: int, s: Spring) -> None:
        v = s._vals
        ia, ib = self._slots_of(entity, "Spring", "a/b", [v["a"], v["b"]])
        if ia == ib:
            raise WorldError(f"entity {entity} (Spring): fields a and b are the same particle")
        pos = self.particles.cols["pos"]
        rest = v["rest"]
        if rest < 0:
            rest = float(np.hypot(*(pos[ib] - pos[ia])))
        ms = v["max_stretch"]
        self.springs.append(s, {
            "a": ia, "b": ib, "rest": rest, "compliance": v["compliance"],
            "max_stretch": math.inf if ms is None else ms, "stretch": v["stretch"],
            "broken": v["broken"], "buckled": v["buckled"], "over": v["over"], "entity": entity,
        })
        s._table = self.springs
        s._entity = entity

    def _attach_ring(self, entity: int, c: AreaConstraint) -> None:
        v = c._vals
        slots = self._slots_of(entity, "AreaConstraint", "particles", v["particles"])
        rest = v["rest_area"]
        if math.isnan(rest):
            xy = self.particles.cols["pos"][slots]
            rest = 0.5 * float(np.sum(xy[:, 0] * np.roll(xy[:, 1], -1)
                                      - np.roll(xy[:, 0], -1) * xy[:, 1]))
        self.rings.append(c, {"rest_area": rest, "pressure": v["pressure"],
                              "stiffness": v["stiffness"]})
        c._rows = slots
        c._table = self.rings
        c._entity = entity
        self._csr_dirty = True

    def _attach_shape(self, entity: int, c: ShapeMatch) -> None:
        v = c._vals
        slots = self._slots_of(entity, "ShapeMatch", "particles", v["particles"])
        if v["rest"] is None:
            cols = self.particles.cols
            xy, m = cols["pos"][slots], _weights(cols["mass"][slots])
            v["rest"] = (xy - (m[:, None] * xy).sum(0) / m.sum()).tolist()
        elif len(v["rest"]) != len(slots):
            raise WorldError(f"entity {entity} (ShapeMatch): field rest has {len(v['rest'])} "
                             f"offsets for {len(slots)} particles")
        self.shapes.append(c, {"alpha": v["alpha"]})
        c._rows = slots
        c._table = self.shapes
        c._entity = entity
        self._csr_dirty = True

    # -- detaching ----------------------------------------------------------------

    def detach(self, comp: Any) -> None:
        """Free the row of ``comp``; the component keeps its last values, unbound."""
        if isinstance(comp, _Rider):
            self._detach_rider(comp)
            return
        table = getattr(comp, "_table", None)  # a game's plain component has no row
        if table is None:
            return
        comp._vals.update(_snapshot(comp))
        if isinstance(comp, Particle):
            del self.pslot[comp._entity]
            last = table.remove(comp._slot)
            if last != comp._slot:
                self._particle_moved(last, comp._slot)
            self._csr_dirty = self._rows_stale = True
        else:
            table.remove(comp._slot)
            if table is not self.springs:
                self._csr_dirty = True
        comp._table = None
        comp._slot = -1

    def _detach_rider(self, comp: _Rider) -> None:
        host = comp._host
        if host is None or host._table is None:
            comp._host = None
            return
        comp._vals.update(_snapshot(comp))
        cols, s = self.particles.cols, host._slot
        if type(comp).__name__ == "Anchor":
            cols["pinned"][s] = False
            cols["w"][s] = 1.0 / cols["mass"][s]
        else:
            cols["kind"][s] = -1
        comp._host = None

    def _particle_moved(self, old: int, new: int) -> None:
        """Particle row ``old`` now lives at ``new``: repoint springs and the entity map."""
        self.pslot[self.particles.owner[new]._entity] = new
        m = self.springs.n
        for name in ("a", "b"):
            col = self.springs.cols[name][:m]
            col[col == old] = new

    def springs_touching(self, slot: int) -> list[Spring]:
        """Springs with an end at particle row ``slot``."""
        m = self.springs.n
        a, b = self.springs.cols["a"][:m], self.springs.cols["b"][:m]
        return [self.springs.owner[i] for i in np.flatnonzero((a == slot) | (b == slot))]

    def constraints_touching(self, entity: int) -> list[Any]:
        """Area and shape constraints that list particle ``entity``."""
        owners = self.rings.owner + self.shapes.owner
        return [c for c in owners if entity in c._vals["particles"]]

    # -- ring and shape index arrays ------------------------------------------------

    def prepare(self) -> None:
        """Rebuild the derived index arrays (CSR, spring order) if the structure changed."""
        if self._csr_dirty:
            self._rebuild_csr()
        if self._order_version != self.springs.version:
            c = self.springs.cols
            self.spring_order = color_order(self.springs.n, c["a"], c["b"], self.particles.n)
            self.spring_order_reversed = self.spring_order[::-1].copy()
            self._order_version = self.springs.version

    def _rebuild_csr(self) -> None:
        if self._rows_stale:  # particle rows moved: look the members up again
            for c in self.rings.owner + self.shapes.owner:
                c._rows = self._slots_of(c._entity, type(c).__name__, "particles",
                                         c._vals["particles"])
            self._rows_stale = False
        rings = [c._rows for c in self.rings.owner]
        shapes = [c._rows for c in self.shapes.owner]
        self.ring_off, self.ring_idx = _csr(rings)
        self.shape_off, self.shape_idx = _csr(shapes)
        rest = [np.asarray(c._vals["rest"], dtype=F8).reshape(-1, 2) for c in self.shapes.owner]
        self.shape_rest = np.concatenate(rest) if rest else np.zeros((0, 2))
        outlines = rings + [s for s, c in zip(shapes, self.shapes.owner, strict=True)
                            if c._vals["outline"]]
        self.outline_off, self.outline_idx = _csr(outlines)
        self.scratch = np.zeros((max(len(self.ring_idx), 1), 2))
        self._csr_dirty = False

    # -- copying ----------------------------------------------------------------------

    def copy(self) -> tuple[Store, dict[int, Any]]:
        """An independent copy and a map ``id(old component) -> new component``."""
        new = Store.__new__(Store)
        new.__dict__.update(self.__dict__)
        new.pslot = dict(self.pslot)
        mapping: dict[int, Any] = {}
        for name in ("particles", "springs", "rings", "shapes"):
            old = getattr(self, name)
            table = old.copy()
            table.h = getattr(old, "h", None)
            for slot, comp in enumerate(old.owner):
                twin = _twin(comp)
                twin._table = table
                twin._slot = slot
                table.owner[slot] = twin
                mapping[id(comp)] = twin
            setattr(new, name, table)
        new._csr_dirty = new._rows_stale = True
        new._rebuild_csr()
        return new, mapping


def _twin(comp: Any) -> Any:
    twin = object.__new__(type(comp))
    twin.__dict__.update(comp.__dict__)
    twin._vals = {k: (list(v) if isinstance(v, list) else v) for k, v in comp._vals.items()}
    return twin


def _snapshot(comp: Any) -> dict[str, Any]:
    return {name: getattr(comp, name) for name in comp._fields}


def _weights(mass: np.ndarray) -> np.ndarray:
    """Masses for centroids; an infinite mass counts as a very heavy particle."""
    return np.where(np.isfinite(mass), mass, 1e12)


def _csr(groups: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    off = np.zeros(len(groups) + 1, dtype=I8)
    if groups:
        off[1:] = np.cumsum([len(g) for g in groups])
        return off, np.concatenate(groups).astype(I8)
    return off, np.zeros(0, dtype=I8)
