"""A cached kernel loads what running it needs, and leaves what only a compile needs.

numba's cache entry of a kernel holds its machine code (an ELF object on Linux), its
LLVM bitcode, kept so that a kernel compiled later can link and inline it, and the
environments of the functions it carries, each naming the module it came from. On every
load numba parsed that bitcode and walked the parsed module for the names it defines,
and imported each environment's module. Only a compile links the bitcode; only object
mode (which no kernel here uses) reads an environment's module globals: nopython code
reads its constants alone (``numba.core.pythonapi.EnvironmentManager``). Goo's warm start
loads 22 kernels: the bitcode was 40 % of it (0.07 s parsing, 0.04 s walking, of 0.22 s),
and its environments imported numba's own ``numba.np.arrayobj`` and some twenty more
(0.05-0.1 s).

``load_lazily()`` makes a load read the names from the object's symbol table (a few
hundred entries, read with ``struct``) and keep the bitcode as bytes, parsed the first
time a compile asks to link the kernel (numba's ``_get_module_for_linking``); and gives
an environment of a numba module not imported yet a globals dict holding its name only
(what pickling it again reads). Where the object is not ELF (macOS, Windows) the bitcode
is parsed as numba does.

Two more of numba's costs at every start, of no use after the first (``load_lazily``
sets them up too): its runtime library (``NRT_incref``, ``NRT_decref``…, which every
kernel's machine code calls) was compiled from LLVM IR in each process (~35 ms): it is
kept as object code beside the kernels' entries (``keep_the_runtime``); and a function's
signature was read twice as numba made each of the ~330 dispatchers (~30 ms:
``signatures_once``).
"""

from __future__ import annotations

import hashlib
import inspect
import os
import pickle
import struct
import sys
import weakref
from typing import Any

import llvmlite
import llvmlite.binding as ll
import numba
from numba.core import codegen, environment, utils
from numba.core.runtime import nrtdynmod

from . import numba_cache

#: ELF: the magic, 64-bit little-endian objects (what numba makes on x86-64 and arm64 Linux).
_ELF64_LE = b"\x7fELF\x02\x01"
_SHT_SYMTAB = 2
_SHN_UNDEF = 0


def defined_symbols(obj: bytes) -> set[str] | None:
    """The names an ELF64 little-endian object defines (functions and data, any binding),
    or None if ``obj`` is not one (then the caller parses the bitcode, as numba does)."""
    if not obj.startswith(_ELF64_LE) or len(obj) < 64:
        return None
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    names: set[str] = set()
    for k in range(shnum):
        at = shoff + k * shentsize
        sh_type, = struct.unpack_from("<I", obj, at + 4)
        if sh_type != _SHT_SYMTAB:
            continue
        offset, size, link, _, _, entsize = struct.unpack_from("<QQIIQQ", obj, at + 24)
        str_at = shoff + link * shentsize
        strings, = struct.unpack_from("<Q", obj, str_at + 24)
        for sym in range(offset, offset + size, entsize):
            name_at, _, _, shndx = struct.unpack_from("<IBBH", obj, sym)
            if shndx != _SHN_UNDEF and name_at:
                end = obj.index(b"\0", strings + name_at)
                names.add(obj[strings + name_at:end].decode())
    return names


def load_lazily() -> None:
    """Patch numba's loading as the module docstring says (once a process)."""
    cls = codegen.CPUCodeLibrary
    if getattr(cls._unserialize, "_ecsgoo", False):
        return
    own_load = cls._unserialize.__func__
    own_link = cls._get_module_for_linking

    def unserialize(klass: Any, code: Any, state: Any) -> Any:
        name, kind, data = state
        names = defined_symbols(data[0]) if kind == "object" else None
        if names is None:
            return own_load(klass, code, state)
        self = code.create_library(name)
        self.enable_object_caching()
        self._set_compiled_object(data[0])
        self._ecsgoo_bitcode = data[1]  # parsed when a compile links this library
        self._finalize_final_module()  # hands the machine code to the JIT
        code._engine._defined_symbols |= names
        return self

    def module_for_linking(self: Any) -> Any:
        bitcode = self.__dict__.pop("_ecsgoo_bitcode", None)
        if bitcode is not None:
            self._shared_module = ll.parse_bitcode(bitcode)
        return own_link(self)

    unserialize._ecsgoo = True  # type: ignore[attr-defined]
    cls._unserialize = classmethod(unserialize)
    cls._get_module_for_linking = module_for_linking
    global _numbas_rebuild_env
    _numbas_rebuild_env = environment._rebuild_env
    environment._rebuild_env = _rebuild_env
    keep_the_runtime()
    signatures_once()


def keep_the_runtime() -> None:
    """numba's runtime library loaded from object code kept in the kernels' cache folder
    (``runtime_file``), compiled as numba does and kept the first time, or whenever the
    file is missing, unreadable, changed since it was written (its checksum) or made by
    another numba, llvmlite or CPU (its identity)."""
    if getattr(nrtdynmod.compile_nrt_functions, "_ecsgoo", False):
        return
    nrtdynmod.compile_nrt_functions = _runtime
    _runtime._ecsgoo = True  # type: ignore[attr-defined]


def _runtime(ctx: Any) -> Any:
    """``nrtdynmod.compile_nrt_functions(ctx)`` through the kept file (``keep_the_runtime``)."""
    ident = runtime_identity(ctx)
    path = runtime_file(ident)
    try:
        with open(path, "rb") as f:
            kept, payload = numba_cache.unframe(f.read(), path)
        if kept == ident:
            return ctx.codegen().unserialize_library(pickle.loads(payload))
    except Exception:  # noqa: BLE001 - anything wrong with the file: compiled as numba does
        pass
    ir_mod, library = nrtdynmod.create_nrt_module(ctx)
    library.enable_object_caching()  # (numba's own compile does not keep the object)
    library.add_ir_module(ir_mod)
    library.finalize()
    data = numba_cache.frame(ident, pickle.dumps(library.serialize_using_object_code()))
    part = f"{path}.{os.getpid()}.part"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(part, "wb") as f:
            f.write(data)
        os.replace(part, path)  # whole or not at all, whoever reads it meanwhile
    except OSError:  # a read-only folder, a full disk: compiled again next time, as numba does
        try:
            os.unlink(part)  # (a part written, if any)
        except OSError:
            pass
    return library


def runtime_identity(ctx: Any) -> bytes:
    """What the kept runtime is valid for: numba's and llvmlite's versions and the
    machine code's target (numba's ``magic_tuple``: triple, CPU name, CPU features)."""
    return repr((numba.__version__, llvmlite.__version__,
                 ctx.codegen().magic_tuple())).encode()


def runtime_file(ident: bytes) -> str:
    """Where the runtime is kept: where numba caches the kernels (``NUMBA_CACHE_DIR``, else
    the first writable of ``numba_cache.candidates``), named for its identity."""
    places = numba_cache.candidates(os.path.join(os.path.dirname(__file__), "kernels"))
    folder = numba.config.CACHE_DIR or next(
        (p for p in places if numba_cache.writable(p)), places[0])
    name = hashlib.sha256(ident).hexdigest()[:16]
    return os.path.join(folder, f"numba-runtime-{numba.__version__}-{name}.nbo")


def signatures_once() -> None:
    """numba reads a function's signature (``inspect.signature``) twice as it makes a
    dispatcher of it, and again when it compiles: read once a function, kept as long as
    the function lives (a signature cannot change)."""
    if getattr(utils.pysignature, "_ecsgoo", False):
        return
    read = utils.pysignature
    kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def pysignature(obj: Any, *args: Any, **kwargs: Any) -> inspect.Signature:
        if args or kwargs:
            return read(obj, *args, **kwargs)
        try:
            return kept[obj]
        except (KeyError, TypeError):  # not yet; or not hashable or weakly referable
            sig = read(obj)
            try:
                kept[obj] = sig
            except TypeError:
                pass
            return sig

    pysignature._ecsgoo = True  # type: ignore[attr-defined]
    utils.pysignature = pysignature


#: numba's own ``_rebuild_env`` (``load_lazily`` keeps it: environments of ecsgoo's modules,
#: or of numba modules imported already, are rebuilt by it).
_numbas_rebuild_env: Any = None


def _rebuild_env(modname: str, consts: Any, env_name: str) -> Any:
    """numba's ``environment._rebuild_env`` (what unpickling an environment calls), which
    imports a numba module only if something else already did (the module docstring)."""
    env = environment.lookup_environment(env_name)
    if env is not None:
        return env
    if not modname.startswith("numba.") or modname in sys.modules:
        return _numbas_rebuild_env(modname, consts, env_name)
    env = environment.Environment({"__name__": modname})
    env.consts[:] = consts
    env.env_name = env_name
    environment.Environment._memo[env_name] = env
    return env


# An environment pickles a reference to ``numba.core.environment._rebuild_env`` by that
# name, so a cache entry written here loads wherever numba does, with whichever function
# that name holds there (numba's, without ecsgoo): never this function by value.
_rebuild_env.__module__ = environment.__name__
