"""The windowed player, for real: every game in an arcade window on a virtual X screen.

Needs ``xvfb-run`` (Debian's xvfb; ``.ci/run`` installs it); skipped without it.
The test drives the window itself — a fixed number of event dispatches, updates
of exactly one step's time, draws and flips — so the frame count it checks does
not depend on how fast the machine is (a busy machine only takes longer).
"""

import pytest
from xvfb import needs_xvfb, run_on_xvfb

pytestmark = pytest.mark.window

#: Frames the script drives per game (each: events, one 1/60 s update, a draw, a flip).
FRAMES = 20

SCRIPT = r"""
import json, sys
import arcade
import ecsgoo.app.games as registry
from ecsgoo.app.window import PlayerWindow
from ecsgoo.game import GAMES
from ecsgoo.warmup import warm_up

FRAMES = int(sys.argv[1])
warm_up()  # a warm cache: no loading screen holds the frames back (test_loading_screen.py)
registry.discover()
out = {}
for name in sorted(GAMES):
    win = PlayerWindow(GAMES[name](level=1), None)
    assert win.loading is None
    dt = win.player.world.dt
    def frame():
        win.dispatch_events()
        win.on_update(dt)
        win.on_draw()
        win.flip()
    for k in range(FRAMES):
        if k == 5:
            win.on_mouse_press(400, 300, 1, 0)
        elif k == 6:
            win.on_mouse_drag(420, 330, 20, 30, 1, 0)
        elif k == 7:
            win.on_key_press(arcade.key.N, 0)  # single step, and pause
            win.on_key_press(arcade.key.P, 0)  # run again
        elif k == 8:
            win.on_mouse_release(420, 330, 1, 0)
        frame()
    image = arcade.get_image()
    colours = len(set(image.convert("RGB").resize((80, 60)).getdata()))
    out[name] = {"frames": win.player.world.frame, "colours": colours}
    win.close()
print(json.dumps(out))
"""


@needs_xvfb
def test_every_game_plays_in_a_window():
    result = run_on_xvfb(SCRIPT, str(FRAMES))
    assert set(result) >= {"goo", "rope", "suika", "jelly"}
    for name, seen in result.items():
        # one fixed step per driven frame, plus the single step of N
        assert seen["frames"] == FRAMES + 1, (name, seen)
        assert seen["colours"] > 20, name  # it drew a scene, not a blank window


LAUNCHER = r"""
import json
import arcade
from ecsgoo.app.window import PlayerWindow
from ecsgoo.warmup import warm_up

warm_up()
win = PlayerWindow()
out = {"first": win.player is None}
def frame():
    win.dispatch_events()
    win.on_update(1 / 60)
    win.on_draw()
    win.flip()
frame()
image = arcade.get_image().convert("RGB").resize((96, 64))
out["title_colours"] = len(set(image.getdata()))
win.on_key_press(arcade.key.KEY_3, 0)   # the third game's level select
out["screen"] = win.launcher.screen
frame()
win.on_key_press(arcade.key.KEY_1, 0)   # its level 1
for _ in range(5):
    frame()
out["playing"] = win.player.game.name
out["frames"] = win.player.world.frame
win.on_key_press(arcade.key.M, 0)
out["muted"] = win.player.sounds.muted
win.on_key_press(arcade.key.ESCAPE, 0)  # back to the launcher's level select
frame()
out["back"] = [win.player is None, win.launcher.screen]
win.on_key_press(arcade.key.ESCAPE, 0)
out["title"] = win.launcher.screen
print(json.dumps(out))
"""


@needs_xvfb
def test_the_launcher_opens_a_game_and_esc_comes_back():
    out = run_on_xvfb(LAUNCHER)
    assert out["first"] and out["title_colours"] > 20
    assert out["screen"] == "rope" and out["playing"] == "rope" and out["frames"] == 5
    assert out["muted"] and out["back"] == [True, "rope"] and out["title"] == "title"
