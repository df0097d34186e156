"""Chains: the springs of a rope, a strand or a chain (and a tether that ties one to a
body) solved together, exactly.

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

A chain is a maximal run of two links or more (springs, and tethers: a spring from a
particle to a body) through particles that have exactly two links each; it ends at
particles with one link or three and more, or at a tether's body (a crate on a rope:
``tests/unit/physics/test_mass_ratios.py``). A body is a chain's end only: what else
holds it (joints, contacts, another rope) is solved in turn, as everything else is. A
loop (a ring of such particles, alone or hung on one other, or a rope from a body back
to it) is no path and stays in the sweeps, and so does a lone link. A fixed particle
inside a chain (an anchor) couples nothing: its two sides solve apart in one system.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

from .tethers import _anchor, _inverse, _shift

#: an empty slot of a particle's two links (``find_chains``)
_NONE = 1 << 62


@njit(cache=True)
def find_chains(ends, n, tp, tside, tbody, off, rows, cends, tskip):
    """The chains of the packed springs ``ends`` (a, b rows of ``n`` particles; −1: broken)
    and the tethers (``tp``: a tether's particle, −1 if it is broken or has no particle
    end or two; ``tside``: 0 if that is its a end, else 1; ``tbody``: its body) into
    ``off`` (CSR offsets), ``rows`` (their links in path order: a packed spring row, or
    −1 − t for tether ``t``) and ``cends`` (each link's particle ends, −1 for a body's).
    The springs taken are set to −1 in ``ends`` and the tethers taken flagged in
    ``tskip``, so that the sweeps leave them. Returns the number of chains."""
    m, nt = ends.shape[0], tp.shape[0]
    degree = np.zeros(n, dtype=np.int64)
    adj = np.full((n, 2), _NONE, dtype=np.int64)  # a two-link particle's links
    for k in range(m):
        for e in range(2):
            _link(ends[k, e], k, degree, adj)
    for t in range(nt):
        _link(tp[t], -1 - t, degree, adj)
    taken = np.zeros(m + nt, dtype=np.bool_)  # springs, then tethers
    chains, r = 0, 0
    off[0] = 0
    for q in range(m + nt):  # from each end of a path: a spring's or a tether's body
        for e in range(2):
            if q < m:
                code, p = q, ends[q, e]
                if p < 0 or degree[p] == 2:
                    continue
            else:
                code, p = m - 1 - q, -1
                if e == 1 or tp[q - m] < 0:
                    continue
            if taken[q]:
                continue
            length, last = _walk(code, p, ends, tp, degree, adj, taken, rows, r)
            if length >= 2 and (p < 0 or last != p) and not _same_body(rows, r, length,
                                                                        tbody):
                for t in range(r, r + length):
                    _ends_of(rows[t], ends, tp, tside, cends, t)
                r += length
                chains += 1
                off[chains] = r
            else:  # a lone link, or a loop back to where it began: the sweeps'
                for t in range(r, r + length):
                    taken[_slot(rows[t], m)] = False
    for t in range(r):
        k = rows[t]
        if k >= 0:
            ends[k, 0] = ends[k, 1] = -1
        else:
            tskip[-1 - k] = True
    return chains


@njit(cache=True, inline="always")
def _link(p, code, degree, adj):
    """Count link ``code`` at particle ``p`` (none if ``p`` < 0)."""
    if p >= 0:
        if degree[p] < 2:
            adj[p, degree[p]] = code
        degree[p] += 1


@njit(cache=True, inline="always")
def _slot(code, m):
    """A link's index in ``taken``: springs first, then tethers."""
    return code if code >= 0 else m - 1 - code


@njit(cache=True)
def _walk(code, p, ends, tp, degree, adj, taken, rows, r):
    """Follow the path from link ``code`` away from its end ``p`` (−1: a tether's body)
    through two-link particles, writing its links from ``rows[r]``; returns its length
    and the particle it ends at (−1: a body)."""
    m = ends.shape[0]
    length = 0
    while True:
        taken[_slot(code, m)] = True
        rows[r + length] = code
        length += 1
        if code >= 0:  # a spring: its far end
            q = ends[code, 1] if ends[code, 0] == p else ends[code, 0]
        else:  # a tether: its particle from the body, its body from the particle
            q = tp[-1 - code] if p < 0 else -1
        if q < 0 or degree[q] != 2:
            return length, q
        nxt = adj[q, 0] if adj[q, 0] != code else adj[q, 1]
        if taken[_slot(nxt, m)]:
            return length, q
        code, p = nxt, q


@njit(cache=True, inline="always")
def _same_body(rows, r, length, tbody):
    """Whether a path starts and ends with tethers on one body (a loop through it)."""
    a, b = rows[r], rows[r + length - 1]
    return a < 0 and b < 0 and tbody[-1 - a] == tbody[-1 - b]


@njit(cache=True, inline="always")
def _ends_of(code, ends, tp, tside, cends, t):
    """Link ``code``'s particle ends into ``cends[t]`` (−1: a body's end)."""
    if code >= 0:
        cends[t, 0], cends[t, 1] = ends[code, 0], ends[code, 1]
    else:
        p = tp[-1 - code]
        cends[t, 0], cends[t, 1] = (p, -1) if tside[-1 - code] == 0 else (-1, p)


#: The tether table's columns ``solve_chains`` takes as ``tethers``, in its order.
TETHER_COLUMNS = ("a_body", "a_part", "b_body", "b_part", "la", "lb", "rest", "compliance",
                  "lam")
#: The tuple of tether columns ``solve_chains`` takes, kept with the columns dict it is of.
_TETHERS: list[Any] = [None, ()]


def tether_columns(tc: dict[str, Any]) -> tuple[Any, ...]:
    """The tether table's columns ``tc`` in ``solve_chains``' order: built again only when
    the table is another or grew (its columns all new arrays), not ~24 times a frame."""
    kept = _TETHERS[1]
    if _TETHERS[0] is not tc or not kept or kept[0] is not tc["a_body"]:
        _TETHERS[0], _TETHERS[1] = tc, tuple(tc[k] for k in TETHER_COLUMNS)
    return _TETHERS[1]


@njit(cache=True)
def solve_chains(chains, off, rows, cends, vals, pos, w, h, scratch, tethers, bpos, bangle,
                 bw, biw):
    """One exact XPBD step of every chain (``find_chains``): its links' ``Δλ`` from the
    tridiagonal system at the current positions, then the moves ``Δx = W Jᵀ Δλ`` (a body
    at a tether's end moves and turns as ``tethers.solve_tethers`` moves it).
    ``vals``: the packed springs' (rest, compliance, lam) rows; ``scratch``: (≥ longest
    chain, 10); ``tethers``: the tether table's (a_body, a_part, b_body, b_part, la, lb,
    rest, compliance, lam) arrays; ``bpos`` … ``biw``: the bodies' columns."""
    inv_h2 = 1.0 / (h * h)
    for c in range(chains):
        lo, hi = off[c], off[c + 1]
        _system(lo, hi, rows, cends, vals, pos, w, inv_h2, scratch, tethers, bpos, bangle,
                bw, biw)
        _thomas(hi - lo, scratch)
        for t in range(lo, hi):
            s = t - lo
            dl = scratch[s, 5]
            nx, ny = scratch[s, 0], scratch[s, 1]
            k = rows[t]
            if k >= 0:
                vals[k, 2] += dl
                a, b = cends[t, 0], cends[t, 1]
                pos[a, 0] -= w[a] * dl * nx
                pos[a, 1] -= w[a] * dl * ny
                pos[b, 0] += w[b] * dl * nx
                pos[b, 1] += w[b] * dl * ny
            else:
                _move_tether(-1 - k, dl, nx, ny, scratch, s, tethers, pos, w, bpos,
                             bangle, bw, biw)


@njit(cache=True, inline="always")
def _move_tether(k, dl, nx, ny, scratch, s, tethers, pos, w, bpos, bangle, bw, biw):
    a_body, a_part, b_body, b_part, _, _, _, _, lam = tethers
    lam[k] += dl
    _shift(a_body[k], a_part[k], -dl * nx, -dl * ny, scratch[s, 6], scratch[s, 7], bpos,
           bangle, bw, biw, pos, w)
    _shift(b_body[k], b_part[k], dl * nx, dl * ny, scratch[s, 8], scratch[s, 9], bpos,
           bangle, bw, biw, pos, w)


@njit(cache=True, inline="always")
def _system(lo, hi, rows, cends, vals, pos, w, inv_h2, out, tethers, bpos, bangle, bw,
            biw):
    """The chain's tridiagonal system into ``out`` rows: normal (0, 1), diagonal (2),
    coupling with the next link (3), right-hand side (4), a tether's arms (6–9). A link
    of coincident ends or of two fixed ends is a row of its own that does not move."""
    for t in range(lo, hi):
        s = t - lo
        k = rows[t]
        if k >= 0:
            a, b = cends[t, 0], cends[t, 1]
            dx, dy = pos[b, 0] - pos[a, 0], pos[b, 1] - pos[a, 1]
            d = math.sqrt(dx * dx + dy * dy)
            rest, alpha, lam, wsum = vals[k, 0], vals[k, 1] * inv_h2, vals[k, 2], w[a] + w[b]
        else:
            dx, dy, d, wsum, rest, alpha, lam = _tether_row(-1 - k, out, s, tethers, pos, w,
                                                           bpos, bangle, bw, biw, inv_h2)
        if d < 1e-12 or wsum + alpha == 0.0:
            out[s, 0] = out[s, 1] = out[s, 4] = 0.0
            out[s, 2] = 1.0
        else:
            out[s, 0], out[s, 1] = dx / d, dy / d
            out[s, 2] = wsum + alpha
            out[s, 4] = rest - d - alpha * lam
        out[s, 3] = 0.0
    for t in range(lo, hi - 1):  # the particle each link shares with the next
        s = t - lo
        a, b, na, nb = cends[t, 0], cends[t, 1], cends[t + 1, 0], cends[t + 1, 1]
        p = b if (b >= 0 and (b == na or b == nb)) else a
        sign = (1.0 if p == b else -1.0) * (1.0 if p == nb else -1.0)
        dot = out[s, 0] * out[s + 1, 0] + out[s, 1] * out[s + 1, 1]
        out[s, 3] = w[p] * sign * dot


@njit(cache=True, inline="always")
def _tether_row(k, out, s, tethers, pos, w, bpos, bangle, bw, biw, inv_h2):
    """Tether ``k``'s separation (px) and length, its ends' inverse masses along it (a
    body's with its turn: ``tethers._inverse``, as ``solve_tethers`` takes them), rest,
    α̃ and λ; its arms into ``out[s, 6:10]``."""
    a_body, a_part, b_body, b_part, la, lb, rest, compliance, lam = tethers
    ab, ap, bb, bp = a_body[k], a_part[k], b_body[k], b_part[k]
    pax, pay, rax, ray = _anchor(ab, ap, la[k, 0], la[k, 1], bpos, bangle, pos)
    pbx, pby, rbx, rby = _anchor(bb, bp, lb[k, 0], lb[k, 1], bpos, bangle, pos)
    out[s, 6], out[s, 7], out[s, 8], out[s, 9] = rax, ray, rbx, rby
    dx, dy = pbx - pax, pby - pay
    d = math.sqrt(dx * dx + dy * dy)
    nx, ny = (dx / d, dy / d) if d >= 1e-12 else (0.0, 0.0)
    wsum = (_inverse(ab, ap, rax, ray, nx, ny, bw, biw, w)
            + _inverse(bb, bp, rbx, rby, nx, ny, bw, biw, w))
    return dx, dy, d, wsum, rest[k], compliance[k] * inv_h2, lam[k]


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


def chain_room(links: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty ``find_chains`` outputs for ``links`` springs and tethers."""
    return (np.zeros(links + 1, dtype=np.int64), np.empty(links, dtype=np.int64),
            np.empty((links, 2), dtype=np.int64))


def chain_scratch(longest: int) -> np.ndarray:
    """``solve_chains``' scratch for chains of up to ``longest`` links."""
    return np.zeros((max(longest, 1), 10))
