"""The column form of big worlds: ``[particles]`` and ``[springs]`` blocks, checked.

Each key is a component field: an array with one value per entity, or one
value for every row. Errors name the block, the entity and the field. The keys,
their types, ranges and alternatives come from the table's column spec alone.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from .. import limits
from ..columns import Column, TableSpec
from .fields import exclusive, exclusive_pairs, file_keys, left_out
from .schema import MAX_ID, Where, show, toml_type

#: Most rows a block may make from a run of ids ``{ from, count }`` with no array of
#: values: beyond, the rows must be backed by an array in the file (its cost, not a count
#: a few bytes long, sizes what loading allocates).
UNBACKED_ROWS = 1024


def file_columns(table: TableSpec) -> dict[str, tuple[Any, Any]]:
    """``{key: (dtype, value of a row that leaves it out)}`` for every saved key of ``table``.

    Keys the store cannot default (``x``, ``a``; ``px`` is TOML's: from ``vx``)
    are ``REQUIRED``; measured ones (a rest length) NaN.
    """
    return {key: (col.dtype, left_out(col)) for key, (col, _) in table.keys().items()}


@cache
def _dtypes(table: TableSpec) -> dict[str, Any]:
    """dtype of every key of ``table`` (the alternatives, ``vx``, ``stiffness``…: floats)."""
    return {key: col.dtype for key, (col, _) in table.keys().items()}


@cache
def _may_be_inf(table: TableSpec) -> frozenset[str]:
    """Keys whose range holds +inf (an immovable mass, an unbreakable spring)."""
    return frozenset(key for key in file_keys(table)
                     if getattr(table.limit(key), "inf", False))


def block(table: TableSpec, value: Any, h: float,
          where: Where) -> tuple[np.ndarray, dict[str, Any]]:
    """``[particles]``, ``[springs]``…: entity ids and checked columns, by saved key.

    ``h`` is the substep time, s: a velocity ``vx`` (px/s) becomes ``px = x − vx·h``;
    an alias (``stiffness``) becomes its column's key (``compliance``).
    """
    t = where.table(value)
    keys = file_keys(table)
    where.keys(t, ("entity", *keys))
    exclusive(t, where, exclusive_pairs(table))
    _backed(t, where)
    entity = _ids(t, where)
    cols = {key: _col(t[key], key, entity, where, table) for key in keys if key in t}
    for key, (col, _) in table.keys().items():
        if key not in cols and col.default is None and not (col.measured or col.follows):
            what = "entity ids" if col.ref else "numbers"
            where.fail(f"missing (an array of {what})", key)
    if table.ends:
        a, b = table.ends
        same = np.flatnonzero(cols[a] == cols[b])
        if len(same):
            where.at(f"{where.place} entity {entity[same[0]]}").fail(
                f"{a} and {b} are the same entity", b)
    for key in cols:
        _range(cols, key, entity, where, table.limit(key))
    for col in table.columns:
        _alternatives(col, table, cols, h)
    return entity, cols


def _alternatives(col: Column, table: TableSpec, cols: dict[str, Any], h: float) -> None:
    """Put what a block gave instead (a velocity, an alias) under the column's keys."""
    if col.alias and col.alias[0] in cols:  # MIN_STIFFNESS keeps it in the column's range
        cols[col.saved[0]] = col.alias[1](cols.pop(col.alias[0]))
    for k, key in enumerate(col.saved if col.follows else ()):
        velocity = cols.pop(col.rate[k], None) if col.rate else None
        if key not in cols:
            pos = cols[table[col.follows].saved[k]]
            cols[key] = pos - (0.0 if velocity is None else velocity) * h


def _backed(t: dict[str, Any], where: Where) -> None:
    """Refuse a run of more than UNBACKED_ROWS ids that no array of as many values backs."""
    run = t.get("entity")
    if not isinstance(run, dict) or type(run.get("count")) is not int:
        return
    count = run["count"]
    if count > UNBACKED_ROWS and not any(type(v) is list and len(v) == count
                                         for v in t.values()):
        where.fail(f"{{ from, count = {count} }} needs an array of {count} values in the "
                   f"block (only up to {UNBACKED_ROWS} rows may share one value in every "
                   "field)", "entity")


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


def _col(value: Any, key: str, entity: np.ndarray, where: Where,
         table: TableSpec) -> np.ndarray:
    """One column: an array as long as ``entity``, or one value for every row."""
    items = value if type(value) is list else None
    if items is not None and len(items) != len(entity):
        where.fail(f"has {len(items)} values for {len(entity)} entities", key)
    values = items if items is not None else [value]
    dtype = _dtypes(table).get(key, np.float64)
    bad = next((k for k, v in enumerate(values) if not _is(v, dtype)), None)
    if bad is None:
        col = np.array(values, dtype=dtype)
        finite = np.isfinite(col) | ((col == np.inf) & (key in _may_be_inf(table))) \
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
