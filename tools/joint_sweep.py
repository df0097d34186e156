"""Random jointed mechanisms: how many the joints' solver loses (``python tools/joint_sweep.py``).

Each seed builds a small mechanism on an anchored ground box in an 800 × 600 world: two
to four boxes (sizes from 10 × 10 to 200 × 10 px, masses from ``MASSES``) joined by one to
four joints between random pairs (the ground among them) at a body's centre or a random
point — hinges, welds, motors (1,000 or 100,000 at speed 0 or 3 rad/s) and ±0.5 rad
limits — then steps it ``FRAMES`` frames. A seed is lost when the world stops with a
``WorldError`` (a body left the representable range) or a body passes ``FAST`` px/s.
Prints the count and the lost seeds, for the masses up to 1:1000 and up to 1:100
(BENCHMARKS.md, "Joints: random mechanisms").
"""

from __future__ import annotations

import math
import random
import sys

from ecsgoo import Anchor, Joint, RigidBody, World, WorldError, systems

#: Frames each mechanism runs (5 s).
FRAMES = 300
#: px/s: a body this fast has been thrown, not moved by its joints.
FAST = 1e5
#: The masses a box takes: any ratio up to 1:10,000, and up to 1:100.
MASSES = {"1:10000": (0.1, 1.0, 10.0, 100.0, 500.0, 1000.0), "1:100": (1.0, 10.0, 100.0)}
SIZES = ((20, 30), (40, 30), (100, 10), (200, 10), (10, 10))


def mechanism(seed: int, masses: tuple[float, ...]) -> tuple[World, list[int]]:
    """Seed ``seed``'s mechanism: the world and its bodies (the ground first)."""
    rng = random.Random(seed)
    w = World(bounds=(0, 0, 800, 600)).use(*(s() for s in systems.SOLVER))
    ids = [w.create_entity(RigidBody.box(400, 10, 700, 20), Anchor())]
    for _ in range(rng.randint(2, 4)):
        x, y = rng.uniform(100, 700), rng.uniform(40, 400)
        width, height = rng.choice(SIZES)
        ids.append(w.create_entity(RigidBody.box(x, y, width, height, mass=rng.choice(masses),
                                                 angle=rng.uniform(-1, 1))))
    for _ in range(rng.randint(1, 4)):
        a, b = rng.sample(ids, 2)
        at = w.component(rng.choice([a, b]), RigidBody)
        x, y = ((at.x, at.y) if rng.random() < 0.6 else
                (rng.uniform(100, 700), rng.uniform(30, 400)))
        kind, options = rng.random(), {}
        if kind < 0.2:
            options["weld"] = True
        elif kind < 0.4:
            options["motor_torque"] = rng.choice([1e3, 1e5])
            options["motor_speed"] = rng.choice([0.0, 3.0])
        elif kind < 0.5:
            options["lower"], options["upper"] = -0.5, 0.5
        w.create_entity(Joint(a, b, x, y, **options))
    return w, ids


def lost(seed: int, masses: tuple[float, ...]) -> str | None:
    """How seed ``seed``'s mechanism was lost (``error at frame k``, ``thrown``), or None."""
    w, ids = mechanism(seed, masses)
    views = [w.component(e, RigidBody) for e in ids[1:]]
    try:
        for _ in range(FRAMES):
            w.step()
            if max(math.hypot(v.vx, v.vy) for v in views) > FAST:
                return f"thrown at frame {w.frame}"
    except WorldError:
        return f"error at frame {w.frame}"
    finally:
        w.close()
    return None


def main(seeds: int = 300) -> None:
    for name, masses in MASSES.items():
        bad = {s: why for s in range(seeds) if (why := lost(s, masses)) is not None}
        print(f"masses up to {name}: {len(bad)} of {seeds} lost {bad}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
