"""Analyze: every frame, what still holds to an anchor, what fell off, which links are critical.

Reads: particle pos, pinned, entity; spring a, b, rest, max_stretch, broken, entity.
Writes: the ``StructureReport`` resource (a new one every frame).
Events: ``structure_split(world, report)`` once in a frame in which a piece detached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..analysis import danger_order
from ..kernels.graph import bridge_mask, component_labels
from ..kernels.structure import classify, live_springs
from .base import Stage, register_stage


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
    #: The largest stretch (length / rest length) over the unbroken springs; 0 if none.
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
    """

    name = "analyze"

    def __init__(self) -> None:
        self._was_grounded: np.ndarray | None = None

    def clone(self) -> Analyze:
        """A copy that remembers who was connected, so a cloned world reports the same."""
        twin = Analyze()
        twin._was_grounded = self._was_grounded
        return twin

    def process(self, world: Any) -> None:
        report = self.analyze(world)
        world.add_resource(report)
        if report.detached:
            world.dispatch("structure_split", world, report)

    def analyze(self, world: Any) -> StructureReport:
        """Compute this frame's report (and remember who is connected, for the next one)."""
        p, s = world.store.particles, world.store.springs
        pc, sc = p.cols, s.cols
        n, m = p.n, s.n
        ea, eb, rows, stretch, top = live_springs(m, pc["pos"], sc["a"], sc["b"], sc["rest"],
                                                  sc["broken"])
        labels = component_labels(n, ea, eb)
        bridge = np.flatnonzero(bridge_mask(n, ea, eb))
        ranked = bridge[danger_order(stretch[bridge], sc["max_stretch"][rows[bridge]],
                                     np.arange(len(bridge)))]
        critical_rows = rows[ranked]
        was = self._was_grounded if self._was_grounded is not None else _bools()
        grounded, in_structure, now, connected, debris, components, detached = classify(
            n, labels, pc["pinned"], m, sc["a"], sc["b"], pc["entity"], was)
        self._was_grounded = now
        return StructureReport(
            connected=int(connected), debris=int(debris), critical=sc["entity"][critical_rows],
            max_stretch=float(top), critical_rows=critical_rows, grounded=grounded,
            in_structure=in_structure, labels=labels, components=int(components),
            detached=int(detached), frame=int(world.frame))
