"""The peers' builds of benchmark scenes (pymunk, Box2D 2.3), laid out as tests/scenes.py lays
out ecsgoo's, so ``bench.py`` can time the same scene in each engine in one process.

Every builder returns a small object with ``step()`` (one frame of 1/60 s) and
``centres()`` (the boxes' centres in px and angles in radians, in placement order).
"""

from __future__ import annotations

import math

from scenes import pyramid_ground, pyramid_layout

FRICTION = 0.6  # the friction of each box-box and box-ground contact, in every engine
PX_PER_M = 100.0  # Box2D works in metres: 1 m = 100 px, so a 40 px box is 0.4 m


class PymunkPyramid:
    """``scenes.pyramid_layout`` in a pymunk Space: gravity (0, -980), 10 iterations, one
    ``space.step(1/60)`` a frame, boxes of mass 1 from ``Poly.create_box`` on a static box.
    pymunk multiplies the two shapes' frictions, so each shape gets sqrt(0.6)."""

    def __init__(self, base: int, size: float = 40.0, gap: float | None = None) -> None:
        import pymunk

        self.space = space = pymunk.Space()
        space.gravity = (0, -980)
        space.iterations = 10
        mu = math.sqrt(FRICTION)
        _pymunk_ground(space, pyramid_ground(base, size), mu)
        self.bodies = []
        for x, y in pyramid_layout(base, size, gap):
            body = pymunk.Body(1.0, pymunk.moment_for_box(1.0, (size, size)))
            body.position = (x, y)
            shape = pymunk.Poly.create_box(body, (size, size))
            shape.friction, shape.elasticity = mu, 0.0
            space.add(body, shape)
            self.bodies.append(body)

    def step(self) -> None:
        self.space.step(1 / 60)

    def centres(self) -> list[tuple[float, float, float]]:
        return [(b.position.x, b.position.y, b.angle) for b in self.bodies]


def _pymunk_ground(space, ground: tuple[float, float, float, float], mu: float) -> None:
    """A static box ``(x, y, w, h)`` (px, its centre and size) of friction ``mu`` in
    ``space``."""
    import pymunk

    gx, gy, gw, gh = ground
    shape = pymunk.Poly(space.static_body, [(gx - gw / 2, gy - gh / 2),
                                            (gx + gw / 2, gy - gh / 2),
                                            (gx + gw / 2, gy + gh / 2),
                                            (gx - gw / 2, gy + gh / 2)])
    shape.friction = mu
    space.add(shape)


class Box2DPyramid:
    """``scenes.pyramid_layout`` in a Box2D 2.3 world, built in metres (1 m = 100 px, gravity
    9.8 m/s²): boxes of mass 1 that never sleep, friction 0.6 (Box2D mixes two frictions as
    their geometric mean), one ``Step(1/60, 8, 3)`` a frame. Box2D rounds every polygon
    by ``b2_polygonRadius`` (1 px here), so each box's polygon is that much smaller than
    ``size`` all round and its collision outline is ``size``: with the full-size polygon
    each row would rest 1.5 px higher than the layout's and the top of a base-10 pyramid
    14 px above where it was placed, though standing."""

    def __init__(self, base: int, size: float = 40.0, gap: float | None = None) -> None:
        import Box2D

        self.world = world = Box2D.b2World(gravity=(0, -980 / PX_PER_M), doSleep=False)
        m = 1 / PX_PER_M
        gx, gy, gw, gh = pyramid_ground(base, size)
        ground = world.CreateStaticBody(position=(gx * m, gy * m))
        skin = Box2D.b2_polygonRadius
        ground.CreatePolygonFixture(box=(gw * m / 2 - skin, gh * m / 2 - skin),
                                    friction=FRICTION)
        half = size * m / 2 - skin
        self.bodies = []
        for x, y in pyramid_layout(base, size, gap):
            body_def = Box2D.b2BodyDef()
            body_def.type = Box2D.b2_dynamicBody
            body_def.position = (x * m, y * m)
            body_def.allowSleep = False
            body = world.CreateBody(body_def)
            body.CreatePolygonFixture(box=(half, half), density=1.0 / (2 * half) ** 2,
                                      friction=FRICTION, restitution=0.0)
            self.bodies.append(body)

    def step(self) -> None:
        self.world.Step(1 / 60, 8, 3)

    def centres(self) -> list[tuple[float, float, float]]:
        return [(b.position.x * PX_PER_M, b.position.y * PX_PER_M, b.angle)
                for b in self.bodies]


class PymunkCircles:
    """Fixed circles (centres ``pos`` (n, 2) px, ``radius`` (n,)) as static shapes of one
    pymunk Space, for queries on the same geometry as an ecsgoo world's particles;
    ``first(px, py, qx, qy)`` is ``segment_query_first``'s circle index or ``None``."""

    def __init__(self, pos, radius) -> None:
        import pymunk

        self.space = space = pymunk.Space()
        self.index = {}
        for k, ((x, y), r) in enumerate(zip(pos.tolist(), radius.tolist(), strict=True)):
            shape = pymunk.Circle(space.static_body, r, offset=(x, y))
            space.add(shape)
            self.index[shape] = k
        space.reindex_static()
        self.filter = pymunk.ShapeFilter()

    def first(self, px: float, py: float, qx: float, qy: float) -> int | None:
        hit = self.space.segment_query_first((px, py), (qx, qy), 0, self.filter)
        return None if hit is None else self.index[hit.shape]


#: The small scenes (``small_layout``): a static ground and boxes ``(x, y, w, h, mass)``.
SMALL_GROUND = (400.0, 10.0, 800.0, 20.0)


def small_layout(name: str) -> list[tuple[float, float, float, float, float]]:
    """``"one box"``: a 40 px box of mass 1 resting on the ground; ``"column"``: five 40 px
    boxes stacked on it, masses 1 to 100 (the heaviest on top, each 100^(1/4) the one
    below); ``"empty"``: nothing but the ground."""
    if name == "one box":
        return [(400.0, 40.0, 40.0, 40.0, 1.0)]
    if name == "column":
        return [(400.0, 40.0 + 40.0 * k, 40.0, 40.0, 100.0 ** (k / 4)) for k in range(5)]
    return []


class PymunkSmall:
    """``small_layout(name)`` in pymunk (10 iterations, gravity (0, −980) px/s², friction
    0.6 as the product of two shapes' sqrt(0.6)); ``step()`` is one 1/60 s frame."""

    def __init__(self, name: str) -> None:
        import pymunk

        self.space = space = pymunk.Space()
        space.gravity, space.iterations = (0, -980), 10
        mu = math.sqrt(FRICTION)
        _pymunk_ground(space, SMALL_GROUND, mu)
        for x, y, w, h, mass in small_layout(name):
            body = pymunk.Body(mass, pymunk.moment_for_box(mass, (w, h)))
            body.position = (x, y)
            shape = pymunk.Poly.create_box(body, (w, h))
            shape.friction = mu
            space.add(body, shape)

    def step(self) -> None:
        self.space.step(1 / 60)


class Box2DSmall:
    """``small_layout(name)`` in Box2D 2.3 (metres, 8 + 3 iterations, bodies that never
    sleep, friction 0.6); ``step()`` is one 1/60 s frame."""

    def __init__(self, name: str) -> None:
        import Box2D

        self.world = world = Box2D.b2World(gravity=(0, -980 / PX_PER_M), doSleep=False)
        m = 1 / PX_PER_M
        skin = Box2D.b2_polygonRadius
        gx, gy, gw, gh = SMALL_GROUND
        ground = world.CreateStaticBody(position=(gx * m, gy * m))
        ground.CreatePolygonFixture(box=(gw * m / 2 - skin, gh * m / 2 - skin),
                                    friction=FRICTION)
        for x, y, w, h, mass in small_layout(name):
            body_def = Box2D.b2BodyDef()
            body_def.type = Box2D.b2_dynamicBody
            body_def.position = (x * m, y * m)
            body_def.allowSleep = False
            body = world.CreateBody(body_def)
            hw, hh = w * m / 2 - skin, h * m / 2 - skin
            body.CreatePolygonFixture(box=(hw, hh), density=mass / (4 * hw * hh),
                                      friction=FRICTION, restitution=0.0)

    def step(self) -> None:
        self.world.Step(1 / 60, 8, 3)
