"""Reading values out of a parsed world file, with errors that name file, place and field.

Every check raises ``WorldFileError`` with a message like
``level.toml: entity 12 (spring): field b: refers to entity 99, which does not exist``.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from typing import Any, NoReturn

from ..errors import WorldFileError
from ..limits import COORD, ID, INT, MAX_INT, Range

#: Marks a field that has no default: leaving it out is an error.
REQUIRED: Any = object()
#: Entity ids are int64 in the store; keep them well inside that range.
MAX_ID = MAX_INT
#: Integers a float holds exactly (``as_number``'s fast path takes no others).
_EXACT = 2**53
#: What constructors and ``load_state`` raise for values they refuse: loading reports
#: them as WorldFileError naming the place.
REFUSED = (TypeError, ValueError, KeyError, IndexError, ArithmeticError)
#: What a field of an exact TOML type must be, as messages say it.
_WANT = {bool: "true or false", int: "an integer", str: "a string", list: "an array"}


def toml_type(value: Any) -> str:
    """The TOML name of a parsed value's type, for messages."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string",
             list: "an array", dict: "a table"}
    return names.get(type(value), f"a {type(value).__name__}")


def show(value: Any) -> str:
    """A short rendering of a value for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def suggest(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the nearest known name, or a list of the known ones."""
    known = sorted(known)
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (known: {', '.join(known)})" if known else ""


class Where:
    """A place in a world file (``entity 12 (spring)``, ``[world]``) that errors name."""

    def __init__(self, source: str, place: str) -> None:
        self.source, self.place = source, place

    def at(self, place: str) -> Where:
        """The same file, another place."""
        return Where(self.source, place)

    def fail(self, message: str, field: str | None = None) -> NoReturn:
        """Raise WorldFileError naming the file, this place and ``field``."""
        where = f"{self.source}: {self.place}"
        if field is not None:
            where += f": field {field}"
        raise WorldFileError(f"{where}: {message}")

    # -- shapes of tables ---------------------------------------------------------

    def table(self, value: Any, field: str | None = None) -> dict[str, Any]:
        """``value`` if it is a TOML table."""
        if not isinstance(value, dict):
            self.fail(f"must be a table, got {toml_type(value)}", field)
        return value

    def keys(self, table: dict[str, Any], allowed: Iterable[str]) -> None:
        """Refuse keys outside ``allowed``, suggesting the nearest one."""
        if not isinstance(allowed, set | frozenset):
            allowed = set(allowed)
        for key in table:
            if key not in allowed:
                self.fail(f"unknown field {show(key)}{suggest(key, allowed)}")

    # -- scalar fields --------------------------------------------------------------

    def number(self, table: dict[str, Any], key: str, default: Any = REQUIRED,
               limit: Range | None = None) -> float:
        """A float field (TOML integers accepted), finite and within ``limit`` if given.

        ``limit`` is the field's range in ``limits.FIELDS``, the one the API checks.
        """
        if key not in table:
            return self._default(key, default, "a number")
        return self.as_number(table[key], key, limit)

    def as_number(self, value: Any, key: str, limit: Range | None = None) -> float:
        """Check one number (see ``number``); +inf only where ``limit`` allows it."""
        kind = type(value)
        if limit is not None and (kind is float or (kind is int and -_EXACT < value < _EXACT)) \
                and limit.low < value <= limit.high:
            return float(value)  # the common case, inside its range (never NaN, never −inf)
        if kind not in (int, float):
            self.fail(f"must be a number, got {toml_type(value)} {show(value)}", key)
        try:
            out = float(value)
        except OverflowError:
            self.fail(f"is too large: {show(value)}", key)
        inf = limit is not None and (limit.inf or limit.high == math.inf)
        if math.isnan(out) or (math.isinf(out) and not (inf and out > 0)):
            allowed = " (only +inf is allowed here)" if inf else ""
            self.fail(f"must be finite, got {out}{allowed}", key)
        problem = None if limit is None else limit.problem(out)
        if problem is not None:
            self.fail(problem, key)
        return out

    def integer(self, table: dict[str, Any], key: str, default: Any = REQUIRED,
                limit: Range = INT) -> int:
        """An integer field within ``limit`` (by default: fits int64 with room)."""
        if key not in table:
            return self._default(key, default, "an integer")
        return self.as_integer(table[key], key, limit)

    def as_integer(self, value: Any, key: str, limit: Range = INT) -> int:
        """Check one integer (see ``integer``)."""
        self.of_type(value, int, key)
        problem = limit.problem(value)
        if problem is not None:
            self.fail(problem, key)
        return value

    def boolean(self, table: dict[str, Any], key: str, default: Any = REQUIRED) -> bool:
        """A boolean field."""
        return self._typed(table, key, default, bool)

    def string(self, table: dict[str, Any], key: str, default: Any = REQUIRED) -> str:
        """A string field."""
        return self._typed(table, key, default, str)

    def of_type(self, value: Any, want: type, key: str) -> Any:
        """``value`` if its type is exactly ``want`` (bool, int, str or list: no casting)."""
        if type(value) is not want:
            self.fail(f"must be {_WANT[want]}, got {toml_type(value)} {show(value)}", key)
        return value

    def _typed(self, table: dict[str, Any], key: str, default: Any, want: type) -> Any:
        if key not in table:
            return self._default(key, default, _WANT[want])
        return self.of_type(table[key], want, key)

    def _default(self, key: str, default: Any, what: str) -> Any:
        if default is REQUIRED:
            self.fail(f"missing ({what})", key)
        return default

    # -- lists ------------------------------------------------------------------------

    def array(self, table: dict[str, Any], key: str, default: Any = REQUIRED) -> list[Any]:
        """An array field."""
        return self._typed(table, key, default, list)

    def entities(self, table: dict[str, Any], key: str, least: int) -> list[int]:
        """A list of at least ``least`` distinct entity ids."""
        out = [self.as_integer(v, key, ID) for v in self.array(table, key)]
        if len(out) < least:
            self.fail(f"needs at least {least} entities, got {len(out)}", key)
        if len(set(out)) != len(out):
            twice = next(e for e in out if out.count(e) > 1)
            self.fail(f"lists entity {twice} twice", key)
        return out

    def points(self, table: dict[str, Any], key: str, default: Any = REQUIRED, *,
               least: int = 0, width: int = 2, limit: Range = COORD) -> list[list[float]]:
        """A list of points ``[[x, y], ...]`` (or of ``width`` numbers each), px."""
        rows = self.array(table, key, default)
        if rows is default:
            return rows
        if len(rows) < least:
            self.fail(f"needs at least {least} points, got {len(rows)}", key)
        for row in rows:
            if type(row) is not list or len(row) != width:
                self.fail(f"each item must be an array of {width} numbers, got {show(row)}",
                          key)
        return [[self.as_number(v, key, limit) for v in row] for row in rows]
