"""Public bulk views of a world's packed rows: what a game reads and writes many of at once.

``world.particles``, ``world.springs``, ``world.areas`` and ``world.shapes``
are ``Rows``: each column of the store's table (``ecsgoo.columns``) is a
read-only live array of the first ``n`` rows (``world.particles.pos`` is
``(n, 2)``, px), ``entity`` holds each row's entity, ``row(entity)`` finds a
row. Rows move when entities are deleted, so look a row up again after a
structural change. Writes go through ``write``, which checks every value
against ``ecsgoo.limits`` like the components' setters do, so a world written
this way still saves and loads.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import components, limits, rigid, sleeping
from .errors import WorldError
from .kernels.rows import place_checked, push_rows, within, write_checked
from .store import TABLES

#: Columns ``write`` may set: nothing else in the store is computed from them. The
#: rest (a position moves a pin, a mass changes the inverse mass, ends and kinds are
#: structure) is written through the components' views.
WRITABLE = {
    "particles": ("prev", "radius", "group", "friction", "restitution"),
    "springs": ("rest", "compliance", "max_stretch"),
    "areas": ("pressure", "stiffness"),
    "shapes": ("alpha", "scale"),
    "bodies": ("prev", "prev_angle", "friction", "restitution", "group"),
    "joints": ("max_force",),
}
#: The component whose rows each table holds.
_COMPONENTS = {"particles": "Particle", "springs": "Spring", "areas": "AreaConstraint",
               "shapes": "ShapeMatch", "bodies": "RigidBody", "joints": "Joint"}


#: The store's entity → row map of each table that keeps one (``Rows.rows``).
_SLOTS = {"particles": "pslot", "bodies": "bslot"}


class Rows:
    """Live, read-only column views of one store table, and a checked ``write``."""

    def __init__(self, world: Any, table_name: str) -> None:
        self._world, self._name = world, table_name

    @property
    def _table(self) -> Any:
        return getattr(self._world.store, self._name)

    def __len__(self) -> int:
        return self._table.n

    @property
    def version(self) -> int:
        """How many times rows came or went in this table: while it reads the same, so
        do the rows and their order (what a game found by row still holds)."""
        return self._table.version

    def __getattr__(self, name: str) -> np.ndarray:
        if name[0] == "_":  # not a column (and ``_world`` while a copy is being made)
            raise AttributeError(name)
        table = getattr(self._world.store, self._name)
        if name == "entity" and "entity" not in table.cols:
            return np.array([c._entity for c in table.owner[: table.n]], dtype=np.int64)
        if name not in table.cols:
            known = ", ".join(table.cols)
            raise AttributeError(f"{self._name} have no column {name!r} (columns: {known})")
        return _read_only(table, name)

    def row(self, entity: int) -> int:
        """The row of ``entity``'s component in this table (``WorldError`` if it has none)."""
        name = _COMPONENTS[self._name]
        kind = getattr(components, name, None) or getattr(rigid, name)
        comp = self._world.try_component(entity, kind) if self._world.entity_exists(
            entity) else None
        if comp is None or comp._slot is None:
            raise WorldError(f"entity {entity}: has no {kind.__name__}")
        return int(comp._slot)

    @property
    def velocity(self) -> np.ndarray:
        """Particles and bodies: velocity ``(pos − prev) / h``, px/s (a new array, ``(n, 2)``)."""
        if self._name not in ("particles", "bodies"):
            raise AttributeError(f"{self._name} have no velocity")
        return (self.pos - self.prev) / self._world.store.h

    def rows(self, entities: Any) -> np.ndarray:
        """The rows of ``entities``, in their order (``WorldError`` naming one that has no
        row here). Particles and bodies are found in the store's entity → row maps (the
        component look-up of ``row`` cost ~1 µs an entity); anything else, or an entity
        they do not hold, goes through ``row``."""
        slots = _SLOTS.get(self._name)
        if slots is not None:
            slot = getattr(self._world.store, slots)
            found = [slot.get(e, -1) for e in entities]
            if -1 not in found:
                return np.array(found, dtype=np.int64)
        return np.array([self.row(int(e)) for e in entities], dtype=np.int64)

    def write(self, name: str, values: Any, rows: Any = None) -> None:
        """Set column ``name`` at ``rows`` (all rows when ``None``) to ``values``, checked.

        ``values`` broadcasts like numpy. Raises ``WorldError`` naming the field
        (and writes nothing) if a value is outside its range in ``ecsgoo.limits``.
        """
        table = self._table
        if name not in WRITABLE[self._name]:
            raise WorldError(f"{self._name}: column {name!r} cannot be written in bulk "
                             f"(these can: {', '.join(WRITABLE[self._name])}; the others "
                             "through the component's view)")
        if _written(table, name, values, rows):  # floats to rows given: one kernel call
            table.store.moved()
            table.store.woken_all()  # a sleeping world feels what the game changed
            return
        target = table.cols[name][: table.n]
        index = slice(None) if rows is None else np.asarray(rows, dtype=np.int64)
        shape = target.shape if rows is None else index.shape + target.shape[1:]
        new = np.asarray(values, dtype=target.dtype)
        if new.shape != shape:  # a value for many rows (broadcast_to alone costs ~2 µs)
            new = np.broadcast_to(new, shape)
        spec = table.spec
        keys = spec[name].saved or (name,)
        limit = _one_range(spec, name)
        if limit is _MIXED or (limit is not None and not _all_within(limit, new)):
            for k, key in enumerate(keys):  # one range for all the keys: checked at once
                part = new[..., k] if spec[name].width else new
                bad = _out_of_range(spec.limit(key), part)
                if bad is not None:
                    raise WorldError(f"{spec.component}: field {key} must be "
                                     f"{spec.limit(key).describe()}, got {bad!r}")
        target[index] = new
        table.store.moved()
        table.store.woken_all()  # a sleeping world feels what the game changed

    def place(self, rows: Any, pos: Any = None, velocity: Any = None,
              axis: int | None = None) -> None:
        """Particles: what writing ``x``, ``y`` (``pos``, px, ``(k, 2)``) and then ``vx``,
        ``vy`` (``velocity``, px/s) on the Particle of each of ``rows`` does, for all of
        them at once, the same bits (either may be ``None``: left as it is). With ``axis``
        0 or 1 only that axis is written (``x`` and ``vx``, or ``y`` and ``vy``: ``pos`` and
        ``velocity`` of shape ``(k,)``). Each row wakes as its component's write wakes it.
        ``rows`` hold each row once."""
        if self._name != "particles":
            raise AttributeError(f"{self._name} have no place (particles do)")
        if axis not in (None, 0, 1):
            raise ValueError(f"particles.place: axis must be None, 0 or 1, got {axis!r}")
        table, world = self._table, self._world
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1)
        shape = (len(rows), 2) if axis is None else (len(rows),)
        values = [_NO_VALUES if v is None else
                  np.ascontiguousarray(v, dtype=np.float64).reshape(shape)
                  for v in (pos, velocity)]
        cols = table.cols
        wake = bool(world.sleep and len(rows))
        # checked, written and the still counts started again in one call (a call costs
        # ~1 µs between a frame's kernels, and goo places every frame)
        code = place_checked(table.n, cols["pos"], cols["prev"], cols["pin"], cols["pinned"],
                             rows, values[0].reshape(-1), values[1].reshape(-1),
                             table.store.h, -1 if axis is None else axis, _place_bounds(),
                             cols["asleep"], cols["still"], wake)
        if code in (1, 2):  # names the field and raises: nothing was written
            _check_axes((("x", "y"), ("vx", "vy"))[code - 1], values[code - 1], axis)
        if code == 3:
            _in_table(table, rows)  # raises: nothing was written
        if wake:  # ``sleeping.wake_rows``, the still counts started again in the kernel
            sleeping.woken(world, table, rows, code == 4)
        if pos is not None:
            table.store.moved()

    def push(self, rows: Any, force: Any) -> None:
        """Particles: ``world.apply_force`` of each ``force`` (mass·px/s², ``(k, 2)``) on
        its row of ``rows`` (each once), at once: the same bits, the same wakes, checked
        against ``limits.MAX_FORCE`` likewise."""
        if self._name != "particles":
            raise AttributeError(f"{self._name} have no push (particles do)")
        table = self._table
        self._world._forces_applied += 1
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1)
        force = np.ascontiguousarray(force, dtype=np.float64).reshape(len(rows), 2)
        fields, col = limits.FIELDS["Particle"], table.cols["force"]
        limit, other = fields["fx"], fields["fy"]
        if (limit is other or limit == other) and push_rows(table.n, col, rows, force,
                                                                   *_bounds(limit)):
            sleeping.wake_rows(self._world, table, rows)  # checked and written in one call
            return
        _in_table(table, rows)
        _check_pair("Particle", ("fx", "fy"), force)
        sleeping.wake_rows(self._world, table, rows)
        new = col[rows] + force
        _check_pair("Particle", ("fx", "fy"), new)
        col[rows] = new

    def __repr__(self) -> str:
        return f"<{self._name}: {len(self)} rows>"


def _read_only(table: Any, name: str) -> np.ndarray:
    """A read-only view of ``table``'s column ``name``, its rows: a slice of a read-only
    view of the whole column made once per column array (a fresh view made read-only cost
    ~1 µs a read), the slice kept while the row count is the same (``Rows``' next read of
    the column then costs a dict look-up)."""
    col = table.cols[name]
    kept = table.__dict__.setdefault("_read_only", {}).get(name)
    if kept is None or kept[0] is not col:  # a new column (grown, copied, loaded)
        view = col.view()
        view.flags.writeable = False
    else:
        view = kept[1]
    rows = view[: table.n]
    table._read_only[name] = (col, view)
    table.read_only_rows[name] = rows  # kept until the rows or the column change (``Table``)
    return rows


def _column(name: str) -> property:
    """``Rows.<name>``: the kept read-only rows of the table's column (``_read_only`` makes
    them after a change), an ordinary attribute look-up and a dict's away (``__getattr__``
    alone was ~0.7 µs a read, and games read a handful of columns a frame)."""

    def read(self: Rows) -> np.ndarray:
        rows = getattr(self._world.store, self._name).read_only_rows.get(name)
        return self.__getattr__(name) if rows is None else rows

    return property(read, doc=f"The ``{name}`` column's rows (read-only, live).")


for _name in sorted({c.name for spec in TABLES for c in spec.columns}):
    if not hasattr(Rows, _name):  # a method of the views keeps its name
        setattr(Rows, _name, _column(_name))


def _in_table(table: Any, rows: np.ndarray) -> None:
    """WorldError unless every one of ``rows`` is a row of ``table`` (``0 <= row < n``): the
    row kernels write where they are told."""
    if len(rows) and (rows.min() < 0 or rows.max() >= table.n):
        bad = rows[(rows < 0) | (rows >= table.n)][0]
        raise WorldError(f"particles: no row {int(bad)} (there are {table.n})")


def _bounds(limit: limits.Range) -> tuple[float, float, bool, bool, bool]:
    """``limit`` as the row kernels take it (``kernels.rows.within``), made once a range."""
    kept = _BOUNDS.get(id(limit))
    if kept is None or kept[0] is not limit:
        kept = _BOUNDS[id(limit)] = (limit, (float(limit.low), float(limit.high),
                                             limit.open_low, limit.zero, limit.inf))
    return kept[1]


def _place_bounds() -> np.ndarray:
    """The ranges of a Particle's x, y, vx and vy as ``kernels.rows.place_checked`` takes
    them (a row each: ``_bounds``' five), made again only if a range is another."""
    fields = limits.FIELDS["Particle"]
    x, y, vx, vy = kept = _PLACE_BOUNDS[0]
    if not (fields["x"] is x and fields["y"] is y and fields["vx"] is vx and fields["vy"] is vy):
        kept = tuple(fields[key] for key in ("x", "y", "vx", "vy"))
        _PLACE_BOUNDS[:] = [kept, np.array([[float(v) for v in _bounds(r)] for r in kept])]
    return _PLACE_BOUNDS[1]


#: ``_place_bounds``' ranges and the array made of them.
_PLACE_BOUNDS: list[Any] = [(None, None, None, None), None]
#: No values to write (``place``'s ``pos`` or ``velocity`` left as it is).
_NO_VALUES = np.empty(0)


#: Each range's bounds as the row kernels take them, by the range's id (``_bounds``).
_BOUNDS: dict[int, tuple[limits.Range, tuple[float, float, bool, bool, bool]]] = {}


def _check_axes(keys: tuple[str, str], values: np.ndarray, axis: int | None) -> None:
    """``_check_pair`` of a Particle's ``keys`` (``values``: ``(k, 2)``), or of the one of
    ``axis`` (``values``: ``(k,)``)."""
    if axis is None:
        _check_pair("Particle", keys, values)
    else:
        _check_field("Particle", keys[axis], values)


def _check_pair(owner: str, keys: tuple[str, str], values: np.ndarray) -> None:
    """WorldError naming ``owner``'s field if one of ``values`` (``(k, 2)``: a column per
    key of ``keys``) is out of its range; both columns at once when they share one."""
    fields = limits.FIELDS[owner]
    if fields[keys[0]] == fields[keys[1]] and _out_of_range(fields[keys[0]], values) is None:
        return
    for k, key in enumerate(keys):
        _check_field(owner, key, values[:, k])


def _check_field(owner: str, key: str, values: np.ndarray) -> None:
    """WorldError naming ``owner``'s field ``key`` if one of ``values`` is out of its range."""
    limit = limits.FIELDS[owner][key]
    bad = _out_of_range(limit, values)
    if bad is not None:
        raise WorldError(f"{owner}: field {key} must be {limit.describe()}, got {bad!r}")


def _written(table: Any, name: str, values: Any, rows: Any) -> bool:
    """``Rows.write``'s usual call in one kernel (``kernels.rows.write_checked``): float
    ``values`` of exactly the shape of ``rows`` (an int64 array) of a float column of one
    range, all in range and every row the table's. Whether it wrote; if not, nothing was
    written (the numpy path writes, or names what is wrong)."""
    target = table.cols[name]
    if not (rows.__class__ is np.ndarray and values.__class__ is np.ndarray
            and rows.dtype == np.int64 and values.dtype == np.float64 and rows.ndim == 1
            and target.dtype == np.float64
            and values.shape == rows.shape + target.shape[1:]):
        return False
    limit = _one_range(table.spec, name)
    if limit is _MIXED or limit is None:
        return False
    flat = values.reshape(-1)
    if not (flat.flags.writeable and flat.flags.c_contiguous):
        flat = np.array(flat)  # the one signature the warm-up compiles
    if not (rows.flags.writeable and rows.flags.c_contiguous):
        rows = np.array(rows)
    width = target.shape[1] if target.ndim == 2 else 1
    return write_checked(table.n, target.reshape(-1), width, rows, flat, *_bounds(limit)) == 0


def _one_range(spec: Any, name: str) -> Any:
    """The one range all of column ``name``'s saved keys take (None: a flag, unchecked), or
    ``_MIXED`` if they differ; made once a column."""
    kept = _RANGES.get((spec, name))
    if kept is None:
        ranges = {spec.limit(key) for key in spec[name].saved or (name,)}
        kept = _RANGES[spec, name] = ranges.pop() if len(ranges) == 1 else _MIXED
    return kept


#: Each column's one range (``_one_range``), by its table's spec and its name.
_RANGES: dict[tuple[Any, str], Any] = {}
#: ``_one_range`` of a column whose keys take different ranges.
_MIXED = object()


def _all_within(limit: limits.Range, values: np.ndarray) -> bool:
    """Whether every one of ``values`` is inside ``limit``: floats in one kernel call
    (``kernels.rows.within``), others as ``_out_of_range`` finds."""
    if values.dtype == np.float64:
        # writable and contiguous (a copy if it is not), the one signature the warm-up
        # compiles (a broadcast view is read-only, another numba type)
        flat = values.reshape(-1)
        if not (flat.flags.writeable and flat.flags.c_contiguous):
            flat = np.array(flat)
        return within(flat, *_bounds(limit))
    return _out_of_range(limit, values) is None


def _out_of_range(limit: limits.Range | None, values: np.ndarray) -> Any:
    """The first value of ``values`` outside ``limit``, or ``None``."""
    if limit is None or values.size == 0:
        return None
    ok = limit.mask(values.reshape(-1))
    return None if ok.all() else values.reshape(-1)[int(np.argmin(ok))].item()
