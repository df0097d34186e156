"""World of Goo's own components: goo balls, the goal pipe and the level's rules state.

All are plain dataclasses stored on entities and registered for saving, so level
files and quick saves hold them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecsgoo import register_component


@dataclass
class GooBall:
    """Marks a particle as a goo ball.

    ``placed``: the order in which the player attached it (1, 2, …; 0 for the
    level's own balls), which is what undo takes back. ``free``: a loose ball
    lying on the level that the player may drag (not part of the structure).
    """

    placed: int = 0
    free: bool = False


@dataclass
class Goal:
    """The pipe, drawn from the mouth ``(x, y)`` to ``(end_x, end_y)`` (px), ``radius`` px wide.

    Its entity also holds the intake: a ``Sensor.circle`` at the mouth (the level
    builder puts it there; ``structure.intake`` adds one to an old save without it).
    A structure ball the intake senses wins.
    """

    x: float
    y: float
    radius: float = 40.0
    end_x: float = 0.0
    end_y: float = 0.0


@dataclass
class GooRulesState:
    """The level's rules and progress (one per world, on its own entity).

    ``supply``: balls left to drag in; ``build_range`` (px): how far a dropped
    ball reaches for the two balls it links to; ``min_gap`` (px): closer than
    this to a ball it is refused; ``stiffness`` / ``max_stretch`` of new links;
    ``ball_mass`` / ``ball_radius`` of new balls; ``supply_x, supply_y``: where
    the supply pile is drawn; ``placed``: balls attached so far; ``result``:
    ``running``, ``won`` or ``lost``, with ``reason``; ``idle``: frames spent
    with no ball left to play (the lose test waits for the structure to settle).
    """

    supply: int = 10
    build_range: float = 100.0
    min_gap: float = 40.0
    stiffness: float = 1.0
    max_stretch: float = 2.0
    ball_mass: float = 1.0
    ball_radius: float = 10.0
    supply_x: float = 60.0
    supply_y: float = 560.0
    placed: int = 0
    result: str = "running"
    reason: str = ""
    idle: int = 0



register_component(GooBall, name="goo_ball")
register_component(Goal, name="goo_goal")
register_component(GooRulesState, name="goo_rules")
