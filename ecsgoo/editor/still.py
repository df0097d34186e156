"""The editor window's still picture: ``Still``.

An edited level does not run, so what the window shows (the level, its overlay, the
grid, the tool strip and the panel) changes only when the level, the selection, a tool,
a message or what the pointer lights up changes. ``Still`` keeps that picture in a
texture, split in regions (the level, the strip, the panel, the top band, the footer),
each with a key: when keys change, only those regions are painted again, and within the
level only the boxes an edit changed (the view says which, and paints them under a
scissor: an edit of one thing of 2,000 repaints its box, not the window). Every other
frame is one textured quad. What moves with the pointer (a dragged ghost, the
selection's handles) is drawn over it each frame by the view.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

_VERTEX = """
#version 330
in vec2 in_vert;
in vec2 in_uv;
out vec2 uv;
void main() { gl_Position = vec4(in_vert, 0.0, 1.0); uv = in_uv; }
"""
_FRAGMENT = """
#version 330
uniform sampler2D picture;
in vec2 uv;
out vec4 colour;
void main() { colour = texture(picture, uv); }
"""


class Still:
    """A window-sized picture whose regions are painted when their keys change (see the
    module)."""

    def __init__(self) -> None:
        #: Each region's key as last painted (empty: paint everything).
        self.keys: dict[str, Hashable] = {}
        #: How many times some of the picture was painted (the rest of the frames showed it).
        self.paints = 0
        #: The regions painted last time.
        self.painted: frozenset[str] = frozenset()
        self._fbo: Any = None
        self._size: tuple[int, int] | None = None
        self._quad: Any = None
        self._program: Any = None

    def show(self, window: Any, keys: dict[str, Hashable],
             paint: Callable[[dict[str, Hashable]], None]) -> None:
        """Show the picture of ``keys`` (a key per region) in ``window``: first
        ``paint(changed)`` with each changed region's previous key (None: the picture is
        new, paint the region whole), inside the picture's framebuffer."""
        ctx = window.ctx
        size = tuple(window.get_framebuffer_size())
        if self._fbo is None or self._size != size:
            self._fbo = ctx.framebuffer(color_attachments=[ctx.texture(size, components=4)])
            self._size, self.keys = size, {}
        changed = {name: self.keys.get(name) for name, key in keys.items()
                   if name not in self.keys or self.keys[name] != key}
        if changed:
            with self._fbo.activate():
                paint(changed)
                ctx.scissor = None
            self.keys = dict(keys)
            self.paints += 1
        self.painted = frozenset(changed)
        self._blit(ctx, size)

    def forget(self) -> None:
        """Paint anew next time (the window's GL state changed under it)."""
        self.keys = {}

    def _blit(self, ctx: Any, size: tuple[int, int]) -> None:
        from arcade.gl import geometry

        if self._quad is None:
            self._quad = geometry.quad_2d_fs()
            self._program = ctx.program(vertex_shader=_VERTEX, fragment_shader=_FRAGMENT)
        ctx.viewport = (0, 0, *size)
        ctx.scissor = None
        blending = ctx.is_enabled(ctx.BLEND)
        ctx.disable(ctx.BLEND)
        self._fbo.color_attachments[0].use(0)
        self._program["picture"] = 0
        self._quad.render(self._program)
        if blending:
            ctx.enable(ctx.BLEND)
