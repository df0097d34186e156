"""The column form of big worlds: ``[particles]`` and ``[springs]`` blocks, checked.

Each key is a component field: an array with one value per entity, or one
value for every row. Errors name the block, the entity and the field.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import limits
from ..columns import PARTICLES, SPRINGS, TableSpec
from .schema import MAX_ID, REQUIRED, Where, show, toml_type

#: The keys a particle or spring table may hold: the store's saved keys, and the TOML
#: form's alternatives (``vx``/``vy`` for ``px``/``py``, ``stiffness`` for ``compliance``).
PARTICLE_KEYS = (*PARTICLES.keys(), "vx", "vy")
SPRING_KEYS = (*SPRINGS.keys(), "stiffness")
#: Keys a row may leave out to mean "ask someone else": mass and radius follow the
#: fruit kind (NaN until ``kind_defaults`` resolves them), a rest length is measured.
_LEFT_OUT = {"mass": np.nan, "radius": np.nan, "rest": np.nan}


def file_columns(spec: TableSpec) -> dict[str, tuple[Any, Any]]:
    """``{key: (dtype, value of a row that leaves it out)}`` for every saved key of ``spec``.

    Keys the store cannot default (``x``, ``a``; ``px`` is TOML's: from ``vx``)
    are ``REQUIRED``.
    """
    out = {}
    for key, (col, _) in spec.keys().items():
        default = _LEFT_OUT.get(key, col.default)
        out[key] = (col.dtype, REQUIRED if default is None else default)
    return out


#: dtype of every column key (the others, ``vx``, ``stiffness``…, are floats).
_DTYPES = {key: col.dtype for spec in (PARTICLES, SPRINGS)
           for key, (col, _) in spec.keys().items()}
#: Keys whose range holds +inf (an immovable mass, an unbreakable spring).
_MAY_BE_INF = {key for spec in (PARTICLES, SPRINGS) for key in spec.keys()
               if getattr(spec.limit(key), "inf", False)}


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
    for key in cols:
        _range(cols, key, entity, where, limits.FIELDS["Particle"].get(key))
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
    for key in cols:
        _range(cols, key, entity, where, limits.FIELDS["Spring"].get(key))
    if "stiffness" in cols:  # MIN_STIFFNESS keeps the compliance within its range
        cols["compliance"] = limits.compliance_of(cols.pop("stiffness"))
    return entity, cols


def _ids(t: dict[str, Any], where: Where) -> np.ndarray:
    """The ``entity`` column: an array of ids, or ``{ from = 1, count = n }`` for a run."""
    if isinstance(t.get("entity"), dict):
        run = t["entity"]
        where.keys(run, ("from", "count"))
        first = where.integer(run, "from", limit=limits.ENTITY)
        count = where.integer(run, "count", limit=limits.ID)
        # checked before any row exists: a few bytes must not ask for billions of rows
        if first + count - 1 > limits.MAX_ENTITY_ID:
            where.fail(f"ids run past {limits.MAX_ENTITY_ID} (limits.MAX_ENTITY_ID)", "entity")
        return np.arange(first, first + count, dtype=np.int64)
    ids = where.array(t, "entity")
    bad = next((v for v in ids if not (type(v) is int and 1 <= v <= limits.MAX_ENTITY_ID)),
               None)
    if bad is not None:  # (TOML has no null, so None only means "none bad")
        where.fail(f"must hold entity ids ({limits.ENTITY.describe()}), got {show(bad)}",
                   "entity")
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
        finite = np.isfinite(col) | ((col == np.inf) & (key in _MAY_BE_INF)) \
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
           limit: limits.Range | None) -> None:
    """Refuse the first row whose ``key`` is outside ``limit`` (the API's range)."""
    if limit is None:
        return
    bad = np.flatnonzero(~limit.mask(cols[key]))
    if len(bad):
        k = int(bad[0])
        where.at(f"{where.place} entity {entity[k]}").fail(
            f"must be {limit.describe()}, got {cols[key][k]}", key)
