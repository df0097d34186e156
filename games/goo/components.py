"""World of Goo's own components: goo balls, the goal pipe and the level's rules state.

All are plain dataclasses stored on entities and registered for saving, so level
files and quick saves hold them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ecsgoo import WorldError, register_component

#: The kinds of goo (World of Goo's): ``common`` builds with two links and stays where it
#: is placed; ``ivy`` (green) builds the same way, and a placed one can be picked off the
#: structure again (its links go) and placed elsewhere; ``balloon`` attaches with one
#: strand to the nearest structure ball and pulls up (``GooRulesState.lift``); a placed
#: balloon can be picked off and placed again too. Nothing links to a balloon, crawlers
#: do not climb its strand, the pipe does not take it.
KINDS = ("common", "ivy", "balloon")
#: The kinds whose placed balls the player may pick off the structure again.
DETACHABLE = ("ivy", "balloon")


#: Writes that changed a goo ball's ``placed``, ``free``, ``link``, ``t``, ``heading``,
#: ``sucked`` or ``kind`` (in any world): ``structure.balls`` keeps what it read of the
#: balls, and the crawl its ``(link, t, heading)`` arrays, until this moves.
EDITS = [0]
#: The fields whose writes are counted. The crawl writes a riding ball's ``t`` and
#: ``heading`` every frame past the count (from its own kept arrays, which stay right).
_READ = frozenset({"placed", "free", "link", "t", "heading", "sucked", "kind"})


@dataclass
class GooBall:
    """Marks a particle as a goo ball of ``kind`` (one of ``KINDS``).

    ``placed``: the order in which the player attached it (1, 2, …; 0 for the
    level's own balls), which is what undo takes back. ``free``: not part of the
    structure: the player may pick it up and build with it.

    A free ball crawls along the structure's links (``structure`` and
    ``crawl``): ``link`` is the spring entity it is on (0: not on the
    structure, it lies or falls loose), ``t`` where along it (0 at the spring's
    ``a`` end, 1 at ``b``), ``heading`` +1 toward ``b``, -1 toward ``a``.
    ``sucked``: the open pipe has caught it and it flies into the mouth.
    """

    placed: int = 0
    free: bool = False
    link: int = 0
    t: float = 0.0
    heading: int = 1
    sucked: bool = False
    kind: str = "common"

    def __setattr__(self, name: str, value: object) -> None:
        if name in _READ and getattr(self, name, None) != value:
            EDITS[0] += 1
        object.__setattr__(self, name, value)

    def __post_init__(self) -> None:
        """Refuse a kind that is not one of ``KINDS``."""
        if self.kind not in KINDS:
            raise WorldError(f"GooBall: field kind must be one of {', '.join(KINDS)}, "
                             f"got {self.kind!r}")


@dataclass
class Goal:
    """The pipe, drawn from the mouth ``(x, y)`` to ``(end_x, end_y)`` (px), ``radius`` px wide.

    Its entity also holds the intake: a ``Sensor.circle`` of radius ``suck``
    (px) at the mouth (the level builder puts it there; ``structure.intake``
    adds one to an old save without it). A structure ball the intake senses
    opens the pipe; then it sucks in the free balls it senses.
    """

    x: float
    y: float
    radius: float = 40.0
    end_x: float = 0.0
    end_y: float = 0.0
    suck: float = 40.0


@dataclass
class GooRulesState:
    """The level's rules and progress (one per world, on its own entity).

    ``supply``: balls left to drag in; ``build_range`` (px): how far a dropped
    ball reaches for the two balls it links to; ``min_gap`` (px): closer than
    this to a ball it is refused; ``stiffness`` / ``max_stretch`` of new links;
    ``ball_mass`` / ``ball_radius`` of new balls; ``supply_x, supply_y``: where
    the supply pile is drawn; ``placed``: balls attached so far; ``result``:
    ``running``, ``won`` or ``lost``, with ``reason``; ``idle``: frames spent
    with too few balls left to win (the lose test waits for the structure to settle).
    ``required``: balls the pipe must suck in to win; ``collected``: sucked in
    so far. ``wind`` (px/s², + to the right): pushes every goo ball that is
    not pinned. ``lift`` (mass·px/s²): the upward force on each placed balloon (a free
    one floats where it is: its lift just cancels its weight); a balloon of mass ``m``
    alone would rise at ``lift / m - g``, and it holds up ``(lift - m·g) / g`` of mass
    hanging on it.

    Stars (World of Goo's "OCD" goals): a win earns one; ``more`` collected
    balls (0: no such goal) a second; ``most`` balls placed at the most (0: no
    such goal) a third. The win is decided once the pipe has collected
    ``required`` and finished sucking in (nothing in flight), so the score
    shown and the score recorded are one number.
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
    required: int = 1
    collected: int = 0
    wind: float = 0.0
    more: int = 0
    most: int = 0
    lift: float = 2000.0


register_component(GooBall, name="goo_ball")
register_component(Goal, name="goo_goal")
register_component(GooRulesState, name="goo_rules")
