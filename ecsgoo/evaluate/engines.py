"""Where episodes run: this process, a local process pool, or Ray tasks.

Each engine takes the episode function, the jobs (its argument tuples), a
worker count, a cluster address (Ray only) and a callback for each episode
done, and returns the results in the jobs' order, whichever finished first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

#: One episode's arguments: (game or environment, level, player, seed, frames).
Job = tuple[str, int, Any, int, int]
Episode = Callable[..., dict[str, Any]]


def run_local(play: Episode, jobs: Sequence[Job], workers: int, address: str | None,
              done: Callable[[], None]) -> list[dict[str, Any]]:
    """A ``ProcessPoolExecutor`` of ``workers`` processes (1: in this process, no pool)."""
    if address is not None:
        raise ValueError("--address is for --engine ray (a Ray cluster)")
    if workers == 1:
        results = []
        for job in jobs:
            results.append(play(*job))
            done()
        return results
    out: dict[int, dict[str, Any]] = {}
    with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
        futures = {pool.submit(play, *job): k for k, job in enumerate(jobs)}
        for future in as_completed(futures):
            out[futures[future]] = future.result()
            done()
    return [out[k] for k in range(len(jobs))]


def run_ray(play: Episode, jobs: Sequence[Job], workers: int, address: str | None,
            done: Callable[[], None]) -> list[dict[str, Any]]:
    """Ray tasks of one CPU each: on a local Ray instance of ``workers`` CPUs started (and
    stopped) for the run, or on the running cluster at ``address`` (``auto``, ``ray://host:10001``),
    whose nodes need ecsgoo installed; a Ray already initialised in this process is used as is.
    """
    try:
        import ray
    except ImportError:
        raise LookupError("--engine ray needs Ray: pip install 'ecsgoo[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=None if address else workers,
                 include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(num_cpus=1)(play)
        refs = [task.remote(*job) for job in jobs]
        order = {ref: k for k, ref in enumerate(refs)}
        out: dict[int, dict[str, Any]] = {}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                out[order[ref]] = ray.get(ref)
                done()
        return [out[k] for k in range(len(jobs))]
    finally:
        if started:
            ray.shutdown()


#: The engines by name (``ecsgoo eval --engine``).
ENGINES: dict[str, Callable[..., list[dict[str, Any]]]] = {"local": run_local, "ray": run_ray}
