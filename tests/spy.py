"""A function's calls watched: what each returned, the function itself still doing the work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def returns(owner: Any, name: str) -> Iterator[list[Any]]:
    """Within the block, ``owner.name`` (a module's function) records what each call
    returns into the list given; restored after."""
    seen: list[Any] = []
    real = getattr(owner, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(real(*args, **kwargs))
        return seen[-1]

    setattr(owner, name, spy)
    try:
        yield seen
    finally:
        setattr(owner, name, real)
