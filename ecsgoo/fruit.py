"""The fruit kind table of the merge game: radius, score, name and colour per kind.

Kind 0 is the smallest fruit (a cherry); kind 10, the largest, is the watermelon.
Scores are triangular numbers (1, 3, 6, …, 66): merging two fruits of kind ``k``
scores ``SCORES[k]`` points.
"""

from __future__ import annotations

#: Radius of each kind, pixels.
RADII: tuple[float, ...] = (15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0, 50.0, 55.0, 60.0, 65.0)
#: Points scored when two fruits of this kind merge (triangular numbers).
SCORES: tuple[int, ...] = tuple((k + 1) * (k + 2) // 2 for k in range(len(RADII)))
NAMES: tuple[str, ...] = (
    "cherry", "strawberry", "grape", "dekopon", "persimmon", "apple",
    "pear", "peach", "pineapple", "melon", "watermelon",
)
#: RGB colour of each kind.
COLORS: tuple[tuple[int, int, int], ...] = (
    (220, 20, 60), (255, 80, 90), (150, 80, 220), (255, 170, 40), (255, 120, 30),
    (230, 40, 40), (230, 220, 90), (255, 180, 170), (250, 220, 50), (150, 230, 110),
    (40, 170, 60),
)
#: The largest kind: two of them vanish and score instead of merging.
LARGEST: int = len(RADII) - 1


def mass(kind: int) -> float:
    """Mass of a fruit of ``kind``: proportional to radius², kind 0 weighs 1."""
    return (RADII[kind] / RADII[0]) ** 2
