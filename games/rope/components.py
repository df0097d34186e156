"""The rope game's own components: the candy, the ropes, the stars, Om Nom and the board.

They are plain dataclasses held by esper entities, so a saved game keeps them
(once registered with ``ecsgoo.register_component``); the rules stage writes
their state, the game object only reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ecsgoo import WorldError, limits, register_component


@dataclass
class Candy:
    """Marks the candy's particle (a heavy particle the ropes hang from)."""


@dataclass
class Rope:
    """One rope: the pin's particle entity, its node entities and its link (Spring) entities.

    ``nodes`` run from the pin to the last node before the candy; ``springs[k]``
    links node k to node k + 1, and the last spring links the last node to the
    candy. The rope holds the candy while none of its springs is broken (cut).
    """

    pin: int
    nodes: list[int] = field(default_factory=list)
    springs: list[int] = field(default_factory=list)


@dataclass
class Star:
    """A star at ``(x, y)`` (px), ``radius`` px, collected when the candy touches it.

    Its entity also holds a ``Sensor.circle`` of that radius (the level builder puts it
    there): the candy is collected when the sensor senses it. ``taken_at`` is the world
    frame it was collected (-1: not yet); the rules stage writes it.
    """

    x: float
    y: float
    radius: float = 18.0
    taken_at: int = -1

    @property
    def collected(self) -> bool:
        """Whether the candy has touched this star."""
        return self.taken_at >= 0


@dataclass
class Hook:
    """A hook at ``(x, y)`` (px) with a dashed ring ``reach`` px round: the first time the
    candy's disc overlaps the ring (its centre within ``reach`` + its radius), a new taut
    rope ties it to the hook (Cut the Rope's rope pin).

    ``tied_at`` is the world frame that happened (-1: not yet); the rules stage
    writes it.
    """

    x: float
    y: float
    reach: float = 70.0
    tied_at: int = -1


@dataclass
class Monster:
    """Om Nom at ``(x, y)`` (px), drawn ``radius`` px: the candy wins when it reaches his
    mouth, the ``Sensor.circle`` his entity also holds (the level builder makes it
    ``radius - CANDY_RADIUS`` px, so the candy's centre is within ``radius``)."""

    x: float
    y: float
    radius: float = 34.0


@dataclass
class Board:
    """Level-wide state: ``result`` (``running``/``won``/``lost``, written by the rules
    stage) and the visible screen ``view`` (left, bottom, right, top; px) the candy
    must not leave. Hints (the candy's flight shown for a moment, T): ``hints`` a level
    has, ``hints_used`` so far (each costs a star), ``hint_until`` the world frame the
    one showing ends (-1: none yet).
    """

    result: str = "running"
    view: list[float] = field(default_factory=lambda: [0.0, 0.0, 800.0, 600.0])
    hints: int = 3
    hints_used: int = 0
    hint_until: int = -1

    def __post_init__(self) -> None:
        """Refuse a view that is not four numbers left < right, bottom < top (px)."""
        view = limits.check_all("World", "bounds", self.view)
        if len(view) != 4 or not (view[0] < view[2] and view[1] < view[3]):
            raise WorldError(f"Board: field view must be [left, bottom, right, top] with "
                             f"left < right and bottom < top, got {self.view!r}")
        if self.result not in ("running", "won", "lost"):
            raise WorldError(f"Board: field result must be running, won or lost, got "
                             f"{self.result!r}")


register_component(Candy, name="rope_candy")
register_component(Rope, name="rope_rope", refs=("pin", "nodes", "springs"))
register_component(Star, name="rope_star")
register_component(Hook, name="rope_hook")
register_component(Monster, name="rope_monster")
register_component(Board, name="rope_board")
