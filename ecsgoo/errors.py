"""The exceptions ecsgoo raises on purpose."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class WorldError(ValueError):
    """A world is in a bad state or was asked for something impossible.

    The message names the entity and the field, e.g.
    ``entity 12 (Particle): field x is nan``.
    """


class WorldFileError(ValueError):
    """A world file (TOML) could not be loaded or saved.

    The message names the file, and the entity and field or the line and column.
    """


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``"; did you mean suika?"`` for the one of ``known`` nearest to a mistyped ``name``
    (difflib's ratio ≥ 0.6, case ignored), else ``""``: the tail of an "unknown …" message."""
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), by_lower, n=1)
    return f"; did you mean {by_lower[close[0]]}?" if close else ""
