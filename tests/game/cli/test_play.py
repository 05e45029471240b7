"""``python main.py play`` (the default command) runs headless for a bounded number of frames."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.cli.main import build_parser, main


def test_play_is_the_default_command() -> None:
    parser = build_parser()
    args = parser.parse_args(["play"])
    assert args.level is None and args.handler is not None


def test_play_runs_and_saves_a_screenshot(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    code = main(["play", "1", "--frames", "6", "--screenshot", str(shot), "--screenshot-frame", "3",
                 "--width", "640", "--height", "480"])
    assert code == 0
    image = pygame.image.load(str(shot))
    assert image.get_size() == (640, 480)


def test_the_saved_window_size_is_fitted_to_a_smaller_desktop(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(800, 500)])
    shot = tmp_path / "shot.png"
    assert main(["play", "--frames", "4", "--screenshot", str(shot), "--screenshot-frame", "2"]) == 0
    assert pygame.image.load(str(shot)).get_size() == (800, 500)  # the saved size is 1280 x 800


def test_play_a_level_file_with_bricks(tmp_path: Path) -> None:
    level = tmp_path / "mine.txt"
    level.write_text("5\n1\n> .T\nXX.X\n")
    assert main(["play", str(level), "--bricks", "1,2", "--release", "--frames", "90",
                 "--width", "640", "--height", "400"]) == 0


def test_play_unknown_level_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "999", "--frames", "1"]) == 2
    assert "there is no level 999" in capsys.readouterr().err
