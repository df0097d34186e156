"""The launcher: a title screen with the games (a picture each) and a level select per game.

Drawn with the player's ``Draw`` in window pixels and plain hit tests (no
``arcade.gui``: it does not import headless), so ``ecsgoo play --headless
--screenshot menu.png`` draws the same screen a window shows. The pictures are
``thumbnails/<game>.png``, level 1 of each game rendered headless by
``tools/make_thumbnails.py``; a game without one gets a plain card. The level
select shows each level's best stars and score from the progress file.

Screens: ``"title"`` or a game's name (its level select). Esc goes back one
screen; on the title it quits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .buttons import Button, draw_buttons, hit
from .progress import Progress

THUMB_DIR = Path(__file__).with_name("thumbnails")
#: The launcher window, px.
SIZE = (960, 640)
CARD = (200, 150)
_BG = (22, 26, 42)
_TITLE = (255, 236, 170)
_TEXT = (230, 234, 246)
_DIM = (160, 168, 192)
_STAR, _NO_STAR = (255, 210, 80), (90, 96, 120)
#: How many of the user's own levels the level select lists.
USER_ROWS = 8
#: A level button's width, and where its stars start (px from its right edge): the title
#: has the rest, less a gap.
LEVEL_W, STARS_AT, TITLE_GAP = 520.0, 200.0, 14.0


def title_size(draw: Any, name: str, size: float = 14.0) -> float:
    """The text size a level's name is drawn at: ``size``, or smaller until it ends before
    the stars."""
    room = LEVEL_W - STARS_AT - 16 - TITLE_GAP
    while size > 9 and draw.text_width(name, size) > room:
        size -= 0.5
    return size


class Launcher:
    """The title screen and level selects of ``games`` (name → Game class)."""

    def __init__(self, games: dict[str, Any], progress: Progress | None = None,
                 size: tuple[int, int] = SIZE) -> None:
        self.games = dict(games)
        self.progress = progress if progress is not None else Progress.load()
        self.size = size
        self.screen = "title"
        self.pointer: tuple[float, float] | None = None
        self._textures: dict[str, Any] = {}

    # -- what is where -------------------------------------------------------------------

    def cards(self) -> list[Button]:
        """One card per game on the title screen (action: the game's name)."""
        w, h = self.size
        n = max(len(self.games), 1)
        cw, ch = CARD
        gap = 24.0
        x0 = w / 2 - (n * cw + (n - 1) * gap) / 2
        return [Button(cls.title, name, x0 + i * (cw + gap), h / 2 - ch / 2 - 10, cw, ch + 34)
                for i, (name, cls) in enumerate(self.games.items())]

    def level_buttons(self) -> list[Button]:
        """The current game's levels (action ``"level:<n>"``) and a back button."""
        cls = self.games[self.screen]
        w, h = self.size
        out = [Button(f"{n}. {title}", f"level:{n}", w / 2 - LEVEL_W / 2, h - 170 - 62 * (n - 1),
                      LEVEL_W, 50)
               for n, title in enumerate(cls.levels, 1)]
        out += [Button("edit", f"edit:{n}", w / 2 + LEVEL_W / 2 + 10, h - 160 - 62 * (n - 1),
                       54, 30) for n in range(1, len(cls.levels) + 1)]
        out += self.user_buttons()
        out.append(Button("back", "back", 30, 24, 120, 36, "Esc"))
        return out

    def user_levels(self) -> list[Path]:
        """The user's own levels of the current game (``ecsgoo edit`` saves them)."""
        from ..editor.core import user_levels

        return user_levels(self.screen)[:USER_ROWS]

    def user_buttons(self) -> list[Button]:
        """The user's levels (play ``user:<path>``, edit ``edit:<path>``) and a new one."""
        h = self.size[1]
        out = []
        for k, path in enumerate(self.user_levels()):
            y = h - 200 - 40 * k
            out.append(Button(path.stem, f"user:{path}", 20, y, 140, 32))
            out.append(Button("edit", f"edit:{path}", 164, y, 46, 32))
        y = h - 200 - 40 * len(self.user_levels())
        out.append(Button("+ new level", "edit:new", 20, y, 190, 32))
        return out

    def levels(self, name: str) -> list[dict[str, Any]]:
        """``name``'s level select rows: ``{"level", "title", "best_score", "best_stars"}``."""
        cls = self.games[name]
        return [{"level": n, "title": title, **vars(self.progress.best(name, n))}
                for n, title in enumerate(cls.levels, 1)]

    # -- input -------------------------------------------------------------------------------

    def press(self, sx: float, sy: float) -> tuple[Any, ...] | None:
        """A click at window pixel ``(sx, sy)``; returns ``(game, level)`` to play,
        ``("user", game, path)`` to play a level of the user's, ``("edit", game, level or
        path or None)`` to open the editor, or None."""
        if self.screen == "title":
            action = hit(self.cards(), sx, sy)
            if action is not None:
                self.screen = action
            return None
        action = hit(self.level_buttons(), sx, sy)
        if action == "back":
            self.screen = "title"
        elif action is not None and action.startswith("user:"):
            return "user", self.screen, Path(action[5:])
        elif action is not None and action.startswith("edit:"):
            arg = action[5:]
            return "edit", self.screen, (None if arg == "new" else int(arg) if arg.isdigit()
                                         else Path(arg))
        elif action is not None:
            return self.screen, int(action.split(":")[1])
        return None

    def key(self, name: str) -> tuple[str, int] | str | None:
        """A key: Esc goes back (``"quit"`` on the title); digits pick a game or a level."""
        if name == "escape":
            if self.screen == "title":
                return "quit"
            self.screen = "title"
        elif name.isdigit() and int(name) >= 1:
            k = int(name)
            if self.screen == "title" and k <= len(self.games):
                self.screen = list(self.games)[k - 1]
            elif self.screen != "title" and k <= len(self.games[self.screen].levels):
                return self.screen, k
        return None

    # -- drawing -------------------------------------------------------------------------

    def draw(self, window: Any, draw: Any) -> None:
        """Draw the current screen into ``window`` (``draw``: a screen-space Draw)."""
        window.clear(color=_BG)
        window.default_camera.use()
        draw.set_pixel(1.0)
        w, h = self.size
        if self.screen == "title":
            self._draw_title(draw, w, h)
        else:
            self._draw_levels(draw, w, h)
        if self.progress.problem:
            draw.text(w / 2, 8, self.progress.problem, (255, 150, 120), 10, anchor_x="center")
        draw.flush()

    def _draw_title(self, draw: Any, w: int, h: int) -> None:
        draw.text(w / 2, h - 110, "ecsgoo", _TITLE, 46, anchor_x="center", bold=True)
        draw.text(w / 2, h - 145, "four soft-body physics games", _DIM, 15, anchor_x="center")
        cards = self.cards()
        draw_buttons(draw, [Button("", c.action, c.x - 4, c.y - 4, c.w + 8, c.h + 8)
                            for c in cards], self.pointer)
        draw.flush()
        for i, card in enumerate(cards):
            self._picture(card.action, card.x, card.y + 34, CARD[0], CARD[1])
            short = card.label.split(" — ")[0]
            draw.text(card.x + card.w / 2, card.y + 12, f"{i + 1}. {short}", _TEXT, 13,
                      anchor_x="center", bold=True)
            got = sum(r["best_stars"] for r in self.levels(card.action))
            draw.text(card.x + card.w / 2, card.y - 24, f"★ {got}", _STAR, 12, anchor_x="center")
        draw.text(w / 2, 60, "click a game (or press 1–4) · Esc quits", _DIM, 12,
                  anchor_x="center")

    def _draw_levels(self, draw: Any, w: int, h: int) -> None:
        cls = self.games[self.screen]
        draw.text(w / 2, h - 80, cls.title, _TITLE, 30, anchor_x="center", bold=True)
        draw.text(w / 2, h - 108, "choose a level", _DIM, 13, anchor_x="center")
        buttons = self.level_buttons()
        n = len(cls.levels)
        draw_buttons(draw, [Button("", b.action, b.x, b.y, b.w, b.h) for b in buttons[:n]],
                     self.pointer)
        draw_buttons(draw, buttons[n:], self.pointer, size=11)
        draw.text(20, h - 150, "your levels", _TITLE, 12)
        for b, row in zip(buttons, self.levels(self.screen), strict=False):
            name = f"{row['level']}. {row['title']}"
            draw.text(b.x + 16, b.y + b.h / 2, name, _TEXT, title_size(draw, name),
                      anchor_y="center")
            stars = row["best_stars"]
            for k in range(3):
                draw.text(b.x + b.w - STARS_AT + 22 * k, b.y + b.h / 2, "★",
                          _STAR if k < stars else _NO_STAR, 18, anchor_y="center")
            best = f"best {row['best_score']}" if row["best_score"] else "not played"
            draw.text(b.x + b.w - 14, b.y + b.h / 2, best, _DIM, 11, anchor_x="right",
                      anchor_y="center")
        top = self.progress.top.get(self.screen, [])
        if top:
            draw.text(w - 24, h - 150, "top scores", _TITLE, 12, anchor_x="right")
            for i, t in enumerate(top[:10]):
                draw.text(w - 24, h - 172 - 17 * i, f"{t['score']}  L{t['level']}  {t['date']}",
                          _DIM, 10, anchor_x="right")
        draw.text(w / 2, 30, "click a level (or press its number) · edit: the level editor · "
                  "Esc back", _DIM, 12,
                  anchor_x="center")

    def _picture(self, name: str, x: float, y: float, w: float, h: float) -> None:
        """The game's thumbnail in ``(x, y, w, h)``, or nothing if it has none."""
        import arcade

        path = THUMB_DIR / f"{name}.png"
        if name not in self._textures:
            self._textures[name] = arcade.load_texture(path) if path.is_file() else None
        texture = self._textures[name]
        if texture is not None:
            arcade.draw_texture_rect(texture, arcade.LBWH(x, y, w, h))


def draw_launcher(launcher: Launcher, window: Any) -> Any:
    """Draw ``launcher`` into ``window`` and return the frame as an RGB PIL image."""
    import arcade

    from .player import _draw_for

    launcher.draw(window, _draw_for(window, "screen"))
    return arcade.get_image(0, 0, *launcher.size).convert("RGB")
