"""Follow one frame from ``Pipeline.step`` through its Python calls: which modules it
passes through, how many stops it makes, and how often it calls back up a layer.

    python tools/frame_trace.py

The scene holds particles, a jelly ball, rigid bodies, a hinge, a sensor and a watched
particle, with sleeping on. Layers, lowest first: kernels; the store, components and
the physics package; the services (sleeping, contact events, sensors, queries); the
World; the stages. A call from a lower layer into a higher one is a call back up.
"""

from __future__ import annotations

import sys

from ecsgoo import Anchor, Joint, Particle, RigidBody, Sensor, World, bodies, systems

LAYERS = (("ecsgoo.kernels", 0), ("ecsgoo.systems", 4), ("ecsgoo.world", 3),
          ("ecsgoo.sleeping", 2), ("ecsgoo.contact_events", 2), ("ecsgoo.sensors", 2),
          ("ecsgoo.queries", 2), ("ecsgoo", 1))


def _layer(module: str) -> int:
    return next(rank for prefix, rank in LAYERS if module.startswith(prefix))


def scene() -> World:
    """The traced scene, stepped until it is warm (kernels compiled, rows packed)."""
    w = World(bounds=(0, 0, 800, 600), sleep=True).use(*(s() for s in systems.SOLVER))
    w.create_entity(RigidBody.box(400, 10, 700, 20), Anchor())
    hub = w.create_entity(RigidBody.box(200, 300, 10, 10), Anchor())
    arm = w.create_entity(RigidBody.box(250, 300, 100, 10))
    w.create_entity(Joint(hub, arm, 200, 300))
    for k in range(5):
        w.create_entity(RigidBody.box(500 + 45 * k, 40, 40, 40))
    for k in range(20):
        w.create_entity(Particle(100 + 15 * k, 150, radius=6))
    w.create_entity(Particle(400, 300, radius=8, events=True))
    bodies.jelly_ball(w, 600, 250, radius=30, vertices=12)
    w.create_entity(Sensor.box(400, 100, 200, 100))
    w.step(5)
    return w


def trace(w: World) -> tuple[list[str], int, int]:
    """Modules entered during one frame (in order of first entry), stops (calls into
    ecsgoo Python code), and calls back up a layer."""
    seen: list[str] = []
    counts = {"stops": 0, "up": 0}
    ups: dict[tuple[str, str], int] = {}

    def profile(frame, event, arg):
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("ecsgoo"):
            return
        counts["stops"] += 1
        if module not in seen:
            seen.append(module)
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        if caller.startswith("ecsgoo") and _layer(caller) < _layer(module) \
                and not (caller == "ecsgoo.world" and module == "ecsgoo.systems.pipeline"):
            counts["up"] += 1
            key = (f"{caller}.{frame.f_back.f_code.co_name}", f"{module}.{frame.f_code.co_name}")
            ups[key] = ups.get(key, 0) + 1

    sys.setprofile(profile)
    try:
        w.pipeline.step(w)
    finally:
        sys.setprofile(None)
    trace.ups = ups
    return seen, counts["stops"], counts["up"]


if __name__ == "__main__":
    modules, stops, up = trace(scene())
    into_stages = sum(n for (_, callee), n in trace.ups.items()
                      if callee.startswith("ecsgoo.systems"))
    print(f"{len(modules)} modules, {stops} stops, {up} calls back up a layer "
          f"({into_stages} into the stages, {up - into_stages} into the World)")
    for m in modules:
        print("  ", m)
    for (caller, callee), n in sorted(trace.ups.items()):
        print(f"   up: {caller} -> {callee} ×{n}")
