"""Cut the Rope on ecsgoo (``ecsgoo play rope``); importing this registers the game."""

from .game import RopeGame

__all__ = ["RopeGame"]
