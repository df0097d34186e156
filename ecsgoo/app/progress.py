"""Progress kept between launches: best stars and score per game and level, a top-10 per game.

One small JSON file, ``<data dir>/progress.json`` (``ecsgoo.app.data_dir()``)::

    {"version": 1,
     "games": {"rope": {"levels": {"1": {"best_score": 2500, "best_stars": 3, "wins": 1}},
                        "top": [{"score": 2500, "level": 1, "date": "2026-12-01"}]}}}

Written atomically (a temporary file in the same folder, then ``os.replace``).
A file that cannot be read or parsed is reported in one line (``Progress.problem``,
which the launcher and ``ecsgoo list`` show) and replaced on the next save:
never a crash. Only finished games are recorded (won, or lost with a score; a suika game left
mid-way counts as ended with its score);
bot runs are demos and never count (the player and headless runs skip them);
a game without stars of its own earns one star for a win.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Scores kept per game in its top list (suika's local top-10).
TOP = 10
FILE_NAME = "progress.json"


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


@dataclass
class Progress:
    """Every game's records; ``load`` it, ``record`` finished games, ``save`` it."""

    path: Path
    levels: dict[str, dict[int, Record]] = field(default_factory=dict)
    top: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: One line saying why the file on disk was not used ('' when it was fine or absent).
    problem: str = ""

    @classmethod
    def load(cls, path: str | os.PathLike | None = None) -> Progress:
        """Read ``path`` (default ``progress_path()``); a missing file is empty progress."""
        path = Path(path) if path is not None else progress_path()
        progress = cls(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            for game, entry in data["games"].items():
                progress.levels[game] = {int(n): Record(int(r.get("best_score", 0)),
                                                        int(r.get("best_stars", 0)),
                                                        int(r.get("wins", 0)))
                                         for n, r in entry.get("levels", {}).items()}
                progress.top[game] = [{"score": int(t["score"]), "level": int(t["level"]),
                                       "date": str(t["date"])} for t in entry.get("top", [])]
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            progress.levels, progress.top = {}, {}
            progress.problem = (f"progress file {path.name} is unreadable "
                                f"({type(exc).__name__}); starting afresh")
        return progress

    def best(self, game: str, level: int) -> Record:
        """The record of ``game``'s ``level`` (zeros if never finished)."""
        return self.levels.get(game, {}).get(level, Record())

    def record(self, game: str, level: int, result: str, score: int, stars: int = 0,
               date: str | None = None) -> bool:
        """Keep a finished game (``result`` ``"won"`` or ``"lost"``); True if it set a record.

        Stars count only for a win; every finished score enters the game's top list.
        """
        rec = self.levels.setdefault(game, {}).setdefault(level, Record())
        won = result == "won"
        better = score > rec.best_score or (won and stars > rec.best_stars)
        rec.best_score = max(rec.best_score, int(score))
        if won:
            rec.best_stars = max(rec.best_stars, int(stars))
            rec.wins += 1
        if score > 0:
            top = self.top.setdefault(game, [])
            top.append({"score": int(score), "level": int(level),
                        "date": date or _dt.date.today().isoformat()})
            top.sort(key=lambda t: -t["score"])
            del top[TOP:]
        return better

    def as_dict(self) -> dict[str, Any]:
        """The file's contents."""
        games = {}
        for game in sorted(set(self.levels) | set(self.top)):
            levels = {str(n): vars(r) for n, r in sorted(self.levels.get(game, {}).items())}
            games[game] = {"levels": levels, "top": self.top.get(game, [])}
        return {"version": 1, "games": games}

    def save(self) -> None:
        """Write the file atomically (temporary file, then rename); errors are not raised
        but kept in ``problem`` (progress is never worth a crash)."""
        tmp = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".progress-", suffix=".json", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.as_dict(), out, indent=1)
            os.replace(tmp, self.path)
        except OSError as exc:
            self.problem = f"progress not saved ({exc.strerror or type(exc).__name__})"
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)


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
    progress = Progress.load()
    if progress.problem:
        import sys

        print(f"ecsgoo: {progress.problem}", file=sys.stderr)
    # a game without stars of its own earns one for a win
    stars = status.extra.get("stars", 1 if status.result == "won" else 0)
    progress.record(game.name, game.level, status.result, int(status.score), int(stars or 0))
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
