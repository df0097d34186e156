"""A start without the collector's scans (``ecsgoo.startup``): held from the command to the
first frame, back on after it whatever happens, and on before a cold compile."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from ecsgoo import cli, startup, warmup

TOY = str(Path(__file__).resolve().parents[2] / "toygame.py")


@pytest.fixture(autouse=True)
def _collector_as_found():
    """Each test starts with the collector on, nothing frozen by it (nor by the import:
    ``paused(keep=True)``, nor the session: ``conftest.pytest_collection_finish``), and
    leaves it on with what exists frozen again, as the session had it."""
    assert gc.isenabled()
    gc.unfreeze()
    yield
    startup.settle()
    gc.enable()
    gc.unfreeze()
    gc.freeze()


def test_paused_nests_and_restores():
    with startup.paused():
        assert not gc.isenabled()
        with startup.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block found it off: leaves it off
    assert gc.isenabled()
    gc.disable()
    with startup.paused():
        pass
    assert not gc.isenabled()  # found off, left off
    gc.enable()


def test_paused_keeping_freezes_what_exists_as_it_ends():
    with startup.paused(keep=True):
        made = [[i] for i in range(1000)]
    assert gc.isenabled() and gc.get_freeze_count() >= len(made)
    gc.unfreeze()
    with startup.paused():
        made = [[i] for i in range(1000)]
    assert gc.get_freeze_count() == 0  # not asked to keep: nothing frozen
    gc.disable()
    with startup.paused(keep=True):
        made = [[i] for i in range(10)]
    assert not gc.isenabled() and gc.get_freeze_count() == 0  # found off: left as found


def test_hold_then_settle_freezes_what_the_start_made():
    startup.hold()
    assert not gc.isenabled()
    made = [[i] for i in range(1000)]
    startup.settle()
    assert gc.isenabled() and gc.get_freeze_count() >= len(made)
    frozen = gc.get_freeze_count()
    startup.settle()  # a second settle does nothing more
    assert gc.get_freeze_count() == frozen


def test_settle_without_hold_touches_nothing():
    gc.disable()
    startup.settle()
    assert not gc.isenabled() and gc.get_freeze_count() == 0  # not ours to turn on
    gc.enable()


def test_play_turns_the_collector_back_on_at_its_first_frame(capsys, monkeypatch):
    seen = []
    from ecsgoo.app import headless

    step = headless.Player.step

    def watched(self):
        seen.append(gc.isenabled())
        step(self)

    monkeypatch.setattr(headless.Player, "step", watched)
    assert cli.main(["play", "--game", TOY, "--headless", "--frames", "3"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["frames"] == 3
    assert seen == [False, True, True]  # held through the first frame only
    assert gc.isenabled()


@pytest.mark.parametrize("argv", [
    ["play", "no-such-game"],
    ["play", TOY, "--headless", "--bot", "nope", "--frames", "1"],
    ["play", TOY, "--level", "9", "--headless"],
])
def test_play_that_fails_before_a_frame_leaves_the_collector_on(argv, capsys):
    assert cli.main(argv) == 1
    assert gc.isenabled()


def test_a_cold_start_turns_the_collector_on_before_it_compiles(monkeypatch):
    compiling = []
    monkeypatch.setattr(warmup, "cache_is_cold", lambda kernels=None: True)
    monkeypatch.setattr(warmup, "parallel_warm_up",
                        lambda progress: compiling.append(gc.isenabled()) or 0)
    startup.hold()
    warmup.terminal_warm_up()
    assert compiling == [True]


def test_fewer_scans_while_compiling_then_as_before():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), startup.fewer_scans():
        assert gc.get_threshold()[0] == 50_000
        raise RuntimeError("a compile that fails")
    assert gc.get_threshold() == before
