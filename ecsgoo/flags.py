"""Asking a column of flags whether any is set, cheaply.

``ndarray.any()`` goes through numpy's general reduction: ~1.15 µs a call on 500 flags
here, where ``np.count_nonzero`` takes 0.18 µs. A frame asks a handful of such questions
(anything watched for contact events, asleep, frozen, kinematic, pinned), whatever the
world's size: for a small or resting world they were a large share of the frame.

Whether anything is watched for contact events is asked two to four times a frame; the
answer is kept until a row comes or goes or an ``events`` flag is written (``watched``).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def any_set(flags: np.ndarray) -> bool:
    """Whether any of ``flags`` is set (non-zero): ``flags.any()``, faster."""
    return np.count_nonzero(flags) > 0


def watched(table: Any) -> bool:
    """Whether any of ``table``'s rows has its ``events`` flag set (``watched_count``)."""
    return watched_count(table) > 0


def watched_count(table: Any) -> int:
    """How many of ``table``'s rows have their ``events`` flag set, kept until the table's
    rows or its flags change (``Table.version``, ``Table.watch_version``)."""
    key = (table.version, table.watch_version)
    kept = table._watched
    if kept[0] == key:
        return kept[1]
    count = int(np.count_nonzero(table.events))
    table._watched = (key, count)
    return count
