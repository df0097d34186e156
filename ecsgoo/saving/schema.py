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

#: Marks a field that has no default: leaving it out is an error.
REQUIRED: Any = object()
#: Entity ids are int64 in the store; keep them well inside that range.
MAX_ID = 2**62
#: Largest coordinate, length, speed or force accepted (px, px/s): a typo such as
#: ``x = 1e300`` would otherwise overflow the contact grid on the first step.
MAX_COORD = 1e9
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
        allowed = set(allowed)
        for key in table:
            if key not in allowed:
                self.fail(f"unknown field {key!r}{suggest(key, allowed)}")

    # -- scalar fields --------------------------------------------------------------

    def number(self, table: dict[str, Any], key: str, default: Any = REQUIRED, *,
               inf: bool = False, low: float | None = None, above: float | None = None,
               high: float | None = None, coord: bool = False) -> float:
        """A float field (TOML integers accepted); finite unless ``inf`` allows +inf.

        ``coord``: a coordinate, length, speed or force, within ``±MAX_COORD``.
        """
        if key not in table:
            return self._default(key, default, "a number")
        return self.as_number(table[key], key, inf=inf, low=low, above=above, high=high,
                              coord=coord)

    def as_number(self, value: Any, key: str, *, inf: bool = False, low: float | None = None,
                  above: float | None = None, high: float | None = None,
                  coord: bool = False) -> float:
        """Check one number (see ``number``)."""
        if type(value) not in (int, float):
            self.fail(f"must be a number, got {toml_type(value)} {show(value)}", key)
        try:
            out = float(value)
        except OverflowError:
            self.fail(f"is too large: {show(value)}", key)
        if math.isnan(out) or (math.isinf(out) and not (inf and out > 0)):
            allowed = " (only +inf is allowed here)" if inf else ""
            self.fail(f"must be finite, got {out}{allowed}", key)
        if above is not None and not out > above:
            self.fail(f"must be > {above}, got {out}", key)
        if low is not None and not out >= low:
            self.fail(f"must be >= {low}, got {out}", key)
        if high is not None and not out <= high:
            self.fail(f"must be <= {high}, got {out}", key)
        if coord and not abs(out) <= MAX_COORD:
            self.fail(f"must be within ±{MAX_COORD:g}, got {out}", key)
        return out

    def integer(self, table: dict[str, Any], key: str, default: Any = REQUIRED, *,
                low: int = -MAX_ID, high: int = MAX_ID) -> int:
        """An integer field in ``[low, high]``."""
        if key not in table:
            return self._default(key, default, "an integer")
        return self.as_integer(table[key], key, low=low, high=high)

    def as_integer(self, value: Any, key: str, *, low: int = -MAX_ID,
                   high: int = MAX_ID) -> int:
        """Check one integer (see ``integer``)."""
        self.of_type(value, int, key)
        if not low <= value <= high:
            self.fail(f"must be in {low}..{high}, got {value}", key)
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
        out = [self.as_integer(v, key, low=0) for v in self.array(table, key)]
        if len(out) < least:
            self.fail(f"needs at least {least} entities, got {len(out)}", key)
        if len(set(out)) != len(out):
            twice = next(e for e in out if out.count(e) > 1)
            self.fail(f"lists entity {twice} twice", key)
        return out

    def points(self, table: dict[str, Any], key: str, default: Any = REQUIRED, *,
               least: int = 0, width: int = 2) -> list[list[float]]:
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
        return [[self.as_number(v, key, coord=True) for v in row] for row in rows]
