"""A numba cache folder that can be written, so that no kernel refuses to be defined.

numba keeps compiled kernels beside their source (``ecsgoo/kernels/__pycache__``)
or in the user's cache folder; when neither can be written (a read-only install,
a locked-down home) ``@njit(cache=True)`` raises ``RuntimeError: cannot cache
function …: no locator available`` as the module is imported. Then the kernels
cache into a temporary folder of this run instead (compiled again next run),
with a one-line warning. ``NUMBA_CACHE_DIR`` set by the user is left alone.
A cache entry numba cannot read (truncated, garbage) or whose bytes changed
since they were written (a flipped bit in its machine code) is dropped and compiled
again, with one line on stderr (``tolerate_corrupt_entries``). Each data file holds
its own checksum, over the kernel it belongs to (the index's name: module, function
and line; the signature and numba's key) and its bytes, written in one rename: two
processes saving at once leave one whole entry, never one's checksum with the other's
data. An entry of another kernel or signature (files swapped, or the name two
concurrent first saves both took) is not used and compiles again, quietly.
numba knows an entry is stale only when its own source file changed, though a
kernel carries the code of the kernels it calls from other files: after an edit
or an upgrade, a cached caller ran its callees' old code (a segfault, seen).
So an ecsgoo kernel's entry is tied to every ecsgoo file that defines kernels or makes
their entries (``link_only``'s wrappers, this module: ``ENTRY_MAKERS``)
(``tie_stamps_to_the_package``): any of them changes, all compile again.

numba numbers the functions a process compiles from 1 and writes the number into their
symbol names (``run_quicksort1[abi:v312]``), and a kernel's entry carries its own copy of
every function it calls under that name. Two processes compiling at once (the two
halves of the first run's warm-up, a game's rehearsal beside its helper) number
alike, so two entries could hold different functions of one name — numba's quicksort
made for ``np.sort`` in one, for ``np.argsort`` in the other (same factory, same
argument types) — and a process loading both ran one in place of the other: wrong
sorts, then a segfault in the islands' kernels (seen in CI). ``distinct_names`` starts
each process's numbering at a random offset, so no two processes' names meet.

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
import itertools
import os
import pickle
import secrets
import struct
import sys
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

import numba
from numba.core import bytecode, caching, dispatcher, types
from numba.core.runtime import rtsys
from numba.misc.appdirs import AppDirs

#: How many names a process may number before its range could meet another's (numba
#: numbers ~500 for every ecsgoo kernel); the ranges start at a random multiple of it.
NAMES_PER_PROCESS = 1 << 24


def distinct_names() -> None:
    """Number this process's compiled functions from a random offset (a multiple of
    ``NAMES_PER_PROCESS`` below 2**64), not from 1 as every process does (the module
    docstring); once a process."""
    ids = bytecode.FunctionIdentity
    if getattr(ids, "_ecsgoo_distinct", False):
        return
    ids._unique_ids = itertools.count(secrets.randbits(40) * NAMES_PER_PROCESS + 1)
    ids._ecsgoo_distinct = True


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


def check_each_folder_once() -> None:
    """numba's check that a kernel's cache folder exists and takes a file, made once per
    folder and process: numba made the folder and a temporary file in it for every kernel
    as it was defined (~300 as ecsgoo is imported: ~30 ms of a warm start). A folder that
    failed is checked again at its next kernel, as numba would."""
    locator = caching._CacheLocator
    if getattr(locator.ensure_cache_path, "_ecsgoo", False):
        return
    own = locator.ensure_cache_path
    checked: set[str] = set()

    def ensure_cache_path(self: Any) -> None:
        path = self.get_cache_path()
        if path not in checked:
            own(self)
            checked.add(path)

    ensure_cache_path._ecsgoo = True  # type: ignore[attr-defined]
    locator.ensure_cache_path = ensure_cache_path


#: How a data file ecsgoo framed begins (then its kernel's identity, a checksum, the data).
MAGIC = b"ecsgoo-nbc-2\n"


def tolerate_corrupt_entries() -> None:
    """Make numba drop a cache entry it cannot read and compile again, instead of failing.

    numba reads its index and data files with ``pickle`` and lets any error but
    a missing file escape, so a truncated or garbled entry broke every later run
    until ``__pycache__`` was deleted. Here such an entry's index is removed (one
    line on stderr) and the kernel compiles as on a cold cache. Every data file is
    saved framed (``frame``): its kernel's identity and a SHA-256 over that and its
    bytes; one whose checksum fails is corrupt too (a flipped bit that still unpickles
    would run wrong code); one of another kernel or signature is passed over. A data
    file without the frame (written by numba alone) is trusted as numba trusts it.
    """
    if getattr(caching.Cache.load_overload, "_ecsgoo", False):
        return
    load_index = caching.IndexDataCacheFile._load_index

    def tolerant_load(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return _load_without_refresh(self, sig, target_context)
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
    caching.IndexDataCacheFile.save = _framed_save
    caching.IndexDataCacheFile.load = _framed_load


def _load_without_refresh(cache: Any, sig: Any, target_context: Any) -> Any:
    """numba's ``Cache.load_overload`` without its ``target_context.refresh()``.

    That refresh imports numba's lowering and typing registries (``numba.np.linalg``,
    the random generators, typed containers, jitclass: 0.15 s of a warm start's ~1 s
    here), which only compiling uses: a cached kernel is machine code, linked against
    numba's runtime (``rtsys``, started here as the refresh would) and the C helpers
    numba registers as it is imported. A kernel that does compile refreshes first
    (numba's ``compile_extra``), so nothing is ever typed or lowered without them.
    """
    rtsys.initialize(target_context)
    with cache._guard_against_spurious_io_errors():
        return cache._load_overload(sig, target_context)
    return None  # the guard swallowed an I/O error, as in numba's own


def identity(files: Any, key: Any) -> bytes:
    """Which kernel and signature an entry belongs to: the index's name (module,
    function, line, Python) and numba's key (signature, target, bytecode hash)."""
    return f"{files._index_name}\0{key!r}".encode()


def frame(ident: bytes, payload: bytes) -> bytes:
    """A data file's bytes: MAGIC, the identity's length and bytes, SHA-256 of both, data."""
    digest = hashlib.sha256(ident + b"\0" + payload).digest()
    return MAGIC + struct.pack("<I", len(ident)) + ident + digest + payload


def unframe(data: bytes, path: str) -> tuple[bytes, bytes]:
    """``(identity, payload)`` of a framed data file; ValueError if its checksum fails."""
    at = len(MAGIC)
    size = struct.unpack_from("<I", data, at)[0] if len(data) >= at + 4 else -1
    ident = data[at + 4: at + 4 + size]
    digest = data[at + 4 + size: at + 36 + size]
    payload = data[at + 36 + size:]
    if size < 0 or hashlib.sha256(ident + b"\0" + payload).digest() != digest:
        raise ValueError(f"{path}: its bytes changed since they were written")
    return ident, payload


def _framed_save(self: Any, key: Any, data: Any) -> None:
    """numba's ``IndexDataCacheFile.save``, the data file written framed in one rename."""
    overloads = self._load_index()
    name = overloads.get(key)
    if name is None:
        taken = set(overloads.values())
        name = next(n for n in map(self._data_name, itertools.count(1)) if n not in taken)
        overloads[key] = name
        self._save_index(overloads)
    with self._open_for_write(self._data_path(name)) as f:
        f.write(frame(identity(self, key), self._dump(data)))


def _framed_load(self: Any, key: Any) -> Any:
    """numba's ``IndexDataCacheFile.load``, checking the frame (None: compile again)."""
    name = self._load_index().get(key)
    if name is None:
        return None
    path = self._data_path(name)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:  # removed while the index still names it
        return None
    if not data.startswith(MAGIC):
        return pickle.loads(data)  # numba's own entry: trusted as numba trusts it
    ident, payload = unframe(data, path)
    if ident != identity(self, key):
        return None  # another kernel's or signature's: a concurrent save, or files swapped
    return pickle.loads(payload)


#: How the file that says every physics kernel had an entry begins (``warmup.cache_is_cold``).
WARM_MARKER = "ecsgoo-warm-"
#: How the file of what a cold start compiled for linking only begins
#: (``warmup.linked_record``).
LINKED_RECORD = "ecsgoo-linked-"


def _drop(index: str, exc: Exception) -> None:
    """Remove a corrupt entry's index, so the next save writes a good one, and the marker
    that said every kernel had one (the next start looks again, and warms up)."""
    folder = os.path.dirname(index)
    try:
        gone = [os.path.join(folder, f) for f in os.listdir(folder)
                if f.startswith(WARM_MARKER)]
    except OSError:
        gone = []
    for path in [index, *gone]:
        try:
            os.unlink(path)
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


#: Files that make what goes into kernels' cache entries without defining kernels: the
#: wrappers of a kernel compiled for linking (``link_only``: a fix there must not leave the
#: entries its old code wrote in use) and this module.
ENTRY_MAKERS = ("link_only.py", "numba_cache.py")


@functools.cache
def package_digest(root: str) -> str:
    """SHA-256 of the names and bytes of the ``.py`` files under ``root`` that define
    numba kernels or make their entries (``ENTRY_MAKERS``; read once a process: the files
    a process runs do not change)."""
    digest = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                data = f.read()
            if b"njit" in data or name in ENTRY_MAKERS:
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
