"""Build the five rope levels in code and save them as TOML (``python -m games.rope.make_levels``).

1 "First Swing": one rope; the candy swings under its pin; let it go at the far
  end of the swing and it drops past two stars into Om Nom. A star sits on the swing.
2 "Two Pins": the candy hangs in a V over nothing; cut one rope to swing it under
  the other pin, then let it fly back over the stars to Om Nom on the left.
3 "Cat's Cradle": three ropes, one pulling down from below; cut the left and the
  bottom one (or one and then the other) to swing high to the right on the right pin,
  then drop it. The side pins stand in from the edges: no swing takes the candy off
  screen.
4 "The Hook": one swinging rope; let go at the right moment and the candy flies
  into the hook's dashed ring, which ties it with a new rope; cut that one over Om Nom.
5 "Relay": two hooks in a row between the swing and Om Nom, high on the right:
  fly from the swing into the first, from the first into the second, then drop.
The saved files in ``games/rope/levels/`` are hand-editable: pins are the
anchored particles, stars and Om Nom are plain components with x, y, each with the
Sensor the rules read (a star's circle; Om Nom's mouth, his radius less the candy's).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ecsgoo import Particle, World
from ecsgoo.game import write_levels

from .build import build as build_spec
from .game import RopeGame

#: Level specs, px (y up, the screen is 800 × 600).
SPECS: dict[int, dict[str, Any]] = {
    1: {"candy": (220, 430), "pins": [(400, 520)], "damping": 0.9995, "swing": True,
        "stars": [(400, 322), (602, 372), (645, 240)], "monster": (650, 100)},
    2: {"candy": (355, 360), "pins": [(150, 480), (560, 480)], "damping": 0.9995,
        "stars": [(560, 222), (740, 385), (430, 200)], "monster": (270, 100)},
    3: {"candy": (400, 350), "pins": [(240, 490), (560, 490), (400, 170)], "damping": 0.9995,
        "stars": [(500, 268), (740, 342), (735, 240)], "monster": (720, 100)},
    4: {"candy": (110, 460), "pins": [(260, 500)], "damping": 0.9995, "swing": True,
        "hooks": [(520, 360, 80)], "stars": [(260, 345), (430, 430), (600, 290)],
        "monster": (650, 100)},
    5: {"candy": (170, 470), "pins": [(300, 520)], "damping": 0.9995, "swing": True,
        "hooks": [(520, 420, 70), (660, 320, 60)], "stars": [(300, 390), (590, 400), (700, 240)],
        "monster": (730, 150)},
}


def level_path(n: int) -> Path:
    """Where level ``n`` is saved (``levels/<n>.toml``)."""
    return RopeGame.level_file(n)


def build(n: int) -> World:
    """Level ``n`` as the game loads it."""
    world = build_spec(SPECS[n])
    for _, p in world.get_component(Particle):  # 0.01 px is plenty, and easier to edit
        p.x, p.y = round(p.x, 2), round(p.y, 2)
    return world


def main() -> None:
    """Write every level's TOML file."""
    for path in write_levels(RopeGame, build):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
