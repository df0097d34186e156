"""Each game's own pieces (``Game.editor_kit``), offered and placeable with no editor code."""

from __future__ import annotations

import pytest

from ecsgoo import saving
from ecsgoo.editor import FRAMEWORK, Editor

#: What a piece needs placed first (a rope ties its pin to the candy).
NEEDS = {"rope_rope": [("rope_candy", {"x": 400, "y": 300})]}
OWN = {"rope": {"rope_candy", "rope_rope", "rope_star", "rope_hook", "rope_monster"},
       "goo": {"goo_pipe", "goo_structure", "goo_ball"},
       "suika": {"suika_box", "suika_line"},
       "jelly": {"jelly_box", "jelly_pyramid", "jelly_crate", "jelly_topple", "jelly_basket",
                 "jelly_seesaw"}}


@pytest.mark.parametrize("game", sorted(OWN))
def test_every_piece_of_a_game_is_offered_and_placed_and_saves(game, tmp_path):
    ed = Editor(game)
    framework = {p.kind for p in FRAMEWORK}
    own = {p.kind for p in ed.placeable()} - framework
    assert OWN[game] <= own and own, f"{game} offers {sorted(own)}"
    for kind in sorted(own):
        for need, fields in NEEDS.get(kind, []):
            if not any(k == need for k, _ in ed.things):
                ed.place(need, **fields)
        t = ed.place(kind)
        assert ed.kind(t) == kind and ed.built[t].entities or ed.built[t].lines \
            or ed.built[t].polygons, kind
        assert ed.select_at(*(ed.fields(t)[c] for c in ("x", "y"))), kind
    if ed.problem is None:
        assert saving.load(ed.save(tmp_path / f"{game}.toml"))
