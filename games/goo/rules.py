"""GooRules and GooCrawl: World of Goo's per-frame rules (win, collapse, lose) and loose balls.

Reads: goo balls (GooBall, Particle), the pipe's intake (the Sensor on the Goal's
entity: what it held at the end of the last frame), the StructureReport of the
Analyze stage (which balls are grounded), spring broken flags.
Writes: GooRulesState.result / reason / idle; GooBall.free (a ball that lost
all its links becomes a loose ball the player can drag again).
Events: ``goo_won(world)``, ``goo_lost(world, reason)`` once, when decided.
GooCrawl reads loose balls' velocity and writes their horizontal velocity.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ecsgoo import Particle, systems
from ecsgoo.systems import Stage, register_stage

from .components import GooBall
from .structure import Balls, balls, intake, rules_state


@register_stage
class GooRules(Stage):
    """Win when the pipe's intake senses a ball connected to an anchor; lose on collapse or
    no balls.

    Collapse: fewer than ``collapse`` (fraction) of the linked balls still
    connected to an anchor. Out of balls: supply empty and no loose ball left
    for ``grace`` frames (the structure may still sway into the pipe).
    """

    name = "goo_rules"

    def __init__(self, collapse: float = 0.5, grace: int = 180) -> None:
        self.collapse, self.grace = float(collapse), int(grace)

    def settings(self) -> dict[str, Any]:
        return {"collapse": self.collapse, "grace": self.grace}

    def process(self, world: Any) -> None:
        rules = rules_state(world)
        if rules.result != "running":
            return
        bs = balls(world, world.resource(systems.StructureReport))
        _free_orphans(world, bs)
        verdict = self._verdict(world, bs, rules)
        if verdict is None:
            return
        rules.result, rules.reason = verdict
        if rules.result == "won":
            world.dispatch("goo_won", world)
        else:
            world.dispatch("goo_lost", world, rules.reason)

    def _verdict(self, world: Any, bs: Balls, rules: Any) -> tuple[str, str] | None:
        touching = np.isin(bs.entities, intake(world).inside)
        if np.any(touching & bs.grounded):
            return "won", "reached the pipe"
        if np.sum(bs.grounded) < self.collapse * np.sum(bs.linked):
            return "lost", "the structure collapsed"
        if rules.supply > 0 or np.any(bs.free):
            rules.idle = 0
            return None
        rules.idle += 1
        return ("lost", "no goo balls left") if rules.idle >= self.grace else None


def _free_orphans(world: Any, bs: Balls) -> None:
    """A structure ball whose links all snapped falls loose: the player may use it again."""
    loose = ~bs.linked & ~bs.free
    for entity in bs.entities[loose].tolist():
        world.component(entity, GooBall).free = True
    bs.free |= loose


@register_stage
class GooCrawl(Stage):
    """Loose goo balls resting on the ground crawl slowly back and forth (they are alive).

    Each resting loose ball walks at ``speed`` px/s times a slow sine of the
    frame number (phase by entity id), so it wanders about ``speed / (60 ·
    rate)`` px either way; no state to save. A ball being dragged or in the air
    does not crawl.
    """

    name = "goo_crawl"

    def __init__(self, speed: float = 45.0, rate: float = 0.013) -> None:
        self.speed, self.rate = float(speed), float(rate)

    def settings(self) -> dict[str, Any]:
        return {"speed": self.speed, "rate": self.rate}

    def process(self, world: Any) -> None:
        for entity, (p, goo) in world.get_components(Particle, GooBall):
            if not goo.free or entity == world.grabbed or abs(p.vy) > 15.0:
                continue
            p.vx = self.speed * math.sin(self.rate * world.frame + 1.7 * entity)
