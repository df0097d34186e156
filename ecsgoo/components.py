"""The built-in components: Particle, Spring, AreaConstraint, ShapeMatch, Fruit, Anchor.

Before a component is added to a World it holds its own values. Once added, it
becomes a *view* on its row of the World's packed store: reading gives the
current value, writing goes straight into the arrays and takes effect on the
next step. Units are pixels, seconds and (arbitrary) mass units; y points up.
Constructors and setters check every value against ``limits.FIELDS`` (a
``WorldError`` names the field), so whatever they accept saves and loads back;
defaults are the store's column defaults (``columns``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import limits
from .columns import AREAS, PARTICLES, SHAPES, SPRINGS
from .derived import inverse_masses
from .errors import WorldError
from .limits import STIFFNESS_SCALE  # noqa: F401  (kept importable from here for games)

#: The column defaults (``columns``) the constructors' defaults come from.
_P, _S, _R = ({c.name: c.default for c in t.columns} for t in (PARTICLES, SPRINGS, AREAS))


#: The Python type a column's values are read as, by dtype.
_CASTS = {np.dtype(np.float64): float, np.dtype(np.int64): int, np.dtype(np.bool_): bool}


class _Field:
    """A view on the column of the same name (or ``col``, element ``k``) of the bound table.

    The column (in the owner's ``_spec``, ``columns``) declares the field: its
    dtype gives the type read, its range (``limits.FIELDS``, which the columns
    fill) checks every write; a flag has none and is cast. A write to a bound
    component wakes its entity (``wakes``): a sleeping thing feels it.
    """

    def __init__(self, col: str = "", k: int | None = None, wakes: bool = True) -> None:
        self.col, self.k, self.wakes = col, k, wakes

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.owner = name, owner.__name__
        self.col = self.col or name
        self.cast = _CASTS[np.dtype(owner._spec[self.col].dtype)]
        self.range = limits.FIELDS.get(self.owner, {}).get(name)

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        table = obj._table
        if table is None:
            return obj._vals[self.name]
        col = table.cols[self.col]
        raw = col[obj._slot] if self.k is None else col[obj._slot, self.k]
        return self.cast(raw)

    def __set__(self, obj: Any, value: Any) -> None:
        if self.range is None:
            value = self.cast(value)
        else:
            value = self.range.check(value, self.owner, self.name)
        table = obj._table
        if table is None:
            obj._vals[self.name] = value
            return
        if self.k is None:
            table.cols[self.col][obj._slot] = value
        else:
            table.cols[self.col][obj._slot, self.k] = value
        if self.wakes:
            table.store.woken(obj._entity)  # a sleeping thing feels what changed


class _Watched(_Field):
    """The ``events`` flag: a write to a bound component is also counted in its table's
    ``watch_version`` ("is anything watched?" is kept by it, ``flags.watched``)."""

    def __set__(self, obj: Any, value: Any) -> None:
        super().__set__(obj, value)
        if obj._table is not None:
            obj._table.watch_version += 1


class _Measured(_Field):
    """A field the store measures when the component is added if it is still ``None``.

    (A spring's rest length, a ring's rest area.) Once added it is a number.
    """

    def __set__(self, obj: Any, value: Any) -> None:
        if value is None and obj._table is None:
            obj._vals[self.name] = None
            return
        super().__set__(obj, value)


class Component:
    """Base of the built-in components (values local until bound to a store row)."""

    _fields: tuple[str, ...] = ()

    def __init__(self, **values: Any) -> None:
        # object's own setattr: what is set here is known, and checking it in
        # ``__setattr__`` doubled the cost of making a component
        put = object.__setattr__
        put(self, "_table", None)
        put(self, "_slot", -1)
        put(self, "_vals", {})
        for name in self._fields:
            put(self, name, values[name])

    #: The names ``__setattr__`` lets through at once (fields and writable properties,
    #: per class, ``__init_subclass__``); any other goes through its checks.
    _writable: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._writable = frozenset(
            n for n in dir(cls) if isinstance(a := getattr(cls, n, None), _Field)
            or (isinstance(a, property) and a.fset is not None))

    def __setattr__(self, name: str, value: Any) -> None:
        """Fields and writable properties only: a typo on a component in a world
        (``body.frction = 0``) or a field fixed when the component was made
        (``joint.a = 5``) is a WorldError naming it, not a new attribute that nothing
        reads or Python's bare AttributeError."""
        if name[0] != "_" and name not in self._writable:
            self._check_new(name)
        object.__setattr__(self, name, value)

    def _check_new(self, name: str) -> None:
        """``__setattr__``'s checks of a name that is not a known writable one."""
        attr = getattr(type(self), name, None)
        if (attr is None and name not in self.__dict__
                and getattr(self, "_table", None) is not None):
            raise WorldError(f"{type(self).__name__}: no field {name!r} (fields: "
                             f"{', '.join(self._fields)})")
        if isinstance(attr, property) and attr.fset is None:
            kind = type(self).__name__
            why = (f"it is fixed when the {kind} is made" if name in self._fields
                   else "the world writes it")
            raise WorldError(f"{kind}: field {name} is read-only: {why}")

    def as_dict(self) -> dict[str, Any]:
        """The component's fields and their current values."""
        return {name: getattr(self, name) for name in self._fields}

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items())
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.as_dict() == other.as_dict()

    __hash__ = object.__hash__


class Particle(Component):
    """A point mass: goo ball, rope node, jelly vertex, fruit, candy.

    ``x, y`` position (px); ``vx, vy`` velocity (px/s, derived from the previous
    position: Verlet); ``mass`` (``math.inf`` = immovable); ``radius`` (px) for
    collisions; ``group``: particles sharing a non-zero group (one body) do not
    collide with each other; ``layer`` and ``mask`` (bit sets, default 1 and all):
    two particles collide only when each one's ``mask`` holds the other's
    ``layer``; ``events``: its contacts dispatch ``contact_began`` /
    ``contact_ended`` (see ``ecsgoo.contact_events``); ``friction`` (Coulomb coefficient) and
    ``restitution`` (0 = no bounce, 1 = elastic). Integrate and Collide write
    the position; writing ``x``/``y`` keeps the velocity, writing ``vx``/``vy``
    sets it. Ranges: ``limits.FIELDS["Particle"]``.
    """

    _spec = PARTICLES
    _fields = ("x", "y", "vx", "vy", "mass", "radius", "group", "friction", "restitution",
               "layer", "mask", "events")
    def __init__(self, x: float, y: float, mass: float = _P["mass"],
                 radius: float = _P["radius"], group: int = _P["group"],
                 friction: float = _P["friction"], restitution: float = _P["restitution"],
                 vx: float = 0.0, vy: float = 0.0, layer: int = _P["layer"],
                 mask: int = _P["mask"], events: bool = _P["events"]) -> None:
        self._entity = -1
        super().__init__(x=x, y=y, vx=vx, vy=vy, mass=mass, radius=radius, group=group,
                         friction=friction, restitution=restitution, layer=layer, mask=mask,
                         events=bool(events))

    radius = _Field()
    group = _Field()
    layer = _Field()
    mask = _Field()
    events = _Watched(wakes=False)  # what it reports, not what it feels
    friction = _Field()
    restitution = _Field()

    def _h(self) -> float:
        return self._table.store.h

    def _axis(self, k: int) -> float:
        return float(self._table.cols["pos"][self._slot, k])

    def _move(self, k: int, value: float, name: str) -> None:
        value = limits.check("Particle", name, value)
        if self._table is None:
            self._vals[name] = value
            return
        self._table.store.woken(self._entity)
        self._table.store.moved()
        cols, s = self._table.cols, self._slot
        delta = value - cols["pos"][s, k]
        cols["pos"][s, k] = value
        cols["prev"][s, k] += delta  # keep the velocity
        if cols["pinned"][s]:
            cols["pin"][s, k] = value
        else:  # placed here: Merge's spawn point (a file has no other, loading sets pin = pos)
            cols["pin"][s] = cols["pos"][s]

    def _velocity(self, k: int) -> float:
        cols, s = self._table.cols, self._slot
        return float((cols["pos"][s, k] - cols["prev"][s, k]) / self._h())

    def _set_velocity(self, k: int, value: float, name: str) -> None:
        value = limits.check("Particle", name, value)
        if self._table is None:
            self._vals[name] = value
            return
        self._table.store.woken(self._entity)
        cols, s = self._table.cols, self._slot
        cols["prev"][s, k] = cols["pos"][s, k] - value * self._h()

    x = property(lambda self: self._vals["x"] if self._table is None else self._axis(0),
                 lambda self, v: self._move(0, v, "x"), doc="Position x, px.")
    y = property(lambda self: self._vals["y"] if self._table is None else self._axis(1),
                 lambda self, v: self._move(1, v, "y"), doc="Position y, px.")
    vx = property(lambda self: self._vals["vx"] if self._table is None else self._velocity(0),
                  lambda self, v: self._set_velocity(0, v, "vx"), doc="Velocity x, px/s.")
    vy = property(lambda self: self._vals["vy"] if self._table is None else self._velocity(1),
                  lambda self, v: self._set_velocity(1, v, "vy"), doc="Velocity y, px/s.")

    @property
    def mass(self) -> float:
        """Mass; ``math.inf`` makes the particle immovable (inverse mass 0)."""
        if self._table is None:
            return self._vals["mass"]
        return float(self._table.cols["mass"][self._slot])

    @mass.setter
    def mass(self, value: float) -> None:
        value = limits.check("Particle", "mass", value)
        if self._table is None:
            self._vals["mass"] = value
            return
        self._table.store.woken(self._entity)
        cols, s = self._table.cols, self._slot
        cols["mass"][s] = value
        inverse_masses(self._table, s)

    @property
    def entity(self) -> int:
        """The entity this particle belongs to (-1 before it is added to a world)."""
        return self._entity


class _Rider(Component):
    """A component that adds columns to the Particle row of the same entity."""

    def __init__(self, **values: Any) -> None:
        self._host: Particle | None = None
        super().__init__(**values)

    @property
    def _table(self) -> Any:
        return None if self._host is None else self._host._table

    @_table.setter
    def _table(self, value: Any) -> None:
        pass  # the host particle's table is the one that counts

    @property
    def _slot(self) -> int:
        return -1 if self._host is None else self._host._slot

    @_slot.setter
    def _slot(self, value: int) -> None:
        pass


class Anchor(_Rider):
    """Pins its particle (inverse mass 0) where it is, or at ``(x, y)`` px if given.

    Writing the particle's position moves the pin too: that is how a game moves
    a pin or a cliff.
    """

    _fields = ()

    def __init__(self, x: float | None = None, y: float | None = None) -> None:
        super().__init__()
        self.at = None if x is None or y is None else (limits.check("Anchor", "x", x),
                                                      limits.check("Anchor", "y", y))

    def as_dict(self) -> dict[str, Any]:
        return {}


class Fruit(_Rider):
    """Marks a particle as a fruit of ``kind`` (0..10, see ``ecsgoo.fruit``).

    Adding it sets the particle's radius and mass from the kind table.
    """

    _spec = PARTICLES
    _fields = ("kind",)

    def __init__(self, kind: int) -> None:
        super().__init__(kind=limits.check("Fruit", "kind", kind))

    kind = _Field()


class Spring(Component):
    """A distance link between particle entities ``a`` and ``b`` (its own entity).

    ``rest`` length (px; ``None`` = their distance when added); ``stiffness`` in
    (0, 1] (1 = as stiff as the solver allows) or ``compliance`` (XPBD, px per
    unit force, independent of substeps and iterations; ``limits.compliance_of``
    maps one to the other); ``max_stretch``: ratio of rest length past which it
    breaks after ``break_frames`` frames (``None`` = unbreakable). The Break
    stage writes ``stretch`` (length / rest), ``broken``, ``buckled``
    (compressed below half its rest length) and ``over`` (consecutive frames
    over the limit). Ranges: ``limits.FIELDS["Spring"]``. An end may be a
    ``RigidBody``: it holds the body at the world point ``at_a`` / ``at_b``
    (default: the body's centre of mass) — ropes holding crates, bridges of planks.
    """

    _spec = SPRINGS
    _fields = ("a", "b", "rest", "compliance", "max_stretch", "stretch", "broken", "buckled",
               "over")

    def __init__(self, a: int, b: int, rest: float | None = None, stiffness: float = 1.0,
                 max_stretch: float | None = _S["max_stretch"],
                 compliance: float | None = None, at_a: Sequence[float] | None = None,
                 at_b: Sequence[float] | None = None) -> None:
        #: Where each end attaches to a rigid body (world px when added; None: its centre).
        self.at = tuple(None if at is None else
                        tuple(limits.COORD.check(v, "Spring", name) for v in at)
                        for name, at in (("at_a", at_a), ("at_b", at_b)))
        if compliance is None:
            compliance = limits.compliance_of(limits.check("Spring", "stiffness", stiffness))
        self._entity = -1
        d = _S
        super().__init__(a=a, b=b, rest=rest, compliance=compliance, max_stretch=max_stretch,
                         stretch=d["stretch"], broken=d["broken"], buckled=d["buckled"],
                         over=d["over"])

    a = property(lambda self: self._vals["a"])
    b = property(lambda self: self._vals["b"])
    compliance = _Field()
    stretch = _Field()
    broken = _Field()
    buckled = _Field()
    over = _Field()

    @a.setter
    def a(self, value: int) -> None:
        self._end("a", value)

    @b.setter
    def b(self, value: int) -> None:
        self._end("b", value)

    def _end(self, name: str, value: int) -> None:
        if self._table is not None:
            raise WorldError(f"Spring: field {name} cannot change once added; create a new "
                             "spring")
        self._vals[name] = limits.check("Spring", name, value)

    rest = _Measured()

    @property
    def max_stretch(self) -> float | None:
        """Breaking ratio of length to rest length; ``None`` = unbreakable."""
        if self._table is None:
            return self._vals["max_stretch"]
        value = float(self._table.cols["max_stretch"][self._slot])
        return None if math.isinf(value) else value

    @max_stretch.setter
    def max_stretch(self, value: float | None) -> None:
        raw = math.inf if value is None else limits.check("Spring", "max_stretch", value)
        if self._table is None:
            self._vals["max_stretch"] = None if math.isinf(raw) else raw
        else:
            self._table.cols["max_stretch"][self._slot] = raw

    @property
    def stiffness(self) -> float:
        """Stiffness in (0, 1] equivalent to the compliance (1 = rigid)."""
        return limits.stiffness_of(self.compliance)

    @stiffness.setter
    def stiffness(self, value: float) -> None:
        self.compliance = limits.compliance_of(limits.check("Spring", "stiffness", value))

    @property
    def entity(self) -> int:
        """The spring's own entity (-1 before it is added to a world)."""
        return self._entity


def _entity_list(kind: str, particles: Sequence[int], least: int) -> list[int]:
    out = limits.check_all(kind, "particles", particles)
    if len(out) < least:
        raise WorldError(f"{kind}: field particles needs at least {least} entities, "
                         f"got {len(out)}")
    if len(set(out)) != len(out):
        raise WorldError(f"{kind}: field particles lists an entity twice")
    return out


class AreaConstraint(Component):
    """Keeps the area inside a ring of particles at ``rest_area × pressure``.

    ``particles``: the outline, in order (counter-clockwise gives a positive
    area). ``rest_area`` (px², signed) is measured when the constraint is added
    unless given. ``pressure`` 1 keeps the rest area; 2.2 is a taut balloon,
    0.35 a slumped blob. ``stiffness`` in (0, 1] scales each correction. The
    ring is also the body's outline for particle-vs-body collisions: give the
    body's particles one non-zero ``group`` so it does not collide with itself.
    ``self_collide``: its outline does collide with itself all the same (each
    particle kept its disc's radius plus the edge's off the ring's other edges, on
    the side it is on), so a squashed or deflated ball wrinkles instead of
    folding through itself. Ranges: ``limits.FIELDS["AreaConstraint"]``.
    """

    _spec = AREAS
    _fields = ("particles", "pressure", "stiffness", "rest_area", "self_collide")
    def __init__(self, particles: Sequence[int], pressure: float = _R["pressure"],
                 stiffness: float = _R["stiffness"], rest_area: float | None = None,
                 self_collide: bool = False) -> None:
        super().__init__(particles=_entity_list("AreaConstraint", particles, 3),
                         pressure=pressure, stiffness=stiffness, rest_area=rest_area,
                         self_collide=bool(self_collide))

    self_collide = _Field()

    particles = property(lambda self: list(self._vals["particles"]))

    @particles.setter
    def particles(self, value: list[int]) -> None:
        if self._table is not None:
            raise WorldError("AreaConstraint: field particles cannot change once added")
        self._vals["particles"] = value

    pressure = _Field()
    stiffness = _Field()

    rest_area = _Measured()


def _offsets(rest: Sequence[Sequence[float]] | None) -> list[list[float]] | None:
    """Shape rest offsets as ``[[x, y], ...]`` px, each checked (``None``: measured)."""
    if rest is None:
        return None
    out = [limits.check_all("ShapeMatch", "rest", r) for r in rest]
    if any(len(r) != 2 for r in out):
        raise WorldError("ShapeMatch: field rest must be a list of (x, y) offsets")
    return out


class ShapeMatch(Component):
    """Pulls a group of particles toward their rest shape, rotated to fit best.

    ``alpha`` in [0, 1] is the fraction of the way to the goal shape per 1/60 s
    frame (1 ≈ rigid, 0.04 ≈ soft memory); it means the same whatever the
    substep and iteration counts. ``rest`` offsets (px) from the rest centroid
    are measured when added unless given; ``scale`` (> 0, 1: as measured)
    sizes the goal shape, so a body's shape memory can grow and shrink with
    it (a jelly ball inflated by its pressure). With ``outline=True`` the
    particles are listed around the body's outline, which then collides like
    a polygon. Ranges: ``limits.FIELDS["ShapeMatch"]``.
    """

    _spec = SHAPES
    _fields = ("particles", "alpha", "rest", "outline", "scale")

    def __init__(self, particles: Sequence[int], alpha: float = SHAPES.default("alpha"),
                 rest: Sequence[Sequence[float]] | None = None, outline: bool = True,
                 scale: float = SHAPES.default("scale")) -> None:
        super().__init__(particles=_entity_list("ShapeMatch", particles, 2), alpha=alpha,
                         rest=rest, outline=outline, scale=scale)

    particles = AreaConstraint.particles
    alpha = _Field()
    scale = _Field()
    outline = property(lambda self: self._vals["outline"])

    @outline.setter
    def outline(self, value: bool) -> None:
        if self._table is not None:
            raise WorldError("ShapeMatch: field outline cannot change once added")
        self._vals["outline"] = bool(value)

    @property
    def rest(self) -> list[list[float]] | None:
        """Rest offsets (px) of each particle from the rest centroid."""
        return self._vals["rest"]

    @rest.setter
    def rest(self, value: Sequence[Sequence[float]] | None) -> None:
        self._vals["rest"] = _offsets(value)


#: Built-in component types, in the order they must be attached to one entity.
BUILTIN = (Particle, Anchor, Fruit, Spring, AreaConstraint, ShapeMatch)
