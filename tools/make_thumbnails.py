"""Render level 1 of each bundled game headless and save small pictures for the launcher.

Run from the repository root: ``ARCADE_HEADLESS=1 python tools/make_thumbnails.py``.
Writes ``ecsgoo/app/thumbnails/<game>.png`` (200 × 150 px, committed): each game's
first level after 120 frames of its bot, the overlay hidden.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")

from PIL import Image  # noqa: E402

from ecsgoo.app.games import discover  # noqa: E402
from ecsgoo.app.headless import offscreen_window, screenshot  # noqa: E402
from ecsgoo.app.launcher import CARD  # noqa: E402
from ecsgoo.app.player import Player  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "ecsgoo" / "app" / "thumbnails"
FRAMES = 120


def thumbnail(cls: type) -> Image.Image:
    """Level 1 of ``cls`` after ``FRAMES`` bot frames, overlay and widgets hidden, shrunk."""
    game = cls(level=1)
    player = Player(game, cls.bots[0] if cls.bots else None, size=game.size)
    player.headless, player.show_hud = True, False
    player.widgets.widgets, player.widgets.slots = [], []
    for _ in range(FRAMES):
        player.step()
    image = screenshot(player, offscreen_window(player.size))
    return image.resize(CARD, Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, cls in discover()[0].items():
        thumbnail(cls).save(OUT / f"{name}.png", optimize=True)
        print(f"{name}.png")


if __name__ == "__main__":
    main()
