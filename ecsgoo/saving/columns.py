"""The column form of big worlds: ``[particles]`` and ``[springs]`` blocks, checked.

Each key is a component field: an array with one value per entity, or one
value for every row. Errors name the block, the entity and the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..components import STIFFNESS_SCALE
from .schema import MAX_COORD, MAX_ID, Where, show, toml_type
from .write import PARTICLE_DEFAULTS, SPRING_DEFAULTS

PARTICLE_KEYS = ("x", "y", "px", "py", "vx", "vy", "mass", "radius", "group", "friction",
                 "restitution", "fx", "fy")
SPRING_KEYS = ("a", "b", "rest", "stiffness", "compliance", "max_stretch", "stretch",
               "broken", "buckled", "over")
#: Lightest particle: its inverse mass (1e6) stays far from overflowing.
MIN_MASS = 1e-6
#: Shortest non-zero rest length, px (stretch = length / rest must stay finite).
MIN_REST = 1e-6
#: Softest spring: XPBD compliance (px per unit force; stiffness 1e-9 is about 1e6).
MAX_COMPLIANCE = 1e6

#: Columns of a particle and of a spring row: dtype, and the value of a row that leaves
#: the key out (NaN mass or radius: the fruit kind's or Particle's; rest -1: measured).
PARTICLE_COLUMNS = {
    "x": (np.float64, np.nan), "y": (np.float64, np.nan), "px": (np.float64, np.nan),
    "py": (np.float64, np.nan), "mass": (np.float64, np.nan),
    "radius": (np.float64, np.nan), "group": (np.int64, PARTICLE_DEFAULTS["group"]),
    "friction": (np.float64, PARTICLE_DEFAULTS["friction"]),
    "restitution": (np.float64, PARTICLE_DEFAULTS["restitution"]),
    "fx": (np.float64, 0.0), "fy": (np.float64, 0.0),
}
SPRING_COLUMNS = {
    "a": (np.int64, -1), "b": (np.int64, -1), "rest": (np.float64, -1.0),
    "compliance": (np.float64, SPRING_DEFAULTS["compliance"]),
    "max_stretch": (np.float64, SPRING_DEFAULTS["max_stretch"]),
    "stretch": (np.float64, SPRING_DEFAULTS["stretch"]),
    "broken": (np.bool_, SPRING_DEFAULTS["broken"]),
    "buckled": (np.bool_, SPRING_DEFAULTS["buckled"]),
    "over": (np.int64, SPRING_DEFAULTS["over"]),
}
#: dtype of every column key (the others, ``vx``, ``stiffness``…, are floats).
_DTYPES = {key: dtype for key, (dtype, _) in {**PARTICLE_COLUMNS, **SPRING_COLUMNS}.items()}


def exclusive(t: dict[str, Any], w: Where, *pairs: tuple[str, str]) -> None:
    """Refuse a table that gives both fields of a pair (``px`` and ``vx``, …)."""
    for one, other in pairs:
        if one in t and other in t:
            w.fail(f"give either {one} or {other}, not both", other)


def particle_block(table: Any, h: float, where: Where) -> tuple[np.ndarray, dict[str, Any]]:
    """``[particles]``: entity ids and checked columns (``px``/``py`` from ``vx``/``vy``).

    ``h`` is the substep time, s: a velocity ``vx`` (px/s) becomes ``px = x − vx·h``.
    """
    t = where.table(table)
    where.keys(t, ("entity", *PARTICLE_KEYS))
    exclusive(t, where, ("px", "vx"), ("py", "vy"))
    entity = _ids(t, where)
    cols = {key: _col(t[key], key, entity, where) for key in PARTICLE_KEYS if key in t}
    for key in ("x", "y"):
        if key not in cols:
            where.fail("missing (an array of numbers)", key)
    for key in ("x", "y", "px", "py", "vx", "vy", "fx", "fy", "radius"):
        _range(cols, key, entity, where, lambda v: np.abs(v) <= MAX_COORD,
               f"within ±{MAX_COORD:g}")
    _range(cols, "mass", entity, where, lambda v: v >= MIN_MASS, f">= {MIN_MASS:g} (and > 0)")
    _range(cols, "radius", entity, where, lambda v: v >= 0, ">= 0")
    _range(cols, "friction", entity, where, lambda v: v >= 0, ">= 0")
    _range(cols, "restitution", entity, where, lambda v: (v >= 0) & (v <= 1), "in [0, 1]")
    for key, vkey, pos in (("px", "vx", cols["x"]), ("py", "vy", cols["y"])):
        velocity = cols.pop(vkey, None)
        if key not in cols:
            cols[key] = pos - (0.0 if velocity is None else velocity) * h
    return entity, cols


def spring_block(table: Any, where: Where) -> tuple[np.ndarray, dict[str, Any]]:
    """``[springs]``: entity ids and checked columns (``stiffness`` as ``compliance``)."""
    t = where.table(table)
    where.keys(t, ("entity", *SPRING_KEYS))
    exclusive(t, where, ("stiffness", "compliance"))
    entity = _ids(t, where)
    cols = {key: _col(t[key], key, entity, where) for key in SPRING_KEYS if key in t}
    for key in ("a", "b"):
        if key not in cols:
            where.fail("missing (an array of entity ids)", key)
    same = np.flatnonzero(cols["a"] == cols["b"])
    if len(same):
        where.at(f"{where.place} entity {entity[same[0]]}").fail(
            "a and b are the same entity", "b")
    for key in ("a", "b"):
        _range(cols, key, entity, where, lambda v: v >= 0, ">= 0")
    _range(cols, "rest", entity, where,
           lambda v: (v == 0) | ((v >= MIN_REST) & (v <= MAX_COORD)),
           f"0 or in {MIN_REST:g}..{MAX_COORD:g}")
    _range(cols, "stiffness", entity, where, lambda v: (v > 0) & (v <= 1), "in (0, 1]")
    _range(cols, "compliance", entity, where, lambda v: (v >= 0) & (v <= MAX_COMPLIANCE),
           f"in 0..{MAX_COMPLIANCE:g}")
    _range(cols, "max_stretch", entity, where, lambda v: v > 0, "> 0")
    _range(cols, "stretch", entity, where, lambda v: v >= 0, ">= 0")
    _range(cols, "over", entity, where, lambda v: v >= 0, ">= 0")
    if "stiffness" in cols:
        cols["compliance"] = (1.0 / cols.pop("stiffness") - 1.0) * STIFFNESS_SCALE
        _range(cols, "compliance", entity, where, lambda v: v <= MAX_COMPLIANCE,
               f"<= {MAX_COMPLIANCE:g} (stiffness too small)")
    return entity, cols


def _ids(t: dict[str, Any], where: Where) -> np.ndarray:
    """The ``entity`` column: an array of ids, or ``{ from = 1, count = n }`` for a run."""
    if isinstance(t.get("entity"), dict):
        run = t["entity"]
        where.keys(run, ("from", "count"))
        first = where.integer(run, "from", low=0)
        count = where.integer(run, "count", low=0)
        if first + count > MAX_ID:
            where.fail(f"ids run past {MAX_ID}", "entity")
        return np.arange(first, first + count, dtype=np.int64)
    ids = where.array(t, "entity")
    bad = next((v for v in ids if not (type(v) is int and 0 <= v < MAX_ID)), None)
    if bad is not None:  # (TOML has no null, so None only means "none bad")
        where.fail(f"must hold entity ids (integers >= 0), got {show(bad)}", "entity")
    out = np.array(ids, dtype=np.int64)
    uniq, counts = np.unique(out, return_counts=True)
    if len(uniq) != len(out):
        where.fail(f"lists entity {uniq[counts > 1][0]} twice", "entity")
    return out


def _col(value: Any, key: str, entity: np.ndarray, where: Where) -> np.ndarray:
    """One column: an array as long as ``entity``, or one value for every row."""
    items = value if type(value) is list else None
    if items is not None and len(items) != len(entity):
        where.fail(f"has {len(items)} values for {len(entity)} entities", key)
    values = items if items is not None else [value]
    dtype = _DTYPES.get(key, np.float64)
    bad = next((k for k, v in enumerate(values) if not _is(v, dtype)), None)
    if bad is None:
        col = np.array(values, dtype=dtype)
        finite = np.isfinite(col) | ((col == np.inf) & (key in ("mass", "max_stretch"))) \
            if dtype is np.float64 else np.ones(len(col), np.bool_)
        bad = None if finite.all() else int(np.flatnonzero(~finite)[0])
    if bad is not None:
        want = {np.bool_: "true or false", np.int64: "an integer"}.get(dtype, "a finite number")
        w = where.at(f"{where.place} entity {entity[bad]}") if items is not None else where
        w.fail(f"must be {want}, got {toml_type(values[bad])} {show(values[bad])}", key)
    return col if items is not None else np.full(len(entity), col[0], dtype=dtype)


def _is(value: Any, dtype: Any) -> bool:
    if dtype is np.bool_:
        return type(value) is bool
    if dtype is np.int64:
        return type(value) is int and -MAX_ID <= value <= MAX_ID
    return type(value) in (int, float)


def _range(cols: dict[str, np.ndarray], key: str, entity: np.ndarray, where: Where,
           ok: Any, want: str) -> None:
    if key not in cols:
        return
    bad = np.flatnonzero(~ok(cols[key]))
    if len(bad):
        k = int(bad[0])
        where.at(f"{where.place} entity {entity[k]}").fail(
            f"must be {want}, got {cols[key][k]}", key)
