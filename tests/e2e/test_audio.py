"""Audio: silent headless, and the sound libraries' C error messages switched off in a window.

Each check runs in a fresh process: pyglet picks its driver once per process.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOISE = ("ALSA lib", "AL lib", "[ALSOFT]", "OpenAL")

HEADLESS = """
import json
from ecsgoo.cli import main
from ecsgoo.app.audio import driver_name
main(["play", "goo", "--headless", "--frames", "2", "--screenshot", {png!r}])
print(json.dumps({{"driver": driver_name()}}))
"""

# Asks ALSA and OpenAL for devices that are not there: each prints its error lines on fd 2
# unless quiet_audio switched them off. Exit 3: the library is not installed here.
PROBE = """
import ctypes, sys
if {quiet}:
    from ecsgoo.app.audio import quiet_audio
    quiet_audio(headless=False)
try:
    lib = ctypes.CDLL({library!r})
except OSError:
    sys.exit(3)
if {library!r}.startswith("libasound"):
    lib.snd_pcm_open(ctypes.byref(ctypes.c_void_p()), b"ecsgoo-no-such-device", 0, 0)
else:
    lib.alcOpenDevice.restype = ctypes.c_void_p
    lib.alcOpenDevice(None)
"""


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    # python -c puts the current directory first on sys.path: this checkout's ecsgoo
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, **env})


def _noise(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if any(word in line for word in NOISE)]


def test_a_headless_run_is_silent_and_prints_no_driver_errors(tmp_path):
    run = _run(HEADLESS.format(png=str(tmp_path / "x.png")), ARCADE_HEADLESS="1")
    assert run.returncode == 0, run.stderr[-2000:]
    assert _noise(run.stderr) == []
    lines = run.stdout.strip().splitlines()
    assert json.loads(lines[-2])["game"] == "goo"  # the CLI's JSON line is intact
    assert json.loads(lines[-1]) == {"driver": "silent"}


@pytest.mark.parametrize("library", ["libasound.so.2", "libopenal.so.1"])
def test_quiet_audio_switches_the_sound_libraries_messages_off(library):
    loud = _run(PROBE.format(quiet=False, library=library))
    if loud.returncode == 3:
        pytest.skip(f"{library} is not installed")
    if not _noise(loud.stderr):
        pytest.skip(f"{library} found a device here: it has nothing to complain about")
    quiet = _run(PROBE.format(quiet=True, library=library))
    assert quiet.returncode == 0, quiet.stderr[-2000:]
    assert _noise(quiet.stderr) == []


def test_quiet_audio_is_too_late_once_pyglet_media_is_imported():
    import arcade  # noqa: F401  (it imports pyglet.media: the driver is chosen)
    import pyglet

    from ecsgoo.app.audio import quiet_audio

    before = pyglet.options["audio"]
    quiet_audio(headless=True)
    assert pyglet.options["audio"] == before
