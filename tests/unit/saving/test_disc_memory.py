"""The particles' disc contacts (``physics.discs``) saved with Collide's state: a world
saved mid-run continues bit for bit, and a file's memory is checked like the rest."""

import re

import pytest

import ecsgoo
from ecsgoo import Particle, World, WorldFileError
from scenes import circle_pile, solver


def _resting_pile() -> World:
    w = circle_pile(120, width=300)
    w.level.add_segment((0, 60), (150, 0))  # a slope: contacts with a level segment too
    w.step(90)
    return w


def test_a_pile_saved_mid_run_keeps_its_contacts_and_continues_bit_for_bit(tmp_path):
    w = _resting_pile()
    text = ecsgoo.dumps(w)
    assert "disc_a" in text and "disc_ln" in text
    codes = ecsgoo.loads(text).discs.save()["disc_b"]
    assert any(b < -4 for b in codes) and any(-4 <= b < 0 for b in codes)  # segment, bound
    path = tmp_path / "pile.toml"
    ecsgoo.save(w, path)
    loaded = ecsgoo.load(path)
    for _ in range(3):
        w.step(20)
        loaded.step(20)
        assert loaded.state_hash() == w.state_hash()
    assert ecsgoo.dumps(loaded) == ecsgoo.dumps(w)


def test_without_the_memory_the_same_file_goes_another_way():
    """The memory is state: dropping it changes the future (so saving it is needed)."""
    w = _resting_pile()
    text = ecsgoo.dumps(w)
    cut = "\n".join(line for line in text.splitlines() if "disc_a" not in line)
    a, b = ecsgoo.loads(text), ecsgoo.loads(cut)
    a.step(5)
    b.step(5)
    assert a.state_hash() != b.state_hash()


@pytest.mark.parametrize("bad, says", [
    ("disc_ln = [1.0]", "disc_ln"),  # one value for many contacts
    ("disc_b = [-99999999]", "disc_b"),
])
def test_a_bad_memory_is_refused_naming_its_key(bad, says):
    w = solver(World(bounds=(0, 0, 100, 100)))
    w.create_entity(Particle(50, 4, radius=4))
    w.create_entity(Particle(50, 12, radius=4))
    w.step(3)
    text = ecsgoo.dumps(w)
    key = bad.split(" = ")[0]
    changed = re.sub(key + r" = \[[^\]]*\]", bad, text)  # in Collide's state = { ... }
    assert changed != text, "the saved file has the key"
    with pytest.raises(WorldFileError, match=says):
        ecsgoo.loads(changed)
