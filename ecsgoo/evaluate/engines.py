"""Where episodes run: this process, a local process pool, or Ray tasks.

Each engine takes the episode function, the jobs (its argument tuples), a
worker count, a cluster address (Ray only) and a callback for each episode
done, and returns the results in the jobs' order, whichever finished first.
An episode whose worker process died (``kill -9``, out of memory) is played again
(``RETRIES`` rounds on a fresh pool, then alone); one still lost is ``None`` in the
results, so the episodes that finished are never lost with it. ``worker_cap`` keeps
the pool to what the machine holds.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any

#: One episode's arguments: (game or environment, level, player, seed, frames).
Job = tuple[str, int, Any, int, int]
Episode = Callable[..., dict[str, Any]]
#: Rounds of a fresh pool for the episodes a dead worker took with it (then one by one).
RETRIES = 2
#: Memory one worker process takes, bytes (a game, numba's kernels, Gymnasium: ~130 MB
#: measured; with room).
WORKER_BYTES = 300 * 2**20
#: Longest wait for a Ray cluster's port to take a connection, s (``ray.init`` alone
#: retries for minutes).
RAY_CONNECT_S = 20.0


def worker_cap(workers: int, jobs: int) -> tuple[int, str]:
    """``(workers the machine holds, why fewer than asked: '' if not)``: at most one per
    core this process may use, per ``WORKER_BYTES`` of available memory, and per job."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)
    memory = _available_memory()
    by_memory = max(1, memory // WORKER_BYTES) if memory is not None else workers
    cap = max(1, min(workers, cores, by_memory, jobs))
    if cap == workers:
        return cap, ""
    held = [f"{cores} cores"]
    if memory is not None:
        held.append(f"{memory / 2**30:.1f} GB of free memory at ~{WORKER_BYTES // 2**20} MB "
                    "a worker")
    held.append(f"{jobs} episodes")
    return cap, f"--workers {workers} capped at {cap} ({', '.join(held)})"


def _available_memory() -> int | None:
    """Bytes of memory available to new processes (MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def run_local(play: Episode, jobs: Sequence[Job], workers: int, address: str | None,
              done: Callable[[], None]) -> list[dict[str, Any] | None]:
    """A ``ProcessPoolExecutor`` of ``workers`` processes (1: in this process, no pool).

    Episodes lost to a worker that died are played again: ``RETRIES`` rounds on a fresh
    pool, then each alone (so one episode that kills its worker loses only itself);
    those still lost are ``None``.
    """
    if address is not None:
        raise ValueError("--address is for --engine ray (a Ray cluster)")
    if workers == 1:
        results: list[dict[str, Any] | None] = []
        for job in jobs:
            results.append(play(*job))
            done()
        return results
    out: dict[int, dict[str, Any]] = {}
    todo = list(range(len(jobs)))
    for _ in range(1 + RETRIES):
        if todo:
            todo = _round(play, jobs, todo, workers, out, done)
    for k in todo:
        _round(play, jobs, [k], 1, out, done)
    return [out.get(k) for k in range(len(jobs))]


def _round(play: Episode, jobs: Sequence[Job], todo: list[int], workers: int,
           out: dict[int, dict[str, Any]], done: Callable[[], None]) -> list[int]:
    """Play jobs ``todo`` on a fresh pool into ``out``; the ones a dead worker lost."""
    lost = []
    with ProcessPoolExecutor(min(workers, len(todo))) as pool:
        futures = {pool.submit(play, *jobs[k]): k for k in todo}
        for future in as_completed(futures):
            try:
                out[futures[future]] = future.result()
            except BrokenProcessPool:
                lost.append(futures[future])
                continue
            done()
    return sorted(lost)


def run_ray(play: Episode, jobs: Sequence[Job], workers: int, address: str | None,
            done: Callable[[], None]) -> list[dict[str, Any] | None]:
    """Ray tasks of one CPU each: on a local Ray instance of ``workers`` CPUs started (and
    stopped) for the run, or on the running cluster at ``address`` (``auto``, ``ray://host:10001``),
    whose nodes need ecsgoo installed; a Ray already initialised in this process is used as is.
    A cluster whose port takes no connection within ``RAY_CONNECT_S`` is a
    ConnectionError; a task whose worker died after Ray's own retries is ``None``.
    """
    try:
        import ray
    except ImportError:
        raise LookupError("--engine ray needs Ray: pip install 'ecsgoo[ray]'") from None
    started = not ray.is_initialized()
    if started:
        _connect(ray, address, workers)
    shipped = _ship_by_value(ray, jobs)
    try:
        task = ray.remote(num_cpus=1)(play)
        refs = [task.remote(*job) for job in jobs]
        order = {ref: k for k, ref in enumerate(refs)}
        out: dict[int, dict[str, Any] | None] = {}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    out[order[ref]] = ray.get(ref)
                except ray.exceptions.WorkerCrashedError:
                    out[order[ref]] = None
                    continue
                done()
        return [out[k] for k in range(len(jobs))]
    finally:
        for module in shipped:
            ray.cloudpickle.unregister_pickle_by_value(module)
        if started:
            ray.shutdown()


def _ship_by_value(ray: Any, jobs: Sequence[Job]) -> list[Any]:
    """Make Ray pickle the callable policies of ``jobs`` by value (their code, not their
    module's name): a Ray worker cannot import a test file, a script or a notebook's
    module the driver defined them in. Returns the modules so registered (to undo)."""
    modules = []
    for job in jobs:
        player = job[2]
        name = getattr(player, "__module__", None) if callable(player) else None
        module = sys.modules.get(name) if name not in (None, "__main__") else None
        if module is not None and name.split(".")[0] not in ("ecsgoo", "games") \
                and module not in modules:
            ray.cloudpickle.register_pickle_by_value(module)
            modules.append(module)
    return modules


def _connect(ray: Any, address: str | None, workers: int) -> None:
    """``ray.init``; a cluster ``address`` that takes no connection is a ConnectionError
    within ``RAY_CONNECT_S`` (``ray.init`` itself retries for minutes). ``ray.init`` runs
    in this thread: Ray sets signal handlers, and its local instance fails elsewhere."""
    if address not in (None, "auto", "local"):
        _reachable(address)
    ray.init(address=address, num_cpus=None if address else workers,
             include_dashboard=False, log_to_driver=False)


def _reachable(address: str) -> None:
    """ConnectionError unless ``host:port`` (``ray://host:port``) takes a TCP connection."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ConnectionError(f"--address {address}: expected host:port, ray://host:port "
                              "or auto")
    try:
        socket.create_connection((host, int(port)), timeout=RAY_CONNECT_S).close()
    except OSError as exc:
        raise ConnectionError(f"--address {address}: no Ray cluster there "
                              f"({exc.strerror or exc})") from None


#: The engines by name (``ecsgoo eval --engine``).
ENGINES: dict[str, Callable[..., list[dict[str, Any] | None]]] = {"local": run_local,
                                                                  "ray": run_ray}
