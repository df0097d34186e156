"""Write the suika levels as TOML: ``python -m games.suika.make_levels``.

Each level is an empty box (two walls standing on the world's floor),
the ``SuikaState`` resource and the pipeline; the game fills in the held and
next fruit from its seed when it loads a level.
"""

from __future__ import annotations

from pathlib import Path

import ecsgoo

from . import rules

FOLDER = Path(__file__).with_name("levels")


def main() -> None:
    """Build every level in code and save it next to this file."""
    FOLDER.mkdir(exist_ok=True)
    for number, (name, left, right) in rules.LEVELS.items():
        path = FOLDER / f"{number}.toml"
        ecsgoo.save(rules.build_box(0, 0, left, right), path)
        print(f"{path}: {name}, {right - left:.0f} px wide")


if __name__ == "__main__":
    main()
