"""The old home of the Render stage, kept so that ``from ecsgoo.systems.render import …`` works.

Rendering lives in ``ecsgoo.render`` (a layer above the physics) and ``Look``
with the palette in ``ecsgoo.look``; this module only re-exports their names.
No physics module imports it.
"""

from ..look import (
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
    Look,
    rgba,
)
from ..render.camera import Fit, fit
from ..render.colors import stress_colors
from ..render.layout import Layout
from ..render.scene import Scene, build_scene
from ..render.shapes import triangulate
from ..render.stage import Render

__all__ = ["Render", "Look", "Fit", "Scene", "fit", "rgba", "stress_colors", "triangulate",
           "Layout", "build_scene", "Color", "ANCHOR", "BLUE", "BODY_PALETTE", "GREEN",
           "GROUP_PALETTE", "HALO", "LEVEL_EDGE", "LEVEL_FILL", "OUTSIDE", "PARTICLE", "RED",
           "ROPE", "SKY_BOTTOM", "SKY_TOP", "YELLOW"]
