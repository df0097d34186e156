"""``physics.discs``: a frame's disc contacts found once, each disc kept to its path and
reach until they are found again — no pair that touches is ever without its row."""

import numpy as np
import pytest

from ecsgoo import Particle, World
from ecsgoo.kernels.discs import ALLOW, path_table
from ecsgoo.kernels.integrate import integrate
from ecsgoo.physics import disc_frame
from ecsgoo.physics.discs import REACH_PX, Discs
from scenes import chaos, solver


def _touching_without_a_row(world: World) -> list[tuple[int, int]]:
    """The pairs of particle rows that overlap now, may collide, and have no contact row."""
    p, d = world.store.particles, world.discs
    c, n = p.cols, p.n
    pos, r = c["pos"][:n], c["radius"][:n]
    gap = np.hypot(*(pos[:, None] - pos[None]).transpose(2, 0, 1)) - r[:, None] - r[None]
    rows = {tuple(sorted(map(int, row))) for row in d.ij[: d.n] if row[1] >= 0}
    missed = []
    g, w = c["group"], c["w"]
    for i, j in zip(*np.nonzero(np.triu(gap < -1e-9, 1)), strict=True):
        if (g[i] != 0 and g[i] == g[j]) or w[i] + w[j] == 0 or c["frozen"][i] or c["frozen"][j]:
            continue
        if not (c["layer"][i] & c["mask"][j] and c["layer"][j] & c["mask"][i]):
            continue
        if (int(i), int(j)) not in rows:
            missed.append((int(i), int(j)))
    return missed


def test_no_pair_that_touches_is_without_its_row(monkeypatch):
    """A chaotic box (heavy and light discs, a jelly, a chain) kicked, spawned into and
    thinned out: at every substep's solve, each overlapping pair has its contact row —
    whether its discs moved with the rest or were turned away from their paths."""
    monkeypatch.setattr(disc_frame, "ENABLED", False)  # every substep through the stages
    missed, solves = [], [0]
    substep = Discs.substep

    def checked(self, world, ctx, push, bounce):
        solves[0] += 1
        missed.extend(_touching_without_a_row(world))
        substep(self, world, ctx, push, bounce)

    monkeypatch.setattr(Discs, "substep", checked)
    rng = np.random.default_rng(5)
    w = chaos(seed=2)
    for frame in range(150):
        if frame % 10 == 0:  # a kick, a drop from above, a disc gone
            ents = [e for e in w.entities() if w.has_component(e, Particle)]
            e = ents[int(rng.integers(len(ents)))]
            w.apply_force(e, *rng.normal(0, 3e5, 2))
            w.create_entity(Particle(rng.uniform(50, 550), 480, radius=rng.uniform(4, 12)))
            if frame % 30 == 0:
                w.delete_entity(ents[int(rng.integers(len(ents)))])
        w.step(1)
    assert solves[0] >= 150 * w.substeps and not missed


def test_a_crowd_falling_together_has_no_contacts():
    """Discs 4 px apart falling side by side for a second, far from the walls (fast by
    then: 16 px a frame, farther than their gaps) keep no contact rows: their paths never
    meet."""
    w = solver(World(bounds=(0, 0, 800, 4000)))
    for k in range(100):
        w.create_entity(Particle(150 + (k % 20) * 24, 3000 + (k // 20) * 24, radius=10.0))
    rows = []
    for _ in range(60):
        w.step(1)
        rows.append(w.discs.n)
    assert max(rows) == 0


def test_discs_landing_on_a_pile_find_each_other():
    """A fast disc dropped onto a resting one: their paths meet, so they are a contact
    before they touch, and the upper one comes to rest on the lower one."""
    w = solver(World(bounds=(0, 0, 400, 2000)))
    low = w.create_entity(Particle(200, 10, radius=10.0))
    high = w.create_entity(Particle(200, 1500, radius=10.0))
    w.step(180)
    p = w.store.particles.cols
    lo, hi = w.store.pslot[low], w.store.pslot[high]
    assert p["pos"][hi, 1] - p["pos"][lo, 1] == pytest.approx(20.0, abs=0.6)
    assert abs(p["pos"][hi, 0] - 200) < 0.5


@pytest.mark.parametrize("damp", [1.0, 0.99])
def test_the_path_is_where_integrate_takes_a_particle_that_meets_nothing(damp):
    """``path_table`` against Integrate's own steps: after each substep, a particle that
    meets nothing is ``vel · A + acc · B`` from where its contacts were found."""
    h, count, first = 1 / 360, 6, 2
    path = np.full((count, 2), np.nan)
    path_table(first, damp, h, path)
    assert np.isnan(path[:first]).all()
    pos, prev = np.array([[10.0, 20.0]]), np.array([[9.0, 21.5]])
    at, vel = pos.copy(), pos - prev
    force, acc = np.array([[30.0, -7.0]]), np.array([1.0, -980.0]) + np.array([30.0, -7.0]) * 0.5
    no = np.zeros(1, dtype=np.bool_)
    for k in range(first + 1, count):
        integrate(1, pos, prev, force, np.array([0.5]), no, pos, 1.0, -980.0, damp, h, -1,
                  0.0, 0.0, 0.0)
        want = at + vel * path[k, 0] + acc * path[k, 1]
        assert pos == pytest.approx(want, abs=1e-9)


def test_a_disc_turned_away_from_its_path_has_its_contacts_found_again():
    """A disc moved by something else than the contacts (a stage, say) strays from its
    path: Collide's check (``Discs.stale``, here at the frame's last substep, where the
    frame left the discs) says to find the frame's contacts again — once it is more than
    its allowance off, though still within its reach."""
    w = solver(World(bounds=(0, 0, 400, 400)))
    a = w.create_entity(Particle(100, 200, radius=10.0))
    w.create_entity(Particle(120, 200, radius=10.0))  # touching: a contact row
    w.step(2)
    d, p = w.discs, w.store.particles
    row = w.store.pslot[a]
    assert d.n and d.track[row, ALLOW] == REACH_PX  # falling beside one falling alike
    assert not d.stale(w, 5)
    p.cols["pos"][row, 0] += 1.5  # within its reach and its allowance
    assert not d.stale(w, 5)
    p.cols["pos"][row, 1] += 1.5  # 2.1 px off its path now
    assert d.stale(w, 5)


def test_discs_closing_on_each_other_may_stray_by_their_closing_speed():
    """Two discs 30 px apart, one closing at 300 px/s: each may stray from its path by that
    speed over the rest of the frame (five of its six substeps after the look: what the
    meeting may turn it by) plus the margin; a third far off, at rest, by the margin
    alone."""
    w = solver(World(bounds=(0, 0, 2000, 400), gravity=(0.0, 0.0)))
    a = w.create_entity(Particle(200, 200, radius=10.0))
    b = w.create_entity(Particle(250, 200, radius=10.0, vx=-300.0))
    c = w.create_entity(Particle(1500, 200, radius=10.0))
    w.step(1)
    allow = {e: w.discs.track[w.store.pslot[e], ALLOW] for e in (a, b, c)}
    for e in (a, b):
        assert allow[e] == pytest.approx(REACH_PX + 300.0 * 5 / 360, rel=0.01)
    assert allow[c] == REACH_PX
