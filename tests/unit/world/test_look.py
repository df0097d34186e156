"""ecsgoo.look: Look validates its colour, tells Render it changed, and saves as "look"."""

from __future__ import annotations

import pytest

from ecsgoo import Look, Particle, World, dumps, loads


def test_look_checks_and_normalises_its_colour():
    assert Look((1.0, 2, 3)).color == (1, 2, 3)
    with pytest.raises(ValueError, match="0..255"):
        Look((300, 0, 0))
    before = Look.revision
    Look().visible = False
    assert Look.revision > before, "Render rebuilds its colour tables"


def test_look_saves_as_look_component():
    w = World()
    e = w.create_entity(Particle(1, 2), Look((10, 20, 30), visible=False))
    text = dumps(w)
    assert "look = { color = [10, 20, 30], visible = false }" in text
    look = loads(text).component(e, Look)
    assert look.color == (10, 20, 30) and look.visible is False


@pytest.mark.parametrize("color", ["red", 5, (1, 2, "x"), (1, 2, None)])
def test_a_colour_that_is_not_numbers_says_what_a_colour_is(color):
    """'red' raised float()'s "could not convert string to float: 'r'"; 5 a TypeError."""
    with pytest.raises(ValueError, match=r"colour must be \(r, g, b\)"):
        Look(color=color)
