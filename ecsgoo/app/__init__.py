"""The game player: windowed and headless runs of any ``ecsgoo.game.Game``.

- ``Player`` (``player.py``): fixed 60 Hz steps from an ``Accumulator``
  (``clock.py``), pointer input in world coordinates with a default
  grab-and-fling, keys (P/space pause, N/period step, R restart, Tab
  wireframe, H overlay, M mute, Esc launcher, F5/F9 quick save/load), widgets
  (``widgets.py``) and the overlay (``overlay.py``).
- ``PlayerWindow``/``play_window`` (``window.py``): the player in an arcade window.
- ``run_headless`` (``headless.py``): N frames without a window, a bot, a PNG
  screenshot or a GIF recording, and the summary of the run.
- ``Draw`` (``draw.py``): what ``Game.draw_overlay(draw)`` draws with.
- ``find_game``/``discover`` (``games.py``): bundled games, entry points, files.
- ``LoadingScreen`` (``loading.py``): on a first run (cold numba cache) the window
  compiles the kernels behind it (``ecsgoo.warmup``).
- ``quiet_audio`` (``audio.py``): the audio driver without noise; called before
  arcade is first imported (``window.py`` on import, ``headless.offscreen_window``);
  it also makes the shared-library lookups pyglet runs answer from the last run's
  (``libraries.py``, in the user's cache folder while the system's libraries stay the same).
- ``Launcher`` (``launcher.py``): the title screen and level selects ``ecsgoo play``
  opens; ``buttons.py``: its cards and the end-of-level choices.
- ``Progress`` (``progress.py``): best stars and scores per level, top-10s, in
  ``progress.json`` in the data folder.
- ``Sounds`` (``sound.py``): the effects in ``sounds/`` (``tools/make_sounds.py``)
  played for world events and ``Game.sound``; M mutes, silent headless.
- ``overlay.py``: the HUD and footer bands the camera leaves free (``play_area``).

Only ``window.py`` imports arcade at import time; the rest import it when they draw.
"""

from .clock import Accumulator
from .draw import Draw
from .games import discover, find_game, load_path
from .headless import run_headless, summary
from .player import Player, data_dir

__all__ = ["Accumulator", "Draw", "Player", "data_dir", "discover", "find_game", "load_path",
           "run_headless", "summary"]
