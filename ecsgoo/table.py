"""A growable structure-of-arrays table: one numpy column per field, one row per slot.

Rows are appended at the end and removed by moving the last row into the hole
(swap-remove), so slots stay dense and kernels can loop ``range(n)`` over
full-capacity columns without slicing.
"""

from __future__ import annotations

from typing import Any

import numpy as np


class Table:
    """Columns of ``capacity`` rows, of which the first ``n`` are in use.

    ``owner[slot]`` is the component object whose values live in that row; the
    table keeps ``owner._slot`` up to date when rows move.
    """

    def __init__(self, spec: dict[str, tuple[Any, int]], capacity: int = 64) -> None:
        self.spec = spec
        self.n = 0
        self.cols: dict[str, np.ndarray] = {}
        self.owner: list[Any] = []
        self.version = 0
        self._alloc(capacity)

    def _alloc(self, capacity: int) -> None:
        for name, (dtype, width) in self.spec.items():
            shape = (capacity,) if width == 0 else (capacity, width)
            col = np.zeros(shape, dtype=dtype)
            old = self.cols.get(name)
            if old is not None:
                col[: self.n] = old[: self.n]
            self.cols[name] = col
        self.capacity = capacity

    def append(self, owner: Any, values: dict[str, Any]) -> int:
        """Add a row holding ``values`` (missing columns are zero); return its slot."""
        if self.n == self.capacity:
            self._alloc(2 * self.capacity)
        slot = self.n
        for name, col in self.cols.items():
            col[slot] = values.get(name, 0)
        self.owner.append(owner)
        owner._slot = slot
        self.n += 1
        self.version += 1
        return slot

    def extend(self, owners: list[Any], values: dict[str, Any]) -> int:
        """Add ``len(owners)`` rows at once (columns as arrays; missing ones zero).

        Returns the first new slot. Loading a big world uses this: one numpy
        copy per column instead of one Python assignment per row and column.
        """
        first, count = self.n, len(owners)
        capacity = self.capacity
        while capacity < first + count:
            capacity *= 2
        if capacity != self.capacity:
            self._alloc(capacity)
        for name, col in self.cols.items():
            col[first: first + count] = values.get(name, 0)
        for k, owner in enumerate(owners):
            owner._slot = first + k
        self.owner.extend(owners)
        self.n += count
        self.version += 1
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
        return last

    def copy(self) -> Table:
        """An independent copy of the columns (owners are left for the caller to fill)."""
        t = Table.__new__(Table)
        t.spec, t.n, t.version, t.capacity = self.spec, self.n, self.version, self.capacity
        t.cols = {k: v.copy() for k, v in self.cols.items()}
        t.owner = [None] * self.n
        return t
