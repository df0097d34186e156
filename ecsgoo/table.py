"""A growable structure-of-arrays table: one numpy column per field, one row per slot.

Rows are appended at the end and removed by moving the last row into the hole
(swap-remove), so slots stay dense and kernels can loop ``range(n)`` over
full-capacity columns without slicing. ``table_class(spec)`` gives a table one
typed view per column: ``particles.pos`` is the live ``(n, 2)`` slice of the
``pos`` column (reading and writing it reads and writes the store).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .columns import Column, TableSpec


class Table:
    """Columns of ``capacity`` rows, of which the first ``n`` are in use.

    ``owner[slot]`` is the component object whose values live in that row; the
    table keeps ``owner._slot`` up to date when rows move.
    """

    spec: TableSpec

    def __init__(self, capacity: int = 64, store: Any = None) -> None:
        self.n = 0
        self.cols: dict[str, np.ndarray] = {}
        self.owner: list[Any] = []
        self.version = 0
        #: Writes of the ``events`` flags since the table was made (``version`` counts rows
        #: added and removed): "is anything watched?" is kept by both (``flags.watched``).
        self.watch_version = 0
        self._watched = ((-1, -1), 0)  # flags.watched_count's answer and its key
        #: Writes of the bodies' ``kinematic`` and ``stop`` flags (``flags.kinematic``,
        #: ``flags.stopping`` keep their answers by it and ``version``).
        self.flag_version = 0
        self._kinematic = self._stopping = ((-1, -1), False)
        #: Read-only views of the columns' rows (``views.Rows``' reads), by column name:
        #: emptied whenever the row count or a column array changes (here only).
        self.read_only_rows: dict[str, np.ndarray] = {}
        #: The Store this table belongs to (particle views read its substep time ``h``).
        self.store = store
        self._defaults = {c.name: 0 if c.default is None else c.default
                          for c in self.spec.columns}
        self._alloc(capacity)

    def _alloc(self, capacity: int) -> None:
        for c in self.spec.columns:
            shape = (capacity,) if c.width == 0 else (capacity, c.width)
            col = np.zeros(shape, dtype=c.dtype)
            old = self.cols.get(c.name)
            if old is not None:
                col[: self.n] = old[: self.n]
            self.cols[c.name] = col
        self.capacity = capacity
        self.read_only_rows = {}

    def extend(self, owners: list[Any], values: dict[str, Any]) -> int:
        """Add ``len(owners)`` rows at once (columns as arrays or one value; missing: default).

        Returns the first new slot. Loading a big world uses this: one numpy
        copy per column instead of one Python assignment per row and column.
        """
        first, count = self.n, len(owners)
        capacity = self.capacity
        while capacity < first + count:
            capacity *= 2
        if capacity != self.capacity:
            self._alloc(capacity)
        if count == 1:  # one component added through the API: item writes, 3× cheaper
            for name, col in self.cols.items():
                v = values.get(name, self._defaults[name])
                col[first] = v[0] if isinstance(v, np.ndarray) and v.ndim == col.ndim else v
        else:
            for name, col in self.cols.items():
                col[first: first + count] = values.get(name, self._defaults[name])
        for k, owner in enumerate(owners):
            owner._slot = first + k
        self.owner.extend(owners)
        self.n += count
        self.version += 1
        self.read_only_rows.clear()
        return first

    def remove(self, slot: int) -> int:
        """Remove row ``slot`` by moving the last row into it; return the old last slot."""
        last = self.n - 1
        if slot != last:
            for col in self.cols.values():
                col[slot] = col[last]
            moved = self.owner[last]
            self.owner[slot] = moved
            moved._slot = slot
        self.owner.pop()
        self.n -= 1
        self.version += 1
        self.read_only_rows.clear()
        return last

    def copy(self) -> Table:
        """An independent copy of the columns (owners are left for the caller to fill)."""
        t = type(self).__new__(type(self))
        t.__dict__.update(self.__dict__)
        t.cols = {k: v.copy() for k, v in self.cols.items()}
        t.__dict__.pop("_read_only", None)  # ``views``' read-only views are of these columns
        t.read_only_rows = {}
        t.owner = [None] * self.n
        return t


def _view(col: Column) -> property:
    name = col.name
    return property(lambda t: t.cols[name][: t.n], doc=f"{col.doc} Live, one row per slot.")


def table_class(spec: TableSpec) -> type[Table]:
    """A Table of ``spec``'s columns with one typed view per column (``particles.pos``)."""
    views = {c.name: _view(c) for c in spec.columns}
    return type(f"{spec.component}Table", (Table,), {"spec": spec, **views,
                                                       "__doc__": Table.__doc__})
