"""``copies.component_copy`` (World.clone's copy of a world's own components): what
``copy.deepcopy`` makes, without its generic walk."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import pytest

from ecsgoo import Sensor
from ecsgoo.copies import _plain, component_copy
from games.goo import GooGame
from games.rope import RopeGame
from games.rope.components import Rope, Star
from games.suika import Suika


def _own_components(world) -> list:
    """The world's components that are not rows of the store (those the clone copies)."""
    from ecsgoo.world import _Rider

    with world._context():
        import esper

        comps = [c for e in esper.get_entities() for c in esper.components_for_entity(e)]
    return [c for c in comps if getattr(c, "_table", None) is None and not isinstance(c, _Rider)]


@pytest.mark.parametrize("make", [lambda: RopeGame(level=3), lambda: GooGame(level=2),
                                  lambda: Suika(level=1)])
def test_a_games_components_copy_as_deepcopy_copies_them(make):
    """Each component of a level (a rope's lists, stars, sensors, a goo pipe, Suika's line)
    copies to what ``copy``'s walk makes: equal, of its class, sharing no list or dict."""
    comps = _own_components(make().world)
    assert len({type(c) for c in comps}) >= 2
    assert all(_plain(type(c)) for c in comps)  # each copied field by field, not walked
    for comp in comps:
        ours = component_copy(comp)
        generic = copy.deepcopy(comp)
        assert type(ours) is type(comp) and vars(ours) == vars(generic) == vars(comp)
        for name, value in vars(comp).items():
            if isinstance(value, (list, dict)):
                assert getattr(ours, name) is not value


def test_a_list_held_twice_is_one_list_in_the_copy_and_other_values_are_deep_copied():
    twice = Rope(pin=1)
    twice.nodes = twice.springs = [2, 3]
    copied = component_copy(twice)
    assert copied.nodes is copied.springs and copied.nodes is not twice.nodes
    odd = Star(1.0, 2.0)
    odd.x = {"not": [1.5]}  # not a number: deep-copied
    assert component_copy(odd).x == odd.x and component_copy(odd).x["not"] is not odd.x["not"]
    sensor = Sensor.polygon([(0, 0), (10, 0), (0, 10)])
    copied = component_copy(sensor)
    assert copied.points == sensor.points and copied.points[0] is not sensor.points[0]


@dataclass
class _Kept:
    values: list = field(default_factory=list)
    calls: list = field(default_factory=list)

    def __deepcopy__(self, memo: dict) -> _Kept:
        self.calls.append("deepcopy")
        return _Kept(list(self.values))


class _Slotted:
    __slots__ = ("x",)

    def __init__(self) -> None:
        self.x = [1]


def test_a_component_with_its_own_copying_is_copied_its_way():
    kept = _Kept([1, 2])
    assert component_copy(kept).values == [1, 2] and kept.calls == ["deepcopy"]
    slotted = _Slotted()
    twin = component_copy(slotted)
    assert twin.x == [1] and twin.x is not slotted.x
