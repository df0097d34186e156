"""Render: draw the world straight from the packed arrays, in a constant number of draw calls.

Reads: particle pos, radius, group, kind, pinned; spring a, b, rest, max_stretch,
broken, entity; the outline CSR (``outline_off/outline_idx``); ``world.level``;
``world.bounds``; ``StructureReport.critical`` (when Analyze runs); ``Look``
components.
Writes: nothing in the world (``Render.fit``: the last camera fit, for the player).
Events: none.

Render is a pipeline Stage (``per_substep = False``) so a game can put it in its
pipeline with its settings (wireframe, view) and they are saved with the world;
but its ``process`` does nothing: physics steps never draw (a headless bot run
steps thousands of frames without a GL context). The player calls
``render.draw(world)`` once per *displayed* frame instead; ``Render.of(world)``
finds the pipeline's Render, or a default one.

What is drawn as what, and the numpy that builds a frame: ``render_scene``.

At most six draw calls per frame (the sky; triangles; links as capsules, or lines
when thin in a crowded frame; discs as points, or quads when big: see
``ecsgoo.app.gl``), whatever the number of entities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .pipeline import Stage, register_stage
from .render_scene import (  # noqa: F401  (the colours, Look and helpers: part of this API)
    ANCHOR,
    BLUE,
    BODY_PALETTE,
    GREEN,
    GROUP_PALETTE,
    HALO,
    LEVEL_EDGE,
    LEVEL_FILL,
    OUTSIDE,
    PARTICLE,
    RED,
    ROPE,
    SKY_BOTTOM,
    SKY_TOP,
    YELLOW,
    Color,
    Layout,
    Look,
    Scene,
    build_scene,
    rgba,
    stress_colors,
    triangulate,
)


@dataclass(frozen=True)
class Fit:
    """A world rectangle fitted into a window, aspect preserved and centred.

    ``scale`` is screen px per world px; ``(x0, y0)`` is the world point at the
    window's bottom-left corner.
    """

    scale: float
    x0: float
    y0: float
    width: int
    height: int

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """Window pixel (y up) → world px."""
        return self.x0 + sx / self.scale, self.y0 + sy / self.scale

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """World px → window pixel (y up)."""
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale

    @property
    def centre(self) -> tuple[float, float]:
        """The world point at the window's centre."""
        return self.to_world(self.width / 2, self.height / 2)


def fit(view: tuple[float, float, float, float], width: int, height: int) -> Fit:
    """Fit ``view = (left, bottom, right, top)`` (world px) into a ``width × height`` window."""
    left, bottom, right, top = view
    vw, vh = max(right - left, 1e-6), max(top - bottom, 1e-6)
    scale = min(width / vw, height / vh)
    cx, cy = (left + right) / 2, (bottom + top) / 2
    return Fit(scale, cx - width / 2 / scale, cy - height / 2 / scale, width, height)


@register_stage
class Render(Stage):
    """Draws the world with batched GPU geometry (see the module docstring).

    ``wireframe`` shows every particle and spring; ``critical_count`` is how many
    of the most critical links (Analyze's report) get a halo; ``view`` is the
    world rectangle ``(left, bottom, right, top)`` the camera fits into the
    window (default: the world's bounds, else the level and bodies as first seen).
    """

    name = "render"
    per_substep = False

    def __init__(self, wireframe: bool = False, critical_count: int = 5,
                 view: tuple[float, float, float, float] | None = None) -> None:
        self.wireframe = bool(wireframe)
        self.critical_count = int(critical_count)
        self.view = None if view is None else tuple(float(v) for v in view)
        self.fit: Fit | None = None
        self._layout: Layout | None = None
        self._auto_view: tuple[Any, tuple[float, float, float, float]] | None = None
        self._camera: Any = None

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"wireframe": self.wireframe, "critical_count": self.critical_count}
        if self.view is not None:
            out["view"] = self.view
        return out

    def __deepcopy__(self, memo: dict) -> Render:
        return self.clone()

    def process(self, world: Any) -> None:
        """Nothing: physics steps do not draw (the player calls ``draw`` per displayed frame)."""

    @staticmethod
    def of(world: Any) -> Render:
        """The Render stage of ``world``'s pipeline, or a default one kept with the world."""
        for stage in world.pipeline:
            if isinstance(stage, Render):
                return stage
        found = world.resource(Render)
        if found is None:
            found = world.add_resource(Render())
        return found

    # -- camera -------------------------------------------------------------------------

    def view_rect(self, world: Any, size: tuple[int, int] | None = None
                  ) -> tuple[float, float, float, float]:
        """The world rectangle to show.

        ``view`` if set, else the world's bounds; a world without bounds shows
        ``(0, 0, *size)`` (the game's window size: games place things in
        window pixels), grown to hold the level and bodies as first seen.
        """
        if self.view is not None:
            return self.view
        if world.bounds is not None:
            return tuple(world.bounds)
        if self._auto_view is None or self._auto_view[0] is not world:
            self._auto_view = (world, _contents_rect(world, size))
        return self._auto_view[1]

    # -- drawing ------------------------------------------------------------------------

    def draw(self, world: Any, window: Any = None, size: tuple[int, int] | None = None) -> Fit:
        """Draw ``world`` into the current arcade window (or ``window``); return the camera fit.

        Clears the window, sets a camera that fits ``view_rect(world, size)``
        into it (``size``: the game's nominal window size, default the
        window's), and leaves that camera active for overlays in world coordinates.
        """
        import arcade

        from ..app.gl import batches

        window = window or arcade.get_window()
        width, height = window.get_framebuffer_size()
        self.fit = fit(self.view_rect(world, size or (window.width, window.height)),
                       width, height)
        if not self._fills_window(world):
            window.clear(color=OUTSIDE)  # letterbox; otherwise the sky covers every pixel
        self.camera(window).use()
        px = 1.0 / self.fit.scale  # one screen pixel in world px
        gpu = batches(window.ctx)
        gpu.begin()
        gpu.set_pixel(px)
        scene = self.scene(world, px)
        gpu.triangles(scene.backdrop, blend=False)
        gpu.triangles(scene.triangles)
        gpu.capsules(scene.capsules)
        gpu.discs(scene.discs)
        return self.fit

    def _fills_window(self, world: Any) -> bool:
        """Whether the sky (the bounds, or the whole view) covers the window."""
        if world.bounds is None:
            return True
        left, bottom, right, top = world.bounds
        f = self.fit
        x0, y0 = f.to_screen(left, bottom)
        x1, y1 = f.to_screen(right, top)
        return x0 <= 0 and y0 <= 0 and x1 >= f.width and y1 >= f.height

    def camera(self, window: Any) -> Any:
        """An arcade Camera2D showing ``self.fit`` (made by ``draw``)."""
        import arcade

        f = self.fit
        if self._camera is None or self._camera._window is not window:
            self._camera = arcade.Camera2D(window=window)
        cam = self._camera
        cam.viewport = arcade.LBWH(0, 0, f.width, f.height)
        cam.projection = arcade.LRBT(-f.width / 2, f.width / 2, -f.height / 2, f.height / 2)
        cam.position = f.centre
        cam.zoom = f.scale
        return cam

    def scene(self, world: Any, px: float = 1.0) -> Scene:
        """This frame's geometry, built with numpy from the packed arrays (no GL needed).

        ``px`` is the size of one screen pixel in world px (hairline widths).
        """
        world.store.prepare()  # the outline CSR that the layout and the bodies read
        looks = world.get_component(Look)
        if self._layout is None or not self._layout.describes(world, looks):
            self._layout = Layout(world, looks)
        return build_scene(world, self._layout, px, self.wireframe, self.critical_count,
                           self._visible(world))

    def _visible(self, world: Any) -> tuple[float, float, float, float]:
        """The world rectangle the window shows (all of it, letterbox included)."""
        f = self.fit
        if f is None:
            return self.view_rect(world)
        return (*f.to_world(0, 0), *f.to_world(f.width, f.height))


def _contents_rect(world: Any, size: tuple[int, int] | None
                   ) -> tuple[float, float, float, float]:
    """``(0, 0, *size)`` grown to hold the level and particles (or their padded box)."""
    p = world.store.particles
    pts = [x for x in (p.cols["pos"][: p.n], world.level.segments.reshape(-1, 2)) if len(x)]
    if size is not None:
        pts.append(np.array([[0.0, 0.0], [float(size[0]), float(size[1])]]))
    if not pts:
        return (0.0, 0.0, 800.0, 600.0)
    xy = np.concatenate(pts)
    lo, hi = xy.min(0), xy.max(0)
    pad = 0.0 if size is not None else 0.08 * max(hi[0] - lo[0], hi[1] - lo[1], 100.0)
    return (lo[0] - pad, lo[1] - pad, hi[0] + pad, hi[1] + pad)


__all__ = ["Render", "Look", "Fit", "Scene", "fit", "rgba", "stress_colors", "triangulate"]
