"""A world's arrays and settings that outlive its frames, handed to a frame's kernel as
one object (a numba StructRef) instead of one argument each.

numba types and unboxes every argument of a call: ~45 ns an array, so the fused disc
frame's 90 arguments cost ~4.5 µs a call before any arithmetic; a StructRef of them
types in ~0.6 µs. ``physics.disc_frame`` makes one (``disc_frame_args``) when the rows,
the level, the bounds, the World's or Collide's settings or the substep change, and
passes it with the frame's own arguments (``kernels.disc_frame.disc_frame_held``).

The type lives in a module of its own: numba finds a cached kernel that takes a
StructRef only when the StructRef is not defined beside it.
"""

from __future__ import annotations

from numba import njit, types
from numba.experimental import structref


@structref.register
class DiscFrameArgsType(types.StructRef):
    """``DiscFrameArgs``' numba type (its fields: ``FIELDS``)."""

    def preprocess_fields(self, fields: tuple) -> tuple:
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class DiscFrameArgs(structref.StructRefProxy):
    """Opaque in Python: made by ``disc_frame_args``, read by the disc frame's kernel."""


structref.define_boxing(DiscFrameArgsType, DiscFrameArgs)

_F, _I, _B = types.float64, types.int64, types.boolean
_F1, _F2 = types.float64[::1], types.float64[:, ::1]
_I1, _B1 = types.int64[::1], types.boolean[::1]

#: The fields, in ``kernels.disc_frame.disc_frame``'s order (its docstring says what each
#: is): the substeps, their time, damping, gravity and forces; the particles' columns; the
#: look's margin and keys; the contacts' settings; the level's segments and polygons and
#: the bounds' walls.
FIELDS = [
    ("count", _I), ("h", _F), ("damp", _F), ("gx", _F), ("gy", _F), ("force", _F2), ("n", _I),
    ("pos", _F2), ("prev", _F2), ("w", _F1), ("pinned", _B1), ("pin", _F2), ("group", _I1),
    ("layer", _I1), ("frozen", _B1), ("extra", _F), ("wall", _I), ("shift", _I),
    ("downx", _F), ("downy", _F), ("pairs", _B), ("soft", _F2), ("push_speed", _F),
    ("bounce_speed", _F), ("radius", _F1), ("friction", _F1), ("restitution", _F1),
    ("mask", _I1), ("vmin", _F), ("push", _F), ("hold", _F), ("slop", _F), ("segs", _F2),
    ("seg_surf", _F2), ("seg_layer", _I1), ("poly_off", _I1), ("poly_xy", _F2),
    ("poly_idx", _I1), ("poly_surf", _F2), ("poly_layer", _I1), ("walls", _F1),
    ("use_bounds", _B),
]
DISC_FRAME_ARGS = DiscFrameArgsType(FIELDS)


@njit(cache=True)
def disc_frame_args(count, h, damp, gx, gy, force, n, pos, prev, w, pinned, pin, group,
                    layer, frozen, extra, wall, shift, downx, downy, pairs, soft, push_speed,
                    bounce_speed, radius, friction, restitution, mask, vmin, push, hold, slop,
                    segs, seg_surf, seg_layer, poly_off, poly_xy, poly_idx, poly_surf,
                    poly_layer, walls, use_bounds):
    """A ``DiscFrameArgs`` of these (``FIELDS``)."""
    a = structref.new(DISC_FRAME_ARGS)
    a.count, a.h, a.damp, a.gx, a.gy, a.force, a.n = count, h, damp, gx, gy, force, n
    a.pos, a.prev, a.w, a.pinned, a.pin, a.group = pos, prev, w, pinned, pin, group
    a.layer, a.frozen, a.extra, a.wall, a.shift = layer, frozen, extra, wall, shift
    a.downx, a.downy, a.pairs, a.soft = downx, downy, pairs, soft
    a.push_speed, a.bounce_speed, a.radius, a.friction = push_speed, bounce_speed, radius, friction
    a.restitution, a.mask, a.vmin, a.push, a.hold = restitution, mask, vmin, push, hold
    a.slop, a.segs, a.seg_surf, a.seg_layer, a.poly_off = slop, segs, seg_surf, seg_layer, poly_off
    a.poly_xy, a.poly_idx, a.poly_surf, a.poly_layer = poly_xy, poly_idx, poly_surf, poly_layer
    a.walls, a.use_bounds = walls, use_bounds
    return a
