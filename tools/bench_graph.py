"""Benchmark the analyze stage's graph kernels against networkx.

Times ``analysis.bridges`` + ``analysis.connected_components`` (median of 5, after a
warm-up call that also compiles) and ``nx.bridges`` + ``nx.connected_components`` on
the same random multigraph (once: it takes seconds), checks that both agree, and
reports milliseconds and their ratio. Target: ecsgoo ≤ 1/100 of networkx's time.

Run: ``python tools/bench_graph.py [n] [m]``
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import networkx as nx
import numpy as np

from ecsgoo import analysis


def random_graph(n: int, m: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``m`` edges on ``n`` vertices: a random forest plus random extra edges.

    The forest is a random tree with 0.1 % of its links left out; the random extras
    usually join its pieces again and close cycles through most of it, so the bridges
    left are mostly links to low-degree vertices. Parallel edges and self-loops occur.
    """
    rng = np.random.default_rng(seed)
    child = np.arange(1, n)
    child = child[rng.random(n - 1) >= 0.001]
    parent = rng.integers(0, child)  # parent < child: a forest
    extra = max(m - len(child), 0)
    a = np.concatenate([parent, rng.integers(0, n, extra)])
    b = np.concatenate([child, rng.integers(0, n, extra)])
    order = rng.permutation(len(a))[:m]
    return a[order], b[order]


def _ecsgoo_ms(n: int, a: np.ndarray, b: np.ndarray, repeats: int = 5) -> tuple[float, tuple]:
    """Median wall time of one bridges + components pass, in ms, and its result."""
    result = (analysis.bridges(n, a, b), analysis.connected_components(n, a, b))  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = (analysis.bridges(n, a, b), analysis.connected_components(n, a, b))
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), result


def _networkx_ms(n: int, a: np.ndarray, b: np.ndarray) -> tuple[float, tuple]:
    """Wall time of nx.bridges + nx.connected_components, in ms (graph building excluded)."""
    graph = nx.MultiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(zip(a.tolist(), b.tolist(), strict=True))
    start = time.perf_counter()
    found = list(nx.bridges(graph))
    components = list(nx.connected_components(graph))
    return (time.perf_counter() - start) * 1e3, (found, components)


def bench_graph(n: int = 100_000, m: int = 300_000, seed: int = 0) -> dict:
    """Time ecsgoo and networkx on the same graph; raise AssertionError if they disagree."""
    a, b = random_graph(n, m, seed)
    ecsgoo_ms, (mask, labels) = _ecsgoo_ms(n, a, b)
    networkx_ms, (nx_bridges, nx_components) = _networkx_ms(n, a, b)
    ours = {frozenset((int(u), int(v))) for u, v in zip(a[mask], b[mask], strict=True)}
    assert ours == {frozenset(e) for e in nx_bridges}, "bridges disagree with networkx"
    assert int(labels.max(initial=-1)) + 1 == len(nx_components), "component counts disagree"
    for component in nx_components:
        members = np.fromiter(component, np.int64)
        assert (labels[members] == labels[members[0]]).all(), "components disagree"
    return {
        "n": n,
        "m": m,
        "bridges": int(mask.sum()),
        "components": len(nx_components),
        "ecsgoo_ms": round(ecsgoo_ms, 3),
        "networkx_ms": round(networkx_ms, 1),
        "ratio": round(ecsgoo_ms / networkx_ms, 5),
    }


if __name__ == "__main__":
    sizes = [int(arg) for arg in sys.argv[1:3]]
    print(json.dumps(bench_graph(*sizes)))
