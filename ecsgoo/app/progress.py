"""Progress kept between launches: best stars and score per game and level, a top-10 per game.

One small JSON file, ``<data dir>/progress.json`` (``ecsgoo.app.data_dir()``)::

    {"version": 1,
     "games": {"rope": {"levels": {"1": {"best_score": 2500, "best_stars": 3, "wins": 1}},
                        "top": [{"score": 2500, "level": 1, "date": "2026-12-01"}]}}}

Written atomically (a temporary file in the same folder, then ``os.replace``), and
merged: ``save`` takes a lock (``fcntl.flock`` on the folder), reads the file again
and applies the records made since ``load`` to what it holds, so two games recording
at once keep each other's records. A file that cannot be read or parsed, is larger than
``MAX_BYTES``, or holds anything but the shape above (every value is checked: counts
are integers in range, dates are dates) is reported in one line (``Progress.problem``,
which the launcher and ``ecsgoo list`` show), kept as ``progress.json.damaged`` and
replaced on the next save: never a crash. Only finished games are recorded (won, or lost
with a score; a suika game left mid-way counts as ended with its score);
bot runs are demos and never count (the player and headless runs skip them);
a game without stars of its own earns one star for a win.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # not on Windows: saves are not merged there
    fcntl = None  # type: ignore[assignment]

#: Scores kept per game in its top list (suika's local top-10).
TOP = 10
FILE_NAME = "progress.json"
#: Largest progress file read, bytes (a real one is a few KB).
MAX_BYTES = 1 << 20
#: Largest score, star count, win count or level number a file may hold.
MAX_COUNT = 2**53
#: Longest game name, characters.
MAX_NAME = 200


def progress_path() -> Path:
    """Where progress is kept: ``<data dir>/progress.json``."""
    from .player import data_dir

    return data_dir() / FILE_NAME


@dataclass
class Record:
    """The best a player did on one level: ``best_score`` points, ``best_stars`` stars."""

    best_score: int = 0
    best_stars: int = 0
    wins: int = 0


class Damaged(ValueError):
    """A progress file that is not what ``Progress.save`` writes (the message says why)."""


@dataclass
class Progress:
    """Every game's records; ``load`` it, ``record`` finished games, ``save`` it."""

    path: Path
    levels: dict[str, dict[int, Record]] = field(default_factory=dict)
    top: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: One line saying why the file on disk was not used ('' when it was fine or absent).
    problem: str = ""
    #: The ``record`` calls since ``load``: what ``save`` applies to the file as it is then.
    pending: list[tuple[Any, ...]] = field(default_factory=list)

    @classmethod
    def load(cls, path: str | os.PathLike | None = None) -> Progress:
        """Read ``path`` (default ``progress_path()``); a missing file is empty progress."""
        path = Path(path) if path is not None else progress_path()
        progress = cls(path)
        try:
            progress.levels, progress.top = _read(path)
        except Damaged as exc:
            progress.problem = f"progress file {path.name} is unreadable ({exc}); starting afresh"
        return progress

    def best(self, game: str, level: int) -> Record:
        """The record of ``game``'s ``level`` (zeros if never finished)."""
        return self.levels.get(game, {}).get(level, Record())

    def record(self, game: str, level: int, result: str, score: int, stars: int = 0,
               date: str | None = None) -> bool:
        """Keep a finished game (``result`` ``"won"`` or ``"lost"``); True if it set a record.

        Stars count only for a win; every finished score enters the game's top list.
        A value the file could not hold (level 0, a score past 2**53, a date that is not
        one, a name of 201 characters) is a ValueError here rather than a file every
        later ``load`` refuses.
        """
        entry = _entry(game, level, result, score, stars, date or _dt.date.today().isoformat())
        self.pending.append(entry)
        return _apply(self.levels, self.top, *entry)

    def as_dict(self) -> dict[str, Any]:
        """The file's contents."""
        return _as_dict(self.levels, self.top)

    def save(self) -> None:
        """Apply the records made since ``load`` to the file as it is now, under a lock, and
        write it atomically (temporary file, then rename); errors are not raised but kept
        in ``problem`` (progress is never worth a crash). A damaged file is kept as
        ``<name>.damaged`` before it is replaced."""
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with _locked(self.path.parent):
                try:
                    levels, top = _read(self.path)
                except Damaged:
                    levels, top = {}, {}
                    os.replace(self.path, _backup(self.path))
                for entry in self.pending:
                    _apply(levels, top, *entry)
                fd, tmp = tempfile.mkstemp(prefix=".progress-", suffix=".json",
                                           dir=self.path.parent)
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    json.dump(_as_dict(levels, top), out, indent=1)
                os.replace(tmp, self.path)
            self.levels, self.top, self.pending = levels, top, []
        except OSError as exc:
            self.problem = f"progress not saved ({exc.strerror or type(exc).__name__})"
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


def _entry(game: Any, level: Any, result: Any, score: Any, stars: Any,
           date: Any) -> tuple[str, int, str, int, int, str]:
    """One record's values, checked as ``load`` checks the file (a value ``save`` wrote
    that ``load`` refused would make the whole file unreadable), else ValueError."""
    try:
        if not isinstance(game, str) or not 0 < len(game) <= MAX_NAME:
            raise Damaged(f"game {str(game)[:20]!r} is not a name of 1..{MAX_NAME} characters")
        if result not in ("won", "lost"):
            raise Damaged(f"result {str(result)[:20]!r} is not 'won' or 'lost'")
        level = _count(_whole(level, "level"), "level", 1)
        # a negative score or star count means none (as it always did: records keep the best)
        score = _count(max(_whole(score, "score"), 0), "score")
        stars = _count(max(_whole(stars, "stars"), 0), "stars")
        return game, level, result, score, stars, _score({"score": score, "level": level,
                                                           "date": date}, game)["date"]
    except Damaged as exc:
        raise ValueError(f"Progress.record: {exc}") from None


def _whole(value: Any, what: str) -> int:
    """An integral number (numpy's, or a float such as 3.0) as an int, else Damaged."""
    try:
        out = int(value)
        whole = out == value
    except (TypeError, ValueError, OverflowError):  # None, "3", NaN, inf
        whole = False
    if not whole:
        raise Damaged(f"{what} {str(value)[:20]!r} is not a whole number")
    return out


def _backup(path: Path) -> Path:
    """Where a damaged ``path`` is kept: ``<name>.damaged`` (``.damaged-2``, … if taken)."""
    out, k = path.with_name(path.name + ".damaged"), 1
    while out.exists():
        k += 1
        out = path.with_name(f"{path.name}.damaged-{k}")
    return out


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (no other ``save`` runs meanwhile)."""
    if fcntl is None:
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _apply(levels: dict[str, dict[int, Record]], top: dict[str, list[dict[str, Any]]],
           game: str, level: int, result: str, score: int, stars: int, date: str) -> bool:
    """One finished game into ``levels`` and ``top``; True if it set a record."""
    rec = levels.setdefault(game, {}).setdefault(level, Record())
    won = result == "won"
    better = score > rec.best_score or (won and stars > rec.best_stars)
    rec.best_score = max(rec.best_score, score)
    if won:
        rec.best_stars = max(rec.best_stars, stars)
        rec.wins += 1
    if score > 0:
        scores = top.setdefault(game, [])
        scores.append({"score": score, "level": level, "date": date})
        scores.sort(key=lambda t: -t["score"])
        del scores[TOP:]
    return better


def _as_dict(levels: dict[str, dict[int, Record]],
             top: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    games = {}
    for game in sorted(set(levels) | set(top)):
        rows = {str(n): vars(r) for n, r in sorted(levels.get(game, {}).items())}
        games[game] = {"levels": rows, "top": top.get(game, [])}
    return {"version": 1, "games": games}


# -- reading, every value checked ------------------------------------------------------------

def _read(path: Path) -> tuple[dict[str, dict[int, Record]], dict[str, list[dict[str, Any]]]]:
    """The levels and top lists of ``path`` (none if it does not exist), else Damaged."""
    try:
        # non-blocking: a FIFO put there would hang every game's start and `ecsgoo list`
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise Damaged("not a regular file")
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return {}, {}
    except OSError as exc:
        raise Damaged(exc.strerror or type(exc).__name__) from None
    if len(data) > MAX_BYTES:
        raise Damaged(f"larger than {MAX_BYTES} bytes")
    try:
        doc = json.loads(data.decode("utf-8"))
    except RecursionError:
        raise Damaged("nested too deeply") from None
    except ValueError as exc:  # JSON syntax, UTF-8, an integer of 4,300 digits
        raise Damaged(type(exc).__name__) from None
    games = _field(_table(doc, "the file"), "games", dict)
    levels, top = {}, {}
    for game, entry in games.items():
        if not game or len(game) > MAX_NAME:
            raise Damaged(f"a game name of {len(game)} characters")
        entry = _table(entry, game)
        levels[game] = {_count(n, "level", 1): _record(r, game)
                        for n, r in _field(entry, "levels", dict, {}).items()}
        top[game] = [_score(t, game) for t in _field(entry, "top", list, [])[:TOP]]
    return levels, top


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Damaged(f"{where} is not an object")
    return value


def _field(table: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = table.get(key, default)
    if not isinstance(value, kind):
        raise Damaged(f"{key} is not {'an object' if kind is dict else 'a list'}")
    return value


def _count(value: Any, what: str, low: int = 0) -> int:
    """An integer in ``low..MAX_COUNT`` (a level's key may be its decimal text)."""
    if isinstance(value, str) and value.isdecimal() and len(value) <= 16:
        value = int(value)
    if type(value) is not int or not low <= value <= MAX_COUNT:
        raise Damaged(f"{what} {str(value)[:20]!r} is not an integer in {low}..{MAX_COUNT}")
    return value


def _record(value: Any, game: str) -> Record:
    r = _table(value, f"a level of {game}")
    return Record(*(_count(r.get(k, 0), k) for k in ("best_score", "best_stars", "wins")))


def _score(value: Any, game: str) -> dict[str, Any]:
    t = _table(value, f"a top score of {game}")
    date = t.get("date")
    try:
        _dt.date.fromisoformat(date)
    except (TypeError, ValueError):
        raise Damaged(f"date {str(date)[:20]!r} is not a date") from None
    return {"score": _count(t.get("score"), "score"), "level": _count(t.get("level"), "level", 1),
            "date": date}


def record_finished(game: Any, bot: str | None = None, unfinished: bool = False
                    ) -> Progress | None:
    """Record ``game``'s finished status in the progress file (not for bots: they are demos).

    ``unfinished``: the player left a running game whose score counts anyway
    (``Game.counts_unfinished``): it is recorded as ended, if it scored.
    Returns the saved progress, or None when nothing was recorded.
    """
    status = game.status()
    if unfinished and status.result == "running" and status.score > 0:
        status = type(status)("lost", status.score, status.extra)
    if bot is not None or status.result not in ("won", "lost"):
        return None
    if getattr(game, "custom_source", None) is not None:
        return None  # a user's own level, a play-test: not the bundled level's progress
    import sys

    progress = Progress.load()
    if progress.problem:
        print(f"ecsgoo: {progress.problem}", file=sys.stderr)
    # a game without stars of its own earns one for a win
    stars = status.extra.get("stars", 1 if status.result == "won" else 0)
    try:
        progress.record(game.name, game.level, status.result, status.score, stars or 0)
    except ValueError as exc:  # progress is never worth a crash
        print(f"ecsgoo: progress not recorded ({exc})", file=sys.stderr)
        return None
    progress.save()
    return progress


def listing(games: dict[str, Any], progress: Progress) -> dict[str, Any]:
    """``ecsgoo list --json``: ``{"games": [{"name", "levels": [{"level", "title",
    "best_score", "best_stars"}]}]}`` (plus each game's ``top`` scores)."""
    out = []
    for name, cls in games.items():
        levels = [{"level": n, "title": title, "best_score": progress.best(name, n).best_score,
                   "best_stars": progress.best(name, n).best_stars}
                  for n, title in enumerate(cls.levels, 1)]
        out.append({"name": name, "title": cls.title, "levels": levels,
                    "top": progress.top.get(name, [])})
    return {"games": out}
