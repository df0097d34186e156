"""Suika players: where to drop the held fruit.

- ``greedy`` scores every candidate x (every 5 px across the box) with the
  SPEC §3 weights::

      value = −landing height + 50 · same-kind neighbours within 4 radii
              − 0.1 · |x − box centre| + 10 · flatness

  *Landing height* is the height (px above the floor) of the dropped fruit's
  centre where it first touches the pile when falling straight down; the term
  is negated, so a LOWER landing is better. *Flatness* is minus the standard
  deviation of the pile's surface (sampled every 10 px across the box, with the
  fruit in place), in units of the smallest fruit's radius: 0 for a flat
  surface, about −4 for a 60 px spread.
- ``lookahead`` takes the best few greedy candidates (spread out), drops each
  into a ``World.clone()``, simulates 1.5 s (a fruit dropped from the top
  takes about a second to land) and keeps the drop whose outcome (points
  gained, pile height, game over) is best.
- ``random`` drops anywhere.
"""

from __future__ import annotations

import random

import numpy as np

from ecsgoo import World, fruit

from . import rules

#: Candidate spacing and surface sampling step, px.
STEP, SURFACE_STEP = 5.0, 10.0
#: Least distance between the drops the look-ahead tries, px.
SPREAD = 30.0
#: SPEC §3 weights.
W_NEIGHBOUR, W_CENTRE, W_FLAT = 50.0, 0.1, 10.0


def candidates(world: World, kind: int) -> np.ndarray:
    """Drop positions (px) for a fruit of ``kind``: every ``STEP`` px inside the box."""
    st, r = rules.state(world), fruit.RADII[kind]
    return np.arange(st.left + r, st.right - r + 1e-9, STEP)


def _fruits(world: World) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions, radii and kinds of the fruits in ``world`` (copies of the packed rows)."""
    p = world.particles
    keep = p.kind >= 0
    return p.pos[keep], p.radius[keep], p.kind[keep]


def landing_heights(xs: np.ndarray, r: float, pos: np.ndarray, rad: np.ndarray) -> np.ndarray:
    """Height (px) of the centre of a radius-``r`` disc dropped straight down at each x.

    It stops on the floor (height ``r``) or on the first disc it touches:
    ``y_j + sqrt((r + r_j)² − (x − x_j)²)`` for every disc within reach.
    """
    dx = xs[:, None] - pos[None, :, 0]
    reach = (r + rad)[None, :] ** 2 - dx * dx
    top = np.where(reach > 0, pos[None, :, 1] + np.sqrt(np.maximum(reach, 0.0)), -np.inf)
    return np.maximum(top.max(axis=1, initial=-np.inf), r)


def _surface(cols: np.ndarray, pos: np.ndarray, rad: np.ndarray) -> np.ndarray:
    """Height (px) of the pile's top at each column x: 0 where nothing is."""
    dx = cols[:, None] - pos[None, :, 0]
    reach = rad[None, :] ** 2 - dx * dx
    top = np.where(reach > 0, pos[None, :, 1] + np.sqrt(np.maximum(reach, 0.0)), 0.0)
    return top.max(axis=1, initial=0.0)


def greedy_values(world: World) -> tuple[np.ndarray, np.ndarray]:
    """``(xs, values)``: every candidate drop of the held fruit and its greedy value."""
    st = rules.state(world)
    kind, r = st.current, fruit.RADII[st.current]
    xs = candidates(world, kind)
    pos, rad, kinds = _fruits(world)
    heights = landing_heights(xs, r, pos, rad)
    same = pos[kinds == kind]
    if len(same):
        d2 = ((xs[:, None] - same[None, :, 0]) ** 2 + (heights[:, None] - same[None, :, 1]) ** 2)
        neighbours = (d2 < (4 * r) ** 2).sum(axis=1)
    else:
        neighbours = np.zeros(len(xs))
    centre = abs(xs - (st.left + st.right) / 2)
    cols = np.arange(st.left + SURFACE_STEP / 2, st.right, SURFACE_STEP)
    base = _surface(cols, pos, rad)
    # the new fruit raises the surface only where it sits: max with its own cap
    reach = r * r - (cols[None, :] - xs[:, None]) ** 2
    cap = np.where(reach > 0, heights[:, None] + np.sqrt(np.maximum(reach, 0.0)), 0.0)
    flatness = -np.maximum(base[None, :], cap).std(axis=1) / fruit.RADII[0]
    values = -heights + W_NEIGHBOUR * neighbours - W_CENTRE * centre + W_FLAT * flatness
    return xs, values


def greedy(world: World) -> float:
    """The greedy drop x (px) for the held fruit (ties: the leftmost)."""
    xs, values = greedy_values(world)
    return float(xs[int(np.argmax(values))])


def lookahead(world: World, count: int = 5, frames: int = 90) -> float:
    """Try the ``count`` best greedy drops on clones for ``frames`` each; return the best x.

    Outcome = 20 · points gained − the pile's top height (px) − 10,000 if the
    game ends, + a quarter of the greedy value (what the pile looks like beyond
    the simulated time).
    """
    xs, values = greedy_values(world)
    order = _spread_best(xs, values, count)
    best_x, best = float(xs[order[0]]), -np.inf
    for i in order:
        sim = world.clone()
        st = rules.state(sim)
        before = st.score
        rules.drop(sim, float(xs[i]), st.next)
        sim.step(frames)
        pos, rad, _ = _fruits(sim)
        top = float((pos[:, 1] + rad).max()) if len(rad) else 0.0
        outcome = 20.0 * (st.score - before) - top - 10_000.0 * st.over + 0.25 * values[i]
        if outcome > best:
            best_x, best = float(xs[i]), outcome
    return best_x


def _spread_best(xs: np.ndarray, values: np.ndarray, count: int) -> list[int]:
    """Indices of the best candidates, at least 30 px apart (distinct options)."""
    chosen: list[int] = []
    for i in np.argsort(-values, kind="stable"):
        if all(abs(xs[i] - xs[j]) >= SPREAD for j in chosen):
            chosen.append(int(i))
            if len(chosen) == count:
                break
    return chosen


def random_drop(world: World, rng: random.Random) -> float:
    """A uniformly random drop x (px) inside the box for the held fruit."""
    st = rules.state(world)
    r = fruit.RADII[st.current]
    return rng.uniform(st.left + r, st.right - r)
