"""Joint(..., collide=True): the jointed bodies still touch (Box2D's collideConnected)."""

from __future__ import annotations

import pytest

import ecsgoo
from ecsgoo import Anchor, Joint, RigidBody, World, WorldError, WorldFileError, systems


def _plank_on_post(collide: bool) -> tuple[World, int, int]:
    """A plank hinged at its left end to a static post it overlaps below the hinge."""
    w = World(bounds=(0, 0, 800, 600))
    w.use(*(s() for s in systems.SOLVER))
    post = w.create_entity(RigidBody.box(300, 100, 40, 200), Anchor())
    plank = w.create_entity(RigidBody.box(380, 210, 200, 20))
    w.create_entity(Joint(post, plank, 290, 210, collide=collide))
    return w, post, plank


def test_by_default_jointed_bodies_pass_through_each_other():
    w, _, plank = _plank_on_post(False)
    w.step(120)
    assert w.component(plank, RigidBody).angle < -0.5  # it swung down through the post


def test_collide_true_lets_the_plank_rest_on_its_post():
    w, _, plank = _plank_on_post(True)
    w.step(120)
    assert w.component(plank, RigidBody).angle > -0.2  # held up by the post's corner


def test_collide_is_saved_loaded_and_checked():
    w, _, _ = _plank_on_post(True)
    w.step(10)
    text = ecsgoo.dumps(w)
    assert "collide = true" in text
    twin = ecsgoo.loads(text)
    joint = next(e for e, _ in twin.get_component(Joint))
    assert twin.component(joint, Joint).collide is True
    w.step(30)
    twin.step(30)
    assert twin.state_hash() == w.state_hash()
    with pytest.raises(WorldError, match="Joint: field collide must be true or false"):
        Joint(1, 2, 0, 0, collide="yes")
    with pytest.raises(WorldFileError, match="collide"):
        ecsgoo.loads(text.replace("collide = true", 'collide = "yes"'))


@pytest.mark.parametrize("change", ["break", "remove", "delete"])
def test_a_joint_changed_mid_run_changes_what_touches_from_the_next_frame(change):
    """The pairs a joint keeps apart are kept between frames while the joints are as they
    were: the joint broken, or removed or deleted and made again with ``collide``, the
    plank falls or stops on its post (it was swinging through it)."""
    w, post, plank = _plank_on_post(False)
    w.step(1)  # swinging down, the post not yet in its way
    joint = next(e for e, _ in w.get_component(Joint))
    if change == "break":  # unhinged, the plank meets its post
        began = []
        w.set_handler("contact_began", lambda a, b, *_: began.append({a, b}))
        w.component(plank, RigidBody).events = True
        w.component(joint, Joint).max_force = 1.0
        w.step(60)
        assert w.component(joint, Joint).broken and {post, plank} in began
        return
    elif change == "remove":
        w.remove_component(joint, Joint)
        w.create_entity(Joint(post, plank, 290, 210, collide=True))
    else:
        w.delete_entity(joint)
        w.create_entity(Joint(post, plank, 290, 210, collide=True))
    w.step(119)
    assert w.component(plank, RigidBody).angle > -0.2, "held up by the post's corner"
