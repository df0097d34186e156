"""Deep copies of a world's own components (``World.clone``: every env reset clones a
level, every component of it) without ``copy.deepcopy``'s generic walk: ~1 µs a
component, where the walk took 3–30.

A *plain* component — a class of ours or a game's, no custom copying or pickling, no
slots, no builtin container base — is copied as ``copy.deepcopy`` copies it: a new
object of its class, its fields set without its ``__init__`` or ``__setattr__``;
numbers, strings, booleans and None shared (immutable), lists of those copied (one list
held twice is copied once), anything else deep-copied. Other components go through
``copy.deepcopy`` itself.
"""

from __future__ import annotations

import copy
import copyreg
from typing import Any

#: Field values a copy shares: immutable.
_ATOMS = frozenset((int, float, str, bool, type(None)))
#: Whether a class is plain (``_plain``), by class.
_PLAIN: dict[type, bool] = {}


def component_copy(comp: Any) -> Any:
    """A deep copy of ``comp``, the same as ``copy.deepcopy(comp)`` gives."""
    cls = type(comp)
    plain = _PLAIN.get(cls)
    if plain is None:
        plain = _PLAIN[cls] = _plain(cls)
    if not plain or getattr(comp, "__deepcopy__", None) is not None:
        return copy.deepcopy(comp)
    memo: dict[int, Any] = {}
    new = object.__new__(cls)
    memo[id(comp)] = new
    new.__dict__.update({k: v if type(v) in _ATOMS else _copied(v, memo)
                         for k, v in comp.__dict__.items()})
    return new


def _plain(cls: type) -> bool:
    """Whether ``copy.deepcopy`` copies ``cls``'s objects field by field through
    ``object.__reduce_ex__`` (nothing of the class's own decides how)."""
    return (cls not in copy._deepcopy_dispatch and cls not in copyreg.dispatch_table
            and cls.__reduce_ex__ is object.__reduce_ex__
            and cls.__reduce__ is object.__reduce__
            and cls.__getstate__ is object.__getstate__
            and not hasattr(cls, "__setstate__")
            and all(k is object or (k.__module__ != "builtins" and "__slots__" not in vars(k))
                    for k in cls.__mro__))


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of ``value``: a list of numbers, strings, booleans or None a list copy
    (remembered in ``memo``), anything else ``copy.deepcopy`` with ``memo``."""
    if type(value) is list and all(type(v) in _ATOMS for v in value):
        if id(value) not in memo:
            memo[id(value)] = list(value)
            memo.setdefault(id(memo), []).append(value)  # kept alive, as ``deepcopy`` does
        return memo[id(value)]
    return copy.deepcopy(value, memo)
