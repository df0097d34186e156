"""Static level geometry: packed for the kernels once per change, not once per piece."""

from __future__ import annotations

import numpy as np
import pytest

from ecsgoo import WorldError
from ecsgoo.level import Level


def test_pieces_are_packed_once_when_read(monkeypatch):
    level = Level()
    packs = []
    real = np.array
    monkeypatch.setattr(np, "array", lambda *a, **k: packs.append(1) or real(*a, **k))
    for i in range(500):
        level.add_segment((i, 0), (i + 1, 1))
    level.add_polygon([(0, 0), (10, 0), (0, 10)])
    assert packs == [], "adding does not pack"
    # segments and points, the segments' and polygons' surfaces and layers
    assert level.segments.shape == (503, 4) and len(packs) == 6
    assert level.poly_off.tolist() == [0, 3] and len(packs) == 6


def test_copies_are_independent_and_bad_pieces_refused():
    level = Level()
    level.add_segment((0, 0), (1, 1))
    twin = level.copy()
    twin.add_segment((2, 2), (3, 3))
    assert len(level.segments) == 1 and len(twin.segments) == 2
    with pytest.raises(WorldError):
        level.add_segment((0, 0), (float("nan"), 1))
    with pytest.raises(WorldError):
        level.add_polygon([(0, 0), (1, 1)])
