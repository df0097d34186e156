"""The player's overlay, in bands the camera leaves free: a HUD band on top, a footer below.

Top band, row 1: the game's title and level, the result, pause state and the
current toast (left); fps, physics time, counts and the bot (right). Row 2:
the game's HUD lines. Footer: the keys of the game at hand, then the player's.
``play_area`` is the window rectangle left for the world (the Render stage fits
the level into it), so nothing here covers the play. H hides the bands and the
world gets the whole window.
"""

from __future__ import annotations

from typing import Any

#: Heights (window px) of the HUD band on top and the footer band below.
HUD_BAND = 44
FOOTER_BAND = 22
_BAND = (14, 16, 26, 235)
_TITLE = (255, 255, 255)
_DIM = (170, 178, 200)
_TEXT = (230, 234, 246)
_TOAST = (255, 230, 150)
_WON, _LOST = (120, 235, 140), (255, 110, 110)
#: The player's own keys, as the footer says them.
PLAYER_KEYS = ("P pause", "N step", "R restart", "Tab wireframe", "F5/F9 save/load", "M mute",
               "H hide", "Esc menu")


def bands(show_hud: bool) -> tuple[int, int]:
    """``(top, bottom)`` heights the overlay takes (0 when hidden)."""
    return (HUD_BAND, FOOTER_BAND) if show_hud else (0, 0)


def play_area(width: int, height: int, show_hud: bool, right: float = 0.0
              ) -> tuple[float, float, float, float]:
    """The window rectangle ``(x, y, w, h)`` (px) the world is drawn into.

    ``right``: px a widget panel takes at the right edge.
    """
    top, bottom = bands(show_hud)
    return (0.0, float(bottom), max(width - right, 1.0), max(height - top - bottom, 1.0))


def footer_keys(game: Any) -> str:
    """The footer's text: the game's own keys (``Game.hints``) first, then the player's."""
    return " · ".join([*game.hints, *PLAYER_KEYS])


#: The player's keys the footer leaves out first when the line does not fit, in order.
_SPARE_KEYS = ("Tab wireframe", "N step", "M mute", "F5/F9 save/load")


def fitted_footer(draw: Any, game: Any, width: float) -> tuple[str, float]:
    """The footer's text and size (pt) that fit ``width`` px with a margin: smaller type
    down to 8 pt, then the least needed player keys left out (a game's own keys stay)."""
    room = width - 20
    keys = list(PLAYER_KEYS)
    while True:
        text = " · ".join([*game.hints, *keys])
        for size in (10.0, 9.0, 8.0):
            if draw.text_width(text, size) <= room:
                return text, size
        spare = [k for k in _SPARE_KEYS if k in keys]
        if not spare:
            return text, 8.0
        keys.remove(spare[0])


def fitted_lines(draw: Any, lines: list[str], width: float) -> tuple[str, float]:
    """Row 2's text (the game's HUD lines joined) and size (pt) that fit ``width`` px with
    a margin: 11 pt, smaller down to 9 pt, then cut short with "…" (goo's star goals ran
    off an 800 px window's edge)."""
    room = width - 20
    text = "   ·   ".join(str(t) for t in lines)
    for size in (11.0, 10.0, 9.0):
        if draw.text_width(text, size) <= room:
            return text, size
    while len(text) > 1 and draw.text_width(text, 9.0) > room:
        text = text[:-2] + "…"
    return text, 9.0


def level_title(game: Any) -> str:
    """Row 1's title: ``"Cut the Rope — level 2"``; a level of the user's own (a file, or
    the editor's play-test, both played as level 1) is not called the bundled "level 1"."""
    source = getattr(game, "custom_source", None)
    if source is None:
        return f"{game.title} — level {game.level}"
    return f"{game.title} — {'play-test' if isinstance(source, str) else 'your level'}"


def hud_row(draw: Any, player: Any, limit: float = float("inf")
            ) -> list[tuple[float, str, Any, float, bool]]:
    """Row 1's left side, laid out by measured width so nothing overlaps: ``(x, text, color,
    size, bold)`` per piece: title and level, result, pause state, toast. A piece that would
    run past ``limit`` (px: where the stats on the right begin) is cut short with "…"."""
    game = player.game
    status = game.status()
    pieces = [(level_title(game), _TITLE, 13, True)]
    if status.result != "running":
        pieces.append((status.result.upper(), _WON if status.result == "won" else _LOST, 13,
                       True))
    if player.paused:
        pieces.append(("PAUSED (N step, P resume)", (255, 220, 120), 12, False))
    message = player.message()
    if message:
        pieces.append((message, _TOAST, 12, False))
    out, x = [], 10.0
    for text, color, size, bold in pieces:
        shown = text
        while shown and x + draw.text_width(shown, size, bold) > limit:
            shown = shown[:-2] + "…" if len(shown) > 2 else ""
        if not shown:
            break
        out.append((x, shown, color, size, bold))
        x += draw.text_width(shown, size, bold) + 16
    return out


def draw_hud(draw: Any, player: Any, width: int, height: int) -> None:
    """Draw the overlay bands for ``player`` with a screen-space ``Draw`` (window pixels)."""
    game, world = player.game, player.game.world
    draw.rect(0, height - HUD_BAND, width, HUD_BAND, _BAND)
    draw.rect(0, 0, width, FOOTER_BAND, _BAND)
    row1, row2 = height - 19, height - 37
    store = world.store
    fps = "" if player.headless or not player.fps else f"{player.fps:3.0f} fps · "
    bot = f" · bot: {player.bot}" if player.bot else ""
    stats = (f"{fps}physics {player.physics_ms:4.1f} ms · {store.particles.n} particles · "
             f"{store.springs.n} springs{bot}")
    draw.text(width - 10, row1, stats, _DIM, 9, anchor_x="right")
    limit = width - 10 - draw.text_width(stats, 9) - 16
    for x, text, color, size, bold in hud_row(draw, player, limit):
        draw.text(x, row1, text, color, size, bold=bold)
    text, size = fitted_lines(draw, game.hud(), width)
    draw.text(10, row2, text, _TEXT, size)
    room = width - player.widgets.strip_width()  # a game's buttons at the footer's right end
    footer, size = fitted_footer(draw, game, room)
    draw.text(room / 2, 7, footer, _DIM, size, anchor_x="center")
