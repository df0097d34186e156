"""render.layout: who is drawn as what (body, rope, link), and when it is rebuilt."""

from __future__ import annotations

from ecsgoo import Look, Particle, Spring, World
from ecsgoo.bodies import jelly_ball, rope
from ecsgoo.render import Render
from ecsgoo.render.layout import BODY, LINK, ROPE


def test_roles_bodies_ropes_links():
    w = World(bounds=(0, 0, 800, 600))
    ball = jelly_ball(w, 200, 300, radius=40, vertices=12)
    line = rope(w, (500, 550), (650, 550), 6)
    candy = w.create_entity(Particle(660, 550, radius=10))
    tie = w.create_entity(Spring(line.particles[-1], candy))
    link = w.create_entity(Spring(w.create_entity(Particle(50, 50)),
                                  w.create_entity(Particle(90, 50))))
    render = Render()
    render.scene(w)
    layout = render._layout
    springs = w.store.springs.cols["entity"][: w.store.springs.n].tolist()
    assert layout.spring_role[springs.index(tie)] == ROPE, "the candy's tie continues the rope"
    assert layout.spring_role[springs.index(link)] == LINK
    assert all(layout.spring_role[springs.index(s)] == BODY for s in ball.springs)
    assert layout.particle_role[w.store.pslot[candy]] == LINK, "the candy is not rope"


def test_the_layout_is_kept_until_the_structure_or_a_look_changes():
    w = World(bounds=(0, 0, 800, 600))
    a = w.create_entity(Particle(100, 100))
    render = Render()
    render.scene(w)
    first = render._layout
    render.scene(w)
    assert render._layout is first, "nothing changed: the same layout"
    w.add_component(a, Look((9, 9, 9)))
    render.scene(w)
    assert render._layout is not first
