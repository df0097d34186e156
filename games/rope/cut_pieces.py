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
world's structure changes (``index``), so ``PieceFinder`` works it out then and keeps
it: a frame with nothing new reads the ropes' links' broken flags and compares them
with the last (O(1) Python, whatever the ropes' length).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ecsgoo.kernels.calm import calm_pieces

from .index import IndexFinder, RopeIndex

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
        self._finder = IndexFinder()
        self._index: RopeIndex | None = None
        self._ropes: list[tuple[np.ndarray, np.ndarray, int]] = []
        self._candy = -1
        self._gone = np.zeros(0, dtype=np.bool_)  # the ropes' links without a row
        self._known = _NONE  # the rows of the others, rope after rope
        self._cuts: bytes | None = None  # their broken flags when the pieces were found
        self._pieces: Pieces | None = None

    def pieces(self, world: Any, index: RopeIndex | None = None) -> Pieces | None:
        """The world's cut pieces now, or ``None`` when no rope is cut. ``index``: the
        world's ``RopeIndex`` now, if the caller has it (else it is found)."""
        index = self._finder.of(world) if index is None else index
        if index is not self._index:
            self._learn(index)
        key = index.broken[self._known].tobytes()  # a link deleted stays cut
        if key != self._cuts:
            self._pieces, self._cuts = self._find(key), key
        return self._pieces

    def _learn(self, index: RopeIndex) -> None:
        """Rows of every rope's pin, nodes and links (-1: the entity is gone)."""
        self._index, self._cuts = index, None
        self._ropes = [(r.nodes, r.links, r.pin) for r in index.ropes]
        self._candy = index.candy_row
        links = np.concatenate([r.links for r in index.ropes]) if index.ropes else _NONE
        self._gone = links < 0
        self._known = links[~self._gone]

    def _find(self, key: bytes) -> Pieces | None:
        """The pieces of the links' broken flags ``key`` (``None``: nothing is cut)."""
        cuts = self._gone.copy()
        cuts[~self._gone] = np.frombuffer(key, dtype=np.bool_)
        if not cuts.any():
            return None
        stubs, pins, tails, chains = [], [], [], []
        start = 0
        for nodes, links, pin in self._ropes:
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


def _living(rows: np.ndarray) -> np.ndarray:
    return rows[rows >= 0]


def calm(world: Any, pieces: Pieces, index: RopeIndex) -> None:
    """Drag on the stubs, damping on the tails and the candy, bending on both (see the
    module docstring), in that order, written once; velocities are frame
    displacements, ``pos - prev`` (px). One kernel, ``kernels.calm.calm_pieces`` (the
    numpy form it replaced, to the bit: ``tests/naive.py``). ``index``: the world's now
    (the columns read)."""
    prev = index.prev.copy()
    calm_pieces(index.pos, prev, index.mass, index.pinned, pieces.stubs, pieces.stub_pins,
                pieces.tails, pieces.a, pieces.m, pieces.b, pieces.bent, _down(world),
                world.substeps, CUT_DRAG, BUCKLE, TAIL_DAMP, BEND)
    # take: the rows fancy indexing gives, at a third of its cost
    world.particles.write("prev", prev.take(pieces.touched, axis=0), pieces.touched)


#: The last gravity ``_down`` was asked about (the world's own tuple) and its direction.
_last_down: tuple[Any, np.ndarray] = (None, np.zeros(2))


def _down(world: Any) -> np.ndarray:
    """``world.down`` as the kernel takes it (float64, ``(2,)``), made again only when the
    gravity asked about is not the same tuple as the last (a world's is one tuple until
    it is set): a frame's calm asks every frame, and the array cost ~0.5 µs."""
    global _last_down
    gravity = world.gravity
    if gravity is not _last_down[0]:
        _last_down = (gravity, np.asarray(world.down, dtype=np.float64))
    return _last_down[1]
