"""The player: fixed steps, input in world coordinates, widgets, keys, headless runs."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from toygame import Toy

from ecsgoo import Particle
from ecsgoo.app import Accumulator, Player, run_headless
from ecsgoo.app.draw import Draw
from ecsgoo.app.headless import offscreen_window
from ecsgoo.app.player import window_size

# -- the accumulator (no GL) ----------------------------------------------------------------


def test_accumulator_steps_at_60_hz_whatever_the_display_rate():
    for fps in (30, 60, 144, 240):
        clock = Accumulator(1 / 60)
        assert sum(clock.advance(1 / fps) for _ in range(fps * 3)) == 180, fps


def test_accumulator_carries_the_remainder():
    clock = Accumulator(1 / 60)
    assert [clock.advance(0.01) for _ in range(5)] == [0, 1, 0, 1, 1]


def test_accumulator_clamps_after_a_stall():
    clock = Accumulator(1 / 60, max_steps=5)
    assert clock.advance(2.0) == 5  # not 120: no spiral of death
    assert clock.dropped == 115
    assert clock.advance(1 / 60) == 1  # and the backlog is gone


def test_accumulator_ignores_negative_time_and_resets():
    clock = Accumulator(1 / 60)
    assert clock.advance(-1.0) == 0
    clock.advance(0.012)
    clock.reset()
    assert clock.advance(0.01) == 0


# -- the player (no GL) ---------------------------------------------------------------------


def test_player_runs_fixed_steps_and_pauses():
    player = Player(Toy())
    assert player.update(0.05) == 3 and player.world.frame == 3
    player.key("p")
    assert player.update(0.5) == 0 and player.world.frame == 3
    player.key("n")  # single step while paused
    assert player.world.frame == 4 and player.paused
    player.key("space")
    assert not player.paused and player.update(1 / 60) == 1


def test_restart_gives_a_fresh_world():
    player = Player(Toy())
    player.update(0.1)
    old = player.world
    player.key("r")
    assert player.world is not old and player.world.frame == 0


def test_other_keys_go_to_the_game():
    game = Toy()
    seen = []
    game.on_key = seen.append
    Player(game).key("Z")
    assert seen == ["z"]


def test_default_grab_and_fling_in_world_coordinates():
    game = Toy(level=2)
    e = game.world.create_entity(Particle(400, 300, radius=10))
    player = Player(game, size=(1600, 1200))  # the 800×600 world shown at scale ~1.7
    cx, cy = player.fit().to_screen(400, 300)  # the world's centre, below the HUD band
    player.press(cx + 5, cy)  # 3 world px right of the centre: grabs it
    assert player.grabbed == e
    for k in range(5):
        player.drag(cx + 5 + 40 * (k + 1), cy)
        player.step()
    player.release(cx + 205, cy)
    assert player.grabbed is None and game.world.grabbed == -1
    assert game.world.component(e, Particle).vx > 100, "released with the pointer's speed"
    player.press(100, 100)  # nothing there
    assert player.grabbed is None


def test_widgets_take_clicks_before_the_game():
    game = Toy(level=2)
    presses = []
    game.on_press = lambda x, y, b: presses.append((x, y))
    player = Player(game)
    slider, toggle, button = player.widgets.slots
    player.press(slider.x + slider.w, slider.y + 4)
    player.drag(slider.x + slider.w / 4, slider.y + 4)
    player.release(slider.x, slider.y)
    player.press(toggle.x + 5, toggle.y + 5)
    player.press(button.x + 5, button.y + 5)
    assert game.changes == [("gravity", 2000.0), ("gravity", 500.0), ("wire", True),
                            ("spawn", True)]
    assert presses == [] and slider.widget.value == 500.0
    player.press(10, 10)
    assert len(presses) == 1
    player.key("tab")  # the game's own wireframe toggle hears of it
    assert game.changes[-1] == ("wire", False) and toggle.widget.value is False


def test_quick_save_and_load(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    player = Player(Toy())
    player.update(0.1)
    player.key("f5")
    assert player.save_path().is_file(), player.message()
    state, frame = player.world.state_hash(), player.world.frame
    player.update(0.2)
    player.key("f9")
    assert player.message().startswith("loaded"), player.message()
    assert (player.world.state_hash(), player.world.frame) == (state, frame)


def test_dragging_a_fruit_into_a_merge_then_quick_save_and_load(tmp_path, monkeypatch):
    from ecsgoo import Fruit, systems

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game = Toy(level=2)
    game.world.use(*game.world.pipeline, systems.Merge())
    held = game.world.create_entity(Particle(300, 300), Fruit(1))
    other = game.world.create_entity(Particle(400, 300), Fruit(1))
    player = Player(game, size=(1600, 1200))
    fit = player.fit()
    sx, sy = fit.to_screen(300, 300)
    player.press(sx, sy)
    assert player.grabbed == held
    for k in range(20):  # drag it onto the other fruit: they merge while it is held
        player.drag(*fit.to_screen(300 + 5 * (k + 1), 300))
        player.step()
    assert not player.world.entity_exists(held) and not player.world.entity_exists(other)
    assert player.world.grabbed == -1
    player.key("f5")
    assert player.message().startswith("saved"), player.message()
    state = player.world.state_hash()
    player.key("f9")
    assert player.message().startswith("loaded"), player.message()
    assert player.world.state_hash() == state


def test_quick_load_without_a_save_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    player = Player(Toy())
    player.key("f9")
    assert "F5" in player.message()


def test_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="bots: poke, random"):
        Player(Toy(), bot="nope")


# -- headless runs and drawing (offscreen GL) ----------------------------------------------


def test_headless_run_summary_screenshot_and_gif(tmp_path):
    from PIL import Image

    png, gif = tmp_path / "toy.png", tmp_path / "toy.gif"
    result = run_headless(Toy(), frames=40, bot="poke", screenshot_path=png, record_path=gif,
                          progress=False)
    assert result == {"game": "toy", "level": 1, "frames": 40, "result": "running",
                      "score": 2, "pokes": 2}
    image = np.asarray(Image.open(png).convert("RGB"), float)
    width, height = window_size(Toy())  # the game's 800×600 plus the HUD bands and the panel
    assert image.shape == (height, width, 3) and image.std() > 10, "a picture, not a blank"
    with Image.open(gif) as anim:
        assert anim.n_frames == math.ceil(40 / 3) + 1
        assert anim.info["duration"] == 50  # every 3rd frame: real time


def test_headless_run_without_pictures_needs_no_window():
    result = run_headless(Toy(level=2), frames=5, progress=False)
    assert result["frames"] == 5 and result["result"] == "running"


def test_draw_helper_draws_every_shape_in_world_coordinates():
    import arcade

    window = offscreen_window((800, 600))
    game = Toy(level=2)

    def overlay(draw: Draw) -> None:
        draw.rect(0, 0, 100, 100, (0, 0, 255))
        draw.circle(400, 300, 30, (255, 0, 0))
        draw.circle_outline(600, 300, 30, (0, 255, 0), width=4)
        draw.line(100, 500, 300, 500, (255, 255, 0), width=6)
        draw.polyline([(100, 400), (200, 450), (300, 400)], (255, 255, 255))
        draw.polygon([(500, 450), (700, 450), (600, 550)], (255, 0, 255))
        draw.dots(np.array([[50, 550], [70, 550]]), 5, (0, 255, 255))
        draw.text(700, 100, "hello", (255, 255, 255), 20, anchor_x="center")

    game.draw_overlay = overlay
    player = Player(game, size=(1600, 1200))
    player.show_hud = False
    player.widgets.fold()  # the toy's widget panel folded: the world gets the whole window
    player.draw(window)  # the window is 800×600: world scale 1 again
    image = arcade.get_image(0, 0, 800, 600).convert("RGB")

    def at(x, y):
        return image.getpixel((x, 599 - y))

    assert at(50, 50) == (0, 0, 255)
    assert at(400, 300) == (255, 0, 0)
    assert at(630 - 2, 300)[1] > 200 and at(600, 300)[1] < 100  # a ring, hollow inside
    assert at(200, 500) == (255, 255, 0)
    assert at(600, 480) == (255, 0, 255)
    assert at(50, 550) == (0, 255, 255)
    text = np.asarray(image.crop((660, 480, 740, 520)), float)
    assert text.max() > 200, "the text was drawn"


def test_example_game_runs_headless(tmp_path):
    from ecsgoo.cli import main

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "mygame.py"
    from ecsgoo.app.games import load_path

    cls = load_path(example)
    result = run_headless(cls(), frames=600, bot="aim", progress=False)
    assert result["result"] == "won" and result["score"] >= 10
    assert main(["play", str(example), "--headless", "--frames", "10"]) == 0


def test_window_forwards_events_to_the_player(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "window.py"
    script.write_text(f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
import arcade
from toygame import Toy
from ecsgoo.app.window import PlayerWindow, key_name
w = PlayerWindow(Toy())
w.on_update(0.05)
w.on_draw()
w.on_mouse_press(200, 300, 1, 0)
w.on_mouse_drag(260, 300, 60, 0, 1, 0)
w.on_mouse_release(260, 300, 1, 0)
w.on_key_press(arcade.key.P, 0)
assert w.player.paused and w.player.world.frame == 3, w.player.world.frame
assert [key_name(k) for k in (arcade.key.PERIOD, arcade.key.F5, arcade.key.KEY_1)] == \\
    ["period", "f5", "1"]
print("ok")
""")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_progress_bar_shows_only_for_long_runs():
    import io

    from ecsgoo.app.headless import progress_bar

    quick, slow = io.StringIO(), io.StringIO()
    bar = progress_bar(100, "toy", quick, after=1e9)
    bar.update(50)
    bar.close()
    assert quick.getvalue() == ""
    bar = progress_bar(100, "toy", slow, after=0.0)
    bar.update(50)
    bar.update(50)
    bar.close()
    out = slow.getvalue()
    assert "toy" in out and "100/100" in out and "frame/s" in out and out.endswith("\n")


def test_keys_a_game_declares_reach_it_before_the_player():
    game = Toy()
    seen = []
    game.on_key = seen.append
    game.keys = ("space", "r", "p")
    player = Player(game)
    for name in ("space", "r", "p", "x"):
        player.key(name)
    assert seen == ["space", "r", "x"] and player.paused, "P still pauses"
    assert player.world.frame == 0 and player.message() != "restarted"


def test_r_restarts_unpaused():
    player = Player(Toy(level=2))
    player.key("p")
    assert player.paused
    player.key("r")
    assert not player.paused and player.world.frame == 0


class _Quick(Toy):
    """Won (or lost, on level 2) after three steps."""

    name = "quick"

    def status(self):
        from ecsgoo.game import Status

        if self.world.frame < 3:
            return Status()
        return Status("won" if self.level == 1 else "lost", 30, {"stars": 2})


def test_a_won_level_records_progress_sounds_and_offers_next_retry_menu():
    from ecsgoo.app.progress import Progress

    player = Player(_Quick(level=1))
    menus = []
    player.on_menu = lambda: menus.append(True)
    assert player.result_buttons() == []
    for _ in range(3):
        player.step()
    assert player.result == "won" and player.sounds.played[-1][0] == "win"
    assert Progress.load().best("quick", 1).best_stars == 2, "a windowed win is recorded"
    assert [b.action for b in player.result_buttons()] == ["next", "retry", "menu"]
    menu = player.result_buttons()[-1]
    player.press(menu.x + 2, menu.y + 2)
    assert menus == [True]
    player.key("return")  # next level
    assert player.game.level == 2 and player.result == "running"
    for _ in range(3):
        player.step()
    assert player.result == "lost" and [b.action for b in player.result_buttons()] == \
        ["retry", "menu"]
    retry = player.result_buttons()[0]
    player.press(retry.x + 2, retry.y + 2)
    assert player.world.frame == 0 and player.result == "running"


def test_bot_runs_do_not_count_as_progress():
    from ecsgoo.app.progress import Progress

    game = _Quick(level=2)
    game.name = "quickbot"
    player = Player(game, "poke")
    for _ in range(4):
        player.step()
    assert player.result == "lost" and player.result_buttons() == []
    assert Progress.load().best("quickbot", 2).best_score == 0


def test_toasts_never_print_full_file_paths():
    from ecsgoo.app.player import _short

    said = _short(ValueError("/home/u/x/quicksave-goo-1.toml: line 3 bad; see 'C:\\Users\\me\\a"
                             ".toml' and games/rope/levels/1.toml, stars 1/3"))
    assert said == "quicksave-goo-1.toml: line 3 bad; see 'a.toml' and " \
        "games/rope/levels/1.toml, stars 1/3"


def test_f5_says_which_file_it_wrote(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    player = Player(Toy())
    player.key("f5")
    path = player.save_path()
    said = player.message()
    assert path.is_file() and path.name in said and str(path.parent) in said and "F9" in said
    assert str(path) in capsys.readouterr().err


def test_the_hud_row_never_overlaps_after_restart_then_pause():
    from ecsgoo.app.draw import Draw
    from ecsgoo.app.headless import offscreen_window
    from ecsgoo.app.overlay import hud_row
    from games.jelly import JellyGame

    offscreen_window((800, 600))  # text is measured in a GL context
    draw = Draw()
    player = Player(JellyGame())
    player.key("r")
    player.key("p")
    row = hud_row(draw, player)
    texts = [text for _x, text, *_ in row]
    assert any(t.startswith("PAUSED") for t in texts)
    assert not any(t.lower() == "paused" for t in texts), "said once, not twice"
    player.say("a long message the player shows for a while, next to the pause note")
    row = hud_row(draw, player)
    for (x, text, _c, size, bold), (nx, *_rest) in zip(row, row[1:], strict=False):
        assert x + draw.text_width(text, size, bold) < nx, (text, row)
    limit = row[-1][0] + 80.0  # the stats on the right begin 80 px into the message
    x, text, _c, size, bold = hud_row(draw, player, limit)[-1]
    assert text.endswith("…") and x + draw.text_width(text, size, bold) <= limit


def test_the_window_gives_suika_a_new_seed_and_esc_records_a_game_left_mid_way(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "window.py"
    script.write_text("""
import arcade
from ecsgoo.app.progress import Progress
from ecsgoo.app.window import PlayerWindow
from games.suika.rules import state
w = PlayerWindow()  # the launcher
w.start("suika", 1)
first = w.player.game.seed
w.on_update(0.05)
w.on_mouse_press(300, 300, 1, 0)
assert w.player.game.pointer_time is not None  # a window stamps pointer events
state(w.player.game.world).score = 42  # as if two fruits had merged
w.on_key_press(arcade.key.ESCAPE, 0)  # back to the level select, mid-game
assert w.player is None and w.launcher.screen == "suika"
assert Progress.load().best("suika", 1).best_score == 42
w.start("suika", 1)
assert w.player.game.seed != first
print("ok", first, flush=True)
""")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=str(Path(__file__).resolve().parents[2]))
    assert proc.stdout.strip().startswith("ok"), proc.stderr
