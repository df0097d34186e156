"""The fixed-step accumulator: wall-clock frame times in, whole 1/60 s physics steps out."""

from __future__ import annotations


class Accumulator:
    """Turns variable frame times into a whole number of fixed steps of ``dt`` seconds.

    Rendering is decoupled from physics: a 144 Hz display steps the physics on
    roughly every other frame, a 30 Hz one twice per frame. After a stall (a
    window drag, a slow frame) at most ``max_steps`` steps run and the rest of
    the backlog is dropped, so the game slows down for a moment instead of
    falling further behind every frame (the "spiral of death").
    """

    def __init__(self, dt: float = 1 / 60, max_steps: int = 5) -> None:
        if not dt > 0 or max_steps < 1:
            raise ValueError(f"Accumulator: need dt > 0 and max_steps >= 1, got {dt}, {max_steps}")
        self.dt, self.max_steps = dt, max_steps
        self.time = 0.0
        #: Steps dropped so far because a frame took too long.
        self.dropped = 0

    def advance(self, elapsed: float) -> int:
        """Add ``elapsed`` seconds of wall time; return how many steps to run now."""
        self.time += max(float(elapsed), 0.0)
        # a hair of tolerance so that 60 frames of 1/60 s make exactly 60 steps
        steps = int((self.time + 1e-6 * self.dt) // self.dt)
        if steps > self.max_steps:
            self.dropped += steps - self.max_steps
            self.time = 0.0
            return self.max_steps
        self.time = max(self.time - steps * self.dt, 0.0)
        return steps

    def reset(self) -> None:
        """Forget the time carried over (after a pause: no burst of catch-up steps)."""
        self.time = 0.0

    @property
    def alpha(self) -> float:
        """How far into the next step the display is, in [0, 1) (for interpolation)."""
        return self.time / self.dt
