"""A cold start's callees compiled for linking only: no machine code of their own.

numba compiles a kernel that another kernel calls as it would one called from Python:
typed and lowered, then its own module optimised, its Python and C wrappers made, its
machine code generated and its cache entry written — and then the caller links its
optimised IR and optimises and generates it again (its cache entry holds the callee's
code too). Of a cold compile, the callees' wrappers, machine code and entries are a
third: goo's first frame into an empty cache, 41.2 → 28.7 CPU-s (BENCHMARKS.md, stop 62).

``callees_for_linking()`` (a context) makes every callee compiled within it — a kernel
first met inside another's compile, not from Python — stop at its optimised module: the
caller links it exactly as before (the same IR: the same code, the same bits), and the
callee gets a stand-in entry (``LinkOnly``) that typing and lowering read but Python
cannot call. A call from Python of such a signature, later, loads it from the cache if it
is there, else wraps what was compiled (``_in_full``): numba's Python and C wrappers in a
library that links its code, given machine code and a cache entry — not typed, lowered
and optimised again (a fused frame's kernels that the stages call too: suika's second
compiles 6.2 -> 2.8 CPU-s). What it compiles within the context is not cached on its own,
so a cache is not made warm by it: ``warmup.game_warm_up`` uses it for a game's
rehearsal, in the foreground, while the background helper compiles every kernel in full.
The helper loads what the rehearsal cached (its callers) and so never compiles their
callees: the context is given a record file, where each signature compiled for linking
is written (``record``), and the helper compiles what it holds (``compile_recorded``),
each kernel's own entry — without it a cache stayed cold after a first start, and every
later start rehearsed again with a helper behind it (BENCHMARKS.md, stop 63).

``install()`` (once a process, from ``ecsgoo.kernels``) patches numba's dispatcher and
code library; outside the context they behave as numba's own, but for a compile depth
they keep.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import os
import pickle
import threading
from collections.abc import Iterator
from typing import Any

from numba.core import codegen, dispatcher, event, sigutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.environment import Environment

#: Per thread: how deep in compiles from Python (0: at Python's level), whether the
#: context is on, and which function compilers now compile for linking only.
_state = threading.local()


class LinkOnly:
    """The entry of a signature compiled for linking only (the key its callers' lowering
    finds its code by). Not callable: Python's call of the kernel compiles it in full."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}: compiled for linking only>"


@contextlib.contextmanager
def callees_for_linking(record: str | None = None) -> Iterator[None]:
    """Within: a kernel compiled because another calls it is compiled for linking only;
    each such signature is added to the file ``record`` (if given) for ``compile_recorded``."""
    was = getattr(_state, "on", False), getattr(_state, "record", None)
    _state.on, _state.record = True, record
    try:
        yield
    finally:
        _state.on, _state.record = was


def compile_recorded(record: str) -> int:
    """Compile in full (or load from the cache) each kernel signature the file ``record``
    holds (``callees_for_linking``'s): the kernels' own entries that a cache needs to be
    warm. Returns how many it compiled or loaded; a kernel that no longer exists, or a
    record that cannot be read back (a newer numba's, a torn last line), is passed over."""
    done = 0
    for module, name, args in _recorded(record):
        try:
            kernel = getattr(importlib.import_module(module), name)
            kernel.compile(args)
        except Exception:  # noqa: BLE001 - a kernel renamed or gone since: nothing to do
            continue
        done += 1
    return done


def _recorded(record: str) -> list[tuple[str, str, tuple[Any, ...]]]:
    """The distinct signatures in ``record`` (none if it is missing)."""
    found: dict[tuple[str, str, tuple[Any, ...]], None] = {}  # (in the order written)
    try:
        with open(record, "rb") as file:
            while True:
                try:
                    module, name, args = pickle.load(file)
                except EOFError:
                    break
                found[module, name, args] = None
    except (OSError, pickle.UnpicklingError, AttributeError, ImportError, ValueError,
            TypeError, IndexError):
        pass  # what came before the broken part was read
    return list(found)


def _record(kernel: Any, args: tuple[Any, ...]) -> None:
    """Add ``kernel``'s ``args`` to the context's record file: one write, appended (two
    processes writing at once each add whole records); nothing if the kernel is not one
    of its module's names, or the file cannot be written."""
    record = getattr(_state, "record", None)
    if record is None:
        return
    module = importlib.import_module(kernel.__module__)
    name = next((k for k, v in vars(module).items() if v is kernel), None)
    if name is None:
        return
    with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
        data = pickle.dumps((kernel.__module__, name, args))
        fd = os.open(record, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)


def linking_only(kernel: Any) -> list[tuple[Any, ...]]:
    """The signatures of ``kernel`` (a numba dispatcher) compiled for linking only."""
    return [sig for sig, cres in kernel.overloads.items()
            if isinstance(cres.entry_point, LinkOnly)]


def install() -> None:
    """Patch numba (once a process) as the module docstring says."""
    cls = dispatcher.Dispatcher
    if getattr(cls.compile, "_ecsgoo", False):
        return
    own_compile, own_call = cls.compile, cls._compile_for_args
    own_flags = dispatcher._FunctionCompiler._customize_flags
    own_to_jit = codegen.CPUCodeLibrary._finalize_final_module
    own_optimize = codegen.CPUCodeLibrary._optimize_final_module

    def compile_(self: Any, sig: Any) -> Any:
        with global_compiler_lock:
            args, _ = sigutils.normalize_signature(sig)
            args = tuple(args)
            depth = getattr(_state, "depth", 0)
            existing = self.overloads.get(args)
            # (a kernel compiling calls itself with other types: numba links that call in
            # the JIT at run time, which needs the callee's own machine code there)
            recursive = self.is_compiling
            if existing is not None and isinstance(existing.entry_point, LinkOnly):
                if depth and not recursive:
                    return existing.entry_point  # (a caller links it as it is)
                del self.overloads[args]  # called from Python (or itself): in full now
                if not recursive:
                    entry = _in_full(self, sig, existing)
                    if entry is not None:
                        return entry
            elif depth and existing is None and getattr(_state, "on", False) and not recursive:
                entry = _for_linking(self, sig, args)
                if entry is not None:
                    return entry
            _state.depth = depth + 1
            try:
                return own_compile(self, sig)
            finally:
                _state.depth = depth

    def call_from_python(self: Any, *args: Any, **kws: Any) -> Any:
        depth = getattr(_state, "depth", 0)
        _state.depth = 0  # (a kernel called from Python during a compile starts anew)
        try:
            return own_call(self, *args, **kws)
        finally:
            _state.depth = depth

    def customize_flags(self: Any, flags: Any) -> Any:
        flags = own_flags(self, flags)
        if self in getattr(_state, "linking", ()):
            flags.no_cpython_wrapper = flags.no_cfunc_wrapper = flags.no_compile = True
        return flags

    def to_jit(self: Any) -> None:
        # numba's ``finalize`` links the callees in and optimises the module (what callers
        # link), then hands it to the JIT for machine code: a callee for linking stops there
        if getattr(self, "_ecsgoo_link_only", False):
            self._finalized = True
            return
        own_to_jit(self)

    def optimize(self: Any) -> None:
        # a kernel's wrappers around its code compiled for linking (``_wrapped``): that
        # code was optimised as numba optimises it, the wrappers function by function
        if not getattr(self, "_ecsgoo_wrappers", False):
            own_optimize(self)

    compile_._ecsgoo = True  # type: ignore[attr-defined]
    cls.compile = compile_
    cls._compile_for_args = call_from_python
    dispatcher._FunctionCompiler._customize_flags = customize_flags
    codegen.CPUCodeLibrary._finalize_final_module = to_jit
    codegen.CPUCodeLibrary._optimize_final_module = optimize


def _for_linking(kernel: Any, sig: Any, args: tuple[Any, ...]) -> Any:
    """Load ``kernel``'s ``args`` from the cache if there, else compile it for linking only
    (``compile_``'s, under numba's compiler lock); its entry either way, or None for a
    kernel that calls itself (numba links its recursive call in the JIT, at run time, to
    the copy its own module puts there: it compiles in full)."""
    cres = kernel._cache.load_overload(sig, kernel.targetctx)
    if cres is not None:
        return _added(kernel, cres)
    compiler = kernel._compiler
    linking = getattr(_state, "linking", None)
    if linking is None:
        linking = _state.linking = set()
    linking.add(compiler)  # (the depth is already above 0: what it calls is linked too)
    data = {"dispatcher": kernel, "args": args, "return_type": None}
    try:  # (the counter: a recursive kernel's own call is typed as recursion)
        with kernel._compiling_counter, event.trigger_event("numba:compile", data=data):
            cres = compiler._compile_core(args, None)
    finally:
        linking.discard(compiler)
    if _calls_itself(cres.library):
        return None  # (numba resolves a recursive call in the JIT: compiled in full)
    key = LinkOnly(kernel.py_func.__qualname__)
    cres.library._ecsgoo_link_only = True
    cres = cres._replace(entry_point=key)
    kernel.targetctx.insert_user_function(key, cres.fndesc, [cres.library])
    kernel.overloads[args] = cres  # (typing reads its signature; no Python entry)
    _record(kernel, args)
    return key


def _in_full(kernel: Any, sig: Any, linked: Any) -> Any:
    """Make ``kernel``'s signature ``sig``, compiled for linking only (``linked``, its
    compile result), callable from Python: loaded from the cache if there, else its
    Python wrapper in a code library of its own that links the code compiled before —
    numba's typing, lowering and optimisation are not done again (they were most of such
    a second compile), LLVM generates its machine code. The same IR, so the same code as
    numba's compile, and the same cache entry. Returns the entry, or None (numba's compile
    then) for a kernel numba parallelises or one whose wrapping fails."""
    if kernel.targetoptions.get("parallel"):
        return None
    cres = kernel._cache.load_overload(sig, kernel.targetctx)
    if cres is None:
        data = {"dispatcher": kernel, "args": tuple(linked.signature.args),
                "return_type": None}
        try:
            with event.trigger_event("numba:compile", data=data):
                cres = _wrapped(kernel, linked)
        except Exception:  # noqa: BLE001 - numba's internals: its own compile still works
            return None
        kernel._cache.save_overload(sig, cres)
    return _added(kernel, cres)


def _added(kernel: Any, cres: Any) -> Any:
    """``cres`` (loaded or made here) made ``kernel``'s, as numba's compile makes one: its
    entry known to callers' lowering and to the dispatcher; returns the entry."""
    kernel.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
    kernel.add_overload(cres)
    return cres.entry_point


def _wrapped(kernel: Any, linked: Any) -> Any:
    """``linked`` (a compile result for linking only) with numba's Python and C wrappers
    in a library that links its code: what ``NativeLowering`` makes when it compiles in
    full, from what it kept."""
    # (the compile's own context: NRT on, its error model, as the code was lowered with)
    ctx = linked.target_context
    fndesc, env = _own_environment(linked.fndesc)
    library = ctx.codegen().create_library(kernel.py_func.__qualname__)
    library.enable_object_caching()  # (numba's: its machine code goes in the cache entry)
    ctx.create_cpython_wrapper(library, fndesc, env, linked.call_helper,
                               release_gil=bool(kernel.targetoptions.get("nogil")))
    # (numba's rule for making its C wrapper)
    if not (any(isinstance(t, (types.Omitted, types.Generator)) for t in linked.signature.args)
            or isinstance(fndesc.restype, (types.Optional, types.Generator))):
        ctx.create_cfunc_wrapper(library, fndesc, env, linked.call_helper)
    library.add_linking_library(linked.library)
    library._ecsgoo_wrappers = True  # (its code optimised once, not again: ``install``)
    library.finalize()
    entry = ctx.get_executable(library, fndesc, env)
    reload_init = list(linked.reload_init or ()) + list(library._reload_init)
    return linked._replace(entry_point=entry, library=library, reload_init=reload_init,
                           fndesc=fndesc, environment=env)


def _own_environment(fndesc: Any) -> tuple[Any, Any]:
    """``fndesc`` as the wrappers' own (a copy) with an environment of their own, named
    apart from the code's: the Python wrapper keeps there what it boxes with (an array's
    dtype), and numba, loading a cache entry, takes an environment already loaded under
    the same name as it is — the code's, loaded with a caller's entry before the wrappers
    added theirs — so a wrapper that shared it boxed with a constant it lacked (a crash:
    ``start_positions`` of Suika's merge, wrapped in a cold start, called in the next)."""
    own = copy.copy(fndesc)
    own.env_name = f"{fndesc.env_name}_wrapped"
    return own, Environment.from_fndesc(own)


def _calls_itself(library: Any) -> bool:
    """Whether ``library``'s module calls a function the JIT resolves at run time (numba's
    way with recursion: ``codegen.RuntimeLinker``)."""
    prefix = codegen.RuntimeLinker.PREFIX
    return any(gv.name.startswith(prefix) for gv in library._final_module.global_variables)
