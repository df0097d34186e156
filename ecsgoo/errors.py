"""The exceptions ecsgoo raises on purpose."""

from __future__ import annotations


class WorldError(ValueError):
    """A world is in a bad state or was asked for something impossible.

    The message names the entity and the field, e.g.
    ``entity 12 (Particle): field x is nan``.
    """


class WorldFileError(ValueError):
    """A world file (TOML) could not be loaded or saved.

    The message names the file, and the entity and field or the line and column.
    """
