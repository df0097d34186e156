"""ecsgoo: play soft-body physics mini-games, run them headless, check world files.

Examples:

    ecsgoo list                                   # the games and their levels
    ecsgoo play jelly                             # play in a window
    ecsgoo play rope --level 2 --headless --frames 600 --bot --screenshot rope.png
    ecsgoo play docs/examples/mygame.py           # any module that registers a Game
    ecsgoo play quicksave-goo-1.toml              # continue a quick save (F5)
    ecsgoo check world.toml                       # is this world file valid?
    ecsgoo edit rope --level 2                    # the level editor (a new level: no --level)
    ecsgoo play rope my-level.toml                # play a level of your own
    ecsgoo eval suika --bot greedy --bot random --seeds 20 --workers 2

Set ECSGOO_TRACEBACK=1 to see the full Python traceback of an error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import sysconfig
import traceback
from pathlib import Path
from typing import Any

#: Most frames a `play` without a display runs headless (3 min of game time): the run ends a
#: second after the level is won or lost, so the GIF shows how it ends (a bot wins any
#: bundled level well within it).
FALLBACK_FRAMES = 10800


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
    from .app.progress import Progress, listing

    games, errors = discover()
    progress = Progress.load()
    if progress.problem:
        print(f"ecsgoo: {progress.problem}", file=sys.stderr)
    if args.json:
        print(json.dumps(listing(games, progress)))
        return 0
    if not games and not errors:
        print("no games found (bundled games live in games/<name>/; "
              "or run a file: ecsgoo play path/to/mygame.py)")
    for name, cls in games.items():
        print(f"{name:8s} {cls.title}")
        levels = "  ".join(f"{i}: {level}" for i, level in enumerate(cls.levels, 1))
        print(f"{'':8s}   levels  {levels}")
        bests = [f"{i}: {b.best_score} {'*' * b.best_stars}".rstrip()
                 for i, b in ((i, progress.best(name, i)) for i in range(1, len(cls.levels) + 1))
                 if b.best_score or b.best_stars]
        if bests:
            print(f"{'':8s}   best    {'  '.join(bests)}")
        top = progress.top.get(name)
        if top:
            print(f"{'':8s}   top     " + ", ".join(f"{t['score']} ({t['date']})" for t in top[:3]))
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
    from . import startup

    startup.hold()  # no collector scans until the game's first frame, or a cold compile
    try:
        for kind, path in (("screenshot", args.screenshot), ("recording", args.record)):
            if path:
                _check_output(path, kind)
        if args.game is None and args.game_path is not None:  # --game x.py: play that one
            args.game, args.game_path = args.game_path, None
        if args.game is None:
            return _launcher(args)
        game = _make_game(args)
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
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a game's own code failed: say where, in its files
        return _fail_with_frames(exc)
    finally:
        startup.settle()  # where no frame came


def _launcher(args: argparse.Namespace) -> int:
    """``ecsgoo play`` with no game: the launcher in a window, or drawn into ``--screenshot``."""
    if args.headless or args.screenshot or no_display_reason() is not None:
        if not args.screenshot:
            return _fail("the launcher needs a window; headless, give --screenshot menu.png "
                         "(or a game: ecsgoo list)")
        os.environ["ARCADE_HEADLESS"] = "1"
        from .app.games import discover
        from .app.headless import offscreen_window
        from .app.launcher import SIZE, Launcher, draw_launcher

        launcher = Launcher(discover()[0])
        draw_launcher(launcher, offscreen_window(SIZE)).save(args.screenshot)
        print(f"screenshot: {args.screenshot}", file=sys.stderr)
        return 0
    from .app.window import play_window

    play_window(None)
    return 0


def _check_output(path: str, kind: str) -> None:
    """Refuse a bad output path before anything is built or imported (one-line error)."""
    from .app.headless import check_output

    check_output(path, kind)


def _make_game(args: argparse.Namespace) -> Any:
    """The game to play: a name, a ``.py`` file, or a saved world (``.toml``) to continue."""
    from .app.games import find_game, resume

    if args.game.endswith(".toml"):
        return resume(args.game, args.game_path)
    if args.game_path is not None:
        raise LookupError("--game is for playing or checking a saved world (a .toml file)")
    if args.file is not None:  # ecsgoo play GAME FILE.toml: a level of the user's own
        return find_game(args.game).custom_level(path=args.file, seed=args.seed)
    return find_game(args.game)(level=args.level, seed=args.seed)


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
    cmd = [sys.executable, "-m", "ecsgoo", "play", args.game, *([args.file] if args.file else []),
           "--frames", str(FALLBACK_FRAMES),
           "--record", str(out)]
    if not args.game.endswith(".toml"):
        cmd += ["--level", str(game.level), "--seed", str(game.seed)]
    cmd += ["--bot", bot] if bot else []
    cmd += ["--game", args.game_path] if args.game_path else []
    return subprocess.call(cmd, env={**os.environ, "ARCADE_HEADLESS": "1"})


def _announce_fallback(game: Any, bot: str | None, why: str) -> tuple[str | None, Path]:
    """Say in one line (stderr) why and how the game runs headless instead; return the bot
    it runs with (the one asked for, else the game's first) and the GIF it records to."""
    from .app.player import data_dir

    bot = bot or _first_bot(game)
    out = data_dir() / "recordings" / f"{game.name}-level{game.level}.gif"
    out.parent.mkdir(parents=True, exist_ok=True)
    who = f" with bot {bot!r}" if bot else ""
    print(f"ecsgoo: {why}; running {game.name} headless{who} until the level is decided "
          f"(at most {FALLBACK_FRAMES} frames), recording to {out}", file=sys.stderr)
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

    result = run_headless(game, frames, bot, screenshot, record)
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


def _edit(args: argparse.Namespace) -> int:
    """``ecsgoo edit GAME [--level N | FILE.toml]``: the level editor, or its picture."""
    try:
        if args.screenshot:
            _check_output(args.screenshot, "screenshot")
        if args.file is not None and args.level is not None:
            return _fail("give --level N or a FILE.toml, not both")
        from .editor import Editor

        editor = Editor(args.file, game=args.game, level=args.level)
        if args.headless or args.screenshot or no_display_reason() is not None:
            if not args.screenshot:
                return _fail("the editor needs a window; headless, give --screenshot PNG "
                             "(or drive it from Python: ecsgoo.editor.Editor)")
            os.environ["ARCADE_HEADLESS"] = "1"
            from .editor.window import screenshot

            screenshot(editor, args.screenshot)
            print(f"screenshot: {args.screenshot}", file=sys.stderr)
            return 0
        from .editor.window import edit_window

        edit_window(editor)
        return 0
    except KeyboardInterrupt:
        return 130
    except (LookupError, ValueError, OSError) as exc:
        return _fail(" ".join(str(exc).split()))


def _check(args: argparse.Namespace) -> int:
    from .app.games import discover, load_path
    from .saving import check_file

    try:
        if args.game_path is not None:  # a custom game registers its components and stages
            load_path(args.game_path)
    except Exception as exc:
        return _fail_with_frames(exc)
    discover()  # the games register their own components: their levels must check too
    try:
        result = check_file(args.file)
    except (OSError, ValueError) as exc:
        return _fail(" ".join(str(exc).split()))
    print(result if result else f"{args.file}: ok")
    return 0


def _eval(args: argparse.Namespace) -> int:
    """Play the seeds with each bot or policy; a progress bar, then one JSON line each."""
    from .evaluate import LostEpisodes, check, evaluate, summarize
    from .evaluate.report import plot, write_csv
    from .progress_bar import bar as progress_bar

    try:
        for kind, path in (("csv", args.csv), ("plot", args.plot)):
            if path:
                _check_output(path, kind)
        players = [*(args.bot or ()), *(args.policy or ())] or _default_bot(args.game)
        seeds = check(args.game, args.level, players, args.seeds, args.frames)
    except (LookupError, ValueError) as exc:
        return _fail(" ".join(str(exc).split()))
    total = len(players) * len(seeds)
    lost = None
    with progress_bar(total, f"{args.game} eval", "episode") as bar:
        try:
            runs = evaluate(args.game, players, seeds, args.level, args.frames,
                            args.workers, args.engine, args.address, progress=bar.update)
        except KeyboardInterrupt:
            return 130
        except LostEpisodes as exc:  # what finished is written, the rest reported
            runs, lost = {p: e for p, e in exc.runs.items() if e}, exc
        except ConnectionError as exc:  # a Ray cluster that is not there
            return _fail(" ".join(str(exc).split()))
        except Exception as exc:  # a game's own code failed (or the engine, or a policy)
            return _fail_with_frames(exc)
    if args.csv:
        write_csv(args.csv, runs)
        print(f"csv: {args.csv}", file=sys.stderr)
    if args.plot:
        try:
            plot(args.plot, runs)
        except LookupError as exc:
            return _fail(str(exc))
        print(f"plot: {args.plot}", file=sys.stderr)
    for episodes in runs.values():
        print(json.dumps(summarize(episodes, args.frames), default=_plain))
    if lost is not None:
        return _fail(str(lost))
    return 0


def _default_bot(target: str) -> list[str]:
    """Neither --bot nor --policy: the game's default bot (its first), or LookupError."""
    from .evaluate import _game_class

    cls = _game_class(target)
    if not cls.bots:
        raise LookupError(f"{cls.name} has no bot: give --policy module:function")
    return [cls.bots[0]]


def _seeds(text: str) -> list[int]:
    from .evaluate import parse_seeds

    try:
        return parse_seeds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _bench(rest: list[str]) -> int:
    """Run ``tools/bench.py`` of the source checkout with ``rest`` as its arguments."""
    import runpy

    script = Path(__file__).resolve().parent.parent / "tools" / "bench.py"
    if not script.is_file():
        return _fail("the benchmarks (tools/bench.py) come with a source checkout of ecsgoo")
    sys.argv = [str(script), *rest]
    try:
        runpy.run_path(str(script), init_globals={"PROG": "ecsgoo bench"}, run_name="__main__")
    except SystemExit as exc:  # its own --help or usage error
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def _frames(text: str) -> int:
    """A ``--frames`` value: a whole number >= 0 (argparse reports anything else in one line)."""
    try:
        frames = int(text)
    except ValueError:
        frames = -1
    if frames < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    return frames


def _fail(message: str) -> int:
    print(f"ecsgoo: error: {message}", file=sys.stderr)
    return 1


#: Errors whose message says it all; others are named by their type too.
_PLAIN = (LookupError, ValueError)


def _fail_with_frames(exc: BaseException) -> int:
    """Report ``exc`` in one line plus the frames of the game's own files that raised it.

    The player's and the framework's frames (and the standard library's) are
    left out: the user can act only on their game's code. ``ECSGOO_TRACEBACK=1``
    prints the whole traceback instead.
    """
    if os.environ.get("ECSGOO_TRACEBACK"):
        traceback.print_exception(exc)
        return 1
    text = " ".join(str(exc).split())
    if not isinstance(exc, _PLAIN) or isinstance(exc, KeyError):
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    _fail(text)
    for frame in traceback.extract_tb(exc.__traceback__):
        if _is_game_code(frame.filename):
            print(f"  {_shown(frame.filename)}:{frame.lineno} in {frame.name}: "
                  f"{(frame.line or '').strip()}", file=sys.stderr)
    return 1


_OURS = Path(__file__).resolve().parent
_LIBRARIES = {Path(p).resolve() for key in ("stdlib", "platstdlib", "purelib", "platlib")
              if (p := sysconfig.get_paths().get(key))}


def _is_game_code(filename: str) -> bool:
    """Whether a traceback frame's file is a game's (bundled or the user's), not ecsgoo's."""
    path = Path(filename).resolve()
    if path.is_relative_to(_OURS) or not path.is_file():
        return False
    try:
        import games

        if any(path.is_relative_to(Path(d).resolve()) for d in games.__path__):
            return True
    except ImportError:
        pass
    return not any(path.is_relative_to(lib) for lib in _LIBRARIES)


def _shown(filename: str) -> str:
    """A path as the user typed it: relative to the current folder when inside it."""
    path = Path(filename).resolve()
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and each subcommand's own (for errors in its usage)."""
    parser = argparse.ArgumentParser(
        prog="ecsgoo", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ecsgoo {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands = {"list": sub.add_parser("list", help="show the games, their levels and bots")}
    commands["list"].add_argument("--json", action="store_true",
                                  help="print the games, levels and best results as JSON")
    commands["list"].set_defaults(run=_list)
    commands["play"] = play = sub.add_parser(
        "play", help="play a game in a window, or headless (--headless)",
        description="Play GAME in a window (mouse and keys; P pause, N step, R restart, "
                    "Tab wireframe, F5/F9 quick save/load, Esc back to the launcher). With "
                    "--headless, or --frames/--screenshot/--record, run it without a window and "
                    "print a JSON summary as the last line; a headless run ends one second "
                    "after the game is won or lost. Without a display, play falls back to a "
                    f"headless run (until the level is decided, at most {FALLBACK_FRAMES} "
                    "frames) that records a GIF in the data folder.")
    play.add_argument("game", metavar="GAME", nargs="?", help="none: the launcher; a game "
                      "name (see `ecsgoo list`), a path to a .py file that registers a Game, "
                      "or a saved world (.toml) to continue")
    play.add_argument("file", metavar="FILE", nargs="?", help="a level file of GAME's own "
                      "(made with `ecsgoo edit`) to play instead of its bundled levels")
    play.add_argument("--level", type=int, default=1, help="level number, from 1 (default 1)")
    play.add_argument("--headless", action="store_true", help="run without a window")
    play.add_argument("--frames", type=_frames, help=f"most frames to run headless "
                      f"(1/60 s each; default {FALLBACK_FRAMES})")
    play.add_argument("--bot", nargs="?", const="", metavar="NAME",
                      help="let the game's bot play (NAME, or the game's first bot)")
    play.add_argument("--seed", type=int, default=0, help="fixes every random choice (default 0)")
    play.add_argument("--screenshot", metavar="PNG", help="save the last frame as a PNG")
    play.add_argument("--record", metavar="GIF", help="record the run as an animated GIF")
    _game_option(play)
    play.set_defaults(run=_play)
    commands["edit"] = edit = sub.add_parser(
        "edit", help="the level editor: make or change a level and save it as TOML",
        description="Edit a level of GAME in a window: a tool strip (select, every piece), "
                    "the level, a property panel. Mouse: place, select (click, box), move, "
                    "turn, size; keys: Ctrl+Z/Ctrl+Y undo/redo, Ctrl+S save (into "
                    "<data dir>/levels/GAME/), Ctrl+D duplicate, Delete, G grid snap, Space "
                    "play-test (B its bot, Esc back). With no level: a new, empty one.")
    edit.add_argument("game", metavar="GAME", help="a game name (see `ecsgoo list`)")
    edit.add_argument("file", metavar="FILE", nargs="?", help="a level file (.toml) to edit")
    edit.add_argument("--level", type=int, help="a bundled level to edit (saves go to the "
                      "user's folder, never over it)")
    edit.add_argument("--headless", action="store_true", help="no window: draw the editor "
                      "into --screenshot")
    edit.add_argument("--screenshot", metavar="PNG", help="save the editor's picture as a PNG")
    edit.set_defaults(run=_edit)
    commands["check"] = check = sub.add_parser(
        "check", help="validate a world file (TOML): print a summary, or the error and exit 1")
    check.add_argument("file", metavar="FILE")
    _game_option(check)
    check.set_defaults(run=_check)
    from .game import EPISODE_FRAMES as FRAMES  # not evaluate's: it imports multiprocessing

    commands["eval"] = ev = sub.add_parser(
        "eval", help="play seeds with bots or policies and print their scores (JSON)",
        description="Play GAME_OR_ENV on the seeds with each --bot and --policy (every one "
                    "gets the same games: the seed fixes every random choice). suika, rope and "
                    "goo are played through their Gymnasium environments (gymnasium.make(ID, "
                    "level=L, max_frames=F)), the others as the headless run of `ecsgoo play "
                    "GAME --headless --bot NAME --seed S --frames F`. Shows a progress bar on "
                    "stderr, then prints one JSON line per bot or policy: game, level, bot or "
                    "policy, episodes, mean, std (sample), ci95 (Student t), min, max, won, "
                    "scores, seeds, frames_cap (env, steps_cap), version, commit. The scores are "
                    "the same whatever the engine and the number of workers; no file of the "
                    "player's is read or written.")
    ev.add_argument("game", metavar="GAME_OR_ENV", help="a game name (see `ecsgoo list`), an "
                    "environment id (ecsgoo/Suika-v0) or a path to a .py file that registers "
                    "a Game")
    ev.add_argument("--bot", action="append", metavar="NAME",
                    help="a bot of the game; repeat it to compare bots on the same seeds "
                         "(default, with no --policy: the game's first bot)")
    ev.add_argument("--policy", action="append", metavar="MODULE:FUNCTION",
                    help="a Gymnasium policy, action = FUNCTION(observation), importable "
                         "(the current folder counts); repeatable, and beside --bot")
    ev.add_argument("--seeds", type=_seeds, required=True, metavar="SEEDS",
                    help="N: seeds 0..N-1; A-B: seeds A..B; or a comma list (3,5,10-12)")
    ev.add_argument("--level", type=int, default=1, help="level number, from 1 (default 1)")
    ev.add_argument("--frames", type=_frames, default=FRAMES, metavar="F",
                    help=f"most frames an episode runs (1/60 s each; default {FRAMES})")
    ev.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="K",
                    help="episodes at once (default: the number of CPUs; 1 plays in this "
                         "process)")
    ev.add_argument("--engine", choices=("local", "ray"), default="local",
                    help="local: a process pool (default); ray: Ray tasks, on a local Ray "
                         "instance started for the run or on the cluster at --address "
                         "(pip install 'ecsgoo[ray]')")
    ev.add_argument("--address", metavar="ADDR", help="a running Ray cluster: auto, or "
                    "ray://HOST:10001 (its nodes need ecsgoo installed)")
    ev.add_argument("--csv", metavar="FILE", help="write one row per bot and seed")
    ev.add_argument("--plot", metavar="PNG", help="draw each bot's score histogram, its mean "
                    "and the mean's 95%% interval (pip install 'ecsgoo[plot]')")
    ev.set_defaults(run=_eval)
    # `bench` hands all its arguments to tools/bench.py (see main)
    commands["bench"] = sub.add_parser(
        "bench", help="run the benchmarks: ecsgoo bench [SCENE ...] (tools/bench.py of a "
        "source checkout; ecsgoo bench --help lists the scenes)")
    commands["demo"] = demo = sub.add_parser(
        "demo", help="step a small scene without a window and say what happened (a quick "
        "install check)")
    demo.add_argument("--frames", type=_frames, default=120, help="frames to step (default 120)")
    demo.set_defaults(run=_demo)
    return parser, commands


def _game_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--game", dest="game_path", metavar="PY", help="the module of the "
                         "custom game a saved world belongs to (its components and stages); "
                         "a world file never names code to import. With no GAME, play "
                         "this game file")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ecsgoo")
    except PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``ecsgoo`` and ``python -m ecsgoo``."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["bench"]:
        return _bench(argv[1:])
    parser, commands = _parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # say it in the usage of the subcommand it was given to
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
