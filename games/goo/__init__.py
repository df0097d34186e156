"""World of Goo on ecsgoo (``ecsgoo play goo``); importing this registers the game."""

from .game import GooGame

__all__ = ["GooGame"]
