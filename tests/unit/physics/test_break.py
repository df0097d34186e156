"""Break: spikes do not snap links, held stretch does; buckling; the event."""

import pytest

from ecsgoo import Anchor, Particle, Spring, World
from scenes import solver


def _pinned_pair(distance):
    w = solver(World(bounds=None))
    a = w.create_entity(Particle(0, 0), Anchor())
    b = w.create_entity(Particle(10, 0), Anchor())
    s = w.create_entity(Spring(a, b, max_stretch=2.0))
    w.component(b, Particle).x = distance
    return w, b, s


def test_held_stretch_breaks_after_three_frames_and_dispatches():
    w, _, s = _pinned_pair(25)
    broke = []
    w.set_handler("spring_broke", lambda world, e: broke.append(e))
    spring = w.component(s, Spring)
    w.step(2)
    assert spring.stretch == pytest.approx(2.5)
    assert not spring.broken and spring.over == 2
    w.step()
    assert spring.broken and broke == [s]
    w.step(5)
    assert broke == [s]  # once


def test_one_frame_spike_does_not_break():
    w, b, s = _pinned_pair(25)
    w.step()
    w.component(b, Particle).x = 10
    w.step()
    spring = w.component(s, Spring)
    assert not spring.broken and spring.over == 0
    w.component(b, Particle).x = 25
    w.step(2)
    assert not w.component(s, Spring).broken


def test_unbreakable_and_buckled():
    w, b, s = _pinned_pair(100)
    w.component(s, Spring).max_stretch = None
    w.step(10)
    assert not w.component(s, Spring).broken
    w.component(b, Particle).x = 4
    w.step()
    assert w.component(s, Spring).buckled


def test_broken_spring_no_longer_holds():
    w = solver(World(bounds=None))
    top = w.create_entity(Particle(0, 0), Anchor())
    bob = w.create_entity(Particle(0, -10, mass=1.0))
    w.create_entity(Spring(top, bob, max_stretch=1.5, stiffness=0.001))
    w.step(60)
    assert w.component(bob, Particle).y < -100  # it stretched, snapped and fell
