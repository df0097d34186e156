"""Where the editor's levels come from and go: a game's kit and empty level, the user's
levels folder, whether a file is a bundled level."""

from __future__ import annotations

import re
from pathlib import Path

from .. import saving
from ..game import Game
from ..saving.placed import Placed
from ..world import World
from .parts import delete_parts, find_parts
from .pieces import Kit


def user_levels_dir(game: str) -> Path:
    """The user's own levels of ``game``: ``<data dir>/levels/GAME/``."""
    from ..app.player import data_dir

    return data_dir() / "levels" / game


def user_levels(game: str) -> list[Path]:
    """The user's level files of ``game``, by name."""
    folder = user_levels_dir(game)
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def kit_of(game: type[Game] | None) -> Kit:
    """What ``game`` offers the editor: its ``editor_kit`` (a Kit, or the name of a module
    holding ``KIT``, relative to the game's package), else the framework's pieces on the
    game's level 1 emptied (no game: an empty world)."""
    if game is None:
        from .. import systems

        return Kit(blank=lambda: World().use(*(stage() for stage in systems.SOLVER)))
    spec = getattr(game, "editor_kit", None)
    if isinstance(spec, str):
        import importlib

        module = importlib.import_module(spec, package=game.__module__.rpartition(".")[0])
        spec = module.KIT
    if isinstance(spec, Kit):
        return spec
    return Kit(blank=lambda: emptied(saving.load(game.level_file(1))))


def emptied(world: World) -> World:
    """``world`` without its content: every entity holding a particle, body, link,
    constraint, joint or sensor goes, and what pointed at them, and the level geometry
    (its parts: ``editor.parts``); the settings, pipeline, resources and the game's state
    entities stay (a game's empty level)."""
    delete_parts(world, find_parts(world))
    world.level.clear()
    world.resources.pop(Placed, None)
    return world


def bundled(path: Path) -> bool:
    """Whether ``path`` is one of the bundled games' level files."""
    try:
        import games

        roots = [Path(p).resolve() for p in games.__path__]
    except ImportError:
        return False
    real = path.resolve()
    return any(real.is_relative_to(r) for r in roots)


def game_class(game: str | type[Game]) -> type[Game]:
    """A game class, or the game of that name."""
    if isinstance(game, type):
        return game
    from ..app.games import find_game

    return find_game(game)


_SAVED_GAME = re.compile(r'^saved_game\s*=\s*\{[^}\n]*\bgame\s*=\s*"([^"\n]+)"', re.M)
_STAGE = re.compile(r'^stage\s*=\s*"([^"\n]+)"', re.M)


def game_of_file(path: Path, text: str) -> type[Game] | None:
    """The game a level file belongs to, its module imported: the game it names
    (``saved_game``), else the game whose package registers a stage of its pipeline (the
    bundled games and entry points are imported when a stage is not known yet). None if
    its stages are all the framework's; WorldFileError naming the file and a stage that
    no game registers."""
    from ..app.games import discover
    from ..errors import WorldFileError
    from ..game import GAMES
    from ..systems.pipeline import STAGES

    named = _SAVED_GAME.search(text)
    if named is not None:
        try:
            return game_class(named.group(1))
        except LookupError:
            pass  # a game not installed here: its stages say the rest
    stages = _STAGE.findall(text)
    if any(s not in STAGES for s in stages):
        discover()
    for stage in stages:
        cls = STAGES.get(stage)
        if cls is None:
            raise WorldFileError(
                f"{path}: pipeline stage {stage!r} is no stage of ecsgoo or of a game it "
                f"knows ({', '.join(sorted(GAMES))}); install the game that makes it, or "
                "open the file with its game: ecsgoo edit GAME FILE.toml")
        package = cls.__module__.rpartition(".")[0] or cls.__module__
        for game in GAMES.values():
            if game.__module__ == cls.__module__ or game.__module__.startswith(package + "."):
                return game
    return None
