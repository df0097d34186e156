"""Make the shared scenes importable, keep arcade headless, derandomize hypothesis, mark the
end-to-end tests and start them first, and compile the kernels once before any test runs.

``tests/unit/<area>/`` holds the tests of one part in one process (``pytest tests/unit``);
``tests/e2e/`` the games, environments, command line, windows and first runs, which
spawn processes, play whole levels or compile kernels anew. Those are marked ``e2e``
and ``slow`` here (``pytest -m "not slow"`` leaves them out) and sorted before the unit
tests, so that under pytest-xdist (``-n auto``) the long ones start first and the short
ones even out the end.
"""

import atexit
import functools
import gc
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("ARCADE_HEADLESS", "1")
# progress, quick saves and recordings never go into the real user folder (subprocesses too)
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="ecsgoo-test-data-")
# At exit every object left is frozen out of the collector: Python's last collections
# then scan none of a worker's heap (~1 s at each run's end, where the workers' exit is
# waited for; BENCHMARKS.md, stop 63). Registered as the conftest is imported, it runs
# after the exit handlers of everything the tests import.
atexit.register(gc.freeze)
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # naive, scenes, events, spy, toygame
E2E = HERE / "e2e"

# CI runs the same examples every time (a failure reproduces; a pass stays a pass);
# HYPOTHESIS_PROFILE=explore draws new ones, to hunt for cases to pin as @example.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _end_to_end(item: pytest.Item) -> bool:
    return _in_e2e(str(item.path))


@functools.cache
def _in_e2e(path: str) -> bool:
    """Whether the file ``path`` lies under ``tests/e2e`` (resolved once a file: resolving
    every item's path was a third of a collection's second)."""
    return E2E in Path(path).resolve().parents


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark what ``tests/e2e`` holds ``e2e`` and ``slow``, and put it first, then the slow
    unit tests (the fuzzers) (a stable sort: each file keeps its own order)."""
    for item in items:
        if _end_to_end(item):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: (not _end_to_end(item), item.get_closest_marker("slow") is None))


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the collection imported (numba's types and kernels, arcade, hypothesis, the
    test modules) lives as long as the process: frozen out of the collector's scans, and
    its young generation scanned every 10,000 new objects, not 700 (a test makes worlds
    of thousands of small objects). The fast subset's collections: ~1.8 s of each
    worker's ~30 s, ~0.5 s so (BENCHMARKS.md, stop 58)."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def pytest_sessionstart(session: pytest.Session) -> None:
    """A cold kernel cache is compiled here, once, before the tests (and before
    pytest-xdist starts its workers, which would otherwise each compile every kernel)."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller did it
        return
    from ecsgoo.warmup import cache_is_cold, terminal_warm_up

    if cache_is_cold():
        with session.config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled():
            terminal_warm_up()
