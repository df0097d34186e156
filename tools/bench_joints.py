"""Joints side by side: a hanging chain of hinged links, ecsgoo vs pymunk vs Box2D 2.3
(``bench chain``).

Every chain: 30 links of 20 × 4 px, mass 1, hinged end to end, the first to a static
body, under 980 px/s² from horizontal, the hinged links not colliding with each other
(ecsgoo's ``Joint`` default, pymunk's ``collide_bodies = False``, Box2D's
``collideConnected = False``); timed over ``FRAMES`` frames after ``SETTLE`` of swinging,
in CPU time (one clock reading around the frames, as ``bench.py``'s scenes: reading the
CPU clock and the gap between frames cost each engine a system call and a cold cache a
frame), the engines' rounds interleaved and the best round kept. The worst hinge gap
(px between the two anchors a hinge joins, the largest after any timed frame) is the
quality beside the time, read in a second run of the same frames (every engine is
deterministic: the same chain frame by frame). ecsgoo runs at the World's defaults (6
substeps), pymunk at 10 iterations, Box2D at ``Step(1/60, 8, 3)`` in metres (1 m = 100 px).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ecsgoo import Anchor, Joint, RigidBody, World, systems

LINKS, LENGTH, WIDTH, SETTLE, FRAMES, ROUNDS = 30, 20.0, 4.0, 120, 120, 5
PX_PER_M = 100.0


class _EcsgooChain:
    def __init__(self) -> None:
        self.world = w = World(bounds=None).use(*(s() for s in systems.SOLVER))
        prev = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
        for k in range(LINKS):
            link = w.create_entity(RigidBody.box(LENGTH * (k + 0.5), 0, LENGTH, WIDTH,
                                                 mass=1.0))
            w.create_entity(Joint(prev, link, LENGTH * k, 0))
            prev = link

    def step(self) -> None:
        self.world.step()

    def gap(self) -> float:
        st = self.world.store
        j, b = st.joints, st.bodies
        worst = 0.0
        for k in range(j.n):
            ends = []
            for row, local in ((j.a_body[k], j.cols["la"][k]), (j.b_body[k], j.cols["lb"][k])):
                c, s = math.cos(b.angle[row]), math.sin(b.angle[row])
                ends.append((b.pos[row, 0] + c * local[0] - s * local[1],
                             b.pos[row, 1] + s * local[0] + c * local[1]))
            worst = max(worst, math.dist(*ends))
        return worst


class _PymunkChain:
    def __init__(self) -> None:
        import pymunk

        self.space = space = pymunk.Space()
        space.gravity = (0, -980)
        space.iterations = 10
        prev, self.joints = space.static_body, []
        for k in range(LINKS):
            body = pymunk.Body(1.0, pymunk.moment_for_box(1.0, (LENGTH, WIDTH)))
            body.position = (LENGTH * (k + 0.5), 0)
            space.add(body, pymunk.Poly.create_box(body, (LENGTH, WIDTH)))
            joint = pymunk.PivotJoint(prev, body, (LENGTH * k, 0))
            joint.collide_bodies = False
            space.add(joint)
            self.joints.append(joint)
            prev = body

    def step(self) -> None:
        self.space.step(1 / 60)

    def gap(self) -> float:
        return max((j.a.local_to_world(j.anchor_a) - j.b.local_to_world(j.anchor_b)).length
                   for j in self.joints)


class _Box2DChain:
    def __init__(self) -> None:
        import Box2D

        self.world = world = Box2D.b2World(gravity=(0, -980 / PX_PER_M), doSleep=False)
        prev = world.CreateStaticBody(position=(0, 0))
        prev.CreatePolygonFixture(box=(0.05, 0.05))
        self.joints = []
        half_l, half_w = LENGTH / 2 / PX_PER_M, WIDTH / 2 / PX_PER_M
        density = 1.0 / (4 * half_l * half_w)  # mass 1
        for k in range(LINKS):
            body = world.CreateDynamicBody(position=((k + 0.5) * 2 * half_l, 0),
                                           allowSleep=False)
            body.CreatePolygonFixture(box=(half_l, half_w), density=density)
            self.joints.append(world.CreateRevoluteJoint(
                bodyA=prev, bodyB=body, anchor=(k * 2 * half_l, 0), collideConnected=False))
            prev = body

    def step(self) -> None:
        self.world.Step(1 / 60, 8, 3)

    def gap(self) -> float:
        return max(math.dist(j.anchorA, j.anchorB) for j in self.joints) * PX_PER_M


def _run(make: Callable[[], object]) -> tuple[float, float]:
    """(CPU ms a frame over ``FRAMES``, the worst hinge gap in px after any of them)."""
    chain = make()
    for _ in range(SETTLE):
        chain.step()  # type: ignore[attr-defined]
    t0 = time.process_time()
    for _ in range(FRAMES):
        chain.step()  # type: ignore[attr-defined]
    cpu = time.process_time() - t0
    chain, worst = make(), 0.0
    for frame in range(SETTLE + FRAMES):
        chain.step()  # type: ignore[attr-defined]
        if frame >= SETTLE:
            worst = max(worst, chain.gap())  # type: ignore[attr-defined]
    return cpu * 1000 / FRAMES, worst


def measure() -> dict[str, tuple[list[float], float]]:
    """Each engine's ms a frame in every round (interleaved) and its worst gap."""
    out: dict[str, tuple[list[float], float]] = {}
    engines = {"ecsgoo": _EcsgooChain, "pymunk": _PymunkChain, "Box2D": _Box2DChain}
    for _ in range(ROUNDS):
        for name, make in engines.items():
            ms, gap = _run(make)
            times, worst = out.get(name, ([], 0.0))
            out[name] = (times + [ms], max(worst, gap))
    return out


def bench_chain() -> list[tuple[str, str, str]]:
    """One row: ecsgoo's chain (6 substeps) against pymunk's and Box2D 2.3's."""
    got = measure()
    best = {name: min(times) for name, (times, _) in got.items()}
    gap = {name: worst for name, (_, worst) in got.items()}
    ours = best["ecsgoo"]
    return [(f"chain of {LINKS} hinged links swinging",
             f"{ours:.3f} ms/frame, worst hinge gap {gap['ecsgoo']:.3f} px",
             f"pymunk {best['pymunk']:.3f} ms (gap {gap['pymunk']:.2f} px), Box2D 2.3 "
             f"{best['Box2D']:.3f} ms (gap {gap['Box2D']:.2f} px); ratio to pymunk "
             f"{ours / best['pymunk']:.1f} (target ≤ 3, gap ≤ Box2D's)")]


if __name__ == "__main__":
    for name, (times, worst) in measure().items():
        print(f"{name}: ms/frame {', '.join(f'{t:.4f}' for t in times)}; worst gap {worst:.3f} px")
