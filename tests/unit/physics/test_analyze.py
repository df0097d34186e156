"""Analyze: connected vs debris, critical links and their ranking, the structure_split event."""

import itertools
import math

import numpy as np
import pytest

from ecsgoo import Anchor, Particle, Spring, World, systems
from ecsgoo.bodies import jelly_ball
from naive import structure_naive


def _world(*stages):
    """A world without physics motion: only the given per-frame stages run."""
    return World(bounds=None, gravity=(0, 0)).use(*(stages or (systems.Analyze(),)))


def _report(w):
    return w.resource(systems.StructureReport)


def chain(w, links=4, anchored=True, spacing=10.0, **spring):
    ps = [w.create_entity(Particle(100 + spacing * k, 300),
                          *([Anchor()] if anchored and k == 0 else []))
          for k in range(links + 1)]
    ss = [w.create_entity(Spring(ps[k], ps[k + 1], **spring)) for k in range(links)]
    return ps, ss


def truss(w):
    """A strip of 6 triangles standing on two anchors: every link lies on a cycle."""
    bottom = [w.create_entity(Particle(100 * k, 0), *([Anchor()] if k < 2 else []))
              for k in range(4)]
    top = [w.create_entity(Particle(50 + 100 * k, 87)) for k in range(3)]
    pairs = list(itertools.pairwise(bottom)) + list(itertools.pairwise(top))
    pairs += [(bottom[k], top[k]) for k in range(3)] + [(top[k], bottom[k + 1]) for k in range(3)]
    return bottom + top, [w.create_entity(Spring(a, b)) for a, b in pairs]


def test_a_triangle_truss_on_anchors_has_no_critical_link():
    w = _world()
    ps, _ = truss(w)
    w.step()
    r = _report(w)
    assert (r.connected, r.debris, r.components) == (len(ps), 0, 1)
    assert len(r.critical) == 0 and len(r.critical_rows) == 0
    assert r.grounded.all() and r.in_structure.all()


def test_no_bridge_ranks_as_the_kernel_would_rank_none():
    """With no bridge the report's critical arrays are the kept empty ones (``_ranked``):
    what ``danger_rows`` of no rows and their entities give, read-only likewise."""
    from ecsgoo.kernels.structure import danger_rows
    from ecsgoo.systems.analyze import _ranked

    w = _world()
    truss(w)
    w.step()
    s, none = w.store.springs, np.zeros(0, np.int64)
    rows = danger_rows(s.stretch, s.max_stretch, none)
    for got, want in zip(_ranked(s, none), (rows, s.entity[rows]), strict=True):
        assert got.dtype == want.dtype and got.shape == want.shape and not got.flags.writeable
    r = _report(w)
    assert r.critical_rows is _ranked(s, none)[0] and r.critical is _ranked(s, none)[1]


def test_every_link_of_a_chain_is_critical_and_cutting_one_makes_debris():
    w = _world()
    ps, ss = chain(w, links=4)
    w.step()
    r = _report(w)
    assert sorted(r.critical.tolist()) == sorted(ss)
    assert (r.connected, r.debris) == (5, 0)
    w.component(ss[1], Spring).broken = True  # p2, p3, p4 fall off
    w.step()
    r = _report(w)
    assert (r.connected, r.debris, r.components) == (2, 3, 2)
    assert sorted(r.critical.tolist()) == sorted([ss[0], ss[2], ss[3]])
    slot = w.store.pslot
    assert [bool(r.grounded[slot[p]]) for p in ps] == [True, True, False, False, False]


def test_a_ball_whose_links_all_broke_is_debris_not_nothing():
    w = _world()
    ps, ss = chain(w, links=2)
    w.create_entity(Particle(0, 0))  # a loose particle belongs to no structure
    w.component(ss[1], Spring).broken = True
    w.step()
    r = _report(w)
    assert (r.connected, r.debris) == (2, 1)
    assert r.in_structure.sum() == 3 and not r.grounded[w.store.pslot[ps[2]]]


def test_critical_links_are_ranked_by_slack_least_first():
    w = _world(systems.Break(), systems.Analyze())
    # a straight chain 10 px per link; rest lengths give stretches 1.0, 1.5, 1.2, 1.8, 1.9
    ps = [w.create_entity(Particle(10.0 * k, 0), *([Anchor()] if k == 0 else []))
          for k in range(6)]
    stretches = [1.0, 1.5, 1.2, 1.8, 1.9]
    limits = [2.0, 2.0, 2.0, 2.0, None]  # the last is unbreakable: slack 1, last however taut
    ss = [w.create_entity(Spring(ps[k], ps[k + 1], rest=10.0 / stretches[k],
                                 max_stretch=limits[k])) for k in range(5)]
    w.step()
    r = _report(w)
    assert r.critical.tolist() == [ss[3], ss[1], ss[2], ss[0], ss[4]]
    assert r.max_stretch == pytest.approx(1.9)
    assert (w.store.springs.cols["entity"][r.critical_rows] == r.critical).all()
    # same links, new stretch: the ranking follows (the graph answers are reused)
    w.component(ps[5], Particle).x = 40.0 + 10.0 / 1.9 * 1.0  # the last link eases to 1.0
    w.component(ps[1], Particle).x = 10.0 / 1.0 * 1.95  # the first link nearly breaks
    w.step()
    r = _report(w)
    assert r.critical.tolist()[:2] == [ss[0], ss[3]]
    with pytest.raises(ValueError):
        r.grounded[0] = False  # the report's arrays are read-only


@pytest.mark.parametrize("seed", range(6))
def test_report_matches_the_naive_analysis_on_random_structures(seed):
    rng = np.random.default_rng(seed)
    w = _world()
    n = 30
    ps = [w.create_entity(Particle(*rng.uniform(0, 500, 2)),
                          *([Anchor()] if rng.random() < 0.1 else [])) for _ in range(n)]
    for _ in range(34):
        i, j = rng.choice(n, 2, replace=False)
        s = w.create_entity(Spring(ps[i], ps[j], max_stretch=rng.choice([1.5, 2.0, None])))
        view = w.component(s, Spring)
        view.stretch = float(rng.uniform(0.5, 1.5))
        view.broken = bool(rng.random() < 0.15)
    w.delete_entity(ps[3])  # rows move: the report must follow the store
    w.step()
    r = _report(w)
    p, s = w.store.particles, w.store.springs
    c = s.cols
    want = structure_naive(p.n, c["a"][: s.n], c["b"][: s.n], c["broken"][: s.n],
                           p.cols["pinned"][: p.n], c["stretch"][: s.n],
                           c["max_stretch"][: s.n])
    assert (r.connected, r.debris, r.components) == (
        want["connected"], want["debris"], want["components"])
    assert r.grounded.tolist() == want["grounded"]
    assert r.in_structure.tolist() == want["in_structure"]
    assert r.critical_rows.tolist() == want["critical_rows"]
    live = ~c["broken"][: s.n]
    assert r.max_stretch == (c["stretch"][: s.n][live].max() if live.any() else 0.0)


def _splits(w):
    seen = []
    w.set_handler("structure_split", lambda world, report: seen.append(report.detached))
    return seen


def test_structure_split_fires_once_when_a_piece_detaches():
    w = _world()
    _, ss = chain(w, links=4)
    seen = _splits(w)
    w.step(3)
    assert seen == []
    w.component(ss[2], Spring).broken = True
    w.step(5)
    assert seen == [2]  # once, for the two particles that fell off, not every frame after
    w.component(ss[3], Spring).broken = True  # splitting debris detaches nothing more
    w.step()
    assert seen == [2]


def test_spawning_a_free_body_is_not_a_split_but_removing_the_anchor_is():
    w = _world()
    ps, _ = chain(w, links=3)
    seen = _splits(w)
    w.step()
    jelly_ball(w, 500, 300, radius=30, vertices=8)  # debris (no anchor) but never connected
    w.step()
    assert seen == [] and _report(w).debris == 9
    w.remove_component(ps[0], Anchor)
    w.step()
    assert seen == [4]
    assert _report(w).connected == 0


def test_deleting_the_particle_that_holds_a_piece_is_a_split():
    w = _world()
    ps, _ = chain(w, links=4)
    seen = _splits(w)
    w.step()
    w.delete_entity(ps[2])  # its springs go with it: p3, p4 hang on nothing
    w.step()
    assert seen == [2]
    assert (_report(w).connected, _report(w).debris) == (2, 2)


def test_a_link_that_breaks_splits_in_the_same_frame():
    w = _world(systems.Break(break_frames=3), systems.Analyze())
    ps, ss = chain(w, links=3)
    broke, split = [], []
    w.set_handler("spring_broke", lambda world, e: broke.append((world.frame, e)))
    w.set_handler("structure_split", lambda world, r: split.append((world.frame, r.detached)))
    w.component(ss[1], Spring).max_stretch = 0.5  # over its limit from now on
    w.step(5)
    assert broke == [(2, ss[1])]
    assert split == [(2, 2)]


def test_a_clone_remembers_who_was_connected():
    w = _world()
    _, ss = chain(w, links=3)
    w.step()
    twin = w.clone()
    twin.component(ss[0], Spring).broken = True
    twin.step()
    assert _report(twin).detached == 3
    assert _report(w).detached == 0


def test_analyze_in_the_full_pipeline_keeps_a_hanging_chain_connected():
    w = World(bounds=None).use(systems.Integrate(), systems.Project(), systems.Collide(),
                               systems.Break(), systems.Analyze())
    ps, ss = chain(w, links=5, spacing=20.0, max_stretch=None)
    w.step(30)
    r = _report(w)
    assert (r.connected, r.debris, len(r.critical)) == (6, 0, 5)
    assert 0.9 < r.max_stretch < 1.2 and math.isfinite(r.max_stretch)
    assert w.store.pslot[ps[-1]] < len(r.grounded)


def test_an_empty_world_and_loose_particles_report_nothing():
    w = _world(systems.Analyze(), systems.Merge())
    w.step()
    r = _report(w)
    assert (r.connected, r.debris, r.components, r.max_stretch) == (0, 0, 0, 0.0)
    w.create_entity(Particle(5, 5), Anchor())
    w.create_entity(Particle(50, 5))
    w.step()
    r = _report(w)
    assert (r.connected, r.debris, r.components) == (0, 0, 0)
    assert r.grounded.tolist() == [True, False] and not r.in_structure.any()
