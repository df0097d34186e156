"""Which component and resource types a world file holds, by name, and how dataclasses convert.

Built-in components have fixed names (``builtins.BUILTINS``: ``particle``,
``body``, ``anchor``, ``fruit``, ``spring``, ``joint``, ``area``, ``shape``,
``tether``), read and written through their column specs. A game's
dataclass components and resources are registered with ``register_component``
and ``register_resource``; their fields may be ints, floats, bools, strings,
entity ids, and lists (or tuples) of those.
"""

from __future__ import annotations

import dataclasses
import math
import re
import types
import typing
from dataclasses import dataclass
from typing import Any

import numpy as np

from .builtins import BUILTIN_NAMES
from .schema import REFUSED, REQUIRED, Where, show, toml_type

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class FieldRule:
    """One dataclass field: its name, its type as a small tree, its default."""

    name: str
    kind: tuple[Any, ...]
    default: Any
    init: bool


@dataclass(frozen=True)
class Codec:
    """How one registered dataclass type is written and read."""

    cls: type
    name: str
    saved: bool
    fields: tuple[FieldRule, ...]
    refs: frozenset[str]

    def encode(self, obj: Any, where: Where) -> dict[str, Any]:
        """The TOML table of ``obj`` (None fields left out; they must default to None)."""
        out = {}
        for rule in self.fields:
            value = getattr(obj, rule.name)
            if value is None:
                if rule.default is not None:
                    where.fail("is None, which a world file cannot hold (only fields that "
                               "default to None may be None)", rule.name)
                continue
            out[rule.name] = _encode(value, rule.kind, where, rule.name)
        return out

    def decode(self, table: dict[str, Any], where: Where) -> Any:
        """A new instance from its TOML table, every field checked."""
        where.table(table)
        where.keys(table, [r.name for r in self.fields])
        init, late = {}, {}  # late: fields the constructor does not take (init=False)
        for rule in self.fields:
            if rule.name in table:
                value = _decode(table[rule.name], rule.kind, where, rule.name)
                (init if rule.init else late)[rule.name] = value
            elif rule.default is REQUIRED:
                where.fail(f"missing ({_describe(rule.kind)})", rule.name)
        try:
            obj = self.cls(**init)
        except REFUSED as exc:
            where.fail(f"{type(exc).__name__}: {exc}")
        for key, value in late.items():
            object.__setattr__(obj, key, value)  # frozen dataclasses too
        return obj

    def references(self, obj: Any) -> list[tuple[str, int]]:
        """``(field, entity)`` for every entity id held in a field listed in ``refs``."""
        out = []
        for name in sorted(self.refs):
            value = getattr(obj, name)
            items = value if isinstance(value, list | tuple) else [value]
            out += [(name, int(v)) for v in items if v is not None]
        return out


COMPONENTS: dict[str, Codec] = {}
RESOURCES: dict[str, Codec] = {}
_BY_TYPE: dict[type, Codec] = {}
_RESOURCE_BY_TYPE: dict[type, Codec] = {}


def register_component(cls: type | None = None, name: str | None = None, saved: bool = True,
                       refs: tuple[str, ...] = ()) -> Any:
    """Make a game's own component type known to world files under ``name``.

    ``cls`` is a dataclass (unless ``saved=False``: a transient component, left
    out of saved files). ``name`` defaults to the class name in snake_case.
    ``refs`` names the fields holding entity ids (or lists of them): loading
    checks that those entities exist. Returns ``cls``. Works as a call,
    ``register_component(Ball, name="ball")``, and as a decorator, bare
    (``@register_component``) or with arguments (``@register_component(name="ball")``).
    """
    if cls is None:
        return lambda cls: register_component(cls, name, saved, refs)
    codec = _codec(cls, name, saved, refs, "component")
    if codec.name in BUILTIN_NAMES or cls in BUILTIN_NAMES.values():
        raise ValueError(f"register_component: {codec.name!r} is a built-in component")
    _store(codec, COMPONENTS, _BY_TYPE, "component")
    return cls


def register_resource(cls: type | None = None, name: str | None = None) -> Any:
    """Make a dataclass resource (a score, a game's progress) part of saved worlds.

    Only registered resources are saved: the others (``StructureReport``, …)
    are recomputed by the stages. Returns ``cls``; a decorator too, like
    ``register_component``.
    """
    if cls is None:
        return lambda cls: register_resource(cls, name)
    _store(_codec(cls, name, True, (), "resource"), RESOURCES, _RESOURCE_BY_TYPE, "resource")
    return cls


def component_codec(cls: type) -> Codec | None:
    """The codec registered for a component type, if any."""
    return _BY_TYPE.get(cls)


def resource_codec(cls: type) -> Codec | None:
    """The codec registered for a resource type, if any."""
    return _RESOURCE_BY_TYPE.get(cls)


def missing(world: Any, kinds: tuple[type, ...]) -> str | None:
    """What of ``kinds`` (resource or component types) ``world`` lacks, as a message says
    it (``the resource suika_state``, ``an entity with a goal component``), or None."""
    for kind in kinds:
        codec = resource_codec(kind) or component_codec(kind)
        name = codec.name if codec is not None else kind.__name__
        if resource_codec(kind) is not None:
            if world.resource(kind) is None:
                return f"the resource {name}"
        elif not world.get_component(kind):
            return f"an entity with a {name} component"
    return None


def _store(codec: Codec, by_name: dict[str, Codec], by_type: dict[type, Codec],
           what: str) -> None:
    other = by_name.get(codec.name)
    if other is not None and other.cls is not codec.cls:
        raise ValueError(f"register_{what}: name {codec.name!r} is already registered for "
                         f"{other.cls.__module__}.{other.cls.__qualname__}")
    old = by_type.pop(codec.cls, None)
    if old is not None:
        by_name.pop(old.name, None)
    by_name[codec.name] = by_type[codec.cls] = codec


def _codec(cls: type, name: str | None, saved: bool, refs: tuple[str, ...],
           what: str) -> Codec:
    if not isinstance(cls, type):
        raise TypeError(f"register_{what}: expected a class, got {cls!r}")
    name = _snake(cls.__name__) if name is None else name
    if not _BARE_KEY.match(name) or name == "id":
        raise ValueError(f"register_{what}: name {name!r} must be letters, digits, _ or - "
                         "(and not 'id')")
    if not saved:
        return Codec(cls, name, False, (), frozenset())
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"register_{what}: {cls.__qualname__} must be a dataclass to be "
                        "saved (or register it with saved=False)")
    rules = _rules(cls)
    unknown = set(refs) - {r.name for r in rules}
    if unknown:
        raise ValueError(f"register_{what}: refs {sorted(unknown)} are not fields of "
                         f"{cls.__qualname__}")
    return Codec(cls, name, True, rules, frozenset(refs))


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def _rules(cls: type) -> tuple[FieldRule, ...]:
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # unresolvable annotations: accept any plain value
        hints = {}
    out = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = REQUIRED
        out.append(FieldRule(f.name, _kind(hints.get(f.name, Any)), default, f.init))
    return tuple(out)


def _kind(hint: Any) -> tuple[Any, ...]:
    """``("int",)``, ``("list", inner)``, ``("optional", inner)``, … or ``("any",)``."""
    if hint in (int, float, bool, str):
        return (hint.__name__,)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return ("optional", _kind(rest[0]) if len(rest) == 1 else ("any",))
    if hint in (list, tuple) or origin in (list, tuple):
        inner = args[0] if args and (origin is list or args[1:] in ((), (Ellipsis,))) else Any
        return ("list" if (origin or hint) is list else "tuple", _kind(inner))
    return ("any",)


def _describe(kind: tuple[Any, ...]) -> str:
    head = kind[0]
    if head in ("list", "tuple"):
        return f"an array of {_describe(kind[1])}"
    if head == "optional":
        return _describe(kind[1])
    return {"int": "an integer", "float": "a number", "bool": "true or false",
            "str": "a string"}.get(head, "a value")


def _encode(value: Any, kind: tuple[Any, ...], where: Where, field: str) -> Any:
    """A TOML-ready value (numpy scalars unwrapped, tuples as lists, ints as floats)."""
    head = kind[0]
    if isinstance(value, np.generic | np.ndarray):
        value = value.tolist()
    if head == "optional":
        return _encode(value, kind[1], where, field)
    if head in ("list", "tuple"):
        if not isinstance(value, list | tuple):
            where.fail(f"must be a list, got {show(value)}", field)
        return [_encode(v, kind[1], where, field) for v in value]
    if head == "float" and type(value) is int:
        value = float(value)
    want = {"int": int, "float": float, "bool": bool, "str": str}.get(head)
    if want is not None and type(value) is not want:
        where.fail(f"must be {_describe(kind)} to be saved, got {show(value)}", field)
    return _plain(value, where, field)


def _plain(value: Any, where: Where, field: str, inf: bool = False) -> Any:
    """Check that an untyped value is something TOML holds and loads back the same.

    ``inf``: +inf may be written (a stage setting whose range allows it).
    """
    if isinstance(value, np.generic | np.ndarray):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return [_plain(v, where, field) for v in value]
    if type(value) is float and not (math.isfinite(value) or (inf and value == math.inf)):
        where.fail(f"is {value}, which a world file cannot hold", field)
    if type(value) is str and not _utf8(value):
        where.fail(f"holds a lone surrogate, which UTF-8 text cannot hold: {show(value)}", field)
    if type(value) in (bool, int, float, str):
        return value
    where.fail(f"cannot be saved: {toml_type(value)} {show(value)} (a world file holds "
               "ints, floats, bools, strings and lists of those)", field)


def _utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _decode(value: Any, kind: tuple[Any, ...], where: Where, field: str) -> Any:
    head = kind[0]
    if head == "optional":
        return _decode(value, kind[1], where, field)
    if head in ("list", "tuple"):
        items = [_decode(v, kind[1], where, field) for v in where.of_type(value, list, field)]
        return items if head == "list" else tuple(items)
    if head == "int":
        return where.as_integer(value, field)
    if head == "float":
        return where.as_number(value, field)
    if head in ("bool", "str"):
        return where.of_type(value, bool if head == "bool" else str, field)
    return _loose(value, where, field)


def _loose(value: Any, where: Where, field: str) -> Any:
    """An untyped field read back: a finite scalar, a string, or an array of those."""
    if type(value) is list:
        return [_loose(v, where, field) for v in value]
    if type(value) is float and not math.isfinite(value):
        where.fail(f"must be finite, got {value}", field)
    if type(value) is int:  # TOML's ints are int64; keep the room ids and counters have
        return where.as_integer(value, field)
    if type(value) not in (bool, int, float, str):
        where.fail(f"must be a number, boolean, string or array, got {toml_type(value)}",
                   field)
    return value
