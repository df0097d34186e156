"""app.sound: the effects exist (made by tools/make_sounds.py), world events play them,
M mutes, look-ahead copies stay quiet, and headless playback is silent."""

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

from toygame import Toy

from ecsgoo.app import Player, run_headless
from ecsgoo.app.sound import SOUND_DIR, SOUNDS, Sounds, merge_pitch

ROOT = Path(__file__).resolve().parents[3]


def test_every_effect_is_a_short_small_wav_and_the_script_makes_them_again(tmp_path):
    sys.path.insert(0, str(ROOT / "tools"))
    import make_sounds

    made = make_sounds.effects()
    assert set(made) == set(SOUNDS)
    for name in SOUNDS:
        with wave.open(str(SOUND_DIR / f"{name}.wav")) as w:
            seconds = w.getnframes() / w.getframerate()
            assert w.getnchannels() == 1 and 0.03 < seconds < 1.0, name
        assert abs(len(made[name]) / make_sounds.RATE - seconds) < 1e-3, f"{name}: stale file"


def test_world_events_and_game_sounds_play_and_m_mutes():
    game = Toy(level=2)
    player = Player(game)
    assert player.sounds.silent, "ARCADE_HEADLESS: silent"
    game.world.dispatch("spring_cut", game.world, 1)
    game.sound("attach")
    game.world.clone().dispatch("sound", game.world.clone(), "star")  # a copy: not heard
    assert [n for n, _ in player.sounds.played] == ["cut", "attach"]
    player.key("m")
    assert player.sounds.muted and "sound off" in player.message()
    player.key("m")
    assert not player.sounds.muted


def test_merges_rise_in_pitch_with_the_kind():
    assert merge_pitch(0) == 1.0 and merge_pitch(5) > merge_pitch(4) > 1.0


def test_a_headless_rope_win_plays_cut_star_eat_and_win():
    from games.rope.game import RopeGame

    game = RopeGame(level=1)
    played: list = []
    original = Sounds.play
    Sounds.play = lambda self, name, pitch=1.0: (played.append(name), original(self, name, pitch))
    try:
        result = run_headless(game, frames=400, bot="cutter", progress=False)
    finally:
        Sounds.play = original
    assert result["result"] == "won"
    assert {"cut", "star", "eat", "win"} <= set(played)


PLAY = """
from ecsgoo.app.audio import quiet_audio, driver_name
quiet_audio()
from ecsgoo.app.sound import SOUNDS, Sounds
s = Sounds(silent=False)
for name in SOUNDS:
    s.play(name, 1.5)
import json; print(json.dumps({"driver": driver_name(), "played": len(s.played)}))
"""


def test_playing_through_arcade_headless_uses_the_silent_driver():
    run = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, env={**os.environ, "ARCADE_HEADLESS": "1"})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1]) == {"driver": "silent", "played": len(SOUNDS)}
    assert "ALSA" not in run.stderr


def test_every_game_makes_its_sounds_when_its_bot_plays():
    from ecsgoo.app.games import discover

    wanted = {"goo": {"grab", "attach"}, "jelly": {"grab", "fling"}, "suika": {"drop"}}
    games = discover()[0]
    for name, sounds in wanted.items():
        player = Player(games[name](level=1), games[name].bots[0])
        for _ in range(240):
            player.step()
        assert sounds <= {n for n, _ in player.sounds.played}, name


def test_a_library_looked_up_once_is_not_looked_up_again(monkeypatch, tmp_path):
    """pyglet's FFmpeg probe asks for libraries most machines lack (~19 ms each): the
    answers are kept (for later runs too: ``tests/unit/app/test_libraries.py``)."""
    import ctypes.util

    from ecsgoo.app import audio

    asked: list[str] = []

    def lookup(name):
        asked.append(name)
        return "libGL.so.1" if name == "GL" else None

    monkeypatch.setattr(ctypes.util, "find_library", lookup)
    audio.find_libraries_once(tmp_path / "libraries.json")
    found = ctypes.util.find_library
    assert [found("avutil"), found("GL"), found("avutil"), found("GL")] == \
        [None, "libGL.so.1", None, "libGL.so.1"]
    assert asked == ["avutil", "GL"]
    audio.find_libraries_once()  # once: the kept answers stay
    assert ctypes.util.find_library is found
