"""Worlds as TOML: ``save``/``load`` files, ``dumps``/``loads`` text, ``check_file``.

A saved world loads back bit for bit: stepping the loaded world gives the same
``state_hash()`` as stepping the original. The format (``docs/world-format.md``)
is hand-editable: levels may leave out defaults and state. Any bad input raises
``WorldFileError`` naming the file, the entity and the field (or the line and
column of a syntax error), and leaves no half-built world behind. Saving is
atomic: a failed save leaves the previous file as it was.
"""

from __future__ import annotations

import gc
import glob
import os
import stat
import tempfile
import time
from collections import Counter
from pathlib import Path

from .. import limits, systems
from ..contact_events import Touching
from ..errors import WorldFileError
from ..look import Look
from ..sensors import Sensor
from ..world import World
from .build import build
from .builtins import BUILTIN_NAMES, BUILTIN_TYPES
from .placed import Placed
from .read import parse, read
from .registry import COMPONENTS, component_codec, register_component, register_resource
from .write import COMPACT_ABOVE, FORMAT_VERSION, document, text

__all__ = ["save", "load", "dumps", "loads", "check_file", "register_component",
           "register_resource", "FORMAT_VERSION", "COMPACT_ABOVE", "WorldFileError"]

register_resource(systems.Score, "score")
register_component(Look, "look")
register_component(Sensor, "sensor", refs=("inside", "on"))
register_resource(Touching, "contacts")
register_resource(Placed, "editor_placed")


def dumps(world: World, compact: bool | None = None) -> str:
    """The world as TOML text; ``compact`` (default: for big worlds) writes column arrays.

    Raises WorldFileError if the world holds a component type nobody
    registered (``register_component``), or anything ``loads`` would refuse.
    """
    return _dumps(world, compact, "<string>")


def _dumps(world: World, compact: bool | None, source: str) -> str:
    """The text of a world the loader accepts, or WorldFileError naming entity and field.

    The writer's tables go through the loader's own checks (``read``), so a
    value that left its range in the simulation or through a direct store
    write, or a game's int past the file's range, is refused here, not by
    the next ``load``.
    """
    doc = document(world, compact, source)
    try:
        read(doc, source)
    except WorldFileError as exc:
        raise WorldFileError(f"cannot save: {exc} (the world file would not load)") from None
    return text(doc)


def loads(text: str | bytes, source: str = "<string>") -> World:
    """A World (pipeline, resources and all) from TOML text; ``source`` names it in errors."""
    # parsing and building create ~10 objects per entity; the cyclic garbage collector
    # would walk them all several times over (a third of the load time of a big world)
    enabled = gc.isenabled()
    gc.disable()
    try:
        return build(read(parse(text, source), source))
    finally:
        if enabled:
            gc.enable()


def load(path: str | os.PathLike[str]) -> World:
    """A World from a TOML file (see ``loads``); an unreadable file is a WorldFileError."""
    return loads(_read(path), os.fspath(path))


def _read(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a regular file of at most ``limits.MAX_FILE_BYTES``, else WorldFileError.

    A FIFO would block the open and a device may never end, so anything but a
    regular file is refused before it is opened, and the read stops at the cap.
    """
    try:
        regular = stat.S_ISREG(os.stat(path).st_mode)
        if regular:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(fd, "rb") as f:
                regular = stat.S_ISREG(os.fstat(f.fileno()).st_mode)  # not swapped since
                data = f.read(limits.MAX_FILE_BYTES + 1) if regular else b""
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise _os_error(path, "read", exc) from exc
    if not regular:
        raise WorldFileError(f"{_name(path)}: cannot read: not a regular file")
    if len(data) > limits.MAX_FILE_BYTES:
        raise WorldFileError(f"{_name(path)}: cannot read: larger than "
                             f"{limits.MAX_FILE_BYTES} bytes (limits.MAX_FILE_BYTES)")
    return data


def save(world: World, path: str | os.PathLike[str], compact: bool | None = None) -> None:
    """Write the world to ``path`` atomically: a temporary file in the same folder, renamed.

    On any failure (a world ``load`` would refuse, an unregistered component, a
    full disk, no permission) the previous file is left as it was and no
    temporary file remains. Saving through a symbolic link replaces the file it
    points to and keeps the link. Only a regular file or a new path is written: a
    FIFO, a device or a directory there is refused (like ``load``), left as it was.
    """
    text = _dumps(world, compact, source=_name(path))
    try:
        target = Path(os.path.realpath(path))  # through a symlink: replace its target
    except ValueError as exc:  # a NUL in the path
        raise _os_error(path, "write", exc) from exc
    _regular_or_new(path, target)
    _sweep(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent)
    except OSError as exc:
        raise _os_error(path, "write", exc) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, _mode(target))
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _os_error(path, "write", exc) from exc
        raise


def _regular_or_new(path: str | os.PathLike[str], target: Path) -> None:
    """WorldFileError unless ``target`` is a regular file or does not exist yet."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _os_error(path, "write", exc) from exc
    if not stat.S_ISREG(mode):
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise WorldFileError(f"{_name(path)}: cannot write: {what} (a world is saved to a "
                             "regular file or a new path)")


#: A temporary file of a save this much older than now (s) was left by a killed save.
STALE_TEMP_S = 600.0


def _sweep(target: Path) -> None:
    """Remove the temporary files killed saves of ``target`` left behind.

    Only old ones: a younger one may belong to a save still writing (another process).
    """
    now = time.time()
    for leftover in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        try:
            if now - leftover.lstat().st_mtime > STALE_TEMP_S:
                leftover.unlink()
        except OSError:
            pass  # gone already, or not ours to remove: the save goes on


def _os_error(path: str | os.PathLike[str], doing: str, exc: Exception) -> WorldFileError:
    """``FILE: cannot read: No such file or directory`` (``doing``: read or write)."""
    return WorldFileError(f"{_name(path)}: cannot {doing}: {getattr(exc, 'strerror', None) or exc}")


def _name(path: str | os.PathLike[str]) -> str:
    """The path as messages show it (a NUL or other control character escaped)."""
    name = os.fspath(path)
    return name if name.isprintable() else repr(name)


def _mode(target: Path) -> int:
    """Keep an existing file's permissions; a new one gets the usual rw-r--r--."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return 0o644


def check_file(path: str | os.PathLike[str]) -> str:
    """Load ``path`` fully and summarise it; raises WorldFileError if it is not a good world.

    The summary names the file, the entity count, the entities per component
    type, the pipeline and the frame, e.g. ``level.toml: 31 entities (particle 25,
    spring 72, area 1); pipeline integrate → project → collide → break; frame 0``.
    """
    world = load(path)
    try:
        return _summary(os.fspath(path), world)
    finally:
        world.close()


def _summary(name: str, world: World) -> str:
    counts: Counter[str] = Counter()
    for entity in world.entities():
        for comp in world.components_for_entity(entity):
            codec = component_codec(type(comp))
            kind = codec.name if codec else BUILTIN_TYPES.get(type(comp), type(comp).__name__)
            counts[kind] += 1
    order = {n: k for k, n in enumerate([*BUILTIN_NAMES, *COMPONENTS])}
    parts = ", ".join(f"{n} {counts[n]}" for n in sorted(counts, key=lambda n: order.get(n, 99)))
    stages = " → ".join(s.name for s in world.pipeline) or "none"
    return (f"{name}: {len(world.entities())} entities ({parts or 'no components'}); "
            f"pipeline {stages}; frame {world.frame}")
