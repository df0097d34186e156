"""The ``ecsgoo`` command line."""

from __future__ import annotations

import argparse
import sys


def _demo(args: argparse.Namespace) -> int:
    from . import systems
    from .bodies import jelly_ball, rope
    from .components import Particle
    from .world import World

    w = World().use(systems.Integrate(), systems.Project(), systems.Collide(), systems.Break())
    jelly_ball(w, 300, 300, radius=50)
    rope(w, (500, 550), (650, 550), 10)
    for k in range(30):
        w.create_entity(Particle(100 + 20 * k, 500, radius=8))
    w.step(args.frames)
    w.check()
    print(f"demo: stepped {args.frames} frames of {len(w.entities())} entities "
          f"({w.store.particles.n} particles, {w.store.springs.n} springs); no NaN")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``ecsgoo`` and ``python -m ecsgoo``."""
    parser = argparse.ArgumentParser(prog="ecsgoo", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="run a small headless scene and say what happened")
    demo.add_argument("--frames", type=int, default=120)
    demo.set_defaults(run=_demo)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
