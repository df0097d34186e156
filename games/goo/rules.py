"""GooRules: World of Goo's per-frame rules: win, collapse, too few balls left.

Reads: goo balls (GooBall, Particle), the StructureReport of the Analyze stage
(which balls are grounded), spring broken flags, GooRulesState.collected (what
the pipe sucked in: ``pipe.GooPipe``).
Writes: GooRulesState.result / reason / idle; GooBall.free (a ball that lost
all its links becomes a loose ball the player can take again).
Events: ``goo_won(world)``, ``goo_lost(world, reason)`` once, when decided.

Stars (``stars``, ``goals``): one for the win, one for collecting
``GooRulesState.more``, one for placing at most ``GooRulesState.most`` balls.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ecsgoo import systems
from ecsgoo.systems import Stage, register_stage

from .components import Goal, GooBall, GooRulesState
from .structure import Balls, frame_balls, frame_rules, memo


@register_stage
class GooRules(Stage):
    """Win when the pipe has sucked in ``required`` balls; lose on collapse or too few balls.

    Collapse: fewer than ``collapse`` (fraction) of the linked balls still
    connected to an anchor. Too few balls: the collected ones, the free ones
    (crawling, loose or flying in; not the balloons) and the supply together fall
    short of
    ``required`` for ``grace`` frames (an undo could still give one back).

    Won: once ``required`` are collected, the pipe goes on sucking in the balls
    that come; the win is decided when no ball has been in flight to the mouth
    for ``settle`` frames and none crawls on the structure any more, or for
    ``linger`` frames whatever still crawls (then the pipe closes: the score
    stays what the win screen shows). ``linger`` is 10 s: a crawler climbs a tall
    tower at 45 px/s, and at 2.5 s the pipe closed on balls still on their way (goo
    level 5 by hand: two balls short of the second star).
    """

    name = "goo_rules"
    requires = (GooRulesState, Goal)

    def __init__(self, collapse: float = 0.5, grace: int = 180, settle: int = 30,
                 linger: int = 600) -> None:
        self.collapse, self.grace = float(collapse), int(grace)
        self.settle, self.linger = int(settle), int(linger)

    def settings(self) -> dict[str, Any]:
        return {"collapse": self.collapse, "grace": self.grace, "settle": self.settle,
                "linger": self.linger}

    def process(self, world: Any) -> None:
        bs = frame_balls(world, world.resource(systems.StructureReport), fresh=True)
        rules = frame_rules(world, bs)
        if rules.result != "running":
            return
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
        if rules.collected >= rules.required:
            return self._sucked_in(bs, rules)
        held, linked, collectable = memo(bs, "counts", lambda: _counts(bs))
        if held < self.collapse * linked:
            return "lost", "the structure collapsed"
        left = rules.supply + collectable
        if rules.collected + left >= rules.required:
            rules.idle = 0
            return None
        rules.idle += 1
        if rules.idle < self.grace:
            return None
        return "lost", "no goo balls left" if left == 0 else "too few goo balls left"


    def _sucked_in(self, bs: Balls, rules: Any) -> tuple[str, str] | None:
        """Won once the pipe has nothing left to suck in (``idle`` counts the quiet frames)."""
        if memo(bs, "flying", lambda: bool(bs.sucked.any())):
            rules.idle = 0
            return None
        rules.idle += 1
        crawling = memo(bs, "crawling", lambda: bool((bs.crawling & bs.free).any()))
        if rules.idle < (self.linger if crawling else self.settle):
            return None
        return "won", "the pipe collected enough goo balls"


def stars(rules: Any) -> int:
    """Stars a won level earns (0 before): the win, ``more`` collected, ``most`` placed."""
    if rules.result != "won":
        return 0
    return (1 + int(rules.more > 0 and rules.collected >= rules.more)
            + int(rules.most > 0 and rules.placed <= rules.most))


def goals(rules: Any) -> list[str]:
    """The star goals in words, each with where the player stands (✓ once met)."""
    out = [f"★ collect {rules.required}"]
    if rules.more > 0:
        mark = " ✓" if rules.collected >= rules.more else ""
        out.append(f"★★ collect {rules.more} ({rules.collected}){mark}")
    if rules.most > 0:  # met only once the level is won: until then more may be placed
        mark = " ✓" if rules.result == "won" and rules.placed <= rules.most else ""
        out.append(f"★★★ place at most {rules.most} ({rules.placed}){mark}")
    return out


def _counts(bs: Balls) -> tuple[int, int, int]:
    """The balls grounded, linked, and the pipe may yet take (``collectable``)."""
    return (int(np.count_nonzero(bs.grounded)), int(np.count_nonzero(bs.linked)),
            int(np.count_nonzero(bs.collectable)))


def _free_orphans(world: Any, bs: Balls) -> None:
    """A structure ball whose links all snapped falls loose: the player may use it again
    (and it climbs back on the structure when it meets it)."""
    if not memo(bs, "orphans", lambda: bool((~(bs.linked | bs.free)).any())):
        return  # most frames
    loose = ~(bs.linked | bs.free)
    for entity in bs.entities[loose].tolist():
        world.component(entity, GooBall).free = True
    bs.free |= loose
    bs.memo.clear()  # what the stages after it work out of ``free`` changed
