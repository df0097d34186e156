"""Each bundled game's level 1, made with editor operations only (shared by the editor's
tests and ``tools/bench.py``)."""

from __future__ import annotations

from ecsgoo.editor import Editor


def _box(x0: float, y0: float, x1: float, y1: float) -> dict:
    """A level polygon piece's fields for the rectangle x0..x1, y0..y1."""
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    return {"x": cx, "y": cy, "points": [[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]]}


def rope(ed: Editor) -> None:
    """"First Swing": the candy, one rope, three stars, Om Nom."""
    ed.set_level("damping", 0.9995)
    ed.place("rope_candy", x=220, y=430)
    ed.place("rope_rope", x=400, y=520)
    for x, y in ((400, 322), (602, 372), (645, 240)):
        ed.place("rope_star", x=x, y=y)
    ed.place("rope_monster", x=650, y=100)


def goo(ed: Editor) -> None:
    """"Going Up": the pipe, the ground, the base triangle with 8 crawlers, 3 lying balls."""
    for name, value in (("required", 4), ("more", 6), ("most", 4)):
        ed.set_level(f"goo_rules.{name}", value)
    ed.place("goo_pipe", x=520, y=360, radius=40, end=[520, 600], suck=70)
    ed.place("polygon", **_box(0, 0, 800, 40))
    ed.place("goo_structure", x=500, y=50, width=100, height=87, crawlers=8)
    for x in (300, 330, 680):
        ed.place("goo_ball", x=x, y=50)


def suika(ed: Editor) -> None:
    """Level 1: the box (350..770) and the line at 560."""
    ed.place("suika_box", x=560, y=0, width=420)
    ed.place("suika_line", x=560, y=560)


def jelly(ed: Editor) -> None:
    """"Pyramid playground": the box pyramid, three balls, a rope and a chain."""
    ed.place("jelly_pyramid", x=590, y=0, layers=4)
    for x, r in ((110.0, 45.0), (245.0, 38.0), (370.0, 30.0)):
        ed.place("jelly_ball", x=x, y=r + 10.0, radius=r)
    ed.place("rope", x=465, y=590, to=[465, 360], links=14, tie=False)
    ed.place("chain", x=260, y=590, to=[260, 330], links=9, tie=False)


LEVEL_ONE = {"rope": rope, "goo": goo, "suika": suika, "jelly": jelly}
