"""A save that fails mid-game (a full disk, a folder in the way) is shown once as a toast and logged."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from game.app.app import App
from game.app.compose import build_app
from game.app.display import FixedClock
from game.core.error_log import error_log_path


def _toasts(app: App) -> list[str]:
    return [str(t[0]) for t in app.toasts]


def test_a_resume_save_that_fails_is_toasted_once(app: App) -> None:
    assert app.resume.path is not None
    app.resume.path.parent.mkdir(parents=True, exist_ok=True)
    app.resume.path.mkdir()  # a folder where the file goes
    app.toasts.clear()
    app.resume.remember("a.txt", "h", [(1, 1)])
    app.run_frames(3)
    failed = [t for t in _toasts(app) if "could not save" in t]
    assert len(failed) == 1 and "folder" in failed[0]
    assert "could not save" in error_log_path().read_text()


def test_a_side_puzzle_save_on_a_full_disk_is_toasted(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(path: Path | str, text: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("game.core.writing.atomic_write_text", full)
    app.toasts.clear()
    app.progress.record_puzzle("life/a", "h", 0)  # a solved Life puzzle is saved at once
    app.run_frames(1)
    assert [t for t in _toasts(app) if "could not save progress" in t and "No space left" in t]


def test_messages_read_at_start_are_not_shown_again(app: App) -> None:
    app.progress.messages.append("progress.json unusable (test)")
    app.store_reports.at_start()
    shown = _toasts(app).count("progress.json unusable (test)")
    app.run_frames(3)
    assert shown == 1 and _toasts(app).count("progress.json unusable (test)") == 1


def test_a_settings_problem_read_at_start_is_not_shown_again_on_the_next_change(data_home: Path) -> None:
    config = data_home.parent / "xdg-config" / "lemming-bricks"
    config.mkdir(parents=True)
    (config / "settings.json").write_text('{"speed": 4, "music_volume": "loud"}')
    application = build_app(size=(640, 480), clock=FixedClock())
    first = [t for t in _toasts(application) if "music_volume" in t]
    application.change_settings(muted=True)
    application.run_frames(2)
    assert len(first) == 1 and [t for t in _toasts(application) if "music_volume" in t] == first
