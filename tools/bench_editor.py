"""The level editor on a 2,000-thing level: opening, an edit, saving, and the window's
frame (``EditorView`` draw + update, headless GL) idle, during a drag, right after an
edit, and over an editing session (an edit every 10 frames).

Run alone with ``python tools/bench.py editor``. Target: the window at >= 30 fps.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")

#: Things in the level: rigid boxes, particles, level segments and jelly boxes.
THINGS = 2000


def _level(path: str) -> None:
    from ecsgoo.editor import Editor

    ed = Editor("jelly")
    things = []
    for k in range(THINGS):
        x, y = 20 + (k % 50) * 15.5, 20 + (k // 50) * 14.0
        kind = ("rigid_box", "particle", "segment", "rigid_circle")[k % 4]
        fields = {"x": x, "y": y}
        if kind == "rigid_box":
            fields.update(width=10.0, height=10.0)
        elif kind == "rigid_circle":
            fields.update(radius=5.0)
        elif kind == "particle":
            fields.update(radius=4.0)
        else:
            fields.update(to=[x + 10.0, y])
        things.append((kind, fields))
    ed.place_many(things)
    ed.save(path)


def _frames(view, window, frames: int = 60) -> float:
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        view.update(1 / 60)
        view.draw(window)
        window.ctx.finish()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def _edits(ed, view, window, n: int = 12) -> tuple[float, float]:
    """Median ms of an edit alone (a move of one thing, each time another), and of an
    edit with the frame that shows it."""
    alone, shown = [], []
    for k in range(n):
        t0 = time.perf_counter()
        ed.move(5.0 if k % 2 == 0 else -5.0, 0.0, things=[(k * 37) % THINGS])
        t1 = time.perf_counter()
        view.draw(window)
        window.ctx.finish()
        alone.append(t1 - t0)
        shown.append(time.perf_counter() - t0)
    return statistics.median(alone) * 1000, statistics.median(shown) * 1000


def _session(ed, view, window, frames: int = 120, every: int = 10) -> float:
    """Frames per second over ``frames`` frames with an edit every ``every`` frames."""
    t0 = time.perf_counter()
    for k in range(frames):
        if k % every == 0:
            ed.move(1.0 if k % (2 * every) == 0 else -1.0, 0.0, things=[k % THINGS])
        view.update(1 / 60)
        view.draw(window)
        window.ctx.finish()
    return frames / (time.perf_counter() - t0)


def bench_editor() -> list[tuple[str, str, str]]:
    """Rows: open, an edit (move), undo, save (s), the frame idle, dragging and right after
    an edit (ms), and an editing session's frame rate."""
    from ecsgoo.app.headless import offscreen_window
    from ecsgoo.editor import Editor
    from ecsgoo.editor.view import EditorView
    from ecsgoo.editor.window import editor_size

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.toml")
        _level(path)
        t0 = time.perf_counter()
        ed = Editor(path)
        opened = time.perf_counter() - t0
        size = editor_size(ed)
        window = offscreen_window(size)
        view = EditorView(ed, size)
        idle = _frames(view, window)
        edit, shown = _edits(ed, view, window)
        t0 = time.perf_counter()
        ed.undo()
        undo = time.perf_counter() - t0
        session = _session(ed, view, window)
        t0 = time.perf_counter()
        ed.save(os.path.join(tmp, "saved.toml"))
        saved = time.perf_counter() - t0
        ed.select(0)
        f = view.fit()
        sx, sy = f.to_screen(ed.fields(0)["x"], ed.fields(0)["y"])
        view.press(sx, sy)
        view.drag_to(sx + 40, sy + 20)
        dragging = _frames(view, window)
        view.release(sx + 40, sy + 20)
    n = f"{THINGS}-thing level"
    return [
        (f"editor: open a {n}", f"{opened:.2f} s", ""),
        (f"editor: one edit (move one thing) of a {n}", f"{edit:.0f} ms", ""),
        (f"editor: that edit and the frame showing it, {n}", f"{shown:.0f} ms", ""),
        (f"editor: undo on a {n}", f"{undo * 1000:.0f} ms", ""),
        (f"editor: save a {n} (built in full)", f"{saved * 1000:.0f} ms", ""),
        (f"editor: window frame, {n}, idle", f"{idle:.1f} ms ({1000 / idle:.0f} fps)",
         ">= 30 fps"),
        (f"editor: window frame, {n}, dragging", f"{dragging:.1f} ms "
         f"({1000 / dragging:.0f} fps)", ">= 30 fps"),
        (f"editor: editing a {n}, an edit every 10 frames", f"{session:.0f} fps", ">= 30 fps"),
    ]


if __name__ == "__main__":
    for row in bench_editor():
        print(" | ".join(row))
