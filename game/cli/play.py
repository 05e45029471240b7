"""UI subcommands: ``play [LEVEL]`` (the default command: ``python main.py`` opens the title menu,
whose "Continue" opens the level the player was on, or the next unsolved one).

:func:`extend` adds the UI's outputs to other packages' commands (``solve --gif``), so that ``ai``
never imports the UI.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from game.cli.args import bricks_arg, int_arg, output_kind_arg, path_arg

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
    from game.core.errors import GameError
    from game.core.settings import MAX_WINDOW, MIN_WINDOW, SettingsStore

    saved = SettingsStore.load().settings.window_size
    size = (args.width or saved[0], args.height or saved[1])
    if not all(lo <= v <= hi for v, lo, hi in zip(size, MIN_WINDOW, MAX_WINDOW)):
        raise GameError(f"--width/--height: window size {size[0]}x{size[1]} is outside {MIN_WINDOW[0]}x{MIN_WINDOW[1]} .. "
                        f"{MAX_WINDOW[0]}x{MAX_WINDOW[1]}")
    return size


def _resolve(spec: str) -> Path:
    from game.cli.level import resolve_level_path

    return resolve_level_path(spec)


def _find(entries: list, spec: str) -> tuple[list | None, int]:  # type: ignore[type-arg]
    """The pack playlist and index for a level number or pack file path."""
    from game.core.catalog import Section

    pack = [e for e in entries if e.section == Section.PACK]
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


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
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

    from game.cli.edit import register as register_editor

    register_editor(sub)  # ``edit [LEVEL]``

    from game.cli.export import register_cli as register_export

    register_export(sub)  # ``export LEVEL --gif OUT.gif``


def _check_solve_gif(args: argparse.Namespace, level: Any) -> None:
    """``solve --gif``: the map must fit a GIF at some scale (checked before the solve)."""
    if getattr(args, "gif", None):
        from game.app.export_draw import check_frame_size

        check_frame_size(level, 1)  # the smallest scale; the GIF is written at the largest that fits


def _solve_gif(args: argparse.Namespace, level: Any, result: Any) -> None:
    """``solve --gif OUT.gif``: the solution (or, with ``--lp``, the densities) as an animated GIF."""
    if not getattr(args, "gif", None):
        return
    from game.cli.export import export_solve_result, output_errors
    from game.app.export_draw import fit_scale

    with output_errors(args.gif):
        saved = export_solve_result(level, result, args.gif, scale=max(1, fit_scale(level)))  # big maps: small cells
    print(saved.describe(), file=sys.stderr if getattr(args, "json", False) else sys.stdout)


def extend(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the UI's options to commands other modules registered: ``solve --gif``."""
    solve = sub.choices.get("solve")
    if solve is None:
        return
    solve.add_argument("--gif", default=None, type=output_kind_arg("gif"), metavar="OUT.gif",
                       help="also export the solution (or, with --lp, the densities) as an animated GIF")
    outputs = tuple(solve.get_default("solve_outputs") or ())
    checks = tuple(solve.get_default("solve_checks") or ())
    solve.set_defaults(solve_outputs=outputs + (_solve_gif,), solve_checks=checks + (_check_solve_gif,))
