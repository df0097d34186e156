"""ecsgoo.analysis: components and bridges against networkx and brute force; danger order."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from ecsgoo import analysis


@st.composite
def multigraphs(draw, max_n: int = 12, max_m: int = 30):
    """Small multigraphs: parallel edges, self-loops and isolated vertices come up often."""
    n = draw(st.integers(1, max_n))
    vertex = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(vertex, vertex), max_size=max_m))
    a = np.array([u for u, _ in edges], dtype=np.int64)
    b = np.array([v for _, v in edges], dtype=np.int64)
    return n, a, b


def random_multigraph(rng: np.random.Generator, n: int, m: int):
    """A sparse random multigraph: a random forest plus extra edges (bridges guaranteed)."""
    child = rng.permutation(np.arange(1, n))[: n // 2]
    parent = rng.integers(0, child)  # parent < child: a forest
    extra_a = rng.integers(0, n, m)
    extra_b = rng.integers(0, n, m)
    extra_b[: m // 10] = extra_a[: m // 10]  # some self-loops
    dup = rng.integers(0, len(child), m // 10)  # some doubled tree links
    a = np.concatenate([parent, extra_a, parent[dup]])
    b = np.concatenate([child, extra_b, child[dup]])
    order = rng.permutation(len(a))
    return a[order], b[order]


def nx_multigraph(n: int, a: np.ndarray, b: np.ndarray) -> nx.MultiGraph:
    graph = nx.MultiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(zip(a.tolist(), b.tolist(), strict=True))
    return graph


def partition(labels: np.ndarray) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for v, label in enumerate(labels.tolist()):
        groups.setdefault(label, set()).add(v)
    return {frozenset(g) for g in groups.values()}


def bridge_pairs(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> set[frozenset[int]]:
    return {frozenset((int(u), int(v))) for u, v in zip(a[mask], b[mask], strict=True)}


# --- connected components


@given(multigraphs())
@settings(max_examples=200, deadline=None)
def test_components_match_naive_and_networkx(graph):
    n, a, b = graph
    labels = analysis.connected_components(n, a, b)
    assert labels.dtype == np.int64 and labels.shape == (n,)
    np.testing.assert_array_equal(labels, naive.components_naive(n, a, b))
    expected = {frozenset(c) for c in nx.connected_components(nx_multigraph(n, a, b))}
    assert partition(labels) == expected


@pytest.mark.parametrize("seed", range(5))
def test_components_random_larger_graphs(seed):
    rng = np.random.default_rng(seed)
    n = 300
    a, b = random_multigraph(rng, n, 60)
    labels = analysis.connected_components(n, a, b)
    np.testing.assert_array_equal(labels, naive.components_naive(n, a, b))


def test_component_labels_are_canonical():
    """Numbered by smallest vertex, whatever the edge order."""
    a, b = [4, 2, 0], [3, 1, 5]
    expected = [0, 1, 1, 2, 2, 0, 3]
    np.testing.assert_array_equal(analysis.connected_components(7, a, b), expected)
    np.testing.assert_array_equal(analysis.connected_components(7, a[::-1], b[::-1]), expected)
    np.testing.assert_array_equal(analysis.connected_components(7, b, a), expected)


def test_components_without_edges():
    np.testing.assert_array_equal(analysis.connected_components(4, [], []), [0, 1, 2, 3])
    assert analysis.connected_components(0, [], []).shape == (0,)


# --- bridges


@given(multigraphs())
@settings(max_examples=300, deadline=None)
def test_bridges_match_brute_force_and_networkx(graph):
    n, a, b = graph
    mask = analysis.bridges(n, a, b)
    assert mask.dtype == np.bool_ and mask.shape == a.shape
    np.testing.assert_array_equal(mask, naive.bridges_naive(n, a, b))
    expected = {frozenset(e) for e in nx.bridges(nx_multigraph(n, a, b))}
    assert bridge_pairs(a, b, mask) == expected


@pytest.mark.parametrize("seed", range(5))
def test_bridges_random_larger_graphs(seed):
    rng = np.random.default_rng(seed)
    n = 300
    a, b = random_multigraph(rng, n, 60)
    mask = analysis.bridges(n, a, b)
    assert mask.any() and not mask.all()
    np.testing.assert_array_equal(mask, naive.bridges_naive(n, a, b))
    expected = {frozenset(e) for e in nx.bridges(nx_multigraph(n, a, b))}
    assert bridge_pairs(a, b, mask) == expected


@pytest.mark.parametrize(
    ("n", "a", "b", "expected"),
    [
        (2, [0], [1], [True]),
        (2, [0, 1], [1, 0], [False, False]),  # a doubled link is not a bridge
        (3, [0, 1, 2], [1, 2, 0], [False, False, False]),  # triangle
        (2, [0, 0, 1], [0, 1, 1], [False, True, False]),  # self-loops never are bridges
        (4, [0, 2], [1, 3], [True, True]),  # two components
        (5, [0, 1, 1, 2, 3], [1, 2, 2, 3, 4], [True, False, False, True, True]),
        # two triangles joined by one link: only the link is a bridge
        (6, [0, 1, 2, 2, 3, 4, 5], [1, 2, 0, 3, 4, 5, 3], [0, 0, 0, 1, 0, 0, 0]),
        (3, [], [], []),
    ],
)
def test_bridges_small_cases(n, a, b, expected):
    np.testing.assert_array_equal(analysis.bridges(n, a, b), np.array(expected, dtype=bool))


def test_long_chain_all_bridges():
    """A 200,000-node path: deep enough to overflow any recursive DFS."""
    n = 200_000
    a = np.arange(n - 1)
    mask = analysis.bridges(n, a, a + 1)
    assert mask.all()
    assert not analysis.connected_components(n, a, a + 1).any()
    # Closing the chain into a ring makes every link part of a cycle.
    ring_a = np.append(a, n - 1)
    ring_b = np.append(a + 1, 0)
    assert not analysis.bridges(n, ring_a, ring_b).any()


def test_long_chain_shuffled():
    rng = np.random.default_rng(1)
    n = 200_000
    order = rng.permutation(n)
    a, b = order[:-1], order[1:]
    flip = rng.random(n - 1) < 0.5
    a, b = np.where(flip, b, a), np.where(flip, a, b)
    assert analysis.bridges(n, a, b).all()


# --- validation


@pytest.mark.parametrize("function", [analysis.connected_components, analysis.bridges])
@pytest.mark.parametrize(
    ("n", "a", "b", "message"),
    [
        (3, [0, 1], [1], "same length"),
        (3, [0, 3], [1, 2], r"a\[1\] = 3"),
        (3, [0, 1], [-1, 2], r"b\[0\] = -1"),
        (3, [0.0, 1.0], [1, 2], "integers"),
        (3, [[0, 1]], [[1, 2]], "one-dimensional"),
        (-1, [], [], "non-negative"),
        (2.0, [0], [1], "non-negative integer"),
    ],
)
def test_invalid_edges(function, n, a, b, message):
    with pytest.raises(ValueError, match=message):
        function(n, a, b)


def test_accepts_lists_and_other_int_dtypes():
    a = np.array([0, 1], dtype=np.int32)
    b = np.array([1, 2], dtype=np.uint16)
    np.testing.assert_array_equal(analysis.bridges(3, a, b), [True, True])
    np.testing.assert_array_equal(analysis.bridges(np.int64(3), [0, 1], [1, 2]), [True, True])


# --- danger order


def test_slack():
    stretch = np.array([1.0, 2.0, 2.5, 3.0])
    limit = np.array([2.0, 2.0, 2.0, np.inf])
    np.testing.assert_allclose(analysis.slack(stretch, limit), [0.5, 0.0, -0.25, 1.0])


def test_danger_order_least_slack_first():
    stretch = [1.0, 1.9, 1.2, 1.5, 1.0]
    limit = [2.0, 2.0, np.inf, 3.0, 2.0]
    # slack: 0.5, 0.05, 1.0 (unbreakable), 0.5, 0.5
    order = analysis.danger_order(stretch, limit, [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(order, [1, 0, 3, 4, 2])
    assert order.dtype == np.int64


def test_danger_order_subset_mask_and_stability():
    stretch = np.array([1.0, 1.9, 1.0, 1.0])
    limit = np.array([2.0, 2.0, 2.0, 2.0])
    np.testing.assert_array_equal(analysis.danger_order(stretch, limit, [3, 0, 1]), [1, 3, 0])
    mask = np.array([True, True, False, True])
    np.testing.assert_array_equal(analysis.danger_order(stretch, limit, mask), [1, 0, 3])
    assert analysis.danger_order(stretch, limit, []).shape == (0,)


def test_danger_order_unbreakable_after_ties():
    """A collapsed breakable spring (slack 1) still ranks above an unbreakable one."""
    order = analysis.danger_order([1.0, 0.0], [np.inf, 2.0], [0, 1])
    np.testing.assert_array_equal(order, [1, 0])


@pytest.mark.parametrize(
    ("stretch", "limit", "candidates", "message"),
    [
        ([1.0], [2.0, 2.0], [0], "same length"),
        ([1.0], [0.0], [0], "positive"),
        ([1.0], [np.nan], [0], "positive"),
        ([1.0, 1.0], [2.0, 2.0], [2], "edge indices"),
        ([1.0, 1.0], [2.0, 2.0], [True], "mask"),
    ],
)
def test_danger_order_invalid(stretch, limit, candidates, message):
    with pytest.raises(ValueError, match=message):
        analysis.danger_order(stretch, limit, candidates)
