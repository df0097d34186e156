"""Reading the goo structure out of a world, and the rule for where a dropped ball attaches.

Pure queries (no stepping): the bot, the input handlers, the preview and the
rules stage all use the same answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ecsgoo import ALL, Particle, Sensor, Spring, World
from ecsgoo.analysis import connected_components
from ecsgoo.geometry import point_in_polygon
from ecsgoo.kernels.structure import members

from .components import DETACHABLE, EDITS, Goal, GooBall, GooRulesState


@dataclass
class Balls:
    """The goo balls of a world, sorted by entity (arrays of the same length).

    ``pos`` (px) is a copy; ``linked``: the ball is anchored or has an unbroken
    link (it belongs to the structure); ``grounded``: connected to an anchor;
    ``crawling``: a free ball on a link of the structure; ``sucked``: flying
    into the open pipe (free, but no longer the player's); ``kind`` (``components.KINDS``)
    of each; ``pinned``: anchored; ``balloon``: of kind balloon (free or placed).
    ``particles`` and ``goo``: each ball's Particle and GooBall (live views, in the same
    order), so a stage going over the balls looks none of them up again. ``placed``,
    ``crawling``, ``kind`` and ``balloon`` are read-only (shared by the ``Balls`` of one
    read). ``read``: the ``Read`` it was made from (``current_read``); ``target``: the open
    pipe's ball (``pipe_node``) once a stage of the frame asked (``frame_target``);
    ``memo``: what the goo stages worked out of it (``memo``).
    """

    entities: np.ndarray
    rows: np.ndarray
    pos: np.ndarray
    free: np.ndarray
    placed: np.ndarray
    linked: np.ndarray
    grounded: np.ndarray
    crawling: np.ndarray
    sucked: np.ndarray
    kind: np.ndarray
    pinned: np.ndarray
    balloon: np.ndarray
    particles: list[Particle]
    goo: list[GooBall]
    read: Read | None = None
    target: int | None = None
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    @property
    def structure(self) -> np.ndarray:
        """Balls of the structure that reach an anchor (what new balls link to, crawlers
        climb on and the pipe opens for): not the balloons, which only pull on it."""
        return self.grounded & ~self.free & ~self.balloon

    @property
    def usable(self) -> np.ndarray:
        """Free balls the player may pick up and build with (a free balloon too)."""
        return self.free & ~self.sucked

    @property
    def buildable(self) -> np.ndarray:
        """Free goo balls the player may place to build (not the balloons, which are tied on
        rather than built with, nor the balls flying into the pipe)."""
        return self.usable & ~self.balloon

    @property
    def collectable(self) -> np.ndarray:
        """Free balls the pipe may yet take: every free ball but the balloons."""
        return self.free & ~self.balloon

    @property
    def detachable(self) -> np.ndarray:
        """Placed balls of a detachable kind (ivy, balloons) the player may pick off the
        structure again (not the anchors)."""
        return ~self.free & ~self.pinned & np.isin(self.kind, DETACHABLE)


class Kept:
    """What ``balls``, the goo stages and the crawl keep of one world between calls (its
    resource: ``kept``): the balls' ``read``, the last ``shapes``, ``_grounded``'s own
    answer, the ``frame``'s balls, the ``intake`` found and the ``crawl``'s arrays. A
    resource, so it goes with its world (a weak map from worlds kept each world alive:
    what it held, the components, reaches the world); not saved (not registered), and a
    copy of the world (``World.clone`` deep-copies its resources) starts empty: its
    components are others."""

    def __init__(self) -> None:
        self.read: Read | None = None
        self.shapes: tuple[Shape, ...] = ()
        self.grounded: tuple[tuple[Any, ...], np.ndarray] | None = None
        self.frame: tuple[tuple[int, ...], Balls, Shape] | None = None
        self.intake: tuple[Any, Sensor] | None = None
        self.crawl: tuple[Any, ...] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Kept:
        return Kept()


def kept(world: World) -> Kept:
    """``world``'s ``Kept`` (made the first time: a dict look-up after that)."""
    got = world.resource(Kept)
    if got is None:
        got = Kept()
        world.add_resource(got)
    return got


def rules_state(world: World) -> GooRulesState:
    """The level's rules state (exactly one per goo world)."""
    return world.get_component(GooRulesState)[0][1]


def to_place(world: World, bs: Balls | None = None) -> int:
    """Goo balls the player has to build with: the supply pile and the ``buildable`` free
    balls (``bs``: ``balls(world)`` if already read)."""
    bs = balls(world) if bs is None else bs
    return rules_state(world).supply + int(np.count_nonzero(bs.buildable))


def goal(world: World) -> Goal:
    """The level's goal pipe."""
    return world.get_component(Goal)[0][1]


def intake(world: World) -> Sensor:
    """The pipe's intake: the Sensor on the Goal's entity (what it senses reaches the pipe).

    A world saved before the pipe had one (an old quick save) gets it here: a circle
    of the pipe's suction radius at its mouth.
    """
    goals, mine = world.get_component(Goal), kept(world)
    if mine.intake is not None and mine.intake[0] is goals:
        return mine.intake[1]  # no component came or went since (esper keeps its list till then)
    entity, g = goals[0]
    sensor = world.try_component(entity, Sensor)
    if sensor is None:
        sensor = Sensor.circle(g.x, g.y, g.suck)
        world.add_component(entity, sensor)
        sensor = world.component(entity, Sensor)
        goals = world.get_component(Goal)  # a new list: a component came
    mine.intake = (goals, sensor)  # the Goal list esper gave and the intake found with it
    return sensor


def balls(world: World, report: Any = None) -> Balls:
    """Every goo ball and where it stands.

    ``report``: this frame's ``StructureReport`` (the rules stage passes it,
    right after Analyze); without one, connectivity is computed here, because
    between steps the player may have added or removed balls since the report.
    """
    r, p, s = _read(world), world.particles, world.springs
    return _balls(r, _shape(world, r, _grounded(world, report, p, s), p, s), p)


def _balls(r: Read, shape: Shape, p: Any) -> Balls:
    """The ``Balls`` of read ``r`` and its ``shape``: positions read now, ``free`` and
    ``sucked`` copied (the goo stages keep them up to date for the stages after them:
    ``frame_balls``), the other arrays shared, read-only but for ``entities`` and ``rows``
    (writable: the kernels take them so, as ``ecsgoo.warmup`` does; nothing writes them)."""
    rows = shape.rows
    return Balls(r.entities.copy(), rows, p.pos[rows], r.free.copy(), r.placed,
                 shape.linked, shape.grounded, r.crawling, r.sucked.copy(), r.kind,
                 shape.pinned, r.balloon, list(r.particles), list(r.goo), r)


@dataclass(eq=False)
class Shape:
    """What ``balls`` works out of a ``Read`` and the links, which stays while no particle
    or spring comes or goes and no link breaks nor pin changes: each ball's particle
    ``rows``, whether it is ``linked`` and ``grounded`` (``kernels.structure.members``),
    and ``pinned``. ``source``: the per-row grounded flags it was made from (the report's,
    or ``_grounded``'s own; held, so compared by identity); ``key``: the particle and
    spring tables' versions; ``broken`` and ``pins``: the flags' bytes then."""

    read: Read
    source: np.ndarray
    key: tuple[int, int]
    broken: bytes
    pins: bytes
    rows: np.ndarray
    linked: np.ndarray
    grounded: np.ndarray
    pinned: np.ndarray


def _shape(world: World, r: Read, grounded: np.ndarray, p: Any, s: Any) -> Shape:
    """The ``Shape`` of ``world``'s read ``r`` with per-row ``grounded`` flags (``p``, ``s``:
    its ``particles`` and ``springs``): the last one while it still holds
    (the same read and flags array, no row came or went, the same broken and pinned flags:
    most frames), else worked out anew (``members``: ~5 µs in a frame)."""
    broken, pinned = s.broken, p.pinned
    key = (p.version, s.version)
    mine = kept(world)
    for old in mine.shapes:  # the newest first: the frame's (of the report), the one read
        # between steps (of ``_grounded``'s own flags)
        if (old.source is grounded and old.read is r and old.key == key
                and old.broken == broken.tobytes() and old.pins == pinned.tobytes()):
            return old
    rows, linked, held = members(p.entity, pinned, s.a, s.b, broken, grounded,
                                 r.entities.copy())  # writable, as the warm-up passes it
    on = pinned[rows]
    for a in (linked, held, on):
        a.flags.writeable = False  # shared by every ``Balls`` of this shape
    shape = Shape(r, grounded, key, broken.tobytes(), pinned.tobytes(), rows, linked, held, on)
    mine.shapes = (shape, *mine.shapes[:1])
    return shape


@dataclass(eq=False)
class Read:
    """What ``_read`` read of a world's goo balls, by entity: their ids, Particle and
    GooBall components, and the GooBall fields ``balls`` reports (read-only arrays).

    Kept while ``found`` is the list esper gives (it keeps one until a component comes
    or goes) and no counted goo-ball write happened (``components.EDITS`` is ``edits``).
    While esper gives ``found`` no component of the world came or went since it was made
    (esper drops every kept list at once then), so what ``found_with`` keeps holds too.
    """

    found: Any
    edits: int
    entities: np.ndarray
    particles: list[Particle]
    goo: list[GooBall]
    free: np.ndarray
    placed: np.ndarray
    crawling: np.ndarray
    sucked: np.ndarray
    balloon: np.ndarray
    kind: np.ndarray
    #: The world's rules state and the pipe's intake, once a goo stage asked
    #: (``frame_rules``, ``frame_intake``): current as long as ``found`` is.
    found_with: dict[str, Any] = field(default_factory=dict)


def _read(world: World) -> Read:
    """The goo balls by entity (``Read``), read anew only when the world's balls or one of
    their counted fields changed: read anew, a few dozen balls cost ~20 µs a frame."""
    found, mine = world.get_components(Particle, GooBall), kept(world)
    last = mine.read
    if last is not None and last.found is found and last.edits == EDITS[0]:
        return last
    ordered = sorted(found, key=_entity)
    goo = [g for _, (_, g) in ordered]
    fields = np.array([(g.free, g.placed, g.link, g.sucked, g.kind == "balloon") for g in goo],
                      dtype=np.int64).reshape(-1, 5)
    free = fields[:, 0].astype(bool)
    arrays = [np.array([e for e, _ in ordered], dtype=np.int64), free, fields[:, 1].copy(),
              free & (fields[:, 2] != 0), fields[:, 3].astype(bool), fields[:, 4].astype(bool),
              np.array([g.kind for g in goo], dtype=object)]
    for a in arrays:
        a.flags.writeable = False  # shared by every ``Balls`` of this read
    ents, free, placed, crawling, sucked, balloon, kind = arrays
    read = Read(found, EDITS[0], ents, [p for _, (p, _) in ordered], goo, free, placed,
                crawling, sucked, balloon, kind)
    mine.read = read
    return read


def current_read(world: World, bs: Balls) -> Read | None:
    """The ``Read`` ``bs`` was made from, while it is still current (no goo ball came, went
    or had a counted field written since); else ``None``."""
    last = kept(world).read
    if last is None or last is not bs.read or last.edits != EDITS[0]:
        return None
    return last


def frame_balls(world: World, report: Any, fresh: bool = False) -> Balls:
    """``balls(world, report)`` for the goo stages of one frame: read once (by the first
    of them, ``fresh``) and shared by those after it in the same frame, which keep it up
    to date as they change it (a freed orphan, a caught ball: counted writes, so the next
    frame reads them anew). Read again if the frame or the report changed since, or a
    particle or spring came or went (a ball went in). A new frame's read reuses the last frame's
    ``Balls`` while its read and shape still hold (most frames: the same balls and links),
    its positions read again and its pipe ``target`` forgotten, and with them what
    ``memo`` keeps."""
    p, s = world.particles, world.springs  # each look-up makes a view: once a call
    key, mine = (world.frame, id(report), p.version, s.version), kept(world)
    last = mine.frame  # the frame's balls as the rules stage read them, its key and shape
    if not fresh and last is not None and last[0] == key:
        return last[1]
    r = _read(world)
    shape = _shape(world, r, _grounded(world, report, p, s), p, s)
    if last is not None and last[2] is shape and last[1].read is r:
        bs = last[1]
        bs.pos, bs.target = p.pos[shape.rows], None
    else:
        bs = _balls(r, shape, p)
    mine.frame = (key, bs, shape)
    return bs


def frame_rules(world: World, bs: Balls) -> GooRulesState:
    """``rules_state(world)`` for the goo stages of a frame, ``bs`` being its ``frame_balls``:
    kept with the read ``bs`` came from (looked up once while no component comes or goes,
    not once a stage: an esper look-up costs ~2 µs in a frame)."""
    kept = bs.read.found_with if bs.read is not None else {}
    rules = kept.get("rules")
    if rules is None:
        rules = kept["rules"] = rules_state(world)
    return rules


def frame_intake(world: World, bs: Balls) -> Sensor:
    """``intake(world)`` for the goo stages of a frame, kept like ``frame_rules``."""
    kept = bs.read.found_with if bs.read is not None else {}
    sensor = kept.get("intake")
    if sensor is None:
        sensor = intake(world)
        if world.get_components(Particle, GooBall) is bs.read.found:  # no intake was added
            kept["intake"] = sensor
    return sensor


def memo(bs: Balls, name: Any, make: Any) -> Any:
    """``make()``, kept in ``bs.memo`` under ``name`` for as long as ``bs`` is the frame's
    (``frame_balls``: the same balls, links and fields): a mask or count of the goo stages
    that only changes with them. A stage that changes ``bs`` (``free``, ``sucked``) empties
    the memo."""
    got = bs.memo.get(name)
    if got is None:
        got = bs.memo[name] = make()
    return got


def _entity(item: tuple[int, Any]) -> int:
    return item[0]


def pipe_node(world: World, bs: Balls) -> int:
    """The structure ball the open pipe draws the crawlers to: of those its intake senses,
    the nearest the mouth; ``-1`` while the pipe is closed (no structure ball reached it)."""
    return _node_at(world, bs, intake(world))


def _node_at(world: World, bs: Balls, sensor: Sensor) -> int:
    """``pipe_node`` of the pipe's intake ``sensor``."""
    sensed = set(sensor.inside)  # a few entities: a set, not np.isin's sort
    if not sensed:
        return -1  # nothing at the mouth (most frames)
    inside = np.array([e in sensed for e in bs.entities.tolist()], dtype=bool) & bs.structure
    if not inside.any():
        return -1
    g = goal(world)
    dist = np.hypot(bs.pos[inside, 0] - g.x, bs.pos[inside, 1] - g.y)
    return int(bs.entities[inside][np.argmin(dist)])


def frame_target(world: World, bs: Balls) -> int:
    """``pipe_node`` for the goo stages of one frame (``frame_balls``' ``bs``): worked out
    by the first that asks, kept in ``bs.target`` (within a frame no stage moves the
    structure's balls or what the intake holds)."""
    if bs.target is None:
        bs.target = _node_at(world, bs, frame_intake(world, bs))
    return bs.target


def _grounded(world: World, report: Any, p: Any = None, s: Any = None) -> np.ndarray:
    """Per particle row: whether it reaches an anchor through unbroken links (this frame's
    ``report`` when it has every row, else worked out here: kept while no row comes or
    goes and the broken and pinned flags stay, so the same array while they do). ``p``,
    ``s``: ``world.particles`` and ``world.springs`` if the caller has them."""
    p = world.particles if p is None else p
    s = world.springs if s is None else s
    if report is not None and len(report.grounded) == len(p):
        given = report.grounded
        # itself when it is bools (``_shape`` knows it again): ``np.asarray(.., bool)`` made a
        # new view of the kernel's array every time
        return given if given.dtype == np.bool_ else np.asarray(given, dtype=bool)
    broken, pinned = s.broken, p.pinned
    key = (p.version, s.version, broken.tobytes(), pinned.tobytes())
    mine = kept(world)
    if mine.grounded is not None and mine.grounded[0] == key:
        return mine.grounded[1]
    ok = ~broken
    labels = connected_components(len(p), s.a[ok], s.b[ok])
    grounded = np.isin(labels, labels[pinned])
    grounded.flags.writeable = False  # as the report's: one compiled ``members``
    mine.grounded = (key, grounded)  # and its key: the versions, the flags' bytes
    return grounded


@dataclass
class Attach:
    """Where a ball dropped at ``(x, y)`` would link: ``targets`` (entities), or why not."""

    x: float
    y: float
    targets: list[int]
    hint: str = ""
    #: When refused as out of reach: the one ball (if any) that is in range.
    near: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the ball would attach."""
        return not self.hint


def attach_targets(world: World, x: float, y: float, exclude: int = -1,
                   kind: str = "common") -> Attach:
    """The two nearest structure balls within build range of ``(x, y)`` (one, the nearest,
    for a balloon's strand), or a refusal hint.

    Structure balls are those connected to an anchor (falling debris does not count).

    Refused when fewer balls than the kind needs are in range, when a ball of the
    structure is closer than ``min_gap``, or when the spot is inside the level's rock.
    ``exclude`` is the ball being dragged (it does not link to itself); ``kind`` its kind
    (``components.KINDS``).
    """
    need = 1 if kind == "balloon" else 2
    rules = rules_state(world)
    bs = balls(world)
    mine = bs.structure & (bs.entities != exclude)
    if any(point_in_polygon((x, y), poly) for poly in world.level.polygons) or \
            _into_rock(world, x, y, rules.ball_radius):
        return Attach(x, y, [], "inside the rock")
    others = ~bs.free & (bs.entities != exclude)  # crawlers pass by: they do not count
    gaps = np.hypot(*(bs.pos[others] - (x, y)).T)
    if len(gaps) and gaps.min() < rules.min_gap:
        return Attach(x, y, [], "too close")
    dist = np.hypot(*(bs.pos[mine] - (x, y)).T)
    near = np.argsort(dist, kind="stable")[:need]
    found = [int(e) for e in bs.entities[mine][near]]
    if len(near) < need or dist[near[-1]] > rules.build_range:
        in_range = found[: int(np.sum(dist[near] <= rules.build_range))]
        what = "a ball" if need == 1 else f"{need} balls"
        return Attach(x, y, [], f"out of reach (needs {what})", in_range)
    return Attach(x, y, found)


def _into_rock(world: World, x: float, y: float, radius: float) -> bool:
    """Whether a ball's disc at ``(x, y)`` would reach into the level's rock (its edges
    nearer than the radius: the solver would fling it out)."""
    segs = world.level.segments
    if not len(segs):
        return False
    a, b = segs[:, :2], segs[:, 2:]
    e = b - a
    t = np.clip(((x - a[:, 0]) * e[:, 0] + (y - a[:, 1]) * e[:, 1])
                / np.maximum((e**2).sum(axis=1), 1e-12), 0.0, 1.0)
    near = np.hypot(a[:, 0] + t * e[:, 0] - x, a[:, 1] + t * e[:, 1] - y)
    return bool(near.min() < radius)


def place_ball(world: World, x: float, y: float, ball: int = -1) -> Attach:
    """Attach a ball at ``(x, y)``: the dragged free ``ball`` (a crawler the player took off
    the structure, or a loose one), or a new one from the supply (if the level has one).

    Returns the attach decision; nothing changes when it is refused.
    """
    rules = rules_state(world)
    if ball < 0 and rules.supply <= 0:
        return Attach(x, y, [], "no goo balls left in the supply")
    spot = attach_targets(world, x, y, ball, kind_of(world, ball))
    if not spot.ok:
        return spot
    rules.placed += 1
    if ball < 0:
        rules.supply -= 1
        ball = world.create_entity(
            Particle(x, y, mass=rules.ball_mass, radius=rules.ball_radius),
            GooBall(placed=rules.placed))
    else:
        p = world.particles  # ``x, y, vx, vy = x, y, 0, 0`` on its Particle, in one write
        p.place(np.array([p.row(ball)]), np.array([[float(x), float(y)]]), np.zeros((1, 2)))
        goo = world.component(ball, GooBall)
        goo.placed, goo.free, goo.link, goo.sucked = rules.placed, False, 0, False
        world.component(ball, Particle).mask = ALL
    for other in spot.targets:
        world.create_entity(Spring(ball, other, stiffness=rules.stiffness,
                                   max_stretch=rules.max_stretch))
    return spot


def kind_of(world: World, ball: int) -> str:
    """The kind of goo ball ``ball`` (``-1``, a ball from the supply: ``common``)."""
    return "common" if ball < 0 else world.component(ball, GooBall).kind


def detach(world: World, ball: int) -> bool:
    """Pick placed ``ball`` of a detachable kind (ivy, a balloon) off the structure: its links
    go and it is a free ball again (one less placed if the player had placed it). ``False``
    (and nothing changes) for a ball that is not placed, is anchored or is of a kind that
    stays put. Balls that hung only on it fall loose (the rules free them)."""
    goo = world.try_component(ball, GooBall)
    p = world.try_component(ball, Particle)
    if goo is None or p is None or goo.free or goo.kind not in DETACHABLE \
            or world.particles.pinned[world.particles.row(ball)]:
        return False
    _unlink(world, ball)
    if goo.placed > 0:
        rules_state(world).placed -= 1
    goo.placed, goo.free, goo.link, goo.sucked = 0, True, 0, False
    return True


def _unlink(world: World, ball: int) -> list[int]:
    """Delete every link at ``ball``; return the balls at their other ends."""
    ends = []
    for spring, link in world.get_component(Spring):
        if ball in (link.a, link.b):
            ends.append(link.b if link.a == ball else link.a)
            world.delete_entity(spring)
    return ends


def undo(world: World) -> bool:
    """Take back the last ball the player attached: its links go, and it is a free ball
    again, crawling from the structure ball it was linked to (a balloon floats where it is;
    the counts agree: one less placed, one more free)."""
    bs = balls(world)
    mine = np.flatnonzero((bs.placed > 0) & ~bs.free)
    if not len(mine):
        return False
    ball = int(bs.entities[mine[np.argmax(bs.placed[mine])]])
    ends = _unlink(world, ball)
    goo = world.component(ball, GooBall)
    goo.placed, goo.free = 0, True
    rules_state(world).placed -= 1
    if goo.kind == "balloon":
        return True  # it floats where it was: balloons do not crawl
    for node in sorted(ends):
        if board(world, ball, node):
            break
    return True


def links_at(world: World, node: int) -> list[tuple[int, int]]:
    """The unbroken links at structure ball ``node``: ``(spring entity, other end)``, by entity."""
    out = []
    for spring, link in world.get_component(Spring):
        if not link.broken and node in (link.a, link.b):
            out.append((spring, link.b if link.a == node else link.a))
    return sorted(out)


def board(world: World, ball: int, node: int) -> bool:
    """Put free ``ball`` on the structure at ``node``: on its first unbroken link, heading
    away from it; it stops colliding (a crawler must not push the structure). ``False``
    (and nothing changes) when ``node`` has no link."""
    found = links_at(world, node)
    if not found:
        return False
    spring = found[0][0]
    goo = world.component(ball, GooBall)
    at_a = world.component(spring, Spring).a == node
    goo.link, goo.t, goo.heading, goo.sucked = spring, 0.0 if at_a else 1.0, 1 if at_a else -1, \
        False
    world.component(ball, Particle).mask = 0
    return True


def drop_off(world: World, ball: int) -> None:
    """Free ``ball`` leaves the structure (or the pipe's pull): it lies or falls loose and
    collides again."""
    goo = world.component(ball, GooBall)
    goo.link, goo.sucked = 0, False
    world.component(ball, Particle).mask = ALL
