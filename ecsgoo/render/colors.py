"""The palette as float RGBA rows, and the stress colours of links.

Colours here are float32 ``(r, g, b, a)`` in [0, 1], the form the GPU rows
take; ``ecsgoo.look`` holds the same colours in 0..255 for people.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import fruit as _fruit
from ..look import (
    ANCHOR,
    BLUE,
    GREEN,
    GROUP_PALETTE,
    HALO,
    LEVEL_EDGE,
    LEVEL_FILL,
    PARTICLE,
    RED,
    ROPE,
    STATIC_BODY,
    YELLOW,
    rgba,
)


def table(colors: Any) -> np.ndarray:
    """Colours as float32 RGBA rows (the per-frame builders index or broadcast them)."""
    return np.array([rgba(c) for c in colors], np.float32)


FRUIT_RGBA = table(_fruit.COLORS)
GROUP_RGBA = table(GROUP_PALETTE)
HALO_RGBA, ROPE_RGBA, PARTICLE_RGBA, ANCHOR_RGBA, LEVEL_FILL_RGBA, LEVEL_EDGE_RGBA = \
    table((HALO, ROPE, PARTICLE, ANCHOR, LEVEL_FILL, LEVEL_EDGE))
STATIC_RGBA = table((STATIC_BODY,))[0]


def stress_colors(stretch: np.ndarray, max_stretch: np.ndarray) -> np.ndarray:
    """RGBA floats per spring: blue (compressed) → green (rest) → yellow → red (max_stretch).

    ``stretch`` is length / rest length (1 at rest). Green from 0.95 × rest to
    rest, blue by half the rest length; unbreakable springs (``max_stretch``
    inf) are coloured as if they broke at 2. The warm side follows the square
    root of the way to breaking, so the few per cent a loaded truss stretches
    already shows (5 % of the way is a quarter to yellow).
    """
    limit = np.where(np.isfinite(max_stretch), max_stretch, 2.0)
    warm = np.sqrt(np.clip((stretch - 1.0) / np.maximum(limit - 1.0, 1e-6), 0.0, 1.0))
    cold = np.clip((0.95 - stretch) / 0.45, 0.0, 1.0)
    # one table lookup per spring: -1 (blue) … 0 (green) … 1 (red), in 255 steps
    key = np.rint((np.where(cold > 0, -cold, warm) + 1.0) * 127.0).astype(np.intp)
    return _STRESS_TABLE[key]


def _stress_table() -> np.ndarray:
    green, yellow, red, blue = (np.array(rgba(x), np.float32) for x in (GREEN, YELLOW, RED, BLUE))
    k = np.linspace(-1.0, 1.0, 255)[:, None]
    t, c = np.clip(k, 0, 1), np.clip(-k, 0, 1)
    warm = np.where(t < 0.5, green + (yellow - green) * (2 * t),
                    yellow + (red - yellow) * (2 * t - 1))
    return np.where(k < 0, green + (blue - green) * c, warm).astype(np.float32)


_STRESS_TABLE = _stress_table()
