"""app.widgets: the side panel fills its column between the bands (no dark empty patch
below the controls), its rows grow to take the room, and clicks still find them."""

import pytest

from ecsgoo.app import Player
from ecsgoo.app.overlay import FOOTER_BAND, HUD_BAND
from ecsgoo.app.widgets import HEADER, MARGIN, ROW, STRETCH, WidgetLayer
from ecsgoo.game import Widget


def _sliders(n: int) -> list[Widget]:
    return [Widget("slider", f"s{k}", lambda v: None, 0.5) for k in range(n)]


def _check_rows(layer: WidgetLayer) -> None:
    """Slots in order top to bottom, inside the panel, never overlapping, whole pixels."""
    px, py, pw, ph = layer.panel
    last_bottom = layer.header[1]
    for slot in layer.slots:
        assert slot.h == ROW[slot.widget.kind] - 6  # a control keeps its own height
        assert slot.y + slot.h <= last_bottom and slot.y >= py
        assert float(slot.y).is_integer()
        last_bottom = slot.y


def test_jellys_panel_runs_from_under_the_hud_to_the_footer():
    from games.jelly.game import JellyGame

    player = Player(JellyGame(level=3))
    width, height = player.size
    layer = player.widgets
    x, y, w, h = layer.panel
    assert y == FOOTER_BAND + MARGIN, "the panel stops short of the footer: a dark patch"
    assert y + h == height - HUD_BAND - MARGIN
    _check_rows(layer)
    natural = sum(ROW[s.widget.kind] for s in layer.slots)
    used = layer.header[1] - layer.slots[-1].y
    assert natural < used <= natural * STRETCH + len(layer.slots)  # the rows grew
    player.key("h")  # no bands: the column is the window's height
    x, y, w, h = player.widgets.panel
    assert (y, y + h) == (MARGIN, height - MARGIN)
    _check_rows(player.widgets)


def test_a_short_panel_grows_its_rows_at_most_STRETCH_and_still_fills_the_column():
    layer = WidgetLayer(_sliders(2), 1000, 700, top=HUD_BAND, bottom=FOOTER_BAND)
    _check_rows(layer)
    top, nxt = layer.slots
    assert top.y - nxt.y == round(ROW["slider"] * STRETCH)
    assert layer.panel[1] == FOOTER_BAND + MARGIN


def test_a_panel_taller_than_its_column_keeps_its_rows_and_grows_none():
    layer = WidgetLayer(_sliders(30), 1000, 700, top=HUD_BAND, bottom=FOOTER_BAND)
    _check_rows(layer)
    gaps = {a.y - b.y for a, b in zip(layer.slots, layer.slots[1:], strict=False)}
    assert gaps == {ROW["slider"]}


def test_folded_the_panel_is_its_tab_only():
    layer = WidgetLayer(_sliders(3), 1000, 700, top=HUD_BAND, bottom=FOOTER_BAND,
                        collapsed=True)
    assert not layer.slots and layer.panel == layer.header
    assert layer.header[3] <= HEADER


@pytest.mark.parametrize("label", ["+ ball", "+ crate", "reset"])
def test_a_grown_button_is_pressed_at_its_centre(label):
    from games.jelly.game import JellyGame

    game = JellyGame(level=1)
    player = Player(game)
    slot = next(s for s in player.widgets.slots if s.widget.label == label)
    before = len(game.world.particles) + len(game.world.bodies)
    player.press(slot.x + slot.w / 2, slot.y + slot.h / 2)
    player.release(slot.x + slot.w / 2, slot.y + slot.h / 2)
    after = len(player.game.world.particles) + len(player.game.world.bodies)
    assert after != before or label == "reset"
    assert player.world.grabbed < 0  # the press went to the button, not the world
