"""UI subcommand: ``play [LEVEL]`` (the default command: ``python main.py`` opens the title menu,
whose "Continue" opens the level the player was on, or the next unsolved one)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.cli.args import Subparsers, bricks_arg, int_arg, output_kind_arg, path_arg
from game.cli.level import resolve_level_path
from game.core.errors import GameError

if TYPE_CHECKING:
    from game.core.catalog import LevelEntry

#: The largest window ``play`` accepts (pixels); the smallest is the settings' minimum window size.
MAX_WIDTH, MAX_HEIGHT = 7680, 4320


def _cmd_play(args: argparse.Namespace) -> int:
    from game.app.app import FixedClock  # (the app and pygame load only when the game starts)
    from game.app.compose import build_app
    from game.app.input import Act
    from game.core.catalog import LevelEntry, Section, all_entries

    entries = all_entries()
    playlist: list[Any] | None = None
    index = 0
    if args.level is not None:  # read the level before any window or audio device opens: a bad
        spec = args.level        # file gets its one message, with no audio warning before it
        playlist, index = _find(entries, spec)
        if playlist is None:
            from game.cli.level import load_level
            from game.core.progress import level_key

            path = _resolve(spec)
            level = load_level(spec)
            playlist, index = [LevelEntry(level_key(path), path, level, Section.FILE)], 0
    bricks: tuple[tuple[int, int], ...] = ()
    if args.bricks and playlist is not None:
        from game.core.rules import check_bricks, parse_bricks

        bricks = check_bricks(playlist[index].level, parse_bricks(args.bricks))
    size = _window_size(args)
    app = build_app(size=size, clock=FixedClock() if args.frames else None)
    app.open("menu")
    if playlist is None:  # the title menu: Continue / Levels / ...
        if args.screenshot:
            app.action_filters.append(lambda action: action.kind == Act.HOVER)
        return app.start(frames=args.frames, screenshot=args.screenshot, screenshot_frame=args.screenshot_frame)
    app.open("select", entries=entries)
    scene = app.open("play", playlist=playlist, index=index)
    if bricks:
        scene.apply_bricks(bricks, assisted=False)
        if args.release:
            scene.toggle_run()
    if args.preview:
        scene.preview = True
    if args.no_preview:
        scene.preview = False
    if args.screenshot:
        app.action_filters.append(lambda action: action.kind == Act.HOVER)  # no stray pointer in shots
    return app.start(frames=args.frames, screenshot=args.screenshot, screenshot_frame=args.screenshot_frame)


def _window_size(args: argparse.Namespace) -> tuple[int, int]:
    """``--width``/``--height`` (checked), else the saved window size."""
    from game.core import settings  # late: the settings store loads only when a window opens

    saved = settings.SettingsStore.load().settings.window_size
    size = (args.width or saved[0], args.height or saved[1])
    low, high = settings.MIN_WINDOW, settings.MAX_WINDOW
    if not all(lo <= v <= hi for v, lo, hi in zip(size, low, high)):
        raise GameError(f"--width/--height: window size {size[0]}x{size[1]} is outside {low[0]}x{low[1]} .. "
                        f"{high[0]}x{high[1]}")
    return size


def _resolve(spec: str) -> Path:
    """The path of a level argument (a file, or a pack level number)."""
    return resolve_level_path(spec)


def _find(entries: list[LevelEntry], spec: str) -> tuple[list[LevelEntry] | None, int]:
    """The pack playlist and index for a level number or pack file path."""
    pack = [e for e in entries if e.section == "pack"]  # Section.PACK (a str enum) of game.core.catalog
    try:
        exists = Path(spec).exists()
        resolved = Path(spec).resolve()
    except (OSError, RuntimeError):  # a name too long, a link loop: load_level reports it
        return None, 0
    if spec.isascii() and spec.isdigit() and len(spec) < 10 and not exists:
        i = int(spec) - 1
        if 0 <= i < len(pack):
            return pack, i
        return None, 0
    for i, e in enumerate(pack):
        if e.path is not None and e.path.resolve() == resolved:
            return pack, i
    return None, 0


def register(sub: Subparsers) -> None:
    """Add ``play``."""
    p = sub.add_parser("play", help="play the game (default command; opens the title menu)")
    p.add_argument("level", nargs="?", default=None, type=path_arg,
                   help="level file or pack level number (default: the title menu)")
    p.add_argument("--width", type=int_arg(0, MAX_WIDTH), default=0,
                   help="window width in pixels (default: from the settings; at least 640)")
    p.add_argument("--height", type=int_arg(0, MAX_HEIGHT), default=0,
                   help="window height in pixels (default: from the settings; at least 400)")
    p.add_argument("--bricks", default="", type=bricks_arg, help='start with these bricks, "r,c;r,c;..."')
    p.add_argument("--release", action="store_true", help="release the lemmings at once (with --bricks)")
    p.add_argument("--preview", action="store_true", help="start with the trajectory preview on")
    p.add_argument("--no-preview", action="store_true", help="start with the trajectory preview off")
    p.add_argument("--screenshot", default="", type=output_kind_arg("png"),
                   help="save a PNG screenshot after --screenshot-frame frames")
    p.add_argument("--screenshot-frame", type=int_arg(0, 10_000_000), default=30,
                   help="frame at which --screenshot is taken")
    p.add_argument("--frames", type=int_arg(0, 10_000_000), default=0,
                   help="run this many frames with a fixed 60 fps clock, then exit (for scripts)")
    p.set_defaults(handler=_cmd_play)
