"""The windowed player: an arcade Window that forwards its events to a ``Player``.

Opened without a game it shows the launcher (``launcher.py``) first; a game
picked there plays in the same window, and Esc (or the end screen's *menu*)
goes back to the launcher — in a window opened on a game too. Esc on the
launcher's title screen closes the window.
"""

from __future__ import annotations

from typing import Any

from ..game import Game, new_seed
from ..startup import settle
from ..warmup import compile_behind_if_cold
from .audio import quiet_audio
from .loading import LoadingScreen
from .player import Player, window_size

quiet_audio()  # before arcade's import picks the audio driver (see audio.py)

import arcade  # noqa: E402
from pyglet.window import key as _keys  # noqa: E402


def key_name(symbol: int) -> str:
    """arcade/pyglet key symbol → the name games get (``"space"``, ``"p"``, ``"f5"``, ``"1"``)."""
    return _keys.symbol_string(symbol).lower().lstrip("_")


class PlayerWindow(arcade.Window):
    """A window playing ``game`` with the shared player (fixed 60 Hz steps, overlay, widgets);
    ``game=None`` opens the launcher (``player`` is None until a game is picked)."""

    def __init__(self, game: Game | None = None, bot: str | None = None, **window: Any) -> None:
        from .launcher import SIZE, Launcher

        self.launcher: Launcher | None = None
        self.player: Player | None = None
        self.editor: Any = None  # an EditorView while the level editor is open
        if game is None:
            from .games import discover

            self.launcher = Launcher(discover()[0])
            width, height = SIZE
            title = "ecsgoo"
        else:
            # before the window: opening it already dispatches on_resize, which needs the player
            width, height = window_size(game)
            self.player = Player(game, bot, size=(width, height))
            self.player.on_menu = self.menu
            title = f"ecsgoo — {game.title}"
        super().__init__(width, height, title, resizable=True, update_rate=1 / 120, **window)
        # first run only: a game waits behind a loading screen for what its first seconds
        # reach (the rest compiles behind it); the launcher opens at once, every kernel
        # compiling in a helper process meanwhile, and a game picked waits for its own
        self.loading: LoadingScreen | None = None
        if self.player is not None:
            self.loading = LoadingScreen.open_if_cold(self, title, game=self.player.game)
        else:
            compile_behind_if_cold()

    def pick(self, picked: tuple[Any, ...]) -> None:
        """Do what the launcher picked: play a level, play a user's level, or edit one."""
        if picked[0] == "edit":
            self.edit(picked[1], picked[2])
        elif picked[0] == "user":
            cls = self.launcher.games[picked[1]]
            self.start(picked[1], 1, cls.custom_level(path=picked[2], seed=new_seed()
                                                      if cls.fresh_seeds else 0))
        else:
            self.start(*picked)

    def edit(self, name: str, what: Any) -> None:
        """Open the level editor on ``name``'s level ``what`` (a number, a user's level file,
        or None: a new level); Esc goes back to where it was opened from."""
        from ..editor import Editor
        from ..editor.view import EditorView
        from ..editor.window import editor_size

        try:
            if isinstance(what, int):
                editor = Editor(name, level=what)
            else:
                editor = Editor(what, game=name) if what is not None else Editor(name)
        except (OSError, ValueError) as exc:
            if self.player is not None:
                self.player.say(f"cannot edit: {exc}")
            return
        if self.player is not None:
            self.player.leave()
            self.player = None
        self.editor = EditorView(editor, editor_size(editor))
        self.editor.on_leave = lambda: self.leave_editor(name)
        self.set_caption(f"ecsgoo edit — {editor.game.title}")
        self.set_size(*self.editor.size)
        # a first run: every kernel (a play-test may reach any) before the editor takes input
        self.loading = LoadingScreen.open_if_cold(self, f"edit — {editor.game.title}")

    def leave_editor(self, name: str) -> None:
        """The editor's Esc: back to the game's level select."""
        from .games import discover
        from .launcher import SIZE, Launcher
        from .progress import Progress

        self.editor = None
        if self.launcher is None:
            self.launcher = Launcher(discover()[0])
        self.launcher.progress = Progress.load()
        self.launcher.screen = name if name in self.launcher.games else "title"
        self.set_caption("ecsgoo")
        self.set_size(*SIZE)

    def start(self, name: str, level: int, game: Game | None = None) -> None:
        """Play ``name``'s ``level`` (picked in the launcher), or ``game`` if given."""
        cls = self.launcher.games[name]
        if game is None:
            game = cls(level=level, seed=new_seed()) if cls.fresh_seeds else cls(level=level)
        self.player = Player(game, None, size=window_size(game))
        self.player.on_menu = self.menu
        self.set_caption(f"ecsgoo — {game.title}")
        self.set_size(*self.player.size)
        # a first run: what the game's first seconds reach, unless the helper wrote it
        self.loading = LoadingScreen.open_if_cold(self, f"ecsgoo — {game.title}", game=game)

    def menu(self) -> None:
        """Back to the launcher (its level select of the game just played)."""
        from .games import discover
        from .launcher import SIZE, Launcher
        from .progress import Progress

        name = self.player.game.name
        self.player.leave()
        self.player = None
        if self.launcher is None:
            self.launcher = Launcher(discover()[0])
        self.launcher.progress = Progress.load()
        if name not in self.launcher.games:  # a game from a file: the title screen
            name = "title"
        self.launcher.screen = name
        self.set_caption("ecsgoo")
        self.set_size(*SIZE)

    def on_update(self, delta_time: float) -> None:
        if self.editor is not None:
            self.editor.update(delta_time)
        elif self.player is not None:
            self.player.update(delta_time)

    def on_draw(self) -> None:
        if self.editor is not None:
            self.editor.draw(self)
        elif self.player is not None:
            self.player.draw(self)
        else:
            from .player import _draw_for

            self.launcher.size = (self.width, self.height)
            self.launcher.draw(self, _draw_for(self, "screen"))
        settle()  # the first frame is drawn: the collector back on (``ecsgoo.startup``)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        name = key_name(symbol)
        if self.editor is not None:
            self.editor.key(name, ctrl=bool(modifiers & arcade.key.MOD_CTRL),
                            shift=bool(modifiers & arcade.key.MOD_SHIFT))
        elif self.player is None:
            picked = self.launcher.key(name)
            if picked == "quit":
                self.close()
            elif picked is not None:
                self.start(*picked)
        elif symbol == arcade.key.ESCAPE:
            self.menu()
        elif name == "e" and "e" not in self.player.game.keys:
            game = self.player.game  # E: edit the level at hand
            source = game.custom_source
            self.edit(game.name, source if source is not None and not isinstance(source, str)
                      else game.level)
        else:
            self.player.key(name)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        if self.editor is not None:
            if self.editor.player is not None:
                self.editor.player.key_release(key_name(symbol))
        elif self.player is not None:
            self.player.key_release(key_name(symbol))

    def on_text(self, text: str) -> None:
        if self.editor is not None:
            self.editor.text(text)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.editor is not None:
            self.editor.press(x, y, button, shift=bool(modifiers & arcade.key.MOD_SHIFT))
        elif self.player is None:
            picked = self.launcher.press(x, y)
            if picked is not None:
                self.pick(picked)
        else:
            self.player.press(x, y, button)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int,
                      modifiers: int) -> None:
        if self.editor is not None:
            self.editor.drag_to(x, y)
        elif self.player is not None:
            self.player.drag(x, y)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        if self.editor is not None:
            self.editor.move(x, y)
        elif self.player is not None:
            self.player.move(x, y)
        else:
            self.launcher.pointer = (x, y)

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.editor is not None:
            self.editor.release(x, y, button, shift=bool(modifiers & arcade.key.MOD_SHIFT))
        elif self.player is not None:
            self.player.release(x, y, button)

    def on_close(self) -> None:
        if self.editor is not None and self.editor.prompt is None:
            self.editor.leave(self.close, "close the window")  # unsaved edits: asks first
            return
        if self.player is not None:
            self.player.leave()  # a suika game closed mid-way keeps its score
        super().on_close()

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        if self.editor is not None:
            self.editor.size = (width, height)
        if self.player is not None:
            self.player.size = (width, height)
            self.player.widgets.layout(width, height)


def play_window(game: Game | None, bot: str | None = None) -> None:
    """Open a window playing ``game`` (None: the launcher) until it is closed (Esc on the
    launcher's title screen, or the window's close button)."""
    PlayerWindow(game, bot)
    arcade.run()
