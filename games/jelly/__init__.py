"""jelly: the soft-body playground (importing this registers the game)."""

from .game import JellyGame

__all__ = ["JellyGame"]
