"""The pieces cut ropes leave, and what calms them each frame (drag, damping, bending).

A light chain with nothing pulling it taut swings and curls for seconds (the level's
damping is low, for the candy's swing), and it has no bending stiffness. Each frame:
the stub on a pin keeps ``CUT_DRAG`` of its velocity (air drag: it hangs straight down
within a second); the tail still tied to the candy loses ``TAIL_DAMP`` of the motion
that is not a rigid motion of it and the candy (``_damp_deformation``: the candy's
swing and flight are not slowed); and both get skip-one bending (``_bend``), which
unfolds a piece even where nothing pulls it straight (the candy in free flight). A
piece cut free at both ends falls as it is. Cut the Rope's cut ropes hang like that.

Where the pieces are (their particle rows) changes only when a rope is cut or the
world's entities change, so ``PieceFinder`` works it out then and keeps it: a frame
with nothing new reads one column of broken flags and compares two entity columns
(O(1) Python, whatever the ropes' length).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .components import Candy, Rope

#: Of a cut rope node's velocity, the part kept each frame (the rest is air drag).
CUT_DRAG = 0.93
#: Of the non-rigid motion of the candy and the tails hanging on it, the part taken each
#: frame (what makes a tail curl as the candy swings).
TAIL_DAMP = 0.6
#: px/frame of sideways speed a stub's node above its pin gets each frame: a rope has no
#: strength in compression, but its links (distance constraints) hold a cut stub that
#: points straight up standing like a rod for over a second, until rounding tips it.
BUCKLE = 0.5
#: Bending stiffness of cut rope pieces: of the slack between a node's two neighbours
#: (their distance short of the two links' lengths), the part pushed out each frame.
BEND = 1.0

_NONE = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class Pieces:
    """Particle rows of the cut pieces: ``stubs`` (on their pins), ``tails`` (the tails
    and then the candy; empty when no tail hangs on it) and the bending triples
    ``a``, ``m``, ``b`` (each node ``m`` between its neighbours along a piece of at
    least three) with ``bent``, the rows of ``a`` and ``b`` (sorted, once each);
    ``touched``: every row of them (sorted, once each); ``stub_pins``: each stub row's
    pin row."""

    stubs: np.ndarray
    tails: np.ndarray
    a: np.ndarray
    m: np.ndarray
    b: np.ndarray
    bent: np.ndarray
    touched: np.ndarray
    stub_pins: np.ndarray


class PieceFinder:
    """The ``Pieces`` of a world, found again only when its structure or its cuts change.

    One per world (each world's ``RopeRules`` stage holds its own: clones and loaded
    worlds make new stages).
    """

    def __init__(self) -> None:
        self._layout: tuple[Any, ...] | None = None
        self._ropes: list[tuple[np.ndarray, np.ndarray, int, np.ndarray]] = []
        self._candy = -1
        self._links = _NONE
        self._cuts: bytes | None = None
        self._pieces: Pieces | None = None

    def pieces(self, world: Any) -> Pieces | None:
        """The world's cut pieces now, or ``None`` when no rope is cut."""
        layout = _layout(world)
        if layout != self._layout:
            self._learn(world)
            self._layout, self._cuts = layout, None
        links = self._links
        cuts = links < 0
        known = ~cuts
        cuts[known] = world.springs.broken[links[known]]
        if not cuts.any():
            return None
        key = cuts.tobytes()
        if key != self._cuts:
            self._pieces, self._cuts = self._find(cuts), key
        return self._pieces

    def _learn(self, world: Any) -> None:
        """Rows of every rope's pin, nodes and links (-1: the entity is gone)."""
        particle = _row_finder(world.particles.entity)
        spring = _row_finder(world.springs.entity)
        self._ropes = []
        for _, rope in world.get_component(Rope):
            nodes = np.array([particle(n) for n in rope.nodes[1:]], dtype=np.int64)
            links = np.array([spring(s) for s in rope.springs], dtype=np.int64)
            self._ropes.append((nodes, links, particle(rope.pin), _NONE))
        candies = world.get_component(Candy)
        self._candy = particle(candies[0][0]) if candies else -1
        self._links = (np.concatenate([links for _, links, _, _ in self._ropes])
                       if self._ropes else _NONE)

    def _find(self, cuts: np.ndarray) -> Pieces:
        """The pieces of these ``cuts`` (a flag per link of ``_links``, rope after rope)."""
        stubs, pins, tails, chains = [], [], [], []
        start = 0
        for nodes, links, pin, _ in self._ropes:
            cut = np.flatnonzero(cuts[start:start + len(links)])
            start += len(links)
            if not len(cut):
                continue  # whole: it holds the candy, taut
            stub = _living(nodes[:cut[0]])
            tail = _living(nodes[cut[-1]:]) if self._candy >= 0 else _NONE
            stubs.append(stub)
            pins.append(np.full(len(stub), pin, dtype=np.int64))
            tails.append(tail)
            chains += [np.append(pin, stub), np.append(tail, [self._candy] if len(tail) else [])]
        tail_rows = np.concatenate(tails) if tails else _NONE
        long = [c.astype(np.int64) for c in chains if len(c) >= 3]
        a, m, b = (np.concatenate([c[lo:len(c) - hi] for c in long]) if long else _NONE
                   for lo, hi in ((0, 2), (1, 1), (2, 0)))
        stub_rows = np.concatenate(stubs) if stubs else _NONE
        tail_rows = np.append(tail_rows, self._candy) if len(tail_rows) else _NONE
        bent = np.unique(np.concatenate([a, b]))
        pin_rows = np.concatenate(pins) if pins else _NONE
        return Pieces(stub_rows, tail_rows, a, m, b, bent,
                      np.unique(np.concatenate([stub_rows, tail_rows, bent])), pin_rows)


def _layout(world: Any) -> tuple[Any, ...]:
    """What the rows of the ropes depend on: the particles' and springs' entities in row
    order, and each rope's entities."""
    ropes = tuple((e, tuple(r.nodes), tuple(r.springs), r.pin)
                  for e, r in world.get_component(Rope))
    candies = tuple(e for e, _ in world.get_component(Candy))
    return (world.particles.entity.tobytes(), world.springs.entity.tobytes(), ropes, candies)


def _row_finder(entities: np.ndarray) -> Any:
    """``row(entity)``: the row of ``entity`` in a table whose entity column is
    ``entities``, -1 if it has none."""
    rows = {int(e): k for k, e in enumerate(entities)}
    return lambda entity: rows.get(int(entity), -1)


def _living(rows: np.ndarray) -> np.ndarray:
    return rows[rows >= 0]


def calm(world: Any, pieces: Pieces) -> None:
    """Drag on the stubs, damping on the tails and the candy, bending on both (see the
    module docstring), in that order, written once; velocities are frame
    displacements, ``pos - prev`` (px)."""
    parts = world.particles
    pos, prev = parts.pos, parts.prev.copy()
    rows = pieces.stubs
    if len(rows):
        prev[rows] = pos[rows] - (pos[rows] - prev[rows]) * CUT_DRAG
        prev[rows] -= _buckling(pos[rows], pos[pieces.stub_pins], world.down)
    rows = pieces.tails
    if len(rows):
        prev[rows] = _damped(pos[rows], prev[rows], parts.mass[rows])
    rows = pieces.bent
    if len(rows):
        prev[rows] = prev[rows] - _bending(parts, pieces, world.substeps)[rows]
    parts.write("prev", prev[pieces.touched], pieces.touched)


def _buckling(pos: np.ndarray, pins: np.ndarray, down: tuple[float, float]) -> np.ndarray:
    """The sideways push (px a frame, to take from ``prev``) on stub nodes at ``pos`` that
    stand above their pins at ``pins`` (``down``: gravity's unit direction): ``BUCKLE``
    across gravity, to the side the node already leans to (the right, looking down
    gravity, when it does not lean), so a stub pointing up folds over at once, as a
    rope does. A function of the positions only: a loaded world continues the same."""
    dx, dy = down
    rel = pos - pins
    above = rel[:, 0] * dx + rel[:, 1] * dy < -0.5  # px above the pin along gravity
    across = rel[:, 0] * -dy + rel[:, 1] * dx
    side = np.where(across < 0.0, -1.0, 1.0) * above * BUCKLE
    return side[:, None] * np.array([-dy, dx])


def _damped(pos: np.ndarray, prev: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The previous positions (px) that take ``TAIL_DAMP`` of the motion of particles at
    ``pos`` (mass ``m``) that is not a rigid motion of them all (Müller et al. 2007, PBD
    velocity damping): their momentum and angular momentum are unchanged, so the
    candy's swing and flight keep their energy, and only the curling dies out."""
    v = pos - prev
    centre = (m[:, None] * pos).sum(axis=0) / m.sum()
    v_cm = (m[:, None] * v).sum(axis=0) / m.sum()
    r = pos - centre
    spin = (m * (r[:, 0] * v[:, 1] - r[:, 1] * v[:, 0])).sum()
    inertia = (m * (r * r).sum(axis=1)).sum()
    omega = spin / inertia if inertia > 1e-9 else 0.0
    rigid = v_cm + omega * np.column_stack([-r[:, 1], r[:, 0]])
    return pos - (v + TAIL_DAMP * (rigid - v))


def _bending(parts: Any, pieces: Pieces, substeps: int) -> np.ndarray:
    """Skip-one bending on cut pieces, per particle row (px, to take from ``prev``): a
    node's two neighbours closer than its two links are long are pushed apart by
    ``BEND`` of the slack, split by inverse mass (equal and opposite: no momentum from
    nowhere), as a velocity for the next frame. The links then pull the node between
    them into line, so a piece in free fall, where no gravity straightens it, does not
    stay folded."""
    a, m, b = pieces.a, pieces.m, pieces.b
    pos = parts.pos
    chord = pos[b] - pos[a]
    span = np.hypot(*chord.T)
    slack = (np.hypot(*(pos[m] - pos[a]).T) + np.hypot(*(pos[b] - pos[m]).T)) - span
    wa, wb = _inverse_mass(parts, a), _inverse_mass(parts, b)
    share = np.where(wa + wb > 0, BEND * slack / np.maximum(span, 1e-9)
                     / np.maximum(wa + wb, 1e-12), 0.0)[:, None] * chord / substeps
    push = np.zeros_like(pos)
    np.add.at(push, a, -share * wa[:, None])
    np.add.at(push, b, share * wb[:, None])
    return push


def _inverse_mass(parts: Any, rows: np.ndarray) -> np.ndarray:
    """1 / mass of ``rows``, 0 for a pinned particle."""
    return np.where(parts.pinned[rows], 0.0, 1.0 / parts.mass[rows])
