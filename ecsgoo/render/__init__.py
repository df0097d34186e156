"""Rendering, a layer of its own: below the app (the player draws with it), above the physics.

Nothing in the physics (stages, kernels, world, store, saving) imports this
package (``tests/test_layers.py`` checks it), and arcade is imported only
inside the functions that need it (drawing; triangulating a level's polygons),
so a headless run steps without a GL context. Modules, bottom up:

- ``gl``: the batched arcade.gl primitives (discs, capsules, triangles) and their row layouts;
- ``shapes``: segments and polygons as rows in those layouts;
- ``colors``: the palette (``ecsgoo.look``) as float RGBA rows, stress colours;
- ``ropes``: which springs form a rope, and the smooth curve drawn through them;
- ``layout``: who is drawn as what, cached until the structure changes;
- ``scene``: one frame's rows, built with numpy;
- ``camera``: the world rectangle fitted into the window, world px ↔ pixels;
- ``stage``: the ``Render`` stage that ties them together.

What is drawn as what (decided from the structure, cached until it changes):

- a **body** (an AreaConstraint ring or a ShapeMatch outline) is a filled polygon
  with a darker outline, grown by its vertices' radius; its particles (same
  collision group) and the springs inside it are hidden;
- a **rope** (a non-zero collision group whose springs form simple chains, as
  ``bodies.rope`` builds) is a smooth curve: quadratic Bézier pieces from link
  midpoint to link midpoint with the nodes as control points; it breaks where a
  link is broken;
- any other **spring** is a link coloured by stretch: blue (compressed) → green
  (rest) → yellow → red (at its ``max_stretch``; 2 for unbreakable links); the
  most critical links (``critical_count``) get a pink halo;
- **particles** are shaded discs: fruits in their kind's colour and size,
  anchors in steel, others in their group's colour;
- ``Look(color, visible)`` on a particle, spring or body-constraint entity
  overrides the colour or hides it;
- ``wireframe`` shows every particle (as a ring) and every unbroken spring.
"""

from .camera import Fit, fit
from .scene import Scene, build_scene
from .stage import Render

__all__ = ["Render", "Fit", "fit", "Scene", "build_scene"]
