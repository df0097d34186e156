"""Write the suika levels as TOML: ``python -m games.suika.make_levels``.

Each level is an empty box (two walls standing on the world's floor),
the ``SuikaState`` resource and the pipeline; the game fills in the held and
next fruit from its seed when it loads a level.
"""

from __future__ import annotations

import ecsgoo

from . import rules
from .game import Suika


def main() -> None:
    """Build every level in code and save it next to this file."""
    for number, (name, left, right) in rules.LEVELS.items():
        path = Suika.level_file(number)
        path.parent.mkdir(exist_ok=True)
        ecsgoo.save(rules.build_box(0, 0, left, right), path)
        print(f"{path}: {name}, {right - left:.0f} px wide")


if __name__ == "__main__":
    main()
