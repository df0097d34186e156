"""Rendering, a layer of its own: below the app (the player draws with it), above the physics.

Nothing in the physics (stages, kernels, world, store, saving) imports this
package (``tests/unit/repo/test_layers.py`` checks it), and arcade is imported only
inside the functions that need it (drawing; triangulating a level's polygons),
so a headless run steps without a GL context. Modules, bottom up:

- ``gl``: the batched arcade.gl primitives (discs, capsules, triangles) and their row layouts;
- ``shapes``: segments and polygons as rows in those layouts;
- ``colors``: the palette (``ecsgoo.look``) as float RGBA rows, stress colours;
- ``ropes``: which springs form a rope, and the smooth curve drawn through them;
- ``rigid``: rigid bodies' shapes in body coordinates (cached) placed per frame, joints;
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
- a **rigid body** is its convex pieces filled, outlined along the edges no two
  pieces share (a concave body shows its outer outline only); a circle has a
  radius line so its rotation shows; static (anchored) bodies are earthy, others
  from the body palette;
- a **joint** is a small ring at its hinge (a weld: a small square) coloured by
  ``force / max_force`` with the links' stress colours, steel if unbreakable;
- ``Look(color, visible)`` on a particle, spring, body-constraint, rigid-body or
  joint entity overrides the colour or hides it;
- ``wireframe`` shows every particle (as a ring) and every unbroken spring.
"""

from .camera import Fit, fit
from .scene import Scene, build_scene
from .stage import Render

__all__ = ["Render", "Fit", "fit", "Scene", "build_scene"]
