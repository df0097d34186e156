"""A cached kernel's names read from its object's symbol table, as numba reads them from
its bitcode (``ecsgoo.lazy_bitcode``)."""

from __future__ import annotations

import sys

import llvmlite.binding as ll
import numpy as np
import pytest
from numba import njit

import ecsgoo.kernels  # noqa: F401  (the patches are made as the kernels are imported)
from ecsgoo.lazy_bitcode import defined_symbols


@njit
def _helper(a):
    return a.sum() * 2.0


@njit
def _caller(n):
    a = np.arange(n, dtype=np.float64)  # numba's runtime, an array made and freed
    return _helper(a) + 1.0


def _numbas_names(bitcode: bytes) -> set[str]:
    """What numba's own load adds to the JIT's defined symbols (``_load_defined_symbols``)."""
    mod = ll.parse_bitcode(bitcode)
    return {g.name for gs in (mod.functions, mod.global_variables) for g in gs
            if not g.is_declaration}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF objects: Linux")
def test_the_symbol_table_names_what_the_bitcode_defines():
    assert _caller(4) == 13.0
    library = _caller.overloads[_caller.signatures[0]].library
    _, kind, (obj, bitcode) = library.serialize_using_object_code()
    assert kind == "object"
    names = defined_symbols(obj)
    expected = _numbas_names(bitcode)
    assert expected and expected <= names
    wrapper = _caller.overloads[_caller.signatures[0]].fndesc.llvm_cpython_wrapper_name
    assert wrapper in names


def test_what_is_not_an_elf64_object_is_left_to_numba():
    assert defined_symbols(b"\xcf\xfa\xed\xfe" + bytes(60)) is None  # Mach-O
    assert defined_symbols(b"\x7fELF\x01\x01" + bytes(60)) is None  # 32-bit ELF
    assert defined_symbols(b"") is None
