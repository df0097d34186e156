"""How things are drawn: the ``Look`` component and the palette the renderer draws with.

Colours are ``(r, g, b)`` or ``(r, g, b, a)`` tuples in 0..255. Nothing here
draws or imports arcade, so games and saved worlds can use ``Look`` without a
GL context; ``ecsgoo.render`` turns these into pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

Color = tuple[int, ...]

#: Outside the world's bounds (letterbox), and the sky gradient inside them (top, bottom).
OUTSIDE: Color = (16, 18, 28)
SKY_TOP: Color = (52, 60, 92)
SKY_BOTTOM: Color = (24, 27, 42)
LEVEL_FILL: Color = (92, 104, 140)
LEVEL_EDGE: Color = (168, 180, 220)
ROPE: Color = (214, 168, 110)
ANCHOR: Color = (176, 186, 204)
PARTICLE: Color = (255, 196, 92)
#: Static (anchored) rigid bodies: earth.
STATIC_BODY: Color = (112, 92, 70)
#: A wooden crate (the jelly playground's): a ``Look`` colour for rigid boxes.
CRATE: Color = (176, 122, 66)
HALO: Color = (255, 84, 214, 190)
#: Stress colours: compressed, at rest, half way to breaking, breaking.
BLUE, GREEN, YELLOW, RED = (90, 150, 255), (96, 214, 120), (250, 210, 70), (240, 64, 64)
#: Body fill colours, picked by the constraint's entity id (stable across frames).
BODY_PALETTE: tuple[Color, ...] = (
    (255, 112, 140), (104, 196, 255), (148, 226, 116), (255, 186, 84), (186, 140, 255),
    (84, 218, 196), (255, 150, 210), (230, 232, 110),
)
#: Particles of a non-zero group that is neither a body nor a rope, by group.
GROUP_PALETTE: tuple[Color, ...] = (
    (255, 196, 92), (120, 220, 255), (255, 130, 150), (170, 240, 130), (210, 170, 255),
)


def rgba(color: Any) -> tuple[float, float, float, float]:
    """``(r, g, b)`` or ``(r, g, b, a)`` in 0..255 as four floats in [0, 1]."""
    try:  # "red" would be three letters that are not numbers
        c = tuple(float(v) for v in color) if not isinstance(color, str | bytes) else ()
    except (TypeError, ValueError):
        c = ()
    if len(c) == 3:
        c += (255.0,)
    if len(c) != 4 or not all(0.0 <= v <= 255.0 for v in c):
        raise ValueError(f"colour must be (r, g, b) or (r, g, b, a) in 0..255, got {color!r}")
    return (c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255)


@dataclass(eq=False)
class Look:
    """How Render draws the entity it is on: a particle, a spring, a body's constraint,
    a rigid body or a joint.

    ``color``: ``(r, g, b)`` or ``(r, g, b, a)`` in 0..255, or ``None`` for the
    default (fruit colour, stress colour, body palette...). On a spring it
    replaces the stress colour; on an AreaConstraint/ShapeMatch entity it is
    the body's fill, and on a RigidBody too (its outline is a darker shade); on
    a Joint it replaces the stress colour. ``visible=False`` hides the entity
    (the wireframe still shows it). Changing a field takes effect on the next drawn frame. Saved
    with worlds as component ``look`` (``ecsgoo.saving`` registers it).
    """

    color: tuple[int, ...] | None = None
    visible: bool = True
    #: Bumped on every change to any Look, so Render knows to rebuild its colour tables.
    revision: ClassVar[int] = 0

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "color" and value is not None:
            rgba(value)  # validate now, not at the first draw
            value = tuple(int(v) for v in value)
        object.__setattr__(self, name, bool(value) if name == "visible" else value)
        Look.revision += 1

    def as_dict(self) -> dict[str, Any]:
        """The fields and their values."""
        return {"color": self.color, "visible": self.visible}


__all__ = ["Look", "Color", "rgba", "OUTSIDE", "SKY_TOP", "SKY_BOTTOM", "LEVEL_FILL",
           "LEVEL_EDGE", "ROPE", "ANCHOR", "PARTICLE", "HALO", "STATIC_BODY", "CRATE", "BLUE",
           "GREEN", "YELLOW", "RED", "BODY_PALETTE", "GROUP_PALETTE"]
