"""Ropes for drawing: which springs form a rope (found once per structure) and the smooth
curve drawn through them (every frame).

A rope is a non-zero collision group whose springs form simple chains (no node
with more than two of them), as ``bodies.rope`` builds; a candy tied to a
rope's end by a single other link continues it. It is drawn as quadratic
Bézier pieces from link midpoint to link midpoint, the nodes as control
points, so a rope of a few links still looks smooth; it breaks where a link does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .gl import CAPSULE_COLUMNS
from .shapes import segments

#: Segments per Bézier piece (between two link midpoints).
BEZIER_SAMPLES = 6


@dataclass
class Ropes:
    """The rope links of a structure, chain after chain, each chain in order along it.

    ``a``, ``b``: the link's particle rows, ``b`` of one link being ``a`` of the
    next; ``row``: its spring row; ``chain``: which chain it is in; ``end``: a
    bool per particle, true at the two ends of each chain; ``nodes``: the
    particles of the ropes themselves (not a tied-on candy).
    """

    a: np.ndarray
    b: np.ndarray
    row: np.ndarray
    chain: np.ndarray
    end: np.ndarray
    nodes: np.ndarray


def find_ropes(n: int, a: np.ndarray, b: np.ndarray, group: np.ndarray,
               link: np.ndarray) -> Ropes:
    """The chains of springs inside one non-zero group, no node with more than two.

    ``n`` particles of collision ``group``; springs from ``a`` to ``b`` (particle
    rows); ``link`` marks the springs that may be rope (not inside a body).
    """
    cand = link & (group[a] == group[b]) & (group[a] != 0)
    rows = np.flatnonzero(cand)
    deg = np.bincount(np.concatenate([a[rows], b[rows]]), minlength=n)
    bad = np.unique(group[deg > 2])
    rows = rows[~np.isin(group[a[rows]], bad)]
    counts = np.bincount(group[a[rows]]) if rows.size else np.zeros(1, np.int64)
    rows = rows[counts[group[a[rows]]] >= 3]
    adj: dict[int, list[tuple[int, int]]] = {}
    for r in rows.tolist():
        adj.setdefault(int(a[r]), []).append((int(b[r]), r))
        adj.setdefault(int(b[r]), []).append((int(a[r]), r))
    chains = _walk_chains(adj, _end_links(a, b, rows, link))
    ea, eb, er, ec = [], [], [], []
    for c, chain in enumerate(chains):
        for u, v, r in chain:
            ea.append(u), eb.append(v), er.append(r), ec.append(c)
    ea, eb = np.array(ea, np.int64), np.array(eb, np.int64)
    nodes = [u for u in np.concatenate([ea, eb]).tolist() if u in adj]
    end = np.zeros(n, bool)
    end[[ch[0][0] for ch in chains] + [ch[-1][1] for ch in chains]] = True
    return Ropes(ea, eb, np.array(er, np.int64), np.array(ec, np.int64), end,
                 np.array(nodes, np.int64))


def _end_links(a: np.ndarray, b: np.ndarray, rows: np.ndarray,
               link: np.ndarray) -> dict[int, tuple[int, int]]:
    """A rope end tied by exactly one other link (a candy): that link continues the rope."""
    nodes = set(a[rows].tolist()) | set(b[rows].tolist())
    other = np.flatnonzero(link)
    other = other[~np.isin(other, rows)]
    found: dict[int, list[tuple[int, int]]] = {}
    for r in other.tolist():
        for u, v in ((int(a[r]), int(b[r])), (int(b[r]), int(a[r]))):
            if u in nodes and v not in nodes:
                found.setdefault(u, []).append((v, r))
    return {u: links[0] for u, links in found.items() if len(links) == 1}


def _walk_chains(adj: dict[int, list[tuple[int, int]]],
                 extra: dict[int, tuple[int, int]]) -> list[list[tuple[int, int, int]]]:
    """Ordered chains ``[(u, v, spring_row), ...]`` from end nodes (cycles are left out)."""
    seen: set[int] = set()
    chains = []
    for start in sorted(u for u, nb in adj.items() if len(nb) == 1):
        if start in seen:
            continue
        chain, prev, u = [], -1, start
        seen.add(u)
        while True:
            nxt = [(v, r) for v, r in adj[u] if v != prev]
            if not nxt:
                break
            v, r = nxt[0]
            chain.append((u, v, r))
            seen.add(v)
            prev, u = u, v
        if start in extra:
            v, r = extra[start]
            chain.insert(0, (v, start, r))
        if u in extra and u != start:
            v, r = extra[u]
            chain.append((u, v, r))
        chains.append(chain)
    return chains


def rope_curves(pos: np.ndarray, radius: np.ndarray, ropes: Ropes, live: np.ndarray,
                color: np.ndarray) -> np.ndarray:
    """Capsule rows of the ropes: Bézier pieces between link midpoints, nodes as control points.

    ``pos`` (world px) and ``radius`` (world px) per particle; ``live`` per rope
    link: drawn (unbroken and visible); ``color`` per rope link (float RGBA).
    A rope is as thick as 0.85 × its thinner node's radius, 1.5 to 5 px either side.
    """
    ea, eb, chain = ropes.a, ropes.b, ropes.chain
    if len(ea) == 0:
        return np.zeros((0, CAPSULE_COLUMNS), np.float32)
    same = chain[1:] == chain[:-1]
    joint = np.zeros(len(ea), bool)  # link k continues smoothly into link k + 1
    joint[:-1] = same & live[:-1] & live[1:]
    has_prev = np.zeros(len(ea), bool)
    has_prev[1:] = joint[:-1]
    p0, p1 = pos[ea], pos[eb]
    mid = 0.5 * (p0 + p1)
    hw = np.clip(0.85 * np.minimum(radius[ea], radius[eb]), 1.5, 5.0)
    heads = live & ~has_prev
    tails = live & ~joint
    parts = [segments(p0[heads], mid[heads], hw[heads], color[heads]),
             segments(mid[tails], p1[tails], hw[tails], color[tails])]
    j = np.flatnonzero(joint)
    if j.size:
        t = np.linspace(0.0, 1.0, BEZIER_SAMPLES + 1)[None, :, None]
        s0, c, s1 = mid[j][:, None], p1[j][:, None], mid[j + 1][:, None]
        curve = (1 - t) ** 2 * s0 + 2 * (1 - t) * t * c + t ** 2 * s1
        k = BEZIER_SAMPLES
        parts.append(segments(curve[:, :-1].reshape(-1, 2), curve[:, 1:].reshape(-1, 2),
                              np.repeat(hw[j], k), np.repeat(color[j], k, axis=0)))
    return np.concatenate(parts)
