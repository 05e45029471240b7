"""GIFs worth sharing: they stop once the outcome is settled, stay small, speak a player's words, and are
only written to a file named .gif."""

from __future__ import annotations

from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

from game.core.catalog import pack_entries
from game.core.level import Level
from game.core.physics_catalog import SHIPPED
from ai.facade import SolveContext
from game.core.outcome import explain, settled_at
from game.core.simulation import simulate
from game.app.export import bricks_line, export_gif, home_text, loss_reason, outcome_text
from game.app.assistant.state import AssistantState
from game.app.assistant.tasks import gif_job
from game.app.export_draw import cell_size, footer_height, frame_size, margins, physics_line
from game.app.render import PATH_COLORS
from game.cli.main import main
from tests.conftest import ORIGINAL_PACK

#: A corridor: the lemming walks 5 cells and is home at frame 5; the level runs 60 frames.
CORRIDOR = Level.from_rows([">    T", "XXXXXX"], frames=60, budget=0, title="Corridor")


def test_the_gif_stops_once_everyone_is_home(tmp_path: Path) -> None:
    run = simulate(CORRIDOR)
    home = run.tracks[0].reached_at
    assert home is not None and settled_at(run) == home < CORRIDOR.frames - 1
    info = export_gif(CORRIDOR, (), tmp_path / "corridor.gif", scale=1)
    frames = iio.imread(tmp_path / "corridor.gif", index=None)
    assert info.frames == frames.shape[0] == 1 + (home + 1) + 1  # title, frames 0..home, the held outcome
    assert info.won


def test_the_last_frame_is_held(tmp_path: Path) -> None:
    out = tmp_path / "held.gif"
    export_gif(CORRIDOR, (), out, scale=1, fps=10)
    durations = [iio.immeta(out, index=k)["duration"] for k in range(iio.improps(out, index=None).shape[0])]
    assert durations[1] == 100 and durations[-1] >= 1000, durations


@pytest.mark.parametrize("number", [1, 7, 20, 48, 72])
def test_pack_gifs_are_small(tmp_path: Path, number: int) -> None:
    """A handful of pack levels with no bricks (the lemmings go round until they are lost for good), at the
    default settings."""
    entry = pack_entries()[number - 1]
    level = Level.load(entry.path)
    info = export_gif(level, (), tmp_path / "pack.gif")
    assert info.bytes < 500_000


def test_the_original_gif_is_small(tmp_path: Path) -> None:
    info = export_gif(Level.load(ORIGINAL_PACK), ((2, 1), (5, 4), (6, 6)), tmp_path / "o.gif")
    assert info.won and info.bytes < 200_000


def test_words_on_the_cards() -> None:
    assert bricks_line(3, fewest=True) == "3 bricks, the fewest possible"
    assert bricks_line(1) == "1 brick" and bricks_line(0) == "No bricks"
    assert home_text(2, 3) == "2 of 3 lemmings home" and home_text(1, 1) == "1 of 1 lemming home"
    assert outcome_text(True, 3, 1, 1) == "Won with 3 bricks: 1 of 1 lemming home"
    assert outcome_text(False, 0, 0, 2) == "Lost: 0 of 2 lemmings home"


def test_the_footer_grows_with_the_image() -> None:
    assert footer_height(416, 32) == 32  # a pack level: unchanged
    assert footer_height(4112, 16) > 5 * footer_height(416, 16)


@pytest.mark.parametrize("command", [["export", "1"], ["solve", "1"]])
def test_a_gif_file_must_be_named_gif(tmp_path: Path, command: list[str],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.png"
    assert main([*command, "--gif", str(out)]) == 2 and not out.exists()
    err = capsys.readouterr().err
    assert err.count("does not end in .gif") == 1 and "run.gif" in err


# ---------------------------------------------------------------- the physics on the title card
def gif_of(level: Level, path: Path, **options: bool) -> list[bytes]:
    export_gif(level, (), path, scale=1, **options)
    return [frame.tobytes() for frame in iio.imread(path, index=None)]


@pytest.mark.parametrize("name", ["climber", "restless"])
def test_the_title_card_names_a_physics_other_than_the_classic(tmp_path: Path, name: str) -> None:
    """Without the line naming the rules, the title card is the classic level's."""
    other = CORRIDOR.with_physics(SHIPPED[name])
    classic = gif_of(CORRIDOR, tmp_path / "classic.gif")
    named = gif_of(other, tmp_path / "named.gif")
    unnamed = gif_of(other, tmp_path / "unnamed.gif", name_physics=False)
    assert named[0] != classic[0] and unnamed[0] == classic[0]
    assert physics_line(other).startswith(f"Physics: {name}")
    assert ("targets do not stop lemmings" in physics_line(other)) == (name == "restless")


def test_the_play_screen_keeps_the_rules_of_a_mystery_world_secret(tmp_path: Path) -> None:
    climber = CORRIDOR.with_physics(SHIPPED["climber"])
    cards = []
    for level in (climber, climber.with_meta("world", "The Steps"), CORRIDOR):
        out = tmp_path / f"g{len(cards)}.gif"
        gif_job(level, AssistantState(), (), str(out))(SolveContext.create())
        cards.append(iio.imread(out, index=0).tobytes())
    assert cards[0] != cards[2] and cards[1] == cards[2]  # named on an editor play-test, not in the world


# ---------------------------------------------------------------- a lost run says who missed and why
#: Lemming 1 walks home; lemming 2 paces between the walls of the lower row.
PACER = Level.from_rows(["X>  TX", "XXXXXX", "X>  XX", "XXXXXX"], frames=30, budget=0, title="Pacer")


def outcome_and_before(level: Level, path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The board part (above the footer) of the GIF's outcome frame and of the frame before it."""
    export_gif(level, (), path, scale=1)
    frames = iio.imread(path, index=None)[..., :3].astype(int)
    width, height = frame_size(level, scale=1)
    board = height - footer_height(width, cell_size(1))
    return frames[-1][:board], frames[-2][:board]


def test_a_lost_gif_says_which_lemming_missed_and_why(tmp_path: Path) -> None:
    run = simulate(PACER)
    assert not run.won and [f.lemming for f in explain(run)] == [1]
    assert loss_reason(run) == explain(run)[0].describe(2)  # the loss panel's words
    assert loss_reason(run).startswith("Lemming 2: walking back and forth")
    won_after, won_before = outcome_and_before(CORRIDOR, tmp_path / "won.gif")
    assert np.array_equal(won_after, won_before)  # a won run: nothing is drawn on the board
    lost_after, lost_before = outcome_and_before(PACER, tmp_path / "lost.gif")
    changed = np.abs(lost_after - lost_before).sum(axis=2) > 30
    rows = np.flatnonzero(changed.any(axis=1))
    cell, margin = cell_size(1), margins(cell_size(1))[0]
    strip = footer_height(frame_size(PACER, scale=1)[0], cell)
    assert rows.min() < strip // 2 and rows.max() >= strip  # the caption strip at the top, and the ring lower down
    caption = lost_after[:strip]
    pink = np.abs(caption - np.array(PATH_COLORS[1])).sum(axis=2) < 40
    assert pink.sum() > 20  # the words in lemming 2's colour
    r, c, _ = run.states_at(settled_at(run))[1]
    ring = changed[margin + r * cell - 4:margin + (r + 1) * cell + 4, margin + c * cell - 4:margin + (c + 1) * cell + 4]
    assert ring.sum() > 20  # ringed where it stands


# ---------------------------------------------------------------- a long GIF gets a note naming --fps
@pytest.mark.parametrize("fps, note", [("0.5", True), ("6", False)])
def test_export_notes_a_gif_that_plays_for_over_a_minute(tmp_path: Path, fps: str, note: bool,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The lemming paces a 20-cell corridor until it has gone round once: at half a frame a second, over a
    minute; at 6 frames a second, under 10 s."""
    pacer = Level.from_rows(["X>" + " " * 19 + "XT", "X" * 23], frames=80, budget=0, title="Long")
    level = tmp_path / "long.txt"
    pacer.save(level)
    out = tmp_path / "long.gif"
    assert main(["export", str(level), "--gif", str(out), "--fps", fps]) == 0
    captured = capsys.readouterr()
    frames = iio.improps(out, index=None).shape[0]
    played = sum(iio.immeta(out, index=k)["duration"] for k in range(frames)) / 1000
    assert "GIF saved" in captured.out and "--fps" not in captured.out
    assert (played > 60) == note
    if note:
        assert captured.err.count("\n") == 1 and f"plays for {played:.0f} s" in captured.err
        faster = float(captured.err.split("--fps ")[1].split()[0])
        assert main(["export", str(level), "--gif", str(out), "--force", "--fps", f"{faster:g}"]) == 0
        assert "plays for" not in capsys.readouterr().err
        assert sum(iio.immeta(out, index=k)["duration"] for k in range(frames)) / 1000 <= 60
    else:
        assert captured.err == ""
