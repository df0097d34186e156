"""The packed store: the hot state of every particle, spring, area and shape as arrays.

Entities and components (in esper) are the truth for structure; this store is
the truth for the hot state, and the only owner of the row layout (declared in
``columns``). It is maintained incrementally: adding a component appends a row,
removing one swap-removes it, and only the small CSR index arrays of areas and
shapes are rebuilt (lazily, before the next step) when an area or shape is added
or a particle row moves. Steady-state frames do no per-entity Python work.
Rows are added through ``add_particles`` and ``add_springs`` (plus ``pin`` and
``set_kind`` for what rides on a particle): ``attach`` calls them with one
component, ``attach_all`` with runs of them (``World.create_entities``), the
loader with a whole file's rows. Each table is made from its column spec
(``TABLES``); the loader reaches every table through the bulk entry point its
spec names (``TableSpec.add``: ``add_bodies``, ``add_joints``, ``add_areas``…).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from . import fruit as _fruit
from . import limits
from .columns import AREAS, BODIES, JOINTS, PARTICLES, SHAPES, SPRINGS, TETHERS, TableSpec
from .components import Anchor, AreaConstraint, Particle, ShapeMatch, Spring, _Rider
from .derived import inverse_masses
from .errors import WorldError
from .flags import any_set
from .kernels.chains import chain_room, chain_scratch
from .kernels.coloring import color_order
from .kernels.distance import measure_rest
from .rigid import Joint, RigidBody
from .store_bodies import BodyRows, _given, _ints
from .table import Table, table_class

F8, I8 = np.float64, np.int64
#: Every table of a store: its attribute, by its column spec.
TABLES = {PARTICLES: "particles", SPRINGS: "springs", AREAS: "areas", SHAPES: "shapes",
          BODIES: "bodies", JOINTS: "joints", TETHERS: "tethers"}
#: Each table's class (one typed view per column) and first capacity, rows.
_CLASSES = {spec: table_class(spec) for spec in TABLES}
_CAPACITY = {PARTICLES: 64, SPRINGS: 64}


class Store(BodyRows):
    """Structure-of-arrays for one World: ``particles``, ``springs``, ``areas``, ``shapes``.

    Each table has one typed view per column (``particles.pos``, ``springs.rest``:
    the live slice of its first ``n`` rows; see ``columns`` for units and
    writers). ``h`` is the substep time, s (``World.dt / World.substeps``).
    ``pslot[entity]`` is the particle row of an entity. Ring and shape members
    are in CSR form: ``area_off`` (areas + 1) and ``area_idx`` (particle rows),
    likewise ``shape_off``, ``shape_idx`` and ``shape_rest`` (rest offsets).
    """

    particles: Table
    springs: Table
    areas: Table
    shapes: Table

    def __init__(self, h: float) -> None:
        self.h = h
        #: Bumped whenever something may have moved (``moved``): the broad phase's version.
        self.poses = 0
        for spec, name in TABLES.items():
            setattr(self, name, _CLASSES[spec](_CAPACITY.get(spec, 8), store=self))
        self.pslot: dict[int, int] = {}
        self._csr_dirty = True
        self._rows_stale = False
        self._rebuild_csr()
        self._order_version = -1
        #: The particle and body tables' versions when rows were frozen (``freeze``), or
        #: None: a row made or deleted since thaws them all (``prepare``).
        self._frozen_at: tuple[int, int] | None = None
        #: Counts changes of the frozen flags (the solver's particle grid follows them).
        self.frozen_version = 0
        self.spring_order = np.zeros(0, dtype=I8)
        #: Room for Project's packed copy of the springs in ``spring_order`` (see
        #: ``kernels.distance.pack_springs``), kept: a substep then allocates nothing.
        self.spring_pack = (np.zeros((0, 2), dtype=I8), np.zeros((0, 3)))
        self.spring_pack_key: Any = None  # what the packed copy is of (Project's)
        #: the packed springs' and the tethers' chains (Project's ``_chains``: count,
        #: offsets, links, their ends, scratch, the tethers' skip, the springs taken)
        #: and what they were found of (``systems.project._chains_key``)
        self.spring_chains: tuple[Any, ...] = (0, *chain_room(0), chain_scratch(0),
                                               np.zeros(0, dtype=bool),
                                               np.zeros(0, dtype=np.int64))
        self.spring_chains_key: Any = None
        self._init_bodies()
        #: Called with an entity whose row a component's setter changed (the World
        #: wakes its island; a bare store does nothing).
        self.woken = _nothing
        #: Called after a bulk write through a table view (the World wakes everything).
        self.woken_all = _nothing_at_all

    def moved(self) -> None:
        """Something may have moved (a stage ran, a position was written): the broad
        phase's kept grids are stale (``physics.broadphase``)."""
        self.poses += 1

    def retime(self, h: float) -> None:
        """Use substep time ``h`` (s) from now on; every particle keeps its velocity.

        Velocity is ``(pos − prev) / h``, so each particle's step ``pos − prev``
        is rescaled by ``h / old h``.
        """
        for table, col, before in ((self.particles, "pos", "prev"), (self.bodies, "pos", "prev"),
                                   (self.bodies, "angle", "prev_angle")):
            now, then = table.cols[col][: table.n], table.cols[before][: table.n]
            then[:] = now - (now - then) * (h / self.h)
        self.h = h
        self.moved()

    def table(self, spec: TableSpec) -> Any:
        """The table of column spec ``spec`` (``store.table(PARTICLES) is store.particles``)."""
        return getattr(self, TABLES[spec])

    # -- adding rows in bulk (the API attaches one, the loader a whole file) -------

    def add_particles(self, entities: Sequence[int] | np.ndarray,
                      values: Mapping[str, Any],
                      owners: list[Particle] | None = None) -> list[Particle]:
        """Give particles of ``entities`` their rows; return their components.

        ``values`` holds columns by name (``pos`` required; ``prev``, ``mass``,
        ``radius``, ``group``, ``friction``, ``restitution``, ``force``, ``kind``):
        an array with a row per entity or one value for all. Left out: ``prev``
        is ``pos`` (at rest), the others their column default; ``w`` follows the
        mass. ``owners`` are the components to bind (made here if not given).
        Anchors pin rows afterwards (``pin``).
        """
        ids = np.asarray(entities, dtype=I8).reshape(-1)
        owners = _unbound(Particle, len(ids)) if owners is None else owners
        cols = dict(values)
        cols.setdefault("prev", cols["pos"])
        cols["pin"] = cols["pos"]
        cols["entity"] = ids
        first = self.particles.extend(owners, cols)
        inverse_masses(self.particles, slice(first, first + len(ids)))
        for comp, entity in zip(owners, ids.tolist(), strict=True):
            comp._table = self.particles
            comp._entity = entity
        self.pslot.update(zip(ids.tolist(), range(first, first + len(ids)), strict=True))
        return owners

    def add_springs(self, entities: Sequence[int] | np.ndarray, values: Mapping[str, Any],
                    owners: list[Spring] | None = None) -> list[Spring]:
        """Give springs of ``entities`` their rows; return their components.

        ``values`` holds columns by name: ``a`` and ``b`` as particle *entities*
        (required), ``rest`` (NaN or left out: the ends' distance now), and
        ``compliance``, ``max_stretch`` (inf: unbreakable), ``stretch``,
        ``broken``, ``buckled``, ``over`` (left out: their column default).
        Raises WorldError naming the spring if an end is not a particle.
        """
        ids = np.asarray(entities, dtype=I8).reshape(-1)
        ia, ib = (self._rows_of(ids, "Spring", key, values[key]) for key in ("a", "b"))
        same = ia == ib
        if same.any():
            raise WorldError(f"entity {ids[same.argmax()]} (Spring): fields a and b are the "
                             "same particle")
        rest = np.asarray(values["rest"] if "rest" in values else np.full(len(ids), np.nan),
                          dtype=F8)
        rest = self._measured_rest(ids, rest, ia, ib)
        if owners is None:
            owners = _unbound(Spring, len(ids), zip(values["a"], values["b"], strict=True))
        self.springs.extend(owners, {**values, "a": ia, "b": ib, "rest": rest, "entity": ids})
        for comp, entity in zip(owners, ids.tolist(), strict=True):
            comp._table = self.springs
            comp._entity = entity
        return owners

    def _rows_of(self, ids: np.ndarray | int, kind: str, field: str,
                 members: Sequence[int] | np.ndarray) -> np.ndarray:
        """Particle rows of particle entities ``members``; ``ids``: whose field lists them.

        ``ids`` is one entity for all (a ring's members) or one per member (spring ends).
        """
        members = members.tolist() if isinstance(members, np.ndarray) else list(members)
        rows = [self.pslot.get(e, -1) for e in members]
        if -1 in rows:
            k = rows.index(-1)
            owner = ids if isinstance(ids, int) else ids[k]
            raise WorldError(f"entity {owner} ({kind}): field {field} refers to entity "
                             f"{members[k]}, which is not a particle")
        return np.array(rows, dtype=I8)

    def _measured_rest(self, ids: np.ndarray, rest: np.ndarray, ia: np.ndarray,
                       ib: np.ndarray) -> np.ndarray:
        """``rest`` with NaN entries measured; a length too short to divide by becomes 0."""
        out, longest = measure_rest(self.particles.cols["pos"], ia, ib, rest, limits.MIN_REST)
        if not longest <= limits.MAX_SPAN:  # ends flung far out (or NaN): a rest no file holds
            _measured(ids, "Spring", "rest", out)
        return out

    def pin(self, rows: Sequence[int] | np.ndarray, at: np.ndarray | None = None) -> None:
        """Pin particle ``rows`` (inverse mass 0) at ``at`` (px, a row each), else in place."""
        c = self.particles.cols
        c["pinned"][rows] = True
        c["pin"][rows] = c["pos"][rows] if at is None else at
        inverse_masses(self.particles, rows)

    def set_kind(self, row: int, kind: int) -> None:
        """Make particle ``row`` a fruit of ``kind``: its radius and mass follow the kind."""
        c = self.particles.cols
        c["kind"][row] = kind
        c["radius"][row] = _fruit.RADII[kind]
        c["mass"][row] = _fruit.mass(kind)
        inverse_masses(self.particles, row)

    def bind_rider(self, entity: int, comp: _Rider) -> Particle:
        """Put ``comp`` (an Anchor or a Fruit) on the particle of ``entity``; return that."""
        slot = self.pslot.get(entity)
        if slot is None and isinstance(comp, Anchor) and entity in self.bslot:
            comp._host = self.bodies.owner[self.bslot[entity]]
            return comp._host
        if slot is None:
            raise WorldError(f"entity {entity} ({type(comp).__name__}): needs a Particle "
                             "on the same entity")
        comp._host = self.particles.owner[slot]
        return comp._host

    # -- attaching one component (the API) ------------------------------------------

    def attach(self, entity: int, comp: Any) -> None:
        """Give ``comp`` (already in esper on ``entity``) its row in the store."""
        if isinstance(comp, Particle):
            self.add_particles([entity], _particle_values(comp._vals, self.h), [comp])
        elif isinstance(comp, _Rider):
            self._attach_rider(entity, comp)
        elif isinstance(comp, Spring) and self.has_body_end(comp):
            values = _spring_values(comp._vals)
            self.add_tether(entity, comp, {k: v[0] if isinstance(v, list) else v
                                           for k, v in values.items()})
        elif isinstance(comp, Spring):
            self.add_springs([entity], _spring_values(comp._vals), [comp])
        elif isinstance(comp, AreaConstraint):
            self._attach_area(entity, comp)
        elif isinstance(comp, ShapeMatch):
            self._attach_shape(entity, comp)
        elif isinstance(comp, RigidBody):
            self.add_body(entity, comp)
        elif isinstance(comp, Joint):
            self.add_joint(entity, comp)

    def attach_all(self, entities: Sequence[int], comps: Sequence[Any]) -> None:
        """``attach`` each of ``comps`` (in esper on ``entities``, in order) at once.

        Runs of particles, and of springs between particles, get their rows in one
        bulk call (``add_particles``, ``add_springs``): the same rows, the same bits
        as attaching one by one, at a fraction of the cost (spawning a jelly ball).
        """
        k = 0
        while k < len(comps):
            kind = self._bulk_kind(comps[k])
            j = k + 1
            while kind is not None and j < len(comps) and self._bulk_kind(comps[j]) is kind:
                j += 1
            if kind is Particle:
                self.add_particles(entities[k:j], _stack([_particle_values(c._vals, self.h)
                                                          for c in comps[k:j]]), comps[k:j])
            elif kind is Spring:
                self.add_springs(entities[k:j], _stack([_spring_values(c._vals)
                                                        for c in comps[k:j]]), comps[k:j])
            else:
                self.attach(entities[k], comps[k])
            k = j

    def _bulk_kind(self, comp: Any) -> type | None:
        """Particle or Spring if ``comp`` may join a bulk run (a tether may not)."""
        if isinstance(comp, Particle):
            return Particle
        if isinstance(comp, Spring) and not self.has_body_end(comp):
            return Spring
        return None

    def _attach_rider(self, entity: int, comp: _Rider) -> None:
        host = self.bind_rider(entity, comp)
        s = host._slot
        self.moved()
        if isinstance(host, RigidBody):
            if comp.at is not None:
                self.bodies.cols["pos"][s] = comp.at
            self.anchor_body(s)
            return
        if not isinstance(comp, Anchor):  # a Fruit
            self.set_kind(s, comp._vals["kind"])
            return
        cols = self.particles.cols
        if comp.at is not None:
            cols["pos"][s] = comp.at
        cols["prev"][s] = cols["pos"][s]  # pinned where it is now, at rest
        self.pin([s])

    def add_areas(self, entities: Any, values: dict[str, Any],
                  owners: list[AreaConstraint]) -> list[AreaConstraint]:
        """Give AreaConstraints ``owners`` of ``entities`` their rows, each column in
        ``values`` as given (``rest_area`` NaN: measured); return the owners."""
        for entity, comp in zip(_ints(entities), owners, strict=True):
            self._attach_area(entity, comp)
        _given(self.areas, [c._slot for c in owners], values)
        return owners

    def add_shapes(self, entities: Any, values: dict[str, Any],
                   owners: list[ShapeMatch]) -> list[ShapeMatch]:
        """Give shapes ``owners`` of ``entities`` their rows, each column in ``values`` as
        given; return the owners."""
        for entity, comp in zip(_ints(entities), owners, strict=True):
            self._attach_shape(entity, comp)
        _given(self.shapes, [c._slot for c in owners], values)
        return owners

    def _attach_area(self, entity: int, c: AreaConstraint) -> None:
        v = c._vals
        slots = self._rows_of(entity, "AreaConstraint", "particles", v["particles"])
        rest = v["rest_area"]
        if rest is None:
            xy = self.particles.cols["pos"][slots]
            rest = 0.5 * float(np.sum(xy[:, 0] * np.roll(xy[:, 1], -1)
                                      - np.roll(xy[:, 0], -1) * xy[:, 1]))
            _measured(np.array([entity]), "AreaConstraint", "rest_area", np.array([rest]))
        self.areas.extend([c], {"rest_area": rest, "pressure": v["pressure"],
                              "stiffness": v["stiffness"],
                              "self_collide": v.get("self_collide", False)})
        c._rows = slots
        c._table = self.areas
        c._entity = entity
        self._csr_dirty = True

    def _attach_shape(self, entity: int, c: ShapeMatch) -> None:
        v = c._vals
        slots = self._rows_of(entity, "ShapeMatch", "particles", v["particles"])
        if v["rest"] is None:
            cols = self.particles.cols
            xy, m = cols["pos"][slots], _weights(cols["mass"][slots])
            rest = xy - (m[:, None] * xy).sum(0) / m.sum()
            _measured(np.full(rest.size, entity), "ShapeMatch", "rest", rest.ravel())
            v["rest"] = rest.tolist()
        elif len(v["rest"]) != len(slots):
            raise WorldError(f"entity {entity} (ShapeMatch): field rest has {len(v['rest'])} "
                             f"offsets for {len(slots)} particles")
        self.shapes.extend([c], {"alpha": v["alpha"], "scale": v["scale"]})
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
        if isinstance(comp, RigidBody):
            self.remove_body(comp)
        elif isinstance(comp, Particle):
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
        if isinstance(host, RigidBody):
            self.free_body(s)
        elif isinstance(comp, Anchor):
            cols["pinned"][s] = False
            inverse_masses(self.particles, s)
        else:
            cols["kind"][s] = -1
        comp._host = None

    def _particle_moved(self, old: int, new: int) -> None:
        """Particle row ``old`` now lives at ``new``: repoint springs and the entity map."""
        self.pslot[self.particles.owner[new]._entity] = new
        if self.springs.n:  # (a comparison of no rows still cost ~1 µs each)
            for col in (self.springs.a, self.springs.b):
                col[col == old] = new
        if self.joints.n or self.tethers.n:
            self._joint_particle_moved(old, new)

    def springs_touching(self, slot: int) -> list[Spring]:
        """Springs with an end at particle row ``slot``."""
        if not self.springs.n:
            return []
        a, b = self.springs.a, self.springs.b
        return [self.springs.owner[i] for i in np.flatnonzero((a == slot) | (b == slot))]

    def constraints_touching(self, entity: int) -> list[Any]:
        """Area and shape constraints that list particle ``entity``."""
        owners = self.areas.owner + self.shapes.owner
        return [c for c in owners if entity in c._vals["particles"]]

    # -- ring and shape index arrays ------------------------------------------------

    def freeze(self, particles: np.ndarray, bodies: np.ndarray) -> None:
        """Solve the flagged sleeping rows as static until ``thaw`` (``sleeping.freeze``)."""
        for table, rows in ((self.particles, particles), (self.bodies, bodies)):
            table.frozen[:] = rows
            inverse_masses(table, np.flatnonzero(rows))
        self._frozen_at = (self.particles.version, self.bodies.version)
        self.frozen_version += 1

    @property
    def any_frozen(self) -> bool:
        """Whether some rows are frozen now (``freeze``)."""
        return self._frozen_at is not None

    def thaw(self, particles: np.ndarray | None = None,
             bodies: np.ndarray | None = None) -> None:
        """Give frozen rows their inverse masses back: those flagged in the boolean masks
        ``particles`` and ``bodies`` (None: all)."""
        if self._frozen_at is None:
            return
        for table, mask in ((self.particles, particles), (self.bodies, bodies)):
            cold = np.flatnonzero(table.frozen if mask is None else table.frozen & mask)
            if len(cold):
                table.cols["frozen"][cold] = False
                inverse_masses(table, cold)
                self.frozen_version += 1
        if not (any_set(self.particles.frozen) or any_set(self.bodies.frozen)):
            self._frozen_at = None

    def prepare(self) -> None:
        """Rebuild the derived index arrays (CSR, spring order) if the structure changed."""
        if self._frozen_at is not None and self._frozen_at != (self.particles.version,
                                                               self.bodies.version):
            self.thaw()  # a row came or went mid-frame: what froze may be within its reach
        if self._csr_dirty:
            self._rebuild_csr()
        if self._pieces_dirty:
            self._rebuild_pieces()
        if self._order_version != self.springs.version:
            c = self.springs.cols
            self.spring_order = color_order(self.springs.n, c["a"], c["b"], self.particles.n)
            m = len(self.spring_order)
            self.spring_pack = (np.zeros((m, 2), dtype=I8), np.zeros((m, 3)))
            self._order_version = self.springs.version

    def _rebuild_csr(self) -> None:
        if self._rows_stale:  # particle rows moved: look the members up again
            for c in self.areas.owner + self.shapes.owner:
                c._rows = self._rows_of(c._entity, type(c).__name__, "particles",
                                        c._vals["particles"])
            self._rows_stale = False
        areas = [c._rows for c in self.areas.owner]
        shapes = [c._rows for c in self.shapes.owner]
        self.area_off, self.area_idx = _csr(areas)
        self.shape_off, self.shape_idx = _csr(shapes)
        rest = [np.asarray(c._vals["rest"], dtype=F8).reshape(-1, 2) for c in self.shapes.owner]
        self.shape_rest = np.concatenate(rest) if rest else np.zeros((0, 2))
        outlines = areas + [s for s, c in zip(shapes, self.shapes.owner, strict=True)
                            if c._vals["outline"]]
        self.outline_off, self.outline_idx = _csr(outlines)
        self.scratch = np.zeros((max(len(self.area_idx), 1), 2))
        self._csr_dirty = False

    # -- copying ----------------------------------------------------------------------

    def copy(self) -> tuple[Store, dict[int, Any]]:
        """An independent copy and a map ``id(old component) -> new component``."""
        new = Store.__new__(Store)
        new.__dict__.update(self.__dict__)
        new.pslot, new.bslot = dict(self.pslot), dict(self.bslot)
        mapping: dict[int, Any] = {}
        for name in TABLES.values():
            old = getattr(self, name)
            table = old.copy()
            table.store = new
            for slot, comp in enumerate(old.owner):
                twin = _twin(comp)
                twin._table = table
                twin._slot = slot
                table.owner[slot] = twin
                mapping[id(comp)] = twin
            setattr(new, name, table)
        new._csr_dirty = new._rows_stale = True
        new._rebuild_csr()
        new.spring_pack = tuple(a.copy() for a in self.spring_pack)  # its own, not shared
        new.spring_pack_key = None  # packed again (and its chains found) at the next step
        new.spring_chains_key = None
        return new, mapping


def _nothing(entity: int) -> None:
    """The store's ``woken`` hook before a World sets its own."""


def _nothing_at_all() -> None:
    """The store's ``woken_all`` hook before a World sets its own."""


def _unbound(cls: type, count: int, ends: Any = None) -> list[Any]:
    """``count`` components of ``cls`` for rows the store fills (a loaded file's).

    They skip the constructor's checks: the loader checked every value against
    the same limits already, and a bound component reads its values from its row.
    Springs keep their end entities (``ends``: ``(a, b)`` pairs).
    """
    out = []
    for pair in ends if ends is not None else range(count):
        comp = object.__new__(cls)
        vals = {"a": int(pair[0]), "b": int(pair[1])} if ends is not None else {}
        comp.__dict__.update(_table=None, _slot=-1, _entity=-1, _vals=vals)
        out.append(comp)
    return out


def _particle_values(v: dict[str, Any], h: float) -> dict[str, Any]:
    """A Particle's own values as store columns (velocity as the previous position)."""
    x, y = v["x"], v["y"]
    return {"pos": (x, y), "prev": (x - v["vx"] * h, y - v["vy"] * h), "mass": v["mass"],
            "radius": v["radius"], "group": v["group"], "friction": v["friction"],
            "restitution": v["restitution"], "layer": v["layer"], "mask": v["mask"],
            "events": v["events"]}


def _spring_values(v: dict[str, Any]) -> dict[str, Any]:
    """A Spring's own values as store columns (``a``/``b`` still entities)."""
    ms, rest = v["max_stretch"], v["rest"]
    return {"a": [v["a"]], "b": [v["b"]], "rest": [math.nan if rest is None else rest],
            "compliance": v["compliance"], "max_stretch": math.inf if ms is None else ms,
            "stretch": v["stretch"], "broken": v["broken"], "buckled": v["buckled"],
            "over": v["over"]}


def _stack(rows: list[dict[str, Any]]) -> dict[str, np.ndarray]:
    """Per-component column values → one array per column (a list value: its one row)."""
    return {key: np.array([r[key][0] if isinstance(r[key], list) else r[key] for r in rows])
            for key in rows[0]}


def _measured(ids: np.ndarray, kind: str, field: str, values: np.ndarray) -> None:
    """Refuse a rest length, area or shape measured out of range (``ids``: a value's entity).

    Positions within range give measurements within range, except after a run
    flung particles far out, or for a ring wound round many times.
    """
    rng = limits.FIELDS[kind][field]
    ok = rng.mask(values)
    if not ok.all():
        k = int(np.argmin(ok))
        raise WorldError(f"entity {ids[k]} ({kind}): field {field} measured {values[k]}, "
                         f"which is not {rng.describe()}")


def _twin(comp: Any) -> Any:
    twin = object.__new__(type(comp))
    twin.__dict__.update(comp.__dict__)
    twin._vals = {k: (list(v) if isinstance(v, list) else v) for k, v in comp._vals.items()}
    return twin


def _snapshot(comp: Any) -> dict[str, Any]:
    return {name: getattr(comp, name) for name in comp._fields}


def _weights(mass: np.ndarray) -> np.ndarray:
    """Masses for centroids; an infinite mass counts as a very heavy particle."""
    return np.where(np.isfinite(mass), mass, limits.MAX_MASS)


def _csr(groups: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    off = np.zeros(len(groups) + 1, dtype=I8)
    if groups:
        off[1:] = np.cumsum([len(g) for g in groups])
        return off, np.concatenate(groups).astype(I8)
    return off, np.zeros(0, dtype=I8)
