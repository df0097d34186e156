"""A numba cache folder that can be written, so that no kernel refuses to be defined.

numba keeps compiled kernels beside their source (``ecsgoo/kernels/__pycache__``)
or in the user's cache folder; when neither can be written (a read-only install,
a locked-down home) ``@njit(cache=True)`` raises ``RuntimeError: cannot cache
function …: no locator available`` as the module is imported. Then the kernels
cache into a temporary folder of this run instead (compiled again next run),
with a one-line warning. ``NUMBA_CACHE_DIR`` set by the user is left alone.
A cache entry numba cannot read (truncated, garbage) or whose bytes changed
since they were written (a flipped bit in its machine code: a SHA-256 beside
each data file says) is dropped and compiled again (``tolerate_corrupt_entries``).
numba knows an entry is stale only when its own source file changed, though a
kernel carries the code of the kernels it calls from other files: after an edit
or an upgrade, a cached caller ran its callees' old code (a segfault, seen).
So an ecsgoo kernel's entry is tied to every ecsgoo file that defines kernels
(``tie_stamps_to_the_package``): any of them changes, all compile again.

numba types a constant argument of a call from one compiled function to another as a
literal (``Literal[int](1)``, ``Literal[bool](True)``) and compiles the callee once per
literal value: ``collide_convex(..., circle, 1, ...)`` and ``(..., capsule, 2, ...)`` each
compiled ``collide_convex`` and all it calls again (the manifold's ``_clip`` eight times).
``calls_without_literals`` makes such calls to ecsgoo's kernels take the plain type
(``int64``, ``bool``), so each kernel compiles once: the first run's compile went from
165 compiles to 122 and about a third less time (BENCHMARKS.md, "The test suite"). A
constant given from Python was never a literal: nothing changes for those calls.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

import numba
from numba.core import caching, dispatcher, types
from numba.misc.appdirs import AppDirs


def writable(path: str) -> bool:
    """Whether ``path`` exists or can be made, and takes a file (numba's own test)."""
    try:
        os.makedirs(path, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def candidates(package: str) -> list[str]:
    """Where numba would cache ``package``'s kernels: beside them, then the user cache."""
    return [os.path.join(package, "__pycache__"),
            AppDirs(appname="numba", appauthor=False).user_cache_dir]


def ensure_writable_cache(package: str, can_write: Callable[[str], bool] = writable,
                          places: Iterable[str] | None = None) -> str | None:
    """Point numba at a temporary cache folder if it has nowhere to cache ``package``.

    Returns that folder, or None when numba has somewhere already (or the user
    chose ``NUMBA_CACHE_DIR``).
    """
    if numba.config.CACHE_DIR:
        return None
    if any(can_write(p) for p in (candidates(package) if places is None else places)):
        return None
    folder = tempfile.mkdtemp(prefix="ecsgoo-numba-")
    numba.config.CACHE_DIR = folder
    print(f"ecsgoo: no writable numba cache (the package folder and the user cache "
          f"folder are read-only); kernels compile into {folder} for this run",
          file=sys.stderr)
    return folder


def tolerate_corrupt_entries() -> None:
    """Make numba drop a cache entry it cannot read and compile again, instead of failing.

    numba reads its index and data files with ``pickle`` and lets any error but
    a missing file escape, so a truncated or garbled entry broke every later run
    until ``__pycache__`` was deleted. Here such an entry's index is removed (one
    line on stderr) and the kernel compiles as on a cold cache. Every data file
    gets a ``.sha256`` beside it when saved; one that no longer matches it is
    corrupt too (a flipped bit that still unpickles would run wrong code). A data
    file without one (written by numba alone) is trusted as numba trusts it.
    """
    if getattr(caching.Cache.load_overload, "_ecsgoo", False):
        return
    load_overload, load_index = caching.Cache.load_overload, caching.IndexDataCacheFile._load_index
    files = caching.IndexDataCacheFile
    save_data, load_data = files._save_data, files._load_data

    def summed_save(self: Any, name: str, data: Any) -> None:
        save_data(self, name, data)
        path = self._data_path(name)
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        with self._open_for_write(path + ".sha256") as f:
            f.write(digest.encode())

    def checked_load(self: Any, name: str) -> Any:
        path = self._data_path(name)
        try:
            with open(path + ".sha256", "rb") as f:
                want = f.read().decode()
        except FileNotFoundError:
            return load_data(self, name)
        with open(path, "rb") as f:
            got = hashlib.sha256(f.read()).hexdigest()
        if got != want:
            raise ValueError(f"{path}: its bytes changed since numba wrote them")
        return load_data(self, name)

    def tolerant_load(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return load_overload(self, sig, target_context)
        except Exception as exc:  # whatever a garbled pickle raises
            _drop(self._cache_file._index_path, exc)
            return None

    def tolerant_index(self: Any) -> dict[Any, Any]:
        try:
            return load_index(self)
        except Exception as exc:
            _drop(self._index_path, exc)
            return {}

    tolerant_load._ecsgoo = True  # type: ignore[attr-defined]
    caching.Cache.load_overload = tolerant_load
    caching.IndexDataCacheFile._load_index = tolerant_index
    caching.IndexDataCacheFile._save_data = summed_save
    caching.IndexDataCacheFile._load_data = checked_load


def _drop(index: str, exc: Exception) -> None:
    """Remove a corrupt entry's index, so the next save writes a good one."""
    try:
        os.unlink(index)
    except OSError:
        pass
    print(f"ecsgoo: dropped a corrupt numba cache entry {index} ({type(exc).__name__}); "
          "compiling again", file=sys.stderr)


def tie_stamps_to_the_package(package: str) -> None:
    """Make a cache entry of a kernel defined under ``package`` (a folder) stale whenever
    any of the package's files that define kernels changes, not only its own file."""
    mixin = caching._SourceFileBackedLocatorMixin
    if getattr(mixin.get_source_stamp, "_ecsgoo", False):
        return
    own = mixin.get_source_stamp
    root = os.path.realpath(package)

    def package_stamp(self: Any) -> Any:
        stamp = own(self)
        if os.path.realpath(self._py_file).startswith(root + os.sep):
            return stamp, package_digest(root)
        return stamp

    package_stamp._ecsgoo = True  # type: ignore[attr-defined]
    mixin.get_source_stamp = package_stamp


@functools.cache
def package_digest(root: str) -> str:
    """SHA-256 of the names and bytes of the ``.py`` files under ``root`` that define
    numba kernels (read once a process: the files a process runs do not change)."""
    digest = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                data = f.read()
            if b"njit" in data:
                digest.update(os.path.relpath(path, root).encode() + b"\0" + data)
    return digest.hexdigest()


#: Folders whose kernels ``calls_without_literals`` covers (each ends in a separator).
_PLAIN_CALL_ROOTS: set[str] = set()


def calls_without_literals(package: str) -> None:
    """Calls between compiled functions to a kernel defined under ``package`` (a folder)
    type their constant arguments by their plain type, not as literals."""
    _PLAIN_CALL_ROOTS.add(os.path.join(os.path.realpath(package), ""))
    cls = dispatcher.Dispatcher
    if getattr(cls.get_call_template, "_ecsgoo", False):
        return
    own = cls.get_call_template

    def plain_call_template(self: Any, args: Any, kws: Any) -> Any:
        source = getattr(self.py_func, "__code__", None)
        if source is not None and os.path.realpath(source.co_filename).startswith(
                tuple(_PLAIN_CALL_ROOTS)):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return own(self, args, kws)

    plain_call_template._ecsgoo = True  # type: ignore[attr-defined]
    cls.get_call_template = plain_call_template
