"""The level editor on a 2,000-thing level: opening, an edit, saving, and the window's
frame (``EditorView`` draw + update, headless GL) idle, during a drag, right after an
edit, while a save runs (in the worker process) and over an editing session (an edit
every 10 frames).

Times are CPU time, not wall time (the machine is shared): ``main`` is the calling
thread's (``time.thread_time``: Python and the GL calls), ``all`` the process's
(``time.process_time``: with a software renderer, its rasterizer threads too — a
full-window picture costs them ~9 ms a frame here). Rates are 1000 / ms.

Run alone with ``python tools/bench.py editor``. Targets: an edit with the frame that
shows it < 20 ms; the window at >= 30 fps opening, editing and saving.
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


def _cpu() -> tuple[float, float]:
    return time.thread_time(), time.process_time()


def _since(t: tuple[float, float]) -> tuple[float, float]:
    """ms of CPU since ``t``: (this thread, the process)."""
    main, every = _cpu()
    return (main - t[0]) * 1000, (every - t[1]) * 1000


def _frames(view, window, frames: int = 60) -> tuple[float, float]:
    """Median CPU ms of a frame (main, all)."""
    mains, alls = [], []
    for _ in range(frames):
        t = _cpu()
        view.update(1 / 60)
        view.draw(window)
        window.ctx.finish()
        main, every = _since(t)
        mains.append(main)
        alls.append(every)
    return statistics.median(mains), statistics.median(alls)


def _edits(ed, view, window, n: int = 20) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median CPU ms (main, all) of an edit alone (a move of one thing, each time
    another), and of an edit with the frame that shows it."""
    alone, shown = [], []
    for k in range(n):
        t = _cpu()
        ed.move(5.0 if k % 2 == 0 else -5.0, 0.0, things=[(k * 37) % THINGS])
        alone.append(_since(t))
        view.draw(window)
        window.ctx.finish()
        shown.append(_since(t))
    return (tuple(statistics.median(x[i] for x in alone) for i in (0, 1)),
            tuple(statistics.median(x[i] for x in shown) for i in (0, 1)))


def _session(ed, view, window, frames: int = 120, every: int = 10) -> float:
    """Frames per CPU second (the process's) with an edit every ``every`` frames."""
    t = _cpu()
    for k in range(frames):
        if k % every == 0:
            ed.move(1.0 if k % (2 * every) == 0 else -1.0, 0.0, things=[k % THINGS])
        view.update(1 / 60)
        view.draw(window)
        window.ctx.finish()
    return frames / (_since(t)[1] / 1000)


def _saving(ed, view, window, path: str) -> tuple[float, float, int, float]:
    """The window while its save runs in the worker: the median and worst CPU ms (all) of
    a frame, how many frames, and the worker's wall time (s)."""
    ed.path = __import__("pathlib").Path(path)
    view.key("s", ctrl=True)
    assert view.saver.busy
    times, start = [], time.perf_counter()
    while view.saver.busy:
        t = _cpu()
        view.update(1 / 60)
        view.draw(window)
        window.ctx.finish()
        times.append(_since(t)[1])
        time.sleep(1 / 120)
    took = time.perf_counter() - start
    assert not ed.dirty, view.message
    return statistics.median(times), max(times), len(times), took


def bench_editor() -> list[tuple[str, str, str]]:
    """Rows: open, an edit (move), undo, save, the frame idle, dragging, right after an edit
    and while saving, and an editing session's frame rate (CPU times)."""
    from ecsgoo.app.headless import offscreen_window
    from ecsgoo.editor import Editor
    from ecsgoo.editor.view import EditorView
    from ecsgoo.editor.window import editor_size

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.toml")
        _level(path)
        t = _cpu()
        ed = Editor(path)
        opened = _since(t)[1]
        size = editor_size(ed)
        window = offscreen_window(size)
        view = EditorView(ed, size)
        t = _cpu()
        view.draw(window)
        window.ctx.finish()
        first = _since(t)[1]
        idle = _frames(view, window)
        edit, shown = _edits(ed, view, window)
        t = _cpu()
        ed.undo()
        undo = _since(t)[0]
        session = _session(ed, view, window)
        t = _cpu()
        ed.save(os.path.join(tmp, "saved.toml"))
        saved = _since(t)[0]
        view.key("s", ctrl=True)  # the worker's first save starts it (its imports)
        while view.saver.busy:
            view.update(1 / 60)
            time.sleep(0.05)
        ed.move(1.0, 0.0, things=[0])
        median, worst, frames, took = _saving(ed, view, window, os.path.join(tmp, "bg.toml"))
        view.saver.close()
        ed.select(0)
        f = view.fit()
        sx, sy = f.to_screen(ed.fields(0)["x"], ed.fields(0)["y"])
        view.press(sx, sy)
        view.drag_to(sx + 40, sy + 20)
        dragging = _frames(view, window)
        view.release(sx + 40, sy + 20)
    n = f"{THINGS}-thing level"

    def ms(pair: tuple[float, float]) -> str:
        return f"{pair[0]:.1f} ms main, {pair[1]:.1f} ms all"

    return [
        (f"editor: open a {n} (CPU)", f"{opened / 1000:.2f} s", ""),
        (f"editor: the window's first frame, {n} (CPU)", f"{first:.0f} ms", ""),
        (f"editor: one edit (move one thing) of a {n}", ms(edit), ""),
        (f"editor: that edit and the frame showing it, {n}", ms(shown), "< 20 ms"),
        (f"editor: undo on a {n}", f"{undo:.1f} ms main", ""),
        (f"editor: save a {n} in place (Editor.save, built in full)", f"{saved:.0f} ms main",
         ""),
        (f"editor: the window while Ctrl+S saves a {n} (worker process)",
         f"frames {median:.1f} ms all (worst {worst:.1f}), {frames} frames in {took:.2f} s",
         ">= 30 fps"),
        (f"editor: window frame, {n}, idle", ms(idle), ">= 30 fps"),
        (f"editor: window frame, {n}, dragging", ms(dragging), ">= 30 fps"),
        (f"editor: editing a {n}, an edit every 10 frames",
         f"{session:.0f} frames per CPU s (all)", ">= 30 fps"),
    ]


if __name__ == "__main__":
    for row in bench_editor():
        print(" | ".join(row))
