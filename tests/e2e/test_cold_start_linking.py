"""A cold start's rehearsal with its callees compiled for linking only (``ecsgoo.link_only``,
as ``warmup.game_warm_up`` runs it): into an empty cache, then played by its bot, the game
steps to the bits of one compiled as numba compiles (this process's warm cache)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import json
from ecsgoo import warmup
from ecsgoo.link_only import callees_for_linking, linking_only
import ecsgoo.app.games as registry
from ecsgoo.game import GAMES

registry.discover()
game = GAMES["suika"](level=1, seed=0)
if {linking}:
    with callees_for_linking():
        warmup.first_frames(game, frames=120)
linked = sum(len(linking_only(k)) for k in warmup.physics_kernels())
for frame in range(240):
    if game.bots:
        game.bot_act(game.bots[0])
    game.step()
print(json.dumps({{"hash": game.world.state_hash(), "linked": linked,
                  "fruits": game.world.store.particles.n + game.world.store.bodies.n}}))
"""


def _play(linking: bool, **env: str) -> dict:
    run = subprocess.run([sys.executable, "-c", PLAY.format(linking=linking)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, **env})
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_rehearsal_compiled_for_linking_plays_to_the_same_bits(tmp_path):
    cold = _play(True, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    warm = _play(False)  # (the suite's cache: compiled as numba compiles)
    assert cold["linked"] > 0, "no callee was compiled for linking only"
    assert cold["fruits"] > 1 and cold["hash"] == warm["hash"]
