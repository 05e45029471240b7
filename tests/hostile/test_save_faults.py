"""Saving the player's files when something is in the way: the lock file, the disk, an earlier file.

Every store reports one clear message naming what is wrong (or raises one :class:`UserFileError`), and
nothing saved before is lost.
"""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pygame
import pytest

from ai.learning.player import load_runs, record_run, runs_path
from game.core.endless_record import EndlessRecord, save_record
from game.core.level import Level
from game.core.progress import ProgressStore
from game.core.puzzles.mines_records import MinesRecords
from game.core.resume import ResumeStore
from game.core.settings import SettingsStore
from game.core.storage import UserFileError
from game.app.display import Screenshots, default_screenshot_path

REPO = Path(__file__).resolve().parents[2]
LEVEL = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2, title="Tiny")


def _save_messages(name: str, path: Path) -> list[str]:
    """Save something to the store ``name`` at ``path``; the store's messages."""
    if name == "progress.json":
        progress = ProgressStore.load(path)
        progress.record_win("a.txt", LEVEL, [(1, 2)])
        return progress.messages
    if name == "settings.json":
        settings = SettingsStore.load(path)
        settings.update(muted=True)
        return settings.messages
    if name == "resume.json":
        resume = ResumeStore.load(path)
        resume.remember("a.txt", "h", [(1, 1)])
        return resume.messages
    mines = MinesRecords.load(path)
    mines.record(9, 9, 10, won=True, seconds=3.0)
    return mines.messages


@pytest.mark.parametrize("kind", ["folder", "dangling link"])
@pytest.mark.parametrize("name", ["progress.json", "settings.json", "resume.json", "minesweeper.json"])
def test_a_lock_file_in_the_way_is_one_message_naming_it(name: str, kind: str, tmp_path: Path) -> None:
    lock = tmp_path / f".{name}.lock"
    if kind == "folder":
        lock.mkdir()
    else:
        lock.symlink_to(tmp_path / "nowhere")
    messages = _save_messages(name, tmp_path / name)
    assert len(messages) == 1 and str(lock) in messages[0] and "lock file" in messages[0]
    assert not (tmp_path / name).exists()


def test_endless_save_with_a_folder_as_its_lock_raises_one_user_file_error(tmp_path: Path) -> None:
    lock = tmp_path / ".endless.json.lock"
    lock.mkdir()
    with pytest.raises(UserFileError, match="lock file") as caught:
        save_record(EndlessRecord(seed=1), tmp_path / "endless.json")
    assert str(lock) in str(caught.value)


def test_two_screenshots_in_the_same_second_are_both_kept(data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("game.app.display.time.strftime", lambda fmt, *when: "20260101-120000")
    shots = Screenshots()
    red, blue = pygame.Surface((4, 3)), pygame.Surface((4, 3))
    red.fill((255, 0, 0))
    blue.fill((0, 0, 255))
    first = shots.save(red, default_screenshot_path())
    second = shots.save(blue, default_screenshot_path())
    assert first != second and second.name == "lemming-bricks-20260101-120000-2.png"
    assert pygame.image.load(first).get_at((0, 0))[:3] == (255, 0, 0)
    assert pygame.image.load(second).get_at((0, 0))[:3] == (0, 0, 255)


def test_damaged_minesweeper_entries_survive_the_next_save_in_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "minesweeper.json"
    original = json.dumps({"version": 1, "boards": {"9x9/10": {"wins": 3, "losses": 1, "best_seconds": 20.5},
                                                    "16x16/40": {"wins": 7, "losses": 2, "best_seconds": -1}}})
    path.write_text(original)
    store = MinesRecords.load(path)
    assert len(store.messages) == 1 and "16x16/40" in store.messages[0]
    store.record(9, 9, 10, won=True, seconds=30.0)  # the save writes only the good board back
    assert MinesRecords.load(path).get(9, 9, 10).wins == 4
    (aside,) = tmp_path.glob("minesweeper.json.corrupt-*")
    assert aside.read_text() == original and aside.name in store.messages[0]


RUNS_WRITER = textwrap.dedent("""
    import sys  # late: the script a child process runs
    from game.core.level import Level  # late: the script a child process runs
    from ai.learning.player import record_run  # late: the script a child process runs
    folder, me, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    level = Level.from_rows(["> ....T", "XX...XX", "XXXXXXX"], frames=9, budget=2)
    for k in range(n):
        record_run(folder, level.with_limits(frames=10 + k, budget=2), [(1, 2 + me)])
""")


def test_two_games_storing_runs_at_once_lose_none(tmp_path: Path) -> None:
    runs = 80
    procs = [subprocess.Popen([sys.executable, "-c", RUNS_WRITER, str(tmp_path), str(me), str(runs)], cwd=REPO,
                              stderr=subprocess.PIPE, text=True) for me in (0, 1)]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    stored = load_runs(tmp_path)
    assert len(stored) == 2 * runs
    assert sorted((r.bricks[0][1], r.frames) for r in stored) == sorted(
        (2 + me, 10 + k) for me in (0, 1) for k in range(runs))


@pytest.mark.parametrize("kind", ["an unreadable run", "another format"])
def test_runs_the_ai_cannot_read_survive_the_next_store_in_a_copy(kind: str, tmp_path: Path) -> None:
    good = {"grid": ["> ..T", "XX.XX", "XXXXX"], "frames": 6, "budget": 2, "bricks": [[1, 2]], "when": 1.0}
    doc = ({"format": "lemming-bricks-observed-runs", "version": 1,
            "runs": [good, {**good, "bricks": [[50, 50]]}, {**good, "physics": 7}]}
           if kind == "an unreadable run" else {"format": "lemming-bricks-observed-runs-v9", "runs": [good]})
    path = runs_path(tmp_path)
    path.write_text(json.dumps(doc))
    problems: list[str] = []
    stored = record_run(tmp_path, LEVEL, [(0, 2)], problems)
    assert stored == (2 if kind == "an unreadable run" else 1)
    (aside,) = tmp_path.glob("observed_runs.json.corrupt-*")
    assert json.loads(aside.read_text()) == doc
    assert len(problems) == 1 and aside.name in problems[0] and "could not be read" in problems[0]
    record_run(tmp_path, LEVEL, [(1, 2)], problems)  # written back without them: said once, one copy
    assert len(problems) == 1 and len(list(tmp_path.glob("observed_runs.json.corrupt-*"))) == 1


def test_a_damaged_side_puzzle_record_survives_the_next_save_in_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    original = json.dumps({"version": 1, "levels": {}, "puzzles": {
        "life/a.txt": {"solved": True, "best": 0, "hash": "h"}, "life/b.txt": {"best": "three"}}})
    path.write_text(original)
    store = ProgressStore.load(path)
    assert len(store.messages) == 1 and "1 unreadable record" in store.messages[0]
    store.record_attempt("x.txt")  # the save writes the good records back
    assert set(json.loads(path.read_text())["puzzles"]) == {"life/a.txt"}
    (aside,) = tmp_path.glob("progress.json.corrupt-*")
    assert aside.read_text() == original and aside.name in store.messages[0]


@pytest.mark.parametrize("name", ["settings.json", "progress.json", "minesweeper.json"])
def test_a_full_disk_while_keeping_a_copy_leaves_the_file_whole(name: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    original = {"settings.json": '{"speed": 4, "music_volume": "loud"}',
                "progress.json": '{"version": 1, "levels": {"a": {"attempts": 3}, "b": {"best_bricks": -1}}}',
                "minesweeper.json": '{"version": 1, "boards": {"9x9/10": {"wins": 2}, "8x8/10": {"wins": -1}}}'}[name]
    path = tmp_path / name
    path.write_text(original)

    def half_then_full(src: Path | str, dst: Path | str) -> None:
        Path(dst).write_bytes(Path(src).read_bytes()[:5])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copy2", half_then_full)
    monkeypatch.setattr("game.core.writing.atomic_write_text", half_then_full)  # and no save gets through
    _save_messages(name, path)
    assert path.read_text() == original  # the player's file, whole
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [name]  # no half copy
