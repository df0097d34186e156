"""Level 3's goal: knock 4 of the pyramid's 10 crates down with three flings at most.

A ``Topple`` component (saved with the level) lists the pyramid's crates and
where each started. A crate is *down* once its centre is ``DROP`` px below
where it started, or it is gone. The level is won when ``needed`` crates are
down; it is lost once the last allowed fling has landed (its flight is over)
and not enough came down. The pyramid's crates cannot be grabbed (``untouchable``): they
are knocked down, not carried.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ecsgoo import RigidBody, World, register_component

from . import rules

#: How far below its start (px) a crate's centre must be to count as knocked down.
DROP = 20.0


@dataclass
class Topple:
    """Knock ``needed`` of the pyramid's ``crates`` (starting heights ``heights``, px)
    down with at most ``flings`` flings."""

    crates: list[int] = field(default_factory=list)
    heights: list[float] = field(default_factory=list)
    flings: int = 3
    needed: int = 4


register_component(Topple, name="jelly_topple", refs=("crates",))


def goal(world: World) -> Topple | None:
    """The world's ``Topple`` goal, or None (a level that is only a playground)."""
    found = world.get_component(Topple)
    return found[0][1] if found else None


def down(world: World, t: Topple) -> int:
    """How many of the pyramid's crates are down (fallen ``DROP`` px, or gone)."""
    count = 0
    for crate, y in zip(t.crates, t.heights, strict=True):
        body = world.try_component(crate, RigidBody) if world.entity_exists(crate) else None
        count += body is None or body.y < y - DROP
    return count


def untouchable(world: World, entity: int) -> bool:
    """Whether ``entity`` is one of the pyramid's crates, which the player may not take in
    hand: carried to the floor slowly (no fling spent), four crates came down with no throw
    at all (found by hand)."""
    t = goal(world)
    return t is not None and int(entity) in t.crates


def result(world: World, t: Topple) -> str:
    """``"won"``, ``"lost"`` or ``"running"``."""
    if down(world, t) >= t.needed:
        return "won"
    st = rules.stats(world)
    if st.flings >= t.flings and world.frame > st.flung_until:
        return "lost"
    return "running"


def hud(world: World, t: Topple) -> str:
    """The goal's line for the HUD."""
    left = max(0, t.flings - rules.stats(world).flings)
    return (f"knock the pyramid down: {down(world, t)} of {t.needed} crates down, "
            f"{left} fling{'s' if left != 1 else ''} left")
