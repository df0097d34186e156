"""app.launcher and app.buttons: the title screen, the level select, the end-of-level choices."""

import numpy as np
from toygame import Toy

from ecsgoo.app.buttons import hit, result_buttons
from ecsgoo.app.headless import offscreen_window
from ecsgoo.app.launcher import SIZE, Launcher, draw_launcher
from ecsgoo.app.progress import Progress


def _launcher(tmp_path):
    progress = Progress.load(tmp_path / "progress.json")
    progress.record("toy", 2, "won", 40, 2)
    return Launcher({"toy": Toy, "toy2": Toy}, progress)


def test_cards_lead_to_a_level_select_and_esc_goes_back(tmp_path):
    launcher = _launcher(tmp_path)
    card = launcher.cards()[0]
    assert launcher.press(card.x + 5, card.y + 5) is None and launcher.screen == "toy"
    level2 = launcher.level_buttons()[1]
    assert launcher.press(level2.x + 5, level2.y + 5) == ("toy", 2)
    assert launcher.key("escape") is None and launcher.screen == "title"
    assert launcher.key("escape") == "quit"
    assert launcher.key("2") is None and launcher.screen == "toy2"
    assert launcher.key("1") == ("toy2", 1)


def test_the_level_select_shows_best_stars_and_scores(tmp_path):
    rows = _launcher(tmp_path).levels("toy")
    assert rows == [{"level": 1, "title": "everything", "best_score": 0, "best_stars": 0,
                     "wins": 0},
                    {"level": 2, "title": "empty", "best_score": 40, "best_stars": 2, "wins": 1}]


def test_the_launcher_draws_a_picture_headless(tmp_path):
    launcher = _launcher(tmp_path)
    window = offscreen_window(SIZE)
    for screen in ("title", "toy"):
        launcher.screen = screen
        image = np.asarray(draw_launcher(launcher, window))
        assert image.shape == (SIZE[1], SIZE[0], 3)
        rgb = image.reshape(-1, 3).astype(np.int64)  # a colour as one number: unique in 1-D
        colours = np.unique((rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2])
        assert image.std() > 10 and len(colours) > 50, screen


def test_end_of_level_choices():
    won = result_buttons("won", True, 800, 600)
    assert [b.action for b in won] == ["next", "retry", "menu"]
    assert [b.action for b in result_buttons("won", False, 800, 600)] == ["retry", "menu"]
    assert [b.action for b in result_buttons("lost", True, 800, 600)] == ["retry", "menu"]
    assert hit(won, won[1].x + 1, won[1].y + 1) == "retry" and hit(won, 0, 0) is None


def test_end_of_level_choices_leave_the_play_area_free():
    from ecsgoo.app.overlay import play_area

    for width, height in ((800, 666), (1020, 666)):
        x, y, w, h = play_area(width, height, True)
        for b in result_buttons("won", True, width, height):
            assert b.y >= y + h and b.y + b.h <= height, "a choice covers the level"
            assert 0 <= b.x and b.x + b.w <= width


def test_every_bundled_game_has_its_picture():
    from ecsgoo.app.launcher import THUMB_DIR

    for name in ("goo", "jelly", "rope", "suika"):
        assert (THUMB_DIR / f"{name}.png").is_file(), f"run tools/make_thumbnails.py ({name})"


def test_every_level_title_ends_before_its_stars():
    from ecsgoo.app.draw import Draw
    from ecsgoo.app.games import discover
    from ecsgoo.app.launcher import LEVEL_W, STARS_AT, title_size

    offscreen_window(SIZE)
    draw = Draw()
    for name, cls in discover()[0].items():
        for n, title in enumerate(cls.levels, 1):
            text = f"{n}. {title}"
            size = title_size(draw, text)
            assert 16 + draw.text_width(text, size) < LEVEL_W - STARS_AT, (name, text, size)
            assert size >= 11, (name, text, size)  # shrunk a little at most: still readable
