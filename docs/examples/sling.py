"""Sling: pull back from the sling and let go to throw a stone at the tower of crates.

The crates are hinged to each other and to their base with joints that break under
a hit (``max_force``); their joints let them collide (``collide=True``), so the
stack stands on itself and the joints carry only what a stone does to it. Break
every joint to win, in at most eight stones. The game's handler (``handlers``)
counts the joints that break; it gets the world first.

    ecsgoo play docs/examples/sling.py
    ecsgoo play docs/examples/sling.py --headless --frames 900 --bot --screenshot sling.png
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ecsgoo import Anchor, Joint, Look, RigidBody, World, register_resource, systems
from ecsgoo.game import Game, Status, register_game

SLING = (120.0, 160.0)  # where stones start, px
PULL = 5.0  # launch speed per px of pull, 1/s
TOWER_X, CRATE, FLOORS = 600.0, 40.0, 4  # the tower's centre x, a crate's size (px), crates
STONES = 8
WOOD, STONE = (200, 150, 90), (150, 150, 160)


@register_resource
@dataclass
class Tower:
    """The tower's joints (entities), how many broke, and the stones thrown."""

    joints: list[int]
    broken: int = 0
    thrown: int = 0


def build_tower(world: World) -> list[int]:
    """A base plate and a column of crates, each hinged at both bottom corners to what is
    under it; returns the joints."""
    base = world.create_entity(RigidBody.box(TOWER_X, 5, 3 * CRATE, 10), Anchor(),
                               Look((90, 100, 120)))
    below, joints = base, []
    for k in range(FLOORS):
        y = 10 + CRATE * (k + 0.5)
        crate = world.create_entity(RigidBody.box(TOWER_X, y, CRATE, CRATE, mass=1.0),
                                    Look(WOOD))
        for dx in (-CRATE / 2, CRATE / 2):
            joint = Joint(below, crate, TOWER_X + dx, y - CRATE / 2, max_force=3500.0,
                          collide=True)
            joints.append(world.create_entity(joint))
        below = crate
    return joints


@register_game
class Sling(Game):
    """The game: a tower, stones, and the joints that break (its handler)."""

    name, title, levels, bots = "sling", "Sling", ("the crate tower",), ("aim",)
    handlers = {"joint_broke": "on_broke"}  # gets (world, joint)

    def build(self) -> World:
        world = World(bounds=(0, 0, 800, 600))
        world.use(*(stage() for stage in systems.SOLVER))
        world.add_resource(Tower(build_tower(world)))
        self.pulled: tuple[float, float] | None = None
        return world

    def on_broke(self, world: World, joint: int) -> None:
        tower = world.resource(Tower)
        if joint in tower.joints:
            tower.broken += 1

    def throw(self, vx: float, vy: float) -> None:
        """A stone from the sling at ``(vx, vy)`` px/s (if any are left)."""
        tower = self.world.resource(Tower)
        if tower.thrown >= STONES:
            return
        tower.thrown += 1
        stone = RigidBody.circle(*SLING, 12, mass=6.0, restitution=0.2)
        stone.vx, stone.vy = vx, vy
        self.world.create_entity(stone, Look(STONE))

    def on_press(self, x: float, y: float, button: int) -> None:
        self.pulled = (x, y)

    def on_drag(self, x: float, y: float) -> None:
        self.pulled = (x, y)

    def on_release(self, x: float, y: float, button: int) -> None:
        """Let go: the stone flies the other way from the pull, faster the farther."""
        self.pulled = None
        self.throw((SLING[0] - x) * PULL, (SLING[1] - y) * PULL)

    def draw_overlay(self, draw: Any) -> None:
        """The sling's band while it is pulled, and the sling itself."""
        draw.circle_outline(*SLING, 14, (230, 230, 230))
        if self.pulled is not None:
            draw.line(*SLING, *self.pulled, (230, 230, 230))

    def bot_act(self, name: str) -> None:
        """A stone every second and a half, aimed a little higher each time."""
        if self.world.frame % 90 == 10:
            tower = self.world.resource(Tower)
            self.throw(640.0, 170.0 + 60.0 * tower.thrown + self.rng.uniform(-10, 10))

    def status(self) -> Status:
        tower = self.world.resource(Tower)
        if tower.broken >= len(tower.joints):
            return Status("won", tower.broken, {"stones": tower.thrown})
        lost = tower.thrown >= STONES and self.world.frame % 90 == 80
        return Status("lost" if lost else "running", tower.broken, {"stones": tower.thrown})

    def hud(self) -> list[str]:
        tower = self.world.resource(Tower)
        return [f"joints broken: {tower.broken} / {len(tower.joints)}",
                f"stones left: {STONES - tower.thrown} — drag back from the sling, let go"]
