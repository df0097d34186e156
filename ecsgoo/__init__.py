"""ecsgoo: an entity-component-system framework for 2D soft-body physics mini-games.

Game state is esper entities with components (Particle, Spring, AreaConstraint,
ShapeMatch, Fruit, Anchor); ordered systems run numba kernels over packed
arrays; ``ecsgoo.render`` draws them with arcade (``Look`` says how). See the
README and ``docs/api.md`` for the contract.
"""

from .startup import paused as _paused

with _paused(keep=True):  # numba and the kernels make ~100,000 lasting objects: no scans
    from . import systems
    from .components import Anchor, AreaConstraint, Fruit, Particle, ShapeMatch, Spring
    from .errors import WorldError, WorldFileError
    from .look import Look
    from .queries import ALL, Hit
    from .rigid import Joint, RigidBody
    from .saving import check_file, dumps, load, loads, register_component, register_resource, save
    from .sensors import Sensor
    from .world import World

__all__ = [
    "World", "Particle", "Spring", "AreaConstraint", "ShapeMatch", "Fruit", "Anchor",
    "WorldError", "WorldFileError", "systems", "Look",
]
__all__ += ["save", "load", "dumps", "loads", "register_component", "register_resource",
            "check_file"]
__all__ += ["Hit", "ALL"]
__all__ += ["Sensor", "RigidBody", "Joint"]
