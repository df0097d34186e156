"""Batched GPU primitives: discs, capsules (thick round-capped segments) and triangles.

Each primitive is a shader program and a growable buffer: a whole frame's discs
(or capsules, or triangles) go to the GPU as one numpy array in at most two
draw calls, whatever their number. The software renderer here (llvmpipe) pays
per primitive and per blended pixel, so small discs are GL points, and crowded
frames (``CROWDED``) draw thin links as GL lines and small discs unblended; the
rest are instanced quads. Shapes are
antialiased in the fragment shader (a smooth edge one screen pixel wide), so
discs look round at any zoom. Coordinates are world px through arcade's
``WindowBlock`` (the active camera); colours are floats in [0, 1].

Instance layouts (float32 columns):

- disc: ``x, y, radius, ring, shade, r, g, b, a`` — ``ring`` > 0 draws only a
  ring that wide (px), ``shade`` in [0, 1] adds a darker rim and a highlight.
- capsule: ``x1, y1, x2, y2, half_width, r, g, b, a``.
- triangle vertex: ``x, y, r, g, b, a`` (three rows per triangle).
"""

from __future__ import annotations

from typing import Any

import numpy as np

DISC_COLUMNS = 9
CAPSULE_COLUMNS = 9
VERTEX_COLUMNS = 6

_WINDOW_BLOCK = "uniform WindowBlock { mat4 projection; mat4 view; } window;"

_DISC_VS = f"""#version 330
{_WINDOW_BLOCK}
uniform float u_px;
in vec2 in_corner;
in vec3 in_disc;
in vec2 in_style;
in vec4 in_color;
out vec2 v_local;
out float v_radius;
out vec2 v_style;
out vec4 v_color;
void main() {{
    float extent = in_disc.z + 0.5 * u_px;  // the smooth edge ends half a pixel out
    v_local = in_corner * extent;
    v_radius = in_disc.z;
    v_style = in_style;
    v_color = in_color;
    gl_Position = window.projection * window.view * vec4(in_disc.xy + v_local, 0.0, 1.0);
}}
"""

_DISC_SHADE = """
vec4 disc_color(vec2 local, float radius, vec2 style, vec4 color, float px) {
    float d = length(local);
    float cover = clamp((radius - d) / px + 0.5, 0.0, 1.0);
    vec3 rgb = color.rgb;
    if (style.x > 0.0) {
        // a ring: also fade in past the inner edge
        cover *= clamp((d - (radius - style.x)) / px + 0.5, 0.0, 1.0);
    } else if (style.y > 0.0 && radius > 4.0 * px) {  // too small to see shading
        // a shaded ball: darker rim, soft highlight up and to the left
        float rim = max(1.5 * px, 0.14 * radius);
        float t = clamp((d - (radius - rim)) / px + 0.5, 0.0, 1.0);
        rgb = mix(rgb, rgb * 0.62, t * style.y);
        float h = 1.0 - smoothstep(0.0, 0.5 * radius, length(local - vec2(-0.32, 0.36) * radius));
        rgb = mix(rgb, vec3(1.0), 0.35 * h * style.y);
    }
    return vec4(rgb, color.a * cover);
}
"""

_DISC_FS = f"""#version 330
uniform float u_px;
in vec2 v_local;
in float v_radius;
in vec2 v_style;
in vec4 v_color;
out vec4 out_color;
{_DISC_SHADE}
void main() {{
    out_color = disc_color(v_local, v_radius, v_style, v_color, u_px);
    if (out_color.a <= 0.0) discard;
}}
"""

# Small discs as GL points: one primitive each instead of two triangles (llvmpipe pays
# per primitive: 5,000 discs cost a third as much).
_POINT_VS = f"""#version 330
{_WINDOW_BLOCK}
uniform float u_px;
in vec3 in_disc;
in vec2 in_style;
in vec4 in_color;
out float v_extent;
out float v_radius;
out vec2 v_style;
out vec4 v_color;
void main() {{
    v_extent = in_disc.z + 0.5 * u_px;
    v_radius = in_disc.z;
    v_style = in_style;
    v_color = in_color;
    gl_PointSize = 2.0 * v_extent / u_px;
    gl_Position = window.projection * window.view * vec4(in_disc.xy, 0.0, 1.0);
}}
"""

_POINT_FS = f"""#version 330
uniform float u_px;
in float v_extent;
in float v_radius;
in vec2 v_style;
in vec4 v_color;
out vec4 out_color;
{_DISC_SHADE}
uniform float u_hard;
void main() {{
    vec2 local = (gl_PointCoord - 0.5) * vec2(2.0, -2.0) * v_extent;
    out_color = disc_color(local, v_radius, v_style, v_color, u_px);
    // hard edges (no blending) in crowded frames: keep the pixels at least half covered
    if (out_color.a <= 0.5 * u_hard || out_color.a <= 0.0) discard;
}}
"""

_CAPSULE_VS = f"""#version 330
{_WINDOW_BLOCK}
uniform float u_px;
in vec2 in_corner;
in vec4 in_ends;
in float in_half;
in vec4 in_color;
out vec2 v_local;
flat out float v_length;
flat out float v_half;
out vec4 v_color;
void main() {{
    vec2 a = in_ends.xy;
    vec2 d = in_ends.zw - a;
    float len = length(d);
    vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    float ext = max(in_half, 0.5 * u_px) + 0.5 * u_px;
    // (along, across) the segment from its middle, in world px
    v_local = vec2(in_corner.x * (0.5 * len + ext), in_corner.y * ext);
    v_length = 0.5 * len;
    v_half = in_half;
    v_color = in_color;
    vec2 p = 0.5 * (a + in_ends.zw) + dir * v_local.x + vec2(-dir.y, dir.x) * v_local.y;
    gl_Position = window.projection * window.view * vec4(p, 0.0, 1.0);
}}
"""

_CAPSULE_FS = """#version 330
uniform float u_px;
in vec2 v_local;
flat in float v_length;
flat in float v_half;
in vec4 v_color;
out vec4 out_color;
void main() {
    float d = length(vec2(max(abs(v_local.x) - v_length, 0.0), v_local.y));
    // hairlines thinner than a pixel fade instead of flickering
    float half_w = max(v_half, 0.5 * u_px);
    float cover = clamp((half_w - d) / u_px + 0.5, 0.0, 1.0) * min(1.0, 2.0 * v_half / u_px);
    if (cover <= 0.0) discard;
    out_color = vec4(v_color.rgb, v_color.a * cover);
}
"""

_TRIANGLE_VS = f"""#version 330
{_WINDOW_BLOCK}
in vec2 in_pos;
in vec4 in_color;
out vec4 v_color;
void main() {{
    v_color = in_color;
    gl_Position = window.projection * window.view * vec4(in_pos, 0.0, 1.0);
}}
"""

_TRIANGLE_FS = """#version 330
in vec4 v_color;
out vec4 out_color;
void main() { out_color = v_color; }
"""


#: Discs up to this screen radius (px) are drawn as points, bigger ones as quads (a point
#: is culled whole when its centre leaves the window: keep that pop small).
POINT_RADIUS = 16.0
#: A frame with more than ``CROWDED`` links (or discs) trades antialiasing for speed:
#: links thinner than ``HAIRLINE`` half-width on screen (px) become 2 px GL lines (4×
#: cheaper) and opaque small discs are drawn without blending (half the fill cost).
HAIRLINE = 1.5
CROWDED = 2000


class _Batch:
    """One program, one growable buffer, one draw call per ``draw``."""

    def __init__(self, ctx: Any, program: Any, columns: int, formats: str,
                 attributes: list[str], instanced: bool, mode: int) -> None:
        from arcade.gl import BufferDescription

        self.ctx, self.program, self.columns = ctx, program, columns
        self.instanced = instanced
        self.capacity = 256
        self.buffer = ctx.buffer(reserve=self.capacity * columns * 4, usage="stream")
        content = [BufferDescription(self.buffer, formats, attributes, instanced=instanced)]
        if instanced:
            corners = np.array([-1, -1, 1, -1, -1, 1, 1, 1], dtype="f4")
            content.insert(0, BufferDescription(ctx.buffer(data=corners), "2f", ["in_corner"]))
        self.geometry = ctx.geometry(content, mode=mode)

    def draw(self, rows: np.ndarray) -> None:
        """Upload ``rows`` (n, columns) and draw them with one call; nothing if empty."""
        n = len(rows)
        if n == 0:
            return
        data = np.ascontiguousarray(rows, dtype="f4")
        if n > self.capacity:
            while self.capacity < n:
                self.capacity *= 2
            self.buffer.orphan(self.capacity * self.columns * 4)
        self.buffer.write(data)
        if self.instanced:
            self.geometry.render(self.program, vertices=4, instances=n)
        else:
            self.geometry.render(self.program, vertices=n)


class Batches:
    """The batched primitives of one GL context (see the module docstring).

    ``discs``, ``capsules`` and ``triangles`` take rows in the layouts above;
    each is at most two draw calls (small discs as points, thin links as lines).
    """

    def __init__(self, ctx: Any) -> None:
        disc = ctx.program(vertex_shader=_DISC_VS, fragment_shader=_DISC_FS)
        point = ctx.program(vertex_shader=_POINT_VS, fragment_shader=_POINT_FS)
        capsule = ctx.program(vertex_shader=_CAPSULE_VS, fragment_shader=_CAPSULE_FS)
        plain = ctx.program(vertex_shader=_TRIANGLE_VS, fragment_shader=_TRIANGLE_FS)
        self.ctx = ctx
        self.px = 1.0
        disc_layout = ("3f 2f 4f", ["in_disc", "in_style", "in_color"])
        self._quads = _Batch(ctx, disc, DISC_COLUMNS, *disc_layout, True, ctx.TRIANGLE_STRIP)
        self._points = _Batch(ctx, point, DISC_COLUMNS, *disc_layout, False, ctx.POINTS)
        self._capsules = _Batch(ctx, capsule, CAPSULE_COLUMNS, "4f 1f 4f",
                                ["in_ends", "in_half", "in_color"], True, ctx.TRIANGLE_STRIP)
        vertex = (VERTEX_COLUMNS, "2f 4f", ["in_pos", "in_color"], False)
        self._lines = _Batch(ctx, plain, *vertex, ctx.LINES)
        self._triangles = _Batch(ctx, plain, *vertex, ctx.TRIANGLES)

    def set_pixel(self, world_per_pixel: float) -> None:
        """Tell the shaders how big a screen pixel is in world px (the smooth edge's width)."""
        self.px = float(world_per_pixel)
        for batch in (self._quads, self._points, self._capsules):
            batch.program["u_px"] = self.px

    def begin(self) -> None:
        """Alpha blending and shader-set point sizes for the batches that follow."""
        from pyglet import gl

        self.ctx.enable(self.ctx.BLEND, gl.GL_PROGRAM_POINT_SIZE)
        self.ctx.blend_func = self.ctx.BLEND_DEFAULT

    def discs(self, rows: np.ndarray) -> None:
        """Draw disc rows (``x, y, radius, ring, shade, r, g, b, a``), in order per size."""
        small = rows[:, 2] <= POINT_RADIUS * self.px
        points = rows[small]
        hard = len(rows) > CROWDED and bool((points[:, 8] >= 1.0).all())
        self._points.program["u_hard"] = 1.0 if hard else 0.0
        self._draw(self._points, points, blend=not hard)
        self._quads.draw(rows[~small])

    def capsules(self, rows: np.ndarray) -> None:
        """Draw capsule rows (``x1, y1, x2, y2, half_width, r, g, b, a``)."""
        thin = rows[:, 4] < HAIRLINE * self.px
        if len(rows) <= CROWDED:
            thin[:] = False
        if thin.any():
            ends = rows[thin]
            verts = np.empty((2 * len(ends), VERTEX_COLUMNS), np.float32)
            verts[0::2, 0:2], verts[1::2, 0:2] = ends[:, 0:2], ends[:, 2:4]
            verts[0::2, 2:6] = verts[1::2, 2:6] = ends[:, 5:9]
            from pyglet import gl

            gl.glLineWidth(2.0)
            # GL lines have no antialiased edge: opaque ones need no blending
            self._draw(self._lines, verts, blend=not bool((ends[:, 8] >= 1.0).all()))
        self._capsules.draw(rows[~thin])

    def triangles(self, rows: np.ndarray, blend: bool = True) -> None:
        """Draw triangle vertex rows (``x, y, r, g, b, a``, three per triangle).

        ``blend=False`` for opaque backgrounds: half the cost of a blended fill.
        """
        self._draw(self._triangles, rows, blend)

    def _draw(self, batch: _Batch, rows: np.ndarray, blend: bool) -> None:
        """Draw ``rows`` with ``batch``, unblended if not ``blend`` (skipping the framebuffer
        read that blending costs); blending is on again afterwards."""
        if not blend:
            self.ctx.disable(self.ctx.BLEND)
        batch.draw(rows)
        self.ctx.enable(self.ctx.BLEND)


_BY_CONTEXT: dict[int, Batches] = {}


def batches(ctx: Any = None) -> Batches:
    """The Batches of ``ctx`` (default: the current arcade window's), made on first use.

    Kept here, not on the Render stage, so that copying a world never copies GL objects.
    """
    if ctx is None:
        import arcade

        ctx = arcade.get_window().ctx
    found = _BY_CONTEXT.get(id(ctx))
    if found is None or found.ctx is not ctx:
        found = _BY_CONTEXT[id(ctx)] = Batches(ctx)
    return found
