"""The windowed player, for real: every game in an arcade window on a virtual X screen.

Needs ``xvfb-run`` (Debian's xvfb; ``.ci/run`` installs it); skipped without it.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

SCRIPT = r"""
import json, sys
import arcade, pyglet
import ecsgoo.app.games as registry
from ecsgoo.app.window import PlayerWindow
from ecsgoo.game import GAMES

registry.discover()
out = {}
for name in sorted(GAMES):
    win = PlayerWindow(GAMES[name](level=1), None)
    def poke(dt, win=win):
        win.on_mouse_press(400, 300, 1, 0)
        win.on_mouse_drag(420, 330, 20, 30, 1, 0)
        win.on_key_press(arcade.key.N, 0)
    def done(dt, win=win, name=name):
        win.on_mouse_release(420, 330, 1, 0)
        image = arcade.get_image()
        colours = len(set(image.convert("RGB").resize((80, 60)).getdata()))
        out[name] = {"frames": win.player.world.frame, "colours": colours}
        win.close()
        pyglet.app.exit()
    pyglet.clock.schedule_once(poke, 0.3)
    pyglet.clock.schedule_once(done, 1.0)
    arcade.run()
print(json.dumps(out))
"""


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run")
def test_every_game_plays_in_a_window():
    env = {k: v for k, v in os.environ.items() if k != "ARCADE_HEADLESS"}
    run = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1024x768x24", sys.executable,
                          "-c", SCRIPT], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert set(result) >= {"goo", "rope", "suika", "jelly"}
    for name, seen in result.items():
        assert seen["frames"] > 10, name  # the fixed-step clock ran
        assert seen["colours"] > 20, name  # it drew a scene, not a blank window
