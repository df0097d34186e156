"""Keep the memory a frame frees for the next frame (glibc's heap, on Linux).

A substep's kernels allocate temporaries of 50–200 KB (the broad-phase grid, the
pair sweep's packed copies) and free them a moment later. glibc gives memory at
the top of its heap back to the system whenever more than 128 KB there is free
(its trim threshold), so in some processes each substep's temporaries came back
as fresh pages that the system must fault in and zero: the jelly scene's grid
and pair sweep ran 3× slower (7.6 against 6.1 ms a frame), depending only on
where earlier allocations happened to sit. ``keep_freed_memory`` raises the trim
threshold (a process keeps up to 256 MB of freed heap) and fixes the size from
which blocks are mapped on their own at 32 MB (glibc's own ceiling for it;
setting the trim threshold stops glibc adjusting it). Called once, when
``ecsgoo.kernels`` is imported; a process that sets ``MALLOC_TRIM_THRESHOLD_``
itself is left alone, and elsewhere than glibc nothing happens.
"""

from __future__ import annotations

import ctypes
import os
import sys

#: glibc's mallopt parameters (malloc.h).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
KEEP_FREED = 256 << 20
MAP_FROM = 32 << 20


def keep_freed_memory() -> bool:
    """Raise glibc's trim threshold (see the module); True if it was set here."""
    if not sys.platform.startswith("linux") or "MALLOC_TRIM_THRESHOLD_" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt to speak of)
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_TRIM_THRESHOLD, KEEP_FREED)) and bool(
        mallopt(M_MMAP_THRESHOLD, MAP_FROM))
