"""TOML text → a checked description of a world (``Spec``); nothing is built here.

Every field of every table is checked before any World exists, so a bad file
leaves nothing behind: each error names the file, the entity and the field (or
the line and column of a TOML syntax error).
"""

from __future__ import annotations

import inspect
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import fruit as _fruit
from ..components import STIFFNESS_SCALE
from ..errors import WorldFileError
from ..systems.pipeline import STAGES
from ..world import World
from .columns import (
    MAX_COMPLIANCE,
    MIN_MASS,
    MIN_REST,
    PARTICLE_COLUMNS,
    PARTICLE_KEYS,
    SPRING_COLUMNS,
    SPRING_KEYS,
    exclusive,
    particle_block,
    spring_block,
)
from .registry import BUILTIN_NAMES, COMPONENTS, RESOURCES, component_codec
from .schema import MAX_ID, REFUSED, Where, suggest
from .write import FORMAT_VERSION, PARTICLE_DEFAULTS, SPRING_DEFAULTS, kind_defaults

TOP_KEYS = ("format_version", "world", "level", "pipeline", "resources", "rows", "particles",
            "springs", "entity")
WORLD_DEFAULTS = {k: p.default for k, p in inspect.signature(World).parameters.items()}
#: Upper limits that keep a typo from making a step take forever.
MAX_SUBSTEPS = MAX_ITERATIONS = 1000
#: Longest and shortest step, s (a frame is 1/60 s; outside these the solver's h², 1/h²
#: or the distances travelled overflow).
MAX_DT, MIN_DT = 1.0, 1e-6
#: Largest area pressure (rest area × pressure is the target; 2.2 is a taut balloon).
MAX_PRESSURE = 100.0


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
            parts = [cols.get(key, np.full(len(ids), default, dtype=dtype))
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
    particles, springs = Rows(PARTICLE_COLUMNS), Rows(SPRING_COLUMNS)
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
    version = top.integer(doc, "format_version", low=1, high=MAX_ID)
    if version > FORMAT_VERSION:
        top.fail(f"is {version}, from a newer ecsgoo; this one reads format versions up to "
                 f"{FORMAT_VERSION}", "format_version")


def _world(table: Any, spec: Spec, where: Where) -> None:
    t = where.table(table)
    where.keys(t, (*WORLD_DEFAULTS, "frame", "next_entity", "grab"))
    d = WORLD_DEFAULTS
    gravity = where.points({"gravity": [t["gravity"]]} if "gravity" in t else {}, "gravity",
                           [list(d["gravity"])])[0]
    bounds = t.get("bounds", list(d["bounds"]))  # false: no walls or ground
    if bounds is not False:
        bounds = where.points({"bounds": [bounds]}, "bounds", width=4)[0]
        if not (bounds[0] < bounds[2] and bounds[1] < bounds[3]):
            where.fail(f"must be [left, bottom, right, top] with left < right and bottom < "
                       f"top, got {bounds}", "bounds")
    spec.settings = {
        "gravity": tuple(gravity),
        "dt": where.number(t, "dt", d["dt"], above=0.0, low=MIN_DT, high=MAX_DT),
        "substeps": where.integer(t, "substeps", d["substeps"], low=1, high=MAX_SUBSTEPS),
        "iterations": where.integer(t, "iterations", d["iterations"], low=1,
                                    high=MAX_ITERATIONS),
        "damping": where.number(t, "damping", d["damping"], low=0.0, high=1.0),
        "bounds": None if bounds is False else tuple(bounds),
        "contact_slop": where.number(t, "contact_slop", d["contact_slop"], low=0.0,
                                     coord=True),
    }
    spec.frame = where.integer(t, "frame", 0, low=0)
    spec.next_entity = where.integer(t, "next_entity", None, low=1)
    if "grab" in t:
        g = where.at("[world] grab")
        grab = g.table(t["grab"])
        g.keys(grab, ("entity", "x", "y", "from_x", "from_y"))
        x, y = g.number(grab, "x", coord=True), g.number(grab, "y", coord=True)
        spec.grab = {"entity": g.integer(grab, "entity", low=0), "x": x, "y": y,
                     "from_x": g.number(grab, "from_x", x, coord=True),
                     "from_y": g.number(grab, "from_y", y, coord=True)}


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
            _setting_type(value, params[key].default, w, key)
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


def _setting_type(value: Any, default: Any, where: Where, key: str) -> None:
    """A setting must have the type of its default (ints allowed for floats)."""
    kind = type(default)
    if kind is float:
        where.as_number(value, key)
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
    entity = where.integer(t, "id", low=0)
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
        elif name == "anchor":
            a = w.table(value)
            w.keys(a, ("x", "y"))
            spec.anchors[entity] = ((w.number(a, "x", coord=True), w.number(a, "y", coord=True))
                                    if a else None)
        elif name == "fruit":
            f = w.table(value)
            w.keys(f, ("kind",))
            spec.fruits[entity] = w.integer(f, "kind", low=0, high=_fruit.LARGEST)
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


def _particle(value: Any, spec: Spec, w: Where) -> dict[str, Any]:
    """Every column of one particle row; mass and radius NaN when left out (see fruit)."""
    t = w.table(value)
    w.keys(t, PARTICLE_KEYS)
    exclusive(t, w, ("px", "vx"), ("py", "vy"))
    h = spec.h
    x, y = w.number(t, "x", coord=True), w.number(t, "y", coord=True)
    vx, vy = w.number(t, "vx", 0.0, coord=True), w.number(t, "vy", 0.0, coord=True)
    out = {"x": x, "y": y, "px": w.number(t, "px", x - vx * h, coord=True),
           "py": w.number(t, "py", y - vy * h, coord=True),
           "fx": w.number(t, "fx", 0.0, coord=True), "fy": w.number(t, "fy", 0.0, coord=True),
           "mass": w.number(t, "mass", np.nan, inf=True, above=0.0, low=MIN_MASS),
           "radius": w.number(t, "radius", np.nan, low=0.0, coord=True)}
    out["group"] = w.integer(t, "group", PARTICLE_DEFAULTS["group"])
    out["friction"] = w.number(t, "friction", PARTICLE_DEFAULTS["friction"], low=0.0)
    out["restitution"] = w.number(t, "restitution", PARTICLE_DEFAULTS["restitution"],
                                  low=0.0, high=1.0)
    return out


def _spring(value: Any, w: Where) -> dict[str, Any]:
    d = SPRING_DEFAULTS
    t = w.table(value)
    w.keys(t, SPRING_KEYS)
    exclusive(t, w, ("stiffness", "compliance"))
    out = {"a": w.integer(t, "a", low=0), "b": w.integer(t, "b", low=0),
           "rest": w.number(t, "rest", -1.0, low=0.0, coord=True)}
    if 0.0 < out["rest"] < MIN_REST:
        w.fail(f"must be 0 or at least {MIN_REST:g}, got {out['rest']}", "rest")
    if out["a"] == out["b"]:
        w.fail(f"a and b are the same entity ({out['a']})", "b")
    if "stiffness" in t:
        k = w.number(t, "stiffness", above=0.0, high=1.0)
        out["compliance"] = (1.0 / k - 1.0) * STIFFNESS_SCALE
        if not out["compliance"] <= MAX_COMPLIANCE:
            w.fail(f"is too small, got {k}", "stiffness")
    else:
        out["compliance"] = w.number(t, "compliance", d["compliance"], low=0.0,
                                     high=MAX_COMPLIANCE)
    out["max_stretch"] = w.number(t, "max_stretch", d["max_stretch"], inf=True, above=0.0)
    out["stretch"] = w.number(t, "stretch", d["stretch"], low=0.0)
    out["broken"] = w.boolean(t, "broken", d["broken"])
    out["buckled"] = w.boolean(t, "buckled", d["buckled"])
    out["over"] = w.integer(t, "over", d["over"], low=0)
    return out


def _area(value: Any, w: Where) -> dict[str, Any]:
    t = w.table(value)
    w.keys(t, ("particles", "pressure", "stiffness", "rest_area"))
    return {"particles": w.entities(t, "particles", 3),
            "pressure": w.number(t, "pressure", 1.0, low=0.0, high=MAX_PRESSURE),
            "stiffness": w.number(t, "stiffness", 1.0, above=0.0, high=1.0),
            "rest_area": w.number(t, "rest_area", None, coord=True)}


def _shape(value: Any, w: Where) -> dict[str, Any]:
    t = w.table(value)
    w.keys(t, ("particles", "alpha", "rest", "outline"))
    particles = w.entities(t, "particles", 2)
    rest = w.points(t, "rest", None)
    if rest is not None and len(rest) != len(particles):
        w.fail(f"has {len(rest)} offsets for {len(particles)} particles", "rest")
    return {"particles": particles, "alpha": w.number(t, "alpha", 1.0, low=0.0, high=1.0),
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
    where.keys(t, ("particles", "springs", "areas", "shapes"))
    for key, cols in (("particles", spec.particles), ("springs", spec.springs)):
        if key in t:
            order = _permutation(t, key, cols["entity"].tolist(), where)
            for name in cols:
                cols[name] = cols[name][order]
    for key, items in (("areas", spec.areas), ("shapes", spec.shapes)):
        if key in t:
            order = _permutation(t, key, [e for e, _ in items], where)
            items[:] = [items[k] for k in order]


def _permutation(t: dict[str, Any], key: str, have: list[int], where: Where) -> list[int]:
    listed = [where.as_integer(v, key, low=0) for v in where.array(t, key)]
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
    for e in list(spec.anchors) + list(spec.fruits):
        if e not in has_particle:
            name = "anchor" if e in spec.anchors else "fruit"
            top.at(f"entity {e} ({name})").fail("needs a particle on the same entity")
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
    if spec.grab is not None and spec.grab["entity"] not in has_particle:
        _no_particle(spec, top.at("[world] grab"), "entity", spec.grab["entity"])
    _check_custom_refs(spec, top)


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
