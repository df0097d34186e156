"""A numba cache folder that can be written, so that no kernel refuses to be defined.

numba keeps compiled kernels beside their source (``ecsgoo/kernels/__pycache__``)
or in the user's cache folder; when neither can be written (a read-only install,
a locked-down home) ``@njit(cache=True)`` raises ``RuntimeError: cannot cache
function …: no locator available`` as the module is imported. Then the kernels
cache into a temporary folder of this run instead (compiled again next run),
with a one-line warning. ``NUMBA_CACHE_DIR`` set by the user is left alone.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Iterable

import numba
from numba.misc.appdirs import AppDirs


def writable(path: str) -> bool:
    """Whether ``path`` exists or can be made, and takes a file (numba's own test)."""
    try:
        os.makedirs(path, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def candidates(package: str) -> list[str]:
    """Where numba would cache ``package``'s kernels: beside them, then the user cache."""
    return [os.path.join(package, "__pycache__"),
            AppDirs(appname="numba", appauthor=False).user_cache_dir]


def ensure_writable_cache(package: str, can_write: Callable[[str], bool] = writable,
                          places: Iterable[str] | None = None) -> str | None:
    """Point numba at a temporary cache folder if it has nowhere to cache ``package``.

    Returns that folder, or None when numba has somewhere already (or the user
    chose ``NUMBA_CACHE_DIR``).
    """
    if numba.config.CACHE_DIR:
        return None
    if any(can_write(p) for p in (candidates(package) if places is None else places)):
        return None
    folder = tempfile.mkdtemp(prefix="ecsgoo-numba-")
    numba.config.CACHE_DIR = folder
    print(f"ecsgoo: no writable numba cache (the package folder and the user cache "
          f"folder are read-only); kernels compile into {folder} for this run",
          file=sys.stderr)
    return folder
