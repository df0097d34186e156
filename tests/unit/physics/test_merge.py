"""Merge: same-kind fruits that touch become the next kind; chains, momentum, score, events."""

import numpy as np
import pytest

from ecsgoo import Fruit, Particle, World, fruit, systems
from ecsgoo.kernels.merge import merge_pairs
from naive import merge_pairs_naive
from scenes import solver

R = fruit.RADII


def _world():
    """Only Merge runs: positions stay where the test puts them."""
    w = World(bounds=None, gravity=(0, 0))
    w.use(systems.Merge())
    w.set_handler("fruits_merged", lambda world, event: w.events.append(event))
    w.events = []
    return w


def _fruit(w, x, y, kind, **particle):
    return w.create_entity(Particle(x, y, **particle), Fruit(kind))


def _fruits(w):
    """``{entity: (kind, x, y)}`` of every fruit."""
    return {e: (f.kind, p.x, p.y) for e, (p, f) in w.get_components(Particle, Fruit)}


def test_two_touching_fruits_become_one_of_the_next_kind_at_the_centre():
    w = _world()
    a = _fruit(w, 100, 100, 2)
    b = _fruit(w, 100 + 2 * R[2] + 0.5, 100, 2)  # within contact_slop = 1 px
    far = _fruit(w, 400, 100, 2)
    w.step()
    (event,) = w.events
    assert event.merged == (a, b) and event.kind == 2 and event.score == fruit.SCORES[2]
    assert (event.x, event.y) == pytest.approx((100 + R[2] + 0.25, 100))
    assert _fruits(w) == {far: (2, 400, 100), event.entity: (3, event.x, event.y)}
    new = w.component(event.entity, Particle)
    assert new.radius == R[3] and new.mass == pytest.approx(fruit.mass(3))
    assert w.resource(systems.Score).value == fruit.SCORES[2]


def test_fruits_apart_or_of_different_kinds_do_not_merge():
    w = _world()
    _fruit(w, 100, 100, 1)
    _fruit(w, 100 + 2 * R[1] + 1.5, 100, 1)  # just beyond the slop
    _fruit(w, 100, 100 + R[1] + R[2], 2)  # touching, another kind
    w.step(3)
    assert w.events == [] and len(_fruits(w)) == 3
    assert w.resource(systems.Score) is None


def test_merge_moves_with_the_pair_momentum_over_the_pair_mass():
    w = _world()
    a = _fruit(w, 100, 100, 0, vx=300.0, vy=-50.0)
    b = _fruit(w, 129, 100, 0, vx=-120.0, vy=80.0)
    w.component(b, Particle).mass = 3.0  # weights differ: the centre and velocity follow mass
    pa, pb = w.component(a, Particle), w.component(b, Particle)
    ma, mb = pa.mass, pb.mass
    momentum = np.array([ma * pa.vx + mb * pb.vx, ma * pa.vy + mb * pb.vy])
    centre = (ma * np.array([pa.x, pa.y]) + mb * np.array([pb.x, pb.y])) / (ma + mb)
    w.step()
    new = w.component(w.events[0].entity, Particle)
    assert (new.vx, new.vy) == pytest.approx(momentum / (ma + mb), rel=1e-9)
    assert (new.x, new.y) == pytest.approx(centre, rel=1e-12)
    assert new.mass == pytest.approx(fruit.mass(1))  # its own mass follows its kind


def test_a_chain_reaction_resolves_within_the_frame():
    w = _world()
    _fruit(w, 100, 100, 0)
    _fruit(w, 130, 100, 0)  # these two make a kind 1 at (115, 100) ...
    one = _fruit(w, 115, 100 + 2 * R[1], 1)  # ... touching this kind 1: a kind 2
    lone = _fruit(w, 300, 300, 0)
    w.step()
    assert [(e.kind, e.score) for e in w.events] == [(0, 1), (1, 3)]
    assert w.events[1].merged == (one, w.events[0].entity)
    assert sorted(k for k, _, _ in _fruits(w).values()) == [0, 2]
    assert lone in _fruits(w)
    assert w.resource(systems.Score).value == 4


def test_a_fruit_merges_at_most_once_per_pass():
    w = _world()
    # four kind-0 fruits on a square of side 30: each touches two others
    ids = [_fruit(w, x, y, 0) for x, y in ((0, 0), (30, 0), (0, 30), (30, 30))]
    stage = systems.Merge()
    assert stage.merge_once(w) == 2
    merged = [e for ev in w.events for e in ev.merged]
    assert sorted(merged) == sorted(ids)  # each fruit in exactly one merge
    # three in a triangle: one pair merges, the third is left (a kind 1 and a kind 0)
    w2 = _world()
    for x, y in ((0, 0), (30, 0), (15, 26)):
        _fruit(w2, x, y, 0)
    w2.step()
    assert sorted(k for k, _, _ in _fruits(w2).values()) == [0, 1]


def test_two_of_the_largest_kind_vanish_and_score():
    w = _world()
    big = fruit.LARGEST
    _fruit(w, 200, 200, big)
    _fruit(w, 200 + 2 * R[big], 200, big)
    w.step()
    (event,) = w.events
    assert event.entity is None and event.kind == big and event.score == fruit.SCORES[big]
    assert _fruits(w) == {}
    assert w.resource(systems.Score).value == fruit.SCORES[big]


def _game():
    w = solver(World(bounds=(0, 0, 400, 400)))
    w.use(*w.pipeline, systems.Merge())
    w.set_handler("fruits_merged", lambda world, e: w.events.append(e))
    w.events = []
    return w


@pytest.mark.parametrize("overlap", [-0.5, 2.0, 20.0, 45.0])
def test_fruits_spawned_touching_merge_in_the_running_game(overlap):
    w = _game()
    resting = _fruit(w, 100, 30, 3)
    _fruit(w, 250, 30, 4)
    w.step(30)
    assert w.events == []
    x = w.component(resting, Particle).x + 2 * R[3] - overlap
    new = _fruit(w, x, 30, 3)  # dropped beside it, touching or overlapping
    w.step()  # Collide pushes them apart at once: they still merge, having touched
    assert [(e.kind, e.merged) for e in w.events] == [(3, (resting, new))]
    assert sorted(k for k, _, _ in _fruits(w).values()) == [4, 4]
    w.check()


def test_fruits_spawned_together_merge_on_the_first_frame():
    w = _game()
    _fruit(w, 200, 200, 1)
    _fruit(w, 210, 200, 1)  # deep overlap, before the world ever stepped
    w.step()
    assert [e.kind for e in w.events] == [1]


def test_fruits_that_were_apart_when_the_frame_began_do_not_merge_early():
    w = _game()
    a = _fruit(w, 100, 300, 2)
    w.step(2)
    _fruit(w, 300, 300, 2)  # new, but touching nothing
    w.step()
    assert w.events == [] and w.entity_exists(a)


def test_fruits_dropped_on_a_same_kind_fruit_merge_when_they_land():
    w = _game()
    _fruit(w, 100, 30, 3)
    w.step(20)
    _fruit(w, 110, 200, 3)
    w.step(60)
    assert [e.kind for e in w.events] == [3]


def test_the_new_fruit_keeps_the_older_fruits_material():
    w = _world()
    _fruit(w, 0, 0, 1, group=7, friction=0.9, restitution=0.3)
    _fruit(w, 40, 0, 1, group=2, friction=0.1, restitution=0.0)
    w.step()
    p = w.component(w.events[0].entity, Particle)
    assert (p.group, p.friction, p.restitution) == (7, 0.9, 0.3)


def test_a_handler_that_deletes_a_fruit_mid_pass_is_safe():
    w = World(bounds=None, gravity=(0, 0)).use(systems.Merge())
    a = _fruit(w, 0, 0, 0)
    _fruit(w, 30, 0, 0)
    c = _fruit(w, 300, 0, 0)
    d = _fruit(w, 330, 0, 0)
    w.set_handler("fruits_merged",
                  lambda world, e: world.delete_entity(c) if world.entity_exists(c) else None)
    w.step()
    assert not w.entity_exists(a) and not w.entity_exists(c) and w.entity_exists(d)


@pytest.mark.parametrize("seed", range(5))
def test_pairs_match_the_naive_pairing(seed):
    rng = np.random.default_rng(seed)
    w = World(bounds=None)
    for _ in range(150):
        comps = [Particle(*rng.uniform(0, 600, 2), radius=3.0)]
        if rng.random() < 0.8:
            comps.append(Fruit(int(rng.integers(0, 3))))
        w.create_entity(*comps)
    for e in w.entities()[::7]:
        w.delete_entity(e)  # shuffle rows: pairing follows entity age, not rows
    c, n = w.store.particles.cols, w.store.particles.n
    args = (c["pos"][:n].tolist(), c["radius"][:n], c["kind"][:n], c["entity"][:n], 1.0)
    for fresh in (np.ones(n, np.bool_), rng.random(n) < 0.3):
        first, second = merge_pairs(n, c["pos"], c["radius"], c["kind"], c["entity"], 1.0,
                                    fresh)
        want = merge_pairs_naive(*args, fresh.tolist())
        assert len(want) > 3
        assert list(zip(first.tolist(), second.tolist(), strict=True)) == want


def test_save_and_load_mid_run_merges_the_same():
    """Merge's memory of the last frame is saved, so a loaded game merges identically."""
    import numpy as np

    import ecsgoo
    from ecsgoo import Fruit, Particle, World, systems

    w = World(bounds=(0, 0, 400, 600)).use(
        systems.Integrate(), systems.Project(), systems.Collide(), systems.Break(),
        systems.Analyze(), systems.Merge())
    rng = np.random.default_rng(0)
    for _ in range(40):
        w.create_entity(Particle(rng.uniform(30, 370), rng.uniform(30, 560)),
                        Fruit(int(rng.integers(0, 3))))
    w.step(30)
    text = ecsgoo.dumps(w)
    again = ecsgoo.loads(text)
    assert ecsgoo.dumps(again) == text
    w.step(200)
    again.step(200)
    assert w.state_hash() == again.state_hash()
    assert w.resource(systems.Score) == again.resource(systems.Score)


@pytest.mark.parametrize("seed", range(3))
def test_the_usual_frame_records_in_place_what_record_makes(seed):
    """``nothing_then_record``: where nothing merges it writes into the last frame's arrays
    what ``record`` makes (entities gone since read unseen); an id past the arrays' end,
    or a pair to merge, writes nothing and says so."""
    from ecsgoo.kernels.merge import nothing_then_record, record

    rng = np.random.default_rng(seed)
    n = 40
    pos = rng.uniform(0, 2000, (n, 2))
    radius, kind = np.full(n, 3.0), rng.integers(-1, 4, n)
    entity = rng.permutation(60)[:n].astype(np.int64)
    # the last frame's arrays, longer than this frame needs, holding entities gone since
    gone = np.setdiff1d(np.arange(70), entity)
    seen_pos, seen, was_fruit = rng.uniform(0, 9, (70, 2)), np.zeros(70, bool), np.zeros(70, bool)
    seen[gone] = was_fruit[gone] = True
    code = nothing_then_record(n, pos, pos, radius, kind, entity, 0.0, seen_pos, seen,
                               was_fruit)
    want = record(n, pos, kind, entity)
    assert code == 1
    top = len(want[1])
    assert top <= 60 and not seen[top:].any() and not was_fruit[top:].any()
    assert (seen[:top] == want[1]).all() and (was_fruit[:top] == want[2]).all()
    assert (seen_pos[:top][want[1]] == want[0][want[1]]).all()
    short = tuple(a[:top - 1].copy() for a in want)
    assert nothing_then_record(n, pos, pos, radius, kind, entity, 0.0, *short) == 2
    assert all((a == b[:top - 1]).all() for a, b in zip(short, want, strict=True))
    close = pos.copy()
    a, b = np.flatnonzero(kind == 2)[:2]
    close[b] = close[a] + 1.0
    assert nothing_then_record(n, close, close, radius, kind, entity, 0.0,
                               *(x.copy() for x in want)) == 0


def test_a_cloned_worlds_merge_memory_is_its_own():
    """The usual frame writes Merge's memory in place: a clone's must not be the same arrays
    (stepping the original would move the clone's record)."""
    w = World(bounds=(0, 0, 400, 400)).use(systems.Integrate(), systems.Collide(),
                                           systems.Merge())
    for k in range(4):
        _fruit(w, 60 + 80 * k, 100, k % 2)
    w.step(3)
    twin = w.clone()
    before = [a.copy() for a in twin.pipeline[-1]._record]
    w.step(5)
    assert all((a == b).all() for a, b in zip(twin.pipeline[-1]._record, before, strict=True))
    twin.step(5)
    assert _fruits(twin) == _fruits(w)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n", [12, 60, 300])
def test_nothing_to_merge_says_what_the_pairing_finds(seed, n):
    """``nothing_to_merge`` (pair by pair in a box of fruits, through the grid past
    ``FEW_FRUITS``) is true exactly when ``merge_pairs`` finds no pair, now or at the
    frame's start for the fruits new since the record; scenes near the touching distance."""
    from ecsgoo.kernels.merge import merge_pairs, nothing_to_merge, record, start_positions

    rng = np.random.default_rng(seed)
    side = 20.0 * np.sqrt(n) * rng.uniform(1.0, 3.0) * (1.0 + n / 100.0)
    pos = rng.uniform(0, side, (n, 2))
    pin = pos + rng.normal(0, 4.0, (n, 2))
    radius = rng.uniform(3.0, 8.0, n)
    kind = rng.integers(-1, 3, n)
    entity = rng.permutation(2 * n)[:n].astype(np.int64)
    kept = rng.random(n) < 0.7
    old = record(int(kept.sum()), pos[kept] + rng.normal(0, 2.0, (int(kept.sum()), 2)),
                 kind[kept], entity[kept])
    slop = float(rng.choice([0.0, 0.5]))
    got = nothing_to_merge(n, pos, pin, radius, kind, entity, slop, *old)
    start, fresh, count = start_positions(n, pos, pin, kind, entity, *old)
    spawned = count and len(merge_pairs(n, start, radius, kind, entity, slop, fresh)[0])
    now = len(merge_pairs(n, pos, radius, kind, entity, slop, np.ones(n, np.bool_))[0])
    assert got == (not spawned and not now)
