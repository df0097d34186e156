"""A steady frame: a world of rigid bodies as it was when its last frame was done in one
kernel call, stepped again with none of the looks that found it so.

A frame of a small world was mostly Python asking the same questions: is the store
whole, is anything watched, asleep, kinematic or grabbed, are there forces to take, do
the solver stages fuse, are the contact graph's rows and the kept kernel arguments
still the right size and the right arrays, is the frame's end quiet (a box on the
ground: ~4.5 µs of ~11 µs, BENCHMARKS.md). Each answer follows from counters that
whatever could change it bumps: the tables' versions (rows come or gone) and flag
versions (``events``, ``kinematic``, ``stop``), the World's settings and forces applied,
the contact graph's ``layout`` (its arrays replaced), the store's dirty flags, the
pipeline, the level's arrays. ``remember`` keeps them (``token``) at the end of a frame
that went the whole way in one call and ended quiet, when every answer was the steady
one; the next frame, ``holds`` compares them and, if equal, ``Pipeline.step`` runs
``Pipeline._steady_step``, which skips the looks
(``World.begin_frame``, ``rigid_frame.can_fuse``, the readying in ``rigid_frame.whole``,
``frame_end.quiet``) and esper's context (no game code runs in it but handlers, which
``World.dispatch`` runs in the context). What they still need each frame they do:
the room for last frame's contacts (their count changes) and the joints' links (a
joint's ends and flags are written in place), the range check (in the kernel), the
events a broken joint dispatches (a frame with one ends the usual way: a handler may
change anything). Same bits as the usual frame (tests/unit/physics/test_steady.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import contact_events, frame_end
from ..contact_events import Touching
from ..flags import stopping, watched
from ..sensors import Sensor
from . import rigid_frame
from .step import contexts

if TYPE_CHECKING:
    from ..systems.pipeline import Pipeline, Stage
    from ..world import World

#: Off: every frame asks every question (the tests compare both to the bit).
ENABLED = True


def token(world: World, pipeline: Pipeline, parts: tuple[Any, ...]) -> tuple[Any, ...]:
    """What the looks a steady frame skips depend on, as counters and identities
    (``parts``: the world's store and contact graph, the store's bodies, particles and
    joints, the pipeline's Collide: each the same object for the world's life, the stage
    for the pipeline's). No spring, tether or frozen row can come while the particles'
    version holds: the world had no particle, none came (springs and tethers need one),
    and only a sleeping world freezes rows."""
    st, found, b, p, j, collide = parts
    level = world.level
    # (no arrays: a tuple compares its items with ==; the level's by the identity of the
    # tuple ``_held`` keeps alive, so no other takes its id)
    return (pipeline, found.layout, found.pending is None, b.version,
            b.watch_version, b.flag_version, p.version, p.watch_version, j.version,
            st.removals, st._csr_dirty, st._pieces_dirty, world._forces_applied,
            world._settings_version, world.sleep, world.resting, world.grabbed,
            world.profile, level, id(level._arrays), collide.bounce_speed,
            collide._loaded is None, world.resources.get(Touching),
            Sensor in (world._kinds or ()), rigid_frame.ENABLED, frame_end.ENABLED, ENABLED)


def holds(world: World, pipeline: Pipeline) -> bool:
    """Whether this frame is steady: nothing ``token`` counts changed since ``remember``."""
    kept = world._steady
    return kept is not None and kept[0] == token(world, pipeline, kept[2])


def quiet(world: World, dispatched: int) -> bool:
    """After a steady frame's stages: whether its end has nothing to do (``frame_end.
    _quiet_bodies``, what ``token`` does not hold): it was done in one call with every
    body within range, and no handler ran (``dispatched``: the count as it began)."""
    # (``_bodies_within``: set this frame by the call, or None; nothing moved since but a
    # handler could have: then not quiet anyway)
    return (world._dispatches == dispatched and world._fused_frame == world.frame and
            world._bodies_within is not None)


def remember(world: World, pipeline: Pipeline, dispatched: int,
             solver: Sequence[Stage] | None) -> None:
    """At the end of a frame that went the usual way: keep ``token`` if the next frame may
    be steady — the pipeline's ``solver`` stages are ours and only our Break follows them
    (None: not so), this frame was done in one call, ended quiet, dispatched nothing, and
    every look a steady frame skips gives its steady answer now."""
    world._steady = None
    if (solver is None or world._fused_frame != world.frame - 1 or not world._quiet_end
            or world._dispatches != dispatched or not ENABLED):
        return  # (most worlds that are not steady go no further: a sleeping pile's frame)
    st, found = world.store, world.contacts
    b, p = st.bodies, st.particles
    collide = solver[-1]
    if not (rigid_frame.can_fuse(world, solver) and frame_end.ENABLED and not world.sleep
            and not world.resting and found.pending is None and collide._loaded is None
            and not (st._csr_dirty or st._pieces_dirty) and st._frozen_at is None
            and st._order_version == st.springs.version and not stopping(b)
            and not (watched(b) or watched(p)) and world.event_start is None
            and world._forces_spent == (p.version, b.version, world._forces_applied)
            and world._kinds is not None and Sensor not in world._kinds
            and contact_events.calm(world) and found.removals == st.removals):
        return
    ctx = contexts(world.dt, world.substeps)[0]
    rigid_frame._held(world, ctx, collide)  # the arguments the steady frames take, current
    parts = (st, found, b, p, st.joints, collide)
    # (and whether there is a Break with anything to measure: joints; no spring or tether
    # can come)
    world._steady = (token(world, pipeline, parts), ctx, parts,
                     st.joints.n > 0 and len(pipeline.groups) > 1)
