"""Calming cut chains (the rope game's cut pieces): drag, buckling, rigid-motion-keeping
damping and skip-one bending, as previous positions.

One kernel for what ``games.rope.cut_pieces.calm`` does each frame, the same bits as its
numpy form (``tests/naive.py``): numpy's sums are its pairwise sums (``pairwise_sum``)
over one axis, and sums down the rows of an ``(n, 2)`` array one row after another.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def pairwise_sum(a, lo, n):
    """Sum of ``a[lo : lo + n]`` as numpy's ``np.sum`` adds a 1-D float64 array: one by
    one below 8, in 8 running sums up to 128, else two halves (the first a multiple of
    8 long)."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    if n <= 128:
        r = a[lo: lo + 8].copy()
        i = 8
        while i < n - n % 8:
            for j in range(8):
                r[j] += a[lo + i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[lo + i]
            i += 1
        return res
    half = n // 2
    half -= half % 8
    return pairwise_sum(a, lo, half) + pairwise_sum(a, lo + half, n - half)


@njit(cache=True)
def calm_pieces(pos, prev, mass, pinned, stubs, stub_pins, tails, a, m, b, bent, down,
                substeps, drag, buckle, damp, bend):
    """Write the calmed previous positions (px) into ``prev`` (the caller's copy).

    Stubs (rows ``stubs`` on pins ``stub_pins``): ``prev = pos − (pos − prev)·drag``, then
    less ``buckle`` px across gravity ``down`` (to the side they lean) for those above
    their pin. Tails (``tails``, the candy last): their motion ``v = pos − prev`` loses
    ``damp`` of what is not their rigid motion (mass-weighted centre velocity ``v_cm``
    and spin ``ω = Σ m r×v / Σ m r²``). Bending, each node ``m`` between ``a`` and ``b``:
    the slack ``|m−a| + |b−m| − |b−a|`` times ``bend`` pushes ``a`` and ``b`` apart along
    ``b−a``, split by inverse mass, over ``substeps``; ``prev[bent]`` less the pushes."""
    for k in range(len(stubs)):
        r, q = stubs[k], stub_pins[k]
        for d in range(2):
            prev[r, d] = pos[r, d] - (pos[r, d] - prev[r, d]) * drag
        rx, ry = pos[r, 0] - pos[q, 0], pos[r, 1] - pos[q, 1]
        above = 1.0 if rx * down[0] + ry * down[1] < -0.5 else 0.0
        side = (-1.0 if rx * -down[1] + ry * down[0] < 0.0 else 1.0) * above * buckle
        prev[r, 0] -= side * -down[1]
        prev[r, 1] -= side * down[0]
    if len(tails):
        _damp(pos, prev, mass, tails, damp)
    if len(bent):
        push = np.zeros((len(pos), 2))
        share = np.empty((len(a), 2))
        for k in range(len(a)):
            ia, im, ib = a[k], m[k], b[k]
            cx, cy = pos[ib, 0] - pos[ia, 0], pos[ib, 1] - pos[ia, 1]
            span = np.hypot(cx, cy)
            slack = (np.hypot(pos[im, 0] - pos[ia, 0], pos[im, 1] - pos[ia, 1])
                     + np.hypot(pos[ib, 0] - pos[im, 0], pos[ib, 1] - pos[im, 1])) - span
            wa = 0.0 if pinned[ia] else 1.0 / mass[ia]
            wb = 0.0 if pinned[ib] else 1.0 / mass[ib]
            s = bend * slack / max(span, 1e-9) / max(wa + wb, 1e-12) if wa + wb > 0 else 0.0
            share[k, 0], share[k, 1] = s * cx / substeps, s * cy / substeps
        for k in range(len(a)):
            wa = 0.0 if pinned[a[k]] else 1.0 / mass[a[k]]
            for d in range(2):
                push[a[k], d] += -share[k, d] * wa
        for k in range(len(b)):
            wb = 0.0 if pinned[b[k]] else 1.0 / mass[b[k]]
            for d in range(2):
                push[b[k], d] += share[k, d] * wb
        for r in bent:
            for d in range(2):
                prev[r, d] = prev[r, d] - push[r, d]


@njit(cache=True)
def _damp(pos, prev, mass, rows, damp):
    """The tails' part of ``calm_pieces`` (PBD velocity damping, Müller et al. 2007)."""
    n = len(rows)
    ms = np.empty(n)
    for k in range(n):
        ms[k] = mass[rows[k]]
    total = pairwise_sum(ms, 0, n)
    centre, v_cm = np.zeros(2), np.zeros(2)
    v = np.empty((n, 2))
    for k in range(n):
        for d in range(2):
            v[k, d] = pos[rows[k], d] - prev[rows[k], d]
            centre[d] += ms[k] * pos[rows[k], d]
            v_cm[d] += ms[k] * v[k, d]
    for d in range(2):
        centre[d] /= total
        v_cm[d] /= total
    rel = np.empty((n, 2))
    spin, inertia = np.empty(n), np.empty(n)
    for k in range(n):
        for d in range(2):
            rel[k, d] = pos[rows[k], d] - centre[d]
        spin[k] = ms[k] * (rel[k, 0] * v[k, 1] - rel[k, 1] * v[k, 0])
        inertia[k] = ms[k] * (rel[k, 0] * rel[k, 0] + rel[k, 1] * rel[k, 1])
    moment = pairwise_sum(inertia, 0, n)
    omega = pairwise_sum(spin, 0, n) / moment if moment > 1e-9 else 0.0
    for k in range(n):
        rigid = (v_cm[0] + omega * -rel[k, 1], v_cm[1] + omega * rel[k, 0])
        for d in range(2):
            prev[rows[k], d] = pos[rows[k], d] - (v[k, d] + damp * (rigid[d] - v[k, d]))
