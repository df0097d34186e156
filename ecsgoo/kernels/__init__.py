"""Pure ``@njit(cache=True)`` kernels over packed arrays: no esper, no arcade.

Glossary: ``h`` substep time, ``w`` inverse mass, ``C`` constraint error,
``alpha`` = compliance / h², ``lam`` Lagrange multiplier, ``n`` rows in use.
"""

import os as _os

from ..heap import keep_freed_memory as _keep_freed_memory
from ..numba_cache import ensure_writable_cache as _ensure_writable_cache
from ..numba_cache import tie_stamps_to_the_package as _tie_stamps_to_the_package
from ..numba_cache import tolerate_corrupt_entries as _tolerate_corrupt_entries

_ensure_writable_cache(_os.path.dirname(__file__))  # before any kernel module is defined
_tolerate_corrupt_entries()
# a kernel's cache entry goes stale with any of ecsgoo's kernel files (callees included)
_tie_stamps_to_the_package(_os.path.dirname(_os.path.dirname(__file__)))

_keep_freed_memory()  # a substep's temporaries reuse the last one's pages (see heap)
