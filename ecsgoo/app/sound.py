"""Sound effects: world events and ``Game.sound(name)`` calls mapped to short WAVs.

The WAVs in ``sounds/`` are made by ``tools/make_sounds.py`` (numpy, no downloaded
assets). The player hooks a ``Sounds`` onto each world it plays: the events in
``EVENTS`` and the game's own ``sound`` events (``Game.sound``) play through
arcade. M mutes. Headless runs get pyglet's silent driver (``audio.quiet_audio``),
so playing costs nothing and makes no noise; the names played are kept in
``played`` either way (tests read it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SOUND_DIR = Path(__file__).with_name("sounds")
#: The effects shipped (``sounds/<name>.wav``).
SOUNDS = ("attach", "snap", "cut", "star", "eat", "drop", "merge", "win", "lose", "grab",
          "fling", "land")
#: World events that make a sound by themselves: event name → sound name.
EVENTS = {"spring_broke": "snap", "spring_cut": "cut", "star_collected": "star",
          "candy_eaten": "eat", "fruits_merged": "merge"}
VOLUME = 0.5


def merge_pitch(kind: int) -> float:
    """Playback speed of a merge of two fruits of ``kind``: rises a semitone-and-a-half per kind."""
    return 2.0 ** (1.5 * int(kind) / 12)


class Sounds:
    """Plays effects by name; ``muted`` silences them. Loaded lazily, once per process."""

    _loaded: dict[str, Any] = {}

    def __init__(self, muted: bool = False, silent: bool | None = None) -> None:
        self.muted = muted
        #: Headless (default: ``ARCADE_HEADLESS`` is set): keep the names, never touch the
        #: audio driver (nor import arcade for it).
        self.silent = bool(os.environ.get("ARCADE_HEADLESS")) if silent is None else silent
        #: ``(name, pitch)`` of every effect asked for, muted or not (most recent last).
        self.played: list[tuple[str, float]] = []
        self._world: Any = None

    def play(self, name: str, pitch: float = 1.0) -> None:
        """Play effect ``name`` at ``pitch`` (playback speed, 1 = as recorded)."""
        if name not in SOUNDS:
            raise ValueError(f"no sound named {name!r} (sounds: {', '.join(SOUNDS)})")
        self.played.append((name, pitch))
        del self.played[:-64]
        if self.muted or self.silent:
            return
        import arcade

        sound = self._loaded.get(name)
        if sound is None:
            sound = self._loaded[name] = arcade.load_sound(SOUND_DIR / f"{name}.wav")
        arcade.play_sound(sound, volume=VOLUME, speed=pitch)

    def toggle_mute(self) -> bool:
        """M: mute or unmute; returns whether now muted."""
        self.muted = not self.muted
        return self.muted

    def hook(self, world: Any) -> None:
        """Listen to ``world``'s events (once per world)."""
        if world is self._world:
            return
        self._world = world
        for event, name in EVENTS.items():
            world.set_handler(event, self._on_event(name))
        world.set_handler("sound", self._on_sound)

    def _on_event(self, name: str) -> Any:
        def handler(world: Any, *args: Any) -> None:
            if world is not self._world:  # a look-ahead copy (bots, previews) stays quiet
                return
            kind = getattr(args[0], "kind", None) if args else None
            self.play(name, merge_pitch(kind) if name == "merge" and kind is not None else 1.0)
        return handler

    def _on_sound(self, world: Any, name: str, pitch: float = 1.0) -> None:
        if world is self._world:
            self.play(name, pitch)
