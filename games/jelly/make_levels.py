"""Build the playground's levels in code and save them as TOML (``levels/<n>.toml``).

Run from the repository root: ``python -m games.jelly.make_levels``. The game
loads those files; edit them by hand or change ``build.build_level`` and
run this again.
"""

from __future__ import annotations

from ecsgoo.game import write_levels

from .build import build_level as build
from .game import JellyGame


def main() -> None:
    """Write every level file."""
    for path in write_levels(JellyGame, build):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
