"""TOML text → a checked description of a world (``Spec``); nothing is built here.

Every field of every table is checked before any World exists, so a bad file
leaves nothing behind: each error names the file, the entity and the field (or
the line and column of a TOML syntax error). A built-in component's row is read
through its column spec (``fields.read_row``, ``columns.block``); what is left
here per component is what a file says in its own way (``RIDERS``, ``HOOKS``,
``CHECKS``).
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import tomli  # tomllib's own parser (TOML 1.0), built: twice as fast to read

from .. import limits
from ..errors import WorldFileError
from ..level import DEFAULT_SURFACE, Surface
from ..limits import FIELDS
from ..rigid import RigidBody
from ..sensors import Sensor
from ..systems.pipeline import STAGES
from ..world import World
from .builtins import BUILTINS, BY_NAME, TABLES, Builtin
from .columns import block, file_columns
from .fields import Hook, make, parameters, read_row, references
from .registry import COMPONENTS, RESOURCES, component_codec
from .schema import REFUSED, Where, show, suggest
from .write import FORMAT_VERSION, kind_defaults

#: The column-form tables (``[particles]``, ``[springs]``), by their key.
BLOCKS = {b.rows: b for b in BUILTINS if b.columns}
TOP_KEYS = ("format_version", "world", "level", "pipeline", "resources", "rows", *BLOCKS,
            "entity")
WORLD_DEFAULTS = {k: p.default for k, p in inspect.signature(World).parameters.items()}
_VERSION = limits.Range(1, limits.MAX_INT, integer=True)


@dataclass
class Rows:
    """The rows of one store table: column blocks, then per-entity rows (with components).

    ``finish`` puts them together: ``arrays`` (``entity`` and every saved key, one
    value per row) and ``owners`` (the components of per-entity rows; None for the
    column-form tables, whose components the store makes).
    """

    builtin: Builtin
    blocks: list[tuple[np.ndarray, dict[str, np.ndarray]]] = field(default_factory=list)
    single: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    owners: list[Any] | None = None
    arrays: dict[str, np.ndarray] = field(default_factory=dict)

    def entities(self) -> list[int]:
        """Entity ids of every row, in row order."""
        out = [e for ids, _ in self.blocks for e in ids.tolist()]
        return out + [e for e, _ in self.single]

    def finish(self) -> None:
        """``entity`` and every saved key as one array (a key a block left out: its default)."""
        ids = [ids for ids, _ in self.blocks] + [np.array([e for e, _ in self.single],
                                                          dtype=np.int64)]
        out = {"entity": _joined(ids, np.int64)}
        for key, (dtype, default) in _FILE[self.builtin.name].items():
            parts = [cols[key] if key in cols else np.full(len(ids), default, dtype=dtype)
                     for ids, cols in self.blocks]
            parts.append(np.array([row[key] for _, row in self.single], dtype=dtype))
            out[key] = _joined(parts, dtype)
        self.arrays = out

    def reorder(self, order: list[int]) -> None:
        """Put the rows in ``order`` (indices into the current order)."""
        for key, values in self.arrays.items():
            self.arrays[key] = values[order]
        if self.owners is not None:
            self.owners = [self.owners[k] for k in order]


def _joined(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
    """``parts`` as one array of ``dtype``; one part (a table of rows of their own, most
    tables of most files) as it is: made here, of that type already."""
    return parts[0] if len(parts) == 1 else np.concatenate(parts).astype(dtype)


def _tables() -> dict[str, Rows]:
    return {b.name: Rows(b, owners=None if b.columns else []) for b in TABLES}


@dataclass
class Spec:
    """A world file, checked: what ``build`` turns into a World.

    ``tables`` holds the rows of every built-in store table by its name
    (``particle``, ``body``, …); ``anchors`` and ``fruits`` what rides on them;
    ``entities`` every entity with its game components.
    """

    source: str
    settings: dict[str, Any]
    frame: int = 0
    next_entity: int | None = None
    grab: dict[str, Any] | None = None
    segments: list[list[float]] = field(default_factory=list)
    polygons: list[list[list[float]]] = field(default_factory=list)
    segment_surfaces: list[Surface] = field(default_factory=list)
    polygon_surfaces: list[Surface] = field(default_factory=list)
    stages: list[Any] = field(default_factory=list)
    resources: list[Any] = field(default_factory=list)
    entities: dict[int, list[Any]] = field(default_factory=dict)
    tables: dict[str, Rows] = field(default_factory=_tables)
    anchors: dict[int, tuple[float, float] | None] = field(default_factory=dict)
    fruits: dict[int, int] = field(default_factory=dict)

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
        doc = tomli.loads(data)
    except tomli.TOMLDecodeError as exc:
        raise WorldFileError(f"{source}: {_syntax(str(exc))}") from None
    except RecursionError:
        raise WorldFileError(f"{source}: TOML syntax error: arrays or tables nested too "
                             "deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts (4,300)
        raise WorldFileError(f"{source}: TOML value refused: {exc}") from None
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
    for key, b in BLOCKS.items():
        if key in doc:
            spec.tables[b.name].blocks.append(block(b.table, doc[key], spec.h,
                                                    top.at(f"[{key}]")))
    entities = doc.get("entity", [])
    if not isinstance(entities, list):
        top.fail("must be an array of tables: write each entity as [[entity]]", "entity")
    for k, table in enumerate(entities):
        _entity(table, k, spec, top)
    _declare_blocks(spec, top)
    for rows in spec.tables.values():
        rows.finish()
    _resolve_kinds(spec)
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
    for key in ("substeps", "iterations", "threads"):
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
    where.keys(t, ("segments", "polygons", "segment_surfaces", "polygon_surfaces"))
    spec.segments = where.points(t, "segments", [], width=4)
    polygons = where.array(t, "polygons", [])
    spec.polygons = [where.points({"polygons": poly}, "polygons", least=3)
                     for poly in polygons]
    spec.segment_surfaces = _surfaces(t, "segment_surfaces", len(spec.segments), where)
    spec.polygon_surfaces = _surfaces(t, "polygon_surfaces", len(spec.polygons), where)


def _surfaces(t: dict[str, Any], key: str, count: int, where: Where) -> list[Surface]:
    """``[level]``'s ``key``: one table per piece (``friction``, ``restitution``,
    ``layer``, each optional), checked as ``World.add_segment`` checks them; none: every
    piece the default."""
    rows = where.array(t, key, [])
    if not rows:
        return [DEFAULT_SURFACE] * count
    if len(rows) != count:
        where.fail(f"needs one table per piece ({count}), got {len(rows)}", key)
    out = []
    for k, row in enumerate(rows):
        w = where.at(f"[level] {key} {k + 1}")
        r = w.table(row)
        w.keys(r, ("friction", "restitution", "layer"))
        out.append((w.number(r, "friction", None, limits.FRICTION),
                    w.number(r, "restitution", None, limits.UNIT),
                    w.integer(r, "layer", 1, limits.INT)))
    return out


def _pipeline(entries: Any, spec: Spec, where: Where) -> None:
    if not isinstance(entries, list):
        where.fail("must be an array of tables: write each stage as [[pipeline]]")
    for k, entry in enumerate(entries):
        w = where.at(f"pipeline stage {k + 1}")
        t = w.table(entry)
        name = w.string(t, "stage")
        cls = STAGES.get(name)
        if cls is None:
            w.fail(f"unknown stage {show(name)}{suggest(name, STAGES)}; a game's own stages "
                   "must be registered with systems.register_stage before loading", "stage")
        w = where.at(f"pipeline stage {k + 1} ({name})")
        settings = {key: v for key, v in t.items() if key not in ("stage", "state")}
        params = parameters(cls)
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
            where.fail(f"unknown resource {show(name)}{suggest(name, RESOURCES)}; register it "
                       "with ecsgoo.register_resource before loading")
        spec.resources.append(codec.decode(value, where.at(f"resource {name}")))


# -- entities ---------------------------------------------------------------------------------

def _entity(table: Any, k: int, spec: Spec, top: Where) -> None:
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
        if name in spec.tables:
            _row(spec.tables[name], entity, value, spec, w)
        elif name in RIDERS:
            RIDERS[name](entity, value, spec, w)
        else:
            comps.append(_custom(name, value, w, where))


def _row(rows: Rows, entity: int, value: Any, spec: Spec, w: Where) -> None:
    """One built-in's table: its row's values, and its component unless the store makes it."""
    t = w.table(value)
    keys, hook = HOOKS.get(rows.builtin.name, ((), None))
    values = read_row(t, w, rows.builtin.table, spec.h, keys)
    rows.single.append((entity, values))
    if rows.owners is not None:
        rows.owners.append(hook(t, w, values) if hook else
                           make(rows.builtin.cls, values, w))


def _custom(name: str, value: Any, w: Where, where: Where) -> Any:
    codec = COMPONENTS.get(name)
    if codec is None:
        known = [*BY_NAME, *COMPONENTS]
        where.fail(f"unknown component {show(name)}{suggest(name, known)}; a game's own "
                   "components must be registered with ecsgoo.register_component before "
                   "loading")
    if not codec.saved:
        w.fail("this component type is registered as transient (saved=False)")
    return codec.decode(value, w)


#: Worked out once: every row of a table is put together through them.
_FILE = {b.name: file_columns(b.table) for b in TABLES}


# -- what riders and hooks read (a file's own ways of saying things) --------------------------

def _anchor(entity: int, value: Any, spec: Spec, w: Where) -> None:
    a = w.table(value)
    w.keys(a, ("x", "y"))
    L = FIELDS["Anchor"]
    spec.anchors[entity] = ((w.number(a, "x", limit=L["x"]),
                             w.number(a, "y", limit=L["y"])) if a else None)


def _fruit(entity: int, value: Any, spec: Spec, w: Where) -> None:
    f = w.table(value)
    w.keys(f, ("kind",))
    spec.fruits[entity] = w.integer(f, "kind", limit=FIELDS["Fruit"]["kind"])


#: Built-ins without a table of their own: they hold columns of their host's row.
RIDERS = {"anchor": _anchor, "fruit": _fruit}

#: What a body's ``size`` holds for each shape (a polygon: its outline's points).
BODY_SIZES: dict[str, tuple[str, ...]] = {"box": ("width", "height"), "circle": ("radius",),
                                          "polygon": ()}
_BODY_COMMON = ("mass", "friction", "restitution", "group", "layer", "mask", "events")


def _body(t: dict[str, Any], w: Where, v: dict[str, Any]) -> RigidBody:
    """A body remade from ``shape`` and ``size``; its row is the file's (``v``).

    The pieces follow from ``size`` alone (a polygon's outline is relative to any
    reference point), so the component is made at the origin and its ``x, y``
    (the centre of mass) and angle are then the file's, put into the row as they are.
    """
    shape = w.string(t, "shape")
    if shape not in BODY_SIZES:
        w.fail(f"unknown shape {show(shape)}{suggest(shape, BODY_SIZES)}", "shape")
    size = _size(t, w, shape)
    common = {key: v[key] for key in _BODY_COMMON}
    try:
        make_body = getattr(RigidBody, shape)
        comp = make_body(0.0, 0.0, size, **common) if shape == "polygon" else \
            make_body(0.0, 0.0, *size, **common)
    except REFUSED as exc:
        w.fail(str(exc), "size")
    # the row is the file's: the centre of mass as saved, not recomputed from a reference
    comp._vals.update(x=v["x"], y=v["y"], angle=v["angle"])
    return comp


def _size(t: dict[str, Any], w: Where, shape: str) -> list[Any]:
    """A body's ``size``; errors say which part of it: ``field size (points)``."""
    L = FIELDS["RigidBody"]
    if shape == "polygon":
        size: list[Any] = w.array(t, "size")
        if len(size) > limits.MAX_OUTLINE_POINTS:  # refused before each point is read
            w.fail(f"has {len(size)} points (at most {limits.MAX_OUTLINE_POINTS}, "
                   "limits.MAX_OUTLINE_POINTS)", "size")
        for row in size:
            if type(row) is not list or len(row) != 2:
                w.fail(f"each point must be an array of 2 numbers, got {show(row)}", "size")
        return [[w.as_number(v, "size (points)", L["points"]) for v in row] for row in size]
    names = BODY_SIZES[shape]
    given = w.array(t, "size")
    if len(given) != len(names):
        w.fail(f"a {shape} needs [{', '.join(names)}], got {show(given)}", "size")
    return [w.as_number(v, f"size ({name})", L[name])
            for v, name in zip(given, names, strict=True)]


def _joint(t: dict[str, Any], w: Where, v: dict[str, Any]) -> Any:
    """A joint: its anchors are all four given, or none (then measured from ``x, y``)."""
    keys = ("ax", "ay", "bx", "by")
    given = [key for key in keys if key in t]
    if given and len(given) < len(keys):
        missing = next(key for key in keys if key not in t)
        w.fail("missing (give all of ax, ay, bx, by, or none: then they are measured from "
               "x, y)", missing)
    return make(BY_NAME["joint"].cls, v, w)


def _shape(t: dict[str, Any], w: Where, v: dict[str, Any]) -> Any:
    """A shape with its rest offsets (``rest``, measured if left out) and ``outline``."""
    rest = w.points(t, "rest", None, limit=FIELDS["ShapeMatch"]["rest"])
    if rest is not None and len(rest) != len(v["particles"]):
        w.fail(f"has {len(rest)} offsets for {len(v['particles'])} particles", "rest")
    return make(BY_NAME["shape"].cls, v, w, rest=rest, outline=w.boolean(t, "outline", True))


#: Per built-in: the keys a file gives beyond its column spec, and the hook that makes its
#: component (``fields.make`` when there is none).
HOOKS: dict[str, tuple[tuple[str, ...], Hook]] = {
    "body": (("shape", "size"), _body), "joint": ((), _joint),
    "shape": (("rest", "outline"), _shape)}


# -- putting rows together --------------------------------------------------------------------

def _declare_blocks(spec: Spec, top: Where) -> None:
    """Entities of column blocks exist too; one entity has one particle and one spring."""
    for b in BLOCKS.values():
        seen: set[int] = set()
        for e in spec.tables[b.name].entities():
            if e in seen:
                top.at(f"entity {e}").fail(f"has two {b.name} tables (in [{b.rows}] and in "
                                           "its [[entity]] table)")
            seen.add(e)
            spec.entities.setdefault(e, [])


def _resolve_kinds(spec: Spec) -> None:
    """Particle mass and radius left out (NaN) come from the fruit kind, or the defaults."""
    out = spec.tables["particle"].arrays
    kind = np.array([spec.fruits.get(e, -1) for e in out["entity"].tolist()], dtype=np.int64)
    for key, default in kind_defaults(kind).items():
        out[key] = np.where(np.isnan(out[key]), default, out[key])
    out["kind"] = kind


def _order(table: Any, spec: Spec, where: Where) -> None:
    """Apply ``[rows]``: the store's row order when it differs from the file's."""
    t = where.table(table)
    where.keys(t, [b.rows for b in TABLES])
    for b in TABLES:
        if b.rows in t:
            rows = spec.tables[b.name]
            rows.reorder(_permutation(t, b.rows, rows.arrays["entity"].tolist(), where))


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
    """Springs, joints, members, riders and game fields must point at entities that exist."""
    has_particle = set(spec.tables["particle"].arrays["entity"].tolist())
    has_body = set(spec.tables["body"].arrays["entity"].tolist())
    for e in spec.anchors:
        if e not in has_particle and e not in has_body:
            top.at(f"entity {e} (anchor)").fail("needs a particle or a body on the same "
                                                "entity")
    for e in spec.fruits:
        if e not in has_particle:
            top.at(f"entity {e} (fruit)").fail("needs a particle on the same entity")
    kinds = {ref: _entities_of(spec, ref) for ref in _REFS}
    for rows in spec.tables.values():
        _table_references(spec, top, rows, kinds)
        check = CHECKS.get(rows.builtin.name)
        if check is not None:
            check(spec, top, rows, has_body)
    if (spec.grab is not None and spec.grab["entity"] not in has_particle
            and spec.grab["entity"] not in has_body):
        _no_particle(spec, top.at("[world] grab"), "entity", spec.grab["entity"])
    _check_custom_refs(spec, top)
    _check_followed(spec, top, has_particle | has_body)


def _check_followed(spec: Spec, top: Where, movers: set[int]) -> None:
    """A sensor ``on`` an entity follows a rigid body or a particle."""
    for entity, comps in spec.entities.items():
        for comp in comps:
            on = getattr(comp, "on", None) if isinstance(comp, Sensor) else None
            if on is not None and on not in movers:
                top.at(f"entity {entity} (sensor)").fail(
                    f"follows entity {on}, which is neither a rigid body nor a particle", "on")


#: The kinds of entity a reference may name: ``particle``, ``body or particle``, …
_REFS = sorted({col.ref for b in TABLES for col in references(b.table)})


def _entities_of(spec: Spec, ref: str) -> tuple[set[int], np.ndarray]:
    """The entities that hold a table of kind ``ref`` (``body or particle``: either)."""
    ids = np.concatenate([spec.tables[name].arrays["entity"] for name in ref.split(" or ")])
    return set(ids.tolist()), ids


def _table_references(spec: Spec, top: Where, rows: Rows,
                      kinds: dict[str, tuple[set[int], np.ndarray]]) -> None:
    """Every entity id a table's rows hold names an entity of the kind its column says."""
    table = rows.builtin.table
    for col in references(table):
        key = col.saved[0]
        if col in table.fields:  # a component's own field: per row
            pairs = [(e, target) for e, values in rows.single
                     for target in (values[key] if col.width < 0 else [values[key]])]
        else:  # a column: all rows at once (30,000 springs)
            ok = np.isin(rows.arrays[key], kinds[col.ref][1])
            bad = np.flatnonzero(~ok)[:1]
            pairs = [(int(rows.arrays["entity"][k]), int(rows.arrays[key][k])) for k in bad]
        for entity, target in pairs:
            if target not in kinds[col.ref][0]:
                _not_a(spec, top.at(f"entity {entity} ({rows.builtin.name})"), key, target,
                       col.ref)


def _not_a(spec: Spec, where: Where, key: str, target: int, kind: str) -> None:
    if kind == "particle":
        _no_particle(spec, where, key, target)
    if target not in spec.entities:
        where.fail(f"refers to entity {target}, which does not exist", key)
    where.fail(f"refers to entity {target}, which is neither a {kind.replace(' or ', ' nor a ')}",
               key)


def _welds(spec: Spec, top: Where, rows: Rows, has_body: set[int]) -> None:
    """A weld's ends must be bodies (a particle has no angle to keep)."""
    for (entity, _), joint in zip(rows.single, rows.owners, strict=True):
        if joint.weld and not (joint.a in has_body and joint.b in has_body):
            top.at(f"entity {entity} (joint)").fail(
                "needs two bodies (a particle has no angle to keep)", "weld")


def _tethers(spec: Spec, top: Where, rows: Rows, has_body: set[int]) -> None:
    """A tether has an end on a body (between particles, it is a spring)."""
    for entity, values in rows.single:
        if values["a"] not in has_body and values["b"] not in has_body:
            top.at(f"entity {entity} (tether)").fail(
                "has no end on a body (a spring between particles is a spring)", "a")


def _speeds(spec: Spec, top: Where, rows: Rows, has_body: set[int]) -> None:
    """A position and the previous one say a velocity, ``(x − px) / h``: it must be in the
    range the constructors and setters give ``vx`` (``omega`` for an angle), so a file
    cannot start a body faster than the API can (kernels sweep that far)."""
    a, h = rows.arrays, spec.h
    ranges = FIELDS[rows.builtin.cls.__name__]
    pairs = [("x", "px", "vx"), ("y", "py", "vy"), ("angle", "pangle", "omega")]
    for key, prev, rate in (p for p in pairs if p[0] in a):
        speed = (a[key] - a[prev]) / h
        # a speed at the range's edge, stored as two positions far out, reads back a few
        # ulps past it (vy = −1e9 at y = −1e9 reads −1.0000000000000001e9): allow that
        bad = np.flatnonzero(~ranges[rate].mask(speed / (1.0 + 1e-9)))
        if len(bad):
            k = int(bad[0])
            top.at(f"entity {a['entity'][k]} ({rows.builtin.name})").fail(
                f"says a velocity ({key} − {prev}) / h of {speed[k]:g}, outside "
                f"{ranges[rate].describe()} (the range of {rate})", prev)


#: Rules of one built-in beyond what its column spec says.
CHECKS = {"joint": _welds, "tether": _tethers, "particle": _speeds, "body": _speeds}


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
