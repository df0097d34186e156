"""Joints side by side: a hanging chain of hinged links, ecsgoo vs pymunk (``bench chain``).

Both chains: 30 links of 20 × 4 px, mass 1, hinged end to end, the first to a static
body, under 980 px/s² from horizontal; timed over 120 frames after 120 of swinging. The
worst hinge gap (px between the two anchors a hinge joins) is the quality beside the
time: pymunk's solver leaves it open by what its iterations did not close.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ecsgoo import Anchor, Joint, RigidBody, World, systems

LINKS, LENGTH, SETTLE, FRAMES = 30, 20.0, 120, 120


def _ecsgoo_chain() -> tuple[float, float]:
    w = World(bounds=None).use(*(s() for s in systems.SOLVER))
    prev = w.create_entity(RigidBody.box(0, 0, 10, 10), Anchor())
    for k in range(LINKS):
        link = w.create_entity(RigidBody.box(LENGTH * (k + 0.5), 0, LENGTH, 4, mass=1.0))
        w.create_entity(Joint(prev, link, LENGTH * k, 0))
        prev = link
    w.step(SETTLE)
    t0 = time.perf_counter()
    w.step(FRAMES)
    ms = (time.perf_counter() - t0) * 1000 / FRAMES
    st = w.store
    j, b = st.joints, st.bodies
    worst = 0.0
    for k in range(j.n):
        ends = []
        for row, local in ((j.a_body[k], j.cols["la"][k]), (j.b_body[k], j.cols["lb"][k])):
            c, s = math.cos(b.angle[row]), math.sin(b.angle[row])
            ends.append(b.pos[row] + (c * local[0] - s * local[1], s * local[0] + c * local[1]))
        worst = max(worst, float(np.hypot(*(ends[0] - ends[1]))))
    return ms, worst


def _pymunk_chain() -> tuple[float, float]:
    import pymunk

    space = pymunk.Space()
    space.gravity = (0, -980)
    space.iterations = 10
    prev, joints = space.static_body, []
    for k in range(LINKS):
        body = pymunk.Body(1.0, pymunk.moment_for_box(1.0, (LENGTH, 4)))
        body.position = (LENGTH * (k + 0.5), 0)
        space.add(body, pymunk.Poly.create_box(body, (LENGTH, 4)))
        joint = pymunk.PivotJoint(prev, body, (LENGTH * k, 0))
        space.add(joint)
        joints.append(joint)
        prev = body
    for _ in range(SETTLE):
        space.step(1 / 60)
    t0 = time.perf_counter()
    for _ in range(FRAMES):
        space.step(1 / 60)
    ms = (time.perf_counter() - t0) * 1000 / FRAMES
    worst = max((j.a.local_to_world(j.anchor_a) - j.b.local_to_world(j.anchor_b)).length
                for j in joints)
    return ms, worst


def bench_chain() -> list[tuple[str, str, str]]:
    """One row: ecsgoo's chain (6 substeps) against pymunk's (10 iterations)."""
    ours, gap = _ecsgoo_chain()
    peer, peer_gap = _pymunk_chain()
    return [(f"chain of {LINKS} hinged links swinging",
             f"{ours:.3f} ms/frame, worst hinge gap {gap:.3f} px",
             f"pymunk {peer:.3f} ms/step, gap {peer_gap:.2f} px; ratio {ours / peer:.1f} "
             "(target ≤ 3)")]
