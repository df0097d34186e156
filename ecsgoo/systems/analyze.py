"""Analyze: every frame, what still holds to an anchor, what fell off, which links are critical.

Reads: particle pinned, entity; spring a, b, broken, stretch (Break's measurement of this
frame: run Break first), max_stretch, entity.
Writes: the ``StructureReport`` resource (a new one every frame).
Events: ``structure_split(world, report)`` once in a frame in which a piece detached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import limits
from ..kernels.graph import bridge_mask, component_labels
from ..kernels.structure import classify, danger_rows, live_max, live_springs
from .pipeline import Stage, living_particles, register_stage

if TYPE_CHECKING:
    from ..world import World


def _ints() -> np.ndarray:
    return np.zeros(0, np.int64)


def _bools() -> np.ndarray:
    return np.zeros(0, np.bool_)


@dataclass(eq=False)
class StructureReport:
    """The spring structure at the end of a frame, as the Analyze stage found it.

    The graph is the particles with the UNBROKEN springs as edges. A particle is
    *in a structure* if it is an end of any spring (broken or not: a ball whose
    links all snapped is debris, not nothing), *grounded* if its piece holds an
    anchored (pinned) particle. Per-row arrays are indexed by particle row
    (``world.store.pslot[entity]``) or spring row, valid for this frame.
    """

    #: Particles in a structure connected to an anchor through unbroken springs.
    connected: int = 0
    #: Particles in a structure but not connected to any anchor (fallen pieces, free bodies).
    debris: int = 0
    #: Spring entities that are bridges (losing one splits its piece), most dangerous first.
    critical: np.ndarray = field(default_factory=_ints)
    #: The largest stretch (length / rest length, as Break measured it this frame) over the
    #: unbroken springs; 0 if there is none.
    max_stretch: float = 0.0
    #: Spring rows of ``critical``, in the same order (for the renderer).
    critical_rows: np.ndarray = field(default_factory=_ints)
    #: Per particle row: its piece holds an anchor (pinned particles always do).
    grounded: np.ndarray = field(default_factory=_bools)
    #: Per particle row: it is an end of some spring.
    in_structure: np.ndarray = field(default_factory=_bools)
    #: Per particle row: the number of its piece (connected component over unbroken springs).
    labels: np.ndarray = field(default_factory=_ints)
    #: Pieces (components) holding at least one particle in a structure.
    components: int = 0
    #: Particles that were connected at the previous frame's analysis and are debris now.
    detached: int = 0
    #: ``world.frame`` when the report was made (the frame being stepped).
    frame: int = 0
    #: Entities of the particles counted in ``connected`` (in a structure and grounded),
    #: ascending. See ``is_grounded``.
    grounded_entities: np.ndarray = field(default_factory=_ints)

    def is_grounded(self, entity: int) -> bool:
        """Whether particle ``entity`` is in a structure connected to an anchor (this frame)."""
        at = int(np.searchsorted(self.grounded_entities, entity))
        return at < len(self.grounded_entities) and int(self.grounded_entities[at]) == entity


@dataclass(eq=False)
class _Topology:
    """What depends only on which springs hold and which particles are pinned (read-only)."""

    key: tuple[int, int, int]
    broken: np.ndarray
    pinned: np.ndarray
    bridge_rows: np.ndarray
    labels: np.ndarray
    grounded: np.ndarray
    in_structure: np.ndarray
    grounded_entities: np.ndarray
    connected: int
    debris: int
    components: int


#: The ranking of no bridges (critical spring rows, entities): most frames of a truss.
_NONE = (np.zeros(0, np.int64), np.zeros(0, np.int64))
for _arr in _NONE:
    _arr.flags.writeable = False


def _ranked(s: Any, bridge_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The bridges' spring rows most dangerous first (``danger_rows``, by this frame's
    stretch) and their entities, read-only; with no bridge the two empty arrays ``_NONE``
    (a truss of triangles has none: the kernel call and the copies cost ~5 µs a frame)."""
    if not len(bridge_rows):
        return _NONE
    critical_rows = danger_rows(s.stretch, s.max_stretch, bridge_rows)
    critical = s.entity[critical_rows]
    for arr in (critical_rows, critical):
        arr.flags.writeable = False
    return critical_rows, critical


@register_stage
class Analyze(Stage):
    """Connectivity to the anchors and critical links of the spring graph, O(V + E) per frame.

    Publishes ``StructureReport`` (``world.resource(systems.StructureReport)``).
    ``structure_split(world, report)`` is dispatched once in a frame in which at
    least one particle that was connected to an anchor at the previous analysis
    is still in a structure but no longer connected (``report.detached`` > 0):
    a link broke or was cut, a spring or particle holding the piece was deleted,
    or its anchor was removed. Spawning a free body (a jelly ball: debris, but
    never connected) does not count. The first frame a stage runs only records
    who is connected.

    The graph answers (components, bridges, who is grounded) are kept while the
    topology stays the same (no spring or particle added or removed, the same
    ``broken`` and ``pinned`` flags); only the ranking and ``max_stretch`` are
    redone every frame. The report's arrays are read-only for that reason.
    """

    name = "analyze"

    def __init__(self) -> None:
        self._was_grounded: np.ndarray | None = None
        self._topology: _Topology | None = None

    def clone(self) -> Analyze:
        """A copy that remembers who was connected, so a cloned world reports the same."""
        twin = Analyze()
        twin._was_grounded = self._was_grounded
        return twin

    def save_state(self, world: World) -> dict[str, Any]:
        """Who, still living, was connected at the last analysis (splits report alike)."""
        if self._was_grounded is None:
            return {}
        return {"grounded": living_particles(world, np.flatnonzero(self._was_grounded)).tolist(),
                "size": len(self._was_grounded)}

    def load_state(self, state: dict[str, Any]) -> None:
        """Restore what ``save_state`` wrote."""
        if not state:
            self._was_grounded = None
            return
        ids = limits.entity_ids("Analyze", "grounded", state["grounded"])
        size = limits.BY_ENTITY.check(state["size"], "Analyze", "size")
        if len(ids) and ids.max() >= size:
            raise ValueError(f"grounded entity {ids.max()} is not below size {size}")
        was = np.zeros(size, np.bool_)
        was[ids] = True
        self._was_grounded = was

    def process(self, world: World) -> None:
        report = self.analyze(world)
        world.add_resource(report)
        if report.detached:
            world.dispatch("structure_split", world, report)

    def analyze(self, world: World) -> StructureReport:
        """Compute this frame's report (and remember who is connected, for the next one)."""
        s = world.store.springs
        topo, detached = self._current_topology(world)
        critical_rows, critical = _ranked(s, topo.bridge_rows)
        return StructureReport(
            connected=topo.connected, debris=topo.debris, critical=critical,
            max_stretch=float(live_max(s.n, s.broken, s.stretch)),
            critical_rows=critical_rows, grounded=topo.grounded,
            in_structure=topo.in_structure, labels=topo.labels, components=topo.components,
            detached=detached, frame=int(world.frame), grounded_entities=topo.grounded_entities)

    def _current_topology(self, world: World) -> tuple[_Topology, int]:
        """The cached topology if nothing structural changed, else a fresh one; and detached."""
        p, s = world.store.particles, world.store.springs
        broken, pinned = s.broken, p.pinned
        key = (id(world.store), p.version, s.version)
        old = self._topology
        # the flags' bytes (rows of one count: the versions are the key's): np.array_equal
        # cost ~2.5 µs a call, a frame asks twice
        if (old is not None and old.key == key and old.broken.tobytes() == broken.tobytes()
                and old.pinned.tobytes() == pinned.tobytes()):
            return old, 0
        ea, eb, rows = live_springs(s.n, s.a, s.b, s.broken)
        labels = component_labels(p.n, ea, eb)
        bridge_rows = rows[bridge_mask(p.n, ea, eb)]
        was = self._was_grounded if self._was_grounded is not None else _bools()
        grounded, in_structure, now, connected, debris, components, detached = classify(
            p.n, labels, p.pinned, s.n, s.a, s.b, p.entity, was)
        self._was_grounded = now
        held = np.sort(p.cols["entity"][: p.n][grounded & in_structure])
        arrays = (broken.copy(), pinned.copy(), bridge_rows, labels, grounded, in_structure, held)
        for arr in arrays:
            arr.flags.writeable = False
        self._topology = _Topology(key, *arrays, int(connected), int(debris), int(components))
        return self._topology, int(detached)
