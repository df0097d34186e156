"""The example games of docs/examples/ (issue 25): each runs headless to a bot win, stays
short, and uses only names the public contract (docs/api.md) lists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import ecsgoo
from ecsgoo.app import run_headless
from ecsgoo.app.games import load_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
#: example file: (its bot, frames it may take to win)
GAMES = {"sling.py": ("aim", 700), "platformer.py": ("ride", 400), "bridge.py": ("truss", 600)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_bot_wins_headless(name):
    bot, frames = GAMES[name]
    result = run_headless(load_path(EXAMPLES / name)(), frames=frames, bot=bot, progress=False)
    assert result["result"] == "won", result


@pytest.mark.parametrize("name", sorted(GAMES))
def test_short_and_only_public_names(name):
    source = (EXAMPLES / name).read_text(encoding="utf-8")
    assert len(source.splitlines()) < 250
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module.startswith("ecsgoo"):
            for alias in node.names:
                assert re.search(rf"\b{alias.name}\b", api), f"{name}: {alias.name}"
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "ecsgoo":
            assert re.search(rf"\b{node.attr}\b", api), f"{name}: ecsgoo.{node.attr}"
    for used in ("move_to", "kind=", "collide=", "on=", "handlers", "keys_down",
                 "press_key", "motor_speed"):
        if used in source:
            assert used in api, f"{name} uses {used}, which docs/api.md does not list"


def test_a_quick_save_of_the_platformer_continues_with_its_handlers():
    """Saved mid-way and adopted, the game's handler (declared once) still picks coins up,
    bit for bit as the game that went on."""
    cls = load_path(EXAMPLES / "platformer.py")
    game, twin = cls(), cls()
    for _ in range(40):
        game.bot_act("ride")
        game.step()
    twin.adopt(ecsgoo.loads(ecsgoo.dumps(game.world)))
    twin.press_key("right")
    for g in (game, twin):
        for _ in range(300):
            g.bot_act("ride")
            g.step()
    assert game.status().result == twin.status().result == "won"
    assert twin.world.state_hash() == game.world.state_hash()


def test_play_by_path_with_no_game_name(capsys):
    """``ecsgoo play --game FILE`` plays that file's game (not the launcher)."""
    from ecsgoo.cli import main

    args = ["play", "--game", str(EXAMPLES / "platformer.py"), "--headless", "--frames",
            "400", "--bot"]
    assert main(args) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert '"game": "lift"' in last and '"result": "won"' in last
