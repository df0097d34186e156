"""Sound without noise: the silent driver when headless, the real ones quietly in a window.

pyglet picks its audio driver once, when ``pyglet.media`` is first imported,
and ``import arcade`` imports it (``arcade.sound``). On a machine without a
sound card, trying OpenAL made ALSA print nine ``ALSA lib … cannot find card
'0'`` lines and OpenAL one ``AL lib: (EE)`` line, straight from C to fd 2, on
every run. So ``quiet_audio()`` must run before ecsgoo's first ``import arcade``:
``window.py`` calls it as it is imported, ``headless.offscreen_window`` before
it makes its window. Called later it does nothing (the driver is chosen).

Headless runs get pyglet's silent driver only: ``arcade.Sound(...).play()``
works and makes no sound. Windowed runs try the real drivers in pyglet's order
and fall back to silence, with the C libraries' error messages switched off.

``pyglet.media``'s import also probes for FFmpeg: ``ctypes.util.find_library``
lookups of a library most machines lack, each running ``ldconfig``, ``gcc`` and ``ld``
to find nothing (~19 ms each here). ``quiet_audio`` makes a lookup of a name looked up
before give the answer it gave, in this process and in later runs while the machine's
libraries stay as they are (``libraries.remember_lookups``).
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path
from typing import Any

from .libraries import remember_lookups

# ALSA's error handler: void (*)(const char *file, int line, const char *function,
# int err, const char *fmt, ...). The variadic tail is never read, so it is left out.
_ALSA_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                                 ctypes.c_int, ctypes.c_char_p)
# ALSA keeps only the pointer: the ctypes callback must outlive every call into ALSA.
_kept: list[Any] = []


def quiet_audio(headless: bool | None = None) -> None:
    """Choose pyglet's audio drivers before arcade is imported, so none prints errors.

    ``headless`` (default: ``ARCADE_HEADLESS`` is set) → only the silent driver.
    Otherwise the real drivers are tried with ALSA's and OpenAL Soft's messages
    off; one that fails leaves pyglet on the silent driver, as before.
    """
    find_libraries_once()
    if "pyglet.media" in sys.modules:
        return
    if headless is None:
        headless = bool(os.environ.get("ARCADE_HEADLESS"))
    if headless:
        import pyglet

        pyglet.options["audio"] = ("silent",)
        return
    # OpenAL Soft reads its log level when it is loaded; a user's own setting wins
    os.environ.setdefault("ALSOFT_LOGLEVEL", "0")
    _silence_alsa()


def find_libraries_once(path: Path | None = None) -> None:
    """``ctypes.util.find_library(name)`` answered once a name (a library found or missing a
    moment ago is so now), for every caller: kept in ``path`` (default the user's cache
    folder) for later runs (``libraries.remember_lookups``)."""
    remember_lookups(path)


def _silence_alsa() -> None:
    """Route ALSA's error messages (which OpenAL's ALSA backend triggers) to a no-op."""
    if _kept or not sys.platform.startswith("linux"):
        return
    try:
        alsa = ctypes.CDLL("libasound.so.2")  # the soname OpenAL and pyglet load too
    except OSError:
        return  # no ALSA here: nothing to silence
    handler = _ALSA_HANDLER(lambda *_: None)
    _kept.append(handler)
    alsa.snd_lib_error_set_handler(handler)


def driver_name() -> str:
    """The name of the audio driver pyglet chose (``"silent"``, ``"openal"``, ``"pulse"``…)."""
    from pyglet.media import get_audio_driver

    module = type(get_audio_driver()).__module__  # e.g. pyglet.media.drivers.silent.adaptation
    return module.split(".")[3] if module.startswith("pyglet.media.drivers.") else module
