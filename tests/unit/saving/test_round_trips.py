"""Saving and loading worlds as TOML: round trips, bit-exact continuation, clear errors."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import esper
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ecsgoo
from ecsgoo import (
    Anchor,
    AreaConstraint,
    Fruit,
    Particle,
    ShapeMatch,
    Spring,
    World,
    WorldError,
    WorldFileError,
    systems,
)
from ecsgoo.bodies import box, jelly_ball, rope
from scenes import chaos, solver


@dataclass
class Lever:
    """A game's own component: every kind of field a world file holds."""

    label: str
    target: int
    links: list[int] = field(default_factory=list)
    weight: float = 1.0
    uses: int = 0
    armed: bool = False
    view: tuple[float, ...] = (0.0, 0.0)
    note: str | None = None


@dataclass
class Progress:
    """A game's own resource."""

    level: int = 1
    stars: list[int] = field(default_factory=list)


class Hover:
    """A transient component (not saved)."""


@systems.register_stage
class Wind(systems.Stage):
    """A game's own stage with a setting and remembered state."""

    name = "test_wind"

    def __init__(self, strength: float = 1.0) -> None:
        self.strength = strength
        self.gusts = 0

    def settings(self) -> dict:
        return {"strength": self.strength}

    def save_state(self) -> dict:
        return {"gusts": self.gusts}

    def load_state(self, state: dict) -> None:
        self.gusts = int(state["gusts"])

    def process(self, world: World) -> None:
        self.gusts += 1


ecsgoo.register_component(Lever, name="lever", refs=("target", "links"))
ecsgoo.register_component(Hover, saved=False)
ecsgoo.register_resource(Progress)


def every_component() -> World:
    """A world holding every built-in component type, a game's own ones and resources."""
    w = World(gravity=(10.0, -500.0), dt=1 / 50, substeps=4, iterations=2, damping=0.98,
              bounds=None, contact_slop=0.5)
    w.use(systems.Integrate(), systems.Project(iterations=4), systems.Collide(bounce_speed=12.5),
          systems.Break(break_frames=2), Wind(strength=2.5))
    a = w.create_entity(Particle(10, 20, mass=2.5, radius=3, group=4, friction=0.2,
                                 restitution=0.3, vx=5, vy=-7), Anchor(11, 21))
    b = w.create_entity(Particle(60, 20), Fruit(4))
    w.component(b, Particle).mass = math.inf  # heavier than its kind: saved as it is
    c = w.create_entity(Particle(30, 60))
    w.create_entity(Spring(a, b, stiffness=0.5, max_stretch=None))
    w.create_entity(Spring(b, c, rest=40, max_stretch=1.5))
    w.create_entity(AreaConstraint([a, b, c], pressure=1.7, stiffness=0.8))
    w.create_entity(ShapeMatch([a, b, c], alpha=0.3, outline=False))
    w.create_entity(Lever("up", target=a, links=[b, c], weight=2, uses=3, armed=True,
                          view=(1.5, 2.5)), Hover())
    w.add_segment((0, 0), (100, 10))
    w.add_polygon([(200, 0), (300, 0), (250, 80)])
    w.add_resource(systems.Score(value=12))
    w.add_resource(Progress(level=3, stars=[1, 3]))
    w.apply_force(c, 3.0, 4.0)
    w.frame = 7
    return w


def breaking_scene() -> World:
    """The chaos scene (heavy and light particles, a jelly ball) plus a rope that snaps."""
    w = chaos(seed=3)
    r = rope(w, (80, 470), (230, 470), 6, max_stretch=1.03)
    bob = w.create_entity(Particle(260, 470, mass=100.0, radius=6))
    w.create_entity(Spring(r.particles[-1], bob, max_stretch=1.03))
    box(w, 450, 400, alpha=0.5)
    return w


def broken(w: World) -> int:
    s = w.store.springs
    return int(s.cols["broken"][: s.n].sum())


# -- round trips ------------------------------------------------------------------------------

def test_every_component_type_round_trips():
    w = every_component()
    text = ecsgoo.dumps(w)
    w2 = ecsgoo.loads(text)
    assert ecsgoo.dumps(w2) == text
    assert w2.state_hash() == w.state_hash()
    assert w2.settings() == w.settings() and w2.frame == 7
    for entity in w.entities():
        kinds = {type(c) for c in w.components_for_entity(entity)} - {Hover, Anchor}
        for kind in kinds:
            assert w2.component(entity, kind) == w.component(entity, kind), (entity, kind)
    lever = w2.get_component(Lever)[0][1]
    assert lever == Lever("up", target=1, links=[2, 3], weight=2.0, uses=3, armed=True,
                          view=(1.5, 2.5))
    assert not w2.get_component(Hover)  # transient: not saved
    assert w2.component(1, Anchor) is not None and w2.component(2, Particle).mass == math.inf
    assert w2.component(4, Spring).max_stretch is None
    assert w2.resource(systems.Score).value == 12
    assert w2.resource(Progress) == Progress(level=3, stars=[1, 3])
    assert [type(s) for s in w2.pipeline] == [type(s) for s in w.pipeline]
    assert [s.settings() for s in w2.pipeline] == [s.settings() for s in w.pipeline]
    assert w2.level.lines == w.level.lines and w2.level.polygons == w.level.polygons
    assert w2.store.particles.cols["force"][2].tolist() == [3.0, 4.0]


def test_compact_and_per_entity_forms_load_the_same_world():
    w = breaking_scene()
    w.step(3)
    per_entity, compact = ecsgoo.dumps(w, compact=False), ecsgoo.dumps(w, compact=True)
    assert "[particles]" in compact and "[particles]" not in per_entity
    for text in (per_entity, compact):
        w2 = ecsgoo.loads(text)
        assert w2.state_hash() == w.state_hash()
        assert ecsgoo.dumps(w2, compact=False) == per_entity


def test_stage_state_and_grab_are_saved():
    w = every_component()
    w.pipeline[-1].gusts = 5
    w.grab(3, 40.0, 70.0)
    w.step(2)
    w2 = ecsgoo.loads(ecsgoo.dumps(w))
    assert w2.pipeline[-1].gusts == 7 and w2.pipeline[-1].strength == 2.5
    assert w2.grabbed == 3 and w2.grab_target == (40.0, 70.0)
    w.step(10)
    w2.step(10)
    assert w2.state_hash() == w.state_hash()


# -- bit-exact continuation --------------------------------------------------------------

@pytest.mark.parametrize("compact", [False, True])
def test_loaded_world_continues_bit_for_bit(compact, tmp_path):
    w = breaking_scene()
    for _ in range(60):  # until a spring of the rope is over its limit, none broken yet
        w.step(1)
        if w.store.springs.cols["over"].max() >= 1:
            break
    assert broken(w) == 0 and w.store.springs.cols["over"].max() >= 1
    path = tmp_path / "mid.toml"
    ecsgoo.save(w, path, compact=compact)
    w2 = ecsgoo.load(path)
    assert w2.state_hash() == w.state_hash()
    for _ in range(3):
        w.step(100)
        w2.step(100)
        assert w2.state_hash() == w.state_hash()
    assert broken(w) == broken(w2) >= 1  # the rope snapped after the load, in both alike
    assert ecsgoo.dumps(w2) == ecsgoo.dumps(w)


def test_row_order_after_deletions_is_kept():
    w = breaking_scene()
    w.step(5)
    for entity in (3, 10, 40, 90):  # swap-removes: rows no longer follow entity ids
        w.delete_entity(entity)
    w.step(5)
    text = ecsgoo.dumps(w)
    assert "[rows]\nparticles = [" in text and "\nsprings = [" in text
    w2 = ecsgoo.loads(text)
    w.step(150)
    w2.step(150)
    assert w2.state_hash() == w.state_hash()
    created = w.create_entity(Particle(300, 300))
    assert w2.create_entity(Particle(300, 300)) == created  # the next id is kept too


def test_merging_fruits_continue_with_the_score_and_ids():
    w = World(bounds=(0, 0, 300, 400)).use(*(s() for s in systems.SOLVER), systems.Merge())
    for k in range(12):
        w.create_entity(Particle(40 + 20 * (k % 6), 30 + 35 * (k // 6)), Fruit(k % 2))
    w.step(40)
    w2 = ecsgoo.loads(ecsgoo.dumps(w))
    w.step(120)
    w2.step(120)
    assert w.resource(systems.Score).value > 0
    assert ecsgoo.dumps(w2) == ecsgoo.dumps(w)


# -- hand-written levels -------------------------------------------------------------------------

LEVEL = """\
format_version = 1

[world]
gravity = [0, -980]
substeps = 6

[level]
segments = [[0, 100, 300, 80]]

[[pipeline]]
stage = "integrate"

[[pipeline]]
stage = "project"

[[pipeline]]
stage = "collide"

[[pipeline]]
stage = "break"

[[entity]]
id = 1
particle = { x = 100, y = 300 }
anchor = {}

[[entity]]
id = 2
particle = { x = 150.0, y = 300.0, mass = 2.0 }

[[entity]]
id = 3
spring = { a = 1, b = 2 }

[[entity]]
id = 4
particle = { x = 300, y = 200, vx = 60 }
fruit = { kind = 2 }
"""


def test_hand_written_level_fills_in_defaults():
    w = ecsgoo.loads(LEVEL)
    assert w.dt == 1 / 60 and w.bounds == (0.0, 0.0, 800.0, 600.0)
    p = w.component(2, Particle)
    assert (p.x, p.y, p.mass, p.radius, p.vx) == (150.0, 300.0, 2.0, 4.0, 0.0)
    assert w.component(3, Spring).rest == 50.0 and w.component(3, Spring).max_stretch == 2.0
    fruit = w.component(4, Particle)
    assert fruit.radius == ecsgoo.fruit.RADII[2] and fruit.vx == pytest.approx(60.0)
    w.step(30)
    w.check()
    assert w.component(1, Particle).y == 300.0  # anchored


def test_the_documented_example_loads():
    doc = Path(__file__).resolve().parents[3] / "docs" / "world-format.md"
    blocks = re.findall(r"```toml\n(.*?)```", doc.read_text(), re.S)
    assert blocks
    w = ecsgoo.loads(blocks[0], source="world-format.md")
    w.step(5)
    w.check()


# -- bad input ----------------------------------------------------------------------------------

BAD = [
    ("syntax", ("id = 2", "id = = 2"), ["line 28, column 6", "syntax"]),
    ("unknown component", ("anchor = {}", "anchr = {}"),
     ["entity 1", "unknown component 'anchr'", "did you mean 'anchor'"]),
    ("unknown field", ("mass = 2.0", "mas = 2.0"), ["entity 2 (particle)", "'mas'", "'mass'"]),
    ("missing field", ("{ x = 150.0, y = 300.0,", "{ x = 150.0,"),
     ["entity 2 (particle): field y: missing"]),
    ("wrong type", ("x = 150.0", 'x = "left"'), ["entity 2 (particle): field x", "number"]),
    ("nan", ("x = 150.0", "x = nan"), ["entity 2 (particle): field x", "finite"]),
    ("infinite", ("y = 300.0", "y = -inf"), ["entity 2 (particle): field y", "finite"]),
    ("negative mass", ("mass = 2.0", "mass = -2.0"),
     ["entity 2 (particle): field mass", "in 1e-06..1e+12 or inf"]),
    ("zero mass", ("mass = 2.0", "mass = 0"), ["entity 2 (particle): field mass", "1e-06"]),
    ("missing entity", ("b = 2 }", "b = 99 }"),
     ["entity 3 (spring): field b", "entity 99", "does not exist"]),
    ("not a particle", ("b = 2 }", "b = 3 }"),
     ["entity 3 (spring): field b", "entity 3", "not a particle"]),
    ("duplicate id", ("id = 2\n", "id = 1\n"), ["entity 1: field id", "two [[entity]]"]),
    ("future version", ("format_version = 1", "format_version = 9"),
     ["field format_version", "newer"]),
    ("no version", ("format_version = 1", ""), ["format_version", "missing"]),
    ("dt", ("substeps = 6", "substeps = 6\ndt = 0"), ["[world]: field dt", "in 1e-06..1"]),
    ("substeps", ("substeps = 6", "substeps = 0"), ["[world]: field substeps"]),
    ("unknown stage", ('"break"', '"brake"'), ["pipeline stage 4", "did you mean 'break'"]),
    ("stage setting", ('"break"', '"break"\nbreak_frame = 2'),
     ["pipeline stage 4 (break)", "break_frame", "did you mean 'break_frames'"]),
    ("fruit kind", ("kind = 2", "kind = 11"), ["entity 4 (fruit): field kind"]),
    ("top-level typo", ("[world]", "[wrold]"), ["'wrold'", "did you mean 'world'"]),
    ("huge coordinate", ("x = 150.0", "x = 1e300"), ["entity 2 (particle): field x"]),
    ("game component", ("anchor = {}", 'anchor = {}\nlever = { label = "a", target = 77 }'),
     ["entity 1 (lever): field target", "entity 77", "does not exist"]),
    ("game component type", ("anchor = {}", 'anchor = {}\nlever = { label = 5, target = 2 }'),
     ["entity 1 (lever): field label", "string"]),
    ("anchor alone", ("particle = { x = 100, y = 300 }\n", ""),
     ["entity 1 (anchor)", "needs a particle"]),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_input_names_the_file_entity_and_field(case):
    _, (old, new), wanted = case
    assert old in LEVEL
    before = set(esper.list_worlds())
    with pytest.raises(WorldFileError) as err:
        ecsgoo.loads(LEVEL.replace(old, new, 1), source="level.toml")
    message = str(err.value)
    assert message.startswith("level.toml: ")
    for part in wanted:
        assert part in message, message
    assert set(esper.list_worlds()) <= before  # nothing half-built is left registered


@pytest.mark.parametrize("data, wanted", [
    (b"", "empty"), (b"  \n# only a comment?\n", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
    (b"format_version = 1\nname = \"\xff\xfe\"\n", "not UTF-8"),
    (b"# nothing\n[world]\n", "missing"),
])
def test_empty_and_binary_files_are_refused(data, wanted):
    with pytest.raises(WorldFileError, match=wanted):
        ecsgoo.loads(data)


def _set_first(text: str, table: str, key: str, value: str) -> str:
    """``text`` with the first value of column ``key`` of ``[table]`` replaced."""
    at = text.index(f"[{table}]")
    tail = re.sub(rf"(\n{key} = \[\n    )([^,]+)", rf"\g<1>{value}", text[at:], count=1)
    assert tail != text[at:]
    return text[:at] + tail


def test_column_block_errors_name_the_entity():
    w = breaking_scene()
    text = ecsgoo.dumps(w, compact=True)
    first_spring, first_particle = (int(t.cols["entity"][0]) for t in
                                    (w.store.springs, w.store.particles))
    with pytest.raises(WorldFileError, match=rf"entity {first_spring} \(spring\): field a: "
                       "refers to entity 999999, which does not exist"):
        ecsgoo.loads(_set_first(text, "springs", "a", "999999"))
    with pytest.raises(WorldFileError, match=rf"\[particles\] entity {first_particle}: "
                       "field mass: must be in 1e-06"):
        ecsgoo.loads(_set_first(text, "particles", "mass", "-1.0"))
    with pytest.raises(WorldFileError, match=r"\[particles\] entity \d+: field x: must be "
                       "a finite number, got a boolean"):
        ecsgoo.loads(_set_first(text, "particles", "x", "true"))


def test_construction_errors_become_world_file_errors():
    text = LEVEL + "\n[[entity]]\nid = 9\narea = { particles = [1, 2, 4], rest_area = 5.0 }\n"
    ecsgoo.loads(text)  # a fine ring
    with pytest.raises(WorldFileError, match="entity 9 \\(area\\): field particles"):
        ecsgoo.loads(text.replace("[1, 2, 4]", "[1, 2, 2]"))


def test_missing_file_is_a_world_file_error(tmp_path):
    with pytest.raises(WorldFileError, match="nope.toml: cannot read"):
        ecsgoo.load(tmp_path / "nope.toml")


def _mutate(data: bytes, edits: list[tuple[str, int, bytes]]) -> bytes:
    for kind, at, chunk in edits:
        at %= max(len(data), 1)
        if kind == "flip":
            data = data[:at] + bytes([data[at] ^ (chunk[0] or 1)]) + data[at + 1:]
        elif kind == "delete":
            data = data[:at] + data[at + 1 + len(chunk):]
        else:
            data = data[:at] + chunk + data[at:]
    return data


def _fuzz_base() -> list[bytes]:
    w = solver(World(bounds=(0, 0, 400, 400)))
    jelly_ball(w, 150, 150, radius=30, vertices=5)
    rope(w, (250, 350), (330, 350), 3, max_stretch=1.5)
    w.create_entity(Particle(300, 100), Fruit(1))
    w.create_entity(Lever("x", target=1, links=[2]))
    w.step(3)
    return [ecsgoo.dumps(w).encode(), ecsgoo.dumps(w, compact=True).encode()]


FUZZ_BASE = _fuzz_base()
EDIT = st.tuples(st.sampled_from(["flip", "delete", "insert"]), st.integers(0, 10**6),
                 st.binary(min_size=1, max_size=3))


def _loads_and_steps_or_refuses(data: bytes | str) -> None:
    """Loading either works (and 5 steps leave no NaN) or raises WorldFileError: nothing else.
    A world the file set up to leave the representable range (a spring of rest 1e9 flings
    its ends at 9e9 px/s) may stop with the WorldError that names what left it."""
    try:
        w = ecsgoo.loads(data)
    except WorldFileError:
        return
    try:
        w.step(5)
    except WorldError as error:
        assert "left the representable range" in str(error)
        return
    w.check()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(FUZZ_BASE), edits=st.lists(EDIT, min_size=1, max_size=3))
def test_mutated_files_load_or_raise_world_file_error(base, edits):
    _loads_and_steps_or_refuses(_mutate(base, edits))


NUMBER = re.compile(rb"(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?")
ODD_VALUES = [b"0", b"-1", b"1e9", b"-1e9", b"1e10", b"5e-324", b"1e-300", b"-0.0", b"3",
              b"1e300", b"inf", b"-inf", b"nan", b"true", b'"x"', b"[]", b"{}", b"2", b"0.5",
              b"4611686018427387904", b"99999999999999999999999"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(FUZZ_BASE),
       swaps=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(ODD_VALUES)),
                      min_size=1, max_size=2))
def test_odd_values_load_or_raise_world_file_error(base, swaps):
    for at, value in swaps:  # a number of the file replaced by an odd value
        numbers = list(NUMBER.finditer(base))
        m = numbers[at % len(numbers)]
        base = base[: m.start()] + value + base[m.end():]
    _loads_and_steps_or_refuses(base)


# -- saving ------------------------------------------------------------------------------------

def test_unregistered_component_is_an_error_and_keeps_the_old_file(tmp_path):
    path = tmp_path / "w.toml"
    w = every_component()
    ecsgoo.save(w, path)
    old = path.read_bytes()

    class Secret:
        pass

    w.create_entity(Particle(1, 1), Secret())
    with pytest.raises(WorldFileError, match="Secret is not registered"):
        ecsgoo.save(w, path)
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["w.toml"]


def test_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "w.toml"
    ecsgoo.save(every_component(), path)
    old = path.read_bytes()

    def full_disk(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(WorldFileError, match="No space left"):
        ecsgoo.save(breaking_scene(), path)
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["w.toml"]


def test_unwritable_folder_is_a_world_file_error(tmp_path):
    with pytest.raises(WorldFileError, match="cannot write"):
        ecsgoo.save(every_component(), tmp_path / "missing" / "w.toml")


def test_values_a_file_cannot_hold_are_refused_when_saving():
    w = every_component()
    w.component(8, Lever).weight = math.nan
    with pytest.raises(WorldFileError, match="entity 8 \\(lever\\): field weight"):
        ecsgoo.dumps(w)


def test_register_component_refuses_what_it_cannot_save():
    with pytest.raises(TypeError, match="dataclass"):
        ecsgoo.register_component(Hover, name="hover2")
    with pytest.raises(ValueError, match="built-in"):
        ecsgoo.register_component(Lever, name="spring")


# -- check_file ---------------------------------------------------------------------------------

def test_check_file_summarises_or_raises(tmp_path):
    path = tmp_path / "level.toml"
    path.write_text(LEVEL)
    before = set(esper.list_worlds())
    summary = ecsgoo.check_file(path)
    assert "level.toml: 4 entities" in summary
    assert "particle 3" in summary and "spring 1" in summary and "fruit 1" in summary
    assert "integrate" in summary
    assert set(esper.list_worlds()) == before
    path.write_text(LEVEL.replace("b = 2 }", "b = 99 }"))
    with pytest.raises(WorldFileError, match="entity 3 \\(spring\\): field b"):
        ecsgoo.check_file(path)



@pytest.mark.parametrize("setting", ["iterations = 1.5", "iterations = -inf", "iterations = [1, 2]",
                                     "iterations = 0"])
def test_a_bad_stage_setting_is_refused_at_load_not_at_the_first_step(setting):
    text = f'format_version = 1\n[[pipeline]]\nstage = "project"\n{setting}\n'
    with pytest.raises(ecsgoo.WorldFileError, match="iterations"):
        ecsgoo.loads(text)


def test_registration_reads_naturally_as_a_decorator():
    from dataclasses import dataclass

    @ecsgoo.register_component(name="decorated_tag", refs=("other",))
    @dataclass
    class Tag:
        other: int = 0

    @ecsgoo.register_component
    @dataclass
    class BareTag:
        size: float = 1.0

    @ecsgoo.register_resource(name="decorated_tally")
    @dataclass
    class Tally:
        count: int = 0

    w = World()
    a = w.create_entity(Particle(1, 1))
    w.create_entity(Tag(other=a), BareTag(2.0))
    w.add_resource(Tally(3))
    text = ecsgoo.dumps(w)
    assert "decorated_tag" in text and "bare_tag" in text and "decorated_tally" in text
    w2 = ecsgoo.loads(text)
    assert w2.get_components(Tag, BareTag)[0][1][1].size == 2.0
    assert w2.resource(Tally).count == 3
