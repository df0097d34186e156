"""The player's overlay: title, fps, physics time, entity counts, the game's HUD lines, help."""

from __future__ import annotations

from typing import Any

_PANEL = (14, 16, 26, 140)
_TITLE = (255, 255, 255)
_DIM = (170, 178, 200)
_TEXT = (230, 234, 246)
_WON, _LOST = (120, 235, 140), (255, 110, 110)
HELP = "P pause · N step · R restart · Tab wireframe · F5/F9 save/load · H hide"


def draw_hud(draw: Any, player: Any, width: int, height: int) -> None:
    """Draw the overlay for ``player`` with a screen-space ``Draw`` (window pixels).

    Top left: the game's title, HUD lines, result and pause state on a
    translucent panel. Bottom: fps, physics time and counts (left), the keys (right).
    """
    game, world = player.game, player.game.world
    status = game.status()
    lines: list[tuple[str, tuple, int]] = [(f"{game.title} — level {game.level}", _TITLE, 15)]
    lines += [(str(text), _TEXT, 13) for text in game.hud()]
    if status.result != "running":
        lines.append((status.result.upper(), _WON if status.result == "won" else _LOST, 22))
    if player.paused:
        lines.append(("PAUSED  (N: one step, P: resume)", (255, 220, 120), 13))
    if player.bot:
        lines.append((f"bot: {player.bot}", _DIM, 11))
    heights = [size + 8 for _, _, size in lines]
    wide = max(0.62 * size * len(text) for text, _, size in lines) + 20
    y = height - 10
    draw.rect(6, y - sum(heights) - 6, min(wide, width - 12), sum(heights) + 10, _PANEL)
    for (text, color, size), h in zip(lines, heights, strict=True):
        y -= h
        draw.text(14, y + 4, text, color, size, bold=size >= 15)
    message = player.message()
    if message:
        draw.rect(6, 46, 7.5 * len(message) + 20, 24, _PANEL)
        draw.text(14, 53, message, (255, 230, 150), 12)
    store = world.store
    fps = "" if player.headless or not player.fps else f"{player.fps:3.0f} fps · "
    draw.text(10, 26, f"{fps}physics {player.physics_ms:5.2f} ms · {store.particles.n} "
              f"particles · {store.springs.n} springs · {store.rings.n + store.shapes.n} bodies",
              _DIM, 10)
    draw.text(width - 10, 9, HELP, _DIM, 10, anchor_x="right")
