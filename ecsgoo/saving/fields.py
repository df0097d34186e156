"""One row of any store table, read from its ``[[entity]]`` table through the column spec.

Nothing here knows a component: the keys, their types, defaults and ranges, the
alternatives a file may give (``vx`` for ``px``, ``stiffness`` for
``compliance``) and the entity references all come from the table's
``TableSpec`` (``columns``) and ``limits.FIELDS``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from .. import limits
from ..columns import Column, TableSpec
from .schema import REFUSED, REQUIRED, Where

F8, I8, B1 = np.float64, np.int64, np.bool_


@cache
def file_keys(table: TableSpec) -> tuple[str, ...]:
    """Every key a row of ``table`` may have in a file: fields, saved keys, alternatives."""
    keys = [key for col in table.fields for key in col.saved]
    for col in table.columns:
        keys += [*col.saved, *col.rate] + ([col.alias[0]] if col.alias else [])
    return tuple(keys)


@cache
def exclusive_pairs(table: TableSpec) -> tuple[tuple[str, str], ...]:
    """Keys a row may not both give: a position and its velocity, an alias and its key."""
    out = []
    for col in table.columns:
        out += list(zip(col.saved, col.rate, strict=False))
        if col.alias:
            out.append((col.alias[0], col.saved[0]))
    return tuple(out)


def exclusive(t: dict[str, Any], w: Where, pairs: Any) -> None:
    """Refuse a table that gives both keys of a pair (``px`` and ``vx``, …)."""
    for one, other in pairs:
        if one in t and other in t:
            w.fail(f"give either {one} or {other}, not both", other)


def left_out(col: Column) -> Any:
    """A column's value when a row leaves it out (REQUIRED: it may not; NaN: measured)."""
    if col.measured:
        return math.nan
    return REQUIRED if col.default is None else col.default


def _kind(col: Column) -> str:
    if col.width < 0:
        return "entities"
    return {B1: "bool", I8: "int"}.get(col.dtype, "float")


_READERS: dict[str, Callable[..., Any]] = {
    "entities": lambda w, t, key, default, limit, col: w.entities(t, key, col.least),
    "bool": lambda w, t, key, default, limit, col: w.boolean(t, key, default),
    "int": lambda w, t, key, default, limit, col: w.integer(t, key, default,
                                                            limit or limits.INT),
    "float": lambda w, t, key, default, limit, col: w.number(t, key, default, limit),
}


@dataclass(frozen=True)
class _Key:
    """How one key of a row is read, worked out once per table."""

    key: str
    col: Column
    read: Callable[..., Any]
    limit: limits.Range | None
    default: Any
    follows: str = ""  # the key it defaults to (``x`` for ``px``) …
    rate: str = ""  # … less this velocity × h
    rate_limit: limits.Range | None = None


@cache
def _plan(table: TableSpec) -> tuple[_Key, ...]:
    """Every key of a row of ``table``, in the order a file's row is read."""
    out = [_Key(key, col, _READERS[_kind(col)], table.limit(key), left_out(col))
           for col in table.fields for key in col.saved]
    for col in table.columns:
        follows = table[col.follows].saved if col.follows else ()
        for k, key in enumerate(col.saved):
            rate = col.rate[k] if col.rate else ""
            out.append(_Key(key, col, _READERS[_kind(col)], table.limit(key), left_out(col),
                            follows[k] if follows else "", rate,
                            table.limit(rate) if rate else None))
    return tuple(out)


@cache
def _allowed(table: TableSpec, extra: tuple[str, ...]) -> frozenset[str]:
    return frozenset((*extra, *file_keys(table)))


def read_row(t: dict[str, Any], w: Where, table: TableSpec, h: float,
             extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every field and saved key of one row, by key, checked (``extra``: a hook's keys).

    A key left out takes its column default, or is measured (NaN), or follows
    another column less a velocity × ``h`` (``px = x − vx·h``).
    """
    w.keys(t, _allowed(table, extra))
    exclusive(t, w, exclusive_pairs(table))
    out: dict[str, Any] = {}
    for k in _plan(table):
        if k.follows:
            rate = w.number(t, k.rate, 0.0, k.rate_limit) if k.rate else 0.0
            out[k.key] = w.number(t, k.key, out[k.follows] - rate * h, k.limit)
        elif k.col.alias and k.col.alias[0] in t:
            alias = k.col.alias[0]
            out[k.key] = k.col.alias[1](w.number(t, alias, REQUIRED, table.limit(alias)))
        else:
            out[k.key] = k.read(w, t, k.key, k.default, k.limit, k.col)
    if table.ends and out[table.ends[0]] == out[table.ends[1]]:
        a, b = table.ends
        w.fail(f"{a} and {b} are the same entity ({out[a]})", b)
    return out


def references(table: TableSpec) -> tuple[Column, ...]:
    """The fields and columns of ``table`` that hold entity ids in a file."""
    return tuple(col for col in (*table.fields, *table.columns) if col.ref and col.saved)


def make(cls: type, values: dict[str, Any], w: Where, **more: Any) -> Any:
    """A ``cls`` component from a row's values (those its constructor takes; NaN: None)."""
    kwargs = {name: None if isinstance(v, float) and math.isnan(v) else v
              for name, v in values.items() if name in _params(cls)}
    try:
        return cls(**kwargs, **more)
    except REFUSED as exc:
        w.fail(str(exc))


@cache
def parameters(cls: type) -> Mapping[str, inspect.Parameter]:
    """``cls``'s constructor parameters, by name (read once a class: a stage's for every
    file read and written took ~0.1 ms each)."""
    return inspect.signature(cls).parameters


@cache
def _params(cls: type) -> frozenset[str]:
    return frozenset(parameters(cls))


#: A reader hook: ``(table, where, row values) -> component`` for a row the column spec
#: alone cannot make (a body's shape); the default is ``make``.
Hook = Callable[[dict[str, Any], Where, dict[str, Any]], Any]
