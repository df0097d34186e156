"""``ecsgoo edit``'s own window on a virtual X screen (issue 28): on a first run (a cold
kernel cache) it shows the loading screen as the player's window does, instead of
freezing in the first play-test while keys queue up.

Needs ``xvfb-run``; skipped without it.
"""

import pytest
from xvfb import needs_xvfb, run_on_xvfb

pytestmark = pytest.mark.window

SCRIPT = r"""
import json, time
import arcade
from pyglet.event import EventDispatcher
from ecsgoo.app import loading
from ecsgoo.editor import Editor
from ecsgoo.editor.window import EditorWindow
from ecsgoo.warmup import warm_up

warm_up()  # warm: the "first run" below only loads the kernels, quickly
loading.cache_is_cold = lambda: True  # as on a first run
ed = Editor("rope")
ed.place("rope_candy", x=400, y=380)
ed.place("rope_rope", x=250, y=520)
win = EditorWindow(ed)
def send(*event):  # through the handler stack, now (a Window queues outside its loop)
    EventDispatcher.dispatch_event(win, *event)
screen = getattr(win, "loading", None)
out = {"loading": screen is not None}
send("on_key_press", arcade.key.SPACE, 0)
send("on_draw")
out["tested_while_loading"] = win.editing_view.player is not None
deadline = time.monotonic() + 300
while screen is not None and not screen.finished:
    assert time.monotonic() < deadline, "the warm-up never finished"
    time.sleep(0.05)
send("on_update", 1 / 60)  # the loading screen lets go
send("on_key_press", arcade.key.SPACE, 0)
out["tested_after"] = win.editing_view.player is not None
send("on_update", 1 / 60)
send("on_draw")
print(json.dumps(out))
"""


@needs_xvfb
def test_the_editor_window_compiles_behind_the_loading_screen_on_a_first_run():
    out = run_on_xvfb(SCRIPT, screen="1280x900x24")
    assert out == {"loading": True, "tested_while_loading": False, "tested_after": True}
