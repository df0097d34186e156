"""Suika's best score per level, kept between launches in one small JSON file.

The file is ``suika-best.json`` in ``ecsgoo.app.data_dir()`` (where quick saves
go), ``{"<level>": score, ...}``; it is written atomically (a temporary file in
the same folder, then ``os.replace``), so a crash mid-write leaves the old
file. A missing or unreadable file counts as no best yet and is replaced by
the next write. Kept apart so it can fold into a general progress file later.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

FILE_NAME = "suika-best.json"


def path() -> Path:
    """Where the best scores are kept (the folder may not exist yet)."""
    from ecsgoo.app import data_dir  # the app pulls in arcade: only when a score is kept

    return data_dir() / FILE_NAME


def _read() -> dict[str, int]:
    try:
        data = json.loads(path().read_text(encoding="utf-8"))
        return {str(k): int(v) for k, v in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def load(level: int) -> int:
    """The best score kept for ``level`` (0 if none, or if the file is unreadable)."""
    return _read().get(str(level), 0)


def save(level: int, score: int) -> bool:
    """Keep ``score`` as ``level``'s best if it beats the kept one; whether it was written."""
    scores = _read()
    if score <= scores.get(str(level), 0):
        return False
    scores[str(level)] = int(score)
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".suika-best-", suffix=".json", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(scores, f, sort_keys=True)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True
