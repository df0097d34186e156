"""Saving a level in another process, so the editor's window keeps drawing: ``Saver``.

A save builds the level in full and writes it checked (``ecsgoo.save``): about half a
second for a 2,000-thing level, all of it Python work that holds the interpreter. The
window's save (Ctrl+S) hands it to a worker process instead (``concurrent.futures`` with
the ``spawn`` start method, one worker, started at the first save and kept): the state
(its base's text with the pipeline, its things) and the game's name go over, the worker
builds and saves exactly as ``Editor.save`` does (``placed_world``), the window polls the
result each frame. A level whose game cannot be found by name in another process (a game
class made in a script) is saved in place, as before.

The worker writes the same bytes as ``Editor.save``: the same state built by the same code.
"""

from __future__ import annotations

from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .. import saving
from ..game import GAMES
from ..saving.placed import Placed
from ..world import World

#: What a worker needs to save a state: the game's module and name (None: no game), the
#: base's text with the level's pipeline, the things, the target path.
Job = tuple[tuple[str, str] | None, str, tuple[tuple[str, str], ...], str]


def placed_world(world: World, things: Any, counts: Any, game: str | None) -> World:
    """``world`` given the ``Placed`` record of its ``things`` (``(kind, fields)``; what
    each made in ``counts``: entities, segments, polygons) and its game's name (a level
    opened and left as it was saves as it was: no things, no record)."""
    from ..game import SavedGame

    if things:
        placed = Placed()
        for (kind, fields), (ents, nl, np_) in zip(things, counts, strict=True):
            placed.kinds.append(kind)
            placed.fields.append(fields)
            placed.entities += ents
            placed.counts.append(len(ents))
            placed.lines.append(nl)
            placed.polygons.append(np_)
        world.add_resource(placed)
        if game is not None:  # so `ecsgoo play FILE` knows its game
            world.add_resource(SavedGame(game))
    return world


def save_job(job: Job) -> str:
    """In the worker: build the job's state in full and save it; returns the path."""
    import importlib

    from .base import base_text
    from .build import Live
    from .levels import kit_of
    from .pieces import FRAMEWORK, PART

    named, staged, things, target = job
    game, name = None, None
    if named is not None:
        module, name = named
        importlib.import_module(module)  # registers the game (and its stages, components)
        game = GAMES[name]
    kit = kit_of(game)
    pieces = {p.kind: p for p in (PART, *FRAMEWORK, *kit.pieces)}
    staged_world = saving.loads(staged, "<level being saved>")
    stages = tuple(staged_world.pipeline)
    base = base_text(staged_world)
    staged_world.close()
    live = Live(pieces, kit, stages)
    world, _, _, made = live.full((base, things), check=False)
    try:
        counts = [(m.entities, len(m.lines), len(m.polygons)) for m in made]
        saving.save(placed_world(world, things, counts, name), target)
    finally:
        world.close()
        live.close()
    return target


def in_worker(game: Any) -> bool:
    """Whether a worker process finds ``game``: by importing its module (a bundled or
    installed game, one on the path; not a script's ``__main__`` nor a file loaded by
    path)."""
    import importlib.util

    if game is None:
        return True
    if GAMES.get(game.name) is not game or game.__module__ == "__main__":
        return False
    try:
        return importlib.util.find_spec(game.__module__) is not None
    except (ImportError, ValueError):
        return False


class Saver:
    """One worker process saving levels (see the module); ``start`` a save, ``poll`` it."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.job: Future[str] | None = None
        #: What the running save will have saved: the state and the target.
        self.pending: tuple[Any, Path] | None = None

    def start(self, job: Job, state: Any) -> None:
        """Save ``job`` (``state``: what the editor holds, returned by ``poll`` when done)."""
        if self._pool is None:
            import multiprocessing

            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        self.job = self._pool.submit(save_job, job)
        self.pending = (state, Path(job[3]))

    def poll(self) -> tuple[Any, Path] | None:
        """``(state, path)`` once the running save is done (its error raised: a
        WorldFileError, an OSError), None while it runs or if none runs."""
        if self.job is None or not self.job.done():
            return None
        job, done = self.job, self.pending
        self.job = self.pending = None
        job.result()
        return done

    @property
    def busy(self) -> bool:
        """Whether a save is running."""
        return self.job is not None

    def close(self) -> None:
        """Stop the worker (after the save it runs)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
