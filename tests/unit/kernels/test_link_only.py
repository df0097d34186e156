"""A callee compiled for linking only (``ecsgoo.link_only``): its caller runs as before, to
the bit; Python's own call of it makes its wrappers around the code compiled before (not
typed and lowered again), to the same bits; recursion is typed as recursion; outside the
context nothing changes."""

from __future__ import annotations

import numpy as np
from numba import njit

import ecsgoo.kernels  # noqa: F401  (the patches are made as the kernels are imported)
from ecsgoo.link_only import LinkOnly, callees_for_linking, linking_only

FMA = {"contract"}


def _kernels() -> tuple:
    """A fresh caller and callees (no overloads yet: each test compiles its own)."""

    @njit(fastmath=FMA)
    def dot(a, b):  # fused multiply-adds: the bits depend on the code LLVM makes
        s = 0.0
        for i in range(len(a)):
            s = s + a[i] * b[i]
        return s

    @njit
    def steps(n):  # recursive: typed as recursion while it compiles
        return 0 if n <= 0 else 1 + steps(n - 1)

    @njit(fastmath=FMA)
    def caller(a, b, n):
        return dot(a, b) * 0.5 + dot(b, a) + steps(n)

    return caller, dot, steps


def _array_kernels() -> tuple:
    """A caller and a callee that makes an array and returns it in a tuple (its Python
    wrapper boxes it: what the boxing needs is in the compile's own environment)."""

    @njit(fastmath=FMA)
    def scaled(a, k):
        out = np.empty(len(a))
        for i in range(len(a)):
            out[i] = a[i] * k + 1.0
        return out, len(a)

    @njit
    def total(a):
        out, n = scaled(a, 3.0)
        return out.sum() + n

    return total, scaled


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    return rng.normal(size=1001) * 1e3, rng.normal(size=1001) / 3.0


def test_a_callee_compiled_for_linking_gives_its_caller_the_same_bits() -> None:
    a, b = _inputs()
    caller, dot, steps = _kernels()
    with callees_for_linking():
        linked = caller(a, b, 5)
    assert linking_only(dot) and linking_only(steps) and not linking_only(caller)
    assert isinstance(dot.overloads[linking_only(dot)[0]].entry_point, LinkOnly)
    plain_caller, _, _ = _kernels()
    assert np.float64(linked).tobytes() == np.float64(plain_caller(a, b, 5)).tobytes()


def test_called_from_python_a_linked_callee_gets_its_wrappers() -> None:
    a, b = _inputs()
    caller, dot, steps = _kernels()
    with callees_for_linking():
        caller(a, b, 3)
    assert steps(4) == 4 and linking_only(steps) == []  # compiled in full on this call
    bits = np.float64(dot(a, b)).tobytes()
    assert bits == np.float64(_kernels()[1](a, b)).tobytes()  # numba's own compile's
    entry = dot.overloads[dot.signatures[0]]
    assert not isinstance(entry.entry_point, LinkOnly) and linking_only(dot) == []
    assert entry.library._ecsgoo_wrappers  # the code compiled for linking, wrapped
    assert caller(a, b, 2) == caller(a, b, 2)  # the caller still runs as compiled


def test_a_wrapped_callee_returns_what_it_makes() -> None:
    a = _inputs()[0]
    total, scaled = _array_kernels()
    with callees_for_linking():
        whole = total(a)
    assert linking_only(scaled)
    out, n = scaled(a, 3.0)
    plain = _array_kernels()[1](a, 3.0)[0]
    assert n == len(a) and out.tobytes() == plain.tobytes()
    assert whole == total(a)  # (the caller, linked before, runs as it did)


def test_outside_the_context_callees_compile_as_numba_does() -> None:
    a, b = _inputs()
    caller, dot, steps = _kernels()
    caller(a, b, 1)
    assert linking_only(dot) == linking_only(steps) == []
    assert callable(dot.overloads[dot.signatures[0]].entry_point)


def test_a_linked_callee_links_into_a_caller_compiled_after_the_context() -> None:
    a, b = _inputs()
    caller, dot, steps = _kernels()
    with callees_for_linking():
        caller(a, b, 1)

    @njit(fastmath=FMA)
    def later(a, b):
        return dot(a, b) + steps(2)

    assert later(a, b) == _kernels()[1](a, b) + 2.0
    assert linking_only(dot)  # (linked as it was: not compiled again)
    # ``steps(2)`` here is typed for the literal 2 (``later`` is no ecsgoo kernel), and that
    # compile calls ``steps`` for an int64: numba links a call of a kernel to itself in the
    # JIT at run time, so the int64 one was compiled in full
    assert linking_only(steps) == [] and steps(7) == 7


def test_a_callee_whose_wrapping_fails_compiles_numbas_way(monkeypatch) -> None:
    from ecsgoo import link_only

    a, b = _inputs()
    caller, dot, _ = _kernels()
    with callees_for_linking():
        caller(a, b, 1)

    def broken(kernel, linked):
        raise RuntimeError("numba's internals changed")

    monkeypatch.setattr(link_only, "_wrapped", broken)
    assert np.float64(dot(a, b)).tobytes() == np.float64(_kernels()[1](a, b)).tobytes()
    entry = dot.overloads[dot.signatures[0]]
    assert not getattr(entry.library, "_ecsgoo_wrappers", False)  # numba's own compile
