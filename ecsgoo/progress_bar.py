"""Progress on a stream: one line redrawn in place on a terminal, a few whole lines elsewhere.

A tqdm bar redraws itself with ``\\r`` up to ten times a second. On a terminal that is
one line that changes; written into a pipe or a file (CI's log, a program or a test
reading stderr) it is thousands of updates on one line, mixed into whatever else the
stream carries (an error message, seen). So ``bar`` gives tqdm a terminal only, and
anywhere else a ``Lines``: at most ``STEPS`` plain lines, one as each quarter is done.
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any, TextIO

#: Lines a ``Lines`` writes at most (one at each quarter).
STEPS = 4


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (a closed or odd stream is not)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Lines:
    """A counter like tqdm's (``update``, ``close``, ``with``) that writes a whole line as it
    passes each of ``steps`` equal parts of ``total`` — ``label: 50/100 frames, 1.2 s
    (41 frame/s)`` — once ``delay`` seconds have gone by (parts passed sooner say nothing)."""

    def __init__(self, total: int, desc: str, unit: str, file: TextIO,
                 delay: float = 0.0, steps: int = STEPS) -> None:
        self.total, self.desc, self.unit, self.file = total, desc, unit, file
        self.delay, self.steps = delay, steps
        self.n = 0
        self.start = time.monotonic()
        self._part = 0  # parts already passed (told or not)

    def update(self, n: int = 1) -> None:
        """Count ``n`` more done; write a line if that passes a part."""
        self.n += n
        part = min(self.steps, self.n * self.steps // self.total) if self.total > 0 else 0
        if part > self._part:
            self._part = part
            elapsed = time.monotonic() - self.start
            if elapsed >= self.delay:
                rate = self.n / elapsed if elapsed > 0 else float("inf")
                self.file.write(f"{self.desc}: {self.n}/{self.total} {self.unit}s, "
                                f"{elapsed:.1f} s ({rate:.0f} {self.unit}/s)\n")
                self.file.flush()

    def close(self) -> None:
        """Nothing left to write (the last part wrote its line)."""

    def __enter__(self) -> Lines:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: A line ``Lines`` writes (``label: 50/100 frames, 1.2 s (41 frame/s)``).
_LINE = re.compile(r".*: \d+/\d+ \w+s, \d+\.\d s \((\d+|inf) \w+/s\)")


def is_progress(line: str) -> bool:
    """Whether ``line`` is one that ``Lines`` wrote (what reads a stream that may carry
    progress skips it)."""
    return _LINE.fullmatch(line.strip()) is not None


def bar(total: int, desc: str, unit: str, stream: TextIO | None = None,
        delay: float = 0.0) -> Any:
    """A tqdm bar of ``total`` ``unit``s on ``stream`` (stderr) if it is a terminal, else
    ``Lines``; either shows itself only once ``delay`` s have gone by."""
    stream = stream or sys.stderr
    if not is_terminal(stream):
        return Lines(total, desc, unit, stream, delay)
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=stream, delay=delay,
                dynamic_ncols=True)
