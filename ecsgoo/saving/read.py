"""TOML text → a checked description of a world (``Spec``); nothing is built here.

Every field of every table is checked before any World exists, so a bad file
leaves nothing behind: each error names the file, the entity and the field (or
the line and column of a TOML syntax error).
"""

from __future__ import annotations

import inspect
import math
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import limits
from ..columns import BODIES, JOINTS, PARTICLES, RINGS, SHAPES, SPRINGS, TETHERS, TableSpec
from ..errors import WorldFileError
from ..limits import FIELDS
from ..rigid import Joint, RigidBody
from ..systems.pipeline import STAGES
from ..world import World
from .columns import (
    PARTICLE_KEYS,
    SPRING_KEYS,
    exclusive,
    file_columns,
    particle_block,
    spring_block,
)
from .registry import BUILTIN_NAMES, COMPONENTS, RESOURCES, component_codec
from .schema import REFUSED, REQUIRED, Where, show, suggest
from .write import FORMAT_VERSION, kind_defaults

TOP_KEYS = ("format_version", "world", "level", "pipeline", "resources", "rows", "particles",
            "springs", "entity")
WORLD_DEFAULTS = {k: p.default for k, p in inspect.signature(World).parameters.items()}
_VERSION = limits.Range(1, limits.MAX_INT, integer=True)


@dataclass
class Rows:
    """The rows of one store table read so far: column blocks, then per-entity rows."""

    columns: dict[str, tuple[Any, Any]]
    blocks: list[tuple[np.ndarray, dict[str, np.ndarray]]] = field(default_factory=list)
    single: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def entities(self) -> list[int]:
        """Entity ids of every row, in row order."""
        out = [e for ids, _ in self.blocks for e in ids.tolist()]
        return out + [e for e, _ in self.single]

    def arrays(self) -> dict[str, np.ndarray]:
        """``entity`` and every column as one array (a column a block left out: its default)."""
        ids = [ids for ids, _ in self.blocks] + [np.array([e for e, _ in self.single],
                                                          dtype=np.int64)]
        out = {"entity": np.concatenate(ids).astype(np.int64)}
        for key, (dtype, default) in self.columns.items():
            parts = [cols[key] if key in cols else np.full(len(ids), default, dtype=dtype)
                     for ids, cols in self.blocks]
            parts.append(np.array([row[key] for _, row in self.single], dtype=dtype))
            out[key] = np.concatenate(parts).astype(dtype)
        return out


@dataclass
class Spec:
    """A world file, checked: what ``build`` turns into a World."""

    source: str
    settings: dict[str, Any]
    frame: int = 0
    next_entity: int | None = None
    grab: dict[str, Any] | None = None
    segments: list[list[float]] = field(default_factory=list)
    polygons: list[list[list[float]]] = field(default_factory=list)
    stages: list[Any] = field(default_factory=list)
    resources: list[Any] = field(default_factory=list)
    entities: dict[int, list[Any]] = field(default_factory=dict)
    particles: dict[str, np.ndarray] = field(default_factory=dict)
    springs: dict[str, np.ndarray] = field(default_factory=dict)
    anchors: dict[int, tuple[float, float] | None] = field(default_factory=dict)
    fruits: dict[int, int] = field(default_factory=dict)
    areas: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    bodies: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    joints: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    tethers: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    shapes: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    @property
    def h(self) -> float:
        """Substep time, s (``World.h`` of the world to be): velocity = (x − px) / h."""
        return self.settings["dt"] / self.settings["substeps"]


# -- text → tables ------------------------------------------------------------------------

def parse(data: bytes | str, source: str) -> dict[str, Any]:
    """TOML tables from bytes or text, with syntax errors as WorldFileError (line, column)."""
    if isinstance(data, bytes | bytearray):
        nul = data.find(b"\x00")
        if nul >= 0:
            raise WorldFileError(f"{source}: not a text file (NUL byte at offset {nul})")
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise WorldFileError(f"{source}: not UTF-8 text (byte 0x{data[exc.start]:02x} "
                                 f"at offset {exc.start})") from None
    if not isinstance(data, str):
        raise WorldFileError(f"{source}: expected TOML text, got {type(data).__name__}")
    data = data.removeprefix("\ufeff")
    if not data.strip():
        raise WorldFileError(f"{source}: the file is empty (a world file needs at least "
                             f"format_version = {FORMAT_VERSION})")
    try:
        doc = tomllib.loads(data)
    except tomllib.TOMLDecodeError as exc:
        raise WorldFileError(f"{source}: {_syntax(str(exc))}") from None
    except RecursionError:
        raise WorldFileError(f"{source}: TOML syntax error: arrays or tables nested too "
                             "deeply") from None
    if not doc:
        raise WorldFileError(f"{source}: the file is empty (only comments; a world file "
                             f"needs at least format_version = {FORMAT_VERSION})")
    return doc


def _syntax(message: str) -> str:
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if m:
        return (f"line {m.group(1)}, column {m.group(2)}: TOML syntax error: "
                f"{message[: m.start()]}")
    return f"TOML syntax error: {message}"


# -- tables → Spec ---------------------------------------------------------------------------

def read(doc: dict[str, Any], source: str) -> Spec:
    """Check every part of a parsed world file and return its ``Spec``."""
    top = Where(source, "top level")
    top.keys(doc, TOP_KEYS)
    _version(doc, top)
    spec = Spec(source, {})
    _world(doc.get("world", {}), spec, top.at("[world]"))
    _level(doc.get("level", {}), spec, top.at("[level]"))
    _pipeline(doc.get("pipeline", []), spec, top.at("[[pipeline]]"))
    _resources(doc.get("resources", {}), spec, top.at("[resources]"))
    particles, springs = Rows(_FILE[PARTICLES]), Rows(_FILE[SPRINGS])
    if "particles" in doc:
        particles.blocks.append(particle_block(doc["particles"], spec.h, top.at("[particles]")))
    if "springs" in doc:
        springs.blocks.append(spring_block(doc["springs"], top.at("[springs]")))
    entities = doc.get("entity", [])
    if not isinstance(entities, list):
        top.fail("must be an array of tables: write each entity as [[entity]]", "entity")
    for k, table in enumerate(entities):
        _entity(table, k, spec, particles, springs, top)
    _declare_blocks(spec, particles, springs, top)
    spec.particles = _resolved_particles(particles, spec)
    spec.springs = springs.arrays()
    _order(doc.get("rows", {}), spec, top.at("[rows]"))
    _check_references(spec, top)
    return spec


def _version(doc: dict[str, Any], top: Where) -> None:
    if "format_version" not in doc:
        top.fail(f"missing (add format_version = {FORMAT_VERSION} at the top)",
                 "format_version")
    version = top.integer(doc, "format_version", limit=_VERSION)
    if version > FORMAT_VERSION:
        top.fail(f"is {version}, from a newer ecsgoo; this one reads format versions up to "
                 f"{FORMAT_VERSION}", "format_version")


def _world(table: Any, spec: Spec, where: Where) -> None:
    t = where.table(table)
    where.keys(t, (*WORLD_DEFAULTS, "frame", "next_entity", "grab"))
    d, L = WORLD_DEFAULTS, FIELDS["World"]
    gravity = where.points({"gravity": [t["gravity"]]} if "gravity" in t else {}, "gravity",
                           [list(d["gravity"])], limit=L["gravity"])[0]
    bounds = t.get("bounds", list(d["bounds"]))  # false: no walls or ground
    if bounds is not False:
        bounds = where.points({"bounds": [bounds]}, "bounds", width=4, limit=L["bounds"])[0]
        if not (bounds[0] < bounds[2] and bounds[1] < bounds[3]):
            where.fail(f"must be [left, bottom, right, top] with left < right and bottom < "
                       f"top, got {bounds}", "bounds")
    spec.settings = {"gravity": tuple(gravity),
                     "bounds": None if bounds is False else tuple(bounds)}
    for key in ("dt", "damping", "contact_slop"):
        spec.settings[key] = where.number(t, key, d[key], L[key])
    for key in ("substeps", "iterations"):
        spec.settings[key] = where.integer(t, key, d[key], L[key])
    spec.settings["sleep"] = where.boolean(t, "sleep", False)
    spec.frame = where.integer(t, "frame", 0, L["frame"])
    spec.next_entity = where.integer(t, "next_entity", None, L["next_entity"])
    if "grab" in t:
        g = where.at("[world] grab")
        grab = g.table(t["grab"])
        g.keys(grab, ("entity", "x", "y", "from_x", "from_y", "ax", "ay"))
        x, y = g.number(grab, "x", limit=L["grab"]), g.number(grab, "y", limit=L["grab"])
        spec.grab = {"entity": g.integer(grab, "entity", limit=limits.ID), "x": x, "y": y,
                     "from_x": g.number(grab, "from_x", x, L["grab"]),
                     "from_y": g.number(grab, "from_y", y, L["grab"]),
                     "local": (g.number(grab, "ax", 0.0, FIELDS["Joint"]["ax"]),
                               g.number(grab, "ay", 0.0, FIELDS["Joint"]["ay"]))}


def _level(table: Any, spec: Spec, where: Where) -> None:
    t = where.table(table)
    where.keys(t, ("segments", "polygons"))
    spec.segments = where.points(t, "segments", [], width=4)
    polygons = where.array(t, "polygons", [])
    spec.polygons = [where.points({"polygons": poly}, "polygons", least=3)
                     for poly in polygons]


def _pipeline(entries: Any, spec: Spec, where: Where) -> None:
    if not isinstance(entries, list):
        where.fail("must be an array of tables: write each stage as [[pipeline]]")
    for k, entry in enumerate(entries):
        w = where.at(f"pipeline stage {k + 1}")
        t = w.table(entry)
        name = w.string(t, "stage")
        cls = STAGES.get(name)
        if cls is None:
            w.fail(f"unknown stage {name!r}{suggest(name, STAGES)}; a game's own stages "
                   "must be registered with systems.register_stage before loading", "stage")
        w = where.at(f"pipeline stage {k + 1} ({name})")
        settings = {key: v for key, v in t.items() if key not in ("stage", "state")}
        params = inspect.signature(cls).parameters
        for key, value in settings.items():
            if key not in params:
                w.fail(f"unknown setting{suggest(key, params)}", key)
            _setting_type(value, params[key].default, w, key, FIELDS.get(cls.__name__, {}))
        try:
            stage = cls(**settings)
        except REFUSED as exc:
            w.fail(f"{type(exc).__name__}: {exc}")
        if "state" in t:
            if not hasattr(stage, "load_state"):
                w.fail("this stage keeps no state (it has no load_state method)", "state")
            try:
                stage.load_state(w.table(t["state"], "state"))
            except REFUSED as exc:
                w.fail(f"{type(exc).__name__}: {exc}", "state")
        spec.stages.append(stage)


def _setting_type(value: Any, default: Any, where: Where, key: str,
                  ranges: dict[str, limits.Range]) -> None:
    """A setting must have the type of its default (ints allowed for floats) and its range."""
    kind = type(default)
    if kind is float:
        where.as_number(value, key, ranges.get(key))
    elif kind in (bool, int, str):
        where.of_type(value, kind, key)


def _resources(table: Any, spec: Spec, where: Where) -> None:
    for name, value in where.table(table).items():
        codec = RESOURCES.get(name)
        if codec is None:
            where.fail(f"unknown resource {name!r}{suggest(name, RESOURCES)}; register it "
                       "with ecsgoo.register_resource before loading")
        spec.resources.append(codec.decode(value, where.at(f"resource {name}")))


# -- entities ---------------------------------------------------------------------------------

def _entity(table: Any, k: int, spec: Spec, particles: Rows, springs: Rows,
            top: Where) -> None:
    where = top.at(f"entity table {k + 1}")
    t = where.table(table)
    entity = where.integer(t, "id", limit=limits.ENTITY)
    where = top.at(f"entity {entity}")
    if entity in spec.entities:
        where.fail("this id is used by two [[entity]] tables", "id")
    comps: list[Any] = []
    spec.entities[entity] = comps
    for name, value in t.items():
        if name == "id":
            continue
        w = top.at(f"entity {entity} ({name})")
        if name == "particle":
            particles.single.append((entity, _particle(value, spec, w)))
        elif name == "spring":
            springs.single.append((entity, _spring(value, w)))
        elif name == "body":
            spec.bodies.append((entity, _body(value, spec, w)))
        elif name == "joint":
            spec.joints.append((entity, _joint(value, w)))
        elif name == "tether":
            spec.tethers.append((entity, _tether(value, w)))
        elif name == "anchor":
            a = w.table(value)
            w.keys(a, ("x", "y"))
            L = FIELDS["Anchor"]
            spec.anchors[entity] = ((w.number(a, "x", limit=L["x"]),
                                     w.number(a, "y", limit=L["y"])) if a else None)
        elif name == "fruit":
            f = w.table(value)
            w.keys(f, ("kind",))
            spec.fruits[entity] = w.integer(f, "kind", limit=FIELDS["Fruit"]["kind"])
        elif name == "area":
            spec.areas.append((entity, _area(value, w)))
        elif name == "shape":
            spec.shapes.append((entity, _shape(value, w)))
        else:
            comps.append(_custom(name, value, w, where))


def _custom(name: str, value: Any, w: Where, where: Where) -> Any:
    codec = COMPONENTS.get(name)
    if codec is None:
        known = [*BUILTIN_NAMES, *COMPONENTS]
        where.fail(f"unknown component {name!r}{suggest(name, known)}; a game's own "
                   "components must be registered with ecsgoo.register_component before "
                   "loading")
    if not codec.saved:
        w.fail("this component type is registered as transient (saved=False)")
    return codec.decode(value, w)


def _readers(table: TableSpec) -> dict[str, tuple[Any, limits.Range | None]]:
    """Each key's type (the column's dtype; alternatives such as ``vx`` are floats) and range."""
    out = {key: (col.dtype, table.limit(key)) for key, (col, _) in table.keys().items()}
    for key, rng in FIELDS[table.component].items():
        out.setdefault(key, (np.float64, rng))
    return out


#: Worked out once: a loader reads every field of every row through them.
_READ = {table: _readers(table) for table in (PARTICLES, SPRINGS, RINGS, SHAPES, BODIES,
                                               JOINTS, TETHERS)}
_FILE = {table: file_columns(table) for table in (PARTICLES, SPRINGS)}


def _field(t: dict[str, Any], key: str, w: Where, table: TableSpec, default: Any) -> Any:
    """One key of a store table's row: its type from the column spec, its range from limits."""
    kind, limit = _READ[table][key]
    if kind is np.bool_:
        return w.boolean(t, key, default)
    if kind is np.int64:
        return w.integer(t, key, default, limit)
    return w.number(t, key, default, limit)


def _particle(value: Any, spec: Spec, w: Where) -> dict[str, Any]:
    """Every column of one particle row; mass and radius NaN when left out (see fruit)."""
    t = w.table(value)
    w.keys(t, PARTICLE_KEYS)
    exclusive(t, w, ("px", "vx"), ("py", "vy"))
    h = spec.h
    out = {key: _field(t, key, w, PARTICLES, default)
           for key, (_, default) in _FILE[PARTICLES].items()
           if key not in ("px", "py")}
    vx, vy = (_field(t, key, w, PARTICLES, 0.0) for key in ("vx", "vy"))
    out["px"] = _field(t, "px", w, PARTICLES, out["x"] - vx * h)
    out["py"] = _field(t, "py", w, PARTICLES, out["y"] - vy * h)
    return out


def _spring(value: Any, w: Where) -> dict[str, Any]:
    t = w.table(value)
    w.keys(t, SPRING_KEYS)
    exclusive(t, w, ("stiffness", "compliance"))
    out = {key: _field(t, key, w, SPRINGS, default)
           for key, (_, default) in _FILE[SPRINGS].items()}
    if out["a"] == out["b"]:
        w.fail(f"a and b are the same entity ({out['a']})", "b")
    if "stiffness" in t:
        out["compliance"] = limits.compliance_of(_field(t, "stiffness", w, SPRINGS, None))
    return out


#: The keys of a body table: its shape, the store's saved keys, the velocity alternatives.
BODY_KEYS = ("shape", "size", *BODIES.keys(), "vx", "vy", "omega")
#: What ``size`` holds for each shape (a polygon: its outline's points).
BODY_SIZES: dict[str, tuple[str, ...]] = {"box": ("width", "height"), "circle": ("radius",),
                                          "polygon": ()}
#: The keys of a joint table: its component's fields and the store's saved keys.
JOINT_KEYS = ("a", "b", "x", "y", *JOINTS.keys())
_BODY_COMMON = ("mass", "friction", "restitution", "group", "layer", "mask", "events")


def _body(value: Any, spec: Spec, w: Where) -> dict[str, Any]:
    """A body: the component remade from ``shape`` and ``size``, its row's state as saved.

    The pieces follow from ``size`` alone (a polygon's outline is relative to any
    reference point), so the component is made at the origin and its ``x, y``
    (the centre of mass) and angle are then the file's, put into the row as they are.
    """
    t = w.table(value)
    w.keys(t, BODY_KEYS)
    exclusive(t, w, ("px", "vx"), ("py", "vy"), ("pangle", "omega"))
    shape = w.string(t, "shape")
    if shape not in BODY_SIZES:
        w.fail(f"unknown shape {shape!r}{suggest(shape, BODY_SIZES)}", "shape")
    L = FIELDS["RigidBody"]
    if shape == "polygon":  # errors say which part of size: "field size (points)"
        size: list[Any] = w.array(t, "size")
        for row in size:
            if type(row) is not list or len(row) != 2:
                w.fail(f"each point must be an array of 2 numbers, got {show(row)}", "size")
        size = [[w.as_number(v, "size (points)", L["points"]) for v in row] for row in size]
    else:
        names = BODY_SIZES[shape]
        given = w.array(t, "size")
        if len(given) != len(names):
            w.fail(f"a {shape} needs [{', '.join(names)}], got {show(given)}", "size")
        size = [w.as_number(v, f"size ({name})", L[name])
                for v, name in zip(given, names, strict=True)]
    v = {key: _field(t, key, w, BODIES, REQUIRED if col.default is None else col.default)
         for key, (col, _) in BODIES.keys().items() if key not in ("px", "py", "pangle")}
    h = spec.h
    velocity = {key: _field(t, key, w, BODIES, 0.0) for key in ("vx", "vy", "omega")}
    prev = (_field(t, "px", w, BODIES, v["x"] - velocity["vx"] * h),
            _field(t, "py", w, BODIES, v["y"] - velocity["vy"] * h),
            _field(t, "pangle", w, BODIES, v["angle"] - velocity["omega"] * h))
    common = {key: v[key] for key in _BODY_COMMON}
    try:
        make = getattr(RigidBody, shape)
        comp = make(0.0, 0.0, size, **common) if shape == "polygon" else \
            make(0.0, 0.0, *size, **common)
    except REFUSED as exc:
        w.fail(str(exc), "size")
    # the row is the file's: the centre of mass as saved, not recomputed from a reference
    comp._vals.update(x=v["x"], y=v["y"], angle=v["angle"])
    return {"comp": comp, "prev": prev, "force": (v["fx"], v["fy"]), "asleep": v["asleep"],
            "still": v["still"]}


def _joint(value: Any, w: Where) -> dict[str, Any]:
    """A joint: the component, and its exact anchors (measured at load if all left out)."""
    t = w.table(value)
    w.keys(t, JOINT_KEYS)
    L = FIELDS["Joint"]
    a, b = (w.integer(t, key, limit=L[key]) for key in ("a", "b"))
    if a == b:
        w.fail(f"a and b are the same entity ({a})", "b")
    x, y = (w.number(t, key, limit=L[key]) for key in ("x", "y"))
    weld = w.boolean(t, "weld", False)
    max_force = w.number(t, "max_force", math.inf, L["max_force"])
    keys = ("ax", "ay", "bx", "by")
    given = [key for key in keys if key in t]
    if given and len(given) < len(keys):
        missing = next(key for key in keys if key not in t)
        w.fail("missing (give all of ax, ay, bx, by, or none: then they are measured from "
               "x, y)", missing)
    ax, ay, bx, by = (w.number(t, key, 0.0, L[key]) for key in keys)
    try:
        comp = Joint(a, b, x, y, weld=weld, max_force=max_force)
    except REFUSED as exc:
        w.fail(str(exc))
    return {"comp": comp, "local": ((ax, ay), (bx, by)) if given else None,
            "rest_angle": w.number(t, "rest_angle", None, L["rest_angle"]),
            "broken": w.boolean(t, "broken", False),
            "force": w.number(t, "force", 0.0, L["force"]),
            "impulse": (w.number(t, "ix", 0.0, L["ix"]), w.number(t, "iy", 0.0, L["iy"])),
            "spin": w.number(t, "spin", 0.0, L["spin"])}


#: The keys of a tether table (a spring with an end on a body): its ends, the exact
#: anchors and the spring's saved values.
TETHER_KEYS = ("a", "b", *(k for k in TETHERS.keys() if k not in ("a", "b")), "stiffness")


def _tether(value: Any, w: Where) -> dict[str, Any]:
    """A spring with an end on a body: its ends, anchors (body coordinates) and values."""
    t = w.table(value)
    w.keys(t, TETHER_KEYS)
    exclusive(t, w, ("stiffness", "compliance"))
    L = FIELDS["Spring"]
    a, b = (w.integer(t, key, limit=L[key]) for key in ("a", "b"))
    if a == b:
        w.fail(f"a and b are the same entity ({a})", "b")
    out = {"a": a, "b": b}
    for key, default in (("ax", 0.0), ("ay", 0.0), ("bx", 0.0), ("by", 0.0),
                         ("rest", None), ("compliance", 0.0),
                         ("max_stretch", TETHERS.default("max_stretch")),
                         ("stretch", 1.0), ("over", 0)):
        out[key] = _field(t, key, w, TETHERS, default)
    if "stiffness" in t:
        out["compliance"] = limits.compliance_of(w.number(t, "stiffness", None,
                                                          L["stiffness"]))
    out["broken"], out["buckled"] = w.boolean(t, "broken", False), w.boolean(t, "buckled",
                                                                               False)
    return out


def _area(value: Any, w: Where) -> dict[str, Any]:
    t = w.table(value)
    w.keys(t, ("particles", *RINGS.keys()))
    out = {key: _field(t, key, w, RINGS, RINGS.default(key)) for key in RINGS.keys()}
    return {"particles": w.entities(t, "particles", 3), **out}


def _shape(value: Any, w: Where) -> dict[str, Any]:
    t = w.table(value)
    w.keys(t, ("particles", "alpha", "scale", "rest", "outline"))
    particles = w.entities(t, "particles", 2)
    rest = w.points(t, "rest", None, limit=FIELDS["ShapeMatch"]["rest"])
    if rest is not None and len(rest) != len(particles):
        w.fail(f"has {len(rest)} offsets for {len(particles)} particles", "rest")
    return {"particles": particles,
            "alpha": _field(t, "alpha", w, SHAPES, SHAPES.default("alpha")),
            "scale": _field(t, "scale", w, SHAPES, SHAPES.default("scale")),
            "rest": rest, "outline": w.boolean(t, "outline", True)}


# -- putting rows together --------------------------------------------------------------------

def _declare_blocks(spec: Spec, particles: Rows, springs: Rows, top: Where) -> None:
    """Entities of column blocks exist too; one entity has one particle and one spring."""
    for rows, name in ((particles, "particle"), (springs, "spring")):
        seen: set[int] = set()
        for e in rows.entities():
            if e in seen:
                top.at(f"entity {e}").fail(f"has two {name} tables (in [{name}s] and in its "
                                           "[[entity]] table)")
            seen.add(e)
            spec.entities.setdefault(e, [])


def _resolved_particles(rows: Rows, spec: Spec) -> dict[str, np.ndarray]:
    """The particle columns, mass and radius left out taken from the fruit kind or defaults."""
    out = rows.arrays()
    kind = np.array([spec.fruits.get(e, -1) for e in out["entity"].tolist()], dtype=np.int64)
    for key, default in kind_defaults(kind).items():
        out[key] = np.where(np.isnan(out[key]), default, out[key])
    out["kind"] = kind
    return out


def _order(table: Any, spec: Spec, where: Where) -> None:
    """Apply ``[rows]``: the store's row order when it differs from the file's."""
    t = where.table(table)
    where.keys(t, ("particles", "springs", "bodies", "joints", "areas", "shapes"))
    for key, cols in (("particles", spec.particles), ("springs", spec.springs)):
        if key in t:
            order = _permutation(t, key, cols["entity"].tolist(), where)
            for name in cols:
                cols[name] = cols[name][order]
    for key, items in (("bodies", spec.bodies), ("joints", spec.joints),
                       ("areas", spec.areas), ("shapes", spec.shapes)):
        if key in t:
            order = _permutation(t, key, [e for e, _ in items], where)
            items[:] = [items[k] for k in order]


def _permutation(t: dict[str, Any], key: str, have: list[int], where: Where) -> list[int]:
    listed = [where.as_integer(v, key, limits.ID) for v in where.array(t, key)]
    index = {e: k for k, e in enumerate(have)}
    if len(index) != len(have):
        where.fail(f"cannot order {key}: an entity holds two of them", key)
    for e in listed:
        if e not in index:
            where.fail(f"lists entity {e}, which has no {key[:-1]}", key)
    if len(set(listed)) != len(listed):
        where.fail("lists an entity twice", key)
    missing = sorted(set(have) - set(listed))
    if missing:
        where.fail(f"leaves out entity {missing[0]} (it must list every one of the {key})",
                   key)
    return [index[e] for e in listed]


# -- references -------------------------------------------------------------------------------

def _check_references(spec: Spec, top: Where) -> None:
    """Springs, bodies, riders and game fields must point at entities that exist."""
    has_particle = set(spec.particles["entity"].tolist())
    has_body = {e for e, _ in spec.bodies}
    for e in spec.anchors:
        if e not in has_particle and e not in has_body:
            top.at(f"entity {e} (anchor)").fail("needs a particle or a body on the same "
                                                "entity")
    for e in spec.fruits:
        if e not in has_particle:
            top.at(f"entity {e} (fruit)").fail("needs a particle on the same entity")
    for entity, values in spec.tethers:
        for key in ("a", "b"):
            end = values[key]
            if end not in has_particle and end not in has_body:
                top.at(f"entity {entity} (tether)").fail(
                    f"refers to entity {end}, which is neither a body nor a particle", key)
        if values["a"] not in has_body and values["b"] not in has_body:
            top.at(f"entity {entity} (tether)").fail(
                "has no end on a body (a spring between particles is a spring)", "a")
    for entity, values in spec.joints:
        _joint_ends(spec, top.at(f"entity {entity} (joint)"), values["comp"], has_particle,
                    has_body)
    s = spec.springs
    for key in ("a", "b"):
        bad = ~np.isin(s[key], spec.particles["entity"])
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            _no_particle(spec, top.at(f"entity {s['entity'][k]} (spring)"), key,
                         int(s[key][k]))
    for items, name in ((spec.areas, "area"), (spec.shapes, "shape")):
        for entity, values in items:
            for member in values["particles"]:
                if member not in has_particle:
                    _no_particle(spec, top.at(f"entity {entity} ({name})"), "particles", member)
    if (spec.grab is not None and spec.grab["entity"] not in has_particle
            and spec.grab["entity"] not in has_body):
        _no_particle(spec, top.at("[world] grab"), "entity", spec.grab["entity"])
    _check_custom_refs(spec, top)


def _joint_ends(spec: Spec, where: Where, joint: Joint, has_particle: set[int],
                has_body: set[int]) -> None:
    """A joint's ends must be bodies or particles (a weld's: bodies)."""
    for key in ("a", "b"):
        target = getattr(joint, key)
        if target not in spec.entities:
            where.fail(f"refers to entity {target}, which does not exist", key)
        if target not in has_body and target not in has_particle:
            where.fail(f"refers to entity {target}, which is neither a body nor a particle",
                       key)
    if joint.weld and not (joint.a in has_body and joint.b in has_body):
        where.fail("needs two bodies (a particle has no angle to keep)", "weld")


def _no_particle(spec: Spec, where: Where, key: str, target: int) -> None:
    if target in spec.entities:
        where.fail(f"refers to entity {target}, which is not a particle", key)
    where.fail(f"refers to entity {target}, which does not exist", key)


def _check_custom_refs(spec: Spec, top: Where) -> None:
    for entity, comps in spec.entities.items():
        for comp in comps:
            codec = component_codec(type(comp))
            for key, target in codec.references(comp):
                if target not in spec.entities:
                    top.at(f"entity {entity} ({codec.name})").fail(
                        f"refers to entity {target}, which does not exist", key)
