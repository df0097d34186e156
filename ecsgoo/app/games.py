"""Finding games: the bundled ``games`` package, the ``ecsgoo.games`` entry points, a file path."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import sys
from importlib.metadata import entry_points
from pathlib import Path

from ..errors import did_you_mean
from ..game import GAMES, Game, register_game

ENTRY_POINT_GROUP = "ecsgoo.games"


def discover() -> tuple[dict[str, type[Game]], dict[str, str]]:
    """Import every bundled game and entry point; return ``(games by name, errors by name)``.

    A game that fails to import is reported (one line) instead of hiding the others.
    """
    errors: dict[str, str] = {}
    try:
        import games
    except ImportError:
        games = None
    if games is not None:
        for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
            try:
                importlib.import_module(f"games.{info.name}")
            except Exception as exc:  # a broken game must not break `ecsgoo list`
                errors[info.name] = f"{type(exc).__name__}: {exc}"
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = ep.load()
        except Exception as exc:
            errors[ep.name] = f"{type(exc).__name__}: {exc}"
            continue
        if inspect.isclass(loaded) and issubclass(loaded, Game):
            register_game(loaded)
    return dict(sorted(GAMES.items())), errors


_LOADED: dict[Path, tuple[float, type[Game]]] = {}


def load_path(path: str | Path) -> type[Game]:
    """Import the Python file ``path`` and return the game it registers (or defines).

    A file already loaded (and unchanged) is not run again: its registrations
    (components, stages) would clash with themselves.
    """
    path = Path(path)
    if not path.is_file():
        raise LookupError(f"{path}: no such file")
    key, mtime = path.resolve(), path.stat().st_mtime
    if key in _LOADED and _LOADED[key][0] == mtime:
        return _LOADED[key][1]
    before = dict(GAMES)
    name = f"ecsgoo_user_game_{abs(hash(str(key)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise LookupError(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    new = [cls for key, cls in GAMES.items() if before.get(key) is not cls]
    if not new:
        new = [obj for obj in vars(module).values() if inspect.isclass(obj)
               and issubclass(obj, Game) and obj is not Game and obj.__module__ == name]
    if len(new) != 1:
        found = ", ".join(c.__name__ for c in new) or "none"
        raise LookupError(f"{path}: expected one Game (register_game), found {found}")
    _LOADED[key] = (mtime, new[0])
    return new[0]


def find_game(spec: str) -> type[Game]:
    """The Game class for ``spec``: a registered name or a path to a ``.py`` file."""
    if spec.endswith(".py") or Path(spec).is_file():
        return load_path(spec)
    bundled = _bundled(spec)
    if bundled is not None:
        return bundled
    known, errors = discover()
    if spec in known:
        return known[spec]
    if spec in errors:
        raise LookupError(f"game {spec!r} failed to load: {errors[spec]}")
    names = ", ".join(known) or "none installed"
    raise LookupError(f"unknown game {spec!r}{did_you_mean(spec, known)} (games: {names}; "
                      "or give a path to a .py file)")


def _bundled(name: str) -> type[Game] | None:
    """The bundled game package ``games.<name>``'s game if it registers ``name``, imported
    alone: ``discover()`` imports every game and reads every installed package's entry
    points (~80 ms of a start here). None where it does not (then ``discover`` says why)."""
    if not name.isidentifier():
        return None
    try:
        importlib.import_module(f"games.{name}")
    except Exception:  # not bundled, or broken: discover() reports it
        return None
    return GAMES.get(name)


def resume(path: str | Path, game_path: str | Path | None = None) -> Game:
    """The game a saved world ``path`` belongs to, continuing from that world.

    The file names its game (the ``saved_game`` resource a quick save adds);
    a bundled or installed game is found by that name. A custom game's module
    is never imported because a file names it: give it as ``game_path``
    (``--game path.py``), which is imported before the file is read so its
    components and stages are known.
    """
    from ..game import SavedGame
    from ..saving import load

    custom = load_path(game_path) if game_path is not None else None
    discover()
    world = load(path)
    saved = world.resource(SavedGame)
    if custom is None:
        if saved is None:
            world.close()
            raise LookupError(f"{path}: not a saved game (no saved_game resource); "
                              "give the game with --game path.py")
        known = dict(GAMES)
        if saved.game not in known:
            world.close()
            raise LookupError(f"{path}: saved by game {saved.game!r}, which is not installed; "
                              "give its module with --game path.py")
        cls = known[saved.game]
    else:
        cls = custom
    cls.check_world(world, path)
    from ..saving.placed import Placed

    if world.resource(Placed) is not None and world.frame == 0:  # a level made in the editor
        world.close()
        return cls.custom_level(path=path)
    level, seed = (saved.level, saved.seed) if saved is not None else (1, 0)
    game = cls(level=min(max(level, 1), len(cls.levels)), seed=seed)
    game.adopt(world)
    return game
