"""Build the playground's levels in code and save them as TOML (``levels/<n>.toml``).

Run from the repository root: ``python -m games.jelly.make_levels``. The game
loads those files; edit them by hand or change ``build.build_level`` and
run this again.
"""

from __future__ import annotations

from ecsgoo import save

from .build import build_level
from .game import JellyGame


def main() -> None:
    """Write every level file."""
    for level in range(1, len(JellyGame.levels) + 1):
        path = JellyGame.level_file(level)
        path.parent.mkdir(exist_ok=True)
        save(build_level(level), path)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
