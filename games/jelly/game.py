"""jelly — a soft-body playground: jelly balls, a box pyramid, ropes and chains.

What it shows: pressurised jelly balls (ring, skip-one and spoke springs plus an
area constraint), shape-matched boxes stacked as a 4-layer pyramid that stands
until you poke it, Verlet ropes and heavier chains, all colliding with each
other. Sliders change the physics live for every body at once: damping,
gravity, spring stiffness, ball pressure (0.35 slumped … 2.2 taut) and box
shape-match alpha (0.04 soft … 1 rigid); a wireframe toggle; buttons spawn a
ball, a box, a rope, a chain or a rigid crate, and reset the level. Level 3
has a pyramid of rigid crates and a hinged plank (a seesaw) to drop balls on;
level 4 a basket on a post across the room.

Controls: press near anything (within 30 px of one of its particles) and drag
to pull it; let go while moving to fling it. Keys: ``b`` ball, ``x`` box,
``o`` rope, ``c`` chain, ``k`` crate (and the player's ``r`` restart, ``tab`` wireframe,
``p`` pause, ``f5``/``f9`` quick save/load).

Levels 1 and 2 have no winning or losing: the status stays ``running``. The
score counts flings (releases faster than 400 px/s); the summary also reports
the highest a flung particle rose (``max_height``, px above the ground).
Level 3 is won by knocking 4 crates of the pyramid down with 3 flings
(``challenge``), level 4 by landing a ball in the basket with 3 flings, thrown
from behind the dashed line (``basket``; the score: flings to spare + 1).

Run: ``ecsgoo play jelly`` (``--level 2`` for the hammock, ``--level 3`` for the
crates, ``--level 4`` for the basket; ``--headless --frames 600 --bot`` to watch
the poker bot, which on level 4 aims for the basket).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from ecsgoo import Particle, RigidBody, World
from ecsgoo.game import Game, Status, Widget, register_game
from ecsgoo.geometry import point_in_polygon
from ecsgoo.render import Render

from . import basket, bots, card, challenge, rules
from .build import KINDS, spawn

#: Keys that spawn bodies (the player keeps R restart, Tab wireframe, P pause).
SPAWN_KEYS = {"b": "ball", "x": "box", "o": "rope", "c": "chain", "k": "crate"}
#: How far from a particle a press still grabs it (px).
GRAB_RADIUS = 30.0
#: How recent (s) a pointer move must be to count for a fling's speed, the fastest throw
#: it gives (px/s), how far apart in time (s) pointer events must be to be two samples, and
#: the longest a move between two samples is taken to have lasted (a frame at 9 fps).
FLING_WINDOW, MAX_THROW, MIN_GAP, MAX_GAP = 0.1, 2500.0, 1 / 120, 1 / 9


@register_game
class JellyGame(Game):
    """The soft-body playground (see the module docstring)."""

    name = "jelly"
    title = "Jelly playground"
    levels = ("pyramid playground", "hammock", "crates and seesaw", "basket")
    bots = ("poker", "random")
    editor_kit = ".pieces"  # the level editor's pieces (ecsgoo edit)
    hints = ("drag to fling", "B ball", "X box", "O rope", "C chain", "K crate")

    def __init__(self, level: int = 1, seed: int = 0) -> None:
        self._gesture = bots.Gesture()
        self._pointer: tuple[float, float] | None = None
        self._path: deque[tuple[float, float, float]] = deque(maxlen=32)
        #: Crates down when the pyramid was won: the score shown and recorded from then on
        #: (more crates fall after the win; the recorded score was the count at the win).
        self._won_down: int | None = None
        super().__init__(level, seed)

    def build(self) -> World:
        """Load ``levels/<n>.toml`` (``make_levels.py`` writes it from ``build.build_level``)."""
        return self.load_level()

    def restart(self) -> None:
        super().restart()
        self._gesture = bots.Gesture()
        self._pointer = None
        self._path.clear()
        self._won_down = None

    def adopt(self, world: World) -> None:
        """Continue ``world`` (a quick load); a save from before the balls eased into a
        new pressure gets its ``Inflate`` stage, aiming at the pressure it has."""
        if not any(isinstance(stage, rules.Inflate) for stage in world.pipeline):
            world.use(rules.Inflate(), *world.pipeline)
        if not world.get_component(rules.Inflation) and len(world.areas):
            world.create_entity(rules.Inflation(float(world.areas.pressure[0])))
        super().adopt(world)
        self._pointer = None
        self._won_down = None

    # -- status -----------------------------------------------------------------

    def status(self) -> Status:
        st = rules.stats(self.world)
        extra = {"max_height": round(st.max_height, 1)}
        cup = basket.goal(self.world)
        if cup is not None:
            extra["in_basket"] = cup.landed
            return Status(basket.result(self.world, cup), basket.score(cup), extra)
        goal = challenge.goal(self.world)
        if goal is None:
            return Status("running", st.flings, extra)
        result = challenge.result(self.world, goal)
        if result == "won" and self._won_down is None:
            self._won_down = challenge.down(self.world, goal)
        extra["crates_down"] = (self._won_down if self._won_down is not None
                                else challenge.down(self.world, goal))
        return Status(result, extra["crates_down"], extra)

    def hud(self) -> list[str]:
        st = rules.stats(self.world)
        cup = basket.goal(self.world)
        if cup is not None:
            return [basket.hud(self.world, cup)]
        goal = challenge.goal(self.world)
        if goal is None:
            return [f"flings {st.flings}   highest fling {st.max_height:.0f} px"]
        return [challenge.hud(self.world, goal)]

    # -- widgets ------------------------------------------------------------------

    def widgets(self) -> list[Widget]:
        w = self.world
        return [
            Widget("slider", "damping", self.set_damping, w.damping, *rules.DAMPING),
            Widget("slider", "gravity", self.set_gravity, -w.gravity[1], *rules.GRAVITY),
            Widget("slider", "stiffness", self.set_stiffness, rules.stiffness(w),
                   *rules.STIFFNESS),
            Widget("slider", "pressure", self.set_pressure, rules.pressure(w), *rules.PRESSURE),
            Widget("slider", "shape alpha", self.set_alpha, rules.alpha(w), *rules.ALPHA),
            Widget("toggle", "wireframe", self.set_wireframe, self.wireframe),
            *(Widget("button", f"+ {kind}", _Spawner(self, kind)) for kind in KINDS),
            Widget("button", "reset", self.reset),
        ]

    def set_damping(self, value: float) -> None:
        """Fraction of velocity kept per 1/60 s (a world setting)."""
        self.world.damping = _clamp(value, rules.DAMPING)

    def set_gravity(self, value: float) -> None:
        """Downward gravity, px/s² (a world setting)."""
        self.world.gravity = (0.0, -_clamp(value, rules.GRAVITY))

    def set_stiffness(self, value: float) -> None:
        """Stiffness of every spring (the springs' compliance rows)."""
        rules.set_stiffness(self.world, _clamp(value, rules.STIFFNESS))

    def set_pressure(self, value: float) -> None:
        """Pressure of every jelly ball (the rings' pressure rows)."""
        rules.set_pressure(self.world, _clamp(value, rules.PRESSURE))

    def set_alpha(self, value: float) -> None:
        """Shape-match alpha of every box (the shapes' alpha rows)."""
        rules.set_alpha(self.world, _clamp(value, rules.ALPHA))

    @property
    def wireframe(self) -> bool:
        """Whether the world is drawn as particles and springs (the Render stage's flag)."""
        return Render.of(self.world).wireframe

    def set_wireframe(self, value: bool) -> None:
        """Draw every particle and spring instead of bodies (saved with the pipeline)."""
        Render.of(self.world).wireframe = bool(value)

    def reset(self, _value: Any = True) -> None:
        """Start the level again (the reset button)."""
        self.restart()

    def spawn(self, kind: str) -> None:
        """Drop a new ball, box, rope, chain or crate (ignored past the budget)."""
        spawn(self.world, kind, self.rng)

    # -- input ----------------------------------------------------------------------

    def on_press(self, x: float, y: float, button: int = 1) -> None:
        entity = self.nearest_particle(x, y)
        if entity < 0:  # no particle there: a crate (or plank) under the pointer
            bodies = self.world.bodies
            entity = next((e for e in self.world.query_point(x, y)
                           if self.world.has_component(e, RigidBody)
                           and bodies.w[bodies.row(e)] > 0), -1)
        self._path.clear()
        self._trace(x, y)
        x, y = basket.clamp(self.world, x, y)  # level 4: nothing is carried past the line
        self._pointer = (x, y)
        if entity >= 0 and challenge.untouchable(self.world, entity):
            entity = -1  # level 3: the pyramid is knocked down, not carried down by hand
        if entity >= 0:
            self.world.grab(entity, x, y)
            self.sound("grab")

    def on_drag(self, x: float, y: float) -> None:
        """Pull the grabbed body toward the pointer (kept behind level 4's line). A throw
        whose pointer crosses the line leaves the hand there (``basket.thrown_over``):
        held on, the body would be stopped at the line and spring back, and let go
        beyond it, fly backwards."""
        self._trace(x, y)  # the pointer's own path: a throw's speed and direction
        entity = self.world.grabbed
        if entity >= 0 and basket.thrown_over(self.world, x, self.pointer_velocity()):
            self._let_go()
            return
        x, y = basket.clamp(self.world, x, y)
        self._pointer = (x, y)
        if entity >= 0:  # a deleted particle releases the grab itself
            self.world.grab(entity, x, y)

    def on_release(self, x: float, y: float, button: int = 1) -> None:
        """Let go: a fling if the body, or the pointer in its last ``FLING_WINDOW`` s
        (``pointer_velocity``), moved faster than ``rules.FLING_SPEED``.

        At a low frame rate the pointer moves in big jumps a few physics steps apart and
        the body catches up and stops between them: the pointer's path then says how fast
        the throw was, and the body is given that velocity.
        """
        self._trace(x, y)
        self._let_go()

    def _let_go(self) -> None:
        """Release the grabbed body; count a fling (``on_release``)."""
        self._pointer = None
        w = self.world
        entity = w.grabbed
        w.release()
        if entity < 0:
            return
        p = w.try_component(entity, Particle) or w.component(entity, RigidBody)
        speed = float(np.hypot(p.vx, p.vy))
        vx, vy = self.pointer_velocity()
        if speed <= rules.FLING_SPEED < np.hypot(vx, vy):
            speed = self._throw(entity, vx, vy)
        if speed > rules.FLING_SPEED:
            self.sound("fling")
            st = rules.stats(w)
            st.flings += 1
            st.flung, st.flung_until = entity, w.frame + rules.FLIGHT_FRAMES

    def _trace(self, x: float, y: float) -> None:
        """Keep the pointer's place and when it was there: the wall clock of the event when
        a window's player says it (``pointer_time``), else the game time (bots, tests).
        Events closer than ``MIN_GAP`` s (a burst a slow frame delivers at once) are one
        sample: the first one's time, the last one's place."""
        t = self.pointer_time if self.pointer_time is not None else \
            self.world.frame * self.world.dt
        if self._path and t - self._path[-1][0] < MIN_GAP:
            self._path[-1] = (self._path[-1][0], float(x), float(y))
        else:
            self._path.append((float(t), float(x), float(y)))

    def pointer_velocity(self) -> tuple[float, float]:
        """The pointer's velocity (px/s) when let go: the fastest of its moves (from one
        sample to the next, over at most ``MAX_GAP`` s) that ended within ``FLING_WINDOW`` s
        of the last sample, at most ``MAX_THROW``; (0, 0) if it did not move in that time
        (held still, or paused).

        A hold then a quick throw is fast (the throw's own moves, even when a slow frame
        delivers them all at once); a pointer that stopped before letting go is not."""
        if len(self._path) < 2:
            return 0.0, 0.0
        t1 = self._path[-1][0]
        best, fastest = (0.0, 0.0), 0.0
        points = list(self._path)
        for (ta, xa, ya), (tb, xb, yb) in zip(points, points[1:], strict=False):
            if tb < t1 - FLING_WINDOW or tb <= ta:
                continue
            # a still pointer sends no events: a move after a pause happened within the
            # last frame, which at the slowest rate played (MAX_GAP) is no longer than this
            gap = min(tb - ta, MAX_GAP)
            vx, vy = (xb - xa) / gap, (yb - ya) / gap
            if np.hypot(vx, vy) > fastest:
                best, fastest = (vx, vy), float(np.hypot(vx, vy))
        scale = min(1.0, MAX_THROW / fastest) if fastest > 0 else 1.0
        return best[0] * scale, best[1] * scale

    def _throw(self, entity: int, vx: float, vy: float) -> float:
        """Give ``entity``'s body (a jelly ball, box, rope, chain: its collision group; a
        crate) velocity ``(vx, vy)`` px/s; returns its speed."""
        w = self.world
        body = w.try_component(entity, RigidBody)
        if body is not None:
            body.vx, body.vy = float(vx), float(vy)
            return float(np.hypot(vx, vy))
        group = w.component(entity, Particle).group
        parts = w.particles
        members = [entity] if group == 0 else \
            parts.entity[(parts.group == group) & (parts.w > 0)].tolist()
        for member in members:
            q = w.component(int(member), Particle)
            q.vx, q.vy = float(vx), float(vy)
        return float(np.hypot(vx, vy))

    def on_key(self, key: str) -> None:
        kind = SPAWN_KEYS.get(key)
        if kind is not None:
            self.spawn(kind)

    def nearest_particle(self, x: float, y: float) -> int:
        """Entity of the particle to grab at ``(x, y)``, or -1.

        Inside a jelly ball: its centre particle (pulling one skin vertex would
        only dent the ball). Elsewhere: the nearest movable particle within
        ``GRAB_RADIUS``.
        """
        centre = self._ball_centre_at(x, y)
        if centre >= 0:
            return centre
        entity = self.world.nearest_particle(x, y, GRAB_RADIUS)
        return -1 if entity is None else entity

    def _ball_centre_at(self, x: float, y: float) -> int:
        """The centre particle's entity of the jelly ball around ``(x, y)``, or -1."""
        w = self.world
        for r in range(len(w.areas)):
            if point_in_polygon((x, y), w.particles.pos[w.area_members(r)]):
                centre = rules.ball_centre(w, r)
                if centre >= 0 and w.particles.w[centre] > 0:
                    return int(w.particles.entity[centre])
        return -1

    # -- bots and drawing -------------------------------------------------------------

    def bot_act(self, name: str) -> None:
        bots.BOTS[name](self, self._gesture, self.rng)

    def draw_overlay(self, draw: Any) -> None:
        w = self.world
        cup = basket.goal(w)
        if cup is not None:
            basket.draw(draw, w, cup)
        card.draw(draw, w, self._won_down)
        if w.grabbed < 0 or self._pointer is None:
            return
        grabbed = w.component(w.grabbed, Particle)
        px, py = grabbed.x, grabbed.y
        draw.line(px, py, *self._pointer, (255, 255, 255), 2)
        draw.circle_outline(*self._pointer, 6, (255, 255, 255), 2)


class _Spawner:
    """A spawn button's callback (a named callable rather than a closure, for repr)."""

    def __init__(self, game: JellyGame, kind: str) -> None:
        self.game, self.kind = game, kind

    def __call__(self, _value: Any = True) -> None:
        self.game.spawn(self.kind)


def _clamp(value: float, bounds: tuple[float, float]) -> float:
    return min(max(float(value), bounds[0]), bounds[1])

