"""numba_cache.calls_without_literals: a kernel called with constants compiles once."""

import importlib.util
import sys

import ecsgoo.kernels  # noqa: F401  (installs the plain calls for ecsgoo's own kernels)
from ecsgoo.numba_cache import calls_without_literals

SOURCE = """
from numba import njit

@njit
def inner(k, flag):
    return k + (1 if flag else 0)

@njit
def outer():
    return inner(1, True) + inner(2, False) + inner(3, True)
"""


def _module(folder, name):
    folder.mkdir()
    (folder / f"{name}.py").write_text(SOURCE)
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_constants_from_a_kernel_compile_the_callee_once(tmp_path):
    covered = _module(tmp_path / "covered", "ecsgoo_plain_covered")
    calls_without_literals(str(tmp_path / "covered"))
    assert covered.outer() == 8
    assert [str(s) for s in covered.inner.signatures] == ["(int64, bool)"]


def test_elsewhere_numba_still_compiles_one_callee_per_literal(tmp_path):
    other = _module(tmp_path / "other", "ecsgoo_plain_other")
    assert other.outer() == 8
    assert len(other.inner.signatures) == 3  # what ecsgoo's kernels did before
