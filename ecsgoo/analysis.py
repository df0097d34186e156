"""Structural analysis of a spring graph: connectivity, bridges and their danger ranking.

Vertices are particles ``0 .. n-1``, edges are springs ``a[i] -- b[i]``. Edges may
repeat (a doubled link) and may be self-loops. Everything is O(V + E) (union–find is
O(E α(V))); the ``analyze`` stage calls these every frame.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ecsgoo.kernels.graph import bridge_mask, component_labels

__all__ = ["bridges", "connected_components", "danger_order", "slack"]

ArrayLike = npt.ArrayLike

# The kernels index with int32 to halve their memory traffic.
_INT32_LIMIT = 2**31


def _index_array(values: ArrayLike, name: str) -> np.ndarray:
    """``values`` as a contiguous 1-D int64 array, or a ValueError naming ``name``."""
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        # np.asarray([]) is float64: an empty list is still a valid edge list.
        return np.zeros(0, np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integers, got dtype {arr.dtype}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def _edges(n: int, a: ArrayLike, b: ArrayLike) -> tuple[int, np.ndarray, np.ndarray]:
    """Validated ``(n, a, b)``: same-length int64 end points, every one in ``[0, n)``."""
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 0 <= n < _INT32_LIMIT:
        raise ValueError(f"n must be a non-negative integer below 2**31, got {n!r}")
    a_arr = _index_array(a, "a")
    b_arr = _index_array(b, "b")
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"a and b must have the same length, got {a_arr.size} and {b_arr.size}")
    if a_arr.size >= _INT32_LIMIT:
        raise ValueError(f"at most 2**31 - 1 edges are supported, got {a_arr.size}")
    for name, arr in (("a", a_arr), ("b", b_arr)):
        if arr.size and (arr.min() < 0 or arr.max() >= n):
            bad = int(np.flatnonzero((arr < 0) | (arr >= n))[0])
            raise ValueError(f"{name}[{bad}] = {arr[bad]} is not a vertex in [0, {n})")
    return int(n), a_arr, b_arr


def connected_components(n: int, a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Component label of each of the ``n`` vertices, shape (n,), int64.

    Union–find with path compression and union by rank. Labels are 0, 1, 2, … in
    increasing order of each component's smallest vertex (so vertex 0 is in
    component 0), independent of edge order. An isolated vertex is its own component.
    """
    n, a_arr, b_arr = _edges(n, a, b)
    return component_labels(n, a_arr, b_arr)


def bridges(n: int, a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Bool mask over the edges ``(a[i], b[i])``: True where removing that edge splits a component.

    Iterative Tarjan low-link search, O(V + E). A doubled link (two edges with the same
    end points) is not a bridge, nor is a self-loop.
    """
    n, a_arr, b_arr = _edges(n, a, b)
    return bridge_mask(n, a_arr, b_arr)


def slack(stretch: ArrayLike, max_stretch: ArrayLike) -> np.ndarray:
    """How far each spring is from breaking: ``(max_stretch - stretch) / max_stretch``.

    ``stretch`` is the current length over rest length (dimensionless, 1 = at rest),
    ``max_stretch`` the ratio at which it breaks; ``inf`` (unbreakable) gives slack 1.0.
    Zero or negative slack means at or over the limit.
    """
    stretch_arr = np.asarray(stretch, dtype=np.float64)
    limit = np.asarray(max_stretch, dtype=np.float64)
    if stretch_arr.shape != limit.shape or stretch_arr.ndim != 1:
        raise ValueError(
            "stretch and max_stretch must be 1-D and the same length, "
            f"got shapes {stretch_arr.shape} and {limit.shape}"
        )
    if np.any(np.isnan(limit) | (limit <= 0.0)):
        bad = int(np.flatnonzero(np.isnan(limit) | (limit <= 0.0))[0])
        raise ValueError(f"max_stretch[{bad}] = {limit[bad]} must be positive (or inf)")
    finite = np.isfinite(limit)
    # Dividing by inf would give nan for inf stretch and hides intent: set it explicitly.
    # A tiny limit (5e-324) overflows to -inf slack: as far over as it gets, no warning.
    with np.errstate(over="ignore"):
        return np.where(finite, (limit - stretch_arr) / np.where(finite, limit, 1.0), 1.0)


def danger_order(
    stretch: ArrayLike, max_stretch: ArrayLike, candidates: ArrayLike | Sequence[int]
) -> np.ndarray:
    """The candidate edge indices, most dangerous first (least slack first), int64.

    ``candidates`` is either edge indices or a bool mask over the edges (e.g. the
    result of :func:`bridges`). Ordered by :func:`slack` ascending; ties put breakable
    springs before unbreakable ones (``max_stretch = inf``), then keep the candidates'
    own order (stable), so the ranking is deterministic.
    """
    values = slack(stretch, max_stretch)
    cand = np.asarray(candidates)
    if cand.dtype == np.bool_:
        if cand.shape != values.shape:
            raise ValueError(f"a bool candidates mask must have shape {values.shape}")
        cand = np.flatnonzero(cand)
    cand = _index_array(cand, "candidates")
    if cand.size and (cand.min() < 0 or cand.max() >= values.size):
        raise ValueError(f"candidates must be edge indices in [0, {values.size})")
    unbreakable = ~np.isfinite(np.asarray(max_stretch, dtype=np.float64))[cand]
    # np.lexsort sorts by the last key first and is stable.
    return cand[np.lexsort((unbreakable, values[cand]))]
