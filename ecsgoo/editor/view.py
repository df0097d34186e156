"""The level editor on screen: ``EditorView``, what ``ecsgoo edit`` shows and how the mouse
and keys drive ``Editor``.

It owns no window (``ecsgoo.editor.window`` forwards a window's events; a headless run
draws it into an offscreen one), and draws with the player's ``Draw`` in window pixels:

- a **tool strip** on the left: *select*, then every piece (the framework's, then the
  game's), then undo, redo, grid, save and play;
- the **level** in the middle, drawn by the Render stage and the game's own overlay;
- a **property panel** on the right: the selected thing's fields (click one, type,
  Enter), or the level's settings when nothing is selected; a refused value shows the
  field's own message.

Mouse: with *select*, click a thing (Shift adds), drag it to move, drag from empty space
for a box; a selected thing has a turn handle (the dot above it) and a size handle (its
top-right corner). With a piece, click to place it; pieces with a second point (ropes,
chains, springs, segments, the goo pipe) are dragged from one end to the other;
polygons are drawn point by point (click each, Enter or a right click closes). Keys:
Ctrl+Z / Ctrl+Y undo / redo, Ctrl+S save, Ctrl+D duplicate, Delete, Q / E turn 15°,
+ / - scale, arrows nudge, G grid snap, Space play-test (B its bot, Esc back), Esc leaves
(with unsaved edits it asks first: ``editor.prompt``).

Every thing of the level can be selected, a bundled level's too: what an opened file
holds comes as parts (``editor.parts``), moved, turned, copied and deleted like the
things placed here.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from ..app.buttons import Button, hit
from ..errors import WorldError
from ..render import Fit, Render, fit
from . import paint
from .core import Editor
from .layout import FOOT, GRID, GRID_LINES, PANEL, STRIP, TOP  # noqa: F401 (names of view)
from .prompt import LeavePrompt
from .saver import Saver
from .still import Still

#: How far (screen px) from a handle a press takes it.
HANDLE = 9.0
_TEXT = (230, 234, 246)
_DIM = (150, 158, 184)
_SEL = (90, 220, 255)
_GHOST = (255, 220, 90)
_ERR = (255, 130, 120)
_OK = (140, 230, 150)
_WARN = (255, 196, 90)
_ROW_H = 20


class EditorView:
    """The editor's screen for ``editor`` in a window of ``size`` px (see the module)."""

    def __init__(self, editor: Editor, size: tuple[int, int] = (1240, 700)) -> None:
        self.editor = editor
        self.size = size
        self.tool = "select"
        self.snap = True
        self.drag: tuple[Any, ...] | None = None
        self.outline: list[tuple[float, float]] = []  # a polygon being drawn
        self.pointer: tuple[float, float] | None = None
        self.editing: tuple[str, str] | None = None  # (field, text typed so far)
        self.message = ("", 0.0, _TEXT)
        self.player: Any = None  # the play-test, while it runs
        self.on_leave: Any = None  # what Esc does (a window closes, the launcher goes back)
        self.prompt: LeavePrompt | None = None  # the unsaved-changes question, while asked
        self._fit: Fit | None = None
        #: What the picture's level was painted from (``editor.paint``).
        self.painted = paint.Painted()
        #: The window's picture, kept while nothing it shows changes.
        self.still = Still()
        #: Saves the level in a worker process (Ctrl+S), so the window keeps drawing.
        self.saver = Saver()

    # -- geometry ---------------------------------------------------------------------

    def area(self) -> tuple[float, float, float, float]:
        """The window rectangle the level is drawn into ``(x, y, w, h)``."""
        w, h = self.size
        return (STRIP, FOOT, w - STRIP - PANEL, h - TOP - FOOT)

    def fit(self) -> Fit:
        """The camera fit of the level into ``area()``."""
        world = self.editor.world
        render = Render.of(world)
        size = self._game_size()
        return fit(render.view_rect(world, size), *self.size, self.area())

    def _game_size(self) -> tuple[int, int]:
        game = self.editor.game
        return tuple(game.size) if game is not None else (800, 600)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """Window pixel → world px."""
        return self.fit().to_world(sx, sy)

    def snapped(self, x: float, y: float) -> tuple[float, float]:
        """``(x, y)`` on the grid when snapping is on."""
        if not self.snap:
            return round(x, 1), round(y, 1)
        return round(x / GRID) * GRID, round(y / GRID) * GRID

    # -- tools and panel ----------------------------------------------------------------

    def tools(self) -> list[Button]:
        """The tool strip: select, each piece (the framework's, then the game's), then the
        commands; the pieces' rows close up (to 15 px) when a game brings many, so they
        end above the commands."""
        h = self.size[1]
        pieces = self.editor.placeable()
        gaps = sum(1 for a, b in zip(["framework", *(p.group for p in pieces)],
                                     (p.group for p in pieces), strict=False) if a != b)
        room = (h - TOP - 26) - (FOOT + 6 + 23 * 5 + 4) - 8 * gaps  # above the commands
        step = max(15.0, min(21.0, room / max(len(pieces), 1)))
        rows = [Button("select", "tool:select", 6, h - TOP - 26, STRIP - 12, 19)]
        y, group = h - TOP - 26, "framework"
        for p in pieces:
            y -= step + (8 if p.group != group else 0)  # a gap before the game's own
            group = p.group
            rows.append(Button(_label(p.title), f"tool:{p.kind}", 6, y, STRIP - 12, step - 2))
        cmds = [("undo", "undo", "^Z"), ("redo", "redo", "^Y"),
                ("grid " + ("on" if self.snap else "off"), "grid", "G"),
                ("save", "save", "^S"), ("play-test", "play", "Space")]
        rows += [Button(label, action, 6, FOOT + 6 + 23 * (len(cmds) - 1 - k), STRIP - 12, 20,
                        key) for k, (label, action, key) in enumerate(cmds)]
        return rows

    def panel_rows(self) -> list[tuple[str, Any, Button]]:
        """The property panel's rows: ``(field, value, its box)``."""
        w, h = self.size
        ed = self.editor
        if len(ed.selection) == 1:
            t = ed.selection[0]
            values = ed.fields(t)
            names = [f.name for f in ed.piece(ed.kind(t)).all_fields()]
        else:
            values = ed.level_fields() if not ed.selection else {}
            names = list(values)
        x = w - PANEL + 6
        return [(name, values[name], Button(name, f"field:{name}", x, h - TOP - 48 - (k + 1)
                                            * _ROW_H, PANEL - 12, _ROW_H - 2))
                for k, name in enumerate(names) if name in values]

    # -- input ------------------------------------------------------------------------

    def press(self, sx: float, sy: float, button: int = 1, shift: bool = False) -> None:
        """A press at window pixel ``(sx, sy)``."""
        if self.player is not None:
            self.player.press(sx, sy, button)
            return
        if self.prompt is not None:
            self.prompt.press(sx, sy, self.panel_rect())
            self._prompt_answered()
            return
        self.pointer = (sx, sy)
        action = hit(self.tools(), sx, sy)
        if action is not None:
            self.command(action)
            return
        for name, value, box in self.panel_rows():
            if box.contains(sx, sy):
                self._begin_edit(name, value)
                return
        ax, ay, aw, ah = self.area()
        if not (ax <= sx <= ax + aw and ay <= sy <= ay + ah):
            return
        x, y = self.to_world(sx, sy)
        self.editing = None
        if self.tool == "select":
            self._press_select(sx, sy, x, y, shift)
        elif button == 4 and self.outline:  # right click: close the outline
            self._close_outline()
        else:
            self._press_place(x, y)

    def _press_select(self, sx: float, sy: float, x: float, y: float, shift: bool) -> None:
        ed = self.editor
        handle = self._handle_at(sx, sy)
        if handle is not None:
            kind, (cx, cy) = handle
            start = math.atan2(y - cy, x - cx) if kind == "rotate" else math.hypot(x - cx,
                                                                                  y - cy)
            self.drag = (kind, (cx, cy), start, (x, y))
            return
        t = ed.thing_at(x, y, slack=4.0 / self.fit().scale)
        if t is None:
            if not shift:
                ed.select()
            self.drag = ("box", (x, y), (x, y))
            return
        if t not in ed.selection:
            ed.select(t, add=shift)
        self.drag = ("move", (x, y), (x, y))

    def _press_place(self, x: float, y: float) -> None:
        piece = self.editor.piece(self.tool)
        x, y = self.snapped(x, y)
        roles = {f.role for f in piece.fields}
        if "outline" in roles:
            self.outline.append((x, y))
            if len(self.outline) == 1:
                self.say("click each point of the outline; Enter or a right click closes it")
        elif "point" in roles:
            self.drag = ("line", (x, y), (x, y))
        else:
            self._do(lambda: self.editor.place(self.tool, x=x, y=y), f"placed {piece.title}")

    def move(self, sx: float, sy: float) -> None:
        """The pointer moved (not pressed)."""
        self.pointer = (sx, sy)
        if self.player is not None:
            self.player.move(sx, sy)

    def drag_to(self, sx: float, sy: float) -> None:
        """The pointer moved while pressed."""
        self.pointer = (sx, sy)
        if self.player is not None:
            self.player.drag(sx, sy)
            return
        if self.drag is not None:
            self.drag = (*self.drag[:-1], self.to_world(sx, sy))

    def release(self, sx: float, sy: float, button: int = 1, shift: bool = False) -> None:
        """The pointer released: ends a move, a box, a turn, a resize or a drawn line."""
        if self.player is not None:
            self.player.release(sx, sy, button)
            return
        if self.drag is None:
            return
        kind, *rest = self.drag
        self.drag = None
        x, y = self.to_world(sx, sy)
        ed = self.editor
        if kind == "move":
            (x0, y0), _ = rest
            dx, dy = self._snapped_offset(x - x0, y - y0)
            if dx or dy:
                self._do(lambda: ed.move(dx, dy), "moved")
        elif kind == "box":
            (x0, y0), _ = rest
            if abs(x - x0) + abs(y - y0) > 2.0 / self.fit().scale:
                ed.select_box(x0, y0, x, y, add=shift)
        elif kind == "rotate":
            (cx, cy), start, _ = rest
            angle = math.atan2(y - cy, x - cx) - start
            if self.snap:
                angle = round(math.degrees(angle) / 15) * math.radians(15)
            if angle:
                self._do(lambda: ed.rotate(angle, about=(cx, cy)), "turned")
        elif kind == "scale":
            (cx, cy), start, _ = rest
            factor = math.hypot(x - cx, y - cy) / max(start, 1e-6)
            if self.snap:
                factor = max(round(factor * 10) / 10, 0.1)
            if factor > 0 and abs(factor - 1) > 1e-9:
                self._do(lambda: ed.scale(factor, about=(cx, cy)), f"scaled ×{factor:g}")
        elif kind == "line":
            (x0, y0), _ = rest
            x1, y1 = self.snapped(x, y)
            piece = ed.piece(self.tool)
            second = next(f.name for f in piece.fields if f.role == "point")
            self._do(lambda: ed.place(self.tool, x=x0, y=y0, **{second: [x1, y1]}),
                     f"placed {piece.title}")

    def _snapped_offset(self, dx: float, dy: float) -> tuple[float, float]:
        """A move's offset that puts the first selected thing on the grid (when snapping)."""
        ed = self.editor
        if not ed.selection:
            return 0.0, 0.0
        f = ed.fields(ed.selection[0])
        nx, ny = self.snapped(f["x"] + dx, f["y"] + dy)
        return nx - f["x"], ny - f["y"]

    def _close_outline(self) -> None:
        pts, self.outline = self.outline, []
        if len(pts) < 3:
            self.say("an outline needs at least 3 points", _ERR)
            return
        cx, cy = self.snapped(sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        rel = [[px - cx, py - cy] for px, py in pts]
        field = next(f.name for f in self.editor.piece(self.tool).fields if f.role == "outline")
        self._do(lambda: self.editor.place(self.tool, x=cx, y=cy, **{field: rel}),
                 "placed " + self.editor.piece(self.tool).title)

    def key(self, name: str, ctrl: bool = False, shift: bool = False) -> None:
        """A key, by name (``"z"``, ``"space"``, ``"escape"``…), with Ctrl / Shift held."""
        if self.player is not None:
            self._test_key(name)
            return
        if self.prompt is not None:
            self.prompt.key(name)
            self._prompt_answered()
            return
        if self.editing is not None:
            self._edit_key(name)
            return
        ed = self.editor
        if ctrl and name == "z":
            self.command("undo")
        elif ctrl and name == "y":
            self.command("redo")
        elif ctrl and name == "s":
            self.command("save")
        elif ctrl and name == "d":
            self._do(lambda: ed.duplicate(GRID * 2, -GRID * 2), "duplicated")
        elif name in ("delete", "backspace") and ed.selection:
            self._do(ed.delete, "deleted")
        elif name in ("q", "e") and ed.selection:
            angle = math.radians(15 if name == "q" else -15)
            self._do(lambda: ed.rotate(angle), "turned")
        elif name in ("plus", "equal", "num_add", "minus", "num_subtract") and ed.selection:
            factor = 1.1 if name in ("plus", "equal", "num_add") else 1 / 1.1
            self._do(lambda: ed.scale(factor), "scaled")
        elif name in ("left", "right", "up", "down") and ed.selection:
            step = GRID if self.snap else 1.0
            dx = {"left": -step, "right": step}.get(name, 0.0)
            dy = {"down": -step, "up": step}.get(name, 0.0)
            self._do(lambda: ed.move(dx, dy), "moved")
        elif name == "g":
            self.command("grid")
        elif name == "space":
            self.command("play")
        elif name in ("return", "enter") and self.outline:
            self._close_outline()
        elif name == "escape":
            if self.outline or self.tool != "select":
                self.outline, self.tool = [], "select"
            elif ed.selection:
                ed.select()
            elif self.on_leave is not None:
                self.leave()

    def text(self, typed: str) -> None:
        """Characters typed (into the field being edited)."""
        if self.editing is not None and typed.isprintable():
            name, buf = self.editing
            self.editing = (name, buf + typed)

    def command(self, action: str) -> None:
        """A tool strip action: ``tool:KIND``, ``undo``, ``redo``, ``grid``, ``save``,
        ``play``."""
        ed = self.editor
        self.outline = []
        if action.startswith("tool:"):
            self.tool = action[5:]
            if self.tool != "select":
                self.say(f"{ed.piece(self.tool).title}: click in the level to place it")
        elif action == "undo":
            self.say("undone" if ed.undo() else "nothing to undo")
        elif action == "redo":
            self.say("redone" if ed.redo() else "nothing to redo")
        elif action == "grid":
            self.snap = not self.snap
            self.say(f"grid snap {'on' if self.snap else 'off'} (G)")
        elif action == "save":
            self.save()
        elif action == "play":
            self.play_test()

    def save(self, wait: bool = False) -> bool:
        """Ctrl+S: save the level into the user's levels, in a worker process so the window
        keeps drawing (``editor.saver``; ``wait``: here and now, as leaving does); says
        where, or why not. True if it saved or started saving."""
        if self.saver.busy:
            self.say("still saving the last save…", _WARN)
            return False
        try:
            job = None if wait else self.editor.save_job()
            if job is None:
                path = self.editor.save()
            else:
                self.saver.start(*job)
                self.say("saving…", _DIM, 60.0)
                return True
        except (WorldError, OSError, ValueError) as exc:
            self.say(f"not saved: {exc}", _ERR, 6.0)
            return False
        self.say(f"saved {path}", _OK, 6.0)
        return True

    def _saving(self) -> None:
        """A save in the worker finished: the level is its file (or says why not)."""
        try:
            done = self.saver.poll()
        except Exception as exc:  # noqa: BLE001 - the worker's error, said in the window
            self.say(f"not saved: {exc}", _ERR, 6.0)
            return
        if done is not None:
            state, path = done
            self.editor.saved_as(state, path, given=False)
            self.say(f"saved {path}", _OK, 6.0)

    # -- leaving ------------------------------------------------------------------------

    def leave(self, then: Any = None, why: str = "leave the editor") -> None:
        """Leave (``then``, default ``on_leave``): at once if every edit is saved, else
        after asking (save / discard / cancel)."""
        then = then if then is not None else self.on_leave
        if not self.editor.dirty:
            then()
            return
        self.editing, self.outline, self.drag = None, [], None
        self.prompt = LeavePrompt(then, lambda: self.save(wait=True), why)
        self.say("unsaved changes: save (S) · discard (D) · keep editing (Esc)", _WARN, 3600.0)

    def _prompt_answered(self) -> None:
        if self.prompt is not None and self.prompt.done:
            self.prompt = None
            if self.message[2] == _WARN:
                self.say("")

    def panel_rect(self) -> tuple[float, float, float, float]:
        """The property panel's rectangle ``(x, y, w, h)``, window px."""
        w, h = self.size
        return (w - PANEL, FOOT, PANEL, h - TOP - FOOT)

    # -- the property panel -------------------------------------------------------------

    def _begin_edit(self, name: str, value: Any) -> None:
        """A click on a field: a switch flips, a choice takes the next one, else typing."""
        if isinstance(value, bool):
            self._set(name, not value)
            return
        choices = self._choices(name)
        if choices:
            self._set(name, choices[(choices.index(value) + 1) % len(choices)]
                      if value in choices else choices[0])
            return
        self.editing = (name, "")

    def _choices(self, name: str) -> list[Any]:
        """The values a field of the one selected thing may take, if it is a choice."""
        ed = self.editor
        if len(ed.selection) != 1 or ed.selection[0] < ed.parts:
            return []
        check = ed.piece(ed.kind(ed.selection[0])).field(name).check
        return list(check) if isinstance(check, list) else []

    def _edit_key(self, name: str) -> None:
        field, buf = self.editing
        if name in ("return", "enter", "num_enter"):
            self.editing = None
            if buf:
                self._set(field, _parse(buf))
        elif name == "escape":
            self.editing = None
        elif name == "backspace":
            self.editing = (field, buf[:-1])

    def _set(self, field: str, value: Any) -> None:
        ed = self.editor
        if len(ed.selection) == 1:
            self._do(lambda: ed.set(field, value), f"{field} = {value}")
        elif not ed.selection:
            self._do(lambda: ed.set_level(field, value), f"{field} = {value}")

    # -- play-testing -------------------------------------------------------------------

    def play_test(self) -> None:
        """Space: play the level as it stands (B its bot; Esc back to the edit)."""
        from ..app.player import Player

        try:
            game = self.editor.play_test()
        except (LookupError, WorldError, ValueError) as exc:
            self.say(f"cannot play: {exc}", _ERR, 6.0)
            return
        self.player = Player(game, None, size=self.size)
        self.player.on_menu = self.stop_test
        self.player.say("play-test: B lets the bot play · Esc back to the edit", 5.0)

    def stop_test(self) -> None:
        """Back to the edit, exactly as it was before playing (the test played a copy)."""
        if self.player is not None:
            self.player.headless = True  # a test's win is not the bundled level's progress
            self.player = None
            self.say("back to the edit")

    def _test_key(self, name: str) -> None:
        game = self.player.game
        if name == "escape":
            self.stop_test()
        elif name == "b" and "b" not in game.keys and game.bots:
            self.player.bot = None if self.player.bot else game.bots[0]
            self.player.say(f"bot {'on: ' + game.bots[0] if self.player.bot else 'off'}")
        else:
            self.player.key(name)

    def update(self, elapsed: float) -> None:
        """Time passed: a save in the worker is looked at, the play-test steps (the edit
        itself does not run)."""
        if self.saver.busy:
            self._saving()
        if self.player is not None:
            self.player.size = self.size
            self.player.update(elapsed)

    # -- messages ------------------------------------------------------------------------

    def say(self, text: str, color: Any = _TEXT, seconds: float = 4.0) -> None:
        """Show ``text`` in the top band for a few seconds."""
        self.message = (text, time.monotonic() + seconds, color)

    def _do(self, op: Any, done: str) -> None:
        """Run an editor operation; say it was done, or why it was refused."""
        try:
            op()
        except (WorldError, ValueError) as exc:
            self.say(" ".join(str(exc).split()), _ERR, 8.0)
        else:
            self.say(done)

    # -- drawing ------------------------------------------------------------------------

    def draw(self, window: Any) -> None:
        """Draw one frame into ``window``: the still picture (painted again only when what
        it shows changed: ``still``), then what follows the pointer."""
        from ..app.player import _draw_for

        if self.player is not None:
            self.player.draw(window)
            self.still.forget()
            return
        self.still.show(window, paint.keys(self), lambda changed: paint.paint(self, window,
                                                                             changed))
        window.default_camera.use()
        live = _draw_for(window, "editor-live")
        live.set_pixel(1.0)
        k = window.get_framebuffer_size()[0] / max(window.width, 1)
        ax, ay, aw, ah = self.area()
        window.ctx.scissor = tuple(int(round(k * v)) for v in (ax, ay, aw, ah))
        self._draw_selection(live, self._fit)
        live.flush()
        window.ctx.scissor = None

    def _boxes(self, f: Fit, things: list[int]) -> list[tuple[float, float, float, float]]:
        out = []
        for t in things:
            x0, y0, x1, y1 = self.editor.built[t].box
            (a, b), (c, e) = f.to_screen(x0, y0), f.to_screen(x1, y1)
            out.append((a - 3, b - 3, c + 3, e + 3))
        return out

    def _handles(self, f: Fit) -> dict[str, tuple[float, float]]:
        """The single selection's handles, screen px: its turn dot and its size corner (a
        part of the opened level has no size corner)."""
        if len(self.editor.selection) != 1:
            return {}
        (x0, y0, x1, y1), = self._boxes(f, self.editor.selection)
        if self.editor.selection[0] < self.editor.parts:  # a part is turned, not sized
            return {"rotate": ((x0 + x1) / 2, y1 + 16)}
        return {"rotate": ((x0 + x1) / 2, y1 + 16), "scale": (x1, y1)}

    def _handle_at(self, sx: float, sy: float) -> tuple[str, tuple[float, float]] | None:
        f = self.fit()
        for kind, (hx, hy) in self._handles(f).items():
            if math.hypot(sx - hx, sy - hy) <= HANDLE:
                t = self.editor.selection[0]
                values = self.editor.fields(t)
                return kind, (values["x"], values["y"])
        return None

    def _draw_selection(self, d: Any, f: Fit) -> None:
        ed = self.editor
        for x0, y0, x1, y1 in self._boxes(f, ed.selection):
            d.polyline([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], _SEL, 1.5)
        for kind, (hx, hy) in self._handles(f).items():
            if kind == "rotate":
                (x0, y0, x1, y1), = self._boxes(f, ed.selection)
                d.line((x0 + x1) / 2, y1, hx, hy, _SEL, 1)
                d.circle(hx, hy, 5, _SEL)
            else:
                d.rect(hx - 4, hy - 4, 8, 8, _SEL)
        if self.drag is not None and self.pointer is not None:
            kind, *rest = self.drag
            now = rest[-1]
            if kind == "move":
                dx, dy = self._snapped_offset(now[0] - rest[0][0], now[1] - rest[0][1])
                for x0, y0, x1, y1 in self._boxes(f, ed.selection):
                    ox, oy = dx * f.scale, dy * f.scale
                    d.polyline([(x0 + ox, y0 + oy), (x1 + ox, y0 + oy), (x1 + ox, y1 + oy),
                                (x0 + ox, y1 + oy), (x0 + ox, y0 + oy)], _GHOST, 1.5)
            elif kind == "box":
                (a, b), (c, e) = f.to_screen(*rest[0]), f.to_screen(*now)
                d.polyline([(a, b), (c, b), (c, e), (a, e), (a, b)], _GHOST, 1)
            elif kind == "line":
                (a, b), (c, e) = f.to_screen(*rest[0]), f.to_screen(*self.snapped(*now))
                d.line(a, b, c, e, _GHOST, 2)
            else:
                (a, b), (c, e) = f.to_screen(*rest[0]), f.to_screen(*now)
                d.line(a, b, c, e, _GHOST, 1)
        if self.outline:
            pts = [f.to_screen(*p) for p in self.outline]
            if self.pointer is not None:
                pts.append(self.pointer)
            d.polyline(pts, _GHOST, 2)
            d.dots(pts, 3, _GHOST)


def _label(title: str) -> str:
    """A piece's title as its tool button says it: before any bracket, cut to fit."""
    short = title.split(" (")[0]
    return short if len(short) <= 24 else short[:23] + "…"


def _parse(text: str) -> Any:
    """What was typed as a value: a number, true/false, a list ``[x, y]``, else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text
