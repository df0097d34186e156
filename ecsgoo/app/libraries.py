"""Shared-library lookups answered once per machine state, not once per run.

pyglet asks ``ctypes.util.find_library`` for every library it loads (GL, EGL, gdk,
freetype, harfbuzz, fontconfig) and, as ``pyglet.media`` is imported, for FFmpeg's, which
most machines lack. Each lookup runs ``ldconfig -p``, and one that finds nothing runs
``gcc`` and ``ld`` too: ~54 ms of goo's ~1.05 s warm start here, 37 of them for FFmpeg.

The answers change only when the system's libraries do, and installing or removing one
rewrites ``/etc/ld.so.cache`` (``ldconfig``, which every package manager runs). So the
answers are kept in the user's cache folder (``answers_file``) with a stamp of that file,
the search paths in the environment and the Python that looked (``stamp``); a run whose
stamp differs looks everything up again. Where there is no ``ld.so.cache`` (macOS,
Windows: lookups there read a few folders and start no process) answers are kept for the
process only. A file that cannot be read or written is the same as none.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import json
import os
import sys
from pathlib import Path

#: The system's record of its libraries: its stamp says whether kept answers still hold.
LD_CACHE = "/etc/ld.so.cache"


def answers_file() -> Path:
    """Where the answers are kept: ``libraries.json`` in ecsgoo's user cache folder
    (``$XDG_CACHE_HOME/ecsgoo``, by default ``~/.cache/ecsgoo`` on Linux)."""
    import platformdirs

    return platformdirs.user_cache_path("ecsgoo", appauthor=False) / "libraries.json"


def stamp() -> list | None:
    """What the answers depend on: ``ld.so.cache``'s size, time and inode, the
    environment's search paths and this Python; None where there is no ``ld.so.cache``."""
    try:
        st = os.stat(LD_CACHE)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino, os.environ.get("LD_LIBRARY_PATH", ""),
            os.environ.get("LIBRARY_PATH", ""), sys.version, sys.platform]


def remember_lookups(path: Path | None = None) -> None:
    """Make ``ctypes.util.find_library(name)`` answer a name looked up before from what it
    answered then: in this process, and where the machine's libraries have not changed
    since (``stamp``), in any run, from ``path`` (default ``answers_file()``). Once per
    process; later calls leave the installed lookup as it is."""
    found = ctypes.util.find_library
    if getattr(found, "_ecsgoo", False):
        return
    mark = stamp()
    if mark is not None and path is None:
        try:
            path = answers_file()
        except Exception:  # noqa: BLE001 - no user folder to be found: this process only
            mark = None
    answers = _read(path, mark) if mark is not None else {}

    def find_library(name: str) -> str | None:
        if name not in answers:
            answers[name] = found(name)
            if mark is not None:
                _write(path, mark, answers)
        return answers[name]

    find_library._ecsgoo = True  # type: ignore[attr-defined]
    ctypes.util.find_library = find_library


def _read(path: Path, mark: list) -> dict[str, str | None]:
    """The answers kept in ``path`` under the stamp ``mark``; none if it differs, or if the
    file is missing or not ours."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        answers = kept["answers"] if kept["stamp"] == mark else {}
        if all(isinstance(k, str) and (v is None or isinstance(v, str))
               for k, v in answers.items()):
            return dict(answers)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return {}


def _write(path: Path, mark: list, answers: dict[str, str | None]) -> None:
    """Keep ``answers`` in ``path`` (written aside, then moved over it: a reader never sees
    half a file); a folder that refuses it is left alone, with nothing written aside."""
    aside = path.with_name(f"{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        aside.write_text(json.dumps({"stamp": mark, "answers": answers}), encoding="utf-8")
        os.replace(aside, path)
    except OSError:
        with contextlib.suppress(OSError):
            aside.unlink(missing_ok=True)
