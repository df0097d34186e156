"""Chains: the springs of a rope, a strand or a chain solved together, exactly.

Gauss–Seidel (``distance.sweep_springs``) corrects one spring at a time, so a heavy
particle hanging from light ones is pulled up by a sliver of its error a pass: a
chain of alternating 1 and 1000 masses stretched by a quarter and broke (measured,
``tests/unit/physics/test_mass_ratios.py``). A chain's springs form a path, and the
XPBD step of a path, ``(J W Jᵀ + α̃) Δλ = −C − α̃ λ``, is a tridiagonal system: one
forward and one backward pass (Thomas' algorithm) solve it exactly, at any mass ratio,
for about three spring corrections' work (the direct solve of an acyclic constraint
graph, Baraff 1996, on its simplest shape). ``find_chains`` picks the paths out of the
packed springs once a frame; ``solve_chains`` runs in Project's rounds beside the
sweep, which keeps the springs of everything else (soft bodies, goo structures: their
particles have more than two springs).

A chain is a maximal run of two springs or more through particles that have exactly two
springs each; it ends at particles with one spring or three and more. A loop (a ring of
such particles, alone or hung on one other) is no path and stays in the sweep, and so
does a lone spring. A fixed particle inside a chain (an anchor) couples nothing: its
two sides solve apart in the same system.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit


@njit(cache=True)
def find_chains(ends, n, off, rows, cends):
    """The chains of the packed springs ``ends`` (a, b rows of ``n`` particles; −1: broken
    or already taken) into ``off`` (CSR offsets, one more than the chains), ``rows`` (their
    packed rows, in path order) and ``cends`` (those rows' ends); the rows taken are set to
    −1 in ``ends`` so that the sweep leaves them. Returns the number of chains."""
    m = ends.shape[0]
    degree = np.zeros(n, dtype=np.int64)
    adj = np.full((n, 2), -1, dtype=np.int64)  # a two-spring particle's springs
    for k in range(m):
        for e in range(2):
            p = ends[k, e]
            if p < 0:
                continue
            if degree[p] < 2:
                adj[p, degree[p]] = k
            degree[p] += 1
    taken = np.zeros(m, dtype=np.bool_)
    chains, r = 0, 0
    off[0] = 0
    for k in range(m):
        for e in range(2):
            p = ends[k, e]
            if p < 0 or taken[k] or degree[p] == 2:
                continue
            length, last = _walk(k, p, ends, degree, adj, taken, rows, r)
            if length >= 2 and last != p:
                for t in range(r, r + length):
                    cends[t, 0], cends[t, 1] = ends[rows[t], 0], ends[rows[t], 1]
                r += length
                chains += 1
                off[chains] = r
            else:  # a lone spring, or a loop back to where it began: the sweep's
                for t in range(r, r + length):
                    taken[rows[t]] = False
    for t in range(r):
        ends[rows[t], 0] = ends[rows[t], 1] = -1
    return chains


@njit(cache=True)
def _walk(k, p, ends, degree, adj, taken, rows, r):
    """Follow the path from spring ``k`` away from its end ``p`` through two-spring
    particles, writing its rows from ``rows[r]``; returns its length and the particle
    it ends at."""
    length = 0
    while True:
        taken[k] = True
        rows[r + length] = k
        length += 1
        q = ends[k, 1] if ends[k, 0] == p else ends[k, 0]  # the far end
        if degree[q] != 2:
            return length, q
        nxt = adj[q, 0] if adj[q, 0] != k else adj[q, 1]
        if taken[nxt]:
            return length, q
        k, p = nxt, q


@njit(cache=True)
def solve_chains(chains, off, rows, cends, vals, pos, w, h, scratch):
    """One exact XPBD step of every chain (``find_chains``): its springs' ``Δλ`` from the
    tridiagonal system at the current positions, then the moves ``Δx = W Jᵀ Δλ``.
    ``vals``: the packed (rest, compliance, lam) rows; ``scratch``: (≥ longest chain, 6)."""
    inv_h2 = 1.0 / (h * h)
    for c in range(chains):
        lo, hi = off[c], off[c + 1]
        _system(lo, hi, rows, cends, vals, pos, w, inv_h2, scratch)
        _thomas(hi - lo, scratch)
        for t in range(lo, hi):
            s = t - lo
            dl = scratch[s, 5]
            vals[rows[t], 2] += dl
            a, b = cends[t, 0], cends[t, 1]
            nx, ny = scratch[s, 0], scratch[s, 1]
            pos[a, 0] -= w[a] * dl * nx
            pos[a, 1] -= w[a] * dl * ny
            pos[b, 0] += w[b] * dl * nx
            pos[b, 1] += w[b] * dl * ny


@njit(cache=True, inline="always")
def _system(lo, hi, rows, cends, vals, pos, w, inv_h2, out):
    """The chain's tridiagonal system into ``out`` rows: normal (0, 1), diagonal (2),
    coupling with the next spring (3), right-hand side (4). A spring of coincident ends
    or of two fixed ends is a row of its own that does not move (Δλ = 0)."""
    for t in range(lo, hi):
        s = t - lo
        a, b = cends[t, 0], cends[t, 1]
        dx, dy = pos[b, 0] - pos[a, 0], pos[b, 1] - pos[a, 1]
        d = math.sqrt(dx * dx + dy * dy)
        k = rows[t]
        alpha = vals[k, 1] * inv_h2
        diag = w[a] + w[b] + alpha
        if d < 1e-12 or diag == 0.0:
            out[s, 0] = out[s, 1] = out[s, 4] = 0.0
            out[s, 2] = 1.0
        else:
            out[s, 0], out[s, 1] = dx / d, dy / d
            out[s, 2] = diag
            out[s, 4] = vals[k, 0] - d - alpha * vals[k, 2]
        out[s, 3] = 0.0
    for t in range(lo, hi - 1):  # the particle each spring shares with the next
        s = t - lo
        a, b, na, nb = cends[t, 0], cends[t, 1], cends[t + 1, 0], cends[t + 1, 1]
        p = b if (b == na or b == nb) else a
        sign = (1.0 if p == b else -1.0) * (1.0 if p == nb else -1.0)
        dot = out[s, 0] * out[s + 1, 0] + out[s, 1] * out[s + 1, 1]
        out[s, 3] = w[p] * sign * dot


@njit(cache=True, inline="always")
def _thomas(m, out):
    """Solve the symmetric tridiagonal system of ``_system`` (diagonal 2, coupling 3,
    right-hand side 4) into column 5; it is positive definite (``J W Jᵀ`` of independent
    rows plus compliance), so no pivoting is needed."""
    # forward: column 2 becomes the pivots, 4 the reduced right-hand side
    for s in range(1, m):
        f = out[s - 1, 3] / out[s - 1, 2]
        out[s, 2] -= f * out[s - 1, 3]
        out[s, 4] -= f * out[s - 1, 4]
    out[m - 1, 5] = out[m - 1, 4] / out[m - 1, 2]
    for s in range(m - 2, -1, -1):
        out[s, 5] = (out[s, 4] - out[s, 3] * out[s + 1, 5]) / out[s, 2]


def chain_room(springs: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Empty ``find_chains`` outputs for ``springs`` packed springs, and the scratch."""
    return (np.zeros(springs + 1, dtype=np.int64), np.zeros(springs, dtype=np.int64),
            np.zeros((springs, 2), dtype=np.int64), np.zeros((max(springs, 1), 6)))
