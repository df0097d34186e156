"""The first run's kernel compile: coverage, cold/warm detection, progress, the terminal line.

A cold compile of every kernel takes ≈ 11 s here, so the detection is checked on
two small kernels in a fresh ``NUMBA_CACHE_DIR``; the full warm-up runs warm.
"""

import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numba
import pytest

from ecsgoo import warmup

ROOT = Path(__file__).resolve().parents[2]

TINY = """
from numba import njit


@njit(cache=True)
def twice(x):
    return 2.0 * x{extra}


@njit(cache=True)
def total(a):
    s = 0.0
    for v in a:
        s += v
    return s
"""

DETECT = """
import json, sys
import numpy as np
sys.path.insert(0, {folder!r})
import tiny
from ecsgoo.warmup import cache_is_cold, compile_watched
kernels = [tiny.twice, tiny.total]
cold = cache_is_cold(kernels)
calls = []
compiled = compile_watched(kernels, lambda: (tiny.twice(1.0), tiny.total(np.ones(3))),
                           lambda done, total: calls.append([done, total]))
print(json.dumps({{"cold": cold, "compiled": compiled, "calls": calls,
                  "cold_after": cache_is_cold(kernels)}}))
"""

# After the warm-up, every bundled game plays a few frames (bots on): no compile, and no
# kernel is called with argument types the warm-up did not load.
GAMES = """
import json
from ecsgoo import warmup
import ecsgoo.app.games as registry
from ecsgoo.game import GAMES

warmup.warm_up()
kernels = warmup.physics_kernels()
seen = {(k.__qualname__, s) for k in kernels for s in k.signatures}
registry.discover()
late = []
for name in sorted(GAMES):
    def play(name=name):
        game = GAMES[name](level=1, seed=0)
        for _ in range(5):
            if game.bots:
                game.bot_act(game.bots[0])
            game.step()
    late += [name] * warmup.compile_watched(kernels, play)
now = {(k.__qualname__, s) for k in kernels for s in k.signatures}
new = sorted(q for q, _ in now - seen)
print(json.dumps({"new": new, "late": late, "games": sorted(GAMES)}))
"""

# A game's rehearsal (``warmup.first_frames``) loads what its first fifteen seconds of
# play reach: its bot playing, a ball or body dragged at 5 s, sleep setting in (jelly's at
# frames 100-199). Each game in a process of its own, so one game's play cannot hide another's miss.
REHEARSED = """
import json
from ecsgoo import warmup
import ecsgoo.app.games as registry
from ecsgoo.game import GAMES

registry.discover()
game = GAMES[{name!r}](level=1, seed=0)
before = game.world.state_hash()
warmup.first_frames(game)
assert game.world.state_hash() == before, "the rehearsal touched the game's world"
kernels = warmup.physics_kernels()
seen = {{(k.__qualname__, s) for k in kernels for s in k.signatures}}
for frame in range(900):
    if game.bots:
        game.bot_act(game.bots[0])
    if frame == 300:
        held = warmup._something_to_grab(game.world)
        if held is not None:
            game.world.grab(*held)
    if frame == 340:
        game.world.release()
    game.step()
now = {{(k.__qualname__, s) for k in kernels for s in k.signatures}}
print(json.dumps({{"late": sorted(q for q, _ in now - seen), "frame": game.world.frame}}))
"""


def _python(code: str, **env: str) -> dict:
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, env={**os.environ, **env})
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_physics_kernels_are_every_kernel_numba_compiles_alone():
    names = {k.__qualname__ for k in warmup.physics_kernels()}
    assert {"integrate", "sweep_springs", "collide_pairs", "bridge_mask", "merge_pairs",
            "crossed_segments"} <= names
    assert "resolve_pair" not in names  # inline="always": part of collide_pairs


def test_after_the_warm_up_no_game_compiles_or_meets_a_new_kernel_signature():
    warmup.warm_up()  # in this process first: the cache the subprocess reads is then warm
    seen = _python(GAMES)
    assert seen["games"] and {"goo", "jelly", "rope", "suika"} <= set(seen["games"])
    # a kernel signature the tiny scene missed would be loaded or compiled during play
    assert seen["new"] == [] and seen["late"] == []


@pytest.mark.parametrize("name", ["goo", "jelly", "rope", "suika"])
def test_a_games_rehearsal_loads_what_its_first_fifteen_seconds_of_play_reach(name):
    seen = _python(REHEARSED.format(name=name))
    assert seen["late"] == [] and seen["frame"] > 0


def test_after_the_warm_up_the_cache_is_warm():
    # a kernel the warm-up never reaches would leave it cold: every start would warm up
    warmup.warm_up()
    assert not warmup.cache_is_cold(), [k.__qualname__ for k in warmup.physics_kernels()
                                        if not k._cache._cache_file._load_index()]


def test_a_warm_cache_is_told_by_one_marker_file(monkeypatch):
    """Once every kernel was found warm, a start reads one file, not every kernel's index
    (~30 ms of a warm start); without it, the indexes are read and the marker made again."""
    from numba.core import caching

    assert not warmup.cache_is_cold()  # (the suite warmed up before any test)
    kernels = warmup.physics_kernels()
    marker = warmup.warm_marker(kernels)
    assert marker is not None and os.path.exists(marker)
    assert numba.__version__ in os.path.basename(marker)
    read: list[int] = []
    own = caching.IndexDataCacheFile._load_index
    monkeypatch.setattr(caching.IndexDataCacheFile, "_load_index",
                        lambda self: read.append(1) or own(self))
    assert not warmup.cache_is_cold() and read == []
    os.unlink(marker)
    assert not warmup.cache_is_cold() and len(read) == len(kernels)
    assert os.path.exists(marker)


def test_every_kernel_is_called_by_the_framework():
    """A kernel nothing in ``ecsgoo`` calls (only tests, say) is never compiled by the
    warm-up, so every start would find the cache cold and warm up again — which the test
    above cannot see in a process where another test called it."""
    source = "\n".join(p.read_text() for p in (ROOT / "ecsgoo").rglob("*.py"))
    # every name called somewhere (not where it is defined), read once: a search per kernel
    # over the whole source took 15 s
    called = set(re.findall(r"(?<!def )\b(\w+)\(", source))
    direct = set(re.findall(r"\bDirect\(([\w.]+)\)", source))
    # (a kernel made by a factory, ``_pass_of.<locals>.one_pass``: its factory's calls; one
    # called on its compiled entry: ``physics.direct.Direct(kernel)``)
    unused = [k.__qualname__ for k in warmup.physics_kernels()
              if k.__qualname__.split(".")[0] not in called and k.__qualname__ not in direct]
    assert unused == []


def test_a_fresh_cache_is_cold_compiles_with_progress_then_is_warm(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY.format(extra=""))
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    first = _python(DETECT.format(folder=str(tmp_path)), **env)
    assert first["cold"] and first["compiled"] == 2 and not first["cold_after"]
    assert first["calls"][0] == [0, 2] and first["calls"][-1] == [2, 2]
    assert all(done <= total == 2 for done, total in first["calls"])
    second = _python(DETECT.format(folder=str(tmp_path)), **env)
    assert second == {"cold": False, "compiled": 0, "calls": [], "cold_after": False}


def test_an_open_ended_compile_tells_no_total_until_its_end(tmp_path):
    (tmp_path / "tiny.py").write_text(TINY.format(extra=""))
    code = DETECT.format(folder=str(tmp_path)).replace(
        "lambda done, total: calls.append([done, total]))",
        "lambda done, total: calls.append([done, total]), open_ended=True)").replace(
        "(tiny.twice(1.0), tiny.total(np.ones(3)))", "tiny.twice(1.0)")
    seen = _python(code, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    assert seen["compiled"] == 1 and seen["calls"] == [[0, 0], [1, 0], [1, 1]]


def test_a_changed_kernel_file_makes_the_cache_cold_again(tmp_path):
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    (tmp_path / "tiny.py").write_text(TINY.format(extra=""))
    _python(DETECT.format(folder=str(tmp_path)), **env)
    (tmp_path / "tiny.py").write_text(TINY.format(extra=" + 0.0"))  # another size: stale
    again = _python(DETECT.format(folder=str(tmp_path)), **env)
    assert again["cold"] and again["compiled"] >= 1 and again["calls"][-1] == [2, 2]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_terminal_line_shows_the_message_and_n_of_total():
    out = _Terminal()
    show = warmup.TerminalProgress(out)
    show(0, 40)
    show(40, 40)
    text = out.getvalue()
    assert text.startswith(f"\recsgoo: {warmup.MESSAGE} 0/40")
    assert "40/40 done in" in text and text.endswith(" s\n") and text.count("\n") == 1


def test_not_on_a_terminal_the_progress_is_a_few_whole_lines():
    out = io.StringIO()
    show = warmup.TerminalProgress(out)
    for done in range(121):  # as a cold compile tells it: every start and end
        show(done, 120)
        show(done, 120)
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue() and len(lines) == 5
    assert [line.split()[-1] for line in lines[:4]] == ["0/120", "30/120", "60/120", "90/120"]
    assert lines[-1].startswith(f"ecsgoo: {warmup.MESSAGE} 120/120 done in")


def test_an_open_ended_count_says_how_many_are_ready_then_done():
    out = io.StringIO()
    show = warmup.TerminalProgress(out)
    for done in range(60):  # a game's warm-up: how many it will reach is not known
        show(done, 0)
        show(done, 0)
    show(60, 60)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"ecsgoo: {warmup.MESSAGE} 0 ready" and len(lines) == 2
    assert lines[1].startswith(f"ecsgoo: {warmup.MESSAGE} 60/60 done in")
    assert lines[1].endswith(" s (the rest compile in the background)")
    term = _Terminal()
    show = warmup.TerminalProgress(term)
    show(0, 0)
    show(5, 5)
    assert term.getvalue().startswith(f"\recsgoo: {warmup.MESSAGE} 0 ready\r")
    assert term.getvalue().count("\n") == 1


def test_a_warm_cache_prints_nothing():
    warmup.warm_up()
    out = io.StringIO()
    assert not warmup.cache_is_cold()
    assert warmup.terminal_warm_up(out) == 0 and out.getvalue() == ""


def test_a_warm_headless_run_prints_no_compile_line_and_ends_with_the_json(tmp_path):
    warmup.warm_up()
    run = subprocess.run([sys.executable, "-m", "ecsgoo", "play", "rope", "--headless",
                          "--frames", "1"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "compiling" not in run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1])["frames"] == 1


def test_the_helper_ends_when_its_parent_does():
    # a parent that starts the waiting helper's twin and ends at once, killed or not
    code = ("import os, subprocess, sys; subprocess.Popen([sys.executable, '-c', 'import "
            "os; print(os.getpid(), flush=True); from ecsgoo.warmup import _end_with; "
            "_end_with(%d); import time; time.sleep(60)' % os.getpid()], "
            "stdout=sys.stdout, stderr=subprocess.DEVNULL)")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert parent.wait(timeout=60) == 0
    for _ in range(300):  # it looks twice a second (after importing ecsgoo: a busy machine)
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(child, 9)
    raise AssertionError("the helper outlived its parent")


def test_the_helper_ends_when_the_pipe_its_parent_holds_ends():
    # what ends it where a process is not handed on as its parent ends (Windows): its
    # parent, this test, stays; only the pipe on its stdin ends
    child = subprocess.Popen([sys.executable, "-c", "from ecsgoo.warmup import _end_with; "
                              f"_end_with({os.getpid()}, True); import time; time.sleep(60)"],
                             stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    assert child.poll() is None  # the pipe open: it waits
    child.stdin.close()
    assert child.wait(timeout=30) == 0  # (else it sleeps a minute)


def test_the_background_helper_runs_this_module_and_stops_with_this_process(monkeypatch):
    helper = warmup._helper("physics_kernels")
    assert helper.wait(timeout=120) == 0
    started = []
    monkeypatch.setattr(warmup, "_helper", lambda name, *args, pipe=False: started.append(
        (*args, pipe)) or subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    monkeypatch.setattr(warmup, "_background", None)
    first = warmup.start_background("rigid", (True, False))
    assert warmup.start_background("soft") is first
    assert started == [("rigid", os.getpid(), (True, False), True)]
    warmup.stop_background()
    assert first.poll() is not None
