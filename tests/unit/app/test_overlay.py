"""app.overlay: the HUD and footer live in bands the camera leaves free; the footer's keys."""

from toygame import Toy

from ecsgoo.app import Player
from ecsgoo.app.overlay import (
    FOOTER_BAND,
    HUD_BAND,
    fitted_footer,
    footer_keys,
    level_title,
    play_area,
)


def test_the_footer_names_the_games_own_keys_first():
    from games.goo.game import GooGame

    text = footer_keys(GooGame)
    assert text.startswith("drag a ball to build · Z undo")
    assert "R restart" in text and "M mute" in text and "H hide" in text


def test_the_world_is_fitted_between_the_bands_and_beside_the_panel():
    player = Player(Toy(level=2))
    width, height = player.size
    x, y, w, h = player.area()
    assert (y, y + h) == (FOOTER_BAND, height - HUD_BAND)
    assert x + w <= player.widgets.panel[0], "the open panel is outside the play area"
    left, bottom, right, top = player.fit().visible
    sx0, sy0 = player.fit().to_screen(0, 0)
    sx1, sy1 = player.fit().to_screen(800, 600)
    assert sy0 >= FOOTER_BAND - 1e-6 and sy1 <= height - HUD_BAND + 1e-6 and sx1 <= x + w + 1e-6
    player.key("h")
    assert player.area() == play_area(width, height, False, player.widgets.width())
    assert player.area()[3] == height


def test_the_widget_panel_folds_and_gives_the_world_its_room():
    player = Player(Toy(level=2))
    panel_x, panel_y, panel_w, panel_h = player.widgets.header
    before = player.area()[2]
    player.press(panel_x + 5, panel_y + 5)
    assert player.widgets.collapsed and not player.widgets.slots
    assert player.area()[2] > before
    tab_x, tab_y, _, _ = player.widgets.header
    assert tab_y >= player.size[1] - HUD_BAND, "folded, the tab sits in the HUD band"
    player.press(tab_x + 5, tab_y + 5)
    assert not player.widgets.collapsed and len(player.widgets.slots) == 3


def _bundled():
    from games.goo.game import GooGame
    from games.jelly.game import JellyGame
    from games.rope.game import RopeGame
    from games.suika.game import Suika

    return GooGame, JellyGame, RopeGame, Suika


def test_every_bundled_window_fits_a_1024_by_768_screen():
    from ecsgoo.app.player import window_size

    for cls in _bundled():
        width, height = window_size(cls(level=1))
        assert width <= 1024 and height <= 768, f"{cls.name}: {width}x{height}"


def test_the_hud_does_not_repeat_the_footers_keys():
    for cls in _bundled():
        game = cls(level=1)
        hud = " ".join(game.hud()).lower()
        for hint in game.hints:
            assert hint.lower() not in hud, f"{game.name}: {hint!r} is in the footer already"


class _Measure:
    """A stand-in for ``app.draw.Draw``'s measuring: 0.6 em a character."""

    @staticmethod
    def text_width(text, size=14, bold=False):
        return 0.6 * size * len(text)


def test_the_footer_fits_the_window_with_smaller_type_then_fewer_player_keys():
    from games.rope.game import RopeGame

    wide, size = fitted_footer(_Measure, RopeGame, 2000)
    assert (wide, size) == (footer_keys(RopeGame), 10.0)  # room: everything, full size
    for width in (800, 600, 400):
        text, size = fitted_footer(_Measure, RopeGame, width)
        assert text.startswith(" · ".join(RopeGame.hints))  # the game's own keys stay
        assert "Esc menu" in text and "R restart" in text
        if _Measure.text_width(text, size) > width - 20:  # only when nothing is left to drop
            assert size == 8.0 and "M mute" not in text and "Tab wireframe" not in text
    text, size = fitted_footer(_Measure, RopeGame, 800)
    assert _Measure.text_width(text, size) <= 780 and "Tab wireframe" in text  # 9 pt fits
    text, size = fitted_footer(_Measure, RopeGame, 600)
    assert _Measure.text_width(text, size) <= 580 and "Tab wireframe" not in text
    assert "N step" in text  # one key left out was enough


def test_a_game_with_only_buttons_has_them_in_the_footer_not_a_side_column():
    from ecsgoo.app.player import window_size
    from games.goo.game import GooGame

    game = GooGame(level=1)
    player = Player(game)
    assert player.size == window_size(game) == (game.size[0], game.size[1] + HUD_BAND +
                                                 FOOTER_BAND), "no column beside the world"
    assert player.area()[2] == game.size[0] and player.widgets.width() == 0
    (undo,) = player.widgets.slots
    assert undo.y + undo.h <= FOOTER_BAND and undo.x + undo.w <= player.size[0]
    assert player.widgets.strip_width() >= undo.w
    player.press(undo.x + undo.w / 2, undo.y + undo.h / 2)  # the button, not the level
    assert game.hint is not None and game.hint[0] == "nothing to undo"


def test_the_hud_lines_fit_the_window_with_smaller_type_then_cut_short():
    """goo level 6's lines (its name, balls, balloons, then the star goals) ran off an
    800 px window at 11 pt."""
    from ecsgoo.app.overlay import fitted_lines
    from games.goo.game import GooGame

    lines = GooGame(level=6).hud()
    text, size = fitted_lines(_Measure, lines, 2000)
    assert size == 11.0 and "★★★ place at most" in text  # room: all of it, full size
    for width in (800, 600, 300):
        text, size = fitted_lines(_Measure, lines, width)
        assert _Measure.text_width(text, size) <= width - 20
        assert size >= 9.0 and text.startswith("Up, Up and Away")
    text, size = fitted_lines(_Measure, lines, 300)
    assert size == 9.0 and text.endswith("…")


def test_a_users_level_and_a_play_test_are_not_titled_the_bundled_level_1(tmp_path):
    """Found under Xvfb: the launcher played the user's level-1.toml titled "Cut the Rope —
    level 1", the bundled First Swing's title."""
    from ecsgoo.editor import Editor
    from games.rope.game import RopeGame

    assert level_title(RopeGame(level=2)) == "Cut the Rope — level 2"
    ed = Editor("rope")
    ed.place("rope_candy", x=400, y=380)
    ed.place("rope_rope", x=250, y=520)
    path = ed.save(tmp_path / "level-1.toml")
    assert level_title(RopeGame.custom_level(path=path)) == "Cut the Rope — your level"
    assert level_title(ed.play_test()) == "Cut the Rope — play-test"
