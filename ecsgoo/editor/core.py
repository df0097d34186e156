"""The level editor's operations, headless: ``Editor``.

A level being edited is its **base** (the world the level starts from: the game's empty
level, or what a file held that the editor did not place) plus a list of **things**,
each a piece's kind and field values (``pieces.Piece``), built in order on the base
(``editor.build``). What the base holds is split into **parts** (``editor.parts``: a
rope with its candy, a jelly ball, a level polygon …): things too, numbered before the
placed ones, moved, turned, copied and deleted in the base itself. Every operation
(place, move, rotate, scale, duplicate, delete, set, a level setting) makes a new
base-and-things state; the world follows by remaking only what changed, and undo and
redo step through the states, so any operation can be undone exactly, and the same
state always saves to the same bytes. A value that the piece's field checks or the
world's own checks refuse leaves the level as it was and raises ``WorldError`` naming
the field.

The saved level is the state built in full (what the game plays) with a ``Placed``
resource that names the placed things, so the editor reopens it as it was made.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .. import saving
from ..errors import WorldError, WorldFileError
from ..game import GAMES, Game, SavedGame
from ..saving.placed import Placed
from ..saving.registry import component_codec
from ..world import World
from .base import base_text, split, state_objects, unmet
from .build import Built, Live, State
from .levels import (
    bundled,
    emptied,
    game_class,
    game_of_file,
    kit_of,
    user_levels,
    user_levels_dir,
)
from .parts import Part, copy_parts, delete_parts, move_parts
from .pieces import FRAMEWORK, PART, Piece
from .saver import placed_world

__all__ = ["Editor", "Built", "emptied", "kit_of", "user_levels", "user_levels_dir"]

#: How many operations undo can go back (the issue asks for at least 100).
UNDO_STEPS = 500
#: Where a duplicate lands, relative to its original (px).
DUPLICATE_OFFSET = (20.0, -20.0)


class Editor:
    """Edit a level: place things, select, move, rotate, scale, duplicate, delete, set
    fields, undo and redo, save, play-test.

    ``Editor("rope")`` starts a new, empty rope level; ``Editor("rope", level=2)`` edits a
    bundled level; ``Editor("my-level.toml")`` or ``Editor(world, game="rope")`` edits a
    level file or a world (the game is read from the file when it names it). Things are
    numbered the parts of the opened level first, then the placed ones in the order they
    are built (``things``); operations act on the selection unless given thing numbers.
    """

    def __init__(self, world_or_level: World | str | os.PathLike[str] | None = None,
                 game: str | type[Game] | None = None, level: int | None = None) -> None:
        self.path: Path | None = None  # the user's file saves go to (None: pick one)
        #: What was opened, as the window's title says it.
        self.opened = "new level"
        self.game: type[Game] | None = None
        world = self._open(world_or_level, game, level)
        self.kit = kit_of(self.game)
        self.pieces: dict[str, Piece] = {p.kind: p for p in (PART, *FRAMEWORK,
                                                             *self.kit.pieces)}
        if world is None:
            world = self.kit.blank()
        #: The level's pipeline as it was opened, never run: each build gets a copy (its
        #: stages may need things the base lacks until they are placed, as goo's pipe).
        self.stages = tuple(world.pipeline)
        world.use()
        base, things = split(world, self.pieces)
        #: Why the level cannot be saved yet (a stage's need, e.g. goo's pipe), or None.
        self.problem: str | None = None
        self.selection: list[int] = []
        #: Counts the changes of the level (a view redraws what changed).
        self.version = 0
        self._past: list[State] = []
        self._future: list[State] = []
        self._text: str | None = None
        self._live = Live(self.pieces, self.kit, self.stages)
        for kind, fields in things:  # a file's things: their fields as its pieces check them
            self.pieces[kind].clean(json.loads(fields))
        self._state: State = (base, things)
        self._live.build(self._state, check=not things)  # what the file made loaded checked
        self._saved: State = self._state
        self._changed()

    def _open(self, source: Any, game: Any, level: int | None) -> World | None:
        """The world to edit (None: the game's empty level); sets game, path, opened."""
        if isinstance(source, str) and not source.endswith(".toml") and game is None:
            game, source = source, None  # Editor("rope"): a game name
        self.game = game_class(game) if game is not None else None
        world = None
        if isinstance(source, str | os.PathLike):
            path = Path(source)
            data = saving._read(path)  # a regular file of a world's size, else WorldFileError
            if self.game is None:  # its game's module first: the stages its file names
                self.game = game_of_file(path, data.decode("utf-8", "replace"))
            world = saving.loads(data, str(path))
            self.opened = path.name
            if not bundled(path):
                self.path = path
        elif isinstance(source, World):
            world = saving.loads(saving.dumps(source))  # ours: the caller's stays untouched
        elif level is not None:
            if self.game is None:
                raise ValueError("Editor(level=N) needs the game: Editor('rope', level=N)")
            world = saving.load(self.game.level_file(level))
            self.opened = f"bundled level {level}"
        if self.game is None and world is not None:
            saved = world.resource(SavedGame)
            self.game = GAMES.get(saved.game) if saved is not None else None
        return world

    # -- what there is ------------------------------------------------------------------

    @property
    def world(self) -> World:
        """The built world (read it; change it through operations)."""
        return self._live.world

    @property
    def built(self) -> list[Built]:
        """What each thing made: its entities, segments, polygons and box."""
        return self._live.built

    @property
    def parts(self) -> int:
        """How many things are parts of the opened level (numbered first)."""
        return len(self._live.parts)

    @property
    def dirty(self) -> bool:
        """Whether the level differs from the file it was opened from or last saved to."""
        return self._state != self._saved

    @property
    def things(self) -> list[tuple[str, dict[str, Any]]]:
        """Every thing as ``(kind, fields)``, in build order (copies: edit through ops)."""
        return [(self.kind(t), self.fields(t)) for t in range(self._count())]

    def fields(self, thing: int) -> dict[str, Any]:
        """Thing ``thing``'s field values (a part's: its centre, px)."""
        if thing < self.parts:
            x0, y0, x1, y1 = self.built[thing].box
            return {"x": (x0 + x1) / 2, "y": (y0 + y1) / 2}
        return json.loads(self._state[1][thing - self.parts][1])

    def kind(self, thing: int) -> str:
        """Thing ``thing``'s piece kind (``"part"``: a part of the opened level)."""
        if thing < self.parts:
            return PART.kind
        return self._state[1][thing - self.parts][0]

    def title(self, thing: int) -> str:
        """What thing ``thing`` is, for people: its piece's title, or what a part holds."""
        if thing < self.parts:
            return f"opened: {self._live.parts[thing].title}"
        return self.piece(self.kind(thing)).title

    def placeable(self) -> list[Piece]:
        """The pieces a level can be given (every piece but ``part``)."""
        return [p for p in self.pieces.values() if p is not PART]

    def text(self) -> str:
        """The level as its TOML file says it (what ``save`` writes)."""
        if self._text is None:
            with self._canonical() as world:
                try:
                    self._text = saving.dumps(world)
                except WorldFileError as exc:
                    raise _refused(exc) from None
        return self._text

    def thing_of(self, entity: int) -> int | None:
        """The thing that made ``entity`` (of ``world``), or None."""
        for t, b in enumerate(self.built):
            if entity in b.entities:
                return t
        return None

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

    def place(self, kind: str, /, **fields: Any) -> int:
        """Add a thing of piece ``kind`` with ``fields`` (the rest default); returns its
        number and selects it. A bad value raises WorldError naming the field."""
        return self.place_many([(kind, fields)])[0]

    def place_many(self, things: Iterable[tuple[str, dict[str, Any]]]) -> list[int]:
        """Add many things in one operation (one undo step): ``(kind, fields)`` pairs;
        returns their numbers and selects them."""
        added = tuple((kind, _json(self.piece(kind).clean(fields))) for kind, fields in things)
        old = self._state[1]
        self._apply((self._state[0], (*old, *added)))
        start = self.parts + len(old)
        self.selection = list(range(start, start + len(added)))
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
        outlines, second points and the spacing between them (not parts of an opened
        level: they are moved, turned, copied and deleted)."""
        if not (isinstance(factor, int | float) and math.isfinite(factor) and factor > 0):
            raise WorldError(f"scale: factor must be a number > 0, got {factor!r}")
        chosen = self._chosen(things)
        cx, cy = about if about is not None else self._centre(chosen)
        self._transform(chosen, lambda x, y: (cx + (x - cx) * factor, cy + (y - cy) * factor),
                        0.0, float(factor))

    def duplicate(self, dx: float = DUPLICATE_OFFSET[0], dy: float = DUPLICATE_OFFSET[1],
                  things: Sequence[int] | None = None) -> list[int]:
        """Copy the things, moved by ``(dx, dy)`` px; the copies become the selection."""
        parts, pieces = self._sorted(self._chosen(things))
        shift = lambda x, y: (x + dx, y + dy)  # noqa: E731
        old = self._state[1]
        copies = tuple((old[k][0], _json(self._moved(*_unpacked(old[k]), shift, 0.0, 1.0)))
                       for k in pieces)
        base, made = self._state[0], []
        if parts:
            base, made = self._copied(parts, shift)
        self._apply((base, (*old, *copies)))
        where = {(p.entities, p.lines, p.polygons): i for i, p in enumerate(self._live.parts)}
        found = [where[k] for c in made if (k := (c.entities, c.lines, c.polygons)) in where]
        start = self.parts + len(old)
        self.selection = found + list(range(start, start + len(copies)))
        return self.selection

    def delete(self, things: Sequence[int] | None = None) -> None:
        """Remove the things (default: the selection)."""
        parts, pieces = self._sorted(self._chosen(things))
        gone = set(pieces)
        kept = tuple(t for k, t in enumerate(self._state[1]) if k not in gone)
        base = self._state[0]
        if parts:
            base = self._edited(lambda w: delete_parts(w, self._parts(parts)))
        self._apply((base, kept))
        self.selection = []

    def set(self, *args: Any, things: Sequence[int] | None = None) -> None:
        """Set a field: ``set(field, value, things=None)`` sets a piece's field of the things
        (default: the selection); ``set(entity, Component, field, value)`` the field of an
        entity's component (a part of the opened level: the component itself; a placed
        thing: its piece's field of that name).

        A bad value (the loader's range for that field, or a thing that cannot be built
        with it) raises a WorldError naming the field, and nothing changes. A part's
        ``x``, ``y`` move it.
        """
        if len(args) == 4:
            self._set_component(*args)
        elif len(args) == 2:
            self._set_field(args[0], args[1], things)
        else:
            raise TypeError("set(field, value, things=None) or set(entity, Component, "
                            f"field, value); got {len(args)} arguments")

    def _set_field(self, field: str, value: Any, things: Sequence[int] | None) -> None:
        parts, pieces = self._sorted(self._chosen(things))
        if parts and field not in ("x", "y"):  # a part has its place only
            raise WorldError(f"part: no field {field!r} (a part of the opened level has "
                             "x, y; set(entity, Component, field, value) sets a field of "
                             "one of its components)")
        old = list(self._state[1])
        for k in pieces:
            kind, values = _unpacked(old[k])
            values[field] = self.piece(kind).field(field).clean(kind, value)
            old[k] = (kind, _json(values))
        base = self._state[0]
        if parts:
            value = self.pieces["particle"].field(field).clean("part", value)
            at = {t: self.fields(t)[field] for t in parts}

            def edit(w: World) -> None:
                for t in parts:
                    d = value - at[t]
                    move_parts(w, self._parts([t]), (lambda x, y, d=d: (x + d, y)) if field == "x"
                               else (lambda x, y, d=d: (x, y + d)))
            base = self._edited(edit)
        self._apply((base, tuple(old)))

    def _set_component(self, entity: int, component: type | str, field: str,
                       value: Any) -> None:
        t = self.thing_of(entity)
        if t is None:
            raise WorldError(f"entity {entity!r}: made by no thing of this level")
        kind = _component_type(self.world, entity, component)
        if t >= self.parts:  # a placed thing: its piece's own field of that name
            self.piece(self.kind(t)).field(field)
            self._set_field(field, value, [t])
            return

        def edit(w: World) -> None:
            comp = w.component(entity, kind)
            if field.startswith("_") or not hasattr(comp, field):
                raise WorldError(f"{kind.__name__}: no field {field!r}")
            try:
                setattr(comp, field, value)
            except (TypeError, ValueError, AttributeError) as exc:
                raise WorldError(f"{kind.__name__}: field {field}: {exc}") from None
        self._apply((self._edited(edit), self._state[1]))

    def level_fields(self) -> dict[str, Any]:
        """The level's own settings: the world's (``gravity``, ``damping``, …) and each
        field of the game's state (``goo_rules.required``: component or resource name,
        dot, field)."""
        cached = self.__dict__.get("_level_fields")
        if cached is not None and cached[0] is self._state[0]:
            return dict(cached[1])
        world = self._live.base_world(self._state[0])
        try:
            out: dict[str, Any] = {k: (list(v) if isinstance(v, tuple) else v)
                                   for k, v in world.settings().items()}
            for name, obj in state_objects(world):
                for key, value in vars(obj).items():
                    if not key.startswith("_") and isinstance(value, int | float | str):
                        out[f"{name}.{key}"] = value
            self._level_fields = (self._state[0], out)
            return dict(out)
        finally:
            world.close()

    def set_level(self, field: str, value: Any) -> None:
        """Set a level setting (see ``level_fields``): checked as the loader checks it."""
        def edit(world: World) -> None:
            if "." in field:
                name, key = field.split(".", 1)
                target = dict(state_objects(world)).get(name)
                if target is None or not hasattr(target, key) or key.startswith("_"):
                    raise WorldError(f"level: no setting {field!r}")
                setattr(target, key, value)
            elif field in world.settings():
                setattr(world, field, value)  # the World's own checked setter
            else:
                raise WorldError(f"level: no setting {field!r} (see Editor.level_fields)")
        self._apply((self._edited(edit), self._state[1]))

    def undo(self) -> bool:
        """Go back one operation; False if there is none."""
        if not self._past:
            return False
        self._go(self._past.pop(), self._future)
        return True

    def redo(self) -> bool:
        """Do again the operation last undone; False if there is none."""
        if not self._future:
            return False
        self._go(self._future.pop(), self._past)
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
        path is given. Afterwards the level is not ``dirty``."""
        target = self._target(path)
        with self._canonical() as world:
            saving.save(world, target)
        self.saved_as(self._state, target, path is not None)
        return target

    def save_job(self, path: str | os.PathLike[str] | None = None) -> tuple[Any, Any] | None:
        """What a worker process needs to save the level as ``save`` would
        (``editor.saver``), and the state it saves: ``(job, state)``; None if a worker
        could not find this level's game by name (save it here)."""
        from .saver import in_worker

        if not in_worker(self.game):
            return None
        target = self._target(path)
        with self._base_world() as world:
            world.use(*copy.deepcopy(self.stages))
            staged = saving.dumps(world)
        named = (self.game.__module__, self.game.name) if self.game is not None else None
        return (named, staged, self._state[1], str(target)), self._state

    def saved_as(self, state: Any, path: Path, given: bool = True) -> None:
        """``state`` was saved to ``path`` (by ``save`` or a worker): it is the level's file
        now (a bundled level only if its path was ``given``)."""
        if not bundled(path) or given:
            self.path = path
        self._saved = state

    def _target(self, path: str | os.PathLike[str] | None) -> Path:
        """Where a save goes (its folder made); WorldError if the level cannot be saved."""
        if self.problem is not None:
            raise WorldError(f"cannot save yet: {self.problem}")
        target = Path(path) if path is not None else self.default_path()
        target.parent.mkdir(parents=True, exist_ok=True)
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

    def _count(self) -> int:
        return self.parts + len(self._state[1])

    def _thing(self, t: int) -> int:
        if not (isinstance(t, int) and 0 <= t < self._count()):
            raise WorldError(f"no thing {t!r} (things: 0..{self._count() - 1})")
        return t

    def _chosen(self, things: Sequence[int] | None) -> list[int]:
        chosen = self.selection if things is None else [self._thing(t) for t in _flat(things)]
        return list(chosen)

    def _sorted(self, chosen: Sequence[int]) -> tuple[list[int], list[int]]:
        """Chosen things as (parts: their numbers, placed: their indices among the placed)."""
        parts = sorted(t for t in set(chosen) if t < self.parts)
        return parts, [t - self.parts for t in chosen if t >= self.parts]

    def _parts(self, things: Sequence[int]) -> list[Part]:
        """The parts numbered ``things`` (the same in a copy of the base as in ``world``)."""
        return [self._live.parts[t] for t in things]

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
        parts, pieces = self._sorted(self._chosen(things))
        if not parts and not pieces:
            return
        if parts and factor != 1.0:
            raise WorldError(f"scale: thing {parts[0]} is a part of the opened level: parts "
                             "are moved, turned, copied and deleted, not sized")
        old = list(self._state[1])
        for k in pieces:
            kind, values = _unpacked(old[k])
            old[k] = (kind, _json(self._moved(kind, values, where, angle, factor)))
        base = self._state[0]
        if parts:
            base = self._edited(lambda w: move_parts(w, self._parts(parts),
                                                     where, angle))
        self._apply((base, tuple(old)))

    @contextmanager
    def _base_world(self) -> Iterator[World]:
        """The base as a world of its own (closed afterwards)."""
        world = self._live.base_world(self._state[0])
        try:
            yield world
        finally:
            world.close()

    def _edited(self, edit: Callable[[World], None]) -> str:
        """The base's text after ``edit(base world)``; WorldError if a file could not hold
        it."""
        with self._base_world() as world:
            edit(world)
            try:
                return base_text(world)
            except WorldFileError as exc:
                raise _refused(exc) from None

    def _copied(self, parts: list[int], where: Any) -> tuple[str, list[Part]]:
        """The base with a copy of each of ``parts`` moved by ``where``, and the copies."""
        with self._base_world() as world:
            out, copies = copy_parts(world, self._parts(parts), where)
            try:
                return base_text(out), copies
            finally:
                out.close()

    def _apply(self, state: State) -> None:
        """Build ``state``; on success it is the new state (the old one can be undone)."""
        if state == self._state:
            return
        before = self._state
        self._live.update(state)
        self._state = state
        self._past.append(before)
        del self._past[:-UNDO_STEPS]
        self._future.clear()
        self._changed()

    def _go(self, state: State, back: list[State]) -> None:
        """Undo or redo to ``state``; the state left goes on ``back``."""
        self._live.update(state)
        back.append(self._state)
        self._state = state
        self._changed()

    def _changed(self) -> None:
        self._text = None
        self.version += 1
        self.problem = unmet(self.world)
        self.selection = [t for t in self.selection if t < self._count()]

    @contextmanager
    def _canonical(self) -> Iterator[World]:
        """The level's world as its file holds it: built in full (the live world if it was),
        with the ``Placed`` record of its things and its game's name."""
        live, things = self._live, self._state[1]
        fresh = not live.pristine
        if fresh:
            world, _, _, made = live.full(self._state, check=False, measure=False)
            counts = [(m.entities, len(m.lines), len(m.polygons)) for m in made]
        else:
            world, counts = live.world, live.made_counts()
        try:
            placed_world(world, things, counts, self.game.name if self.game else None)
            yield world
        finally:
            if fresh:
                world.close()
            else:
                world.resources.pop(Placed, None)
                world.resources.pop(SavedGame, None)


def _refused(exc: WorldFileError) -> WorldError:
    """A save's refusal as the editor says it: what and which field, no file talk."""
    said = str(exc).replace("cannot save: ", "").replace(" (the world file would not load)", "")
    return WorldError(re.sub(r"^<[^>]*>: ", "", said))


def _unpacked(thing: tuple[str, str]) -> tuple[str, dict[str, Any]]:
    return thing[0], json.loads(thing[1])


def _component_type(world: World, entity: int, component: type | str) -> type:
    """The type of ``entity``'s component named by ``component`` (a type, or its class or
    file name); WorldError if the entity has none."""
    from ..saving.builtins import builtin_of

    for comp in world.components_for_entity(entity):
        kind = type(comp)
        named = builtin_of(comp) or component_codec(kind)
        if component is kind or component in (kind.__name__, getattr(named, "name", None)):
            return kind
    name = getattr(component, "__name__", component)
    raise WorldError(f"entity {entity}: has no {name}")


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
