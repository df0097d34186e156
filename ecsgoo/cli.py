"""ecsgoo: play soft-body physics mini-games, run them headless, check world files.

Examples:

    ecsgoo list                                   # the games and their levels
    ecsgoo play jelly                             # play in a window
    ecsgoo play rope --level 2 --headless --frames 600 --bot --screenshot rope.png
    ecsgoo play docs/examples/mygame.py           # any module that registers a Game
    ecsgoo check world.toml                       # is this world file valid?
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

#: Frames a `play` without a display runs headless (10 s of game time).
FALLBACK_FRAMES = 600


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


def _list(args: argparse.Namespace) -> int:
    from .app.games import discover

    games, errors = discover()
    if not games and not errors:
        print("no games found (bundled games live in games/<name>/; "
              "or run a file: ecsgoo play path/to/mygame.py)")
    for name, cls in games.items():
        print(f"{name:8s} {cls.title}")
        levels = "  ".join(f"{i}: {level}" for i, level in enumerate(cls.levels, 1))
        print(f"{'':8s}   levels  {levels}")
        if cls.bots:
            print(f"{'':8s}   bots    {', '.join(cls.bots)} (--bot alone: {cls.bots[0]})")
    for name, error in errors.items():
        print(f"{name:8s} (failed to load: {error})")
    return 0


def no_display_reason() -> str | None:
    """Why no window can be opened here (``None`` if one probably can)."""
    if os.environ.get("ARCADE_HEADLESS"):
        return "ARCADE_HEADLESS is set"
    unix = sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))
    if unix and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no display found (DISPLAY and WAYLAND_DISPLAY are unset)"
    return None


def _play(args: argparse.Namespace) -> int:
    from .app.games import find_game

    try:
        cls = find_game(args.game)
        game = cls(level=args.level, seed=args.seed)
    except (LookupError, ValueError) as exc:
        return _fail(str(exc))
    bot = _bot_name(game, args.bot)
    if bot is None and args.bot is not None:
        return _fail(f"{game.name} has no bot (ecsgoo list shows each game's bots)")
    wants_file = args.frames is not None or args.screenshot or args.record
    if not args.headless and not wants_file:
        why = no_display_reason()
        if why is None:
            return _play_window(game, bot, args)
        return _fallback(game, bot, why)
    return _headless(game, bot, args.frames if args.frames is not None else FALLBACK_FRAMES,
                     args.screenshot, args.record)


def _bot_name(game: Any, wanted: str | None) -> str | None:
    """``--bot NAME`` → NAME; a bare ``--bot`` (``""``) → the game's first bot; none → None."""
    if wanted == "":
        return _first_bot(game)
    return wanted


def _first_bot(game: Any) -> str | None:
    return game.bots[0] if game.bots else None


def _play_window(game: Any, bot: str | None, args: argparse.Namespace) -> int:
    try:
        from .app.window import PlayerWindow

        PlayerWindow(game, bot)
    except Exception as exc:  # pyglet found no usable display after all
        return _rerun_headless(game, bot, args, f"cannot open a window ({exc})")
    import arcade

    arcade.run()
    return 0


def _rerun_headless(game: Any, bot: str | None, args: argparse.Namespace, why: str) -> int:
    """arcade is already imported for a window: run the fallback in a fresh headless process."""
    import subprocess

    bot, out = _announce_fallback(game, bot, why)
    cmd = [sys.executable, "-m", "ecsgoo", "play", args.game, "--level", str(game.level),
           "--seed", str(game.seed), "--frames", str(FALLBACK_FRAMES), "--record", str(out)]
    cmd += ["--bot", bot] if bot else []
    return subprocess.call(cmd, env={**os.environ, "ARCADE_HEADLESS": "1"})


def _announce_fallback(game: Any, bot: str | None, why: str) -> tuple[str | None, Path]:
    """Say in one line (stderr) why and how the game runs headless instead; return the bot
    it runs with (the one asked for, else the game's first) and the GIF it records to."""
    bot = bot or _first_bot(game)
    out = Path(f"ecsgoo-{game.name}-level{game.level}.gif").resolve()
    who = f" with bot {bot!r}" if bot else ""
    print(f"ecsgoo: {why}; running {game.name} headless for {FALLBACK_FRAMES} frames{who}, "
          f"recording to {out}", file=sys.stderr)
    return bot, out


def _fallback(game: Any, bot: str | None, why: str) -> int:
    """No display: say so in one line, then a headless run with the bot, recorded to a GIF."""
    bot, out = _announce_fallback(game, bot, why)
    return _headless(game, bot, FALLBACK_FRAMES, None, str(out))


def _headless(game: Any, bot: str | None, frames: int, screenshot: str | None,
              record: str | None) -> int:
    if screenshot or record:
        os.environ["ARCADE_HEADLESS"] = "1"  # before arcade is imported: offscreen GL
    from .app.headless import run_headless

    try:
        result = run_headless(game, frames, bot, screenshot, record)
    except ValueError as exc:
        return _fail(str(exc))
    for kind, path in (("screenshot", screenshot), ("recording", record)):
        if path:
            print(f"{kind}: {path}", file=sys.stderr)
    print(json.dumps(result, default=_plain))
    return 0


def _plain(value: Any) -> Any:
    """numpy scalars and arrays (from a game's status extras) as plain JSON values."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)


def _check(args: argparse.Namespace) -> int:
    from .app.games import discover
    from .saving import check_file

    discover()  # the games register their own components: their levels must check too
    try:
        result = check_file(args.file)
    except (OSError, ValueError) as exc:
        return _fail(" ".join(str(exc).split()))
    print(result if result else f"{args.file}: ok")
    return 0


def _bench(rest: list[str]) -> int:
    """Run ``tools/bench.py`` of the source checkout with ``rest`` as its arguments."""
    import runpy

    script = Path(__file__).resolve().parent.parent / "tools" / "bench.py"
    if not script.is_file():
        return _fail("the benchmarks (tools/bench.py) come with a source checkout of ecsgoo")
    sys.argv = [str(script), *rest]
    runpy.run_path(str(script), run_name="__main__")
    return 0


def _fail(message: str) -> int:
    print(f"ecsgoo: error: {message}", file=sys.stderr)
    return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ecsgoo", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("list", help="show the games, their levels and bots").set_defaults(run=_list)
    play = sub.add_parser(
        "play", help="play a game in a window, or headless (--headless)",
        description="Play GAME in a window (mouse and keys; P pause, N step, R restart, "
                    "Tab wireframe, F5/F9 quick save/load, Esc quit). With --headless, or "
                    "--frames/--screenshot/--record, run it without a window and print a JSON "
                    "summary as the last line. Without a display, play falls back to a "
                    f"headless {FALLBACK_FRAMES}-frame run that records a GIF.")
    play.add_argument("game", metavar="GAME", help="a game name (see `ecsgoo list`) or a "
                      "path to a .py file that registers a Game")
    play.add_argument("--level", type=int, default=1, help="level number, from 1 (default 1)")
    play.add_argument("--headless", action="store_true", help="run without a window")
    play.add_argument("--frames", type=int, help=f"frames to run headless "
                      f"(1/60 s each; default {FALLBACK_FRAMES})")
    play.add_argument("--bot", nargs="?", const="", metavar="NAME",
                      help="let the game's bot play (NAME, or the game's first bot)")
    play.add_argument("--seed", type=int, default=0, help="fixes every random choice (default 0)")
    play.add_argument("--screenshot", metavar="PNG", help="save the last frame as a PNG")
    play.add_argument("--record", metavar="GIF", help="record the run as an animated GIF")
    play.set_defaults(run=_play)
    check = sub.add_parser("check", help="validate a world file (TOML): print a summary, or "
                           "the error and exit 1")
    check.add_argument("file", metavar="FILE")
    check.set_defaults(run=_check)
    # `bench` hands all its arguments to tools/bench.py (see main)
    sub.add_parser("bench", help="run the benchmarks: ecsgoo bench [SCENE ...] "
                   "(tools/bench.py of a source checkout)")
    demo = sub.add_parser("demo", help="step a small scene without a window and say what "
                          "happened (a quick install check)")
    demo.add_argument("--frames", type=int, default=120, help="frames to step (default 120)")
    demo.set_defaults(run=_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``ecsgoo`` and ``python -m ecsgoo``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:
        return _bench(argv[1:])
    args = _parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
