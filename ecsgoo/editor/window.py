"""``ecsgoo edit``: the editor in a window of its own, or drawn headless into a PNG.

The launcher's window hosts the same ``EditorView`` (its *edit* buttons, and ``E`` in a
game); this module is for the editor opened alone.
"""

from __future__ import annotations

from typing import Any

from ..app.audio import quiet_audio
from .core import Editor
from .view import PANEL, STRIP, EditorView

#: Largest window the editor opens (px); a bigger level is drawn smaller.
MAX_SIZE = (1260, 760)


def editor_size(editor: Editor) -> tuple[int, int]:
    """The window for ``editor``: the game's size with the strip, panel and bands around."""
    gw, gh = editor.game.size if editor.game is not None else (800, 600)
    return min(gw + STRIP + PANEL, MAX_SIZE[0]), min(gh + 34 + 22, MAX_SIZE[1])


def edit_window(editor: Editor) -> None:
    """Open a window editing ``editor``'s level until it is closed (Esc with nothing
    selected, or the window's close button; with unsaved edits, each asks first)."""
    quiet_audio()
    import arcade

    window = EditorWindow(editor)
    window.editing_view.on_leave = window.close
    arcade.run()


def screenshot(editor: Editor, path: str, select: list[int] | None = None) -> None:
    """Draw ``editor`` headless (offscreen GL) into the PNG ``path``."""
    import arcade

    from ..app.headless import offscreen_window

    size = editor_size(editor)
    window = offscreen_window(size)
    view = EditorView(editor, size)
    if select:
        editor.select(select)
    view.draw(window)
    arcade.get_image(0, 0, *size).convert("RGB").save(path)


def _window_class() -> Any:
    import arcade

    from ..app.loading import LoadingScreen
    from ..app.window import key_name

    class _EditorWindow(arcade.Window):
        """An arcade window forwarding its events to an ``EditorView``."""

        def __init__(self, editor: Editor) -> None:
            size = editor_size(editor)
            title = editor.game.title if editor.game is not None else "world"
            super().__init__(*size, f"ecsgoo edit — {title}", resizable=True,
                             update_rate=1 / 120)
            self.editing_view = EditorView(editor, size)
            # first run only: the kernels compile behind a loading screen (as the player's
            # window does), not in the first play-test, which froze the window for seconds
            # while Space, Esc and clicks queued up and then landed in the test
            self.loading = LoadingScreen.open_if_cold(self, f"edit — {title}")

        def on_update(self, delta_time: float) -> None:
            self.editing_view.update(delta_time)

        def on_draw(self) -> None:
            self.editing_view.draw(self)

        def on_key_press(self, symbol: int, modifiers: int) -> None:
            self.editing_view.key(key_name(symbol), ctrl=bool(modifiers & arcade.key.MOD_CTRL),
                          shift=bool(modifiers & arcade.key.MOD_SHIFT))

        def on_key_release(self, symbol: int, modifiers: int) -> None:
            if self.editing_view.player is not None:
                self.editing_view.player.key_release(key_name(symbol))

        def on_text(self, text: str) -> None:
            self.editing_view.text(text)

        def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
            self.editing_view.press(x, y, button, shift=bool(modifiers & arcade.key.MOD_SHIFT))

        def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int,
                          modifiers: int) -> None:
            self.editing_view.drag_to(x, y)

        def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
            self.editing_view.move(x, y)

        def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
            self.editing_view.release(x, y, button, shift=bool(modifiers & arcade.key.MOD_SHIFT))

        def on_resize(self, width: int, height: int) -> None:
            super().on_resize(width, height)
            self.editing_view.size = (width, height)

        def on_close(self) -> None:
            """The window's close button: asks first if there are unsaved edits."""
            self.editing_view.leave(self.close, "close the window")

    return _EditorWindow


def EditorWindow(editor: Editor) -> Any:  # noqa: N802 - a class made on first use
    """An arcade window editing ``editor`` (arcade is imported only when one is made)."""
    return _window_class()(editor)
