"""The cut helper: a swipe breaks exactly the springs it crosses, and the candy falls."""

import pytest

from ecsgoo import Particle, Spring, World, systems
from ecsgoo.bodies import rope
from ecsgoo.geometry import cut


def _candy_on_rope(segments=5):
    """A rope hanging straight down from a pin at (400, 500), 20 px links, a heavy candy last."""
    w = World(bounds=(0, 0, 800, 600)).use(systems.Integrate(), systems.Project(),
                                          systems.Collide(), systems.Break(), systems.Analyze())
    body = rope(w, (400, 500), (400, 500 - 20 * segments), segments)
    candy = w.create_entity(Particle(400, 500 - 20 * segments - 15, mass=2.0, radius=10))
    link = w.create_entity(Spring(body.particles[-1], candy))
    cuts = []
    w.set_handler("spring_cut", lambda world, e: cuts.append(e))
    w.cuts = cuts
    return w, body.springs + [link], candy


def test_a_swipe_across_one_segment_breaks_exactly_it():
    w, springs, candy = _candy_on_rope()
    w.step(20)
    y = w.component(candy, Particle).y
    # the third link spans y 440..460 (it hangs a little lower now): swipe across its middle
    hit = cut(w, (350, 450), (450, 450))
    assert hit == [springs[2]] and w.cuts == [springs[2]]
    assert [w.component(s, Spring).broken for s in springs] == [
        False, False, True, False, False, False]
    w.step(30)
    report = w.resource(systems.StructureReport)
    assert (report.connected, report.debris) == (3, 4)  # pin + 2 nodes; 3 nodes + candy
    assert w.component(candy, Particle).y < y - 100  # it fell (about 122 px in half a second)


def test_a_swipe_that_misses_cuts_nothing_and_a_cut_spring_is_not_cut_twice():
    w, springs, _ = _candy_on_rope()
    assert cut(w, (100, 100), (200, 100)) == []
    assert cut(w, (300, 490), (500, 490)) == [springs[0]]
    assert cut(w, (300, 490), (500, 490)) == []
    assert w.cuts == [springs[0]]


def test_one_swipe_cuts_every_spring_it_crosses_in_row_order():
    w, springs, _ = _candy_on_rope()
    other = rope(w, (450, 500), (450, 400), 5).springs  # a second rope beside the first
    hit = cut(w, (480, 450), (350, 450))  # right to left across both
    assert hit == [springs[2], other[2]] and w.cuts == hit


@pytest.mark.parametrize("p, q", [((400, 470), (400, 430)),   # along the rope: overlap
                                  ((400, 460), (450, 460))])  # starting on a node
def test_touching_and_collinear_swipes_count(p, q):
    w, springs, _ = _candy_on_rope()
    assert springs[2] in cut(w, p, q)
