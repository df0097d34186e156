"""The store's row layout: every column of every table, declared once.

A ``Column`` gives its dtype, its width (0: one value per row; 2: an ``(x, y)``
pair), a new row's default (``None``: the store computes it — the previous
position is the position, a rest length is measured), its keys in a world file
(``saved``), the ``range`` of their values and, in ``doc``, its unit and which
stage writes it. Each field is declared here once: the store allocates its
tables from these specs and generates their typed views
(``store.particles.pos``); the components take their defaults, dtypes and
ranges from here (a component's ``_Field("radius")`` is a view on its column);
``limits.FIELDS`` holds every table's ranges as its columns declare them.

Saving reads every saved table through its spec alone (``saving.fields``,
``saving.columns``; ``saving.write`` writes them the same way): the
keys, dtypes, defaults and ranges, and what the rest of a ``Column`` declares —
``ref`` (the file holds entity ids where the store holds rows), ``follows`` and
``rate`` (a left-out previous position is the position, or the position less a
velocity × h), ``alias`` (``stiffness`` for ``compliance``), ``measured`` (left
out of a file: measured when loaded) and ``always`` (written even when equal to
its default). ``TableSpec.fields`` are the saved fields a component holds
itself, not in a column (a joint's ends and point, a ring's members),
``TableSpec.ends`` the two ends a link may not have on one entity, and
``TableSpec.add`` names the store's bulk entry point the loader uses.

Adding a built-in component: its module (the component, a view on its row);
its ``TableSpec`` here (with the ranges); its entry in
``store.TABLES`` with the bulk entry point ``add`` names (and its branch in
``Store.attach``); one line in ``saving.builtins.BUILTINS`` (its name in a file).
Only what a file says in its own way (a body's ``shape`` and ``size``) needs a
hook in ``saving.read.HOOKS`` and ``saving.write.HOOKS``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import limits

F8, I8, B1 = np.float64, np.int64, np.bool_
#: A joint limit this far (rad) is none: ``Joint(lower=None)`` is ``-NO_LIMIT``.
NO_LIMIT = 1e12


@dataclass(frozen=True)
class Column:
    """One column of a store table (see the module docstring)."""

    name: str
    dtype: Any
    doc: str
    default: Any = 0
    width: int = 0
    saved: tuple[str, ...] = ()
    #: The entities a value names, when a file holds entity ids: ``"particle"`` (the store
    #: holds particle rows, a file their entities) or ``"body or particle"``.
    ref: str = ""
    #: Saved even when equal to its default (left out, the loader would measure it).
    always: bool = False
    #: Left out of a file: measured when loaded (NaN until then), not the default.
    measured: bool = False
    #: Left out of a file: the value of this column (a previous position: the position)…
    follows: str = ""
    #: … less these saved keys (velocities, per second) × h, which a file may give instead.
    rate: tuple[str, ...] = ()
    #: ``(key, convert, range)``: a file may give ``key`` (in ``range``) instead,
    #: ``convert(value)`` is the column's.
    alias: tuple[str, Any, limits.Range] | None = None
    #: A field holding a list of entity ids (width -1): at least this many.
    least: int = 0
    #: The values each of its saved keys may take (None: a flag, or not saved). The API's
    #: setters, the constructors, the loader and ``Rows.write`` check against it.
    range: limits.Range | None = None
    #: The range of the velocities ``rate`` names.
    rate_range: limits.Range | None = None


@dataclass(frozen=True, eq=False)  # one object per table: hashed and compared by identity
class TableSpec:
    """The columns of one table, and the component whose rows they are."""

    component: str
    columns: tuple[Column, ...]
    #: Saved fields the component holds itself (not columns), written before the columns.
    fields: tuple[Column, ...] = ()
    #: The ``Store`` method that adds rows of this table in bulk (attaching and loading).
    add: str = ""
    #: The saved keys of its two ends, which must name two different entities (a link).
    ends: tuple[str, ...] = ()
    #: Ranges of keys a file says in its own way, read by a hook (a body's ``size``).
    hooked: tuple[tuple[str, limits.Range], ...] = ()

    def __post_init__(self) -> None:
        # a loader asks for these per field of every row: work them out once
        saved = {key: (col, k if col.width else None)
                 for col in self.columns for k, key in enumerate(col.saved)}
        object.__setattr__(self, "_saved", saved)
        object.__setattr__(self, "_by_name", {c.name: c for c in self.columns})
        object.__setattr__(self, "ranges", _ranges(self))

    def __getitem__(self, name: str) -> Column:
        return self._by_name[name]

    def default(self, name: str) -> Any:
        """A new row's value of column ``name`` (the component constructor's default)."""
        return self[name].default

    def keys(self) -> dict[str, tuple[Column, int | None]]:
        """Every saved key: ``{key: (column, element)}`` (element None: a scalar column)."""
        return self._saved

    def limit(self, key: str) -> limits.Range | None:
        """The range of saved key ``key`` (or of a velocity or alias a file may give)."""
        return self.ranges.get(key)


def _ranges(spec: TableSpec) -> dict[str, limits.Range]:
    """Every key's range, as the columns, the fields and the hooks declare them."""
    out: dict[str, limits.Range] = dict(spec.hooked)
    for col in (*spec.fields, *spec.columns):
        out.update((key, col.range) for key in col.saved if col.range is not None)
        out.update((key, col.rate_range) for key in col.rate if col.rate_range is not None)
        if col.alias:
            out[col.alias[0]] = col.alias[2]
    return out


def _one(name: str, dtype: Any, doc: str, default: Any = 0, saved: bool = True,
         **more: Any) -> Column:
    """A scalar column, saved under its own name unless ``saved`` is false."""
    return Column(name, dtype, doc, default, 0, (name,) if saved else (), **more)


def _members(least: int) -> Column:
    """The ``particles`` field of a ring or a shape: its member particles' entities."""
    return Column("particles", I8, "Member particles (entities), in order.", None, -1,
                  ("particles",), ref="particle", least=least, range=L.ID)


def _ends() -> tuple[Column, ...]:
    """The ``a``, ``b`` fields of a joint or tether: the entities of its two ends."""
    return tuple(_one(k, I8, f"Entity of end {k}: a body or a particle.", None,
                      ref="body or particle", range=L.ID) for k in ("a", "b"))


L = limits
#: Ranges shared by particles and bodies.
_GROUP = dict(range=L.INT)
_FRICTION, _BOUNCE = dict(range=L.FRICTION), dict(range=L.UNIT)
_FORCE, _STILL = dict(range=L.FORCE), dict(range=L.ID)
_NAP = dict(range=L.whole(-1, L.MAX_ENTITY_ID))

#: Particle rows. pos, prev, w, pinned and pin are what every substep touches.
PARTICLES = TableSpec("Particle", (
    Column("pos", F8, "Position, px; Integrate, Project and Collide write it.", None, 2,
           ("x", "y"), range=L.COORD),
    Column("prev", F8, "Position one substep ago, px (velocity = (pos − prev) / h); "
           "Integrate and Collide write it.", None, 2, ("px", "py"), follows="pos",
           rate=("vx", "vy"), range=L.SPAN, rate_range=L.SPEED),
    _one("mass", F8, "Mass (inf: immovable); a Fruit sets it from its kind.", 1.0,
         measured=True, range=L.Range(L.MIN_MASS, L.MAX_MASS, inf=True)),
    _one("radius", F8, "Collision radius, px; a Fruit sets it from its kind.", 4.0,
         measured=True, range=L.Range(0.0, L.MAX_COORD)),
    _one("group", I8, "Collision group: rows sharing a non-zero group do not collide.", 0,
         **_GROUP),
    _one("layer", I8, "Collision layer bits: two things collide when each one's mask holds "
         "the other's layer.", 1, **_GROUP),
    _one("mask", I8, "The layers it collides with (and queries and sensors see it on): "
         "-1 all.", -1, **_GROUP),
    _one("events", B1, "Dispatch contact_began/contact_ended for its contacts.", False),
    _one("friction", F8, "Coulomb friction coefficient of its contacts.", 0.4, **_FRICTION),
    _one("restitution", F8, "Bounce of its contacts: 0 none, 1 elastic.", 0.1, **_BOUNCE),
    Column("force", F8, "Force for the next step, mass·px/s² (World.apply_force adds to it, "
           "World.step clears it).", 0.0, 2, ("fx", "fy"), **_FORCE),
    _one("w", F8, "Inverse mass (0: pinned, immovable or frozen), from mass, pinned and "
         "frozen (derived.inverse_masses).", None, False),
    _one("pinned", B1, "Held by an Anchor.", False, False),
    Column("pin", F8, "Where its Anchor holds it, px; unpinned: where it was added or last "
           "placed (Merge's spawn point).", None, 2),
    _one("kind", I8, "Fruit kind (-1: not a fruit); Merge reads it.", -1, False),
    _one("asleep", B1, "Asleep (World(sleep=True)): held still when nothing near it moves; "
         "woken by a touch, a write, a link.", False),
    _one("still", I8, "Frames it has been slow (sleeping counts them).", 0, **_STILL),
    _one("nap", I8, "Asleep: the island it fell asleep with, named by its least entity "
         "(it sleeps and wakes with it); awake: -1.", -1, **_NAP),
    _one("frozen", B1, "Asleep and out of reach of everything awake this frame: solved as "
         "static (w = 0) until the frame ends (sleeping.freeze, Store.thaw).", False, False),
    _one("entity", I8, "The particle's entity.", None, False),
), add="add_particles")

#: Spring rows; ``a`` and ``b`` are particle rows (a world file names their entities).
SPRINGS = TableSpec("Spring", (
    _one("a", I8, "Particle row of end a.", None, ref="particle", range=L.ID),
    _one("b", I8, "Particle row of end b.", None, ref="particle", range=L.ID),
    _one("rest", F8, "Rest length, px (measured when added unless given).", None,
         measured=True, range=L.Range(L.MIN_REST, L.MAX_SPAN, zero=True)),
    _one("compliance", F8, "XPBD compliance, px per unit force (0: rigid).", 0.0,
         alias=("stiffness", L.compliance_of, L.Range(L.MIN_STIFFNESS, 1.0)),
         range=L.Range(0.0, L.MAX_COMPLIANCE)),
    _one("max_stretch", F8, "Length / rest past which it breaks (inf: unbreakable).", 2.0,
         range=L.POSITIVE_OR_INF),
    _one("stretch", F8, "Length / rest; Break writes it every frame.", 1.0,
         range=L.Range(0.0, L.MAX_SPAN)),
    _one("broken", B1, "Snapped (Break) or cut; Project skips it.", False),
    _one("buckled", B1, "Compressed below half its rest length (Break).", False),
    _one("over", I8, "Consecutive frames over max_stretch (Break).", 0, range=L.ID),
    _one("lam", F8, "XPBD multiplier; Project resets it every substep.", 0.0, False),
    _one("entity", I8, "The spring's entity.", None, False),
), add="add_springs", ends=("a", "b"))

#: Area constraints; their members are the store's area CSR arrays.
AREAS = TableSpec("AreaConstraint", (
    _one("rest_area", F8, "Signed rest area, px² (measured when added unless given).", None,
         measured=True, range=L.within(L.MAX_AREA)),
    _one("pressure", F8, "Target area / rest area (2.2: a taut balloon).", 1.0,
         range=L.Range(0.0, L.MAX_PRESSURE)),
    _one("stiffness", F8, "Fraction of each area correction applied, (0, 1].", 1.0,
         range=L.FRACTION),
    _one("self_collide", B1, "Its outline collides with itself (Collide keeps a squashed "
         "outline from folding through itself).", False),
), fields=(_members(3),), add="add_areas")
#: The old name of ``AREAS``.
RINGS = AREAS

#: Shape-matching groups; members and rest offsets are the store's shape CSR arrays.
SHAPES = TableSpec("ShapeMatch", (
    _one("alpha", F8, "Fraction of the way to the goal shape per 1/60 s, [0, 1].", 1.0,
         range=L.UNIT),
    _one("scale", F8, "Size of the goal shape: rest offsets × scale (a body's shape "
         "memory grows and shrinks with it), > 0.", 1.0,
         range=L.Range(0.0, L.MAX_SHAPE_SCALE, open_low=True)),
), fields=(_members(2),), add="add_shapes", hooked=(("rest", L.SPAN),))

#: Rigid-body rows. Like particles they are Verlet: velocity = (pos − prev) / h and
#: angular velocity = (angle − prev_angle) / h. pos is the centre of mass; the shape
#: (convex pieces in body coordinates) is the store's piece CSR arrays.
BODIES = TableSpec("RigidBody", (
    Column("pos", F8, "Centre of mass, px; Integrate, Project and Collide write it.", None, 2,
           ("x", "y"), range=L.COORD),
    Column("prev", F8, "Centre of mass one substep ago, px; Integrate, Project and Collide "
           "write it.", None, 2, ("px", "py"), follows="pos", rate=("vx", "vy"),
           range=L.SPAN, rate_range=L.SPEED),
    _one("angle", F8, "Rotation, rad counter-clockwise; Integrate, Project and Collide "
         "write it.", 0.0, range=L.ANGLE),
    Column("prev_angle", F8, "Rotation one substep ago, rad.", None, 0, ("pangle",),
           follows="angle", rate=("omega",), range=L.ANGLE, rate_range=L.SPEED),
    _one("mass", F8, "Mass.", 1.0, range=L.Range(L.MIN_MASS, L.MAX_MASS)),
    _one("inertia", F8, "Moment of inertia about the centre of mass, mass·px² (from the "
         "shape and the mass).", None, False),
    _one("friction", F8, "Coulomb friction coefficient of its contacts.", 0.6, **_FRICTION),
    _one("restitution", F8, "Bounce of its contacts: 0 none, 1 elastic.", 0.0, **_BOUNCE),
    _one("group", I8, "Collision group: bodies and particles sharing a non-zero group do "
         "not collide.", 0, **_GROUP),
    _one("layer", I8, "Collision layer bits (see Particle).", 1, **_GROUP),
    _one("mask", I8, "The layers it collides with: -1 all.", -1, **_GROUP),
    _one("events", B1, "Dispatch contact_began/contact_ended for its contacts.", False),
    Column("force", F8, "Force for the next step, mass·px/s² (World.apply_force).", 0.0, 2,
           ("fx", "fy"), **_FORCE),
    _one("w", F8, "Inverse mass (0: anchored or frozen; derived.inverse_masses).", None,
         False),
    _one("iw", F8, "Inverse moment of inertia (0: anchored or frozen).", None, False),
    _one("pinned", B1, "Held by an Anchor (static).", False, False),
    _one("kinematic", B1, "Kinematic (RigidBody(kind=\"kinematic\")): moved by its velocity "
         "alone, never pushed (w = iw = 0; Integrate keeps its velocity).", False),
    _one("stop", B1, "Kinematic, moved by World.move_to: at rest again as the frame ends.",
         False),
    _one("extent", F8, "Distance from the centre of mass to the farthest point of the "
         "shape, px (the broad phase's bounding circle).", None, False),
    _one("asleep", B1, "Asleep (World(sleep=True)): held still until woken.", False),
    _one("still", I8, "Frames it has been slow (sleeping counts them).", 0, **_STILL),
    _one("nap", I8, "Asleep: the island it fell asleep with (see Particle); awake: -1.", -1,
         **_NAP),
    _one("frozen", B1, "Asleep and out of reach of everything awake this frame: solved as "
         "static (w = iw = 0) until the frame ends (sleeping.freeze).", False, False),
    _one("entity", I8, "The body's entity.", None, False),
), add="add_bodies", hooked=(("width", L.SIZE), ("height", L.SIZE), ("radius", L.SIZE),
                             ("points", L.within(L.MAX_SHAPE))))

_IMPULSE = dict(range=L.MOMENT)
_ONE_WAY = dict(range=L.Range(0.0, L.MAX_FORCE * L.MAX_SHAPE))

#: Joint rows. An end is a body row (``a_body`` ≥ 0, anchor ``la`` in body
#: coordinates, px) or a particle row (``a_part`` ≥ 0); likewise ``b``.
JOINTS = TableSpec("Joint", (
    _one("a_body", I8, "Body row of end a, or -1 (a particle).", -1, False),
    _one("a_part", I8, "Particle row of end a, or -1 (a body).", -1, False),
    _one("b_body", I8, "Body row of end b, or -1.", -1, False),
    _one("b_part", I8, "Particle row of end b, or -1.", -1, False),
    Column("la", F8, "Anchor on body a in its own coordinates, px.", 0.0, 2, ("ax", "ay"),
           always=True, measured=True, range=L.SPAN),
    Column("lb", F8, "Anchor on body b in its own coordinates, px.", 0.0, 2, ("bx", "by"),
           always=True, measured=True, range=L.SPAN),
    _one("weld", B1, "Also keeps the relative angle.", False),
    Column("axis", F8, "A slider's axis in a's own coordinates (unit); (0, 0): a hinge.",
           0.0, 2, ("ux", "uy"), range=L.within(1.0)),
    _one("rest_angle", F8, "Angle of b minus angle of a that a weld keeps, rad.", 0.0,
         always=True, measured=True, range=L.ANGLE),
    _one("max_force", F8, "Force that breaks it, mass·px/s² (inf: unbreakable).", np.inf,
         range=L.POSITIVE_OR_INF),
    _one("force", F8, "Force it held in the last substep, mass·px/s² (Project writes it).",
         0.0, range=L.AMOUNT),
    _one("broken", B1, "Broken (Break); Project skips it.", False),
    _one("collide", B1, "Its two ends still collide with each other (Box2D's "
         "collideConnected); false: they do not touch.", False),
    Column("impulse", F8, "Accumulated impulse on b, mass·px/s (warm starting; Project).",
           0.0, 2, ("ix", "iy"), **_FORCE),
    _one("spin", F8, "A weld's accumulated angular impulse on b, mass·px²/s.", 0.0, True,
         **_IMPULSE),
    _one("lower", F8, "Least joint angle (b's angle − a's − rest_angle), rad; "
         "-NO_LIMIT: none.", -NO_LIMIT, range=L.within(NO_LIMIT)),
    _one("upper", F8, "Greatest joint angle, rad; NO_LIMIT: none.", NO_LIMIT,
         range=L.within(NO_LIMIT)),
    _one("motor_speed", F8, "Joint angle speed the motor drives at, rad/s.", 0.0,
         range=L.within(L.MAX_MOTOR_SPEED)),
    _one("motor_torque", F8, "Most torque the motor gives, mass·px²/s² (0: no motor).", 0.0,
         range=L.AMOUNT),
    _one("motor_impulse", F8, "The motor's accumulated angular impulse, mass·px²/s.", 0.0,
         **_IMPULSE),
    _one("lower_impulse", F8, "The lower limit's accumulated angular impulse, mass·px²/s.",
         0.0, **_ONE_WAY),
    _one("upper_impulse", F8, "The upper limit's accumulated angular impulse, mass·px²/s.",
         0.0, **_ONE_WAY),
    _one("entity", I8, "The joint's entity.", None, False),
), fields=(*_ends(), _one("x", F8, "Where it was made, px (world x).", None, range=L.COORD),
           _one("y", F8, "Where it was made, px (world y).", None, range=L.COORD)),
    add="add_joints", ends=("a", "b"))

#: Springs with an end on a rigid body ("tethers"): the Spring component's columns, with
#: each end a body row (anchor in body coordinates, 0: its centre of mass when left out)
#: or a particle row, as on joints.
TETHERS = TableSpec("Spring", (
    *(dataclasses.replace(c, measured=False) for c in JOINTS.columns[:6]),
    *(c for c in SPRINGS.columns if c.name not in ("a", "b")),
), fields=_ends(), add="add_tethers", ends=("a", "b"))

for _spec in (PARTICLES, SPRINGS, AREAS, SHAPES, BODIES, JOINTS, TETHERS):
    limits.declare(_spec.component, _spec.ranges)
