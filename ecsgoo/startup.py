"""A start without the garbage collector's scans.

Starting a game makes ~160,000 objects that live as long as the process: numba's types
and loaded kernels, arcade and pyglet, the level's world. CPython's cyclic collector
scans those it has seen again each time enough new ones are made, which here took
~0.2 s of a game's 1.2 s from the command to its first frame (BENCHMARKS.md,
"Start-up"). Importing ecsgoo runs with the collector ``paused()``; ``ecsgoo play``
``hold()``s it off from the command to the game's first frame, where ``settle()``
freezes what exists (``gc.freeze``: moved where no collection scans it again, so later
full collections are short too) and turns it back on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_held = False  # hold() turned the collector off and settle() has not turned it on yet


@contextmanager
def paused(keep: bool = False) -> Iterator[None]:
    """The collector off for the block, and as it was after it (nests). ``keep``: what
    exists as the block ends lives as long as the process (importing ecsgoo: numba's types,
    the kernels' modules), so it is frozen before the collector comes back on; else the
    first allocation after set off a full collection over all of it (60–70 ms of
    ``import ecsgoo`` here)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if keep:
                gc.freeze()
            gc.enable()


@contextmanager
def fewer_scans() -> Iterator[None]:
    """The collector's young generation scanned every 50,000 new objects, not every 700, for
    the block, then as it was: a compile of the kernels makes millions of objects, most of
    them kept until it ends. Measured on the rigid half of a cold compile (runs alternated):
    69–73 CPU-s against 75–77, its peak memory 771 MB against 713."""
    was = gc.get_threshold()
    gc.set_threshold(50_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*was)


def hold() -> None:
    """Turn the collector off until ``settle()`` (if it is on): a game's start, from the
    command to its first frame. A cold start settles before it compiles the kernels
    (``warmup.terminal_warm_up``, the loading screen): that makes garbage by the
    gigabyte."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def settle() -> None:
    """The first frame is up: keep what the start made out of every later scan and turn
    the collector back on, if ``hold()`` turned it off (else nothing)."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()
