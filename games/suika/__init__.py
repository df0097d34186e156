"""Suika (merge watermelon); importing this package registers the game (``ecsgoo play suika``)."""

from .game import Suika

__all__ = ["Suika"]
