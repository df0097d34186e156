"""A frame's kernel called on its compiled entry, past numba's dispatch.

numba's dispatcher types every argument of every call from Python before it picks the
compiled code; a StructRef (the frame's arguments, ``kernels.frame_args``) takes its
generic path. For the fused rigid frame's six arguments that was ~0.95 µs of one box's
9.9 µs frame here. ``Direct(kernel)`` calls the dispatcher the first time it meets the
StructRef's numba type (compiling or loading the kernel as usual), keeps that
signature's compiled entry (numba's own wrapper: it unboxes each argument as the
signature says) and calls it after.

The entry checks no types: the caller keeps the other arguments' types fixed (one call
site, arguments of one type each), and the StructRef's type is the key.
"""

from __future__ import annotations

from typing import Any


class Direct:
    """``kernel`` (a numba dispatcher) called as ``Direct(kernel)(held, *rest)``, ``held``
    a ``kernels.frame_args`` StructRef; ``rest`` of the same types at every call."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        #: the StructRef's numba type and its compiled entry, the last met (numba's types
        #: are made once each, so ``is`` tells them apart: hashing one of ~90 fields took
        #: about what the dispatch did). A caller on a hot path may test it and call the
        #: entry itself (``physics.rigid_frame._run``: this call's Python was ~0.4 µs)
        self.last: tuple[Any, Any] = (None, None)
        #: the compiled entries met before, by the type's id (the entries keep the types)
        self.entries: dict[int, tuple[Any, Any]] = {}

    def __call__(self, held: Any, *rest: Any) -> Any:
        ty, entry = self.last
        if held._numba_type_ is not ty:
            ty, entry = self.entries.get(id(held._numba_type_), (None, None))
            if ty is not held._numba_type_:
                return self._first(held, rest)
            self.last = ty, entry
        return entry(held, *rest)

    def _first(self, held: Any, rest: tuple) -> Any:
        """The call through numba's dispatcher, its compiled entry then kept."""
        out = self.kernel(held, *rest)  # (typed, and compiled or loaded, as usual)
        if not hasattr(self.kernel, "overloads"):  # not compiled (numba's JIT switched off)
            return out
        signature = tuple(self.kernel.typeof_pyval(a) for a in (held, *rest))
        compiled = self.kernel.overloads.get(signature)
        if compiled is not None:
            ty = held._numba_type_
            self.last = self.entries[id(ty)] = ty, compiled.entry_point
        return out
