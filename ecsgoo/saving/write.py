"""World → TOML text: settings, level, pipeline, resources, then the entities.

Small worlds (levels) are written one ``[[entity]]`` table per entity, sorted
by id, each component an inline table on its own line. Big worlds write their
particles and springs as column arrays (``[particles]``, ``[springs]``), which
load about twice as fast; their other components stay per entity. A built-in
component's table is its spec's fields and saved columns (a column equal to
its default left out); what is left here per component is what a file says in
its own way (``RIDERS``, ``DEFAULTS``, ``HOOKS``).
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np
import tomli_w

from .. import fruit as _fruit
from ..columns import PARTICLES, TableSpec
from ..level import DEFAULT_SURFACE, Surface
from ..limits import FIELDS
from ..rigid import RigidBody
from ..systems.pipeline import STAGES
from ..world import World
from .builtins import BUILTINS, BY_NAME, TABLES, Builtin, builtin_of
from .columns import UNBACKED_ROWS
from .fields import parameters
from .registry import _plain, component_codec, resource_codec
from .schema import Where

#: The version this ecsgoo writes (and the newest it reads).
FORMAT_VERSION = 1
#: Worlds with more particle + spring rows than this get the column form by default.
COMPACT_ABOVE = 2000
#: Default mass and radius of a particle row, indexed by its ``kind`` + 1: a plain
#: particle (kind -1) has the column default, a fruit (kind 0..10) its kind's.
_BY_KIND = {"mass": np.array([PARTICLES.default("mass"),
                              *map(_fruit.mass, range(_fruit.LARGEST + 1))], dtype=np.float64),
            "radius": np.array([PARTICLES.default("radius"), *_fruit.RADII], dtype=np.float64)}


def kind_defaults(kind: Any) -> dict[str, Any]:
    """``mass`` and ``radius`` a particle of fruit ``kind`` (-1: no fruit) gets when left out.

    ``kind`` is one kind or an array of them (then the values are arrays too).
    """
    return {key: by_kind[kind + 1] for key, by_kind in _BY_KIND.items()}


def document(world: World, compact: bool | None = None, source: str = "save") -> dict[str, Any]:
    """The world as the tables of a world file, as ``tomllib`` would read them back.

    ``compact``: particles and springs as column arrays; ``None`` chooses it
    for worlds of more than ``COMPACT_ABOVE`` particle + spring rows. Entity
    tables are in ``doc["entity"]``, ascending ids. Raises WorldFileError if
    the world holds something a file cannot (an unregistered component type).
    """
    where = Where(source, "world")
    st = world.store
    if compact is None:
        compact = st.particles.n + st.springs.n > COMPACT_ABOVE
    comps = _components(world, where)
    doc: dict[str, Any] = {"format_version": FORMAT_VERSION, "world": _world(world),
                           "level": _level(world)}
    doc["pipeline"] = [_stage(stage, world, where.at(f"pipeline stage {k + 1}"))
                       for k, stage in enumerate(world.pipeline)]
    doc["resources"] = _resources(world, where)
    doc["rows"] = _rows(world, compact)
    for b in _BLOCKS if compact else ():
        doc[b.rows] = _block(world, b)
    doc["entity"] = _entities(world, comps, compact, where)
    return {key: value for key, value in doc.items() if value != {} and value != []}


def text(doc: dict[str, Any]) -> str:
    """The TOML text of a ``document``: one line per key, entity components inline."""
    parts = [f"format_version = {doc['format_version']}\n"]
    for key in ("world", "level", "resources", "rows", *(b.rows for b in _BLOCKS)):
        if key in doc:
            parts.append(_table(key, doc[key]))
        if key == "level":  # the pipeline stands between the level and the resources
            parts += [_table("pipeline", stage, array=True) for stage in doc.get("pipeline", [])]
    for table in doc.get("entity", []):
        parts.append("\n".join(["[[entity]]", *(f"{name} = {_value(value)}"
                                                 for name, value in table.items())]))
    return "\n".join(p.rstrip("\n") + "\n" for p in parts)


# -- header ------------------------------------------------------------------------------

def _world(world: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "gravity": [float(g) for g in world.gravity], "dt": float(world.dt),
        "substeps": int(world.substeps), "iterations": int(world.iterations),
        "damping": float(world.damping),
        "bounds": False if world.bounds is None else [float(b) for b in world.bounds],
        "contact_slop": float(world.contact_slop), "frame": int(world.frame),
    }
    if world.sleep:
        out["sleep"] = True
    if world.threads != 1:
        out["threads"] = int(world.threads)
    nxt, top = world.next_entity, max(world.entities(), default=0)
    if nxt != top + 1:
        out["next_entity"] = nxt
    if world.grabbed != -1:
        tx, ty = world.grab_target
        fx, fy = world.grab_from
        out["grab"] = {"entity": int(world.grabbed), "x": float(tx), "y": float(ty),
                       "from_x": float(fx), "from_y": float(fy)}
        if world.grabbed in world.store.bslot:  # a body: where it is held, its coordinates
            out["grab"]["ax"], out["grab"]["ay"] = (float(v) for v in world.grab_local)
    return out


def _level(world: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if world.level.lines:
        out["segments"] = [[float(v) for v in seg] for seg in world.level.lines]
    if world.level.polygons:
        out["polygons"] = [[[float(x), float(y)] for x, y in poly]
                           for poly in world.level.polygons]
    world.level.fit_surfaces()
    for key, surfaces in (("segment_surfaces", world.level.line_surfaces),
                          ("polygon_surfaces", world.level.poly_surfaces)):
        if any(s != DEFAULT_SURFACE for s in surfaces):
            out[key] = [_surface(s) for s in surfaces]
    return out


def _surface(surface: Surface) -> dict[str, Any]:
    """One piece's surface as a table: only what differs from the default."""
    mu, e, layer = surface
    out: dict[str, Any] = {} if mu is None else {"friction": float(mu)}
    if e is not None:
        out["restitution"] = float(e)
    if layer != 1:
        out["layer"] = int(layer)
    return out


def _stage(stage: Any, world: World, where: Where) -> dict[str, Any]:
    name = getattr(stage, "name", type(stage).__name__)
    if STAGES.get(name) is not type(stage):
        where.fail(f"{type(stage).__qualname__} (name {name!r}) is not registered with "
                   "systems.register_stage, so a saved pipeline could not load it")
    out: dict[str, Any] = {"stage": name}
    params = parameters(type(stage))
    ranges = FIELDS.get(type(stage).__name__, {})
    for key, value in stage.settings().items():
        if value is None:
            default = params[key].default if key in params else None
            if default is not None:
                where.fail("is None, which a world file cannot hold", key)
            continue
        out[key] = _plain(value, where, key, inf=getattr(ranges.get(key), "inf", False))
    if hasattr(stage, "save_state"):
        state = {k: _plain(v, where, k) for k, v in _state(stage, world).items()}
        # a stage may ask that nothing to remember be left out (Collide: worlds without bodies)
        if state or getattr(stage, "empty_state_saved", True):
            out["state"] = state
    return out


def _state(stage: Any, world: World) -> dict[str, Any]:
    """``stage.save_state(world)``; a game's stage may take no world (the older protocol)."""
    if len(inspect.signature(stage.save_state).parameters) == 0:
        return stage.save_state()
    return stage.save_state(world)


def _resources(world: Any, where: Where) -> dict[str, Any]:
    out = {}
    for kind, obj in world.resources.items():
        codec = resource_codec(kind)
        if codec is not None:
            out[codec.name] = codec.encode(obj, where.at(f"resource {codec.name}"))
    return dict(sorted(out.items()))


def _rows(world: Any, compact: bool) -> dict[str, list[int]]:
    """Row orders that differ from the file order (rows matter to Gauss–Seidel bits)."""
    st, out = world.store, {}
    for b in [*(() if compact else _BLOCKS), *(b for b in TABLES if not b.columns)]:
        table = st.table(b.table)
        order = (table.entity.tolist() if "entity" in table.cols
                 else [c._entity for c in table.owner])
        if order != sorted(order):
            out[b.rows] = order
    return out


# -- components ------------------------------------------------------------------------

def _components(world: Any, where: Where) -> dict[int, list[tuple[str, Any]]]:
    """``{entity: [(name, component), ...]}``, ascending ids, transient ones left out."""
    out = {}
    for entity in world.entities():
        named = []
        for comp in world.components_for_entity(entity):
            b = builtin_of(comp)
            if b is None:
                codec = component_codec(type(comp))
                if codec is None:
                    where.at(f"entity {entity}").fail(
                        f"component type {type(comp).__qualname__} is not registered; "
                        "call ecsgoo.register_component(cls, name=...) (saved=False for "
                        "a transient one)")
                if not codec.saved:
                    continue
                named.append((codec.name, comp))
            else:
                named.append((b.name, comp))
        out[entity] = sorted(named, key=_order)
    return out


#: The column-form tables (``[particles]``, ``[springs]``).
_BLOCKS = tuple(b for b in BUILTINS if b.columns)
#: Built-ins come first in an entity's table, in their order; a tether sorts by name among
#: a game's components, as it always has (files keep their bytes).
_ORDER = {b.name: k for k, b in enumerate(BUILTINS) if b.name != "tether"}


def _order(item: tuple[str, Any]) -> tuple[int, str]:
    return (_ORDER.get(item[0], len(_ORDER)), item[0])


def _same(a: Any, b: Any) -> bool:
    """Equal to the bit (0.0 and -0.0 differ), for leaving out default values."""
    return a == b and (a != 0 or math.copysign(1.0, a) == math.copysign(1.0, b))


def _saved(table: TableSpec) -> list[tuple[str, tuple[str, ...], Any, str, str]]:
    """Each saved column: name, keys, default (None: always written), followed column, ref."""
    return [(c.name, c.saved, None if c.always else c.default, c.follows, c.ref)
            for c in table.columns if c.saved]


#: Each table's saved columns, worked out once (a save writes every row through them).
_SAVED = {b.table: _saved(b.table) for b in TABLES}


def _row(world: Any, table: TableSpec, cols: dict[str, np.ndarray], s: int,
         defaults: dict[str, Any]) -> dict[str, Any]:
    """The saved keys of row ``s``: a column equal to its default (to the bit) left out.

    A column that follows another defaults to that one's value in the row;
    ``defaults`` overrides the column defaults; a pair such as ``x, y`` is
    written whole or not at all; a column holding rows of another table (a spring's
    ends: particle rows) is written as their entities.
    """
    out: dict[str, Any] = {}
    for name, keys, default, follows, ref in _SAVED[table]:
        default = cols[follows][s].tolist() if follows else defaults.get(name, default)
        if len(keys) == 1:
            value = cols[name].item(s)
            if default is None or not _same(value, default):
                out[keys[0]] = _entity_of(world, ref, value) if ref else value
            continue
        pair = cols[name][s].tolist()
        d0, d1 = default if isinstance(default, list) else (default, default)
        if default is None or not (_same(pair[0], d0) and _same(pair[1], d1)):
            out.update(zip(keys, pair, strict=True))
    return out


def _entity_of(world: Any, ref: str, row: Any) -> Any:
    """The entity (entities) of ``row`` (rows) of built-in ``ref``'s table (a spring holds
    particle rows, a file their entities)."""
    return world.store.table(BY_NAME[ref].table).cols["entity"][row].tolist()


def _builtin_table(world: Any, name: str, comp: Any) -> dict[str, Any]:
    """A built-in component's table: its own fields, then its row's saved columns."""
    b = BY_NAME[name]
    if b.table is None:
        return RIDERS[name](world, comp)
    table = b.table
    out = {col.saved[0]: getattr(comp, col.name) for col in table.fields}
    rows = world.store.table(table)
    defaults = {k: v.item() for k, v in DEFAULTS[name](rows, comp._slot).items()} \
        if name in DEFAULTS else {}
    out.update(_row(world, table, rows.cols, comp._slot, defaults))
    return HOOKS[name](comp, out) if name in HOOKS else out


def _body_shape(comp: Any, out: dict[str, Any]) -> dict[str, Any]:
    """A body's shape (``size`` as it made it) before its row."""
    if comp.shape == "polygon":
        size: list[Any] = [[float(x), float(y)] for x, y in comp.size]
    else:
        size = [float(v) for v in comp.size]
    return {"shape": comp.shape, "size": size, **out}


def _shape_rest(comp: Any, out: dict[str, Any]) -> dict[str, Any]:
    """A shape's rest offsets after its members, ``outline`` last (only when false)."""
    out = {"particles": out.pop("particles"),
           "rest": [[float(x), float(y)] for x, y in comp.rest], **out}
    if not comp.outline:
        out["outline"] = False
    return out


def _anchor(world: Any, comp: Any) -> dict[str, Any]:
    """An anchor's pin, when it is not where its particle is."""
    if isinstance(comp._host, RigidBody):
        return {}  # a static body stays where its row says (an Anchor at x, y moved it)
    cols, s = world.store.particles.cols, comp._host._slot
    pin, pos = cols["pin"][s].tolist(), cols["pos"][s].tolist()
    same = all(_same(a, b) for a, b in zip(pin, pos, strict=True))
    return {} if same else {"x": pin[0], "y": pin[1]}


#: Built-ins without a table of their own (they ride on their host's row).
RIDERS = {"anchor": _anchor, "fruit": lambda world, comp: {"kind": comp.kind}}
#: Per-row defaults a column spec cannot know (a fruit's size): ``(table, row or slice)``
#: → ``{column: default}``.
DEFAULTS = {"particle": lambda p, rows: kind_defaults(p.cols["kind"][rows])}
#: What a file says in its own way, added to the spec's keys.
HOOKS = {"body": _body_shape, "shape": _shape_rest}


def _entities(world: Any, comps: dict[int, list[tuple[str, Any]]], compact: bool,
              where: Where) -> list[dict[str, Any]]:
    out = []
    blocks = {b.name for b in _BLOCKS} if compact else set()
    for entity, named in comps.items():
        table: dict[str, Any] = {}
        for name, comp in named:
            if name in blocks:
                continue
            codec = component_codec(type(comp))
            table[name] = (codec.encode(comp, where.at(f"entity {entity} ({name})"))
                           if codec is not None else _builtin_table(world, name, comp))
        # an entity whose components are all in [particles]/[springs] needs no table;
        # one with no components at all does (it still exists, and keeps its id)
        if table or not named:
            out.append({"id": entity, **table})
    return out


# -- columns -----------------------------------------------------------------------------

def _block(world: Any, b: Builtin) -> dict[str, Any]:
    """The column form of a store table: each saved key's values, left out if all default.

    Columns that follow another default to it row by row; entity references are
    written as entities, always as arrays.
    """
    rows = world.store.table(b.table)
    defaults = DEFAULTS[b.name](rows, slice(0, rows.n)) if b.name in DEFAULTS else {}
    out: dict[str, Any] = {"entity": _ids(rows.entity)}
    for col in b.table.columns:
        values = getattr(rows, col.name)
        if col.ref:
            out[col.saved[0]] = _entity_of(world, col.ref, values)  # rows → entities
            continue
        default = getattr(rows, col.follows) if col.follows else \
            defaults.get(col.name, None if col.always else col.default)
        for k, key in enumerate(col.saved):
            v = values[:, k] if col.width else values
            if default is None:
                d = None
            elif isinstance(default, np.ndarray):
                d = default[:, k] if default.ndim == 2 else default
            else:
                d = np.full(len(v), default, dtype=v.dtype)
            value = _column(v, d)
            if value is not None:
                out[key] = value
    if rows.n > UNBACKED_ROWS and not any(type(v) is list for v in out.values()):
        out["entity"] = rows.entity.tolist()  # what backs so many rows (see UNBACKED_ROWS)
    return out


def _ids(entity: np.ndarray) -> Any:
    """Entity ids, as ``{ from, count }`` when they are one run of consecutive ids."""
    n = len(entity)
    if n > 1 and np.array_equal(entity, np.arange(entity[0], entity[0] + n)):
        return {"from": int(entity[0]), "count": n}
    return entity.tolist()


def _column(col: np.ndarray, default: np.ndarray | None = None) -> Any:
    """``None`` if every row has its default, one value if all rows agree, else the list."""
    bits = _bits(col)
    if default is not None and np.array_equal(bits, _bits(default)):
        return None
    if len(col) and np.all(bits == bits[0]):
        return col[0].item()
    return col.tolist()


def _bits(col: np.ndarray) -> np.ndarray:
    """Floats as their bit patterns, so comparing tells 0.0 from -0.0 (like ``_same``)."""
    return col.view(np.int64) if col.dtype == np.float64 else col


# -- TOML text ---------------------------------------------------------------------------

def _table(name: str, table: dict[str, Any], array: bool = False) -> str:
    """``[name]`` (or ``[[name]]``) and one line per key; long arrays wrapped."""
    lines = [f"[[{name}]]" if array else f"[{name}]"]
    for key, value in table.items():
        if isinstance(value, list) and len(value) > 8:
            lines.append(f"{key} = {_long_array(value)}")
        else:
            lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"


def _long_array(values: list[Any]) -> str:
    """A long array wrapped to lines of about 100 characters."""
    texts = [_value(v) for v in values]
    per_line = max(1, 96 // (max(map(len, texts)) + 2))
    lines = [", ".join(texts[k:k + per_line]) for k in range(0, len(texts), per_line)]
    return "[\n    " + ",\n    ".join(lines) + ",\n]"


def _value(v: Any) -> str:
    t = type(v)
    if t is float:
        if math.isnan(v):  # never silently another value: the loader refuses it by name
            return "nan"
        return repr(v) if math.isfinite(v) else ("inf" if v > 0 else "-inf")
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return str(v)
    if t is list:
        return "[" + ", ".join(map(_value, v)) + "]"
    if t is dict:
        return _inline(v)
    return tomli_w.dumps({"v": v})[4:].rstrip("\n")  # strings: tomli-w's escaping


def _inline(table: dict[str, Any]) -> str:
    if not table:
        return "{}"
    return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in table.items()) + " }"
