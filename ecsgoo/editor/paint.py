"""What the editor window's still picture shows, region by region, and what an edit
repaints: ``keys``, ``paint``.

The picture (``editor.still``) has five regions: the level, the tool strip, the property
panel, the top band and the footer. Each has a key of what it shows (``keys``); a region
whose key changed is painted again under a scissor, the others are left as they are.
Within the level, an edit repaints only the boxes of the things it changed (the things
whose ``Built`` is new, before and after) and of the overlay's shapes that changed (the
overlay is recorded and compared: ``editor.overlay``), grown by ``MARGIN`` screen px; a
new world, a new size, the grid toggled, or a thing whose piece reads the world coming
or going (a rope, a spring, a hinge, a game's piece: what they tie to may be drawn
otherwise, as a chain of springs drawn as a rope) repaints the whole level. Painting the level of
a 2,000-thing level whole costs about 40 ms of CPU with a software renderer; an edit of
one thing repaints a box of a few dozen pixels.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from ..app.buttons import draw_buttons
from ..render import Fit, Render
from . import overlay
from .build import Built
from .layout import FOOT, GRID_LINES, PANEL, STRIP, TOP

#: Screen px added round each changed box (outlines, antialiasing, a joint's ring).
MARGIN = 8.0
_BG = (22, 26, 42)
_BAND = (14, 16, 28, 255)
_TEXT = (230, 234, 246)
_DIM = (150, 158, 184)
_TOOL_ON = (230, 180, 60, 255)
_LIT_ROW = (58, 76, 122, 235)
_SENSOR = (120, 200, 255, 110)
#: About how wide a character of the title (12 pt bold) and of a message (11 pt) is, px.
_HEAD_PX, _MESSAGE_PX = 7.6, 6.4
#: A rectangle in window px: ``(x, y, w, h)``.
Rect = tuple[float, float, float, float]


@dataclass(repr=False)
class Painted:
    """What the picture's level was last painted from: the things' ``Built`` and the
    overlay's recorded calls (compared at the next edit), and the game drawing the
    overlay."""

    built: list[Built] = field(default_factory=list)
    calls: list[overlay.Call] | None = None
    #: The level's rectangle painted last (window px; None: nothing changed there).
    rect: Rect | None = None
    #: The ids of the painted ``Built`` of things whose piece reads the world.
    readers: set[int] = field(default_factory=set)
    game: Any = None
    game_of: Any = None


def regions(view: Any) -> dict[str, Rect]:
    """Each region's rectangle, window px (they do not overlap)."""
    w, h = view.size

    return {"level": view.area(), "strip": (0, FOOT, STRIP, h - TOP - FOOT),
            "panel": (w - PANEL, FOOT, PANEL, h - TOP - FOOT), "top": (0, h - TOP, w, TOP),
            "foot": (0, 0, w, FOOT)}


def keys(view: Any) -> dict[str, Hashable]:
    """What each region shows: it is painted again when its key changes."""
    ed = view.editor
    text, until, color = view.message
    message = (text, color) if text and time.monotonic() < until else None
    strip_lit = panel_lit = None
    if view.pointer is not None:
        strip_lit = next((b.action for b in view.tools() if b.contains(*view.pointer)), None)
        boxes = [b for _, _, b in view.panel_rows()]
        if view.prompt is not None:
            boxes += view.prompt.buttons(view.panel_rect())
        panel_lit = next((b.action for b in boxes if b.contains(*view.pointer)), None)
    return {
        "level": (view.size, id(ed.world), ed.version, view.snap),
        "strip": (view.size, view.tool, view.snap, strip_lit),
        "panel": (view.size, ed.version, tuple(ed.selection), view.editing,
                  view.prompt is not None, panel_lit),
        "top": (view.size, ed.dirty, ed.path, ed.problem, message),
        "foot": (view.size,),
    }


def paint(view: Any, window: Any, changed: dict[str, Hashable]) -> None:
    """Paint the ``changed`` regions (each with its previous key) into the active
    framebuffer: the level's changed boxes, the bands whole."""
    from ..app.player import _draw_for

    k = window.get_framebuffer_size()[0] / max(window.width, 1)
    rects = regions(view)
    if "level" in changed:
        _paint_level(view, window, changed["level"], k)
    window.default_camera.use()
    d = _draw_for(window, "screen")
    d.set_pixel(1.0)
    for name, draw in (("strip", _strip), ("panel", _panel), ("top", _top), ("foot", _foot)):
        if name in changed:
            scissor = _scissor(rects[name], k)
            window.ctx.scissor = scissor
            window.ctx.active_framebuffer.clear(color=_BAND, viewport=scissor)
            draw(view, d)
            d.flush()
    window.ctx.scissor = None


def _scissor(rect: Rect, k: float) -> tuple[int, int, int, int]:
    """A window-px rectangle as framebuffer px, grown to whole pixels."""
    x, y, w, h = rect
    x0, y0 = math.floor(k * x), math.floor(k * y)
    return (x0, y0, max(math.ceil(k * (x + w)) - x0, 0), max(math.ceil(k * (y + h)) - y0, 0))


# -- the level -----------------------------------------------------------------------------

def _paint_level(view: Any, window: Any, before: Hashable | None, k: float) -> None:
    """Paint the level's changed boxes (all of it after a new world, size or grid)."""
    from ..app.player import _draw_for

    ed = view.editor
    world = ed.world
    game = _overlay_game(view)
    wd = _draw_for(window, "world")
    calls = overlay.record(game, wd) if game is not None else []
    render = Render.of(world)
    now = (view.size, id(world), ed.version, view.snap)
    whole = (before is None or view._fit is None
             or before[:2] != now[:2] or before[3:] != now[3:])
    rect = view.area() if whole else _changed_rect(view, view.fit(), calls)
    view.painted.built, view.painted.calls, view.painted.rect = list(ed.built), calls, rect
    view.painted.readers = _readers(view)
    if rect is None:
        return
    scissor = _scissor(rect, k)
    window.ctx.active_framebuffer.clear(color=_BG, viewport=scissor)
    f = render.draw(world, window, view._game_size(), view.area(), clip=scissor)
    view._fit = f
    wd.set_pixel(1.0 / f.scale)
    overlay.replay(calls, wd)
    _sensors(world, wd, 1.0 / f.scale)
    wd.flush()
    window.default_camera.use()
    window.ctx.scissor = scissor
    sd = _draw_for(window, "screen")
    sd.set_pixel(1.0)
    _grid(view, sd, f)
    sd.flush()


def _sensors(world: Any, d: Any, px: float) -> None:
    """Each sensor's outline, faint (the game draws none: a level maker sees them here)."""
    from ..sensors import Sensor
    from .parts import sensor_corners

    for _, sensor in world.get_component(Sensor):
        if sensor.kind == "circle" and sensor.on is None:
            d.circle_outline(sensor.x, sensor.y, sensor.radius, _SENSOR, 1.5 * px)
        elif sensor.kind == "polygon" and sensor.on is None:
            d.polyline([*sensor.points, sensor.points[0]], _SENSOR, 1.5 * px)
        else:  # a box, or one on an entity: its bounds placed in that entity's frame
            pts = [(x, y) for x, y, _ in sensor_corners(world, sensor)]
            if pts:
                d.polyline([*pts, pts[0]], _SENSOR, 1.5 * px)


def _readers(view: Any) -> set[int]:
    """The ids of the ``Built`` of things whose piece reads the world (they tie to what is
    there: their coming or going may change how other things are drawn, as a chain of
    springs drawn as a rope)."""
    ed = view.editor
    return {id(b) for t, b in enumerate(ed.built)
            if t >= ed.parts and ed.piece(ed.kind(t)).reads}


def _changed_rect(view: Any, f: Fit, calls: list[overlay.Call]) -> Rect | None:
    """The window rectangle round what the last edit changed (None: nothing; the whole
    level if a thing that reads the world came or went)."""
    before, now = view.painted.built, view.editor.built
    kept = {id(b) for b in now}
    old_ids = {id(b) for b in before}
    readers = view.painted.readers | _readers(view)
    changed = [b for b in before if id(b) not in kept] + [b for b in now
                                                           if id(b) not in old_ids]
    if any(id(b) in readers for b in changed):
        return view.area()
    gone = Counter((b.entities, b.box) for b in before if id(b) not in kept)
    came = Counter((b.entities, b.box) for b in now if id(b) not in old_ids)
    boxes = [box for _, box in (gone - came) + (came - gone)]
    drawn = overlay.changed_boxes(view.painted.calls, calls)
    if drawn is None:
        return view.area()
    boxes += drawn
    if not boxes:
        return None
    corners = [f.to_screen(x, y) for x0, y0, x1, y1 in boxes for x, y in ((x0, y0), (x1, y1))]
    ax, ay, aw, ah = view.area()
    x0 = max(min(c[0] for c in corners) - MARGIN, ax)
    y0 = max(min(c[1] for c in corners) - MARGIN, ay)
    x1 = min(max(c[0] for c in corners) + MARGIN, ax + aw)
    y1 = min(max(c[1] for c in corners) + MARGIN, ay + ah)
    if x1 <= x0 or y1 <= y0:
        return None
    return (x0, y0, x1 - x0, y1 - y0)


def _overlay_game(view: Any) -> Any:
    """A game drawing the level's own overlay (stars, pipe, Om Nom…), made once from the
    level's base (its full text only if the base is not a level the game loads), then
    shown the live world itself: its ``world`` is set (which wires the game's handlers; the
    editor's world never steps, so none runs), never ``adopt`` (a game's adopt may add to
    the world it is given), and the overlay only reads it. Nothing is copied per edit (a
    copy of a 2,000-thing world cost 19 ms an edit)."""
    ed, painted = view.editor, view.painted
    if ed.game is None:
        return None
    base = ed._state[0]
    if painted.game is None and painted.game_of != base:
        painted.game_of = base  # tried once per base: a base the game refuses stays bare
        for text in (lambda: base, ed.text):
            try:
                painted.game = ed.game.custom_level(text=text())
            except Exception:  # noqa: BLE001 - a level a game cannot play yet: no overlay
                continue
            painted.game.world.close()  # its own: from now on it shows the editor's
            break
    game = painted.game
    if game is not None and game.world is not ed.world:
        game.world = ed.world
    return game


def _grid(view: Any, d: Any, f: Fit) -> None:
    """Faint lines every ``GRID_LINES`` px over the level while snapping is on."""

    if not view.snap:
        return
    ax, ay, aw, ah = view.area()
    x0, y0 = f.to_world(ax, ay)
    x1, y1 = f.to_world(ax + aw, ay + ah)
    color = (255, 255, 255, 22)
    gx = math.ceil(x0 / GRID_LINES) * GRID_LINES
    while gx <= x1:
        sx = f.to_screen(gx, 0)[0]
        d.line(sx, ay, sx, ay + ah, color, 1)
        gx += GRID_LINES
    gy = math.ceil(y0 / GRID_LINES) * GRID_LINES
    while gy <= y1:
        sy = f.to_screen(0, gy)[1]
        d.line(ax, sy, ax + aw, sy, color, 1)
        gy += GRID_LINES


# -- the bands -----------------------------------------------------------------------------

def _top(view: Any, d: Any) -> None:
    """The title (what is edited, whether it has unsaved edits) and the message."""
    w, h = view.size
    ed = view.editor
    title = ed.game.title if ed.game is not None else "world"
    where = (ed.path.name if ed.path is not None
             else f"{ed.opened} (^S saves to your levels)")
    head = f"editing · {title} · {where}" + (" · edited" if ed.dirty else "")
    d.text(10, h - 22, head, _TEXT, 12, bold=True)
    room = int((w - 40 - len(head) * _HEAD_PX) / _MESSAGE_PX)  # what fits to its right
    text, until, color = view.message
    if not (text and time.monotonic() < until) and ed.problem:
        text, until, color = f"to save: {ed.problem}", math.inf, _DIM
    if text and time.monotonic() < until and room > 8:
        d.text(w - 12, h - 22, clip(text, room), color, 11, anchor_x="right")


def _strip(view: Any, d: Any) -> None:
    """The tool strip, the chosen tool lit."""
    buttons = view.tools()
    chosen = f"tool:{view.tool}"
    for b in buttons:
        if b.action == chosen:
            d.rect(b.x - 2, b.y - 2, b.w + 4, b.h + 4, _TOOL_ON)
    draw_buttons(d, buttons, view.pointer, size=9)


def _foot(view: Any, d: Any) -> None:
    d.text(8, 6, "click select · drag move · dot turn · corner size · Q/E turn · "
           "+/- size · ^D copy · Del · G grid · ^Z/^Y · ^S save · Space play · Esc back",
           _DIM, 10)


def _panel(view: Any, d: Any) -> None:
    """The property panel: the selection's fields, or the level's settings (or the
    unsaved-changes question in its place)."""

    if view.prompt is not None:
        view.prompt.draw(d, view.panel_rect(), view.pointer)
        return
    w, h = view.size
    ed = view.editor
    x = w - PANEL + 8
    hint = "click a field, type, Enter"
    if len(ed.selection) == 1:
        t = ed.selection[0]
        head = f"{ed.title(t).split(' (')[0]} (#{t})"
        if t < ed.parts:  # a part of the opened level: say what it holds
            head, hint = f"opened part #{t}", ed.title(t).split(": ", 1)[1]
    elif ed.selection:
        head, hint = f"{len(ed.selection)} things selected", "drag, turn or copy them together"
    else:
        head = "level settings"
    d.text(x, h - TOP - 22, clip(head, 30), _TEXT, 12, bold=True)
    d.text(x, h - TOP - 38, clip(hint, 38), _DIM, 9)
    for name, value, box in view.panel_rows():
        editing = view.editing is not None and view.editing[0] == name
        lit = view.pointer is not None and box.contains(*view.pointer)
        if editing or lit:
            d.rect(box.x, box.y, box.w, box.h, _LIT_ROW)
        d.text(box.x + 4, box.y + 5, clip(name, 22), _DIM, 9)
        shown = view.editing[1] + "▏" if editing else show(value)
        d.text(box.x + box.w - 4, box.y + 5, clip(shown, 18), _TEXT, 9, anchor_x="right")


def show(value: Any) -> str:
    """A field's value as the panel shows it."""
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return json.dumps(value if len(json.dumps(value)) < 18 else f"[{len(value)} points]")
    return str(value).lower() if isinstance(value, bool) else str(value)


def clip(text: str, n: int) -> str:
    """``text`` cut to ``n`` characters (an ellipsis says so)."""
    return text if len(text) <= n else text[: n - 1] + "…"
