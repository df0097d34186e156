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
"""

from __future__ import annotations

import struct
import sys
from typing import Any

import llvmlite.binding as ll
from numba.core import codegen, environment

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
