"""Level files read once a process: an environment's games start from clones of them.

A reset starts a new game, which loads its level: parsing and building the
TOML took 8 ms of rope's reset (a rope episode of random actions is ~20 steps of
~3 ms). ``CachedLevels`` keeps each level's world as loaded, untouched, and hands
every game a ``World.clone()`` of it (the same bits: same entity ids, same
columns, same pipeline). A file changed on disk (its size or modification time)
is read again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..game import Game
from ..world import World

#: Levels as loaded, by (path, modification time in ns, size in bytes): never stepped.
_LOADED: dict[tuple[str, int, int], World] = {}
#: Each game class's level files, by (class, level).
_PATHS: dict[tuple[type, int], Path] = {}


class CachedLevels:
    """Mixin for an environment's game class (``class EnvRope(CachedLevels, RopeGame)``):
    ``load_level`` returns a clone of the level as first loaded in this process, and
    ``level_file`` is the game's own (beside its module, not the environment's)."""

    custom_source: Path | str | None

    @classmethod
    def level_file(cls, level: int) -> Path:
        """The game's level file: ``games/<name>/levels/<level>.toml`` (found once a class
        and level: the game's module does not move, and the look cost ~6 µs of a reset)."""
        path = _PATHS.get((cls, level))
        if path is None:
            path = _PATHS[cls, level] = _game_of(cls).level_file(level)
        return path

    def load_level(self) -> World:
        """A clone of the level's world as loaded (an edited level's text: loaded anew)."""
        loader: Any = super()
        if self.custom_source is not None:
            return loader.load_level()
        path = self.level_file(self.level)  # type: ignore[attr-defined]
        st = os.stat(path)
        key = (os.fspath(path), st.st_mtime_ns, st.st_size)
        if key not in _LOADED:
            _LOADED[key] = loader.load_level()
        return _LOADED[key].clone()


def _game_of(cls: type) -> type[Game]:
    """The game class ``cls`` plays (the first base that is a Game but not a CachedLevels)."""
    return next(c for c in cls.__mro__ if issubclass(c, Game) and not issubclass(c, CachedLevels))
