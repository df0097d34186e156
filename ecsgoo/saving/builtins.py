"""The built-in components a world file holds, by name: one line each.

A built-in with a store table (``table``) is read, checked, written and built
from its column spec alone (``columns``: keys, dtypes, defaults, ranges,
entity references); ``rows`` names it in ``[rows]``. Riders (``anchor``,
``fruit``) hold columns of their host's row and have readers of their own.
What a file says in its own way (a body's ``shape`` and ``size``) is a hook in
``read.HOOKS`` and ``write.HOOKS``.

Adding a built-in component: its module, its ``TableSpec`` in ``columns``
(with the store's bulk entry point ``add``), and one line in ``BUILTINS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..columns import AREAS, BODIES, JOINTS, PARTICLES, SHAPES, SPRINGS, TETHERS, TableSpec
from ..components import Anchor, AreaConstraint, Fruit, Particle, ShapeMatch, Spring
from ..rigid import Joint, RigidBody


@dataclass(frozen=True)
class Builtin:
    """One built-in component: its name in a file, its class, its store table if it has one.

    ``rows``: its key in ``[rows]``; ``columns``: it may also be written as column
    arrays (``[particles]``) in big worlds.
    """

    name: str
    cls: type
    table: TableSpec | None = None
    rows: str = ""
    columns: bool = False


#: Every built-in, in the order a file's entity tables list them (and rows are attached).
BUILTINS: tuple[Builtin, ...] = (
    Builtin("particle", Particle, PARTICLES, "particles", columns=True),
    Builtin("body", RigidBody, BODIES, "bodies"),
    Builtin("anchor", Anchor),
    Builtin("fruit", Fruit),
    Builtin("spring", Spring, SPRINGS, "springs", columns=True),
    Builtin("joint", Joint, JOINTS, "joints"),
    Builtin("area", AreaConstraint, AREAS, "areas"),
    Builtin("shape", ShapeMatch, SHAPES, "shapes"),
    Builtin("tether", Spring, TETHERS, "tethers"),
)
BY_NAME: dict[str, Builtin] = {b.name: b for b in BUILTINS}
#: The built-ins with a store table, in attach order.
TABLES: tuple[Builtin, ...] = tuple(b for b in BUILTINS if b.table is not None)
#: Built-in component types by name, and (the first name of each type) by type.
_BY_TYPE: dict[type, tuple[Builtin, ...]] = {}
for _b in BUILTINS:
    _BY_TYPE[_b.cls] = (*_BY_TYPE.get(_b.cls, ()), _b)
_BY_TABLE = {b.table: b for b in TABLES}
#: Built-in component types by name, and (the first name of each type) by type.
BUILTIN_NAMES: dict[str, type] = {b.name: b.cls for b in BUILTINS}
BUILTIN_TYPES: dict[type, str] = {cls: found[0].name for cls, found in _BY_TYPE.items()}


def builtin_of(comp: Any) -> Builtin | None:
    """The built-in ``comp`` is saved as (a spring on a body: ``tether``), or None."""
    found = _BY_TYPE.get(type(comp))
    if found is None or len(found) == 1:
        return found[0] if found else None
    table = getattr(comp, "_table", None)  # one class, several tables: the one of its row
    return found[0] if table is None else _BY_TABLE.get(table.spec, found[0])
