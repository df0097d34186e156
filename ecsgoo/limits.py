"""The bounds every value keeps, the ranges made from them, and stiffness ↔ compliance.

A table's field declares its range on its column (``columns``), which adds it to
``FIELDS``; the riders' (Anchor, Fruit), the World's and the stages' settings are
declared here. The components (constructors and setters), ``World`` (settings),
the stages (settings) and the loader all check values against ``FIELDS``, so what the
API accepts is what a world file may hold: a world either cannot be made, or
it saves and loads back. The ranges are generous but keep the kernels finite:
positions within ±1e9 px (the contact grid and the ``h²`` terms stay far from
overflow), integers well inside int64 (counters that grow by one never wrap).

``check("Particle", "mass", value)`` returns the value cast (float or int) or
raises ``WorldError`` naming the field; ``FIELDS["Particle"]["mass"]`` is its
``Range``, which the loader uses to name the file, the entity and the field.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import fruit as _fruit
from .errors import WorldError

#: Largest position, px (particles, pins, bounds, level geometry, the pointer).
MAX_COORD = 1e9
#: Largest speed, px/s, and acceleration (gravity), px/s².
MAX_SPEED = MAX_ACCEL = 1e9
#: Largest pending force, mass·px/s².
MAX_FORCE = 1e9
#: Fastest a joint's motor may drive, rad/s (a thousand turns a second and more).
MAX_MOTOR_SPEED = 1e4
#: Longest distance, px: two points within ±MAX_COORD are at most 2√2·1e9 apart. Rest
#: lengths, shape offsets and previous positions (a particle at the edge moving at
#: MAX_SPEED for the longest step) stay within it.
MAX_SPAN = 3e9
#: Largest |rest area|, px²: a ring within ±MAX_COORD encloses at most (2e9)².
MAX_AREA = (2 * MAX_COORD) ** 2
#: Integers (ids, groups, counters) stay within ±2**62: int64 with room to count.
MAX_INT = 2**62
#: Largest entity id a world hands out or loads. Ids are esper's, which counts up
#: from 1 and has no public call to jump ahead: reaching id n costs n cheap
#: create/delete pairs (0.3 µs each), so the bound keeps a load under ~1 s.
MAX_ENTITY_ID = 2**22
#: Largest world file, bytes: MAX_ENTITY_ID entities at ~200 bytes each fit; the loader
#: reads no more than this (a device such as /dev/zero never ends).
MAX_FILE_BYTES = 2**30
#: Lightest particle (its inverse mass, 1e6, stays far from overflowing) and heaviest
#: finite one (mass-weighted sums of positions stay finite); ``inf`` = immovable.
MIN_MASS, MAX_MASS = 1e-6, 1e12
#: Shortest non-zero rest length, px (stretch = length / rest must stay finite).
MIN_REST = 1e-6
#: Softest spring: XPBD compliance, px per unit force.
MAX_COMPLIANCE = 1e6
#: Compliance of a spring of stiffness 0.5: stiffness k maps to ``(1/k − 1)·STIFFNESS_SCALE``.
STIFFNESS_SCALE = 1e-3
#: Most substeps per step and constraint iterations per substep (a typo must not make a
#: step take forever).
MAX_SUBSTEPS = MAX_ITERATIONS = 1000
#: Most threads a world may ask for (``World.threads``; it gets at most numba's).
MAX_THREADS = 256
#: Shortest and longest step, s (a frame is 1/60 s; outside these h², 1/h² or the
#: distances travelled overflow).
MIN_DT, MAX_DT = 1e-6, 1.0
#: Largest area pressure (rest area × pressure is the target; 2.2 is a taut balloon).
MAX_PRESSURE = 100.0
#: Largest ShapeMatch scale (its goal shape's size over its rest shape's).
MAX_SHAPE_SCALE = 100.0
#: Largest Coulomb friction coefficient (real materials stay below ~2).
MAX_FRICTION = 100.0
#: Smallest and largest rigid-body size and outline coordinate, px (mass·size² stays
#: finite and non-zero).
MIN_SHAPE, MAX_SHAPE = 1e-3, 1e6
#: Most points of an outline (a rigid body's polygon, a sensor's): checking that an
#: outline does not cross itself costs points², cutting a concave one into convex pieces
#: points³ (3,000 points took over 20 s), so a file's size keeps bounding its load.
MAX_OUTLINE_POINTS = 256
#: Most frames a spring may stay over its limit before it breaks (~190 days at 60 Hz).
MAX_FRAMES = 10**9


def compliance_of(stiffness: float) -> float:
    """XPBD compliance (px per unit force) of a spring ``stiffness`` in (0, 1]; 1 is rigid."""
    return (1.0 / stiffness - 1.0) * STIFFNESS_SCALE


def stiffness_of(compliance: Any) -> Any:
    """The stiffness in (0, 1] equivalent to ``compliance`` (a number or an array)."""
    return 1.0 / (1.0 + compliance / STIFFNESS_SCALE)


def _softest() -> float:
    """The smallest stiffness whose compliance is at most MAX_COMPLIANCE (to the bit)."""
    k = stiffness_of(MAX_COMPLIANCE)
    while compliance_of(k) > MAX_COMPLIANCE:
        k = math.nextafter(k, 1.0)
    return k


#: Softest stiffness a spring may be given (compliance MAX_COMPLIANCE).
MIN_STIFFNESS = _softest()


@dataclass(frozen=True)
class Range:
    """The values one field may take: ``low``..``high``, both included unless said.

    ``open_low``: ``low`` itself is refused, ``(low, high]``; ``zero``: 0 is allowed
    although below ``low``; ``inf``: +inf is allowed too (an immovable mass, an
    unbreakable spring); ``integer``: whole numbers only. NaN is never allowed.
    """

    low: float
    high: float
    open_low: bool = False
    zero: bool = False
    inf: bool = False
    integer: bool = False

    def contains(self, value: float) -> bool:
        """Whether one number is in range (ints compared exactly, NaN never in)."""
        above = value > self.low if self.open_low else value >= self.low
        return ((above and value <= self.high) or (self.zero and value == 0)
                or (self.inf and value == math.inf))

    def mask(self, values: np.ndarray) -> np.ndarray:
        """Which of ``values`` are in range (an array of them: a column of a world file)."""
        v = np.asarray(values)
        if v.dtype == np.int64 or v.dtype == np.bool_:
            return (v >= self.low) & (v <= self.high)
        above = v > self.low if self.open_low else v >= self.low
        ok = above & (v <= self.high)
        if self.zero:
            ok |= v == 0
        if self.inf:
            ok |= v == math.inf
        return ok

    def clamp(self, value: float) -> float:
        """The nearest value in range (NaN stays NaN: the check then names it).

        For values a stage derives from the simulation (a merged fruit's position
        and velocity), which may have left the range the API guards.
        """
        return min(max(value, self.low), self.high) if value == value else value

    def describe(self) -> str:
        """The range as messages say it: ``in 1..1000``, ``in (0, 1]``, ``within ±1e+09``."""
        if self.integer:
            return f"in {int(self.low)}..{int(self.high)}"
        low, high = f"{self.low:g}", f"{self.high:g}"
        if self.high == math.inf:
            text = f"> {low}" if self.open_low else f">= {low}"
        elif self.open_low:
            text = f"in ({low}, {high}]"
        elif self.low == -self.high:
            text = f"within ±{high}"
        else:
            text = f"in {low}..{high}"
        if self.zero:
            text = f"0 or {text}"
        if self.inf and self.high != math.inf:
            text += " or inf"
        return text

    def problem(self, value: Any) -> str | None:
        """What is wrong with a number (``must be in 1..1000, got 5000``), or None."""
        if self.contains(value):
            return None
        return f"must be {self.describe()}, got {value!r}"

    def check(self, value: Any, owner: str, name: str) -> Any:
        """``value`` cast to int or float if it is in range; else WorldError naming the field."""
        if type(value) is (int if self.integer else float) and self.low < value <= self.high:
            return value  # the common case (already its type, inside), checked fast
        out = self._cast(value, owner, name)
        if not self.integer and math.isinf(out) and not (self.inf or self.high == math.inf):
            raise WorldError(f"{owner}: field {name} must be finite, got {value!r}")
        if not self.contains(out):
            raise WorldError(f"{owner}: field {name} must be {self.describe()}, got {value!r}")
        return out

    def _cast(self, value: Any, owner: str, name: str) -> Any:
        want = "a whole number" if self.integer else "a number"
        try:
            if not self.integer:
                out = float(value)
            elif isinstance(value, float) and value.is_integer():
                out = int(value)
            else:
                out = operator.index(value)
        except (TypeError, ValueError, OverflowError):
            raise WorldError(f"{owner}: field {name} must be {want}, got {value!r}") from None
        if not self.integer and math.isnan(out):
            raise WorldError(f"{owner}: field {name} must be finite, got {value!r}")
        return out


def within(bound: float) -> Range:
    """``-bound..bound``: a coordinate, a speed, a force."""
    return Range(-bound, bound)


def whole(low: int, high: int) -> Range:
    """The whole numbers ``low..high``."""
    return Range(low, high, integer=True)


COORD, SPAN, UNIT = within(MAX_COORD), within(MAX_SPAN), Range(0.0, 1.0)
FRACTION = Range(0.0, 1.0, open_low=True)
ID, INT = whole(0, MAX_INT), whole(-MAX_INT, MAX_INT)
#: A velocity component, px/s (and an angular velocity, rad/s), and a force, mass·px/s².
SPEED, FORCE = within(MAX_SPEED), within(MAX_FORCE)
#: An angular impulse or torque-like quantity: a force at the largest lever arm.
MOMENT = within(MAX_FORCE * MAX_SHAPE)
#: A limit that may be inf and must be above 0 (a breaking force, a breaking stretch).
POSITIVE_OR_INF = Range(0.0, math.inf, open_low=True, inf=True)
#: A non-negative amount that may be inf (a motor's torque, a force held).
AMOUNT = Range(0.0, math.inf, inf=True)
#: Coulomb friction coefficient.
FRICTION = Range(0.0, MAX_FRICTION)
#: An entity's id (``World.next_entity`` may be one more).
ENTITY = whole(1, MAX_ENTITY_ID)
#: How many steps one ``World.step(n)`` call may take.
STEPS = whole(0, MAX_INT)
#: The length of an array indexed by entity id (a stage's memory of who was where).
BY_ENTITY = whole(0, MAX_ENTITY_ID + 1)
#: A rigid body's angle, rad (any number of turns, but finite and within float range).
ANGLE = within(1e12)
#: A rigid body's size, px: from a thousandth of a pixel (below, its inertia underflows)
#: to small enough that its inertia stays finite.
SIZE = Range(MIN_SHAPE, MAX_SHAPE)
#: A speed setting of a stage: >= 0 px/s, inf allowed (no limit).
SPEED_SETTING = Range(0.0, math.inf, inf=True)

#: The range of every checked field, by the class that holds it. The tables' components
#: (Particle, RigidBody, Joint, Spring, AreaConstraint, ShapeMatch) are declared by their
#: columns (``columns``, which adds them here with ``declare``); the riders, the World's
#: settings and the stages' settings, which have no column, here.
FIELDS: dict[str, dict[str, Range]] = {
    "Anchor": {"x": COORD, "y": COORD},
    "Fruit": {"kind": whole(0, _fruit.LARGEST)},
    "World": {
        "gravity": within(MAX_ACCEL), "dt": Range(MIN_DT, MAX_DT),
        "substeps": whole(1, MAX_SUBSTEPS), "iterations": whole(1, MAX_ITERATIONS),
        "damping": UNIT, "bounds": COORD, "contact_slop": Range(0.0, MAX_COORD),
        "frame": ID, "next_entity": whole(1, MAX_ENTITY_ID + 1), "grab": COORD,
        "threads": whole(1, MAX_THREADS),
    },
    "Break": {"break_frames": whole(1, MAX_FRAMES)},
    "Project": {"iterations": whole(1, MAX_ITERATIONS)},
    "Collide": {"bounce_speed": SPEED_SETTING, "push_speed": SPEED_SETTING,
                "hold_speed": SPEED_SETTING},
}


def declare(owner: str, ranges: dict[str, Range]) -> None:
    """Add ``owner``'s ranges to ``FIELDS`` (a table's, from its columns).

    Two tables of one component (springs and tethers) declare it together; a key
    both declare must have one range.
    """
    known = FIELDS.setdefault(owner, {})
    for key, rng in ranges.items():
        if known.setdefault(key, rng) != rng:
            raise ValueError(f"{owner}.{key} declared with two ranges")


def check(owner: str, name: str, value: Any) -> Any:
    """``value`` cast to ``owner``'s field ``name``'s type, or WorldError naming the field."""
    return FIELDS[owner][name].check(value, owner, name)


def entity_ids(owner: str, name: str, values: Any) -> np.ndarray:
    """``values`` as an int64 array of entity ids in ``1..MAX_ENTITY_ID``, else WorldError.

    For a stage's saved state: the ids size the arrays it allocates, so they are
    checked before anything that large exists.
    """
    ids = np.asarray(values)
    if ids.size and (ids.dtype.kind not in "iu" or not ENTITY.mask(ids.astype(np.int64)).all()):
        raise WorldError(f"{owner}: field {name} must hold entity ids {ENTITY.describe()}")
    return ids.astype(np.int64)


def check_all(owner: str, name: str, values: Any) -> list[Any]:
    """Each of ``values`` (a point, a list of ids) checked as ``owner``'s field ``name``."""
    rng = FIELDS[owner][name]
    return [rng.check(v, owner, name) for v in values]
