"""What the level editor places: ``Piece`` (a kind of thing and its fields) and the
framework's own pieces.

A piece is a recipe: ``make(world, **fields)`` builds one thing (a jelly ball, a
rope, a level polygon …) into a world from its fields. The editor keeps each
thing as its piece's kind and field values, and builds the level from them (see
``ecsgoo.editor.Editor``), so a thing is moved, turned or resized by changing its
fields: ``x``, ``y`` (where it is, px), and the fields whose ``role`` says how
they follow (``"angle"`` turns, ``"size"`` scales, ``"point"`` is a second point
in the world, ``"outline"`` points relative to ``(x, y)``).

Every field value is checked as the loader checks a world file's fields
(``ecsgoo.limits``): a bad value is refused with a ``WorldError`` naming the
piece and the field (``jelly_ball: field pressure must be in 0..100, got 500``).

A game adds its own pieces (``Kit``) without editor code: ``Game.editor_kit`` names
a module that holds ``KIT``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import limits
from ..bodies import box as soft_box
from ..bodies import jelly_ball, rope
from ..components import Anchor, Particle, Spring
from ..errors import WorldError
from ..rigid import Joint, RigidBody
from ..sensors import Sensor
from ..world import World

#: How far (px) from a rope's or a spring's end point the editor looks for a particle to tie.
TIE_REACH = 30.0


@dataclass(frozen=True)
class Field:
    """One field of a piece: its ``name``, ``default`` and how a value is checked.

    ``check`` is a ``limits.Range``, a ``(owner, field)`` key of ``limits.FIELDS``
    (the loader's own range for that component field), ``"bool"``, or a list of
    allowed strings. ``role`` says how the editor's move, rotate and scale change
    it: ``"angle"`` (rad, rotate adds), ``"size"`` (scale multiplies), ``"point"``
    (``[x, y]`` in the world: moves, turns and scales with the thing),
    ``"outline"`` (a list of ``[x, y]`` relative to the thing's ``(x, y)``), or
    ``""`` (left alone). ``doc`` is what the property panel says.
    """

    name: str
    default: Any
    check: Any = None
    role: str = ""
    doc: str = ""

    def clean(self, owner: str, value: Any) -> Any:
        """``value`` as this field holds it, or WorldError naming ``owner`` and the field
        (a field whose default is None takes None: "not given")."""
        rng = self.check
        if value is None and self.default is None:
            return None
        if isinstance(rng, tuple):
            rng = limits.FIELDS[rng[0]][rng[1]]
        if self.role in ("point", "outline") or isinstance(self.default, list):
            return _points(owner, self.name, value, single=self.role == "point",
                           rng=rng or limits.COORD)
        if rng == "bool" or isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise WorldError(f"{owner}: field {self.name} must be true or false, "
                                 f"got {value!r}")
            return value
        if isinstance(rng, list | tuple):
            if value not in rng:
                raise WorldError(f"{owner}: field {self.name} must be one of "
                                 f"{', '.join(map(str, rng))}, got {value!r}")
            return value
        if rng is None:
            rng = limits.whole(-limits.MAX_INT, limits.MAX_INT) if isinstance(
                self.default, int) else limits.COORD
        if isinstance(value, bool):
            raise WorldError(f"{owner}: field {self.name} must be a number, got {value!r}")
        return rng.check(value, owner, self.name)


def _points(owner: str, name: str, value: Any, single: bool, rng: Any) -> Any:
    """A point ``[x, y]`` (``single``) or a list of them, each coordinate checked."""
    try:
        pts = [value] if single else list(value)
        out = [[rng.check(c, owner, name) for c in p] for p in pts]
    except TypeError:
        out = []
    if not out or any(len(p) != 2 for p in out):
        want = "a point [x, y]" if single else "a list of points [[x, y], ...]"
        raise WorldError(f"{owner}: field {name} must be {want}, got {value!r}")
    return out[0] if single else out


@dataclass(frozen=True)
class Piece:
    """A kind of thing the editor places: ``make(world, **fields)`` builds one.

    ``fields`` lists every field but ``x`` and ``y`` (every piece has those: where it
    is, px). ``make`` may return anything; what it added to the world (entities,
    level segments and polygons) is what the thing is. ``title`` and ``group`` are
    how the tool strip shows it. ``make`` must give the same thing for the same fields
    and, unless ``reads``, whatever else is built (a collision group number aside).
    """

    kind: str
    title: str
    make: Callable[..., Any]
    fields: tuple[Field, ...] = ()
    group: str = "framework"
    #: Default x, y when placed with none given (px).
    at: tuple[float, float] = (400.0, 300.0)
    #: Whether ``make`` looks at what is already built (a rope tied to the particle at its
    #: end, a hinge on the bodies under it): then an edit of an earlier thing makes it
    #: again. A game's piece is taken to look unless it says ``reads=False``.
    reads: bool = True
    #: Field values as an older editor saved them → as this piece has them (a renamed
    #: field), applied when a level is opened; None: the fields never changed.
    upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    def field(self, name: str) -> Field:
        """The field ``name``, or WorldError naming the piece's fields."""
        for f in self.all_fields():
            if f.name == name:
                return f
        names = ", ".join(f.name for f in self.all_fields())
        raise WorldError(f"{self.kind}: no field {name!r} (fields: {names})")

    def all_fields(self) -> tuple[Field, ...]:
        """``x``, ``y``, then the piece's own fields."""
        return (Field("x", self.at[0], limits.COORD, doc="px"),
                Field("y", self.at[1], limits.COORD, doc="px"), *self.fields)

    def defaults(self) -> dict[str, Any]:
        """Every field's default value."""
        return {f.name: _copy(f.default) for f in self.all_fields()}

    def clean(self, values: dict[str, Any]) -> dict[str, Any]:
        """All fields (defaults filled in), each checked: WorldError names a bad one."""
        out = self.defaults()
        for name, value in values.items():
            out[name] = self.field(name).clean(self.kind, value)
        return out


def _copy(value: Any) -> Any:
    return [list(p) if isinstance(p, list) else p for p in value] if isinstance(
        value, list) else value


@dataclass(frozen=True)
class Kit:
    """What a game gives the editor: its empty level and its own pieces.

    ``blank()`` returns the game's empty level (world settings, pipeline, the
    game's state) that the editor builds on; ``pieces`` are the game's own things
    (the framework's are always offered too); ``finish(world)``, if given, runs
    after every thing is built (a game's level-wide touch, like the playground's
    stiffness). ``settings`` are level-wide fields of the game's own (goo's balls
    to collect) as ``Field``s, read by ``get(world, name)`` and written by
    ``put(world, name, value)``.
    """

    blank: Callable[[], World]
    pieces: tuple[Piece, ...] = ()
    finish: Callable[[World], None] | None = None
    settings: tuple[Field, ...] = ()
    get: Callable[[World, str], Any] | None = None
    put: Callable[[World, str, Any], None] | None = None
    #: Pieces of the framework the tool strip leaves out for this game (all are placeable).
    hide: tuple[str, ...] = field(default=())
    #: How an opened level's parts are cut as the player sees them (``editor.parts``):
    #: entities holding a component saved under one of ``hubs`` are parts of their own that
    #: join nothing (rope's candy: each rope tied to it is a part), and ``links(component)``
    #: names the entities a game component points at that its file does not declare as
    #: ``refs`` (goo's crawler on its link: it goes with the structure).
    hubs: tuple[str, ...] = field(default=())
    links: Callable[[Any], list[int]] | None = None


# -- the framework's pieces ---------------------------------------------------------------

_MASS, _RADIUS = ("Particle", "mass"), ("Particle", "radius")
_FRICTION, _BOUNCE = ("Particle", "friction"), ("Particle", "restitution")
_SIZE = ("RigidBody", "width")
_STIFF = ("Spring", "stiffness")
_COUNT = limits.whole(2, 200)


def _particle(world: World, x: float, y: float, mass: float, radius: float,
              anchored: bool, friction: float, restitution: float) -> int:
    comps: list[Any] = [Particle(x, y, mass=mass, radius=radius, friction=friction,
                                 restitution=restitution)]
    return world.create_entity(*comps, *([Anchor()] if anchored else []))


def _anchor(world: World, x: float, y: float, radius: float) -> int:
    return world.create_entity(Particle(x, y, radius=radius), Anchor())


#: A rigid body's kinds as the editor offers them: pushed by what it meets, pinned where
#: it is (an ``Anchor``), or moved by its velocity alone.
BODY_KINDS = ["dynamic", "static", "kinematic"]


def _rigid(shape: str) -> Callable[..., int]:
    def make(world: World, x: float, y: float, kind: str = "dynamic", static: bool = False,
             **f: Any) -> int:
        static = static or kind == "static"  # (``static``: how the first saves said it)
        kind = "kinematic" if kind == "kinematic" else "dynamic"
        if shape == "box":
            body = RigidBody.box(x, y, f.pop("width"), f.pop("height"), kind=kind, **f)
        elif shape == "circle":
            body = RigidBody.circle(x, y, f.pop("radius"), kind=kind, **f)
        else:
            body = RigidBody.polygon(x, y, [tuple(p) for p in f.pop("points")], kind=kind, **f)
        return world.create_entity(body, *([Anchor()] if static else []))
    return make


def _nearest(world: World, x: float, y: float, skip: Sequence[int] = ()) -> int | None:
    """The particle nearest ``(x, y)`` within ``TIE_REACH`` px (not one of ``skip``)."""
    if world.store.particles.n == 0:
        return None
    entity = world.nearest_particle(x, y, TIE_REACH, movable=False)
    return None if entity is None or entity in skip else entity


def _rope(chain: bool) -> Callable[..., Any]:
    def make(world: World, x: float, y: float, to: list[float], links: int, pinned: bool,
             tie: bool) -> Any:
        target = _nearest(world, *to) if tie else None
        mass, radius = (0.4, 7.0) if chain else (0.1, 3.0)
        body = rope(world, (x, y), tuple(to), links, mass=mass, radius=radius,
                    pin_start=pinned)
        if target is not None:  # the last node is tied to what lies there
            last = body.particles[-1]
            world.create_entity(Spring(last, target, max_stretch=None))
        return body
    return make


def _spring(world: World, x: float, y: float, to: list[float], stiffness: float,
            max_stretch: float) -> int:
    a = _nearest(world, x, y)
    b = _nearest(world, *to, skip=[a] if a is not None else [])
    if a is None or b is None:
        raise WorldError(f"spring: field {'x' if a is None else 'to'} must be within "
                         f"{TIE_REACH:g} px of a particle to tie (none there)")
    return world.create_entity(Spring(a, b, stiffness=stiffness,
                                      max_stretch=None if max_stretch <= 0 else max_stretch))


def _ends_at(world: World, x: float, y: float) -> list[int]:
    """Bodies and particles under ``(x, y)``: a joint's two ends (topmost first)."""
    found = [e for e in world.query_point(x, y)
             if world.has_component(e, RigidBody) or world.has_component(e, Particle)]
    return list(dict.fromkeys(reversed(found)))


def _joint(world: World, x: float, y: float, weld: bool, limit: bool, lower: float,
           upper: float, motor_speed: float, motor_torque: float) -> int:
    ends = _ends_at(world, x, y)
    if len(ends) < 2:
        raise WorldError("hinge: field x must put it on two bodies that overlap "
                         f"(found {len(ends)} at {x:g}, {y:g})")
    return world.create_entity(Joint(ends[1], ends[0], x, y, weld=weld,
                                     lower=lower if limit else None,
                                     upper=upper if limit else None,
                                     motor_speed=motor_speed, motor_torque=motor_torque))


def _segment(world: World, x: float, y: float, to: list[float], friction: float | None = None,
             restitution: float | None = None, layer: int = 1) -> None:
    world.add_segment((x, y), tuple(to), friction=friction, restitution=restitution,
                      layer=layer)


def _polygon(world: World, x: float, y: float, points: list[list[float]],
             friction: float | None = None, restitution: float | None = None,
             layer: int = 1) -> None:
    world.add_polygon([(x + px, y + py) for px, py in points], friction=friction,
                      restitution=restitution, layer=layer)


def _sensor(world: World, x: float, y: float, width: float, height: float) -> int:
    return world.create_entity(Sensor.box(x, y, width, height))


def _sensor_on(world: World, x: float, y: float, width: float, height: float,
               dx: float, dy: float) -> int:
    """A sensor box on the body or particle under ``(x, y)`` (topmost), its centre
    ``(dx, dy)`` from that entity's centre in its frame: it follows the entity."""
    ends = _ends_at(world, x, y)
    if not ends:
        raise WorldError(f"sensor_on: field x must put it on a body or particle (none at "
                         f"{x:g}, {y:g})")
    return world.create_entity(Sensor.box(dx, dy, width, height, on=ends[0]))


def _static_to_kind(values: dict[str, Any]) -> dict[str, Any]:
    """A rigid piece's first ``static`` field as its ``kind``."""
    out = {k: v for k, v in values.items() if k != "static"}
    if values.get("static") is True:
        out["kind"] = "static"
    return out


def _square(half: float) -> list[list[float]]:
    return [[-half, -half], [half, -half], [half, half], [-half, half]]


_SURFACE = (Field("friction", 0.6, _FRICTION), Field("restitution", 0.0, _BOUNCE))
#: A level segment's or polygon's surface: None (not given) mixes as docs/api.md says.
_LEVEL_SURFACE = (
    Field("friction", None, limits.FRICTION, doc="none: the toucher's own"),
    Field("restitution", None, limits.UNIT, doc="none: the toucher's own"),
    Field("layer", 1, limits.INT, doc="met by masks holding it"))
_KIND = Field("kind", "dynamic", BODY_KINDS, doc="static: pinned; kinematic: moved")

#: Every thing the framework has, as pieces (a game's kit adds its own).
FRAMEWORK: tuple[Piece, ...] = (
    Piece("particle", "particle", _particle, (
        Field("mass", 1.0, _MASS), Field("radius", 6.0, _RADIUS, "size"),
        Field("anchored", False), *_SURFACE)),
    Piece("anchor", "anchor (a pinned point)", _anchor, (
        Field("radius", 5.0, _RADIUS, "size"),)),
    Piece("jelly_ball", "jelly ball", lambda w, x, y, **f: jelly_ball(w, x, y, **f), (
        Field("radius", 40.0, limits.Range(2.0, 1e4), "size"),
        Field("vertices", 24, limits.whole(3, 200)),
        Field("pressure", 1.0, ("AreaConstraint", "pressure")),
        Field("stiffness", 1.0, _STIFF), Field("mass", 0.2, _MASS))),
    Piece("soft_box", "shape-matched box", lambda w, x, y, **f: soft_box(w, x, y, **f), (
        Field("width", 40.0, _SIZE, "size"), Field("height", 40.0, _SIZE, "size"),
        Field("alpha", 1.0, ("ShapeMatch", "alpha")), Field("mass", 0.5, _MASS))),
    Piece("rigid_box", "rigid box", _rigid("box"), (
        Field("width", 40.0, _SIZE, "size"), Field("height", 40.0, _SIZE, "size"),
        Field("angle", 0.0, ("RigidBody", "angle"), "angle"),
        Field("mass", 1.0, ("RigidBody", "mass")), _KIND, *_SURFACE)),
    Piece("rigid_circle", "rigid circle", _rigid("circle"), (
        Field("radius", 20.0, ("RigidBody", "radius"), "size"),
        Field("angle", 0.0, ("RigidBody", "angle"), "angle"),
        Field("mass", 1.0, ("RigidBody", "mass")), _KIND, *_SURFACE)),
    Piece("rigid_polygon", "rigid polygon (concave allowed)", _rigid("polygon"), (
        Field("points", _square(20.0), ("RigidBody", "points"), "outline",
              "outline relative to x, y (px)"),
        Field("angle", 0.0, ("RigidBody", "angle"), "angle"),
        Field("mass", 1.0, ("RigidBody", "mass")), _KIND, *_SURFACE)),
    Piece("rope", "rope", _rope(False), (
        Field("to", [400.0, 200.0], role="point", doc="the other end (px)"),
        Field("links", 10, _COUNT), Field("pinned", True, doc="x, y is a pin"),
        Field("tie", True, doc="tie the end to the particle there"))),
    Piece("chain", "chain", _rope(True), (
        Field("to", [400.0, 200.0], role="point", doc="the other end (px)"),
        Field("links", 8, _COUNT), Field("pinned", True, doc="x, y is a pin"),
        Field("tie", True, doc="tie the end to the particle there"))),
    Piece("spring", "spring (between two particles)", _spring, (
        Field("to", [460.0, 300.0], role="point", doc="the particle at the other end"),
        Field("stiffness", 1.0, _STIFF),
        Field("max_stretch", 0.0, limits.Range(0.0, 1e6), doc="0: unbreakable"))),
    Piece("hinge", "hinge / weld joint (on two bodies)", _joint, (
        Field("weld", False), Field("limit", False, doc="keep the angle in lower..upper"),
        Field("lower", -0.5, ("Joint", "lower"), doc="rad"),
        Field("upper", 0.5, ("Joint", "upper"), doc="rad"),
        Field("motor_speed", 0.0, ("Joint", "motor_speed"), doc="rad/s"),
        Field("motor_torque", 0.0, ("Joint", "motor_torque"), doc="0: no motor"))),
    Piece("segment", "level segment", _segment, (
        Field("to", [500.0, 300.0], role="point", doc="the other end (px)"),
        *_LEVEL_SURFACE)),
    Piece("polygon", "level polygon", _polygon, (
        Field("points", _square(40.0), role="outline", doc="relative to x, y (px)"),
        *_LEVEL_SURFACE)),
    Piece("sensor", "sensor box", _sensor, (
        Field("width", 80.0, limits.Range(1e-3, 1e9), "size"),
        Field("height", 80.0, limits.Range(1e-3, 1e9), "size"))),
    Piece("sensor_on", "sensor on a body (follows it)", _sensor_on, (
        Field("width", 40.0, limits.Range(1e-3, 1e9), "size"),
        Field("height", 40.0, limits.Range(1e-3, 1e9), "size"),
        Field("dx", 0.0, limits.COORD, doc="from its centre, in its frame (px)"),
        Field("dy", 0.0, limits.COORD, doc="from its centre, in its frame (px)"))),
)

#: The framework's pieces that look at what is built: ropes and chains tie their end,
#: springs and hinges join what lies under their ends.
_READERS = ("rope", "chain", "spring", "hinge", "sensor_on")
FRAMEWORK = tuple(replace(p, reads=p.kind in _READERS,
                          upgrade=_static_to_kind if p.kind.startswith("rigid_") else None)
                  for p in FRAMEWORK)


def _not_placed(world: World, x: float, y: float) -> None:
    raise WorldError("part: a part of the opened level is copied (duplicate), not placed")


#: The piece a part of an opened level is shown as (its fields: where it is, px).
PART = Piece("part", "part of the opened level", _not_placed, group="opened")
