"""A cold start's rehearsal with its callees compiled for linking only (``ecsgoo.link_only``,
as ``warmup.game_warm_up`` runs it): into an empty cache, then played by its bot, the game
steps to the bits of one compiled as numba compiles (this process's warm cache)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import json
from ecsgoo import warmup
from ecsgoo.link_only import callees_for_linking, linking_only
import ecsgoo.app.games as registry
from ecsgoo.game import GAMES

registry.discover()
game = GAMES[{name!r}](level=1, seed=0)
if {linking}:
    with callees_for_linking():
        warmup.first_frames(game, frames=120)
kernels = warmup.physics_kernels()
linked = sum(len(linking_only(k)) for k in kernels)
for frame in range(240):
    if game.bots:
        game.bot_act(game.bots[0])
    game.step()
# what was compiled for linking and then called from Python: wrapped (``link_only._in_full``)
wrapped = sum(getattr(c.library, "_ecsgoo_wrappers", False)
              for k in kernels for c in k.overloads.values())
print(json.dumps({{"hash": game.world.state_hash(), "linked": linked, "wrapped": wrapped,
                  "things": game.world.store.particles.n + game.world.store.bodies.n}}))
"""


def _play(name: str, linking: bool, **env: str) -> dict:
    run = subprocess.run([sys.executable, "-c", PLAY.format(name=name, linking=linking)],
                         cwd=ROOT,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, **env})
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ["suika", "jelly"])
def test_a_rehearsal_compiled_for_linking_plays_to_the_same_bits(tmp_path, name):
    """Suika and jelly: their play calls from Python kernels their rehearsal linked (the
    fused frame's, then the stages'), which are wrapped then, not compiled again."""
    cold = _play(name, True, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    warm = _play(name, False)  # (the suite's cache: compiled as numba compiles)
    assert cold["linked"] > 0, "no callee was compiled for linking only"
    assert cold["wrapped"] > 0, "no kernel linked first was called from Python after"
    assert cold["things"] > 1 and cold["hash"] == warm["hash"]


KERNELS = """
import numpy as np
from numba import njit

@njit(cache=True)
def doubled(n):
    return np.arange(n) * 2

@njit(cache=True)
def total(n):
    return doubled(n).sum()

@njit(cache=True)
def callee(x):
    return 3 * x + 1

@njit(cache=True)
def caller(x):
    return callee(x) + callee(2 * x)
"""

# a cold start's rehearsal compiles ``caller`` with ``callee`` for linking only (recorded),
# then a warm-up in another process loads ``caller`` from the cache (so never compiles
# ``callee``) and compiles what the record holds: ``callee``'s own entry
COLD_THEN_WARM = """
import sys
import ecsgoo.kernels
from ecsgoo.link_only import callees_for_linking, compile_recorded, linking_only
import linked_k as k
record = sys.argv[2]
if sys.argv[1] == "cold":
    with callees_for_linking(record):
        assert k.caller(2) == 7 + 13
    assert linking_only(k.callee) and not k.callee._cache._cache_file._load_index()
else:
    assert k.caller(2) == 20 and not k.callee.overloads  # loaded: nothing compiled it
    assert compile_recorded(record) == 1
    assert k.callee._cache._cache_file._load_index() and k.callee(2) == 7
    assert not linking_only(k.callee)
print("ok")
"""

# a callee compiled for linking, then called from Python in the same process: wrapped, and
# its cache entry (written then) loads in another process, to the same answer
WRAPPED_THEN_LOADED = """
import sys
import ecsgoo.kernels
from ecsgoo.link_only import callees_for_linking
import linked_k as k
if sys.argv[1] == "cold":
    with callees_for_linking():
        assert k.caller(2) == 7 + 13
    assert k.callee(5) == 16 and k.callee.overloads[k.callee.signatures[0]].library._ecsgoo_wrappers
else:
    assert k.callee(5) == 16 and k.callee.stats.cache_hits and not k.callee.stats.cache_misses
print("ok")
"""


# the same with a callee that returns an array, its caller loaded first in the next process
# (numba then holds the callee code's environment, loaded with the caller's entry, when the
# wrapped entry loads: the wrappers' must be their own to box the array)
ARRAY_WRAPPED_THEN_LOADED = """
import sys
import ecsgoo.kernels
from ecsgoo.link_only import callees_for_linking
import linked_k as k
if sys.argv[1] == "cold":
    with callees_for_linking():
        assert k.total(4) == 12
    assert list(k.doubled(3)) == [0, 2, 4]
    assert k.doubled.overloads[k.doubled.signatures[0]].library._ecsgoo_wrappers
else:
    assert k.total(4) == 12 and list(k.doubled(3)) == [0, 2, 4]
    assert k.doubled.stats.cache_hits and not k.doubled.stats.cache_misses
print("ok")
"""


@pytest.mark.parametrize("script", [WRAPPED_THEN_LOADED, ARRAY_WRAPPED_THEN_LOADED])
def test_a_wrapped_callee_is_cached_as_numba_caches(tmp_path, script):
    (tmp_path / "linked_k.py").write_text(KERNELS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}",
           "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    for mode in ("cold", "warm"):
        run = subprocess.run([sys.executable, "-c", script, mode], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300, env=env)
        assert run.returncode == 0 and run.stdout.strip() == "ok", (mode, run.stderr[-2000:])


def test_a_warm_up_after_a_cold_start_compiles_what_the_start_linked_only(tmp_path):
    """Without the record the cache stayed cold after a game's first start: every later
    start rehearsed again with a helper compiling behind it (BENCHMARKS.md, stop 63)."""
    (tmp_path / "linked_k.py").write_text(KERNELS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}",
           "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    record = str(tmp_path / "numba" / "linked-record")
    for mode in ("cold", "warm"):
        run = subprocess.run([sys.executable, "-c", COLD_THEN_WARM, mode, record], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300, env=env)
        assert run.returncode == 0 and run.stdout.strip() == "ok", (mode, run.stderr[-2000:])
