"""Rigid bodies and joints: crates, wheels, planks and hulls beside the soft bodies.

A ``RigidBody`` is one row of the store's body table (``columns.BODIES``) plus
its shape: convex pieces in body coordinates (the centre of mass is the
origin), kept by the component and packed by the store. Like particles, bodies
are Verlet: the velocity is the last substep's move, so every stage that moves
positions (joints in Project, contacts in Collide) also sets velocities, and
one contact kernel serves bodies and particles alike (``kernels.rigid``).

A ``Joint`` pins a world point of two ends together (a hinge), or also their
relative angle (``weld``); an end is a rigid body or a particle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import limits
from .columns import BODIES, JOINTS, NO_LIMIT
from .components import Component, _Field, _Watched
from .derived import inverse_masses
from .errors import WorldError

_B = {c.name: c.default for c in BODIES.columns}


def _box_piece(width: float, height: float) -> np.ndarray:
    w, h = width / 2, height / 2
    return np.array([[-w, -h], [w, -h], [w, h], [-w, h]], dtype=np.float64)


class RigidBody(Component):
    """A body that keeps its shape: make one with ``box``, ``circle`` or ``polygon``.

    Live view once added: ``x, y`` centre of mass (px), ``angle`` (rad,
    counter-clockwise), ``vx, vy`` (px/s), ``omega`` (rad/s), ``mass``,
    ``inertia`` (mass·px², from the shape; read-only), ``friction``,
    ``restitution``, ``group``, ``layer``, ``mask``, ``events`` (as on
    ``Particle``). Writing ``x``/``y``/``angle`` moves it and keeps its velocity.
    ``Anchor()`` on the same entity makes it static. ``kind="kinematic"`` makes it
    kinematic: moved by its velocity alone (``vx``, ``vy``, ``omega``, writable live;
    or ``World.move_to``), never pushed (inverse mass and inertia 0), pushing and
    carrying what it meets. ``shape`` is ``"box"``,
    ``"circle"`` or ``"polygon"``; ``size`` the numbers that made it (width and
    height, radius, or the outline's points relative to the given ``(x, y)``).
    """

    _spec = BODIES
    _fields = ("x", "y", "angle", "vx", "vy", "omega", "mass", "friction", "restitution",
               "group", "layer", "mask", "events")

    def __init__(self, shape: str, size: Any, pieces: list[tuple[np.ndarray, float]],
                 unit_inertia: float, x: float, y: float, angle: float, mass: float,
                 friction: float, restitution: float, group: int, layer: int, mask: int,
                 events: bool, vx: float = 0.0, vy: float = 0.0, omega: float = 0.0,
                 kind: str = "dynamic") -> None:
        self._entity = -1
        self.shape, self.size = shape, size
        #: Convex pieces ``(vertices (k, 2) px in body coordinates, radius px)``.
        self.pieces = pieces
        # inertia per unit mass, from the shape alone (so the inertia is a function of shape
        # and current mass: a saved world, made at another mass, gets the same bits)
        self._unit_inertia = unit_inertia
        super().__init__(x=x, y=y, angle=angle, vx=vx, vy=vy, omega=omega, mass=mass,
                         friction=friction, restitution=restitution, group=group,
                         layer=layer, mask=mask, events=bool(events))
        self._vals["kind"] = _kind(kind, "RigidBody")

    # -- making one -------------------------------------------------------------------

    @classmethod
    def box(cls, x: float, y: float, width: float, height: float, angle: float = 0.0,
            mass: float = _B["mass"], friction: float = _B["friction"],
            restitution: float = _B["restitution"], group: int = _B["group"],
            layer: int = _B["layer"], mask: int = _B["mask"], events: bool = False,
            kind: str = "dynamic") -> RigidBody:
        """A ``width`` × ``height`` px box centred on ``(x, y)``, turned by ``angle`` rad."""
        width = limits.check("RigidBody", "width", width)
        height = limits.check("RigidBody", "height", height)
        mass = limits.check("RigidBody", "mass", mass)
        unit = (width * width + height * height) / 12.0
        return cls("box", (width, height), [(_box_piece(width, height), 0.0)], unit, x, y,
                   angle, mass, friction, restitution, group, layer, mask, events, kind=kind)

    @classmethod
    def circle(cls, x: float, y: float, radius: float, angle: float = 0.0,
               mass: float = _B["mass"], friction: float = _B["friction"],
               restitution: float = _B["restitution"], group: int = _B["group"],
               layer: int = _B["layer"], mask: int = _B["mask"], events: bool = False,
               kind: str = "dynamic") -> RigidBody:
        """A disc of ``radius`` px centred on ``(x, y)`` (a wheel: it rolls)."""
        radius = limits.check("RigidBody", "radius", radius)
        mass = limits.check("RigidBody", "mass", mass)
        return cls("circle", (radius,), [(np.zeros((1, 2)), radius)], 0.5 * radius**2,
                   x, y, angle, mass, friction, restitution, group, layer, mask, events,
                   kind=kind)

    @classmethod
    def polygon(cls, x: float, y: float, points: Sequence[Sequence[float]],
                angle: float = 0.0, mass: float = _B["mass"],
                friction: float = _B["friction"], restitution: float = _B["restitution"],
                group: int = _B["group"], layer: int = _B["layer"], mask: int = _B["mask"],
                events: bool = False, kind: str = "dynamic") -> RigidBody:
        """A body of the outline ``points`` (px, relative to ``(x, y)``), either winding.

        Convex or concave: a concave outline is split into convex pieces. The
        body's ``x, y`` is then its centre of mass, not the ``(x, y)`` given.
        """
        from . import polygons

        mass = limits.check("RigidBody", "mass", mass)
        ccw = polygons.outline(points, "RigidBody.polygon")
        pieces = polygons.convex_pieces(ccw)
        centroid, unit = polygons.body_mass(pieces, 1.0)  # per unit mass (see __init__)
        angle = limits.check("RigidBody", "angle", angle)
        c, s = math.cos(angle), math.sin(angle)
        cx, cy = float(centroid[0]), float(centroid[1])
        x = limits.check("RigidBody", "x", x) + c * cx - s * cy
        y = limits.check("RigidBody", "y", y) + s * cx + c * cy
        size = [[float(p[0]), float(p[1])] for p in points]
        return cls("polygon", size, [(p - centroid, 0.0) for p in pieces], unit, x, y,
                   angle, mass, friction, restitution, group, layer, mask, events, kind=kind)

    # -- the live view ----------------------------------------------------------------------

    friction = _Field()
    restitution = _Field()
    group = _Field()
    layer = _Field()
    mask = _Field()
    events = _Watched(wakes=False)  # what it reports, not what it feels

    def _h(self) -> float:
        return self._table.store.h

    def _get(self, col: str, k: int | None) -> float:
        c = self._table.cols[col]
        return float(c[self._slot] if k is None else c[self._slot, k])

    def _write(self, k: int | None, value: float, name: str) -> tuple[float, Any]:
        """Check a write of field ``name``: the value, and — bound — ``(columns, row,
        index)`` after waking the body (unbound: the value is kept, and ``None``)."""
        value = limits.check("RigidBody", name, value)
        if self._table is None:
            self._vals[name] = value
            return value, None
        self._table.store.woken(self._entity)
        return value, (self._table.cols, self._slot, self._slot if k is None else (self._slot, k))

    def _move(self, col: str, prev: str, k: int | None, value: float, name: str) -> None:
        value, where = self._write(k, value, name)
        if where is not None:
            self._table.store.moved()
            cols, _, index = where
            delta = value - cols[col][index]
            cols[col][index] = value
            cols[prev][index] += delta  # keep the velocity

    def _rate(self, col: str, prev: str, k: int | None) -> float:
        return (self._get(col, k) - self._get(prev, k)) / self._h()

    def _set_rate(self, col: str, prev: str, k: int | None, value: float, name: str) -> None:
        value, where = self._write(k, value, name)
        if where is not None:
            cols, s, index = where
            if not cols["pinned"][s]:  # a static body has no velocity
                cols[prev][index] = cols[col][index] - value * self._h()

    def _axis(name: str, col: str, prev: str, k: int | None, doc: str) -> property:  # noqa: N805
        return property(
            lambda self: self._vals[name] if self._table is None else self._get(col, k),
            lambda self, v: self._move(col, prev, k, v, name), doc=doc)

    def _speed(name: str, col: str, prev: str, k: int | None, doc: str) -> property:  # noqa: N805
        return property(
            lambda self: self._vals[name] if self._table is None else self._rate(col, prev, k),
            lambda self, v: self._set_rate(col, prev, k, v, name), doc=doc)

    x = _axis("x", "pos", "prev", 0, "Centre of mass x, px.")
    y = _axis("y", "pos", "prev", 1, "Centre of mass y, px.")
    angle = _axis("angle", "angle", "prev_angle", None, "Rotation, rad counter-clockwise.")
    vx = _speed("vx", "pos", "prev", 0, "Velocity x, px/s.")
    vy = _speed("vy", "pos", "prev", 1, "Velocity y, px/s.")
    omega = _speed("omega", "angle", "prev_angle", None, "Angular velocity, rad/s (CCW).")
    del _axis, _speed

    @property
    def mass(self) -> float:
        """Mass; the inertia scales with it."""
        if self._table is None:
            return self._vals["mass"]
        return float(self._table.cols["mass"][self._slot])

    @mass.setter
    def mass(self, value: float) -> None:
        value = limits.check("RigidBody", "mass", value)
        if self._table is None:
            self._vals["mass"] = value
            return
        self._table.store.woken(self._entity)
        cols, s = self._table.cols, self._slot
        cols["mass"][s] = value
        cols["inertia"][s] = value * self._unit_inertia
        inverse_masses(self._table, s)

    @property
    def kind(self) -> str:
        """``"dynamic"`` (pushed by what it meets) or ``"kinematic"`` (moved by its velocity
        alone, never pushed); writable: a body turned kinematic keeps its velocity."""
        if self._table is None:
            return self._vals["kind"]
        return "kinematic" if self._table.cols["kinematic"][self._slot] else "dynamic"

    @kind.setter
    def kind(self, value: str) -> None:
        value = _kind(value, "RigidBody" if self._entity < 0 else f"entity {self._entity} "
                      "(RigidBody)")
        self._vals["kind"] = value
        if self._table is None:
            return
        self._table.store.woken(self._entity)
        cols, s = self._table.cols, self._slot
        if cols["pinned"][s] and value == "kinematic":
            raise WorldError(f"entity {self._entity} (RigidBody): field kind cannot be "
                             "'kinematic' on an anchored (static) body")
        cols["kinematic"][s] = value == "kinematic"
        cols["stop"][s] = False
        self._table.flag_version += 1  # (``flags.kinematic``)
        inverse_masses(self._table, s)

    @property
    def inertia(self) -> float:
        """Moment of inertia about the centre of mass, mass·px² (from the shape)."""
        return self.mass * self._unit_inertia

    @property
    def entity(self) -> int:
        """The body's entity (-1 before it is added to a world)."""
        return self._entity

    def outline(self) -> list[np.ndarray]:
        """Each piece's vertices in world coordinates now, px (a circle: its centre)."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        rot = np.array([[c, s], [-s, c]])
        return [verts @ rot + (self.x, self.y) for verts, _ in self.pieces]

    def __repr__(self) -> str:
        return (f"RigidBody.{self.shape}(x={self.x!r}, y={self.y!r}, size={self.size!r}, "
                f"angle={self.angle!r}, mass={self.mass!r})")

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and self.shape == other.shape
                and self.size == other.size and self.as_dict() == other.as_dict())

    __hash__ = object.__hash__


class Joint(Component):
    """Keeps the world point ``(x, y)`` (px) of ends ``a`` and ``b`` together: a hinge.

    ``a`` and ``b`` are entities with a ``RigidBody`` or a ``Particle`` (a
    particle has no rotation: the joint holds the particle itself). ``weld``
    also keeps their relative angle (both ends must then be bodies).
    ``max_force`` (mass·px/s²; a hanging mass m pulls m·g) breaks it in the
    Break stage, which dispatches ``joint_broke(world, joint_entity)``.

    A hinge with a body end may have angle limits and a motor (Box2D's revolute
    joint): the joint angle is b's angle − a's (a particle's: 0) less what it was
    when the joint was made (``rest_angle``), rad, counter-clockwise. ``lower``
    / ``upper`` (rad, None: no limit) keep it within; the motor drives its speed
    to ``motor_speed`` (rad/s) with at most ``motor_torque`` (mass·px²/s²; 0: no
    motor, ``inf``: whatever it takes); a weld keeps its angle and ignores them.
    With ``axis`` (a world direction when made; it turns with a, which must be a
    body) it is a slider (Box2D's prismatic joint): b's anchor moves only along the
    axis through a's, and the two keep their relative angle. Its ``lower`` / ``upper``
    are then translations along the axis (px, from where it was made), its motor
    drives that translation's speed to ``motor_speed`` (px/s) with at most
    ``motor_force`` (mass·px/s²; kept in ``motor_torque``).
    Live view: ``force`` (what it held in the last substep), ``broken``, and
    ``motor_speed`` / ``motor_torque`` writable.

    The two bodies (or body and particle) a joint links do not collide with each
    other; ``collide=True`` lets them (Box2D's ``collideConnected``: a plank on a
    post rests on it as well as hanging from the hinge). Two ends linked by several
    joints collide only if every one of them says so.
    """

    _spec = JOINTS
    _fields = ("a", "b", "x", "y", "weld", "max_force", "lower", "upper", "motor_speed",
               "motor_torque", "axis", "collide")

    def __init__(self, a: int, b: int, x: float, y: float, weld: bool = False,
                 max_force: float | None = None, lower: float | None = None,
                 upper: float | None = None, motor_speed: float = 0.0,
                 motor_torque: float = 0.0, axis: Sequence[float] | None = None,
                 motor_force: float | None = None, collide: bool = False) -> None:
        self._entity = -1
        for name, end in (("a", a), ("b", b)):
            limits.check("Joint", name, end)
        if a == b:
            raise WorldError("Joint: fields a and b are the same entity")
        mf = math.inf if max_force is None else limits.check("Joint", "max_force", max_force)
        low = -NO_LIMIT if lower is None else limits.check("Joint", "lower", lower)
        high = NO_LIMIT if upper is None else limits.check("Joint", "upper", upper)
        if low > high:
            raise WorldError(f"Joint: field lower ({low}) is above upper ({high})")
        motor = limits.check("Joint", "motor_torque", motor_torque)
        if motor_force is not None:
            # kept in the motor_torque column, whose range it shares
            motor = limits.FIELDS["Joint"]["motor_torque"].check(motor_force, "Joint",
                                                                  "motor_force")
        unit = None if axis is None else _unit_axis(axis)
        if unit is not None and weld:
            raise WorldError("Joint: fields axis and weld do not go together (a slider "
                             "already keeps the angle)")
        self._table, self._slot = None, -1
        self._vals = {"a": int(a), "b": int(b), "x": limits.check("Joint", "x", x),
                      "y": limits.check("Joint", "y", y), "weld": bool(weld), "max_force": mf,
                      "lower": low, "upper": high,
                      "motor_speed": limits.check("Joint", "motor_speed", motor_speed),
                      "motor_torque": motor, "axis": unit,
                      "collide": _flag(collide, "Joint", "collide")}

    a = property(lambda self: self._vals["a"], doc="Entity of end a.")
    b = property(lambda self: self._vals["b"], doc="Entity of end b.")
    x = property(lambda self: self._vals["x"], doc="Where it was made, px (world x).")
    y = property(lambda self: self._vals["y"], doc="Where it was made, px (world y).")
    weld = property(lambda self: self._vals["weld"], doc="Keeps the relative angle too.")
    collide = property(lambda self: self._vals["collide"],
                       doc="Its two ends still collide with each other.")

    @property
    def axis(self) -> tuple[float, float] | None:
        """A slider's direction (world, unit: as made, then as a turns), or None: a hinge."""
        if self._table is None:
            return self._vals["axis"]
        store, s = self._table.store, self._slot
        ux, uy = (float(v) for v in self._table.cols["axis"][s])
        if ux == 0.0 and uy == 0.0:
            return None
        a = float(store.bodies.cols["angle"][self._table.cols["a_body"][s]])
        c, si = math.cos(a), math.sin(a)
        return (c * ux - si * uy, si * ux + c * uy)
    lower = property(lambda self: self._live("lower"),
                     doc="Least joint angle, rad (-NO_LIMIT: none).")
    upper = property(lambda self: self._live("upper"),
                     doc="Greatest joint angle, rad (NO_LIMIT: none).")

    def _live(self, name: str) -> float:
        """Field ``name``: as given before the joint is in a world, then its row's."""
        if self._table is None:
            return self._vals[name]
        return float(self._table.cols[name][self._slot])

    def _write(self, name: str, value: Any) -> None:
        value = limits.check("Joint", name, value)
        if self._table is None:
            self._vals[name] = value
        else:
            self._table.cols[name][self._slot] = value
            self._table.store.woken(self._entity)  # a sleeping machine starts again

    #: Joint angle speed the motor drives at, rad/s (counter-clockwise, b against a).
    motor_speed = _Field()
    #: Most torque the motor gives, mass·px²/s² (0: no motor).
    motor_torque = _Field()

    @property
    def max_force(self) -> float:
        """Breaking force, mass·px/s² (``inf``: unbreakable)."""
        return self._live("max_force")

    @max_force.setter
    def max_force(self, value: float | None) -> None:
        value = math.inf if value is None else limits.check("Joint", "max_force", value)
        if self._table is None:
            self._vals["max_force"] = value
        else:
            self._table.cols["max_force"][self._slot] = value

    @property
    def force(self) -> float:
        """Force held in the last substep, mass·px/s² (0 before the first step)."""
        return 0.0 if self._table is None else float(self._table.cols["force"][self._slot])

    @property
    def broken(self) -> bool:
        """Whether it broke (Break stage)."""
        return False if self._table is None else bool(self._table.cols["broken"][self._slot])

    @property
    def entity(self) -> int:
        """The joint's entity (-1 before it is added to a world)."""
        return self._entity


#: The kinds of body: pushed by what it meets, or moved by its velocity alone.
KINDS = ("dynamic", "kinematic")


def _kind(value: Any, who: str) -> str:
    """``value`` if it is one of ``KINDS`` (WorldError naming ``who`` and the field)."""
    if value not in KINDS:
        raise WorldError(f"{who}: field kind must be 'dynamic' or 'kinematic', got {value!r}")
    return value


def _flag(value: Any, who: str, name: str) -> bool:
    """``value`` if it is a bool (WorldError naming the field otherwise)."""
    if not isinstance(value, bool | np.bool_):
        raise WorldError(f"{who}: field {name} must be true or false, got {value!r}")
    return bool(value)


def _unit_axis(axis: Sequence[float]) -> tuple[float, float]:
    """A slider's axis as a unit vector (WorldError unless two finite numbers, not both 0)."""
    try:
        ux, uy = (float(v) for v in axis)
    except (TypeError, ValueError):
        raise WorldError(f"Joint: field axis must be two numbers, got {axis!r}") from None
    size = math.hypot(ux, uy)
    if not (size > 0.0 and math.isfinite(size)):
        raise WorldError(f"Joint: field axis must be a finite direction, not (0, 0), got "
                         f"{axis!r}")
    return (ux / size, uy / size)
