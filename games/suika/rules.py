"""Suika's rules as world data and one stage: the box, dropping, scoring, the game-over line.

Everything a quick save must keep lives in the world: the ``SuikaState``
resource (box walls, held and next fruit, aim, drop cooldown, score, game over,
the settle watch of fruits above the line), the fruits themselves
(``Particle`` + ``Fruit``) and the game-over line: a box ``Sensor`` over the box
above ``LINE_Y`` (marked ``OverLine``). The ``SuikaRules`` stage runs just before
Merge, keeps the score from Merge's events and ends the game when a fruit the line's
sensor holds has *settled*.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

from ecsgoo import (
    Fruit,
    Particle,
    Sensor,
    World,
    WorldError,
    fruit,
    limits,
    register_component,
    register_resource,
    systems,
)
from ecsgoo.systems import Stage, register_stage

#: World bounds (px): the box stands on the floor; the player's HUD and the merge
#: ladder on its left, NEXT and SCORE on its right.
WIDTH, HEIGHT = 960.0, 700.0
#: Inner walls of the standard box (px); a level may be narrower.
BOX_LEFT, BOX_RIGHT = 350.0, 770.0
#: The levels: number -> (name, inner left wall, inner right wall), px.
LEVELS = {
    1: ("the box", BOX_LEFT, BOX_RIGHT),
    2: ("the narrow jar", 410.0, 710.0),
}
#: Game-over line and the height where the held fruit hangs (centre), px.
LINE_Y, DROP_Y = 560.0, 635.0
#: Kinds handed to the player (0..4, like the original game).
DROP_KINDS = 5
#: Fruit surface: little friction, almost no bounce. Fruits are particles that slide but
#: do not spin, so friction stands in for rolling: a rolling fruit perched on another
#: rolls off however small the offset, and with the warm-started soft contacts friction
#: holds exactly up to its angle (atan μ). At 0.03 a fruit perched more than ~1.7° off
#: the top of another slides off (0.1 held a column of eleven dropped at one x up for
#: good), while one in the hollow between two stays, and a jammed box comes to rest.
FRICTION, RESTITUTION = 0.03, 0.05
#: Largest offset (px) added to a drop's x, drawn from the game's seeded generator: fruits
#: are particles that slide but do not spin, so a column dropped at exactly the same x
#: would stand balanced for ever; a fraction of a pixel tips it over as in the real game.
DROP_JITTER = 0.5
#: Seconds between two drops.
COOLDOWN = 0.5


@register_resource
@dataclass
class SuikaState:
    """The game in progress (a world resource, saved with it as ``suika_state``).

    ``current``/``next``: fruit kinds held and previewed; ``left``/``right``: the
    box's inner walls (px, set by the level); ``aim``: x of the held
    fruit (px); ``ready_at``: first frame a drop is allowed; ``score``: merge
    points; ``drops``: fruits dropped; ``melons``: watermelons made; ``over``:
    the box overflowed (the game has ended). The
    ``watch_*`` lists track each fruit above the line: entity, where it was when
    last seen moving (px) and since which frame it stayed within ``settle_px``
    of that point (written by ``SuikaRules``).
    """

    current: int = 0
    next: int = 0
    left: float = BOX_LEFT
    right: float = BOX_RIGHT
    aim: float = (BOX_LEFT + BOX_RIGHT) / 2
    ready_at: int = 0
    score: int = 0
    drops: int = 0
    melons: int = 0
    over: bool = False
    watch: list[int] = field(default_factory=list)
    watch_x: list[float] = field(default_factory=list)
    watch_y: list[float] = field(default_factory=list)
    watch_since: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Refuse what a hand-edited or damaged file may hold (WorldError naming the field)."""
        for name in ("current", "next"):
            limits.FIELDS["Fruit"]["kind"].check(getattr(self, name), "SuikaState", name)
        for name in ("left", "right", "aim"):
            limits.COORD.check(getattr(self, name), "SuikaState", name)
        if not self.left < self.right:
            raise WorldError(f"SuikaState: field left ({self.left}) must be below right "
                             f"({self.right})")
        for name in ("ready_at", "score", "drops", "melons"):
            limits.INT.check(getattr(self, name), "SuikaState", name)
        lists = ("watch", "watch_x", "watch_y", "watch_since")
        if len({len(getattr(self, name)) for name in lists}) != 1:
            raise WorldError("SuikaState: fields watch, watch_x, watch_y and watch_since "
                             "must be lists of one length")
        limits.check_all("Particle", "x", self.watch_x)
        limits.check_all("Particle", "y", self.watch_y)
        for e, since in zip(self.watch, self.watch_since, strict=True):
            limits.ENTITY.check(e, "SuikaState", "watch")
            limits.INT.check(since, "SuikaState", "watch_since")


@dataclass
class OverLine:
    """Marks the game-over line's Sensor: a box from the line up to the top of the world,
    wall to wall (a fruit whose disc reaches over the line is inside)."""


register_component(OverLine, name="suika_over_line")


def line_sensor_for(line_y: float, left: float, right: float) -> Sensor:
    """The line's sensor: a box over ``left..right`` from ``line_y`` up to ``HEIGHT``."""
    return Sensor.box((left + right) / 2, (line_y + HEIGHT) / 2, right - left, HEIGHT - line_y)


def line_sensor(world: World) -> Sensor:
    """The world's game-over line sensor.

    A world saved before the line was a sensor (an old quick save) gets one here, where
    the old rule looked by hand: above its ``SuikaRules`` ``line_y``, between the walls.
    """
    for _, (sensor, _) in world.get_components(Sensor, OverLine):
        return sensor
    st = state(world)
    entity = world.create_entity(line_sensor_for(rules_of(world).line_y, st.left, st.right),
                                 OverLine())
    return world.component(entity, Sensor)


def line_y(world: World) -> float:
    """Height of the game-over line (the bottom of its sensor), px."""
    return line_sensor(world).bounds()[1]


def state(world: World) -> SuikaState:
    """The world's ``SuikaState``."""
    return world.resources[SuikaState]


@register_stage
class SuikaRules(Stage):
    """Game over when a fruit the line's sensor holds stays within ``settle_px`` for
    ``grace`` s.

    Measured by displacement, not velocity: a jammed pile that jitters in
    place still ends the game, and a fresh fruit falling through the line
    keeps moving, so it never counts.
    The sensor's ``inside`` is what overlapped it at the end of the last frame;
    ``line_y`` places the sensor of a world saved without one (see ``line_sensor``).
    It runs just before Merge and adds each merge's points to the score.
    Reads: the line sensor's ``inside``; fruit positions; ``SuikaState``;
    ``fruits_merged`` events.
    Writes: ``SuikaState.watch_*``, ``over`` and ``score``; a landed fruit's ``events``
    (``on_landing``). Events: ``suika_over(world)``; a dropped fruit's first contact with
    another fruit (or a wall: not the floor), ``sound(world, "land", pitch)``.
    """

    name = "suika_rules"
    requires = (SuikaState,)

    def __init__(self, line_y: float = LINE_Y, grace: float = 1.5,
                 settle_px: float = 5.0) -> None:
        self.line_y, self.grace, self.settle_px = line_y, grace, settle_px
        self._wired: int | None = None
        # the fruits by entity, the line's sensor, and the esper answer they were read
        # from (``_line_and_fruits``)
        self._fruit_list: Any = None
        self._fruits: dict[int, Particle] = {}
        self._line: Sensor | None = None

    def settings(self) -> dict[str, Any]:
        return {"line_y": self.line_y, "grace": self.grace, "settle_px": self.settle_px}

    def process(self, world: Any) -> None:
        if self._wired != id(world):
            # handlers are neither saved nor cloned: every world running this stage
            # (a loaded quick save, an AI's look-ahead copy) scores through it
            world.set_handler("fruits_merged", on_merge)
            world.set_handler("contact_began", functools.partial(on_landing, world))
            self._wired = id(world)
        st = state(world)
        if st.over:
            return
        inside = self._line_and_fruits(world).inside
        if not inside and not st.watch:
            return  # nothing above the line, nothing watched: nothing to write
        self._settle(world, st, inside)

    def _settle(self, world: World, st: SuikaState, inside: list[int]) -> None:
        """Watch the fruits of ``inside`` (the line sensor's entities): each keeps where it
        was last seen moving and since when (``SuikaState.watch_*``); one that stayed
        within ``settle_px`` for ``grace`` s ends the game (``suika_over``).

        Most frames the sensor holds the fruits it held last frame, in the same order
        (a falling fruit, one resting over the line): their rows are then read by
        position, not through a dict of them made every frame.
        """
        watch, xs, ys, sinces = st.watch, st.watch_x, st.watch_y, st.watch_since
        # the lists are of one length (else the dict's zip raises, as it always did), and
        # each entity is watched once (a sensor's list is ascending; a file's need not be)
        same = (inside == watch and len(xs) == len(ys) == len(sinces) == len(watch)
                and len(set(watch)) == len(watch))
        old = None if same else dict(zip(watch, zip(xs, ys, sinces, strict=True),
                                         strict=True))
        bodies = self._fruits  # as ``_line_and_fruits`` found them this frame
        frame, settle_px = world.frame, self.settle_px
        grace_frames = round(self.grace / world.dt)
        new_watch: list[int] = []
        new_x: list[float] = []
        new_y: list[float] = []
        new_since: list[int] = []
        for i, e in enumerate(inside):
            body = bodies.get(e)
            if body is None:  # not a fruit (or gone since the sensor saw it)
                continue
            x, y = body.x, body.y
            if old is None:
                ox, oy, since = xs[i], ys[i], sinces[i]
            else:
                ox, oy, since = old.get(e, (x, y, frame))
            if math.hypot(x - ox, y - oy) > settle_px:
                ox, oy, since = x, y, frame
            new_watch.append(e)
            new_x.append(ox)
            new_y.append(oy)
            new_since.append(since)
            if frame - since >= grace_frames:
                st.over = True
        st.watch, st.watch_x, st.watch_y, st.watch_since = new_watch, new_x, new_y, new_since
        if st.over:
            world.dispatch("suika_over", world)

    def _line_and_fruits(self, world: World) -> Sensor:
        """The line's sensor (``line_sensor``), and each fruit's ``Particle`` (a particle
        with a ``Fruit``) by entity in ``self._fruits``.

        The fruits the sensor holds are then a dict look-up each (~0.05 µs), not two
        ``try_component`` (~1.6 µs). Both are looked up again only when
        ``get_components(Particle, Fruit)`` answers with another list: esper keeps its
        answer, the same list object, until a component comes or goes in that world (a
        drop, a merge, a delete; ~19 frames in 20 have none), and while none does the
        sensor found is still the line's. The list kept here cannot be freed, so a new
        answer is never mistaken for it.
        """
        found = world.get_components(Particle, Fruit)
        if found is not self._fruit_list or self._line is None:
            self._fruits = {e: body for e, (body, _) in found}
            # an old save gets its line here (a new component: the next frame looks again)
            self._line = line_sensor(world)
            self._fruit_list = found
        return self._line


def on_landing(world: World, a: int, b: int, x: float, y: float, nx: float,
               ny: float) -> None:
    """``contact_began`` handler: a dropped fruit has landed on another fruit or the level.

    One thud a landing (the ``sound`` event the player plays), pitched by the
    faster of the two (the one that fell: lower for a bigger fruit), and both stop
    reporting contacts, so a full box watches none of its fruits. A fruit that reaches
    the floor (the level, ``b`` −1, at ``(x, y)`` on the fruit no higher than the bottom
    bound and the contact slop) lands silently, as the first fruit of a game does.
    """
    falling = []
    for e in (a, b):
        body, kind = world.try_component(e, Particle), world.try_component(e, Fruit)
        if body is not None and kind is not None and body.events:
            falling.append((math.hypot(body.vx, body.vy), kind.kind, body))
    if not falling:
        return
    if not (b < 0 and world.bounds is not None
            and y <= world.bounds[1] + world.contact_slop):
        world.dispatch("sound", world, "land", landing_pitch(max(falling, key=_speed)[1]))
    for _, _, body in falling:
        body.events = False


def _speed(entry: tuple[float, int, Any]) -> float:
    return entry[0]


def landing_pitch(kind: int) -> float:
    """Playback speed of a fruit of ``kind`` landing: an octave lower over the drop kinds."""
    return 2.0 ** (-int(kind) / max(DROP_KINDS - 1, 1))


def on_merge(world: World, event: Any) -> None:
    """``fruits_merged`` handler: add the merge's points to the score, count watermelons."""
    st = state(world)
    if st.over:  # the last fruits settling after the end do not count
        return
    st.score += int(event.score)
    st.melons += event.kind == fruit.LARGEST - 1


def build_box(current: int, nxt: int, left: float = BOX_LEFT,
              right: float = BOX_RIGHT) -> World:
    """A fresh game: the box (two walls on the floor), the state, the pipeline.

    The walls fill the world out to its edges: a small fruit squeezed hard
    into a thin wall could be pushed out through its far side.
    """
    # no sleeping: every drop lands on the pile and wakes it, so a game's pile is almost
    # never asleep (0.8 of 30 fruits on average, a frame's sleeping look cost a quarter of
    # it: BENCHMARKS.md, "Suika's pile awake")
    world = World(bounds=(0.0, 0.0, WIDTH, HEIGHT))
    for x0, x1 in ((0.0, left), (right, WIDTH)):
        world.add_polygon([(x0, 0.0), (x1, 0.0), (x1, HEIGHT), (x0, HEIGHT)])
    world.add_resource(SuikaState(current=current, next=nxt, left=left, right=right,
                                   aim=(left + right) / 2))
    world.create_entity(line_sensor_for(LINE_Y, left, right), OverLine())
    # no springs or constraints: Project and Break would have nothing to do
    world.use(systems.Integrate(), systems.Collide(), SuikaRules(), systems.Merge())
    return world


def rules_of(world: World) -> SuikaRules:
    """The ``SuikaRules`` stage of ``world``'s pipeline (its line and grace time)."""
    for stage in world.pipeline:
        if isinstance(stage, SuikaRules):
            return stage
    raise LookupError("suika: this world's pipeline has no suika_rules stage")


def clamp_aim(world: World, x: float, kind: int) -> float:
    """Where a fruit of ``kind`` aimed at ``x`` can be dropped (inside the box), px."""
    st, r = state(world), fruit.RADII[kind]
    return min(max(float(x), st.left + r), st.right - r)


def can_drop(world: World) -> bool:
    """Whether the held fruit may be dropped now (cooldown over, game not lost)."""
    st = state(world)
    return not st.over and world.frame >= st.ready_at


def drop(world: World, x: float, upcoming: int, jitter: float = 0.0) -> int:
    """Drop the held fruit at ``x`` + ``jitter`` px (clamped into the box); ``upcoming``
    becomes the next preview. The aim stays at ``x`` (clamped).

    Returns the new fruit entity. The caller checks ``can_drop`` first.
    """
    st = state(world)
    kind = st.current
    st.aim = clamp_aim(world, x, kind)
    at = clamp_aim(world, st.aim + jitter, kind)
    # it reports its first contact (``on_landing``: the thud), then stops reporting
    e = world.create_entity(Particle(at, DROP_Y, friction=FRICTION, restitution=RESTITUTION,
                                     events=True), Fruit(kind))
    st.current, st.next = st.next, upcoming
    st.ready_at = world.frame + round(COOLDOWN / world.dt)
    st.drops += 1
    return e
