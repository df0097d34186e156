"""Headless runs: the same player with no window, N fixed steps, a bot, a PNG or a GIF.

Nothing is drawn unless a screenshot or a recording is asked for (then arcade
makes an offscreen GL context: ``ARCADE_HEADLESS=1`` must be set before arcade
is first imported, which ``ecsgoo.cli`` does). Physics runs the same fixed
1/60 s steps as in a window, without an accumulator: one step per frame.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, TextIO

from ..game import Game
from ..progress_bar import bar as _bar
from ..startup import settle
from ..warmup import terminal_warm_up
from .audio import quiet_audio
from .player import Player
from .progress import record_finished

#: A GIF holds at most this many frames (longer runs record every k-th frame).
GIF_FRAMES = 300
GIF_WIDTH = 480


def offscreen_window(size: tuple[int, int]) -> Any:
    """The process's (hidden) arcade window, resized to ``size`` (or made anew at that size
    where it cannot be resized); made on first use.

    With no display and arcade not imported yet, arcade is imported headless (offscreen
    GL), so a script needs no environment variable; arcade imported already for a
    display that is not there is a clear error."""
    quiet_audio(headless=True)  # before the first import of arcade picks the audio driver
    no_display = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if no_display and "arcade" not in sys.modules:
        os.environ.setdefault("ARCADE_HEADLESS", "1")
    elif no_display and not os.environ.get("ARCADE_HEADLESS"):
        raise RuntimeError("no display to draw on, and arcade was imported before "
                           "run_headless could make it headless: import arcade after "
                           "run_headless, or set ARCADE_HEADLESS=1 before importing it")
    import arcade

    try:
        window = arcade.get_window()
    except RuntimeError:
        window = None
    if window is not None and (window.width, window.height) != tuple(size):
        window.set_size(*size)
        if (window.width, window.height) != tuple(size):  # a headless (EGL) window keeps its size
            window.close()
            window = None
    if window is None:
        window = arcade.Window(*size, "ecsgoo", visible=False)
    return window


def screenshot(player: Player, window: Any) -> Any:
    """Draw the player's current frame and return it as an RGB PIL image."""
    import arcade

    player.draw(window)
    return arcade.get_image(0, 0, *player.size).convert("RGB")


def progress_bar(total: int, label: str, stream: TextIO | None = None,
                 after: float = 2.0) -> Any:
    """A bar of ``total`` frames on ``stream`` (stderr) that shows itself only once a run
    takes over ``after`` s: tqdm on a terminal, a few plain lines elsewhere
    (``ecsgoo.progress_bar``); ``update(n)`` it as frames finish and ``close()`` it at the end.
    """
    return _bar(total, label, "frame", stream, after)


class Recorder:
    """Collects every ``every``-th frame as a small palette image and writes an animated GIF.

    Without ``every`` it starts at every 3rd frame (GIF delays are whole centiseconds:
    multiples of 3 frames, 50 ms, play at true speed) and, whenever it holds more than
    ``GIF_FRAMES``, keeps every other image and records half as often: a run of any
    length, however early it ends, gives a true-speed GIF of at most ``GIF_FRAMES`` frames.
    """

    def __init__(self, path: str | os.PathLike, every: int | None = None) -> None:
        self.path = Path(path)
        self.fixed = every is not None
        self.every = every or 3
        self.images: list[Any] = []

    def wants(self, frame: int) -> bool:
        """Whether frame number ``frame`` (0-based) is recorded."""
        return frame % self.every == 0

    def add(self, image: Any) -> None:
        """Keep ``image`` (an RGB PIL image), shrunk and reduced to a palette."""
        from PIL import Image

        if image.width > GIF_WIDTH:
            size = (GIF_WIDTH, round(image.height * GIF_WIDTH / image.width))
            image = image.resize(size, Image.Resampling.BILINEAR)
        self.images.append(image.quantize(colors=255, method=Image.Quantize.MEDIANCUT))
        if not self.fixed and len(self.images) > GIF_FRAMES:
            self.images = self.images[::2]
            self.every *= 2

    def save(self) -> None:
        """Write the GIF (looping, at the run's speed)."""
        if not self.images:
            return
        first, *rest = self.images
        first.save(self.path, save_all=True, append_images=rest, loop=0,
                   duration=round(1000 * self.every / 60))


#: Frames a headless run goes on after the result becomes won or lost (1 s at 60 Hz).
AFTER_RESULT = 60
#: What each output kind may be written as.
SUFFIXES = {"screenshot": (".png",), "recording": (".gif",), "plot": (".png",), "csv": (".csv",)}


def check_output(path: str | os.PathLike, kind: str) -> Path:
    """Refuse an output path before the run: a known extension, an existing writable folder.

    ``kind`` is a key of ``SUFFIXES`` (``"screenshot"``, ``"recording"``…). Nothing is created: a
    probe file is opened and removed again. Raises ValueError in one line.
    """
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES[kind]:
        raise ValueError(f"{kind} {path}: the file must end in {' or '.join(SUFFIXES[kind])}")
    parent = path.parent
    if not parent.is_dir():
        raise ValueError(f"{kind} {path}: folder {parent} does not exist")
    existed = path.exists()
    if existed and not path.is_file():
        raise ValueError(f"{kind} {path}: not a regular file")
    try:
        with open(path, "ab"):
            pass
    except OSError as exc:
        raise ValueError(f"{kind} {path}: cannot write there ({exc.strerror})") from None
    if not existed:
        path.unlink(missing_ok=True)
    return path


def run_headless(game: Game, frames: int = 600, bot: str | None = None,
                 screenshot_path: str | os.PathLike | None = None,
                 record_path: str | os.PathLike | None = None,
                 progress: bool = True) -> dict[str, Any]:
    """Run ``game`` for at most ``frames`` fixed steps with no window; return the summary dict.

    The run ends early, ``AFTER_RESULT`` frames after the game's result becomes
    ``won`` or ``lost``, so the screenshot and the summary show the end of the
    game. The summary is ``{"game", "level", "frames", "result", "score",
    <game extras>}`` (the JSON line a headless ``ecsgoo play`` prints last;
    ``frames`` is the number actually run). ``screenshot_path`` gets the last
    frame as a PNG, ``record_path`` an animated GIF of the run; both are
    checked (``check_output``) before the first frame.
    """
    if frames < 0:
        raise ValueError(f"frames must be >= 0, got {frames}")
    if screenshot_path:
        check_output(screenshot_path, "screenshot")
    if record_path:
        check_output(record_path, "recording")
    if progress:
        # first run only: says on stderr that the kernels compile (what this game needs first)
        terminal_warm_up(game=game)
    player = Player(game, bot)
    player.headless = True
    player.sounds.silent = True  # the names are kept (tests read them); no driver is touched
    window = offscreen_window(player.size) if screenshot_path or record_path else None
    recorder = Recorder(record_path) if record_path else None
    bar = progress_bar(frames, f"{game.name} level {game.level}") if progress else None
    ran, end = 0, frames
    while ran < end:
        if recorder is not None and recorder.wants(ran):
            recorder.add(screenshot(player, window))
        player.step()
        settle()  # the first frame is made: the collector back on (``ecsgoo.startup``)
        ran += 1
        if end == frames and game.status().result != "running":
            end = min(frames, ran + AFTER_RESULT)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    if window is not None:
        last = screenshot(player, window)  # one drawing of the last frame serves both
        if recorder is not None:
            recorder.add(last)
            recorder.save()
        if screenshot_path:
            last.save(screenshot_path)
    record_finished(game, bot)
    return summary(game, ran)


def summary(game: Game, frames: int) -> dict[str, Any]:
    """The final JSON summary of a run: game, level, frames, then the game's status."""
    return {"game": game.name, "level": game.level, "frames": frames,
            **game.status().as_dict()}
