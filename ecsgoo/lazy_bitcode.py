"""A cached kernel loads its machine code alone; its bitcode is read when a compile needs it.

numba's cache entry of a kernel holds two things: the machine code (an ELF object on
Linux) and the kernel's LLVM bitcode, kept so that a kernel compiled later can link
and inline it. numba parses that bitcode on every load and walks the parsed module for
the names it defines, though only a compile ever links it: 40 % of loading goo's
kernels on a warm start (22 kernels: 0.07 s parsing, 0.04 s walking, of 0.22 s).

``load_lazily()`` makes a load read the names from the object's symbol table instead
(a few hundred entries, read with ``struct``) and keep the bitcode as bytes, parsed the
first time a compile asks to link the kernel (numba's ``_get_module_for_linking``).
Where the object is not ELF (macOS, Windows) a load is numba's own.
"""

from __future__ import annotations

import struct
from typing import Any

import llvmlite.binding as ll
from numba.core import codegen

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
    """Patch numba's library loading as the module docstring says (once a process)."""
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
