"""A cached kernel's names read from its object's symbol table, as numba reads them from
its bitcode (``ecsgoo.lazy_load``)."""

from __future__ import annotations

import sys

import llvmlite.binding as ll
import pytest
from numba import njit

import ecsgoo.kernels  # noqa: F401  (the patches are made as the kernels are imported)
from ecsgoo.lazy_load import defined_symbols


@njit
def _helper(x):
    return x * 2.0


@njit
def _caller(n):
    return _helper(float(n)) + 1.0  # a callee's code in the caller's object


def _numbas_names(bitcode: bytes) -> set[str]:
    """What numba's own load adds to the JIT's defined symbols (``_load_defined_symbols``)."""
    mod = ll.parse_bitcode(bitcode)
    return {g.name for gs in (mod.functions, mod.global_variables) for g in gs
            if not g.is_declaration}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF objects: Linux")
def test_the_symbol_table_names_what_the_bitcode_defines():
    assert _caller(4) == 9.0
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


def test_an_environment_pickles_numbas_name_never_ecsgoos_function():
    """A cache entry names ``numba.core.environment._rebuild_env``: it loads with numba
    alone (numba's function), and never carries ecsgoo's by value."""
    import pickle

    from numba.core import environment, serialize

    for dumped in (pickle.dumps(environment._rebuild_env),
                   serialize.dumps(environment._rebuild_env)):
        assert b"numba.core.environment" in dumped and b"lazy_load" not in dumped


def test_an_environment_of_a_numba_module_not_imported_is_rebuilt_without_it():
    from numba.core import environment

    name = "numba.ecsgoo_test_not_a_module"  # importing it would fail
    env = environment._rebuild_env(name, [1.5], "ecsgoo_test_env_lazy_load")
    assert env.globals == {"__name__": name} and list(env.consts) == [1.5]
    assert environment._rebuild_env(name, [], "ecsgoo_test_env_lazy_load") is env
    # one of ecsgoo's own (or of an imported module): its module's globals, as numba does
    mine = environment._rebuild_env("ecsgoo.lazy_load", [], "ecsgoo_test_env_lazy_load_2")
    assert mine.globals is sys.modules["ecsgoo.lazy_load"].__dict__


def test_numba_reads_a_functions_signature_once_and_the_same_as_inspect():
    import inspect

    from numba.core import utils

    def f(a, b=2, *rest, c, **more):
        return a

    first = utils.pysignature(f)
    assert first is utils.pysignature(f) and first == inspect.signature(f)

    class Unhashable:
        __hash__ = None

        def __call__(self, x, y=1):
            return x

    assert utils.pysignature(Unhashable()) == inspect.signature(Unhashable())
    assert utils.pysignature(len) == inspect.signature(len)


def test_a_runtime_that_cannot_be_written_leaves_no_part_behind(tmp_path, monkeypatch):
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target

    from ecsgoo import lazy_load

    kept = tmp_path / "numba-runtime.nbo"
    monkeypatch.setattr(lazy_load, "runtime_file", lambda ident: str(kept))

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(lazy_load.os, "replace", full_disk)
    with global_compiler_lock:  # (as numba calls it)
        library = lazy_load._runtime(cpu_target.target_context)
    assert library.get_pointer_to_function("NRT_incref")  # compiled as numba does
    assert list(tmp_path.iterdir()) == []  # neither the file nor a part of it
