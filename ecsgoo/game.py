"""What a game is: a world and its pipeline, rules, input handlers, a bot and a status.

The player (``ecsgoo.app``) runs any ``Game`` windowed or headless: it calls
``step()`` at a fixed 60 Hz, forwards pointer and key input in world
coordinates (px, y up), lets a bot act before each step, draws the world with
the Render stage and then ``draw_overlay``, and reads ``status()`` for the
HUD and the final JSON line of a headless run.

A game module registers its class with ``register_game`` (bundled games live in
``games/<name>/``; ``ecsgoo play path/to/mygame.py`` loads any module that
registers one). A game that ships its levels as files keeps them in
``levels/<n>.toml`` beside its module and builds with ``load_level``; a bot that
swipes or drags plays its pointer path back with a ``Stroke``.
"""

from __future__ import annotations

import functools
import inspect
import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import WorldFileError
from .saving import dumps, load, loads, register_resource, save
from .saving.registry import missing
from .world import World

#: Most frames an episode (``ecsgoo eval``, the envs) runs unless told otherwise (5 min
#: 33 s of game time).
EPISODE_FRAMES = 20_000
#: Game classes by name, filled by ``register_game``.
GAMES: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Make a Game class playable as ``ecsgoo play <cls.name>``."""
    GAMES[cls.name] = cls
    return cls


@dataclass
class SavedGame:
    """Which game a saved world belongs to: a resource the player's quick save (F5) adds.

    ``ecsgoo play FILE`` reads it to continue the game; ``game`` is a registered
    game name (never a path: a world file names no code to import).
    """

    game: str
    level: int = 1
    seed: int = 0


register_resource(SavedGame, name="saved_game")


@dataclass
class Widget:
    """An on-screen control a game declares; the player draws it and routes clicks.

    ``kind`` is ``"slider"`` (``value`` in ``[low, high]``), ``"toggle"``
    (``value`` a bool) or ``"button"``. ``on_change(value)`` is called with the
    new value (buttons: ``True``).
    """

    kind: str
    label: str
    on_change: Any
    value: Any = None
    low: float = 0.0
    high: float = 1.0


@dataclass
class Status:
    """Where a game stands: ``result`` is ``"running"``, ``"won"`` or ``"lost"``."""

    result: str = "running"
    score: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Fields for the JSON summary line (game-specific extras included)."""
        return {"result": self.result, "score": self.score, **self.extra}


class Game:
    """Base class of a mini-game. Override ``build`` and what your game needs.

    ``level`` counts from 1; ``seed`` fixes every random choice (``self.rng``).
    """

    name = "game"
    title = "A game"
    #: Level names, in order (``ecsgoo list`` shows them).
    levels: tuple[str, ...] = ("level 1",)
    #: Bot names this game offers; the first is the default ``--bot``.
    bots: tuple[str, ...] = ()
    #: Window size, px (the camera fits the world's bounds into it).
    size: tuple[int, int] = (800, 600)
    #: Keys this game handles itself, by name (see ``on_key``): they reach ``on_key``
    #: before the player's own meaning (``"space"`` then no longer pauses; P always does).
    keys: tuple[str, ...] = ()
    #: The game's own keys and gestures as the footer says them (``"Z undo"``, ``"B ball"``).
    hints: tuple[str, ...] = ()
    #: Each new game gets a new seed (the launcher's pick and every restart: suika's fruit
    #: sequence), which the game shows so that ``--seed N`` replays it.
    fresh_seeds: bool = False
    #: A game left mid-way (Esc, a restart) still counts: the player records its score then.
    counts_unfinished: bool = False
    #: What every level and saved world of this game holds: registered resource types,
    #: and component types at least one entity holds. ``check_world`` refuses the rest.
    requires: tuple[type, ...] = ()

    #: When the pointer event being handled happened (s, wall clock): a window's player
    #: sets it before each press, drag and release; ``None`` when a bot or a test calls the
    #: handlers (a game that times the pointer then uses its world's time, which the fixed
    #: steps keep in step with the wall clock in a window).
    pointer_time: float | None = None

    #: What the level editor offers for this game (``ecsgoo edit``): an ``ecsgoo.editor.Kit``
    #: or the name of a module holding one as ``KIT`` (relative to the game's package:
    #: ``".pieces"``); None: the framework's pieces on level 1 emptied of its content.
    editor_kit: Any = None
    #: A level that is not one of ``levels`` (``custom_level``): its file (a Path) or its
    #: TOML text; None for the bundled levels.
    custom_source: Path | str | None = None

    #: The game's event handlers, declared once: ``{"contact_began": "on_hit"}`` (a method
    #: name, or a tuple of them). Each gets ``(world, *args)`` (the world the event
    #: happened in: a look-ahead clone's own) and is wired whenever ``self.world`` is
    #: set — built, restarted, adopted, loaded — and copied by ``World.clone``.
    #: Methods marked ``@handles("event")`` are wired the same way.
    handlers: dict[str, str | tuple[str, ...]] = {}

    def __init__(self, level: int = 1, seed: int = 0) -> None:
        # a whole number (numpy's too), never a bool, a float or "1" (which became a path)
        if type(level) is bool or not hasattr(level, "__index__") or \
                not 1 <= level <= len(self.levels):
            raise ValueError(f"{self.name}: level must be 1..{len(self.levels)}, got "
                             f"{repr(level)[:40]}")
        level = int(level)
        self.level, self.seed = level, seed
        self.rng = random.Random(seed)
        self.world: World = self.build()

    @property
    def world(self) -> World:
        """The world being played; setting it wires the game's ``handlers`` to it."""
        return self._world

    @world.setter
    def world(self, world: World) -> None:
        self._world = world
        if world is not None:
            world.wire(_wiring(self))

    def build(self) -> World:
        """Create the world of ``self.level`` with its pipeline (and rules); return it.

        This is where a game's state starts: the constructor and ``restart``
        call it (with ``self.rng`` freshly seeded), so set per-level fields of
        ``self`` here too, not in ``__init__``.
        """
        raise NotImplementedError

    @classmethod
    def level_file(cls, level: int) -> Path:
        """Where level ``level`` is saved: ``levels/<level>.toml`` beside the game's module."""
        return Path(inspect.getfile(cls)).with_name("levels") / f"{level}.toml"

    def load_level(self) -> World:
        """The world saved in ``level_file(self.level)`` (what most games' ``build`` returns),
        or the game's ``custom_source``."""
        source = self.custom_source
        if isinstance(source, str):
            return self.check_world(loads(source, "<edited level>"), "<edited level>")
        path = source if source is not None else self.level_file(self.level)
        return self.check_world(load(path), path)

    @classmethod
    def custom_level(cls, path: str | os.PathLike[str] | None = None, text: str | None = None,
                     seed: int = 0) -> Game:
        """The game playing a level of its own from a file (``ecsgoo play GAME FILE.toml``)
        or from TOML ``text`` (the editor's play-test), as level 1 with its rules; restarts
        load it again. Its results are not recorded as the bundled level 1's."""
        if (path is None) == (text is None):
            raise ValueError("custom_level: give the level's path or its text")
        game = cls.__new__(cls)
        game.custom_source = Path(path) if path is not None else text
        game.levels = (Path(path).stem if path is not None else "play-test",)  # the HUD's name
        game.__init__(level=1, seed=seed)  # type: ignore[misc]
        return game

    @classmethod
    def check_world(cls, world: World, source: str | os.PathLike[str]) -> World:
        """``world`` if it holds everything in ``requires``, else WorldFileError naming it.

        So a hand-edited level missing the game's state fails at load, naming
        what is missing, not with a KeyError at the first step. The refused world
        is closed.
        """
        what = missing(world, cls.requires)
        if what is not None:
            world.close()
            raise WorldFileError(f"{os.fspath(source)}: a {cls.name} world needs {what}, "
                                 "which this file does not hold")
        return world

    def restart(self) -> None:
        """Start the level again (with a new seed if the game has ``fresh_seeds``)."""
        if self.fresh_seeds:
            self.seed = new_seed()
        self.rng = random.Random(self.seed)
        self.world = self.build()

    def on_leave(self) -> None:
        """The player leaves this game before it ends (Esc, a restart, closing the window)."""

    def adopt(self, world: World) -> None:
        """Continue from ``world`` (the player's quick load, F9).

        The default replaces ``self.world``; a game that keeps entity ids or
        handlers outside the world re-wires them here.
        """
        self.world = world

    def step(self) -> None:
        """One fixed 1/60 s step: the pipeline, then the rules that look at the result."""
        self.world.step()

    def status(self) -> Status:
        """Win/lose, score and extras."""
        return Status()

    def hud(self) -> list[str]:
        """Short lines of text the player shows on screen."""
        s = self.status()
        return [f"score {s.score}"] + ([s.result.upper()] if s.result != "running" else [])

    def widgets(self) -> list[Widget]:
        """On-screen controls (sliders, toggles, buttons)."""
        return []

    # -- input, in world coordinates (px, y up) ------------------------------------

    def on_press(self, x: float, y: float, button: int) -> None:
        """Pointer pressed."""

    def on_drag(self, x: float, y: float) -> None:
        """Pointer moved while pressed."""

    def on_move(self, x: float, y: float) -> None:
        """Pointer moved (not pressed)."""

    def on_release(self, x: float, y: float, button: int) -> None:
        """Pointer released."""

    def on_key(self, key: str) -> None:
        """A key pressed, by name: lower-case pyglet names such as ``"z"``, ``"1"``,
        ``"space"``, ``"return"``, ``"left"``, ``"up"``, ``"f1"``.

        Keys the player uses (P pause, space pause, N step, R restart, Tab
        wireframe, H overlay, M mute, F5/F9 save/load) reach it only when listed
        in ``keys``; P is always pause (Esc always goes back to the launcher).
        Every other key reaches it. Say your keys in ``hints`` for the footer.
        While held, a key that reached it is in ``keys_down``.
        """

    def on_key_release(self, key: str) -> None:
        """A key that reached ``on_key`` was let go (it has left ``keys_down``)."""

    @property
    def keys_down(self) -> set[str]:
        """The keys held now that reached ``on_key``, by name ("hold D to roll": a game
        reads it in ``before_step`` or a stage). The window's player and bots keep it
        (``press_key``, ``release_key``)."""
        return self.__dict__.setdefault("_keys_down", set())

    def press_key(self, key: str) -> None:
        """``key`` goes down: into ``keys_down``, then ``on_key`` (what a bot calls to hold
        a key; the window's player calls it for each key it passes on)."""
        self.keys_down.add(key)
        self.on_key(key)

    def release_key(self, key: str) -> None:
        """``key`` comes up: out of ``keys_down``, then ``on_key_release`` (if it was down)."""
        if key in self.keys_down:
            self.keys_down.discard(key)
            self.on_key_release(key)

    # -- bots and drawing --------------------------------------------------------------

    def bot_act(self, name: str) -> None:
        """Let bot ``name`` act once, before a step (uses the input handlers above)."""

    def draw_overlay(self, draw: Any) -> None:
        """Draw game-specific things over the world (``draw`` is the player's Draw helper)."""

    def sound(self, name: str, pitch: float = 1.0) -> None:
        """Play effect ``name`` (``ecsgoo.app.sound.SOUNDS``) at ``pitch`` (playback speed).

        Dispatched as the world event ``sound(world, name, pitch)``, which the
        player plays (muted with M, silent headless); look-ahead copies stay quiet.
        """
        self.world.dispatch("sound", self.world, name, pitch)


def handles(*events: str) -> Callable[[Any], Any]:
    """Mark a Game method as the handler of ``events`` (like ``Game.handlers``): it gets
    ``(world, *args)`` and is wired to every world the game plays."""
    def mark(method: Any) -> Any:
        method._handles = (*getattr(method, "_handles", ()), *events)
        return method
    return mark


def _wiring(game: Game) -> list[tuple[str, Callable[..., Any]]]:
    """The ``(event, bound method)`` pairs of ``game.handlers`` and ``@handles``."""
    pairs = []
    for event, names in type(game).handlers.items():
        for name in (names,) if isinstance(names, str) else names:
            method = getattr(game, name, None)
            if not callable(method):
                raise TypeError(f"{type(game).__name__}.handlers: {event!r} names {name!r}, "
                                "which is not a method of the game")
            pairs.append((event, method))
    for name, events in _handled(type(game)):
        for event in events:
            pairs.append((event, getattr(game, name)))
    return pairs


@functools.cache
def _handled(cls: type) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ``@handles`` methods of a game class and their events, by name (looked up once
    a class: ``dir`` and a ``getattr`` of every attribute cost ~20 µs, at every reset)."""
    return tuple((name, tuple(events)) for name in sorted(dir(cls))
                 if (events := getattr(getattr(cls, name, None), "_handles", ())))


def new_seed() -> int:
    """A seed for a new game, from the system's entropy (``1 .. 999999``: easy to type)."""
    return random.SystemRandom().randrange(1, 1_000_000)


class Stroke:
    """A bot's press–drag–release, played back one pointer point a frame.

    ``begin`` presses and keeps the path; each ``advance`` drags to the next
    point, and at the last one releases instead.
    """

    def __init__(self) -> None:
        self.points: list[tuple[float, float]] = []

    def begin(self, game: Game, x: float, y: float, points: list[tuple[float, float]]) -> None:
        """Press at ``(x, y)``; ``points`` are where the following frames drag to (release last)."""
        game.on_press(x, y, 1)
        self.points = list(points)

    def advance(self, game: Game, release_at: Any = None) -> bool:
        """One frame: drag to the next point, or release at the last (then return ``True``).

        ``release_at(x, y)``, if given, may move the release point (the bot's last look).
        """
        x, y = self.points.pop(0)
        if self.points:
            game.on_drag(x, y)
            return False
        if release_at is not None:
            x, y = release_at(x, y)
        game.on_release(x, y, 1)
        return True


def write_levels(game: type[Game], build: Callable[[int], World]) -> list[Path]:
    """Save ``build(n)`` as ``game.level_file(n)`` for every level; return the paths.

    A game's ``make_levels.py`` is the one source of its levels: it builds them
    in code and this writes the TOML files the game loads (``stale_levels``
    tells a test when the two have drifted apart).
    """
    paths = []
    for n in range(1, len(game.levels) + 1):
        path = game.level_file(n)
        path.parent.mkdir(exist_ok=True)
        world = build(n)
        save(world, path)
        world.close()
        paths.append(path)
    return paths


def stale_levels(game: type[Game], build: Callable[[int], World]) -> list[int]:
    """The levels whose saved file is not what ``build`` makes now (run make_levels again)."""
    stale = []
    for n in range(1, len(game.levels) + 1):
        path, world = game.level_file(n), build(n)
        if not path.is_file() or dumps(world) != path.read_text(encoding="utf-8"):
            stale.append(n)
        world.close()
    return stale
