"""The built-in components: Particle, Spring, AreaConstraint, ShapeMatch, Fruit, Anchor.

Before a component is added to a World it holds its own values. Once added, it
becomes a *view* on its row of the World's packed store: reading gives the
current value, writing goes straight into the arrays and takes effect on the
next step. Units are pixels, seconds and (arbitrary) mass units; y points up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from . import fruit as _fruit
from .errors import WorldError

#: Compliance (XPBD, px per unit force) of a spring of stiffness 0.5; stiffness k
#: maps to compliance ``(1/k − 1) · STIFFNESS_SCALE`` so 1 is rigid.
STIFFNESS_SCALE = 1e-3


class _Field:
    """A component field that lives in column ``col`` (element ``k``) of the bound table."""

    def __init__(self, col: str, k: int | None = None, cast: Any = float) -> None:
        self.col, self.k, self.cast = col, k, cast

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

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
        value = _checked(obj, self.name, value, self.cast)
        table = obj._table
        if table is None:
            obj._vals[self.name] = value
        elif self.k is None:
            table.cols[self.col][obj._slot] = value
        else:
            table.cols[self.col][obj._slot, self.k] = value


def _checked(obj: Any, name: str, value: Any, cast: Any) -> Any:
    """Cast ``value`` and refuse NaN/inf for float fields, naming the field."""
    kind = type(obj).__name__
    if cast is bool:
        return bool(value)
    try:
        out = cast(value)
    except (TypeError, ValueError):
        raise WorldError(f"{kind}: field {name} must be a number, got {value!r}") from None
    if cast is float and not math.isfinite(out):
        raise WorldError(f"{kind}: field {name} must be finite, got {value!r}")
    return out


class Component:
    """Base of the built-in components (values local until bound to a store row)."""

    _fields: tuple[str, ...] = ()

    def __init__(self, **values: Any) -> None:
        self._table = None
        self._slot = -1
        self._vals: dict[str, Any] = {}
        for name in self._fields:
            setattr(self, name, values[name])

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
    collide with each other; ``friction`` (Coulomb coefficient) and
    ``restitution`` (0 = no bounce, 1 = elastic). Integrate and Collide write
    the position; writing ``x``/``y`` keeps the velocity, writing ``vx``/``vy``
    sets it.
    """

    _fields = ("x", "y", "vx", "vy", "mass", "radius", "group", "friction", "restitution")

    def __init__(self, x: float, y: float, mass: float = 1.0, radius: float = 4.0,
                 group: int = 0, friction: float = 0.4, restitution: float = 0.1,
                 vx: float = 0.0, vy: float = 0.0) -> None:
        self._entity = -1
        super().__init__(x=x, y=y, vx=vx, vy=vy, mass=mass, radius=radius, group=group,
                         friction=friction, restitution=restitution)

    radius = _Field("radius")
    group = _Field("group", cast=int)
    friction = _Field("friction")
    restitution = _Field("restitution")

    def _h(self) -> float:
        return self._table.h

    def _axis(self, k: int) -> float:
        return float(self._table.cols["pos"][self._slot, k])

    def _move(self, k: int, value: float, name: str) -> None:
        value = _checked(self, name, value, float)
        if self._table is None:
            self._vals[name] = value
            return
        cols, s = self._table.cols, self._slot
        delta = value - cols["pos"][s, k]
        cols["pos"][s, k] = value
        cols["prev"][s, k] += delta  # keep the velocity
        if cols["pinned"][s]:
            cols["pin"][s, k] = value

    def _velocity(self, k: int) -> float:
        cols, s = self._table.cols, self._slot
        return float((cols["pos"][s, k] - cols["prev"][s, k]) / self._h())

    def _set_velocity(self, k: int, value: float, name: str) -> None:
        value = _checked(self, name, value, float)
        if self._table is None:
            self._vals[name] = value
            return
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
        value = float(value)
        if not value > 0 or math.isnan(value):
            raise WorldError(f"Particle: field mass must be > 0, got {value!r}")
        if self._table is None:
            self._vals["mass"] = value
            return
        cols, s = self._table.cols, self._slot
        cols["mass"][s] = value
        cols["w"][s] = 0.0 if cols["pinned"][s] else 1.0 / value

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
    """Pins its particle (inverse mass 0) where it is, or at ``(x, y)`` if given.

    Writing the particle's position moves the pin too: that is how a game moves
    a pin or a cliff.
    """

    _fields = ()

    def __init__(self, x: float | None = None, y: float | None = None) -> None:
        super().__init__()
        self.at = None if x is None or y is None else (float(x), float(y))

    def as_dict(self) -> dict[str, Any]:
        return {}


class Fruit(_Rider):
    """Marks a particle as a fruit of ``kind`` (0..10, see ``ecsgoo.fruit``).

    Adding it sets the particle's radius and mass from the kind table.
    """

    _fields = ("kind",)

    def __init__(self, kind: int) -> None:
        kind = int(kind)
        if not 0 <= kind <= _fruit.LARGEST:
            raise WorldError(f"Fruit: field kind must be in 0..{_fruit.LARGEST}, got {kind}")
        super().__init__(kind=kind)

    kind = _Field("kind", cast=int)


class Spring(Component):
    """A distance link between particle entities ``a`` and ``b`` (its own entity).

    ``rest`` length (px; ``None`` = their distance when added); ``stiffness`` in
    (0, 1] (1 = as stiff as the solver allows) or ``compliance`` (XPBD, px per
    unit force, independent of substeps and iterations); ``max_stretch``: ratio
    of rest length past which it breaks after ``break_frames`` frames
    (``None`` = unbreakable). The Break stage writes ``stretch`` (length / rest),
    ``broken``, ``buckled`` (compressed below half its rest length) and
    ``over`` (consecutive frames over the limit).
    """

    _fields = ("a", "b", "rest", "compliance", "max_stretch", "stretch", "broken", "buckled",
               "over")

    def __init__(self, a: int, b: int, rest: float | None = None, stiffness: float = 1.0,
                 max_stretch: float | None = 2.0, compliance: float | None = None) -> None:
        if compliance is None:
            stiffness = float(stiffness)
            if not 0.0 < stiffness <= 1.0:
                raise WorldError(f"Spring: field stiffness must be in (0, 1], got {stiffness}")
            compliance = (1.0 / stiffness - 1.0) * STIFFNESS_SCALE
        if compliance < 0:
            raise WorldError(f"Spring: field compliance must be >= 0, got {compliance}")
        self._entity = -1
        super().__init__(a=int(a), b=int(b), rest=-1.0 if rest is None else rest,
                         compliance=compliance, max_stretch=max_stretch, stretch=1.0,
                         broken=False, buckled=False, over=0)

    a = property(lambda self: self._vals["a"])
    b = property(lambda self: self._vals["b"])
    rest = _Field("rest")
    compliance = _Field("compliance")
    stretch = _Field("stretch")
    broken = _Field("broken", cast=bool)
    buckled = _Field("buckled", cast=bool)
    over = _Field("over", cast=int)

    @a.setter
    def a(self, value: int) -> None:
        if self._table is not None:
            raise WorldError("Spring: field a cannot change once added; create a new spring")
        self._vals["a"] = int(value)

    @b.setter
    def b(self, value: int) -> None:
        if self._table is not None:
            raise WorldError("Spring: field b cannot change once added; create a new spring")
        self._vals["b"] = int(value)

    @property
    def max_stretch(self) -> float | None:
        """Breaking ratio of length to rest length; ``None`` = unbreakable."""
        if self._table is None:
            return self._vals["max_stretch"]
        value = float(self._table.cols["max_stretch"][self._slot])
        return None if math.isinf(value) else value

    @max_stretch.setter
    def max_stretch(self, value: float | None) -> None:
        raw = math.inf if value is None else float(value)
        if not raw > 0:
            raise WorldError(f"Spring: field max_stretch must be > 0 or None, got {value!r}")
        if self._table is None:
            self._vals["max_stretch"] = value if value is None else raw
        else:
            self._table.cols["max_stretch"][self._slot] = raw

    @property
    def stiffness(self) -> float:
        """Stiffness in (0, 1] equivalent to the compliance (1 = rigid)."""
        return 1.0 / (1.0 + self.compliance / STIFFNESS_SCALE)

    @stiffness.setter
    def stiffness(self, value: float) -> None:
        value = float(value)
        if not 0.0 < value <= 1.0:
            raise WorldError(f"Spring: field stiffness must be in (0, 1], got {value}")
        self.compliance = (1.0 / value - 1.0) * STIFFNESS_SCALE

    @property
    def entity(self) -> int:
        """The spring's own entity (-1 before it is added to a world)."""
        return self._entity


def _entity_list(kind: str, particles: Sequence[int], least: int) -> list[int]:
    out = [int(p) for p in particles]
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
    """

    _fields = ("particles", "pressure", "stiffness", "rest_area")

    def __init__(self, particles: Sequence[int], pressure: float = 1.0,
                 stiffness: float = 1.0, rest_area: float | None = None) -> None:
        super().__init__(particles=_entity_list("AreaConstraint", particles, 3),
                         pressure=pressure, stiffness=stiffness,
                         rest_area=math.nan if rest_area is None else rest_area)

    particles = property(lambda self: list(self._vals["particles"]))

    @particles.setter
    def particles(self, value: list[int]) -> None:
        if self._table is not None:
            raise WorldError("AreaConstraint: field particles cannot change once added")
        self._vals["particles"] = value

    pressure = _Field("pressure")
    stiffness = _Field("stiffness")
    rest_area = property(lambda self: self._vals["rest_area"] if self._table is None
                         else float(self._table.cols["rest_area"][self._slot]))

    @rest_area.setter
    def rest_area(self, value: float) -> None:
        if self._table is None:
            self._vals["rest_area"] = float(value)
        else:
            self._table.cols["rest_area"][self._slot] = float(value)


class ShapeMatch(Component):
    """Pulls a group of particles toward their rest shape, rotated to fit best.

    ``alpha`` in [0, 1] is the fraction of the way to the goal shape per 1/60 s
    frame (1 ≈ rigid, 0.04 ≈ soft memory); it means the same whatever the
    substep and iteration counts. ``rest`` offsets from the rest centroid are
    measured when added unless given. With ``outline=True`` the particles are
    listed around the body's outline, which then collides like a polygon.
    """

    _fields = ("particles", "alpha", "rest", "outline")

    def __init__(self, particles: Sequence[int], alpha: float = 1.0,
                 rest: Sequence[Sequence[float]] | None = None, outline: bool = True) -> None:
        alpha = float(alpha)
        if not 0.0 <= alpha <= 1.0:
            raise WorldError(f"ShapeMatch: field alpha must be in [0, 1], got {alpha}")
        super().__init__(particles=_entity_list("ShapeMatch", particles, 2), alpha=alpha,
                         rest=None if rest is None else [list(map(float, r)) for r in rest],
                         outline=bool(outline))

    particles = AreaConstraint.particles
    alpha = _Field("alpha")
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
    def rest(self, value: Any) -> None:
        self._vals["rest"] = value


#: Built-in component types, in the order they must be attached to one entity.
BUILTIN = (Particle, Anchor, Fruit, Spring, AreaConstraint, ShapeMatch)
