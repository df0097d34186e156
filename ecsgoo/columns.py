"""The store's row layout: every column of every table, declared once.

A ``Column`` gives its dtype, its width (0: one value per row; 2: an ``(x, y)``
pair), a new row's default (``None``: the store computes it — the previous
position is the position, a rest length is measured), its keys in a world file
(``saved``) and, in ``doc``, its unit and which stage writes it. Ranges live in
``limits.FIELDS`` under the table's component and the saved key. The store
allocates its tables from these specs and generates their typed views
(``store.particles.pos``); the components take their defaults from here.

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

Adding a built-in component: its module (the component, a view on its row,
its ranges in ``limits.FIELDS``); its ``TableSpec`` here; its entry in
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
    #: ``(key, convert)``: a file may give ``key`` instead, ``convert(value)`` is the column's.
    alias: tuple[str, Any] | None = None
    #: A field holding a list of entity ids (width -1): at least this many.
    least: int = 0


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

    def __post_init__(self) -> None:
        # a loader asks for these per field of every row: work them out once
        saved = {key: (col, k if col.width else None)
                 for col in self.columns for k, key in enumerate(col.saved)}
        object.__setattr__(self, "_saved", saved)
        object.__setattr__(self, "_by_name", {c.name: c for c in self.columns})

    def __getitem__(self, name: str) -> Column:
        return self._by_name[name]

    def default(self, name: str) -> Any:
        """A new row's value of column ``name`` (the component constructor's default)."""
        return self[name].default

    def keys(self) -> dict[str, tuple[Column, int | None]]:
        """Every saved key: ``{key: (column, element)}`` (element None: a scalar column)."""
        return self._saved

    def limit(self, key: str) -> limits.Range | None:
        """The range of saved key ``key`` (``limits.FIELDS``), if it has one."""
        return limits.FIELDS[self.component].get(key)


def _one(name: str, dtype: Any, doc: str, default: Any = 0, saved: bool = True,
         **more: Any) -> Column:
    """A scalar column, saved under its own name unless ``saved`` is false."""
    return Column(name, dtype, doc, default, 0, (name,) if saved else (), **more)


def _members(least: int) -> Column:
    """The ``particles`` field of a ring or a shape: its member particles' entities."""
    return Column("particles", I8, "Member particles (entities), in order.", None, -1,
                  ("particles",), ref="particle", least=least)


def _ends() -> tuple[Column, ...]:
    """The ``a``, ``b`` fields of a joint or tether: the entities of its two ends."""
    return tuple(_one(k, I8, f"Entity of end {k}: a body or a particle.", None,
                      ref="body or particle") for k in ("a", "b"))


#: Particle rows. pos, prev, w, pinned and pin are what every substep touches.
PARTICLES = TableSpec("Particle", (
    Column("pos", F8, "Position, px; Integrate, Project and Collide write it.", None, 2,
           ("x", "y")),
    Column("prev", F8, "Position one substep ago, px (velocity = (pos − prev) / h); "
           "Integrate and Collide write it.", None, 2, ("px", "py"), follows="pos",
           rate=("vx", "vy")),
    _one("mass", F8, "Mass (inf: immovable); a Fruit sets it from its kind.", 1.0,
         measured=True),
    _one("radius", F8, "Collision radius, px; a Fruit sets it from its kind.", 4.0,
         measured=True),
    _one("group", I8, "Collision group: rows sharing a non-zero group do not collide.", 0),
    _one("layer", I8, "Collision layer bits: two things collide when each one's mask holds "
         "the other's layer.", 1),
    _one("mask", I8, "The layers it collides with (and queries and sensors see it on): "
         "-1 all.", -1),
    _one("events", B1, "Dispatch contact_began/contact_ended for its contacts.", False),
    _one("friction", F8, "Coulomb friction coefficient of its contacts.", 0.4),
    _one("restitution", F8, "Bounce of its contacts: 0 none, 1 elastic.", 0.1),
    Column("force", F8, "Force for the next step, mass·px/s² (World.apply_force adds to it, "
           "World.step clears it).", 0.0, 2, ("fx", "fy")),
    _one("w", F8, "Inverse mass (0: pinned or immovable), from mass and pinned.", None, False),
    _one("pinned", B1, "Held by an Anchor.", False, False),
    Column("pin", F8, "Where its Anchor holds it, px; unpinned: where it was added or last "
           "placed (Merge's spawn point).", None, 2),
    _one("kind", I8, "Fruit kind (-1: not a fruit); Merge reads it.", -1, False),
    _one("asleep", B1, "Asleep (World(sleep=True)): held still, inverse mass 0 until woken.",
         False),
    _one("still", I8, "Frames it has been slow (sleeping counts them).", 0),
    _one("entity", I8, "The particle's entity.", None, False),
), add="add_particles")

#: Spring rows; ``a`` and ``b`` are particle rows (a world file names their entities).
SPRINGS = TableSpec("Spring", (
    _one("a", I8, "Particle row of end a.", None, ref="particle"),
    _one("b", I8, "Particle row of end b.", None, ref="particle"),
    _one("rest", F8, "Rest length, px (measured when added unless given).", None,
         measured=True),
    _one("compliance", F8, "XPBD compliance, px per unit force (0: rigid).", 0.0,
         alias=("stiffness", limits.compliance_of)),
    _one("max_stretch", F8, "Length / rest past which it breaks (inf: unbreakable).", 2.0),
    _one("stretch", F8, "Length / rest; Break writes it every frame.", 1.0),
    _one("broken", B1, "Snapped (Break) or cut; Project skips it.", False),
    _one("buckled", B1, "Compressed below half its rest length (Break).", False),
    _one("over", I8, "Consecutive frames over max_stretch (Break).", 0),
    _one("lam", F8, "XPBD multiplier; Project resets it every substep.", 0.0, False),
    _one("entity", I8, "The spring's entity.", None, False),
), add="add_springs", ends=("a", "b"))

#: Area constraints (rings); their members are the store's ring CSR arrays.
RINGS = TableSpec("AreaConstraint", (
    _one("rest_area", F8, "Signed rest area, px² (measured when added unless given).", None,
         measured=True),
    _one("pressure", F8, "Target area / rest area (2.2: a taut balloon).", 1.0),
    _one("stiffness", F8, "Fraction of each area correction applied, (0, 1].", 1.0),
    _one("self_collide", B1, "Its outline collides with itself (Collide keeps a squashed "
         "ring from folding through itself).", False),
), fields=(_members(3),), add="add_rings")

#: Shape-matching groups; members and rest offsets are the store's shape CSR arrays.
SHAPES = TableSpec("ShapeMatch", (
    _one("alpha", F8, "Fraction of the way to the goal shape per 1/60 s, [0, 1].", 1.0),
    _one("scale", F8, "Size of the goal shape: rest offsets × scale (a body's shape "
         "memory grows and shrinks with it), > 0.", 1.0),
), fields=(_members(2),), add="add_shapes")

#: Rigid-body rows. Like particles they are Verlet: velocity = (pos − prev) / h and
#: angular velocity = (angle − prev_angle) / h. pos is the centre of mass; the shape
#: (convex pieces in body coordinates) is the store's piece CSR arrays.
BODIES = TableSpec("RigidBody", (
    Column("pos", F8, "Centre of mass, px; Integrate, Project and Collide write it.", None, 2,
           ("x", "y")),
    Column("prev", F8, "Centre of mass one substep ago, px; Integrate, Project and Collide "
           "write it.", None, 2, ("px", "py"), follows="pos", rate=("vx", "vy")),
    _one("angle", F8, "Rotation, rad counter-clockwise; Integrate, Project and Collide "
         "write it.", 0.0),
    Column("prev_angle", F8, "Rotation one substep ago, rad.", None, 0, ("pangle",),
           follows="angle", rate=("omega",)),
    _one("mass", F8, "Mass.", 1.0),
    _one("inertia", F8, "Moment of inertia about the centre of mass, mass·px² (from the "
         "shape and the mass).", None, False),
    _one("friction", F8, "Coulomb friction coefficient of its contacts.", 0.6),
    _one("restitution", F8, "Bounce of its contacts: 0 none, 1 elastic.", 0.0),
    _one("group", I8, "Collision group: bodies and particles sharing a non-zero group do "
         "not collide.", 0),
    _one("layer", I8, "Collision layer bits (see Particle).", 1),
    _one("mask", I8, "The layers it collides with: -1 all.", -1),
    _one("events", B1, "Dispatch contact_began/contact_ended for its contacts.", False),
    Column("force", F8, "Force for the next step, mass·px/s² (World.apply_force).", 0.0, 2,
           ("fx", "fy")),
    _one("w", F8, "Inverse mass (0: anchored).", None, False),
    _one("iw", F8, "Inverse moment of inertia (0: anchored).", None, False),
    _one("pinned", B1, "Held by an Anchor (static).", False, False),
    _one("extent", F8, "Distance from the centre of mass to the farthest point of the "
         "shape, px (the broad phase's bounding circle).", None, False),
    _one("asleep", B1, "Asleep (World(sleep=True)): held still until woken.", False),
    _one("still", I8, "Frames it has been slow (sleeping counts them).", 0),
    _one("entity", I8, "The body's entity.", None, False),
), add="add_bodies")

#: Joint rows. An end is a body row (``a_body`` ≥ 0, anchor ``la`` in body
#: coordinates, px) or a particle row (``a_part`` ≥ 0); likewise ``b``.
JOINTS = TableSpec("Joint", (
    _one("a_body", I8, "Body row of end a, or -1 (a particle).", -1, False),
    _one("a_part", I8, "Particle row of end a, or -1 (a body).", -1, False),
    _one("b_body", I8, "Body row of end b, or -1.", -1, False),
    _one("b_part", I8, "Particle row of end b, or -1.", -1, False),
    Column("la", F8, "Anchor on body a in its own coordinates, px.", 0.0, 2, ("ax", "ay"),
           always=True, measured=True),
    Column("lb", F8, "Anchor on body b in its own coordinates, px.", 0.0, 2, ("bx", "by"),
           always=True, measured=True),
    _one("weld", B1, "Also keeps the relative angle.", False),
    Column("axis", F8, "A slider's axis in a's own coordinates (unit); (0, 0): a hinge.",
           0.0, 2, ("ux", "uy")),
    _one("rest_angle", F8, "Angle of b minus angle of a that a weld keeps, rad.", 0.0,
         always=True, measured=True),
    _one("max_force", F8, "Force that breaks it, mass·px/s² (inf: unbreakable).", np.inf),
    _one("force", F8, "Force it held in the last substep, mass·px/s² (Project writes it).",
         0.0),
    _one("broken", B1, "Broken (Break); Project skips it.", False),
    Column("impulse", F8, "Accumulated impulse on b, mass·px/s (warm starting; Project).",
           0.0, 2, ("ix", "iy")),
    _one("spin", F8, "A weld's accumulated angular impulse on b, mass·px²/s.", 0.0, True),
    _one("lower", F8, "Least joint angle (b's angle − a's − rest_angle), rad; "
         "-NO_LIMIT: none.", -NO_LIMIT),
    _one("upper", F8, "Greatest joint angle, rad; NO_LIMIT: none.", NO_LIMIT),
    _one("motor_speed", F8, "Joint angle speed the motor drives at, rad/s.", 0.0),
    _one("motor_torque", F8, "Most torque the motor gives, mass·px²/s² (0: no motor).", 0.0),
    _one("motor_impulse", F8, "The motor's accumulated angular impulse, mass·px²/s.", 0.0),
    _one("lower_impulse", F8, "The lower limit's accumulated angular impulse, mass·px²/s.",
         0.0),
    _one("upper_impulse", F8, "The upper limit's accumulated angular impulse, mass·px²/s.",
         0.0),
    _one("entity", I8, "The joint's entity.", None, False),
), fields=(*_ends(), _one("x", F8, "Where it was made, px (world x).", None),
           _one("y", F8, "Where it was made, px (world y).", None)),
    add="add_joints", ends=("a", "b"))

#: Springs with an end on a rigid body ("tethers"): the Spring component's columns, with
#: each end a body row (anchor in body coordinates, 0: its centre of mass when left out)
#: or a particle row, as on joints.
TETHERS = TableSpec("Spring", (
    *(dataclasses.replace(c, measured=False) for c in JOINTS.columns[:6]),
    *(c for c in SPRINGS.columns if c.name not in ("a", "b")),
), fields=_ends(), add="add_tethers", ends=("a", "b"))
