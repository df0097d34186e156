"""Write the suika levels as TOML: ``python -m games.suika.make_levels``.

Each level is an empty box (two walls standing on the world's floor),
the ``SuikaState`` resource and the pipeline; the game fills in the held and
next fruit from its seed when it loads a level.
"""

from __future__ import annotations

from ecsgoo import World
from ecsgoo.game import write_levels

from . import rules
from .game import Suika


def build(number: int) -> World:
    """Level ``number``: its empty box."""
    _, left, right = rules.LEVELS[number]
    return rules.build_box(0, 0, left, right)


def main() -> None:
    """Build every level in code and save it next to this file."""
    for path in write_levels(Suika, build):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
