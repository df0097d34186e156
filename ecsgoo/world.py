"""The World: one esper context, the packed store, the pipeline, resources and events."""

from __future__ import annotations

import copy
import hashlib
import inspect
import itertools
import math
import operator
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import esper
import numpy as np

from . import contact_events, derived, frame_end, kinematic, limits, queries, sensors, sleeping
from .components import (
    Anchor,
    AreaConstraint,
    Component,
    Fruit,
    Particle,
    ShapeMatch,
    Spring,
    _Rider,
)
from .copies import component_copy
from .errors import WorldError
from .level import Level
from .physics import astray
from .physics.broadphase import BroadPhase
from .physics.contacts import ContactGraph
from .physics.discs import Discs
from .rigid import Joint, RigidBody
from .store import Store
from .systems.pipeline import Pipeline
from .views import Rows

T = TypeVar("T")
_names = itertools.count(1)
#: Held while a thread uses esper's one current world (see ``World._context``).
_ESPER = threading.RLock()
MAX_ENTITY_ID = limits.MAX_ENTITY_ID
#: The built-in components in the order they attach: bodies, what rides on them, links.
BUILTIN = (Particle, RigidBody, Anchor, Fruit, Spring, Joint, AreaConstraint, ShapeMatch)


def _setting(name: str, doc: str, wakes: bool = False) -> property:
    """A World setting, checked against ``limits.FIELDS["World"]`` whenever it is set;
    setting one that ``wakes`` wakes a sleeping world (what slept under the old gravity
    must fall under the new).

    Read every substep, so the getter is C (``attrgetter``), as cheap as an attribute.
    """
    attr = f"_{name}"

    def set_checked(world: World, value: Any) -> None:
        setattr(world, attr, _checked_setting(name, value))
        world._settings_version += 1  # (``physics.steady``: a frame as the last one)
        if wakes and "store" in world.__dict__:  # not while __init__ sets it
            world.wake_all()

    return property(operator.attrgetter(attr), set_checked, doc=doc)


def _checked_setting(name: str, value: Any) -> Any:
    """``value`` as World keeps it: gravity and bounds as tuples of floats, the rest cast."""
    if name == "bounds":
        return None if value is None else _bounds(value)
    if name == "gravity":
        return _point("gravity", value, 2)
    return limits.check("World", name, value)


def _point(name: str, value: Any, size: int) -> tuple[float, ...]:
    try:
        items = list(value)
    except TypeError:
        items = []
    if len(items) != size:
        raise WorldError(f"World: field {name} must be {size} numbers, got {value!r}")
    return tuple(limits.check_all("World", name, items))


def _bounds(value: Any) -> tuple[float, ...]:
    b = _point("bounds", value, 4)
    if not (b[0] < b[2] and b[1] < b[3]):
        raise WorldError(f"World: field bounds must be (left, bottom, right, top) with "
                         f"left < right and bottom < top, got {value!r}")
    return b


class World:
    """A simulation: entities with components, a pipeline of stages, resources, events.

    ``gravity`` (px/s², y up), ``dt`` (s per step), ``substeps`` per step,
    ``iterations`` of constraint projection per substep, ``damping`` (fraction
    of velocity kept per 1/60 s, whatever the substep count), ``bounds``
    ``(left, bottom, right, top)`` px or ``None`` for no walls, ``contact_slop``
    (px: particles this close count as touching, see Merge), ``sleep`` (see
    ``ecsgoo.sleeping``), ``threads``: how many threads a large world's frame may share
    (``physics.threads``; the same bits whatever the count).
    """

    def __init__(self, gravity: tuple[float, float] = (0.0, -980.0), dt: float = 1 / 60,
                 substeps: int = 6, iterations: int = 3, damping: float = 0.99,
                 bounds: tuple[float, float, float, float] | None = (0, 0, 800, 600),
                 contact_slop: float = 1.0, sleep: bool = False, threads: int = 1) -> None:
        self._setup(gravity, dt, substeps, iterations, damping, bounds, contact_slop, sleep,
                    threads)

    def _setup(self, gravity: tuple[float, float], dt: float, substeps: int, iterations: int,
               damping: float, bounds: tuple[float, float, float, float] | None,
               contact_slop: float, sleep: bool, threads: int,
               parts: tuple[Store, ContactGraph, Discs] | None = None) -> None:
        """``__init__``; ``parts``: the store, contacts and discs a copy already made
        (``clone``: a fresh store and contact rows cost ~200 µs, thrown away)."""
        self.name = f"ecsgoo-world-{next(_names)}"
        #: Settings set and events dispatched to handlers so far, whether the last frame's
        #: end was quiet (``frame_end.quiet``), the last frame done in one kernel call
        #: (``physics.rigid_frame``) and what held then: ``physics.steady``'s look.
        self._settings_version = self._dispatches = 0
        self._quiet_end, self._fused_frame, self._steady = False, -1, None
        self._in_world = _InWorld(self.name)  # ``_context``: one, entered many times a frame
        self._kinds = _kinds_of(self._in_world)  # ``_has_any``'s look, no context needed
        self._handlers: dict[str, list[Callable[..., Any]]] = {}
        self._takes: dict[str, list[int | None]] = {}  # positional arguments each handler takes
        self._first: dict[str, list[bool]] = {}  # each handler gets the world first
        self._kept: list[tuple[str, Callable[..., Any], bool]] = []  # copied by clone
        self._game_handlers: list[tuple[str, Callable[..., Any]]] = []  # Game.handlers'
        self.resources: dict[type, Any] = {}
        self.frame = 0
        self.level = Level()
        self.pipeline = Pipeline()
        self._next_id = 1  # esper's next id in this world's context (it counts from 1)
        self._frame_force = np.zeros((0, 2))
        self._body_force = np.zeros((0, 2))
        #: Calls that added to the pending forces (``apply_force``, ``particles.push``):
        #: ``begin_frame`` skips taking them (all zero) while this and the rows stay as
        #: they were.
        self._forces_applied = 0
        self._forces_taken: tuple[int, int, int] | None = None
        self._forces_spent: tuple[int, int, int] | None = None
        self.profile: dict[str, float] | None = None
        self.grabbed = -1  # the grabbed particle's entity, or -1
        self.grab_target = self.grab_from = (0.0, 0.0)
        self.grab_local = (0.0, 0.0)  # where a grabbed body is held, body coordinates
        #: The substep being solved, for old games' per-substep stages; a stage's
        #: ``solve(world, ctx)`` is given it as ``ctx.substep`` (no stage of ours reads this).
        self.substep_index = 0
        self.gravity, self.dt, self.substeps = gravity, dt, substeps
        self.iterations, self.damping, self.bounds = iterations, damping, bounds
        self.contact_slop, self.threads = contact_slop, threads
        self.sleep = bool(sleep)  # see ecsgoo.sleeping
        self.sleep_state = sleeping.SleepState()  # islands, the frame's start (sleeping)
        # the rigid bodies' contacts (physics.contacts), the particles' disc contacts and
        # their memory (physics.discs), the packed rows (store)
        store, self.contacts, self.discs = (Store(self.h), ContactGraph(), Discs()) \
            if parts is None else parts
        self.broadphase = BroadPhase()  # the grids of the world as it is now
        self.event_start: Any = None  # velocities as the frame began (contact events)
        self.resting = False  # everything movable asleep: the solver's substeps are skipped
        self.rested = False  # resting as this frame began (``begin_frame``)
        self.store = store
        self.store.woken, self.store.woken_all = self.wake, self.wake_all
        with self._context():
            pass

    # -- settings (each checked against limits.FIELDS["World"] when set) --------

    gravity = _setting("gravity", "Gravity ``(gx, gy)``, px/s² (y up).", wakes=True)
    iterations = _setting("iterations", "Constraint projection rounds per substep.")
    damping = _setting("damping", "Fraction of velocity kept per 1/60 s, whatever the substeps.")
    bounds = _setting("bounds", "Walls ``(left, bottom, right, top)``, px, or ``None``.",
                      wakes=True)
    contact_slop = _setting("contact_slop", "Particles this close (px) count as touching "
                            "(see Merge).")
    threads = _setting("threads", "Threads a large world's frame may share (at most numba's, "
                       "``NUMBA_NUM_THREADS``): the same bits as one (``physics.threads``).")

    def settings(self) -> dict[str, Any]:
        """The constructor arguments that recreate this world's settings."""
        return {"gravity": self.gravity, "dt": self.dt, "substeps": self.substeps,
                "iterations": self.iterations, "damping": self.damping,
                "bounds": self.bounds, "contact_slop": self.contact_slop, "sleep": self.sleep,
                "threads": self.threads}

    @property
    def down(self) -> tuple[float, float]:
        """Gravity's unit direction, ``(0, 0)`` without gravity (the solver's "below":
        ``kernels.support``)."""
        gx, gy = self._gravity
        g = math.hypot(gx, gy)
        return (0.0, 0.0) if g == 0.0 else (gx / g, gy / g)

    @property
    def h(self) -> float:
        """Substep time, s."""
        return self.dt / self.substeps

    @property
    def dt(self) -> float:
        """Time of one step, s."""
        return self._dt

    @dt.setter
    def dt(self, value: float) -> None:
        self._retime("_dt", limits.check("World", "dt", value))

    @property
    def substeps(self) -> int:
        """Substeps per step (the solver stages run this many times per step)."""
        return self._substeps

    @substeps.setter
    def substeps(self, value: int) -> None:
        self._retime("_substeps", limits.check("World", "substeps", value))

    def _retime(self, attr: str, value: float) -> None:
        """Set dt or substeps (checked); a live world's particles keep their velocities."""
        setattr(self, attr, value)
        self._settings_version += 1
        store = self.__dict__.get("store")
        if store is not None:  # still constructing: the store is made with this h
            store.retime(self.h)

    # -- esper context ----------------------------------------------------------

    def _context(self) -> _InWorld:
        """Run esper calls inside this world's context (esper 3 is module-level).

        esper's current world is one global: the lock keeps another thread from
        switching it mid-call, so worlds in two threads step as they would alone
        (one at a time).
        """
        return self._in_world

    def close(self) -> None:
        """Remove this world's esper context now (a discarded world does it when collected)."""
        with _ESPER:
            if esper.current_world == self.name:
                esper.switch_world("default")
            if self.name in esper.list_worlds():
                esper.delete_world(self.name)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: esper may be half torn down
            pass

    # -- entities and components ------------------------------------------------

    def create_entity(self, *components: Any) -> int:
        """Create an entity holding ``components``; return its id."""
        if self._next_id > MAX_ENTITY_ID:
            raise WorldError(f"World: no more entity ids (at most {MAX_ENTITY_ID})")
        with self._context():
            entity = esper.create_entity()
        self._next_id = entity + 1
        try:
            for comp in _attach_order(components):
                self._add(entity, comp)
        except BaseException:
            self.delete_entity(entity)
            raise
        return entity

    def create_entities(self, components: Sequence[Any]) -> list[int]:
        """Create one entity per component, in order; return their ids.

        The same ids, rows and bits as ``[create_entity(c) for c in components]``,
        but runs of particles and springs get their store rows in one bulk call
        (``Store.attach_all``): spawning a body costs a fraction. If one fails,
        none is created.
        """
        if self._next_id + len(components) - 1 > MAX_ENTITY_ID:
            raise WorldError(f"World: no more entity ids (at most {MAX_ENTITY_ID})")
        for comp in components:
            self._unbound(comp)
        if len({id(c) for c in components}) != len(components):
            raise WorldError("World.create_entities: a component is listed twice")
        with self._context():
            ids = [esper.create_entity(comp) for comp in components]
        if ids:
            self._next_id = ids[-1] + 1
        try:
            self.store.attach_all(ids, components)
        except BaseException:
            for entity in reversed(ids):
                self.delete_entity(entity)
            raise
        return ids

    def add_component(self, entity: int, component: Any) -> None:
        """Add (or replace) a component on ``entity``."""
        self._require(entity)
        self._add(entity, component)

    def _add(self, entity: int, comp: Any) -> None:
        self._unbound(comp, entity)
        if isinstance(comp, sensors.Sensor):
            sensors.follow_check(self, entity, comp)
        with self._context():
            if esper.has_component(entity, type(comp)):
                self.remove_component(entity, type(comp))
            esper.add_component(entity, comp)
        try:
            self.store.attach(entity, comp)
        except BaseException:
            with self._context():
                esper.remove_component(entity, type(comp))
            raise
        if self.sleep:  # what it rides on or links feels it: awake (a new body is awake)
            self.resting = False
            if not isinstance(comp, (Particle, RigidBody)):
                self.wake(entity)

    @staticmethod
    def _unbound(comp: Any, entity: int | None = None) -> None:
        """Refuse a built-in component that already belongs to a world."""
        if isinstance(comp, Component) and (comp._table is not None or
                                            getattr(comp, "_host", None) is not None):
            who = "" if entity is None else f"entity {entity} "
            raise WorldError(f"{who}({type(comp).__name__}): this component already belongs "
                             "to a world; create a new one")

    def remove_component(self, entity: int, component_type: type[T]) -> T:
        """Remove and return the component of ``component_type`` from ``entity``."""
        self._require(entity)
        if self.sleep and component_type in BUILTIN:
            self._wake_around(entity, component_type)
        comp = self.component(entity, component_type)
        with self._context():
            if isinstance(comp, RigidBody):
                if entity == self.grabbed:  # no stale grab of a body that is gone
                    self.release()
                self._drop_joints(entity)
                for rider in [c for c in esper.components_for_entity(entity)
                              if isinstance(c, _Rider)]:
                    self.remove_component(entity, type(rider))
            if isinstance(comp, Particle):
                if entity == self.grabbed:  # no stale grab of a particle that is gone
                    self.release()
                self._drop_dependents(entity, comp)
                self._drop_joints(entity)
                for rider in [c for c in esper.components_for_entity(entity)
                              if isinstance(c, _Rider)]:
                    self.remove_component(entity, type(rider))
            self.store.detach(comp)
            esper.remove_component(entity, component_type)
        return comp

    def _drop_dependents(self, entity: int, particle: Particle) -> None:
        """Remove the springs and constraints that cannot exist without a removed particle.

        A spring's or constraint's entity goes with it when that was the last
        built-in component it held (a game's tag on a link describes that link).
        """
        doomed = [(s._entity, type(s)) for s in self.store.springs_touching(particle._slot)]
        doomed += [(c._entity, type(c)) for c in self.store.constraints_touching(entity)]
        for owner, kind in doomed:
            if not self.entity_exists(owner) or not self.has_component(owner, kind):
                continue
            self.remove_component(owner, kind)
            if owner != entity and not any(isinstance(c, BUILTIN)
                                           for c in self.components_for_entity(owner)):
                self.delete_entity(owner)

    def _wake_around(self, entity: int, kind: type) -> None:
        """What rested on or hung from a removed thing wakes (its island, or its ends');
        removing something that cannot move (a static body, a pinned or immovable
        particle, an anchor) wakes everything: it carries no island, and whatever leaned
        on it must fall."""
        comp = self.try_component(entity, kind)
        if comp is None:
            return
        st = self.store
        if kind is Anchor or (kind in (Particle, RigidBody) and not derived.can_move(st, entity)):
            self.wake_all()
            return
        ends = [comp._vals["a"], comp._vals["b"]] if kind in (Spring, Joint) else [entity]
        for end in ends:
            if end in st.pslot or end in st.bslot:
                self.wake(end)

    def _drop_joints(self, entity: int) -> None:
        """Remove the joints with an end on ``entity`` (with their entities, as springs go)."""
        for joint in self.store.joints_touching(entity):  # and the springs on bodies
            owner, kind = joint._entity, type(joint)
            if owner == entity or not self.has_component(owner, kind):
                continue
            self.remove_component(owner, kind)
            if not any(isinstance(c, BUILTIN) for c in self.components_for_entity(owner)):
                self.delete_entity(owner)

    def delete_entity(self, entity: int) -> None:
        """Delete ``entity`` and its components.

        Deleting a particle also removes what can no longer exist: the springs
        with an end on it and the area/shape constraints that list it (with
        their entities, unless those hold other built-in components). The grab
        is released if it held this particle.
        """
        self._require(entity)
        with self._context():
            comps = list(esper.components_for_entity(entity))
        for comp in sorted(comps, key=lambda c: -_rank(c)):
            if self.entity_exists(entity) and self.has_component(entity, type(comp)):
                self.remove_component(entity, type(comp))
        with self._context():
            esper.delete_entity(entity, immediate=True)
        contact_events.forget(self, entity)
        sensors.forget(self, entity)

    def entity_exists(self, entity: int) -> bool:
        """Whether ``entity`` exists."""
        with self._context():
            return esper.entity_exists(entity)

    def _require(self, entity: int) -> None:
        try:
            exists = self.entity_exists(entity)
        except TypeError:  # not hashable: not an id
            exists = False
        if not exists:
            raise WorldError(f"entity {entity!r}: does not exist")

    def component(self, entity: int, component_type: type[T]) -> T:
        """The live view of ``entity``'s component of ``component_type``."""
        with self._context(), _Existing(entity):
            try:
                return esper.component_for_entity(entity, component_type)
            except KeyError:
                if esper.entity_exists(entity):
                    name = getattr(component_type, "__name__", repr(component_type))
                    raise WorldError(f"entity {entity}: has no {name}") from None
                raise

    def try_component(self, entity: int, component_type: type[T]) -> T | None:
        """The component, or ``None`` if the entity does not have it or does not exist."""
        with self._context(), _Existing(entity):
            return esper.try_component(entity, component_type)

    def has_component(self, entity: int, component_type: type) -> bool:
        """Whether ``entity`` has a component of ``component_type`` (WorldError if the
        entity does not exist)."""
        with self._context(), _Existing(entity):
            return esper.has_component(entity, component_type)

    def components_for_entity(self, entity: int) -> tuple[Any, ...]:
        """All components of ``entity`` (WorldError if it does not exist)."""
        with self._context(), _Existing(entity):
            return esper.components_for_entity(entity)

    def get_component(self, component_type: type[T]) -> list[tuple[int, T]]:
        """``[(entity, component), ...]`` like esper (do not mutate the list)."""
        with self._context():
            return esper.get_component(component_type)

    def _has_any(self, component_type: type) -> bool:
        """Whether some entity has a ``component_type`` (O(1); a frame's end asks it of
        the sensors before looking for them)."""
        if self._kinds is None:
            return bool(self.get_component(component_type))
        return component_type in self._kinds

    def get_components(self, *component_types: type) -> list[tuple[int, tuple[Any, ...]]]:
        """``[(entity, (c1, c2, ...)), ...]`` like esper (do not mutate the list)."""
        with self._context():
            return esper.get_components(*component_types)

    def entities(self) -> list[int]:
        """All entity ids, ascending."""
        with self._context():
            return sorted(esper.get_entities())

    # -- level geometry -------------------------------------------------------------

    def add_segment(self, p: tuple[float, float], q: tuple[float, float], *,
                    friction: float | None = None, restitution: float | None = None,
                    layer: int = 1) -> None:
        """Add a static segment (px) that particles and bodies collide with: ``friction``
        and ``restitution`` mix with theirs (None: theirs alone, and a body's friction
        with ``LEVEL_FRICTION``), met only by those whose ``mask`` holds ``layer``."""
        self.level.add_segment(p, q, friction=friction, restitution=restitution, layer=layer)
        self.wake_all()

    def add_polygon(self, points: list[tuple[float, float]], *,
                    friction: float | None = None, restitution: float | None = None,
                    layer: int = 1) -> None:
        """Add a static polygon (px) that particles and bodies collide with (its surface:
        as ``add_segment`` says)."""
        self.level.add_polygon(points, friction=friction, restitution=restitution,
                               layer=layer)
        self.wake_all()

    # -- pipeline and stepping ------------------------------------------------------

    def use(self, *stages: Any) -> World:
        """Set the pipeline: stages run in the order given (see ``systems``); each stage's
        ``adopt(world)``, if it has one, hands the world what the stage loaded."""
        self.pipeline = Pipeline(stages)
        for stage in stages:
            adopt = getattr(stage, "adopt", None)
            if adopt is not None:
                adopt(self)
        return self

    def step(self, n: int = 1) -> None:
        """Advance ``n`` (>= 0) fixed steps of ``dt``: one ``Pipeline.step`` each."""
        if n == 1 and n.__class__ is int:  # one frame, the usual call: no check, no loop
            self.pipeline.step(self)
            return
        n = limits.STEPS.check(n, "World.step", "n")
        for _ in range(n):
            self.pipeline.step(self)  # a stage may set another pipeline (``use``)

    def begin_frame(self) -> None:
        """Start a frame (``Pipeline.step`` calls it): catch up the packed rows, take the forces.

        The forces applied since the last frame began act over this frame;
        what is applied from now on waits for the next one.
        """
        self.store.prepare()
        if self.sleep and not self.resting:
            sleeping.begin_frame(self)  # what moved this frame is measured from here
        contact_events.begin_frame(self)  # what a hit changed is measured from here
        self.rested = self.resting  # nothing woke it yet this frame (``end_frame``)
        st = self.store
        key = (st.particles.version, st.bodies.version, self._forces_applied)
        if self._forces_spent != key:
            self._take_forces()
            # two takes with no force applied and no row come or gone between: the frame's
            # forces and the pending ones are all zero, and stay so while nothing changes
            # (every write of a pending force counts: ``apply_force``, ``particles.push``)
            self._forces_spent = key if self._forces_taken == key else None
            self._forces_taken = key
        if self.sleep and not self.resting:
            sleeping.freeze(self)  # what nothing awake can reach is solved as static

    def end_frame(self) -> None:
        """End a frame (``Pipeline.step`` calls it): contact and sensor events, the frame
        counts, and the pointer arrives."""
        self._quiet_end = quiet = frame_end.quiet(self)
        if not quiet:  # most frames have nothing to report: one call
            contact_events.update(self)  # each makes the store whole before it reads it: a
            sensors.update(self)  # stage or a handler may have made or deleted anything
            kinematic.stop(self)  # what move_to moved rests where it arrived
            if not (self.rested and self.resting):  # asleep all through: nothing moved
                astray.check(self)  # nothing past the representable range goes unnoticed
            if self.sleep:
                sleeping.update(self)
        self.frame += 1
        self.grab_from = self.grab_target

    def _take_forces(self) -> None:
        """The forces applied since the last frame began act over this one; the pending
        ones start again from zero."""
        for table, attr in ((self.store.particles, "_frame_force"),
                            (self.store.bodies, "_body_force")):
            if table.n:
                now = self._frame_share(attr, table)
                pending = table.cols["force"][: table.n]
                now[:] = pending
                pending[:] = 0.0

    @property
    def frame_force(self) -> np.ndarray:
        """The forces acting over the current frame, per particle row (mass·px/s², read-only).

        Integrate reads it; ``apply_force`` adds to the next frame's instead.
        """
        return self._frame_share("_frame_force", self.store.particles)

    @property
    def body_force(self) -> np.ndarray:
        """The forces acting over the current frame, per body row (mass·px/s², read-only)."""
        return self._frame_share("_body_force", self.store.bodies)

    def _frame_share(self, attr: str, table: Any) -> np.ndarray:
        """The frame's forces of ``table``'s rows, kept in ``attr``; rows added since (or
        during) the frame have none."""
        buf = getattr(self, attr)
        if len(buf) < table.n:
            grown = np.zeros((table.cols["force"].shape[0], 2))
            grown[: len(buf)] = buf
            setattr(self, attr, grown)
            buf = grown
        return buf[: table.n]

    def apply_force(self, entity: int, fx: float, fy: float) -> None:
        """Add a force (mass·px/s²) on a particle, acting over the next step once.

        Whoever calls it and whenever — before ``step``, from a per-frame stage
        before or after the solver, from a solver stage — the force acts over
        the first step that begins after the call, and then it is spent. The
        particle's pending force stays within ``limits.MAX_FORCE`` (WorldError).
        """
        self.wake(entity)
        self._forces_applied += 1
        kind = "RigidBody" if entity in self.store.bslot else "Particle"
        if kind == "RigidBody":
            force = self.store.bodies.cols["force"][self.store.bslot[entity]]
        else:
            force = self.store.particles.cols["force"][self._slot(entity)]
        fx, fy = limits.check(kind, "fx", fx), limits.check(kind, "fy", fy)
        force[:] = (limits.check(kind, "fx", force[0] + fx),
                    limits.check(kind, "fy", force[1] + fy))

    def move_to(self, entity: int, x: float, y: float, angle: float | None = None) -> None:
        """Move kinematic body ``entity`` to ``(x, y)`` px (and ``angle`` rad; None: as it is)
        over the next step, by velocity: what it touches is pushed and carried on the way.
        It arrives as that step ends and is then at rest (call it every frame to follow a
        path). WorldError naming the entity for anything but a kinematic body."""
        kinematic.move_to(self, entity, x, y, angle)

    def is_sleeping(self, entity: int) -> bool:
        """Whether particle or rigid body ``entity`` is asleep (``World(sleep=True)``)."""
        st = self.store
        if entity in st.bslot:
            return bool(st.bodies.asleep[st.bslot[entity]])
        if entity not in st.pslot:
            what = self._kind_of(entity)
            raise WorldError(f"entity {entity}: is {what}; only particles and rigid bodies "
                             "sleep (a link sleeps with what it joins: ask one of its ends)")
        return bool(st.particles.asleep[st.pslot[entity]])

    def _kind_of(self, entity: int) -> str:
        """What ``entity`` is, for messages: ``a joint``, ``a spring``, ``not alive``…"""
        if not self.entity_exists(entity):
            return "not alive"
        names = sorted(type(c).__name__ for c in self.components_for_entity(entity))
        if not names:
            return "an entity with no components"
        return "a " + " and a ".join(names)

    def wake_all(self) -> None:
        """Wake everything asleep (bulk writes through a table view and new gravity do this
        themselves)."""
        if self.sleep:
            sleeping.wake_all(self)

    def wake(self, entity: int) -> None:
        """Wake ``entity``'s island (writes, forces and grabs do this themselves); a spring's,
        joint's or constraint's entity wakes what it links."""
        if not self.sleep:
            return
        st = self.store
        if entity in st.pslot or entity in st.bslot:
            sleeping.wake(self, entity)
            return
        self.resting = False  # whatever it changed, the next frame looks
        for end in self._linked(entity):
            if end in st.pslot or end in st.bslot:
                self.wake(end)

    def _linked(self, entity: int) -> list[int]:
        """The particles and bodies that ``entity``'s springs, joints and constraints link."""
        if not self.entity_exists(entity):
            return []
        out: list[int] = []
        for comp in self.components_for_entity(entity):
            if isinstance(comp, (Spring, Joint)):
                out += [comp._vals["a"], comp._vals["b"]]
            elif isinstance(comp, (AreaConstraint, ShapeMatch)):
                out += list(comp._vals["particles"])
        return out

    def grab(self, entity: int, x: float, y: float) -> None:
        """Pull particle (or rigid body) ``entity`` toward the pointer ``(x, y)`` every substep.

        Each substep moves it ``(pointer − p) · 0.55``; releasing flings it,
        because velocity is position difference. A body is held at the point
        where the pointer first took it (``grab_local``, body coordinates), so it
        turns as it is dragged.
        """
        x, y = limits.check_all("World", "grab", (x, y))
        self.wake(entity)
        if entity in self.store.bslot:
            if entity != self.grabbed:
                self.grab_local = self.store._local(self.store.bslot[entity], x, y)
                self.grab_from = (x, y)
        else:
            slot = self._slot(entity)
            if entity != self.grabbed:
                pos = self.store.particles.pos[slot]
                self.grab_from = (float(pos[0]), float(pos[1]))
        self.grabbed = entity
        self.grab_target = (float(x), float(y))

    @property
    def particles(self) -> Rows:
        """Every particle's row: live read-only columns (``.pos``, ``.entity``…): ``views``."""
        return Rows(self, "particles")

    @property
    def springs(self) -> Rows:
        """Every spring's row (``.rest``, ``.compliance``, ``.stretch``, ``.broken``, …)."""
        return Rows(self, "springs")

    @property
    def areas(self) -> Rows:
        """Every AreaConstraint's row (``.pressure``, ``.rest_area``, …); ``area_members``."""
        return Rows(self, "areas")

    #: The old name of ``areas`` (kept for games written against it).
    rings = areas

    @property
    def shapes(self) -> Rows:
        """Every ShapeMatch's row (``.alpha``); ``shape_members`` gives its particles."""
        return Rows(self, "shapes")

    @property
    def bodies(self) -> Rows:
        """Every RigidBody's row (``.pos``, ``.angle``, ``.mass``, ``.entity``…): ``views``."""
        return Rows(self, "bodies")

    @property
    def joints(self) -> Rows:
        """Every Joint's row (``.force``, ``.max_force``, ``.broken``, ``.entity``…)."""
        return Rows(self, "joints")

    def area_members(self, area: int) -> np.ndarray:
        """The particle rows of AreaConstraint row ``area``, around its outline (a new array)."""
        return self._members("area", area)

    def ring_members(self, ring: int) -> np.ndarray:
        """The old name of ``area_members``."""
        return self.area_members(ring)

    def shape_members(self, shape: int) -> np.ndarray:
        """The particle rows of shape-match row ``shape`` (a new array)."""
        return self._members("shape", shape)

    def _members(self, kind: str, k: int) -> np.ndarray:
        st = self.store
        st.prepare()  # a body added since the last step has no member rows yet
        off, idx = getattr(st, f"{kind}_off"), getattr(st, f"{kind}_idx")
        if type(k) not in (int, np.int64) or not 0 <= k < len(off) - 1:
            raise WorldError(f"World.{kind}_members: no {kind} row {k!r} (rows 0..{len(off) - 2})")
        return idx[off[k]: off[k + 1]].copy()

    def set_stiffness(self, stiffness: float, springs: Any = None) -> None:
        """Give ``springs`` (entities; all when ``None``) ``stiffness`` in (0, 1] (1: rigid).

        Writes their XPBD compliance (``limits.compliance_of``); refuses a value
        outside ``limits`` with WorldError.
        """
        k = limits.check("Spring", "stiffness", stiffness)
        rows = None if springs is None else self.springs.rows(springs)
        self.springs.write("compliance", limits.compliance_of(k), rows)

    def raycast(self, p: tuple[float, float], q: tuple[float, float],
                mask: int = queries.ALL, ignore: Any = None,
                group: int = 0) -> queries.Hit | None:
        """The first ``queries.Hit`` of the segment ``p → q`` (px), or ``None``.

        ``mask``: the collision layers it sees (see ``ecsgoo.queries``); ``ignore``: an
        entity, entities or a ``bodies.Body`` it passes through (a ray cast from inside
        the player's own ball); ``group`` (not 0): it passes through that collision group.
        """
        return queries.raycast(self, p, q, mask, ignore, group)

    def raycast_all(self, p: tuple[float, float], q: tuple[float, float],
                    mask: int = queries.ALL, ignore: Any = None,
                    group: int = 0) -> list[queries.Hit]:
        """Every ``queries.Hit`` of the segment ``p → q`` (px), nearest first (``ignore``,
        ``group``: as ``raycast``)."""
        return queries.raycast_all(self, p, q, mask, ignore, group)

    def query_point(self, x: float, y: float, mask: int = queries.ALL, ignore: Any = None,
                    group: int = 0) -> list[int]:
        """Entities at ``(x, y)`` px: particle discs, soft bodies (their constraint's entity);
        ``ignore``, ``group``: what it passes over, as ``raycast``."""
        return queries.query_point(self, x, y, mask, ignore, group)

    def query_box(self, x0: float, y0: float, x1: float, y1: float,
                  mask: int = queries.ALL, ignore: Any = None, group: int = 0) -> list[int]:
        """Entities overlapping the box (px): particle discs and soft-body outlines
        (``ignore``, ``group``: as ``raycast``)."""
        return queries.query_box(self, x0, y0, x1, y1, mask, ignore, group)

    def nearest_particle(self, x: float, y: float, reach: float = math.inf,
                         movable: bool = True, ignore: Any = None,
                         group: int = 0) -> int | None:
        """The particle whose disc edge is nearest ``(x, y)``, within ``reach`` px, or ``None``.

        Distance is measured to the disc (centre distance − radius; 0 or less
        inside it). ``movable`` leaves out anchored and immovable particles (what
        a pointer can grab); ``ignore``, ``group``: what it passes over, as ``raycast``.
        """
        skip = queries.skipping(ignore, group, "nearest_particle")
        p = self.store.particles
        if p.n == 0:
            return None
        c = p.cols
        gap = np.hypot(c["pos"][: p.n, 0] - x, c["pos"][: p.n, 1] - y) - c["radius"][: p.n]
        if movable:
            gap[c["pinned"][: p.n] | (c["w"][: p.n] == 0)] = np.inf
        gap[~queries.passes(skip, c["entity"], c["group"], p.n)] = np.inf
        row = int(np.argmin(gap))
        return int(c["entity"][row]) if gap[row] <= reach else None

    def release(self) -> None:
        """Stop pulling the grabbed particle."""
        self.grabbed = -1

    def _slot(self, entity: int) -> int:
        slot = self.store.pslot.get(entity)
        if slot is None:
            raise WorldError(f"entity {entity}: has no Particle")
        return slot

    # -- resources and events ---------------------------------------------------------

    def add_resource(self, resource: Any) -> Any:
        """Store a singleton keyed by its type (replacing any previous one)."""
        self.resources[type(resource)] = resource
        return resource

    def resource(self, kind: type[T], default: Any = None) -> T:
        """The resource of type ``kind`` (``default`` if there is none)."""
        return self.resources.get(kind, default)

    def set_handler(self, name: str, func: Callable[..., Any], with_world: bool = False,
                    keep: bool = False) -> None:
        """Call ``func(*args)`` whenever event ``name`` is dispatched.

        Handlers run in the order they were set. The world keeps them itself:
        esper's registry holds weak references (a lambda would silently vanish)
        in a set (an order that changes from run to run). A handler that takes fewer
        arguments than an event now carries gets the first ones (``contact_began``
        grew ``impulse`` and ``speed``: a handler of six still works).

        ``with_world``: ``func(world, *args)`` for every event — the ones that do not
        carry the world (``contact_began``, ``contact_ended``, ``sensor_entered``,
        ``sensor_left``) get it put first, the ones that do (``spring_broke``,
        ``joint_broke``, …) come as they are. ``keep``: ``clone`` copies this handler to
        the copy (which it then gets first, with ``with_world``); otherwise a copy
        starts with no handlers.
        """
        self._handlers.setdefault(name, []).append(func)
        self._takes.setdefault(name, []).append(_positional(func))
        self._first.setdefault(name, []).append(bool(with_world))
        if keep:
            self._kept.append((name, func, bool(with_world)))

    def remove_handler(self, name: str, func: Callable[..., Any]) -> None:
        """Stop calling ``func`` for event ``name``."""
        handlers = self._handlers.get(name, [])
        if func in handlers:
            at = handlers.index(func)
            del self._takes[name][at], self._first[name][at]
            handlers.remove(func)
        self._kept = [k for k in self._kept if not (k[0] == name and k[1] == func)]

    def wire(self, handlers: Sequence[tuple[str, Callable[..., Any]]]) -> None:
        """Make ``handlers`` (``(event, func)`` pairs) this world's game handlers, in place
        of the ones wired before: each gets ``(world, *args)`` and is kept by ``clone``.
        ``Game`` calls it whenever its ``world`` is set (build, restart, adopt, load)."""
        for name, func in self._game_handlers:
            self.remove_handler(name, func)
        self._game_handlers = list(handlers)
        for name, func in self._game_handlers:
            self.set_handler(name, func, with_world=True, keep=True)

    def dispatch(self, name: str, *args: Any) -> None:
        """Dispatch event ``name`` to its handlers, in the order they were set."""
        handlers = self._handlers.get(name, ())
        if not handlers:
            return
        self._dispatches += 1  # a handler may change anything (``physics.steady``)
        carried = bool(args) and args[0] is self  # the event already gives the world first
        with self._context():  # (a steady frame runs outside it: ``Pipeline.step``)
            for func, take, first in list(zip(handlers, self._takes.get(name, ()),
                                              self._first.get(name, ()), strict=True)):
                given = (self, *args) if first and not carried else args
                func(*(given if take is None or take >= len(given) else given[:take]))

    # -- inspection ----------------------------------------------------------------------

    def check(self) -> None:
        """Raise WorldError naming the entity and field if any value is NaN or infinite."""
        p, s, b = self.store.particles, self.store.springs, self.store.bodies
        for table, fields in ((p, ("pos", "prev", "pin", "force")), (s, ("stretch", "lam")),
                              (b, ("pos", "prev", "angle", "prev_angle", "force")),
                              (self.store.joints, ("force",))):
            for name in fields:
                col = getattr(table, name)
                bad = ~np.isfinite(col)
                if bad.ndim == 2:
                    bad = bad.any(axis=1)
                if bad.any():
                    slot = int(np.flatnonzero(bad)[0])
                    owner = table.owner[slot]
                    raise WorldError(f"entity {owner._entity} ({type(owner).__name__}): "
                                     f"field {name} is {col[slot]}")

    def state_hash(self) -> str:
        """SHA-256 of the hot state (positions, previous positions, spring state)."""
        p, s, b, j = self.store.particles, self.store.springs, self.store.bodies, self.store.joints
        h = hashlib.sha256()
        for arr in (p.pos, p.prev, s.broken, s.over, s.stretch, b.pos, b.prev, b.angle,
                    b.prev_angle, j.broken):
            h.update(np.ascontiguousarray(arr).tobytes())
        return h.hexdigest()

    # -- copying ---------------------------------------------------------------------------

    def clone(self) -> World:
        """An independent deep copy: same entity ids, same bits, same pipeline.

        Event handlers are not copied (a preview should not run game rules);
        resources are deep-copied.
        """
        store, mapping = self.store.copy()
        new = World.__new__(World)  # a cloned world warm-starts the same: its contacts too
        new._setup(**self.settings(), parts=(store, self.contacts.copy(), self.discs.clone()))
        new.frame, new.level = self.frame, self.level.copy()
        new.sleep_state = self.sleep_state.copy()
        new.resting = self.resting
        new.resources = copy.deepcopy(self.resources)
        with self._context():
            rows = [(e, esper.components_for_entity(e)) for e in sorted(esper.get_entities())]
        new._insert_entities([(e, [_copy_component(c, mapping) for c in comps])
                              for e, comps in rows])
        new.next_entity = self.next_entity  # later spawns get the same ids as here
        for name, func, first in self._kept:  # a game's handlers (keep): the copy's too
            new.set_handler(name, func, with_world=first, keep=True)
        new._game_handlers = list(self._game_handlers)
        new.grabbed, new.grab_target, new.grab_from = (self.grabbed, self.grab_target,
                                                       self.grab_from)
        new.grab_local = self.grab_local
        new.use(*(stage.clone() for stage in self.pipeline))
        return new

    @property
    def next_entity(self) -> int:
        """The id the next created entity gets (ids count up and are never reused)."""
        return self._next_id

    @next_entity.setter
    def next_entity(self, value: int) -> None:
        value = limits.check("World", "next_entity", value)
        with self._context():
            self._skip_to(value)

    def _skip_to(self, entity: int) -> None:
        """Make ``entity`` the next id esper hands out (in this world's context).

        esper has no public call for a chosen id. Taking and dropping the ids before
        costs ~0.75 µs each: 3 s to reach MAX_ENTITY_ID, which a 4 KB file may ask for.
        So the ids are drawn from esper's id counter itself (an ``itertools.count``,
        ~20 ns each) when it is there; otherwise they are taken and dropped.
        """
        if self._next_id >= entity:
            return
        counter = getattr(esper, "_entity_count", None)
        if isinstance(counter, itertools.count):
            gap = entity - self._next_id
            next(itertools.islice(counter, gap, gap), None)  # draws gap ids
            self._next_id = entity
            return
        while self._next_id < entity:
            skipped = esper.create_entity()
            esper.delete_entity(skipped, immediate=True)
            self._next_id = skipped + 1

    def _insert_entities(self, rows: list[tuple[int, list[Any]]]) -> None:
        """Create entities with the given ids, ascending (loading and cloning keep ids).

        The components go to esper only: the caller builds the store's rows.
        """
        with self._context():
            for entity, comps in rows:
                if not self._next_id <= entity <= MAX_ENTITY_ID:
                    raise WorldError(f"entity {entity}: ids must ascend and be in "
                                     f"{self._next_id}..{MAX_ENTITY_ID}")
                self._skip_to(entity)
                esper.create_entity(*comps)
                self._next_id = entity + 1


class _InWorld:
    """``World._context``: esper's lock held and the world's esper context current for
    a ``with`` block. A class, not a ``contextmanager`` generator: a frame enters it a
    few times whatever the world's size, and the generator cost ~1.5 µs a time."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        _ESPER.acquire()
        try:
            if esper.current_world != self.name:
                esper.switch_world(self.name)
        except BaseException:
            _ESPER.release()
            raise

    def __exit__(self, *exc: object) -> None:
        _ESPER.release()


def _kinds_of(context: _InWorld) -> dict[type, set[int]] | None:
    """esper's index of this world's context, component type → entities holding one.

    esper 3 keeps it as a module global swapped per context; the dict itself lasts as
    long as the context (``clear_database`` empties it in place) and a type leaves it
    with its last component. It is a private name: should esper change it, ``None``
    (``_has_any`` then looks the components up)."""
    with context:
        kinds = getattr(esper, "_components", None)
    return kinds if isinstance(kinds, dict) else None


class _Existing:
    """esper's KeyError (and TypeError: not an id) for an entity it does not hold, as
    WorldError naming the entity, in a ``with`` block. A class, as ``_InWorld`` is: a
    game asks for components every frame, and the generator cost ~1.5 µs a time."""

    __slots__ = ("entity",)

    def __init__(self, entity: Any) -> None:
        self.entity = entity

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool:
        if kind is None or not issubclass(kind, (KeyError, TypeError)):
            return False
        entity = self.entity
        if isinstance(entity, int) and esper.entity_exists(entity):
            return False  # it exists: esper's own error goes on
        raise WorldError(f"entity {entity!r}: does not exist") from None


def _positional(func: Callable[..., Any]) -> int | None:
    """How many positional arguments ``func`` takes (None: any number, or unknown)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    kinds = [p.kind for p in params]
    if inspect.Parameter.VAR_POSITIONAL in kinds:
        return None
    return sum(k in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
               for k in kinds)


def _copy_component(comp: Any, mapping: dict[int, Any]) -> Any:
    if id(comp) in mapping:
        return mapping[id(comp)]
    if isinstance(comp, _Rider):
        from .store import _twin

        twin = _twin(comp)
        twin._host = mapping[id(comp._host)] if comp._host is not None else None
        return twin
    return component_copy(comp)


def _rank(comp: Any) -> int:
    for i, kind in enumerate(BUILTIN):
        if isinstance(comp, kind):
            return i
    return len(BUILTIN)


def _attach_order(components: tuple[Any, ...]) -> list[Any]:
    """Particles first, then what rides on them, then what links them."""
    return sorted(components, key=_rank)
