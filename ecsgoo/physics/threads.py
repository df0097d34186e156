"""``World(threads=k)``: the work of a large world's frame that ``k`` threads share,
to the same bits as one thread.

Two phases split, where most of a large world's frame goes:

- **the disc contacts' look** (``Collide``, once a frame): bands of the grid
  (``kernels.threaded.find_frame_banded``), for worlds of at least ``FIND_MIN``
  particles;
- **Project's springs, areas and shapes** (every substep): islands, parts that
  share no particle, each on its own thread (``kernels.threaded.project_parts``),
  when the world has at least ``PROJECT_MIN`` springs, no chains (ropes) and no
  tethers, and its islands split so that no thread has more than ``BALANCE`` of
  the work. One jelly ball is one island: 200 balls split well, one big jelly not.

The contacts' solve stays on one thread: its order is what makes a pile's bits.
What a world's ``threads`` decides is how fast a frame goes, never what it gives
(``tests/unit/physics/test_threads.py`` compares them bit for bit). Fewer
particles than these figures, or one core, and the one-thread kernels run.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from ..kernels.discs import CF
from ..kernels.graph import component_labels
from ..kernels.threaded import find_frame_banded, project_parts

if TYPE_CHECKING:
    from ..world import World

#: Particles from which the disc contacts' look is shared (fewer: a launch costs more
#: than the half it saves).
FIND_MIN = 2048
#: Springs from which Project is shared.
PROJECT_MIN = 2048
#: The largest share of Project's work one thread may have for the split to pay.
BALANCE = 0.75
#: numba's threads in this process (its pool is made once, this size).
_POOL = numba.config.NUMBA_NUM_THREADS
#: The process that launched the threads' kernels (their pool is its own), or None.
_launched_in: int | None = None


def count(world: World) -> int:
    """The threads ``world``'s frame may use: its ``threads``, at most numba's
    (``NUMBA_NUM_THREADS``, the machine's cores unless set); one in a process forked
    from one that shared a frame (GNU OpenMP's threads do not survive a fork: a launch
    there would hang; one thread gives the same bits)."""
    if _launched_in not in (None, os.getpid()):
        return 1
    return min(world.threads, numba.config.NUMBA_NUM_THREADS)


def find_frame(parts: int, band: dict[str, Any], rows: int, args: tuple[Any, ...]
               ) -> tuple[int, Any, Any]:
    """``kernels.discs.find_frame(*args)`` in ``parts`` bands, its contact arrays of ``rows``
    rows; each band's rows are kept in ``band`` between frames (made again when the
    contact rows grow)."""
    shape = (2 * parts, rows)
    if band.get("shape") != shape:
        band["shape"] = shape
        band["ij"] = np.empty((*shape, 2), dtype=np.int64)
        band["cf"] = np.empty((*shape, CF))
    _threads(parts)
    return find_frame_banded(parts, *args, band["ij"], band["cf"])


class ProjectParts:
    """Project's springs, areas and shapes by island, shared among threads
    (``Project`` keeps one).

    The islands and the parts' orders are found again when the springs' order, the
    areas' or shapes' rows or the particles change (``_split``); each frame gathers
    the packed springs and the areas' and shapes' columns into the parts' order.
    """

    def __init__(self) -> None:
        self._of: tuple[Any, ...] = ()  # what the split was made from (compared by identity)
        self._version: tuple[int, int] = (0, -1)  # the threads and the particles' version
        self._split_rows: tuple[Any, ...] | None = None
        self._frame: tuple[Any, ...] | None = None
        self._gathered: tuple[Any, ...] = ()

    def usable(self, world: World, parts: int) -> bool:
        """Whether ``world``'s Project runs in parts this substep (``threads`` above one,
        enough springs, no chains or tethers, islands that split well)."""
        st = world.store
        if parts < 2 or st.springs.n < PROJECT_MIN or st.tethers.n or st.spring_chains[0]:
            return False
        of = (st.spring_order, st.area_idx, st.shape_idx)
        version = (parts, st.particles.version)
        if (self._version != version or len(self._of) != len(of)
                or any(a is not b for a, b in zip(self._of, of, strict=True))):
            self._of, self._version, self._frame = of, version, None
            self._split_rows = _split(st, parts)
        return self._split_rows is not None

    def solve(self, world: World, parts: int, rounds: int, h: float, ends: Any, vals: Any,
              alpha: Any) -> None:
        """One substep of Project's springs, areas and shapes (``ends``/``vals``: this
        frame's packed springs, their ``lam`` zero), in ``parts`` threads."""
        st = world.store
        pc, rc, shapes = st.particles.cols, st.areas.cols, st.shapes
        spring_at, springs, area_at, rings, area_src, shape_at, groups, shape_src = (
            self._split_rows)
        key = (world.frame, id(ends))
        if self._frame != key:  # the frame's packed springs, in the parts' order
            self._frame = key
            self._gathered = (
                ends[springs], vals[springs], st.spring_order[springs],
                _offsets(st.area_off, rings), st.area_idx[area_src],
                np.zeros((max(len(area_src), 1), 2)), _offsets(st.shape_off, groups),
                st.shape_idx[shape_src], st.shape_rest[shape_src])
        else:
            self._gathered[1][:, 2] = 0.0  # each substep's multipliers start from zero
        (p_ends, p_vals, p_order, area_off, area_idx, grad, shape_off, shape_idx,
         shape_rest) = self._gathered
        _threads(parts)
        # the areas' and shapes' settings as the one-thread Project reads them: each substep
        project_parts(parts, rounds, h, pc["pos"], pc["w"], pc["mass"], spring_at, p_ends,
                      p_vals, p_order, st.springs.cols["lam"], area_at, area_off, area_idx,
                      rc["rest_area"][rings], rc["pressure"][rings], rc["stiffness"][rings],
                      grad, shape_at, shape_off, shape_idx, shape_rest, alpha[groups],
                      shapes.cols["scale"][groups])


def _threads(parts: int) -> None:
    """``parts`` threads for this thread's next kernel launch (fewer if numba has fewer:
    the parts then take turns, to the same bits)."""
    global _launched_in
    _launched_in = os.getpid()
    numba.set_num_threads(min(parts, _POOL))


def _split(st: Any, parts: int) -> tuple[Any, ...] | None:
    """The parts: for each, where its packed springs, areas and shapes start in their
    gathered orders, those orders, and the areas' and shapes' CSR rows to gather; None
    when the islands do not split so that each thread has at most ``BALANCE`` of the
    work."""
    n = st.particles.n
    sc, order = st.springs.cols, st.spring_order
    a, b = sc["a"][order], sc["b"][order]
    ring_a, ring_b = _ring_edges(st.area_off, st.area_idx)
    shape_a, shape_b = _ring_edges(st.shape_off, st.shape_idx)
    labels = component_labels(n, np.concatenate((a, ring_a, shape_a)),
                              np.concatenate((b, ring_b, shape_b)))
    spring_label = labels[a]
    area_label = labels[st.area_idx[st.area_off[:-1]]] if len(st.area_off) > 1 else labels[:0]
    shape_label = (labels[st.shape_idx[st.shape_off[:-1]]] if len(st.shape_off) > 1
                   else labels[:0])
    islands = int(labels.max()) + 1 if n else 0
    work = (np.bincount(spring_label, minlength=islands)
            + np.bincount(area_label, weights=np.diff(st.area_off), minlength=islands)
            + np.bincount(shape_label, weights=np.diff(st.shape_off), minlength=islands))
    part = _balance(work, parts)
    if part is None:
        return None
    spring_at, springs = _by_part(part[spring_label], parts)
    area_at, rings = _by_part(part[area_label], parts)
    shape_at, groups = _by_part(part[shape_label], parts)
    return (spring_at, springs, area_at, rings, _members(st.area_off, rings), shape_at,
            groups, _members(st.shape_off, groups))


def _ring_edges(off: Any, idx: Any) -> tuple[Any, Any]:
    """Each CSR group's members joined in a path (an area's ring, a shape's particles)."""
    if len(idx) < 2:
        return idx[:0], idx[:0]
    last = np.zeros(len(idx), dtype=np.bool_)
    last[off[1:] - 1] = True  # no edge from a group's last member to the next group's
    keep = ~last[:-1]
    return idx[:-1][keep], idx[1:][keep]


def _balance(work: Any, parts: int) -> Any:
    """Each island's part (largest first to the least loaded), or None when one part
    would have more than ``BALANCE`` of the total."""
    total = float(work.sum())
    load = np.zeros(parts)
    part = np.zeros(len(work), dtype=np.int64)
    busy = np.flatnonzero(work)
    for island in busy[np.argsort(-work[busy], kind="stable")]:
        t = int(np.argmin(load))
        part[island] = t
        load[t] += work[island]
    return None if total == 0.0 or load.max() > BALANCE * total else part


def _by_part(part: Any, parts: int) -> tuple[Any, Any]:
    """Where each part starts (``parts + 1``) and the rows in part order, each part's in
    their own order (so each island's constraints run in the one-thread order)."""
    rows = np.argsort(part, kind="stable")
    return np.searchsorted(part[rows], np.arange(parts + 1)), rows


def _members(off: Any, groups: Any) -> Any:
    """The CSR positions of ``groups``' members, group after group."""
    sizes = np.diff(off)[groups]
    start = np.repeat(off[:-1][groups] - np.concatenate(([0], np.cumsum(sizes)[:-1])), sizes)
    return start + np.arange(int(sizes.sum()))


def _offsets(off: Any, groups: Any) -> Any:
    """The CSR offsets of ``groups`` gathered in their order."""
    return np.concatenate(([0], np.cumsum(np.diff(off)[groups]))).astype(off.dtype)
