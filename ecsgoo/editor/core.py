"""The level editor's operations, headless: ``Editor``.

A level being edited is its **base** (the world the level starts from: the
game's empty level, or the rest of a level opened from a file) plus a list of
**things**, each a piece's kind and field values (``pieces.Piece``). The world is
built from them: the base, then each thing's ``make`` in order, then the game's
``finish``. Every operation (place, move, rotate, scale, duplicate, delete, set,
a level setting) makes a new base-and-things state and builds it; undo and redo
step through the states, so any operation can be undone exactly, and the same
state always saves to the same bytes. A value that the piece's field checks or
the world's own checks refuse leaves the level as it was and raises
``WorldError`` naming the field.

The saved level is the built world (what the game plays) with a ``Placed``
resource that names the things, so the editor reopens it as it was made.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import saving
from ..errors import WorldError, WorldFileError
from ..game import GAMES, Game, SavedGame
from ..saving.placed import Placed
from ..saving.registry import component_codec
from ..world import World
from .pieces import FRAMEWORK, Kit, Piece

#: How many operations undo can go back (the issue asks for at least 100).
UNDO_STEPS = 500
#: Where a duplicate lands, relative to its original (px).
DUPLICATE_OFFSET = (20.0, -20.0)

# what a thing's entity may hold that makes it part of the level's content, not its state
_CONTENT = ("Particle", "RigidBody", "Spring", "Joint", "AreaConstraint", "ShapeMatch",
            "Sensor")


@dataclass(frozen=True)
class Built:
    """What one thing made in the built world: its entities, level segments and polygons
    (indices into ``world.level.lines`` / ``polygons``) and its bounding box (px)."""

    entities: tuple[int, ...]
    lines: tuple[int, ...]
    polygons: tuple[int, ...]
    box: tuple[float, float, float, float]


State = tuple[str, tuple[tuple[str, str], ...]]


class Editor:
    """Edit a level: place things, select, move, rotate, scale, duplicate, delete, set
    fields, undo and redo, save, play-test.

    ``Editor("rope")`` starts a new, empty rope level; ``Editor("rope", level=2)`` edits a
    bundled level; ``Editor("my-level.toml")`` or ``Editor(world, game="rope")`` edits a
    level file or a world (the game is read from the file when it names it). Things are
    numbered in the order they are built (``things``); operations act on the selection
    unless given thing numbers.
    """

    def __init__(self, world_or_level: World | str | os.PathLike[str] | None = None,
                 game: str | type[Game] | None = None, level: int | None = None) -> None:
        self.path: Path | None = None  # the user's file saves go to (None: pick one)
        #: What was opened, as the window's title says it.
        self.opened = "new level"
        source = world_or_level
        if isinstance(source, str) and not source.endswith(".toml") and game is None:
            game, source = source, None  # Editor("rope"): a game name
        self.game: type[Game] | None = _game_class(game) if game is not None else None
        if isinstance(source, str | os.PathLike):
            path = Path(source)
            world = saving.load(path)
            self.opened = path.name
            if not _bundled(path):
                self.path = path
        elif isinstance(source, World):
            world = saving.loads(saving.dumps(source))  # ours: the caller's stays untouched
        elif level is not None:
            if self.game is None:
                raise ValueError("Editor(level=N) needs the game: Editor('rope', level=N)")
            world = saving.load(self.game.level_file(level))
            self.opened = f"bundled level {level}"
        else:
            world = None
        if self.game is None and world is not None:
            saved = world.resource(SavedGame)
            self.game = GAMES.get(saved.game) if saved is not None else None
        self.kit = kit_of(self.game)
        self.pieces: dict[str, Piece] = {p.kind: p for p in (*FRAMEWORK, *self.kit.pieces)}
        if world is None:
            world = self.kit.blank()
        #: The level's pipeline as it was opened, never run: each build gets a copy (its
        #: stages may need things the base lacks until they are placed, as goo's pipe).
        self.stages = tuple(world.pipeline)
        world.use()
        base, things = _split(world, self.pieces)
        #: Why the level cannot be saved yet (a stage's need, e.g. goo's pipe), or None.
        self.problem: str | None = None
        self.selection: list[int] = []
        self._past: list[State] = []
        self._future: list[State] = []
        self.world: World = None  # type: ignore[assignment]
        self.built: list[Built] = []
        self._text: str | None = None
        self._state: State = (base, ())
        self._build((base, things))

    # -- what there is ------------------------------------------------------------------

    @property
    def things(self) -> list[tuple[str, dict[str, Any]]]:
        """Every thing as ``(kind, fields)``, in build order (copies: edit through ops)."""
        return [(kind, json.loads(fields)) for kind, fields in self._state[1]]

    def fields(self, thing: int) -> dict[str, Any]:
        """Thing ``thing``'s field values."""
        return json.loads(self._state[1][thing][1])

    def kind(self, thing: int) -> str:
        """Thing ``thing``'s piece kind."""
        return self._state[1][thing][0]

    def text(self) -> str:
        """The level as its TOML file says it (what ``save`` writes)."""
        if self._text is None:
            self._text = saving.dumps(self.world)
        return self._text

    # -- selecting ----------------------------------------------------------------------

    def select(self, *things: int | Iterable[int], add: bool = False) -> list[int]:
        """Select these things (none: clear the selection); returns the selection."""
        chosen = _flat(things)
        for t in chosen:
            self._thing(t)
        self.selection = list(dict.fromkeys((self.selection if add else []) + chosen))
        return self.selection

    def thing_at(self, x: float, y: float, slack: float = 6.0) -> int | None:
        """The thing under ``(x, y)`` (px): the smallest whose box (grown by ``slack``)
        holds the point, the last built of equals; None if there is none."""
        best, found = math.inf, None
        for t, b in enumerate(self.built):
            x0, y0, x1, y1 = b.box
            if x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack:
                area = (x1 - x0 + slack) * (y1 - y0 + slack)
                if area <= best:
                    best, found = area, t
        return found

    def select_at(self, x: float, y: float, add: bool = False) -> list[int]:
        """Select the thing under ``(x, y)`` (``add``: to the selection; none there: clear)."""
        t = self.thing_at(x, y)
        if t is None:
            return self.select(add=add)
        return self.select(t, add=add)

    def select_box(self, x0: float, y0: float, x1: float, y1: float,
                   add: bool = False) -> list[int]:
        """Select every thing whose box lies inside the rectangle (any two corners, px)."""
        lx, hx, ly, hy = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
        inside = [t for t, b in enumerate(self.built)
                  if lx <= b.box[0] and b.box[2] <= hx and ly <= b.box[1] and b.box[3] <= hy]
        return self.select(inside, add=add)

    # -- operations (each one undoable) ---------------------------------------------------

    def place(self, kind: str, **fields: Any) -> int:
        """Add a thing of piece ``kind`` with ``fields`` (the rest default); returns its
        number and selects it. A bad value raises WorldError naming the field."""
        piece = self.piece(kind)
        clean = piece.clean(fields)
        things = (*self._state[1], (kind, _json(clean)))
        self._apply((self._state[0], things))
        self.selection = [len(things) - 1]
        return len(things) - 1

    def place_many(self, things: Iterable[tuple[str, dict[str, Any]]]) -> list[int]:
        """Add many things in one operation (one undo step): ``(kind, fields)`` pairs;
        returns their numbers and selects them."""
        added = tuple((kind, _json(self.piece(kind).clean(fields))) for kind, fields in things)
        old = self._state[1]
        self._apply((self._state[0], (*old, *added)))
        self.selection = list(range(len(old), len(old) + len(added)))
        return self.selection

    def move(self, dx: float, dy: float, things: Sequence[int] | None = None) -> None:
        """Move the things (default: the selection) by ``(dx, dy)`` px."""
        self._transform(things, lambda x, y: (x + dx, y + dy), 0.0, 1.0)

    def rotate(self, angle: float, about: tuple[float, float] | None = None,
               things: Sequence[int] | None = None) -> None:
        """Turn the things by ``angle`` rad (counter-clockwise) about ``about`` (default:
        the centre of their positions): positions, second points, outlines and angles."""
        chosen = self._chosen(things)
        cx, cy = about if about is not None else self._centre(chosen)
        c, s = math.cos(angle), math.sin(angle)
        self._transform(chosen, lambda x, y: (cx + c * (x - cx) - s * (y - cy),
                                              cy + s * (x - cx) + c * (y - cy)), angle, 1.0)

    def scale(self, factor: float, about: tuple[float, float] | None = None,
              things: Sequence[int] | None = None) -> None:
        """Scale the things by ``factor`` about ``about`` (default: their centre): sizes,
        outlines, second points and the spacing between them."""
        if not (isinstance(factor, int | float) and math.isfinite(factor) and factor > 0):
            raise WorldError(f"scale: factor must be a number > 0, got {factor!r}")
        chosen = self._chosen(things)
        cx, cy = about if about is not None else self._centre(chosen)
        self._transform(chosen, lambda x, y: (cx + (x - cx) * factor, cy + (y - cy) * factor),
                        0.0, float(factor))

    def duplicate(self, dx: float = DUPLICATE_OFFSET[0], dy: float = DUPLICATE_OFFSET[1],
                  things: Sequence[int] | None = None) -> list[int]:
        """Copy the things, moved by ``(dx, dy)`` px; the copies become the selection."""
        chosen = self._chosen(things)
        old = self._state[1]
        copies = []
        for t in chosen:
            kind, fields = old[t]
            copies.append((kind, _json(self._moved(kind, json.loads(fields),
                                                   lambda x, y: (x + dx, y + dy), 0.0, 1.0))))
        self._apply((self._state[0], (*old, *copies)))
        self.selection = list(range(len(old), len(old) + len(copies)))
        return self.selection

    def delete(self, things: Sequence[int] | None = None) -> None:
        """Remove the things (default: the selection)."""
        gone = set(self._chosen(things))
        kept = tuple(t for k, t in enumerate(self._state[1]) if k not in gone)
        self._apply((self._state[0], kept))
        self.selection = []

    def set(self, field: str, value: Any, things: Sequence[int] | None = None) -> None:
        """Set ``field`` of the things (default: the selection) to ``value``.

        The piece's own check (the loader's range for that field) refuses a bad value
        with a WorldError naming the piece and the field; so does the world if the
        thing cannot be built with it. Either way nothing changes.
        """
        chosen = self._chosen(things)
        old = list(self._state[1])
        for t in chosen:
            kind, fields = old[t]
            values = json.loads(fields)
            values[field] = self.piece(kind).field(field).clean(kind, value)
            old[t] = (kind, _json(values))
        self._apply((self._state[0], tuple(old)))

    def level_fields(self) -> dict[str, Any]:
        """The level's own settings: the world's (``gravity``, ``damping``, …) and each
        field of the game's state (``goo_rules.required``: component or resource name,
        dot, field)."""
        cached = self.__dict__.get("_level_fields")
        if cached is not None and cached[0] is self._state[0]:
            return dict(cached[1])
        world = saving.loads(self._state[0])
        try:
            out: dict[str, Any] = {k: (list(v) if isinstance(v, tuple) else v)
                                   for k, v in world.settings().items()}
            for name, obj in _state_objects(world):
                for key, value in vars(obj).items():
                    if not key.startswith("_") and isinstance(value, int | float | str):
                        out[f"{name}.{key}"] = value
            self._level_fields = (self._state[0], out)
            return dict(out)
        finally:
            world.close()

    def set_level(self, field: str, value: Any) -> None:
        """Set a level setting (see ``level_fields``): checked as the loader checks it."""
        world = saving.loads(self._state[0])
        try:
            if "." in field:
                name, key = field.split(".", 1)
                target = dict(_state_objects(world)).get(name)
                if target is None or not hasattr(target, key) or key.startswith("_"):
                    raise WorldError(f"level: no setting {field!r}")
                setattr(target, key, value)
            elif field in world.settings():
                setattr(world, field, value)  # the World's own checked setter
            else:
                raise WorldError(f"level: no setting {field!r} (see Editor.level_fields)")
            base = _base_text(world)
        finally:
            world.close()
        self._apply((base, self._state[1]))

    def undo(self) -> bool:
        """Go back one operation; False if there is none."""
        if not self._past:
            return False
        self._future.append(self._state)
        self._build(self._past.pop())
        return True

    def redo(self) -> bool:
        """Do again the operation last undone; False if there is none."""
        if not self._future:
            return False
        self._past.append(self._state)
        self._build(self._future.pop())
        return True

    @property
    def can_undo(self) -> bool:
        """Whether there is an operation to undo."""
        return bool(self._past)

    # -- saving and playing ---------------------------------------------------------------

    def default_path(self) -> Path:
        """Where ``save()`` writes with no path: the file opened (a user level), else a new
        ``<data dir>/levels/GAME/level-N.toml`` (never a bundled level)."""
        if self.path is not None:
            return self.path
        folder = user_levels_dir(self.game.name if self.game is not None else "world")
        n = 1
        while (folder / f"level-{n}.toml").exists():
            n += 1
        return folder / f"level-{n}.toml"

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save the level (atomic, checked like every save: ``ecsgoo.save``); returns the
        path. With no path: ``default_path()``. A bundled level is written only when its
        path is given."""
        if self.problem is not None:
            raise WorldError(f"cannot save yet: {self.problem}")
        target = Path(path) if path is not None else self.default_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        saving.save(self.world, target)
        if not _bundled(target) or path is not None:
            self.path = target
        return target

    def play_test(self, seed: int = 0) -> Game:
        """The game playing a copy of the level as it stands (its rules and bots); the
        edit is not touched, so dropping the game returns to it exactly."""
        if self.game is None:
            raise LookupError("play_test: this level belongs to no known game")
        return self.game.custom_level(text=self.text(), seed=seed)

    # -- pieces -------------------------------------------------------------------------

    def piece(self, kind: str) -> Piece:
        """The piece ``kind``, or WorldError naming the kinds there are."""
        piece = self.pieces.get(kind)
        if piece is None:
            raise WorldError(f"no piece {kind!r} (pieces: {', '.join(self.pieces)})")
        return piece

    # -- inside -------------------------------------------------------------------------

    def _thing(self, t: int) -> int:
        if not (isinstance(t, int) and 0 <= t < len(self._state[1])):
            raise WorldError(f"no thing {t!r} (things: 0..{len(self._state[1]) - 1})")
        return t

    def _chosen(self, things: Sequence[int] | None) -> list[int]:
        chosen = self.selection if things is None else [self._thing(t) for t in _flat(things)]
        return list(chosen)

    def _centre(self, things: Sequence[int]) -> tuple[float, float]:
        if not things:
            return 0.0, 0.0
        pts = [(f["x"], f["y"]) for f in (self.fields(t) for t in things)]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    def _moved(self, kind: str, values: dict[str, Any], where: Any, angle: float,
               factor: float) -> dict[str, Any]:
        """``values`` with the point map ``where`` applied, turned by ``angle`` and scaled
        by ``factor`` as each field's role says, then checked."""
        piece = self.piece(kind)
        out = dict(values)
        out["x"], out["y"] = where(values["x"], values["y"])
        c, s = math.cos(angle), math.sin(angle)
        for f in piece.fields:
            v = values.get(f.name, f.default)
            if f.role == "point":
                out[f.name] = list(where(*v))
            elif f.role == "outline":
                out[f.name] = [[(c * px - s * py) * factor, (s * px + c * py) * factor]
                               for px, py in v]
            elif f.role == "angle":
                out[f.name] = v + angle
            elif f.role == "size":
                out[f.name] = v * factor
        return piece.clean(out)

    def _transform(self, things: Sequence[int] | None, where: Any, angle: float,
                   factor: float) -> None:
        chosen = self._chosen(things)
        if not chosen:
            return
        old = list(self._state[1])
        for t in chosen:
            kind, fields = old[t]
            old[t] = (kind, _json(self._moved(kind, json.loads(fields), where, angle, factor)))
        self._apply((self._state[0], tuple(old)))

    def _apply(self, state: State) -> None:
        """Build ``state``; on success it is the new state (the old one can be undone)."""
        if state == self._state:
            return
        before = self._state
        self._build(state)
        self._past.append(before)
        del self._past[:-UNDO_STEPS]
        self._future.clear()

    def _build(self, state: State) -> None:
        """Build the world of ``state`` and make it current; WorldError leaves all as was."""
        base, things = state
        world = saving.loads(base, "<level being edited>")
        built: list[Built] = []
        placed = Placed()
        try:
            world.use(*copy.deepcopy(self.stages))
            for k, (kind, fields) in enumerate(things):
                values = json.loads(fields)
                first = world.next_entity
                nl, np_ = len(world.level.lines), len(world.level.polygons)
                try:
                    self.piece(kind).make(world, **values)
                except (WorldError, ValueError) as exc:
                    raise WorldError(f"{kind} (thing {k}): {exc}") from None
                ents = tuple(e for e in range(first, world.next_entity)
                             if world.entity_exists(e))
                lines = tuple(range(nl, len(world.level.lines)))
                polys = tuple(range(np_, len(world.level.polygons)))
                built.append(Built(ents, lines, polys, _box(world, ents, lines, polys,
                                                           self.piece(kind), values)))
                placed.kinds.append(kind)
                placed.fields.append(fields)
                placed.entities += ents
                placed.counts.append(len(ents))
                placed.lines.append(len(lines))
                placed.polygons.append(len(polys))
            if self.kit.finish is not None:
                self.kit.finish(world)
            if things:  # a level opened and left as it was saves as it was
                world.add_resource(placed)
                if self.game is not None:  # so `ecsgoo play FILE` knows its game
                    world.add_resource(SavedGame(self.game.name))
            text = saving.dumps(world)  # the loader's checks on everything built
        except WorldFileError as exc:
            world.close()
            raise WorldError(str(exc).replace("cannot save: ", "")) from None
        except BaseException:
            world.close()
            raise
        old = self.world
        self.world, self.built, self._state, self._text = world, built, state, text
        self.problem = _unmet(world)
        self.selection = [t for t in self.selection if t < len(things)]
        if old is not None:
            old.close()


def _unmet(world: World) -> str | None:
    """What a stage of the level's pipeline needs and the level lacks (said as a message)."""
    from ..saving.registry import missing

    for stage in world.pipeline:
        what = missing(world, getattr(stage, "requires", ()))
        if what is not None:
            return f"its {stage.name} stage needs {what}"
    return None


def _flat(things: Iterable[Any]) -> list[int]:
    out: list[int] = []
    for t in things:
        if isinstance(t, Iterable) and not isinstance(t, str):
            out += list(t)
        else:
            out.append(t)
    return out


def _json(values: dict[str, Any]) -> str:
    return json.dumps(values, sort_keys=True, separators=(",", ":"))


def _box(world: World, ents: Sequence[int], lines: Sequence[int], polys: Sequence[int],
         piece: Piece, values: dict[str, Any]) -> tuple[float, float, float, float]:
    """A thing's bounding box: its particles' discs, bodies' outlines, sensors, game
    components with a position, level pieces, and its own points (px)."""
    from ..components import Particle
    from ..rigid import RigidBody
    from ..sensors import Sensor

    xs, ys = [values["x"]], [values["y"]]

    def grow(x: float, y: float, r: float = 0.0) -> None:
        xs.extend((x - r, x + r))
        ys.extend((y - r, y + r))

    for f in piece.fields:
        if f.role == "point":
            grow(*values[f.name])
    for e in ents:
        for comp in world.components_for_entity(e):
            if isinstance(comp, Particle):
                grow(comp.x, comp.y, comp.radius)
            elif isinstance(comp, RigidBody):
                for verts in comp.outline():
                    pts = verts.reshape(-1, 2)
                    r = comp.size if comp.shape == "circle" else 0.0
                    for px, py in pts:
                        grow(float(px), float(py), float(r if isinstance(r, float) else 0.0))
            elif isinstance(comp, Sensor):
                x0, y0, x1, y1 = comp.bounds()
                grow(x0, y0)
                grow(x1, y1)
            elif hasattr(comp, "x") and hasattr(comp, "y") and type(comp).__name__ not in (
                    "Joint", "Anchor"):
                r = getattr(comp, "radius", 10.0)
                grow(float(comp.x), float(comp.y), float(r) if isinstance(r, int | float)
                     else 10.0)
    for i in lines:
        x0, y0, x1, y1 = world.level.lines[i]
        grow(x0, y0)
        grow(x1, y1)
    for i in polys:
        for px, py in world.level.polygons[i]:
            grow(px, py)
    return min(xs), min(ys), max(xs), max(ys)


def _state_objects(world: World) -> list[tuple[str, Any]]:
    """The game's state a level holds: registered resources and dataclass components of
    entities that are not level content (goo's rules, rope's board), by saved name."""
    from ..saving.registry import resource_codec

    out = []
    for kind, obj in world.resources.items():
        codec = resource_codec(kind)
        if codec is not None and codec.saved and kind not in (Placed, SavedGame):
            out.append((codec.name, obj))
    for e in world.entities():
        comps = world.components_for_entity(e)
        if any(type(c).__name__ in _CONTENT for c in comps):
            continue
        for comp in comps:
            codec = component_codec(type(comp))
            if codec is not None and codec.saved and not codec.refs:  # not links to content
                out.append((codec.name, comp))
    return out


def _split(world: World, pieces: dict[str, Piece]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A world as the editor holds it: its base's text and its things (from ``Placed``)."""
    placed = world.resource(Placed)
    things: tuple[tuple[str, str], ...] = ()
    if placed is not None:
        unknown = [k for k in placed.kinds if k not in pieces]
        if unknown:
            raise WorldError(f"editor_placed: no piece {unknown[0]!r} in this game's editor")
        things = tuple(zip(placed.kinds, placed.fields, strict=True))
        for e in placed.entities:
            if world.entity_exists(e):
                world.delete_entity(e)
        lines, polys = sum(placed.lines), sum(placed.polygons)
        if lines:
            del world.level.lines[-lines:]
        if polys:
            del world.level.polygons[-polys:]
        world.level._arrays = None
        del world.resources[Placed]
    world.resources.pop(SavedGame, None)
    text = _base_text(world)
    world.close()
    return text, things


def _base_text(world: World) -> str:
    """A base world's text, ids counted on from its last entity (so a reopened level builds
    its things with the ids they were saved with)."""
    return re.sub(r"^next_entity = \d+\n", "", saving.dumps(world), count=1, flags=re.M)


def _bundled(path: Path) -> bool:
    """Whether ``path`` is one of the bundled games' level files."""
    try:
        import games

        roots = [Path(p).resolve() for p in games.__path__]
    except ImportError:
        return False
    real = path.resolve()
    return any(real.is_relative_to(r) for r in roots)


def _game_class(game: str | type[Game]) -> type[Game]:
    if isinstance(game, type):
        return game
    from ..app.games import find_game

    return find_game(game)


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

        return Kit(blank=lambda: World().use(*systems.SOLVER))
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
    constraint, joint or sensor goes, and the level geometry; the settings, pipeline,
    resources and the game's state entities stay (a game's empty level)."""
    for e in world.entities():
        if world.entity_exists(e) and any(type(c).__name__ in _CONTENT
                                          for c in world.components_for_entity(e)):
            world.delete_entity(e)
    for e in world.entities():  # what pointed at the content goes with it (rope's ropes)
        for comp in world.components_for_entity(e):
            codec = component_codec(type(comp))
            refs = codec.references(comp) if codec is not None else []
            if any(not world.entity_exists(ref) for _, ref in refs):
                world.delete_entity(e)
                break
    world.level.clear()
    world.resources.pop(Placed, None)
    return world
