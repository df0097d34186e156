"""The goo game's kinds of goo: balloons that lift (level 6) and ivy that is picked off and
placed again (level 7), through the game's input and rules."""

from __future__ import annotations

import numpy as np
import pytest

import ecsgoo
from ecsgoo import Particle, Spring
from games.goo import GooGame
from games.goo.bot import truss_spot
from games.goo.components import GooBall
from games.goo.make_levels import LIFT
from games.goo.structure import attach_targets, balls, detach, place_ball, rules_state

BALLOONS, IVY = 6, 7


def _run(game: GooGame, bot: str, frames: int) -> int:
    for frame in range(frames):
        game.bot_act(bot)
        game.step()
        if game.status().result != "running":
            return frame
    return frames


def _of_kind(game: GooGame, kind: str, free: bool) -> list[int]:
    return sorted(e for e, g in game.world.get_component(GooBall)
                  if g.kind == kind and g.free == free)


def _links_at(world, ball: int) -> list[int]:
    return sorted(e for e, s in world.get_component(Spring) if ball in (s.a, s.b))


def _xy(world, entity: int) -> tuple[float, float]:
    p = world.component(entity, Particle)
    return p.x, p.y


def _drag(game: GooGame, ball: int, x: float, y: float) -> None:
    """Press on ``ball``, glide it to ``(x, y)`` over 10 frames and let go."""
    game.on_press(*_xy(game.world, ball), 1)
    for _ in range(10):
        game.on_drag(x, y)
        game.step()
    game.on_release(x, y, 1)


# -- balloons ----------------------------------------------------------------------------------


def test_a_balloon_lifts_a_ball_at_the_documented_acceleration() -> None:
    """A balloon tied to a goo ball, out in the air: the pair's centre of mass accelerates
    up at (lift - (m_balloon + m_ball)·g) / (m_balloon + m_ball), px/s² (no damping)."""
    g = GooGame(level=BALLOONS)
    w = g.world
    w.damping = 1.0
    rules = rules_state(w)
    balloon = w.create_entity(Particle(330, 150, mass=0.5, radius=12), GooBall(kind="balloon"))
    ball = w.create_entity(Particle(330, 80, mass=1.0, radius=10), GooBall())
    w.create_entity(Spring(balloon, ball))
    masses = np.array([0.5, 1.0])

    def centre_velocity() -> float:
        vy = np.array([w.component(e, Particle).vy for e in (balloon, ball)])
        return float(masses @ vy / masses.sum())

    w.step(2)  # the lift is applied each frame (by GooCrawl) and acts over the next step
    before = centre_velocity()
    w.step()
    accel = (centre_velocity() - before) / w.dt
    expected = (rules.lift - masses.sum() * -w.gravity[1]) / masses.sum()
    assert rules.lift == LIFT and expected > 0  # the level as make_levels builds it
    assert accel == pytest.approx(expected, rel=1e-6)
    w.step(30)
    assert w.component(ball, Particle).y > 100  # it rose


def test_a_free_balloon_floats_where_it_is() -> None:
    g = GooGame(level=BALLOONS)
    balloon = _of_kind(g, "balloon", free=True)[0]
    start = _xy(g.world, balloon)
    g.world.step(20)  # the first frame it falls, until its lift acts (a frame later)
    x, y = _xy(g.world, balloon)
    assert np.hypot(x - start[0], y - start[1]) < 5.0
    g.world.step(120)
    assert np.hypot(*np.subtract(_xy(g.world, balloon), (x, y))) < 0.5


def test_a_balloon_ties_on_with_one_strand_and_lifts_the_structure() -> None:
    """A ball built out over the pit; dragged over it, a balloon ties to it (the nearest
    ball) with one taut link and holds it higher than without; nothing links to the
    balloon, crawlers do not climb its strand and the pipe does not count it as a ball
    left."""
    g, calm = GooGame(level=BALLOONS), GooGame(level=BALLOONS)
    for game in (g, calm):
        crawler = _of_kind(game, "common", free=True)[0]
        # the apex of 90 px links on the base's outer side (the bot's longer ones are stiffer)
        assert place_ball(game.world, 265.0, 338.0, crawler).ok
        game.world.step(60)
    top = max((e for e, gb in g.world.get_component(GooBall) if not gb.free),
              key=lambda e: _xy(g.world, e)[0])  # the new ball, out over the pit
    balloon = _of_kind(g, "balloon", free=True)[0]
    left = g.status().extra["balls_left"]
    x, y = _xy(g.world, top)
    _drag(g, balloon, x, y + 75)
    assert not g.world.component(balloon, GooBall).free
    (strand,) = _links_at(g.world, balloon)
    s = g.world.component(strand, Spring)
    assert {s.a, s.b} == {balloon, top} and rules_state(g.world).placed == 2
    assert g.status().extra["balls_left"] == left  # a balloon is no ball for the pipe
    assert balloon not in attach_targets(g.world, 175, 470).targets + \
        attach_targets(g.world, 175, 470).near
    for game in (g, calm):
        game.world.step(90)
    # the truss is stiff: one balloon lifts the ball it holds a little, and pulls its strand
    assert _xy(g.world, top)[1] > _xy(calm.world, top)[1] + 1.0
    assert g.world.component(strand, Spring).stretch > 1.0
    rides = {gb.link for _, gb in g.world.get_component(GooBall) if gb.free}
    assert strand not in rides
    g.world.check()


def test_a_balloon_needs_a_ball_within_reach() -> None:
    g = GooGame(level=BALLOONS)
    balloon = _of_kind(g, "balloon", free=True)[0]
    _drag(g, balloon, 420, 300)  # out over the pit, far from the base
    assert g.world.component(balloon, GooBall).free and not _links_at(g.world, balloon)
    assert g.hint is not None and "out of reach (needs a ball)" in g.hint[0]


def test_a_placed_balloon_can_be_picked_off_and_tied_on_elsewhere() -> None:
    g = GooGame(level=BALLOONS)
    balloon = _of_kind(g, "balloon", free=True)[0]
    _drag(g, balloon, 175, 420)
    assert _links_at(g.world, balloon)
    _drag(g, balloon, 140, 410)
    assert len(_links_at(g.world, balloon)) == 1 and rules_state(g.world).placed == 1


def test_without_its_balloons_the_builder_does_not_reach_the_pipe() -> None:
    """Level 6 is solved by lifting: the same builder with the balloons taken away does not
    win in the frames it wins in with them (test_game_goo: the builder wins every level)."""
    g = GooGame(level=BALLOONS, seed=0)
    for balloon in _of_kind(g, "balloon", free=True):
        g.world.delete_entity(balloon)
    _run(g, "builder", 1700)
    assert g.status().result != "won" and rules_state(g.world).collected == 0


# -- ivy ---------------------------------------------------------------------------------------


def _tower_top(game: GooGame) -> int:
    """Level 7's highest ivy ball (the top of the tower leaning the wrong way)."""
    ivy = _of_kind(game, "ivy", free=False)
    return max(ivy, key=lambda e: _xy(game.world, e)[1])


def test_placed_ivy_comes_off_the_structure_and_goes_on_again() -> None:
    g = GooGame(level=IVY)
    w = g.world
    top = _tower_top(g)
    springs = len(w.get_component(Spring))
    assert len(_links_at(w, top)) == 2 and rules_state(w).placed == 0
    g.on_press(*_xy(w, top), 1)
    assert g.drag is not None and g.drag.ball == top
    assert not _links_at(w, top) and len(w.get_component(Spring)) == springs - 2
    assert w.component(top, GooBall).free and w.grabbed == top
    spot = truss_spot(w, top)
    for _ in range(10):
        g.on_drag(*spot)
        g.step()
    g.on_release(*spot, 1)
    assert len(_links_at(w, top)) == 2 and not w.component(top, GooBall).free
    assert rules_state(w).placed == 1 and w.component(top, GooBall).placed == 1
    g.on_press(*_xy(w, top), 1)  # and again: ivy stays detachable
    assert not _links_at(w, top) and rules_state(w).placed == 0
    w.check()


def test_common_goo_stays_where_it_is_placed() -> None:
    g = GooGame(level=IVY)
    w = g.world
    common = next(e for e, gb in w.get_component(GooBall)
                  if gb.kind == "common" and not gb.free
                  and not w.particles.pinned[w.particles.row(e)])
    links = _links_at(w, common)
    assert not detach(w, common)
    for crawler in _of_kind(g, "common", free=True):  # nothing else to pick up near it
        w.delete_entity(crawler)
    g.on_press(*_xy(w, common), 1)
    assert g.drag is None and _links_at(w, common) == links
    assert g.hint is not None and "take a goo ball" in g.hint[0]


def test_detaching_ivy_that_holds_a_ball_lets_that_ball_fall_loose() -> None:
    """The tower's top hangs on two ivy balls: take both and it has no links left: the rules
    make it a free ball (the player may pick it up again)."""
    g = GooGame(level=IVY)
    w = g.world
    top = _tower_top(g)
    holders = [e for e in _of_kind(g, "ivy", free=False) if e != top
               and any(top in (w.component(s, Spring).a, w.component(s, Spring).b)
                       for s in _links_at(w, e))]
    assert len(holders) == 2
    for ivy in holders:
        assert detach(w, ivy)
    w.step()
    assert w.component(top, GooBall).free and not _links_at(w, top)


def test_without_picking_ivy_off_the_builder_does_not_reach_the_pipe() -> None:
    """Level 7 is solved by moving the ivy: with the tower made of common goo (which stays
    put) the builder runs out of balls."""
    g = GooGame(level=IVY, seed=0)
    for _, gb in g.world.get_component(GooBall):
        if gb.kind == "ivy":
            gb.kind = "common"
    _run(g, "builder", 1700)
    assert g.status().result != "won" and rules_state(g.world).collected == 0


# -- saving ------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [BALLOONS, IVY])
def test_the_kinds_save_and_load_and_continue_identically(level: int) -> None:
    """Mid-level, with balloons tied on or ivy moved: a saved and loaded game continues bit
    for bit, a ball of each kind placed or picked off after the load too."""
    g = GooGame(level=level, seed=0)
    _run(g, "builder", 450)
    bs = balls(g.world)
    assert (level == BALLOONS and np.any(bs.balloon & ~bs.free)) or \
        (level == IVY and rules_state(g.world).placed >= 3)
    twin = ecsgoo.loads(ecsgoo.dumps(g.world))
    other = GooGame(level=level, seed=0)
    other.adopt(twin)
    assert [gb for _, gb in twin.get_component(GooBall)] == \
        [gb for _, gb in g.world.get_component(GooBall)]
    for game in (g, other):
        w = game.world
        if level == BALLOONS:
            free = _of_kind(game, "balloon", free=True)
            assert free and place_ball(w, 140, 420, free[0]).ok
        else:
            ivy = _of_kind(game, "ivy", free=False)[0]
            assert detach(w, ivy) and place_ball(w, *truss_spot(w, ivy), ivy).ok
        w.step(90)
    assert g.world.state_hash() == other.world.state_hash()
    assert rules_state(other.world) == rules_state(g.world)
    assert [gb for _, gb in g.world.get_component(GooBall)] == \
        [gb for _, gb in other.world.get_component(GooBall)]


def test_a_goo_ball_of_an_unknown_kind_is_refused_at_load() -> None:
    g = GooGame(level=IVY)
    text = ecsgoo.dumps(g.world).replace('kind = "ivy"', 'kind = "rubber"', 1)
    entity = next(e for e, gb in g.world.get_component(GooBall) if gb.kind == "ivy")
    with pytest.raises(ecsgoo.WorldFileError,
                       match=rf"entity {entity}.*goo_ball.*kind must be one of common, ivy, "
                             r"balloon, got 'rubber'"):
        ecsgoo.loads(text)
