"""Sensors: static regions that push nothing and say what is inside them.

A ``Sensor`` entity (``Sensor.box``, ``Sensor.circle``, ``Sensor.polygon``)
keeps ``inside``: the entities overlapping it at the end of the last frame —
particles by their disc, soft bodies (the entity of their AreaConstraint or
ShapeMatch) when one of their outline particles does — respecting its
``mask``. At the end of every frame (``World.end_frame``) the World updates
each sensor and dispatches ``sensor_entered(sensor, entity)`` and
``sensor_left(sensor, entity)``, in ascending entity order. An entity deleted
while inside leaves it at once (``sensor_left`` from ``World.delete_entity``), so
``inside`` never holds an entity that no longer exists. Writing a sensor's
fields moves or reshapes it.

A sensor made ``on=entity`` (a rigid body or a particle) follows it: its ``x, y``
(or a polygon's ``points``) are then in that entity's frame — an offset from its
centre of mass, turning with it — and it never senses the entity it is on (a pig's
hit box, a magnet, a bomb radius). Deleting that entity deletes the sensor with it
(after ``sensor_left`` for what was inside), as a spring goes with its particle.
"""

from __future__ import annotations

import itertools
import math
import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import geometry, limits, queries
from .errors import WorldError
from .kernels.contacts import inside_ring
from .kernels.sensing import (
    BOX,
    CIRCLE,
    POLYGON,
    sense_discs,
    sense_discs_again,
    sense_outlines,
)
from .physics.broadphase import one_cell
from .polygons import segments_meet

if TYPE_CHECKING:
    from .world import World


@dataclass
class Sensor:
    """A static region: ``kind`` ``"box"`` (centre ``x, y``, ``width × height`` px),
    ``"circle"`` (centre, ``radius`` px) or ``"polygon"`` (``points``, px)."""

    kind: str = "box"
    x: float = 0.0
    y: float = 0.0
    width: float = 0.0
    height: float = 0.0
    radius: float = 0.0
    points: list[list[float]] = field(default_factory=list)
    #: Layers it senses: a particle is sensed when its ``layer`` shares a bit with it.
    mask: int = -1
    #: Entities overlapping it at the end of the last frame, ascending (the World writes it).
    inside: list[int] = field(default_factory=list)
    #: The rigid body or particle it follows (its shape then in that entity's frame), or None.
    on: int | None = None

    def __post_init__(self) -> None:
        """Refuse a shape the kernels cannot sense: the same rules for the constructors
        and a world file (which makes a Sensor from its fields)."""
        where = f"Sensor.{self.kind}" if self.kind in _SIZES else "Sensor"
        if self.kind not in _SIZES:
            raise WorldError(f"Sensor: field kind must be box, circle or polygon, got "
                             f"{_short(self.kind)}")
        self.x, self.y = (limits.COORD.check(getattr(self, k), where, k) for k in ("x", "y"))
        for name in ("width", "height", "radius"):
            value = limits.COORD.check(getattr(self, name), where, name)
            if name in _SIZES[self.kind] and value <= 0:
                raise WorldError(f"{where}: field {name} must be > 0, got {value}")
            setattr(self, name, value)
        self.mask = limits.INT.check(self.mask, where, "mask")
        self.points = _points(self.points) if self.kind == "polygon" else \
            [list(p) for p in self.points]
        self.inside = [limits.ENTITY.check(e, where, "inside") for e in self.inside]
        if self.on is not None:
            self.on = limits.ENTITY.check(self.on, where, "on")
        object.__setattr__(self, "_made", True)
        _EDITS[0] += 1  # the packed sensors (``_packed``) are made again

    def __setattr__(self, name: str, value: Any) -> None:
        """Writing a field of its shape checks it as the constructor does: a width of 0, a
        NaN centre or a polygon without points was taken, then raised from inside the next
        step (or made the world unsaveable)."""
        if name in _SHAPE and self.__dict__.get("_made"):
            trial = Sensor(**{**{key: getattr(self, key) for key in _SHAPE}, name: value})
            value = getattr(trial, name)  # as the constructor keeps it (floats, lists)
        object.__setattr__(self, name, value)
        if name in _SHAPE or name == "on":
            _EDITS[0] += 1

    @classmethod
    def box(cls, x: float, y: float, width: float, height: float, mask: int = -1,
            on: int | None = None) -> Sensor:
        """A box centred at ``(x, y)``, ``width × height`` px (positions within ±1e9);
        ``on``: the entity it follows, ``(x, y)`` then an offset in its frame."""
        return cls("box", x, y, width, height, mask=mask, on=on)

    @classmethod
    def circle(cls, x: float, y: float, radius: float, mask: int = -1,
               on: int | None = None) -> Sensor:
        """A disc of ``radius`` px centred at ``(x, y)`` (``on``: as for ``box``)."""
        return cls("circle", x, y, radius=radius, mask=mask, on=on)

    @classmethod
    def polygon(cls, points: Any, mask: int = -1, on: int | None = None) -> Sensor:
        """A polygon (at least 3 points, px, either winding, convex or not; ``on``: the
        entity it follows, the points then in its frame)."""
        return cls("polygon", points=points, mask=mask, on=on)

    def overlaps(self, px: np.ndarray, py: np.ndarray, r: np.ndarray) -> np.ndarray:
        """Which discs (centres ``px, py``, radii ``r``, px) overlap the region."""
        if self.kind == "circle":
            return np.hypot(px - self.x, py - self.y) <= self.radius + r
        if self.kind == "box":
            hw, hh = self.width / 2, self.height / 2
            qx = np.clip(px, self.x - hw, self.x + hw)
            qy = np.clip(py, self.y - hh, self.y + hh)
            return np.hypot(px - qx, py - qy) <= r
        if self.kind == "polygon":
            return _discs_in_polygon(np.asarray(self.points, dtype=np.float64), px, py, r)
        raise WorldError(f"Sensor: kind must be box, circle or polygon, got {self.kind!r}")

    def ring(self) -> np.ndarray:
        """Its outline as a (k, 2) array of corners, px (a box's four; not for a circle)."""
        if self.kind == "polygon":
            return np.asarray(self.points, dtype=np.float64)
        x0, y0, x1, y1 = self.bounds()
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])

    def bounds(self) -> tuple[float, float, float, float]:
        """Its bounding box ``(x0, y0, x1, y1)``, px."""
        if self.kind == "polygon":
            xy = np.asarray(self.points, dtype=np.float64)
            return (float(xy[:, 0].min()), float(xy[:, 1].min()), float(xy[:, 0].max()),
                    float(xy[:, 1].max()))
        hw, hh = ((self.radius, self.radius) if self.kind == "circle"
                  else (self.width / 2, self.height / 2))
        return self.x - hw, self.y - hh, self.x + hw, self.y + hh


#: The fields that size each kind (each must be > 0).
_SIZES = {"box": ("width", "height"), "circle": ("radius",), "polygon": ()}
#: The fields a write checks (``inside`` is the World's to write, every frame).
_SHAPE = ("kind", "x", "y", "width", "height", "radius", "points", "mask")


def _short(value: Any) -> str:
    """A value for a message, cut to a readable length (a file may hold any string)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _points(points: Any) -> list[list[float]]:
    """A polygon's outline: at least 3 ``(x, y)`` pairs within ±MAX_COORD enclosing an area."""
    try:
        pts = [[float(px), float(py)] for px, py in points]
    except (TypeError, ValueError, OverflowError):
        pts = []
    if not 3 <= len(pts) <= limits.MAX_OUTLINE_POINTS or \
            not all(limits.COORD.contains(v) for p in pts for v in p):
        raise WorldError(f"Sensor.polygon: field points must be 3 to {limits.MAX_OUTLINE_POINTS}"
                         f" (x, y) pairs {limits.COORD.describe()}, got {len(pts)}")
    if not math.isfinite(area := geometry.polygon_area(np.array(pts))) or area == 0.0:
        raise WorldError("Sensor.polygon: field points enclose no area")
    return pts


#: Discs tested against a polygon's edges at once: bounds each temporary array at
#: _DISCS × MAX_OUTLINE_POINTS values (2,000 particles in a big polygon took ~1 GB at once).
_DISCS = 1024


def _discs_in_polygon(xy: np.ndarray, px: np.ndarray, py: np.ndarray,
                      r: np.ndarray) -> np.ndarray:
    """Discs whose centre is inside the polygon or whose edge distance is at most r."""
    inside = np.asarray(geometry.point_in_polygon(np.column_stack([px, py]), xy), dtype=bool)
    a, b = xy, np.roll(xy, -1, axis=0)
    for start in range(0, len(px), _DISCS):
        part = slice(start, start + _DISCS)
        inside[part] |= _near_edges(a, b, px[part], py[part], r[part])
    return inside


def _near_edges(a: np.ndarray, b: np.ndarray, px: np.ndarray, py: np.ndarray,
                r: np.ndarray) -> np.ndarray:
    """Per point ``(px, py)``: whether some segment ``a[k] b[k]`` is within ``r`` of it."""
    e = b - a
    t = ((px[:, None] - a[None, :, 0]) * e[None, :, 0] + (py[:, None] - a[None, :, 1])
         * e[None, :, 1]) / np.maximum((e**2).sum(axis=1), 1e-300)[None, :]
    t = np.clip(t, 0.0, 1.0)
    qx, qy = a[None, :, 0] + t * e[None, :, 0], a[None, :, 1] + t * e[None, :, 1]
    return (np.hypot(px[:, None] - qx, py[:, None] - qy) <= r[:, None]).any(axis=1)


def follow_check(world: World, entity: int, sensor: Sensor) -> None:
    """Refuse a sensor ``on`` something that is neither a rigid body nor a particle."""
    st = world.store
    if sensor.on is not None and sensor.on not in st.bslot and sensor.on not in st.pslot:
        raise WorldError(f"entity {entity} (Sensor): field on refers to entity {sensor.on}, "
                         f"which is {world._kind_of(sensor.on)}, not a RigidBody or a "
                         "Particle")


def placed(world: World, sensor: Sensor) -> Sensor:
    """``sensor`` in world coordinates now: itself, or (``on``) its shape carried by the
    pose of the entity it follows (a turned box becomes its polygon)."""
    if sensor.on is None:
        return sensor
    st = world.store
    if sensor.on in st.bslot:
        b, row = st.bodies, st.bslot[sensor.on]
        (cx, cy), turn = b.pos[row], float(b.angle[row])
    else:
        cx, cy = world.store.particles.pos[st.pslot[sensor.on]]
        turn = 0.0
    c, s = math.cos(turn), math.sin(turn)
    if sensor.kind == "box" and turn != 0.0:
        hw, hh = sensor.width / 2, sensor.height / 2
        local = [[sensor.x + u, sensor.y + v] for u, v in
                 ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))]
    elif sensor.kind == "polygon":
        local = sensor.points
    else:
        x, y = cx + c * sensor.x - s * sensor.y, cy + s * sensor.x + c * sensor.y
        return Sensor(sensor.kind, x, y, sensor.width, sensor.height, sensor.radius,
                      mask=sensor.mask)
    points = [[cx + c * u - s * v, cy + s * u + c * v] for u, v in local]
    return Sensor("polygon", points=points, mask=sensor.mask)


def sense(world: World, sensor: Sensor) -> list[int]:
    """The entities overlapping ``sensor`` now, ascending (see the module docstring)."""
    return sense_all(world, [sensor])[0]


def sense_all(world: World, sensors: list[Sensor]) -> list[list[int]]:
    """``sense`` for each of ``sensors`` at once: their discs and outlines in two kernel
    passes (``kernels.sensing``), the rigid bodies near each one exactly."""
    shown = [placed(world, sensor) for sensor in sensors]
    pack = _kept(world, sensors, shown)
    found: list[set[int]] = [set() for _ in sensors]
    st = world.store
    p = st.particles
    st.prepare()  # the rows and outlines as they are now
    if p.n:
        grid = _disc_grid(world, len(shown))
        c = p.cols
        out = np.zeros((4 * p.n + 16, 2), dtype=np.int64)
        while (m := sense_discs(len(shown), *pack, c["pos"], c["radius"], c["layer"], *grid,
                                out)) < 0:
            out = np.zeros((2 * len(out), 2), dtype=np.int64)
        entity = c["entity"]
        for k, row in out[:m].tolist():
            found[k].add(int(entity[row]))
        if len(st.outline_off) > 1:
            owners = queries.outline_owners(st)
            out = np.zeros((2 * len(owners) + 16, 2), dtype=np.int64)
            while (m := sense_outlines(len(shown), *pack, len(owners), st.outline_off,
                                       st.outline_idx, c["pos"], c["radius"], c["layer"],
                                       out)) < 0:
                out = np.zeros((2 * len(out), 2), dtype=np.int64)
            for k, o in out[:m].tolist():
                if owners[o] >= 0:
                    found[k].add(owners[o])
    if st.bodies.n:
        for k, sensor in enumerate(shown):
            for entity, pieces in queries.box_bodies(world, sensor.bounds(), sensor.mask):
                if _body_overlaps(sensor, pieces):
                    found[k].add(entity)
    for k, sensor in enumerate(sensors):
        found[k].discard(sensor.on)
    return [sorted(f) for f in found]


def _disc_grid(world: World, count: int) -> tuple[Any, ...]:
    """The particles' grid ``sense_discs`` looks through for ``count`` sensors: a few rows
    are looked at one by one; more through the grid (the frame's, if a query or the
    contact events made it already)."""
    grid = world.broadphase.kept_particles(world)
    if grid is None:
        n = world.store.particles.n
        grid = one_cell(n) if n * count <= BRUTE_ROWS else world.broadphase.particles(world)
    return grid


#: Sensors × particles up to which every row is looked at (no grid is made for them).
BRUTE_ROWS = 4096
#: ``Sensor.kind`` as ``kernels.sensing`` codes it.
_KINDS = {"box": BOX, "circle": CIRCLE, "polygon": POLYGON}


#: Writes of a sensor's shape, mask or ``on`` so far (and sensors made): a count that tells
#: whether the sensors packed (and listed) last frame still hold.
_EDITS = [0]


def _kept(world: World, sensors: list[Sensor], shown: list[Sensor]) -> tuple[np.ndarray, ...]:
    """``_packed(shown)``, kept while no sensor was made or reshaped and none follows
    anything (then the pack is made every frame)."""
    if any(s.on is not None for s in sensors):
        return _packed(shown)
    key = (tuple(map(id, sensors)), _EDITS[0])
    kept = world.__dict__.get("_sensor_pack")
    if kept is None or kept[0] != key:
        kept = world._sensor_pack = (key, _packed(shown))
    return kept[1]


def _packed(shown: list[Sensor]) -> tuple[np.ndarray, ...]:
    """The sensors (placed) as ``kernels.sensing`` takes them: kinds, geometry rows,
    the polygons' corner offsets, corners and their rows, masks."""
    count = len(shown)
    kind = np.array([_KINDS[s.kind] for s in shown], dtype=np.int64)
    geo = np.array([(s.x, s.y, s.width / 2, s.height / 2, s.radius, *s.bounds())
                    for s in shown], dtype=np.float64).reshape(count, 9)
    mask = np.array([s.mask for s in shown], dtype=np.int64)
    corners = [s.points if s.kind == "polygon" else [] for s in shown]
    poly_off = np.zeros(count + 1, dtype=np.int64)
    poly_off[1:] = np.cumsum([len(c) for c in corners])
    flat = [pt for c in corners for pt in c]
    poly_xy = np.array(flat, dtype=np.float64).reshape(len(flat), 2)
    return kind, geo, poly_off, poly_xy, np.arange(len(flat), dtype=np.int64), mask


def _body_overlaps(sensor: Sensor, pieces: list[tuple[np.ndarray, float]]) -> bool:
    """Whether a rigid body (its convex pieces: world vertices, radius) overlaps the
    sensor: a circle piece as a disc; polygon pieces when one of their edges meets the
    sensor's region, or the sensor's own point is inside one (a sensor smaller than the
    body). Exact, so the cost is the body's edges times the sensor's whatever the sizes
    (sampling the edges every 2 px made a 1e6 px body cost 2 million points a frame), and
    all of a body's edges go at once (a concave outline may have a hundred pieces)."""
    discs = [(xy[0], r) for xy, r in pieces if len(xy) == 1]
    if discs:
        centres, radii = np.array([c for c, _ in discs]), np.array([r for _, r in discs])
        if sensor.overlaps(centres[:, 0], centres[:, 1], radii).any():
            return True
    rings = [xy for xy, _ in pieces if len(xy) > 1]
    if not rings:
        return False
    a = np.concatenate(rings)
    ends = np.cumsum([len(xy) for xy in rings])
    following = np.arange(1, len(a) + 1)  # each corner's next one in its own ring
    following[ends - 1] = np.r_[0, ends[:-1]]  # a ring's last corner: its first
    if _edges_meet(sensor, a, a[following]):
        return True
    px, py = (sensor.x, sensor.y) if sensor.kind != "polygon" else tuple(sensor.points[0])
    return any(inside_ring(px, py, xy, np.arange(len(xy)), 0, len(xy)) for xy in rings)


def _edges_meet(sensor: Sensor, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether some edge ``a[k] b[k]`` (closed rings' edges: every corner is some ``a[k]``)
    touches the sensor's region (its inside or its edge)."""
    if sensor.kind == "circle":
        return bool(_near_edges(a, b, np.array([sensor.x]), np.array([sensor.y]),
                                np.array([sensor.radius]))[0])
    if sensor.overlaps(a[:, 0], a[:, 1], np.zeros(len(a))).any():
        return True  # a corner inside
    ring = sensor.ring()
    c, d = ring, np.roll(ring, -1, axis=0)
    return bool(segments_meet(a[:, None], b[:, None], c[None, :], d[None, :]).any())


def update(world: World) -> None:
    """Refresh every sensor's ``inside`` and dispatch who entered and who left.

    All are sensed at once; once a handler has run (it may have moved, made or deleted
    anything) the sensors after its own are sensed again."""
    if not world._has_any(Sensor):
        return  # a world without sensors (a resting one too) pays no look
    sensors = world.get_component(Sensor)
    seen = _discs_seen(world, sensors)
    if seen is None:
        if _all_empty(world, sensors):
            return  # nothing was inside and nothing is: no event (most frames of most games)
    elif seen[0]:
        return  # the discs the sensors hold, in them still: no event
    _update(world, sensors, None if seen is None else seen[1:])


def _update(world: World, sensors: list[tuple[int, Sensor]],
            first: tuple[np.ndarray, int] | None = None) -> None:
    """``update``'s full look: ``first``, the pairs ``(sensor, row)`` ``_discs_seen`` found
    this frame (the look ``sense_all`` would make, in a world of particles alone), is the
    first look's answer (a second look of the same rows cost ~10 µs an event frame); once
    a handler has run the sensors after its own are sensed again."""
    now: list[list[int]] = [] if first is None else _entities_in(world, len(sensors), *first)
    for k, (entity, sensor) in enumerate(sensors):
        if not now:
            now = sense_all(world, [s for _, s in sensors[k:]])
        inside = now.pop(0)
        if inside == sensor.inside:
            continue
        before = set(sensor.inside)
        sensor.inside = inside
        for other in inside:
            if other not in before:
                world.dispatch("sensor_entered", entity, other)
                now = []
        for other in sorted(before - set(inside)):
            world.dispatch("sensor_left", entity, other)
            now = []


def _entities_in(world: World, count: int, pairs: np.ndarray, m: int) -> list[list[int]]:
    """What ``sense_all`` says of ``count`` sensors, none following anything, in a world of
    particles alone, from the pairs ``(sensor, row)`` its disc pass found (``pairs[:m]``):
    each sensor's entities, ascending."""
    entity = world.store.particles.cols["entity"]
    found: list[set[int]] = [set() for _ in range(count)]
    for k, row in pairs[:m].tolist():
        found[k].add(int(entity[row]))
    return [sorted(f) for f in found]


def quiet_args(world: World) -> tuple[Any, ...] | None:
    """``frame_end.quiet``'s part, in a world of particles alone: what its look takes to
    tell that every sensor holds what it held (``sensing.sense_discs_again``: the sensors
    packed, room for the pairs, the pairs their ``inside`` lists name and their count:
    ``_held_pairs``); None when ``update`` must look in full (a sensor that follows
    something, more rows than one cell takes, or a list naming what is not a particle)."""
    if not world._has_any(Sensor):
        return _NO_SENSORS
    sensors = world.get_component(Sensor)
    listing = _listing(world, sensors)
    p = world.store.particles
    # most frames ask again of the same rows and the same lists: the answer kept (a
    # list that is replaced or changes length is another question)
    insides = [s.inside for s in listing.shown]
    lengths = list(map(len, insides))
    kept = listing.quiet
    if (kept[0] is p and kept[1] == p.version and kept[3] == lengths
            and all(map(operator.is_, kept[2], insides))):
        return kept[4]
    answer = _quiet_answer(world, sensors, listing, p.n, any(lengths))
    listing.quiet = (p, p.version, insides, lengths, answer)
    return answer


def _quiet_answer(world: World, sensors: list[tuple[int, Sensor]], listing: _Listing,
                  n: int, holding: bool) -> tuple[Any, ...] | None:
    """``quiet_args``' answer for ``n`` rows (``holding``: some sensor holds something)."""
    shown = listing.shown
    if listing.follows or n * len(shown) > BRUTE_ROWS:
        return None
    # none holds anything: ``_all_empty``'s question; else the pairs they hold
    last = _last_pairs(world, sensors) if holding else (_NO_PAIRS, 0)
    if last is None:
        return None
    return (len(shown), *listing.packed(), listing.room(n), *last)


class _Listing:
    """A world's sensors as esper listed them (``sensors``, made anew when one comes or
    goes) at ``edits`` (``_EDITS``): their components, whether one follows something, and
    (made when first asked) their pack (``_packed``) when none does."""

    def __init__(self, sensors: list[tuple[int, Sensor]]) -> None:
        self.sensors, self.edits = sensors, _EDITS[0]
        self.shown = [s for _, s in sensors]
        self.follows = any(s.on is not None for s in self.shown)
        self.pack: tuple[np.ndarray, ...] | None = None
        self.scratch = _NO_PAIRS
        #: ``quiet_args``' last answer and what it was for: the particles' table and its
        #: version, the sensors' ``inside`` lists and their lengths
        self.quiet: tuple[Any, ...] = (None, -1, [], [], None)

    def packed(self) -> tuple[np.ndarray, ...]:
        """``_packed`` of the sensors, none of which follows anything (placed where they
        are), made once."""
        if self.pack is None:
            self.pack = _packed(self.shown)
        return self.pack

    def room(self, n: int) -> np.ndarray:
        """Room for every pair ``(sensor, row)`` of ``n`` rows, kept (grown as rows come):
        the disc look's scratch, read before anything else looks (an allocation a frame
        was ~0.3 µs)."""
        size = len(self.shown) * n
        if len(self.scratch) < size:
            self.scratch = np.empty((2 * size, 2), dtype=np.int64)
        return self.scratch[:size]


def _listing(world: World, sensors: list[tuple[int, Sensor]]) -> _Listing:
    """``sensors``' listing, kept while esper's list and the sensors' edits (shapes, masks
    and ``on``) hold: a frame asks it two or three times."""
    kept = world.__dict__.get("_sensors_listed")
    if kept is None or kept.edits != _EDITS[0]:
        kept = world._sensors_listed = _Listing(sensors)
    elif kept.sensors is not sensors:
        if _same_sensors(kept.sensors, sensors):
            # esper lists anew whenever any component comes or goes (a spawn, a merge):
            # the same sensors keep their pack (~25 µs to make again)
            kept.sensors = sensors
        else:
            kept = world._sensors_listed = _Listing(sensors)
    return kept


def _same_sensors(a: list[tuple[int, Sensor]], b: list[tuple[int, Sensor]]) -> bool:
    """Whether two of esper's lists hold the same entities' very same sensors, in order."""
    return len(a) == len(b) and all(x[0] == y[0] and x[1] is y[1]
                                    for x, y in zip(a, b, strict=True))


def _held_key(world: World, sensors: list[tuple[int, Sensor]]) -> tuple[Any, ...]:
    """What ``_held_pairs``' answer holds for: the particles' rows (their table and its
    version: the entity → row map), the sensors' ``inside`` lists themselves (each is
    replaced when it changes; kept here, so no other list can take its place unseen) and
    their lengths."""
    p = world.store.particles
    inside = tuple(s.inside for _, s in sensors)
    return (p, p.version), inside, tuple(map(len, inside))


def _same_key(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two ``_held_key``s are of the same rows and the very same lists."""
    return (a[0][0] is b[0][0] and a[0][1] == b[0][1] and a[2] == b[2]
            and all(x is y for x, y in zip(a[1], b[1], strict=True)))


def _last_pairs(world: World, sensors: list[tuple[int, Sensor]]) -> tuple[np.ndarray, int] | None:
    """``_held_pairs`` of the sensors' ``inside`` lists now, kept while the rows and the
    lists hold (``_held_key``)."""
    key = _held_key(world, sensors)
    kept = world.__dict__.get("_sensors_held")
    if kept is None or not _same_key(kept[0], key):
        kept = world._sensors_held = (key, _held_pairs(world, key[1]))
    return kept[1]


def _held_pairs(world: World, lists: tuple[list[int], ...]) -> tuple[np.ndarray, int] | None:
    """The pairs ``(sensor, row)`` the ``inside`` lists name, as ``sense_discs`` writes
    them (by sensor, then row: one cell's order) and their count: a look finding just
    these finds what the sensors hold, so no event, whatever came, went or moved since
    (a spawn or a merge elsewhere changes rows, not what the sensors hold). None when a
    list names what is not a particle or is not strictly ascending (a full look writes
    such a list anew)."""
    slot, pairs = world.store.pslot, []
    for k, inside in enumerate(lists):
        rows = [slot.get(e, -1) for e in inside]
        if -1 in rows or any(b <= a for a, b in itertools.pairwise(inside)):
            return None
        pairs.extend((k, row) for row in sorted(rows))
    if not pairs:
        return _NO_PAIRS, 0
    return np.array(pairs, dtype=np.int64), len(pairs)


def _discs_seen(world: World,
                sensors: list[tuple[int, Sensor]]) -> tuple[bool, np.ndarray, int] | None:
    """In a world of particles alone (no rigid body, no soft body's outline, no sensor
    that follows anything) looked at row by row (``one_cell``, so in row order): whether
    the pairs ``(sensor, row)`` found now are those the sensors' ``inside`` lists name
    (``_held_pairs``: then no event); then the pairs found and their count (``_update``'s
    first look: scratch, read before anything looks again). None: not such a world (look
    in full)."""
    st = world.store
    p = st.particles
    if st.bodies.n or len(st.outline_off) > 1 or not p.n:
        return None
    listing = _listing(world, sensors)
    shown = listing.shown
    if listing.follows or p.n * len(shown) > BRUTE_ROWS:
        return None  # (a real grid's rows come in another order as they move)
    st.prepare()
    c = p.cols
    last, out = _last_pairs(world, sensors), listing.room(p.n)
    m, same = sense_discs_again(len(shown), *listing.packed(), c["pos"], c["radius"],
                                c["layer"], *one_cell(p.n), out,
                                *(last or (_NO_PAIRS, -1)))  # (-1: never the same)
    return same and last is not None, out, m


#: No pairs (sensors holding nothing).
_NO_PAIRS = np.zeros((0, 2), dtype=np.int64)
#: ``quiet_args`` of a world without sensors: none to look at (typed as a pack's arrays).
_NO_SENSORS = (0, np.zeros(0, dtype=np.int64), np.zeros((0, 9)), np.zeros(1, dtype=np.int64),
               np.zeros((0, 2)), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
               _NO_PAIRS, _NO_PAIRS, 0)


def _all_empty(world: World, sensors: list[tuple[int, Sensor]]) -> bool:
    """Whether no sensor held anything and none holds anything now, known from one kernel
    pass over the discs (``sense_discs`` finds nothing) when the world has no soft body's
    outline and no rigid body; False whenever a full look is needed."""
    st = world.store
    if st.bodies.n or len(st.outline_off) > 1 or any(s.inside for _, s in sensors):
        return False
    listing = _listing(world, sensors)
    if listing.follows:
        return False
    p = st.particles
    if not p.n:
        return True
    st.prepare()  # the rows as they are now (a handler may have made or deleted some)
    c, count = p.cols, len(listing.shown)
    return sense_discs(count, *listing.packed(), c["pos"], c["radius"], c["layer"],
                       *_disc_grid(world, count), _NO_HITS) == 0


#: No room for a hit: ``sense_discs`` then says how many it found (0) or that it needs room.
_NO_HITS = np.zeros((0, 2), dtype=np.int64)


def forget(world: World, entity: int) -> None:
    """``entity`` was deleted: take it out of every sensor it was inside (``sensor_left``);
    the sensors that followed it go too (each says ``sensor_left`` for what it held)."""
    riders = []
    for sensor_entity, sensor in world.get_component(Sensor):
        if entity in sensor.inside:
            sensor.inside = [e for e in sensor.inside if e != entity]
            world.dispatch("sensor_left", sensor_entity, entity)
        if sensor.on == entity:
            riders.append((sensor_entity, sensor))
    for sensor_entity, sensor in riders:
        for other in sensor.inside:
            world.dispatch("sensor_left", sensor_entity, other)
        sensor.inside = []
        if world.entity_exists(sensor_entity):
            world.delete_entity(sensor_entity)
