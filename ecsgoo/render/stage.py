"""Render: draw the world straight from the packed arrays, in a constant number of draw calls.

Reads: particle pos, radius, group, kind, pinned; spring a, b, rest, max_stretch,
broken, entity; the outline CSR (``outline_off/outline_idx``); body pos, angle,
pinned, entity and the piece CSR (``body_piece_off`` …); joint a_body, a_part, la,
weld, force, max_force, broken, entity; ``world.level``;
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

At most six draw calls per frame (the sky; triangles; links as capsules, or lines
when thin in a crowded frame; discs as points, or quads when big: see
``render.gl``), whatever the number of entities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import limits
from ..look import OUTSIDE, Look
from ..systems.pipeline import Stage, register_stage
from .camera import Fit, Rect, arcade_camera, contents_rect, fit
from .gl import batches
from .layout import Layout
from .scene import Scene, build_scene

if TYPE_CHECKING:
    from ..world import World


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
                 view: Rect | None = None) -> None:
        self.wireframe = bool(wireframe)
        self.critical_count = int(critical_count)
        # a coordinate each (finite): a view a world file could not hold again is refused
        self.view = None if view is None else tuple(limits.COORD.check(v, "Render", "view")
                                                    for v in view)
        self.fit: Fit | None = None
        self._layout: Layout | None = None
        self._auto_view: tuple[Any, Rect] | None = None
        self._camera: Any = None

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"wireframe": self.wireframe, "critical_count": self.critical_count}
        if self.view is not None:
            out["view"] = self.view
        return out

    def __deepcopy__(self, memo: dict) -> Render:
        return self.clone()

    def process(self, world: World) -> None:
        """Nothing: physics steps do not draw (the player calls ``draw`` per displayed frame)."""

    @staticmethod
    def of(world: World) -> Render:
        """The Render stage of ``world``'s pipeline, or a default one kept with the world."""
        for stage in world.pipeline:
            if isinstance(stage, Render):
                return stage
        found = world.resource(Render)
        if found is None:
            found = world.add_resource(Render())
        return found

    def view_rect(self, world: World, size: tuple[int, int] | None = None) -> Rect:
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
            self._auto_view = (world, contents_rect(world, size))
        return self._auto_view[1]

    def draw(self, world: World, window: Any = None, size: tuple[int, int] | None = None,
             area: Rect | None = None, clip: tuple[int, int, int, int] | None = None) -> Fit:
        """Draw ``world`` into the current arcade window (or ``window``); return the camera fit.

        Clears the window, sets a camera that fits ``view_rect(world, size)``
        into it (``size``: the game's nominal window size, default the
        window's; ``area``: the part of the window to fit into, window px, default
        all of it), and leaves that camera active for overlays in world coordinates.
        ``clip`` (framebuffer px ``(x, y, w, h)``) draws only there: a scissor, and only
        the shapes that reach into it (a partial repaint; the window is not cleared).
        """
        import arcade

        window = window or arcade.get_window()
        width, height = window.get_framebuffer_size()
        if area is not None:  # window px → framebuffer px (they differ on HiDPI screens)
            k = width / max(window.width, 1)
            area = tuple(k * v for v in area)
        self.fit = fit(self.view_rect(world, size or (window.width, window.height)),
                       width, height, area)
        if clip is None and world.bounds is not None and not self.fit.covered_by(world.bounds):
            window.clear(color=OUTSIDE)  # letterbox; otherwise the sky covers every pixel
        camera = self.camera(window)
        camera.scissor = arcade.LBWH(*clip) if clip is not None else None
        camera.use()
        px = 1.0 / self.fit.scale  # one screen pixel in world px
        gpu = batches(window.ctx)
        gpu.begin()
        gpu.set_pixel(px)
        scene = self.scene(world, px)
        if clip is not None:
            (x0, y0), (x1, y1) = (self.fit.to_world(clip[0], clip[1]),
                                  self.fit.to_world(clip[0] + clip[2], clip[1] + clip[3]))
            scene = scene.within((x0 - 2 * px, y0 - 2 * px, x1 + 2 * px, y1 + 2 * px))
        gpu.triangles(scene.backdrop, blend=False)
        gpu.triangles(scene.triangles)
        gpu.capsules(scene.capsules)
        gpu.discs(scene.discs)
        return self.fit

    def camera(self, window: Any) -> Any:
        """An arcade Camera2D showing ``self.fit`` (made by ``draw``)."""
        self._camera = arcade_camera(self.fit, window, self._camera)
        return self._camera

    def scene(self, world: World, px: float = 1.0) -> Scene:
        """This frame's geometry, built with numpy from the packed arrays (no GL needed).

        ``px`` is the size of one screen pixel in world px (hairline widths).
        """
        world.store.prepare()  # the outline CSR that the layout and the bodies read
        looks = world.get_component(Look)
        if self._layout is None or not self._layout.describes(world, looks):
            self._layout = Layout(world, looks)
        # the sky fills what the window shows (letterbox included) when there are no bounds
        visible = self.view_rect(world) if self.fit is None else self.fit.visible
        return build_scene(world, self._layout, px, self.wireframe, self.critical_count,
                           visible)
