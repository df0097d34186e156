"""Asking a column of flags whether any is set, cheaply.

``ndarray.any()`` goes through numpy's general reduction: ~1.15 µs a call on 500 flags
here, where ``np.count_nonzero`` takes 0.18 µs. A frame asks a handful of such questions
(anything watched for contact events, asleep, frozen, kinematic, pinned), whatever the
world's size: for a small or resting world they were a large share of the frame.
"""

from __future__ import annotations

import numpy as np


def any_set(flags: np.ndarray) -> bool:
    """Whether any of ``flags`` is set (non-zero): ``flags.any()``, faster."""
    return np.count_nonzero(flags) > 0
