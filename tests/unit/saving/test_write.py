"""Never a lost save: what ``save`` writes, ``load`` reads back; what it would not, it refuses.

The cases of the breaking round (issue 15): every API-legal state either
cannot be made or saves and loads; values that leave their range by other
means (the simulation, a direct store write, a game's own fields) are refused
by ``save`` naming the entity and field, the previous file untouched; the
loader's cost follows the size of the file; ``check`` refuses what is not a
regular file.
"""

from __future__ import annotations

import math
import os
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ecsgoo
from ecsgoo import World, WorldError, WorldFileError, cli, limits, systems
from ecsgoo.components import Anchor, AreaConstraint, Fruit, Particle, ShapeMatch, Spring
from ecsgoo.level import Level


@dataclass
class Tally:
    """A game's component with typed and untyped fields (registered as ``write_tally``)."""

    count: int = 0
    weight: float = 0.0
    extra: Any = 0


@dataclass
class Progress:
    """A game's resource (registered as ``write_progress``)."""

    level: int = 0
    best: list[float] = field(default_factory=list)


ecsgoo.register_component(Tally, name="write_tally")
ecsgoo.register_resource(Progress, name="write_progress")


def _world() -> World:
    w = World()
    for x in (10.0, 50.0, 30.0):
        w.create_entity(Particle(x, 10.0))  # entities 1, 2, 3
    return w


def _round_trip(w: World) -> World:
    return ecsgoo.loads(ecsgoo.dumps(w))


# -- every case of the issue: refused by the API, or saved and loaded -----------------------

API_CASES = {
    "restitution 1.5": lambda w: w.create_entity(Particle(0, 0, restitution=1.5)),
    "radius -1": lambda w: w.create_entity(Particle(0, 0, radius=-1)),
    "friction -0.5": lambda w: w.create_entity(Particle(0, 0, friction=-0.5)),
    "mass 1e-9": lambda w: w.create_entity(Particle(0, 0, mass=1e-9)),
    "x 2e9": lambda w: w.create_entity(Particle(2e9, 0)),
    "spring rest 1e-9": lambda w: w.create_entity(Spring(1, 2, rest=1e-9)),
    "spring rest -5": lambda w: w.create_entity(Spring(1, 2, rest=-5)),
    "compliance 1e7": lambda w: w.create_entity(Spring(1, 2, compliance=1e7)),
    "pressure 150": lambda w: w.create_entity(AreaConstraint([1, 2, 3], pressure=150)),
    "dt 2": lambda w: setattr(w, "dt", 2),
    "substeps 2000": lambda w: setattr(w, "substeps", 2000),
    "iterations 0": lambda w: setattr(w, "iterations", 0),
    "Anchor(1e300, 0)": lambda w: w.add_component(1, Anchor(1e300, 0)),
    "Anchor(nan, 0)": lambda w: w.add_component(1, Anchor(math.nan, 0)),
    "next_entity 2**62": lambda w: setattr(w, "next_entity", 2**62),
    "gravity nan": lambda w: setattr(w, "gravity", (math.nan, 0.0)),
    "damping inf": lambda w: setattr(w, "damping", math.inf),
    "bounds nan": lambda w: setattr(w, "bounds", (0.0, 0.0, math.nan, 1.0)),
    "apply_force nan": lambda w: w.apply_force(1, math.nan, 0.0),
    "grab inf": lambda w: w.grab(1, math.inf, 0.0),
    "rest_area nan": lambda w: w.create_entity(AreaConstraint([1, 2, 3], rest_area=math.nan)),
    "shape rest inf": lambda w: w.create_entity(ShapeMatch([1, 2],
                                                           rest=[[math.inf, 0], [0, 0]])),
    "Fruit(nan)": lambda w: w.add_component(1, Fruit(math.nan)),
}


@pytest.mark.parametrize("case", API_CASES)
def test_each_case_of_the_issue_is_refused_by_the_api(case):
    w = _world()
    before = ecsgoo.dumps(w)
    with pytest.raises(WorldError):
        API_CASES[case](w)
    assert ecsgoo.dumps(_round_trip(w)) == before, "a refused call leaves the world as it was"


def test_values_at_the_edges_save_and_load():
    w = _world()
    w.dt, w.substeps, w.iterations = limits.MAX_DT, limits.MAX_SUBSTEPS, limits.MAX_ITERATIONS
    w.add_component(1, Anchor(limits.MAX_COORD, -limits.MAX_COORD))
    w.create_entity(Spring(2, 3, compliance=limits.MAX_COMPLIANCE))
    w.create_entity(AreaConstraint([1, 2, 3], pressure=limits.MAX_PRESSURE))
    w.create_entity(Tally(count=limits.MAX_INT, extra=[-limits.MAX_INT, "text"]))
    w.next_entity = 10_000  # (the top, MAX_ENTITY_ID + 1, costs a second of esper ids)
    assert ecsgoo.dumps(_round_trip(w)) == ecsgoo.dumps(w)


# -- what the API cannot stop: refused by save, naming entity and field --------------------

def _flung(w: World) -> None:
    w.bounds, w.gravity = None, (0.0, 0.0)
    w.use(systems.Integrate())
    w.create_entity(Particle(limits.MAX_COORD - 1.0, 0.0, vx=limits.MAX_SPEED))  # entity 4
    with pytest.raises(WorldError, match="entity 4 .* left the representable range"):
        w.step(2)  # the step says so; a save of what it left must refuse too


def _store(column: str, value: Any) -> Any:
    def write(w: World) -> None:
        w.store.particles.cols[column][1] = value  # entity 2's row

    return write


SAVE_CASES = {
    "flung past MAX_COORD": (_flung, "entity 4 (particle): field x: must be within"),
    "store x nan": (_store("pos", math.nan), "entity 2 (particle): field x: must be finite, "
                                             "got nan"),
    "store restitution 1.5": (_store("restitution", 1.5), "entity 2 (particle): field "
                                                          "restitution"),
    "store radius -1": (_store("radius", -1.0), "entity 2 (particle): field radius"),
    "tally int 2**63": (lambda w: w.create_entity(Tally(count=2**63)),
                        "entity 4 (write_tally): field count"),
    "tally untyped 2**63": (lambda w: w.create_entity(Tally(extra=[1, 2**63])),
                            "entity 4 (write_tally): field extra"),
    "tally nan": (lambda w: w.create_entity(Tally(weight=math.nan)),
                  "entity 4 (write_tally): field weight"),
    "tally untyped inf": (lambda w: w.create_entity(Tally(extra=-math.inf)),
                          "entity 4 (write_tally): field extra"),
    "resource int 2**63": (lambda w: w.add_resource(Progress(level=2**63)),
                           "resource write_progress: field level"),
    "resource nan": (lambda w: w.add_resource(Progress(best=[1.0, math.nan])),
                     "resource write_progress: field best"),
    "frame 2**63": (lambda w: setattr(w, "frame", 2**63), "[world]: field frame"),
}


@pytest.mark.parametrize("case", SAVE_CASES)
def test_save_refuses_what_load_would_and_keeps_the_last_good_save(case, tmp_path):
    w = _world()
    path = tmp_path / "save.toml"
    ecsgoo.save(w, path)
    good = path.read_bytes()
    make, message = SAVE_CASES[case]
    make(w)
    with pytest.raises(WorldFileError, match="cannot|file cannot hold") as err:
        ecsgoo.save(w, path)
    assert str(path) in str(err.value) and message in str(err.value)
    assert "-inf" not in str(err.value) or "inf" in case
    with pytest.raises(WorldFileError):
        ecsgoo.dumps(w)
    assert path.read_bytes() == good and os.listdir(tmp_path) == ["save.toml"]


def test_nan_is_never_written_as_another_value():
    from ecsgoo.saving.write import text

    assert text({"format_version": 1, "world": {"dt": math.nan}}).splitlines()[-1] == \
        "dt = nan"


# -- no stale references ----------------------------------------------------------------------

def test_deleting_the_grabbed_particle_still_saves_and_loads():
    w = _world()
    w.grab(2, 40.0, 40.0)
    w.delete_entity(2)
    assert w.grabbed == -1
    assert _round_trip(w).grabbed == -1


def test_stage_memory_of_deleted_entities_is_not_saved():
    w = _world()
    w.add_component(1, Anchor())
    w.create_entity(Spring(1, 2))
    w.create_entity(Fruit(1), Particle(100.0, 10.0))  # entity 5
    w.use(*(stage() for stage in systems.SOLVER), systems.Analyze(), systems.Merge())
    w.step(1)
    w.delete_entity(2)
    w.delete_entity(5)
    doc = ecsgoo.saving.document(w)
    saved = {stage["stage"]: stage.get("state", {}) for stage in doc["pipeline"]}
    alive = set(w.entities())
    assert set(saved["merge"]["entities"]) <= alive
    assert set(saved["analyze"]["grounded"]) <= alive
    w2 = _round_trip(w)
    w.step(3)
    w2.step(3)
    assert w2.state_hash() == w.state_hash()


# -- the loader's cost follows the file's size ------------------------------------------------

HUGE_RUNS = {
    "400 million particles": "entity = { from = 1, count = 400000000 }",
    "1e11 particles": "entity = { from = 1, count = 100000000000 }",
    "ids past the limit": "entity = [1, 4000000000000]",
}


@pytest.mark.parametrize("case", HUGE_RUNS)
def test_a_tiny_file_asking_for_huge_tables_is_refused_before_allocating(case):
    text = f"format_version = 1\n[particles]\n{HUGE_RUNS[case]}\nx = 0.0\ny = 0.0\n"
    assert len(text) < 100
    tracemalloc.start()
    try:
        with pytest.raises(WorldFileError, match=r"\[particles\]: field (entity|from|count)"):
            ecsgoo.loads(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


@pytest.mark.parametrize("state", [
    'stage = "analyze"\nstate = { grounded = [1], size = 100000000000 }',
    'stage = "merge"\nstate = { entities = [4000000000000], x = [0.0], y = [0.0], '
    "fruit = [true] }",
])
def test_stage_state_cannot_ask_for_huge_arrays(state):
    tracemalloc.start()
    try:
        with pytest.raises(WorldFileError, match="field state"):
            ecsgoo.loads(f"format_version = 1\n[[pipeline]]\n{state}\n")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_level_segments_load_in_one_pass(monkeypatch):
    calls = []
    real = Level.add_segment  # the loader adds to the level itself (World's would wake it)
    monkeypatch.setattr(Level, "add_segment", lambda self, p, q, **surface: calls.append(1) or
                        real(self, p, q, **surface))
    n = 3000
    rows = "".join(f"[{k}.0, 0.0, {k}.5, 1.0],\n" for k in range(n))
    w = ecsgoo.loads(f"format_version = 1\n[level]\nsegments = [\n{rows}]\n")
    assert len(calls) == n and len(w.level.lines) == n


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_check_refuses_what_is_not_a_regular_file(kind, tmp_path, capsys):
    path = {"fifo": tmp_path / "pipe", "device": Path("/dev/zero"), "directory": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(path)
    assert cli.main(["check", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not a regular file" in err
    with pytest.raises(WorldFileError, match="not a regular file"):
        ecsgoo.load(path)


def test_a_file_past_the_size_cap_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "big.toml"
    path.write_text("format_version = 1\n" + "# padding\n" * 20)
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 100)
    with pytest.raises(WorldFileError, match="larger than 100 bytes"):
        ecsgoo.load(path)


def test_a_nul_in_a_path_is_a_world_file_error():
    with pytest.raises(WorldFileError, match="cannot read"):
        ecsgoo.load("a\x00b.toml")


def test_column_ids_stop_at_the_entity_limit():
    top = limits.MAX_ENTITY_ID
    with pytest.raises(WorldFileError, match=f"ids run past {top}"):
        ecsgoo.loads(f"format_version = 1\n[particles]\nentity = {{ from = {top}, count = 2 }}"
                     "\nx = 0.0\ny = 0.0\n")
    w = ecsgoo.loads("format_version = 1\n[particles]\nentity = { from = 3, count = 2 }\n"
                     "x = [0.0, 1.0]\ny = 0.0\n")
    assert w.entities() == [3, 4]
    assert np.array_equal(w.particles.pos[:, 0], [0.0, 1.0])


def test_saving_through_a_symlink_replaces_the_target_and_keeps_the_link(tmp_path):
    target, link = tmp_path / "real.toml", tmp_path / "link.toml"
    ecsgoo.save(World(), target)
    link.symlink_to(target)
    ecsgoo.save(_world(), link)
    assert link.is_symlink() and len(ecsgoo.load(target).entities()) == 3


def test_a_lone_surrogate_or_a_nul_in_the_path_is_refused_when_saving(tmp_path):
    w = _world()
    w.create_entity(Tally(extra="\ud800"))
    with pytest.raises(WorldFileError, match="entity 4 .* field extra: holds a lone surrogate"):
        ecsgoo.save(w, tmp_path / "w.toml")
    with pytest.raises(WorldFileError, match="cannot write"):
        ecsgoo.save(_world(), str(tmp_path / "a\x00b.toml"))
    assert os.listdir(tmp_path) == []


def test_the_next_save_removes_what_a_killed_save_left_behind(tmp_path):
    path = tmp_path / "w.toml"
    killed, writing = tmp_path / ".w.toml.abc123.tmp", tmp_path / ".w.toml.def456.tmp"
    killed.write_text("half a wor")
    writing.write_text("another save, still writing")
    old = killed.stat().st_mtime - ecsgoo.saving.STALE_TEMP_S - 1
    os.utime(killed, (old, old))
    ecsgoo.save(_world(), path)
    assert sorted(os.listdir(tmp_path)) == [writing.name, path.name]


def test_step_and_frames_refuse_negative_counts(capsys):
    w = _world()
    with pytest.raises(WorldError, match="World.step: field n"):
        w.step(-1)
    with pytest.raises(SystemExit):
        cli.main(["demo", "--frames", "-1"])
    assert "--frames: must be a whole number >= 0" in capsys.readouterr().err


@pytest.mark.parametrize("game, missing, needs", [
    ("suika", "suika_state", "the resource suika_state"),
    ("goo", "goo_rules", "an entity with a goo_rules component"),
])
def test_a_level_missing_the_games_state_is_refused_at_load(game, missing, needs, tmp_path,
                                                           monkeypatch):
    from ecsgoo.app.games import GAMES, discover

    discover()
    cls = GAMES[game]
    text = cls.level_file(1).read_text(encoding="utf-8")
    kept = [line for line in text.splitlines(keepends=True) if not line.startswith(f"{missing} =")]
    assert len(kept) < len(text.splitlines())
    path = tmp_path / "1.toml"
    path.write_text("".join(kept))
    monkeypatch.setattr(cls, "level_file", classmethod(lambda c, level: path))
    with pytest.raises(WorldFileError, match=f"1.toml: .*needs {needs}"):  # its stage's or game's
        cls(level=1)
