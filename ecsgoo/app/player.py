"""The player: runs any Game at a fixed 60 Hz with input, widgets, overlay, save and load.

The same ``Player`` object drives a window (``ecsgoo.app.window``) and a headless
run (``ecsgoo.app.headless``); it owns no window itself. Pointer positions come
in window pixels (y up) and go to the game in world coordinates through the
Render stage's camera fit.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import platformdirs

from .. import saving
from ..errors import WorldError, did_you_mean
from ..game import Game, SavedGame, new_seed
from ..render import Fit, Render, fit
from .buttons import Button, draw_result, hit, result_buttons
from .clock import Accumulator
from .draw import Draw
from .overlay import HUD_BAND, bands, draw_hud, play_area
from .progress import record_finished
from .sound import Sounds
from .widgets import MARGIN, PANEL_WIDTH, WidgetLayer, flip, in_strip

#: How close (screen px) to a particle's edge a press must be for the default grab.
GRAB_REACH = 24.0


def data_dir() -> Path:
    """The user's data folder for ecsgoo (quick saves, recordings), by platformdirs.

    Linux: ``$XDG_DATA_HOME/ecsgoo`` (default ``~/.local/share/ecsgoo``); macOS:
    ``~/Library/Application Support/ecsgoo``; Windows: ``%APPDATA%\\ecsgoo`` (roaming).
    """
    return platformdirs.user_data_path("ecsgoo", appauthor=False, roaming=True)


def window_size(game: Game) -> tuple[int, int]:
    """The window a game is played in: its ``size`` plus the HUD bands and the widget panel
    (none for a game with only buttons: they sit in the footer, ``widgets.in_strip``)."""
    top, bottom = bands(True)
    widgets = game.widgets()
    right = PANEL_WIDTH + 2 * MARGIN if widgets and not in_strip(widgets) else 0
    return game.size[0] + right, game.size[1] + top + bottom


class Player:
    """Plays ``game``: fixed steps from an accumulator, a bot, input, pause, save and load.

    ``bot`` is the name of one of ``game.bots`` (it acts before every step) or
    ``None``. ``size`` is the window size in pixels (default ``window_size(game)``).
    When the level is won or lost the player plays the sound, records progress
    (not for bots; headless runs record at their end) and shows the end-of-level
    choices; ``on_menu`` (set by a window) is what "menu" does.
    """

    def __init__(self, game: Game, bot: str | None = None,
                 size: tuple[int, int] | None = None) -> None:
        if bot is not None and bot not in game.bots:
            offered = ", ".join(game.bots) or "none"
            raise ValueError(f"{game.name}: no bot named {bot!r}{did_you_mean(bot, game.bots)} "
                             f"(bots: {offered})")
        self.game, self.bot = game, bot
        self.size = tuple(size or window_size(game))
        self.clock = Accumulator(game.world.dt)
        self.paused = False
        self.show_hud = True
        self.steps = 0
        self.physics_ms = 0.0
        self.fps = 0.0
        self.grabbed: int | None = None
        self._message = ("", 0.0)
        self._last_frame: float | None = None
        self._widgets_of_world: Any = None
        self.widgets = WidgetLayer([], *self.size, top=HUD_BAND, bottom=bands(True)[1])
        #: Set by headless runs: frames are drawn only to be saved, fps means nothing.
        self.headless = False
        self.sounds = Sounds()
        self.on_menu: Any = None
        self.result = "running"
        self.pointer: tuple[float, float] | None = None
        self._left: Any = None
        #: The wall clock pointer events are stamped with (``Game.pointer_time``); headless
        #: runs stamp none. A test may put a clock of its own here.
        self.wall_clock: Any = time.monotonic
        self._sync_widgets()

    @property
    def world(self) -> Any:
        """The game's current world (a restart or a load replaces it)."""
        return self.game.world

    @property
    def render(self) -> Render:
        """The world's Render stage (``Render.of``)."""
        return Render.of(self.world)

    # -- time ----------------------------------------------------------------------------------

    def update(self, elapsed: float) -> int:
        """``elapsed`` seconds of wall time went by: run the fixed steps due; return them."""
        if self.paused:
            self.clock.reset()
            return 0
        steps = self.clock.advance(elapsed)
        for _ in range(steps):
            self.step()
        return steps

    def step(self) -> None:
        """One fixed step: the bot acts (if any), then the game steps."""
        if self.bot is not None:
            self.game.bot_act(self.bot)
        t0 = time.perf_counter()
        self.game.step()
        ms = (time.perf_counter() - t0) * 1000
        # the first step may compile kernels: start the average from the second
        self.physics_ms = ms if self.steps <= 1 else 0.9 * self.physics_ms + 0.1 * ms
        self.steps += 1
        self._sync_widgets()
        self._check_result()

    def _check_result(self) -> None:
        """The level just ended: its sound, its progress (windowed, not bots), a toast."""
        result = self.game.status().result
        if result == self.result:
            return
        self.result = result
        if result not in ("won", "lost"):
            return
        self.sounds.play("win" if result == "won" else "lose")
        if not self.headless:
            progress = record_finished(self.game, self.bot)
            if progress is not None and progress.problem:
                self.say(progress.problem)

    def leave(self) -> None:
        """The player leaves the game at hand (Esc, a restart, the next level, closing):
        a game that ``counts_unfinished`` and is still running records its score."""
        if self.result != "running" or self.bot is not None or self._left is self.world:
            return
        self._left = self.world  # once per game (Esc, then closing the window, is one leave)
        self.game.on_leave()
        if self.game.counts_unfinished and not self.headless:
            progress = record_finished(self.game, self.bot, unfinished=True)
            if progress is not None and progress.problem:
                self.say(progress.problem)

    def restart(self) -> None:
        """Start the level again (R), running (a pause does not survive a restart)."""
        self.leave()
        self.game.restart()
        self.paused = False
        self._world_replaced()
        self.say("restarted")

    def play_level(self, level: int) -> None:
        """Switch to ``level`` of the same game (the win screen's *next level*)."""
        self.leave()
        cls = type(self.game)
        self.game = cls(level=level, seed=new_seed() if cls.fresh_seeds else self.game.seed)
        self.paused = False
        self._world_replaced()

    def choose(self, action: str) -> None:
        """An end-of-level choice: ``"next"``, ``"retry"`` or ``"menu"``."""
        if (action == "next" and self.game.level < len(self.game.levels)
                and self.game.custom_source is None):
            self.play_level(self.game.level + 1)
        elif action == "retry":
            self.restart()
        elif action == "menu" and self.on_menu is not None:
            self.on_menu()

    def result_buttons(self) -> list[Button]:
        """The end-of-level choices on screen now (none while the level runs)."""
        if self.result not in ("won", "lost") or self.bot is not None:
            return []
        has_next = (self.game.level < len(self.game.levels)
                     and self.game.custom_source is None)
        return result_buttons(self.result, has_next, *self.size)

    def _world_replaced(self) -> None:
        """Forget what belonged to the old world: the grab, carried-over time, the widgets."""
        self.grabbed = None
        self.result = "running"
        self.clock.reset()
        self._sync_widgets(force=True)

    def _sync_widgets(self, force: bool = False) -> None:
        """Ask the game for its widgets again when its world was replaced."""
        if force or self._widgets_of_world is not self.world:
            self._widgets_of_world = self.world
            self.widgets = WidgetLayer(self.game.widgets(), *self.size, top=self.top_band(),
                                       collapsed=self.widgets.collapsed,
                                       bottom=bands(self.show_hud)[1])
        self.sounds.hook(self.world)

    def top_band(self) -> int:
        """Px the HUD band takes at the top (0 while hidden)."""
        return bands(self.show_hud)[0]

    # -- keys -----------------------------------------------------------------------------------

    def key(self, name: str) -> None:
        """A key pressed, by name (``"p"``, ``"space"``, ``"f5"``…); others go to the game.

        A key the game declares in ``Game.keys`` goes to the game first (P stays pause).
        """
        name = name.lower()
        if self.result_buttons() and name in ("return", "enter"):
            self.choose("next" if self.result == "won" else "retry")
        elif name in self.game.keys and name != "p":
            self.game.press_key(name)
        elif name in ("p", "space"):
            self.paused = not self.paused
            # the HUD says PAUSED as long as it lasts; an older toast would only repeat it
            self.say("" if self.paused else "running")
        elif name in ("n", "period"):
            self.paused = True
            self.step()
        elif name == "r":
            self.restart()
        elif name == "tab":
            self.toggle_wireframe()
        elif name == "h":
            self.show_hud = not self.show_hud
            self.widgets.layout(*self.size, top=self.top_band(), bottom=bands(self.show_hud)[1])
        elif name == "m":
            self.say("sound off (M)" if self.sounds.toggle_mute() else "sound on")
        elif name == "f5":
            self.quick_save()
        elif name == "f9":
            self.quick_load()
        else:
            self.game.press_key(name)

    def key_release(self, name: str) -> None:
        """A key let go: the game hears of it if it heard it go down (``Game.keys_down``)."""
        self.game.release_key(name.lower())

    def toggle_wireframe(self) -> None:
        """Tab: through the game's own "wireframe" toggle if it has one (so it stays in step)."""
        for slot in self.widgets.slots:
            if slot.widget.kind == "toggle" and slot.widget.label.lower() == "wireframe":
                flip(slot.widget)
                return
        self.render.wireframe = not self.render.wireframe

    # -- pointer ------------------------------------------------------------------------------

    def fit(self) -> Fit:
        """The camera fit of the current window size (as the last draw used)."""
        f = self.render.fit
        if f is None or (f.width, f.height) != self.size:
            f = fit(self.render.view_rect(self.world, self.game.size), *self.size, self.area())
        return f

    def area(self) -> tuple[float, float, float, float]:
        """The window rectangle ``(x, y, w, h)`` the world is drawn into (``play_area``)."""
        return play_area(*self.size, self.show_hud, self.widgets.width())

    def press(self, sx: float, sy: float, button: int = 1) -> None:
        """Pointer pressed at window pixel ``(sx, sy)``."""
        action = hit(self.result_buttons(), sx, sy)
        if action is not None:
            self.choose(action)
            return
        if self.widgets.press(sx, sy):
            return
        self._stamp()
        x, y = self.fit().to_world(sx, sy)
        self.game.on_press(x, y, button)
        if not _overrides(self.game, "on_press"):
            self._grab(x, y)

    def drag(self, sx: float, sy: float) -> None:
        """Pointer moved while pressed."""
        if self.widgets.drag(sx, sy):
            return
        self._stamp()
        x, y = self.fit().to_world(sx, sy)
        self.game.on_drag(x, y)
        if self.grabbed is not None:
            try:
                self.world.grab(self.grabbed, x, y)
            except WorldError:  # the grabbed particle was deleted (merged, cut away)
                self.grabbed = None

    def move(self, sx: float, sy: float) -> None:
        """Pointer moved, not pressed."""
        self.pointer = (sx, sy)
        self.game.on_move(*self.fit().to_world(sx, sy))

    def release(self, sx: float, sy: float, button: int = 1) -> None:
        """Pointer released: ends a slider drag, or flings what the default grab held."""
        if self.widgets.release(sx, sy):
            return
        self._stamp()
        x, y = self.fit().to_world(sx, sy)
        self.game.on_release(x, y, button)
        if self.grabbed is not None:
            self.world.release()
            self.grabbed = None
            self.sounds.play("fling")

    def _stamp(self) -> None:
        """Tell the game when this pointer event happened (wall clock; none headless)."""
        self.game.pointer_time = None if self.headless else float(self.wall_clock())

    def _grab(self, x: float, y: float) -> None:
        """The default grab-and-fling: the nearest free particle under the pointer."""
        entity = self.world.nearest_particle(x, y, GRAB_REACH / self.fit().scale)
        if entity is not None:
            self.grabbed = entity
            self.world.grab(entity, x, y)
            self.sounds.play("grab")

    # -- saving -------------------------------------------------------------------------------

    def save_path(self) -> Path:
        """Where F5 saves: ``<data dir>/quicksave-<game>-<level>.toml``."""
        return data_dir() / f"quicksave-{self.game.name}-{self.game.level}.toml"

    def quick_save(self) -> None:
        """Save the world to ``save_path()`` (F5)."""
        path = self.save_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            game = self.game
            self.world.add_resource(SavedGame(game.name, game.level, game.seed))
            saving.save(self.world, path)
            # the name first: a narrow HUD cuts the folder short, not the file's name
            self.say(f"saved {path.name} (F9 loads it) in {_home(path.parent)}", seconds=6.0)
            print(f"ecsgoo: quick save written to {path} (continue it later with "
                  f"`ecsgoo play {path}`)", file=sys.stderr)
        except (OSError, ValueError, TypeError) as exc:
            self.say(f"save failed: {_short(exc)}")

    def quick_load(self) -> None:
        """Load the world from ``save_path()`` (F9) and continue from it."""
        path = self.save_path()
        if not path.exists():
            self.say("no quick save yet: press F5 first")
        else:
            try:
                self.game.adopt(self.game.check_world(saving.load(path), path))
            except (OSError, ValueError) as exc:
                self.say(f"load failed: {_short(exc)}")
                return
            self._world_replaced()
            self.say("loaded the quick save")

    # -- messages and drawing -------------------------------------------------------------------

    def say(self, text: str, seconds: float = 3.0) -> None:
        """Show ``text`` on the overlay for a few seconds."""
        self._message = (text, time.monotonic() + seconds)

    def message(self) -> str:
        """The current overlay message ('' when it has expired)."""
        text, until = self._message
        return text if time.monotonic() < until else ""

    def draw(self, window: Any) -> None:
        """Draw one frame into ``window``: the world, the game's overlay, HUD and widgets."""
        now = time.perf_counter()
        if self._last_frame is not None and now > self._last_frame:
            rate = 1.0 / (now - self._last_frame)
            self.fps = 0.9 * self.fps + 0.1 * rate if self.fps else rate
        self._last_frame = now
        if (window.width, window.height) != self.size:
            self.size = (window.width, window.height)
            self.widgets.layout(*self.size)
        render = self.render
        f = render.draw(self.world, window, self.game.size, self.area())
        world_draw = _draw_for(window, "world")
        world_draw.set_pixel(1.0 / f.scale)
        self.game.draw_overlay(world_draw)
        world_draw.flush()
        window.default_camera.use()
        screen = _draw_for(window, "screen")
        screen.set_pixel(1.0)
        if self.show_hud:
            draw_hud(screen, self, *self.size)
        self.widgets.draw(screen)
        buttons = self.result_buttons()
        if buttons:
            draw_result(screen, self.result, self._result_lines(), buttons, *self.size)
        screen.flush()

    def _result_lines(self) -> list[str]:
        status = self.game.status()
        stars = status.extra.get("stars")
        lines = [f"score {status.score}"]
        if stars is not None and self.result == "won":
            total = status.extra.get("stars_total", 3)
            lines.append("stars " + "★" * int(stars) + "☆" * max(int(total) - int(stars), 0))
        return lines


_DRAWS: dict[tuple[int, str], Draw] = {}


def _draw_for(window: Any, space: str) -> Draw:
    """One Draw per window and space (its text cache lives as long as the window)."""
    key = (id(window), space)
    if key not in _DRAWS:
        _DRAWS[key] = Draw()
    return _DRAWS[key]


def _overrides(game: Game, method: str) -> bool:
    return getattr(type(game), method) is not getattr(Game, method)


def _home(path: Path) -> str:
    """``path`` as a toast says it: the home folder written ``~``."""
    try:
        return "~" + os.sep + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def _short(exc: BaseException) -> str:
    """An error for a toast: one line, without the folder part of file paths."""
    text = " ".join(str(exc).split())
    return _FOLDERS.sub("", text.replace(str(data_dir()) + os.sep, ""))


#: The folder part of an absolute path (POSIX or Windows) inside a message.
_FOLDERS = re.compile(r"(?<![^\s'\"(])(?:[A-Za-z]:)?[\\/](?:[^\s'\":\\/]+[\\/])+")
