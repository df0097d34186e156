"""Pure ``@njit(cache=True)`` kernels over packed arrays: no esper, no arcade.

Glossary: ``h`` substep time, ``w`` inverse mass, ``C`` constraint error,
``alpha`` = compliance / h², ``lam`` Lagrange multiplier, ``n`` rows in use.

Why the kernels take their arrays one by one and not as a few named bundles: numba
types every argument at each call from Python, and a container costs more there
than its members. Measured here (numba 0.68, 30 float arrays, an empty kernel):
30 arrays 1.42 µs a call, one tuple of them 1.78 µs, one ``NamedTuple`` 2.83 µs. A
frame makes ~200 kernel calls, so bundles at the boundary would add ~0.3 ms a frame —
as much as a small scene costs. (A numba StructRef is the exception: ~0.6 µs for the
fused frames' ~60 arrays, kept while they hold: ``frame_args``.) Inside a kernel a
bundle costs nothing to build, but a call from kernel to kernel is not free either: one
passing ~40 arrays cost ~0.6 µs here, and a helper over arrays marked
``inline="always"`` ran ~8× slower than a plain ``@njit`` one (``joints``: measured in
its docstring).

Why some kernels say ``_nrt=False``: numba counts the references of every array a
kernel is handed — an atomic increment as it starts and a decrement as it returns, for
each array argument, kept by its control flow from being pruned (``NRT_incref`` and
``NRT_decref``: 17–20 % of a small scene's frame by ``perf``, the solver's substeps
calling kernel after kernel). A kernel that makes no array, and calls only kernels that
make none, is compiled without numba's runtime: no counts. Such a kernel cannot make an
array, nor can one it calls (``np.empty`` fails to compile there); the rigid solver's
substep kernels are, its look (which sorts and allocates) is not. Same bits.

Why the solvers' passes say ``fastmath=FMA``: they are chains of ``a * b + c`` per
contact and joint, and letting LLVM fuse each into one multiply-add (``contract``, no
other fast-math freedom: nothing is reordered, reassociated or assumed finite) took a
quarter off a pass over the pyramid's contacts. A fused multiply-add rounds once where
two operations rounded twice, so the bits are not those of the unfused arithmetic, but
they are fixed by the compiled code: the same machine gives the same bits, run after
run, save and load alike (numba's cache is per CPU). DESIGN's "keep fastmath off" is
about the freedoms that reorder sums (``reassoc``), which this leaves off.
"""

import os as _os

from ..heap import keep_freed_memory as _keep_freed_memory
from ..lazy_load import load_lazily as _load_lazily
from ..link_only import install as _install_link_only
from ..numba_cache import calls_without_literals as _calls_without_literals
from ..numba_cache import check_each_folder_once as _check_each_folder_once
from ..numba_cache import distinct_names as _distinct_names
from ..numba_cache import ensure_writable_cache as _ensure_writable_cache
from ..numba_cache import tie_stamps_to_the_package as _tie_stamps_to_the_package
from ..numba_cache import tolerate_corrupt_entries as _tolerate_corrupt_entries

_ensure_writable_cache(_os.path.dirname(__file__))  # before any kernel module is defined
_distinct_names()  # no two processes' compiled functions share a name (numba_cache)
_check_each_folder_once()  # numba's cache-folder check: once per folder, not per kernel
_tolerate_corrupt_entries()
# a kernel's cache entry goes stale with any of ecsgoo's kernel files (callees included)
_tie_stamps_to_the_package(_os.path.dirname(_os.path.dirname(__file__)))
_calls_without_literals(_os.path.dirname(__file__))  # one compile per kernel (numba_cache)
_load_lazily()  # a cached kernel loads what running it needs (its bitcode when linked)
_install_link_only()  # a cold start's callees may compile for linking only (link_only)

_keep_freed_memory()  # a substep's temporaries reuse the last one's pages (see heap)

#: The fast-math freedom the solvers' passes take: fused multiply-adds only (see above).
FMA = {"contract"}
