"""World files mutated at random never get past a clear error.

The bases are saves of every bundled level (after a few frames, so the stages
have state to save) and of a scene with every component. Each try mutates one
base (numbers made huge, tiny, negative, NaN or infinite; values of another type;
keys deleted or added; ids duplicated, moved or set to the largest; components renamed;
arrays cut; outlines of thousands of points), then: ``loads`` either
refuses it with ``WorldFileError`` or gives a World that saves again (``dumps``) and
steps 60 frames raising nothing but ``WorldError``. A try taking over
``HANG_S`` of CPU time fails as a hang. CI runs ``TRIES`` tries with fixed seeds;
``HYPOTHESIS_PROFILE=explore`` runs more with new seeds.
"""

from __future__ import annotations

import copy
import glob
import math
import os
import pickle
import random
import signal
import tomllib
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
import tomli_w

from ecsgoo import (
    Anchor,
    Fruit,
    Joint,
    Particle,
    RigidBody,
    Sensor,
    Spring,
    World,
    WorldError,
    WorldFileError,
    bodies,
    dumps,
    limits,
    load,
    loads,
    systems,
)
from ecsgoo.app.games import discover

#: seconds each (thousands of random files or calls): ``-m "not slow"`` leaves them out
pytestmark = pytest.mark.slow

EXPLORE = os.environ.get("HYPOTHESIS_PROFILE") == "explore"
#: Mutated files per run (CI: fixed seeds; explore: new ones, ten times as many).
TRIES = 20000 if EXPLORE else 2000
#: Frames every accepted file is stepped.
FRAMES = 60
#: A try taking more CPU time than this (load, save, steps), s, is a hang: CPU time, as the
#: machine may be shared (a 2 s try of a 250-point concave body took over 5 s of wall time
#: beside two other test runs).
HANG_S = 5.0
#: ... or more wall time than this (a call blocked, using no CPU), s.
BLOCKED_S = 60.0
ROOT = Path(__file__).resolve().parents[3]
HUGE = (10**30, 2**63, -(2**63) - 1, 2**62, 2**62 + 1, 4194304, 4194305, 10**300)
ODD = (0, -1, -5, 0.0, -0.0, 1e300, -1e300, 1e-300, math.nan, math.inf, -math.inf, 0.5,
       1e9, 1e10, 3, 1)
STRINGS = ("nan", "inf", "-inf", "hexagon", "", "1.0", "box", "circle", "polygon", "x" * 300)


def every_component() -> World:
    """A world holding every built-in component, sensors, a resource and stage state."""
    w = World(bounds=(0, 0, 800, 600), sleep=True)
    w.use(*(s() for s in systems.SOLVER), systems.Analyze(), systems.Merge())
    w.add_segment((0, 300), (200, 250))
    w.add_polygon([(600, 40), (700, 40), (650, 90)])
    floor = w.create_entity(RigidBody.box(400, 10, 780, 20), Anchor())
    ball = bodies.jelly_ball(w, 200, 200, radius=24, vertices=8)
    bodies.box(w, 320, 120, 30, 30)
    rope = bodies.rope(w, (420, 560), (520, 520), 4)
    crate = w.create_entity(RigidBody.box(300, 300, 30, 20, events=True))
    wheel = w.create_entity(RigidBody.circle(360, 300, 12, restitution=0.3))
    hull = w.create_entity(RigidBody.polygon(460, 300, [(-15, -10), (15, -10), (0, 20)]))
    w.create_entity(Joint(crate, wheel, 330, 300, lower=-0.5, upper=0.5, motor_speed=2.0,
                          motor_torque=1e5, max_force=1e7))
    w.create_entity(Joint(crate, hull, 380, 300, weld=True))
    rail = w.create_entity(RigidBody.box(150, 450, 80, 10), Anchor())
    sled = w.create_entity(RigidBody.box(150, 470, 20, 20))
    w.create_entity(Joint(rail, sled, 150, 460, axis=(1.0, 0.0), lower=-30, upper=30,
                          motor_speed=10.0, motor_force=1e4))
    bob = w.create_entity(Particle(460, 260, radius=5, events=True))
    w.create_entity(Spring(bob, hull, at_b=(460, 300)))  # a tether: one end on a body
    w.create_entity(Joint(wheel, bob, 360, 280))
    for k in range(3):
        w.create_entity(Particle(500 + 30 * k, 100, radius=10), Fruit(k))
    w.create_entity(Particle(700, 500, radius=4), Anchor(700, 505))
    w.create_entity(Sensor.box(400, 80, 200, 60))
    w.create_entity(Sensor.circle(200, 200, 40, mask=1))
    w.create_entity(Sensor.polygon([(100, 100), (180, 100), (140, 160)]))
    w.component(ball.particles[0], Particle).vx = 50.0
    del floor, rope
    w.step(40)
    w.grab(wheel, 365, 305)
    w.step(2)
    return w


@cache
def bases() -> tuple[tuple[str, str], ...]:
    """``(name, TOML text)`` of every base: the bundled levels, a few frames in, and the scene."""
    discover()  # the games register their components, resources and stages
    out = []
    for path in sorted(glob.glob(str(ROOT / "games" / "*" / "levels" / "*.toml"))):
        world = load(path)
        world.step(20)
        out.append((str(Path(path).relative_to(ROOT)), dumps(world)))
        world.close()
    scene = every_component()
    out.append(("every component", dumps(scene)))
    out.append(("every component (compact)", dumps(scene, compact=True)))
    out.append(("every component, some deleted", dumps(some_deleted(scene))))
    return tuple(out)


def some_deleted(world: World) -> World:
    """``world`` less a few particles, springs and bodies (and what hung on them): its rows
    are swap-removed out of id order, so its save holds ``[rows]`` and ``next_entity``."""
    for component, k in ((Particle, 0), (Particle, 7), (Spring, 3), (RigidBody, 1)):
        world.delete_entity(world.get_component(component)[k][0])
    world.step(2)
    return world


@cache
def _parsed(text: str) -> tuple[dict, tuple[tuple, ...]]:
    doc = tomllib.loads(text)
    return doc, tuple(_paths(doc, ()))


def _paths(node, path):
    """Every place in a parsed document, as the keys and indices leading to it."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for k, value in enumerate(node):
            yield (*path, k)
            yield from _paths(value, (*path, k))


def _ids(doc: dict) -> list[int]:
    tables = doc.get("entity")
    if not isinstance(tables, list):  # a mutation made it something else
        return []
    return [t["id"] for t in tables if isinstance(t, dict) and "id" in t]


def _value(rng: random.Random, old, doc: dict):
    """Something to put where ``old`` was."""
    pick = rng.random()
    if pick < 0.25:
        return rng.choice(HUGE)
    if pick < 0.55:
        return rng.choice(ODD)
    if pick < 0.65:
        return rng.choice(STRINGS)
    if pick < 0.75 and _ids(doc):
        return rng.choice(_ids(doc))  # another entity's id
    if pick < 0.85 and isinstance(old, int | float) and not isinstance(old, bool):
        return old * rng.choice([-1, 10, 1e3, 1e4, 1e6, 1e-6, 0.999]) + rng.choice([0, 1, -1])
    return rng.choice([True, False, [], {}, [1, 2], {"x": 1}, [[1.0, 2.0]], "entity"])


def _is_points(value) -> bool:
    return isinstance(value, list) and len(value) >= 3 and all(
        isinstance(p, list) and len(p) == 2 for p in value)


def _outline(rng: random.Random) -> list[list[float]]:
    """A star of up to 3,000 points and up to 1e6 px: the costliest outline to check and
    cut (points³), or sense against."""
    # mostly past the limit (refused before any work grows with it); at times just within
    n, r = rng.choice([257, 1000, 3000, 3000, 3000, 250]), rng.choice([50.0, 1e4, 5e5])
    return [[(r if k % 2 else r / 2) * math.cos(2 * math.pi * k / n),
             (r if k % 2 else r / 2) * math.sin(2 * math.pi * k / n)] for k in range(n)]


#: Keys that hold entity ids (and counts): a mutation there gives another id, the
#: largest, one past it, or an id of another kind.
ID_KEYS = {"id", "a", "b", "entity", "from", "count", "particles", "inside", "disc_a", "disc_b",
           "pairs", "next_entity"}
#: Component names: a table renamed to another component's (a particle read as a body).
COMPONENT_KEYS = ("particle", "body", "spring", "tether", "joint", "area", "shape", "sensor",
                  "anchor", "fruit", "look")


@cache
def _outline_paths(paths: tuple[tuple, ...]) -> tuple[tuple, ...]:
    """The places that hold outlines: a body's size, a sensor's points, level polygons."""
    return tuple(p for p in paths if p[-1] in ("size", "points", "rest")
                 or (len(p) > 1 and p[-2] == "polygons"))


def _id(rng: random.Random, old: int, doc: dict) -> int:
    top = limits.MAX_ENTITY_ID
    return rng.choice([*rng.choices(_ids(doc) or [1], k=3), top, top - 1, top + 1, 0, -1,
                       old + 1, old - 1, 1024, 1025])


def mutate(rng: random.Random, doc: dict, paths: tuple[tuple, ...]) -> None:
    """One random change to ``doc`` (a place from ``paths``, which may no longer exist)."""
    path = rng.choice(paths)
    outlines = _outline_paths(paths)
    if outlines and rng.random() < 0.05:  # rare among thousands of places: sought out
        path = rng.choice(outlines)
    parent = doc
    try:
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        old = parent[key]
    except (KeyError, IndexError, TypeError):
        return
    if not isinstance(parent, dict | list):  # a string now stands where a table was
        return
    op = rng.random()
    if key in ID_KEYS and type(old) is int and op < 0.5:
        parent[key] = _id(rng, old, doc)
    elif (_is_points(old) or key == "size") and op < 0.4:
        parent[key] = _outline(rng)
        if "shape" in parent:  # a body: of that outline
            parent["shape"] = "polygon"
    elif key in COMPONENT_KEYS and op < 0.1:
        parent[rng.choice(COMPONENT_KEYS)] = parent.pop(key)
    elif op < 0.55:
        parent[key] = _value(rng, old, doc)
    elif op < 0.68:
        del parent[key]
    elif op < 0.75 and isinstance(parent, dict):
        parent[rng.choice(["typo", "x", "id", "kind", "state", "speed"])] = _value(rng, old, doc)
    elif op < 0.85 and isinstance(old, list):
        del old[rng.randrange(len(old) + 1):]  # truncated (maybe to nothing)
    elif op < 0.92 and isinstance(old, list) and old:
        old.append(copy.deepcopy(rng.choice(old)))  # an item twice
    elif isinstance(parent, list):
        parent.append(copy.deepcopy(old))  # a table or value twice (two [[entity]] id 5…)
    else:
        parent[key] = _value(rng, old, doc)


def _text(rng: random.Random, doc: dict) -> str:
    text = tomli_w.dumps(doc)
    if rng.random() < 0.03:  # an integer longer than Python converts (4,300 digits)
        text = text.replace(" = 0\n", " = " + "9" * 5000 + "\n", 1)
    if rng.random() < 0.02:  # a file cut short
        text = text[: rng.randrange(len(text))]
    return text


class Hang(Exception):
    """A try ran over HANG_S."""


def _on_alarm(signum, frame):
    raise Hang


def attempt(text: str) -> str:
    """``refused``, ``stepped`` or ``refused at step`` (a WorldError while stepping); any
    other exception propagates, naming where it came from."""
    try:
        world = loads(text, "fuzz.toml")
    except WorldFileError:
        return "refused"
    try:
        loads(dumps(world))  # every accepted file saves again, and that save loads
        world.step(FRAMES)
    except WorldError:
        return "refused at step"
    finally:
        world.close()
    return "stepped"


def run(seed: int, tries: int) -> Counter:
    """``tries`` mutated files from ``seed``; fails on the first foreign exception or hang."""
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    old = {sig: signal.signal(sig, _on_alarm) for sig in (signal.SIGPROF, signal.SIGALRM)}
    try:
        for k in range(tries):
            name, base = rng.choice(bases())
            doc, paths = _parsed(base)
            doc = pickle.loads(pickle.dumps(doc, pickle.HIGHEST_PROTOCOL))  # a deep copy, fast
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                mutate(rng, doc, paths)
            text = _text(rng, doc)
            signal.setitimer(signal.ITIMER_PROF, HANG_S)
            signal.setitimer(signal.ITIMER_REAL, BLOCKED_S)
            try:
                outcomes[attempt(text)] += 1
            except Hang:
                pytest.fail(f"try {k} (seed {seed}, base {name}) ran over {HANG_S} s of CPU "
                            f"(or {BLOCKED_S} s):\n{text[:3000]}")
            except Exception as exc:
                raise AssertionError(f"try {k} (seed {seed}, base {name}): foreign "
                                     f"{type(exc).__name__}: {exc}\n{text[:3000]}") from exc
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    return outcomes


@pytest.mark.parametrize("part", range(4))
def test_mutated_world_files_fail_only_with_world_file_error(part):
    seed = random.randrange(2**32) if EXPLORE else 29_000 + part
    outcomes = run(seed, TRIES // 4)
    assert sum(outcomes.values()) == TRIES // 4
    # the mutations reach past the first check: some files load and step
    assert outcomes["refused"] and outcomes["stepped"], outcomes


def test_the_bases_load_and_step():
    for name, text in bases():
        assert attempt(text) == "stepped", name
