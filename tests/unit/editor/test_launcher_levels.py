"""The launcher's way into the editor (``app.launcher``): an *edit* button per bundled
level, the user's levels (play, edit) and *+ new level*, from ``<data dir>/levels/GAME/``."""

from __future__ import annotations

from ecsgoo.app.launcher import Launcher
from ecsgoo.app.progress import Progress
from ecsgoo.editor import Editor, user_levels, user_levels_dir
from ecsgoo.game import GAMES


def _press(launcher: Launcher, action: str):
    (button,) = [b for b in launcher.level_buttons() if b.action == action]
    return launcher.press(button.x + 3, button.y + 3)


def test_the_level_select_edits_bundled_levels_and_lists_the_users_own(tmp_path):
    import games.rope  # noqa: F401 - registers the game

    ed = Editor("rope")
    ed.place("rope_candy", x=300, y=300)
    saved = ed.save()  # no path: the user's levels folder
    assert saved.parent == user_levels_dir("rope") and saved in user_levels("rope")
    launcher = Launcher({"rope": GAMES["rope"]}, Progress.load(tmp_path / "progress.json"))
    launcher.screen = "rope"
    assert _press(launcher, "edit:2") == ("edit", "rope", 2)
    assert _press(launcher, f"user:{saved}") == ("user", "rope", saved)
    assert _press(launcher, f"edit:{saved}") == ("edit", "rope", saved)
    assert _press(launcher, "edit:new") == ("edit", "rope", None)
    reopened = Editor(saved, game="rope")  # what the window opens for that edit button
    assert reopened.things == ed.things and reopened.path == saved
