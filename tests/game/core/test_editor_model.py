"""The pygame-free editor model: tools, resize, N and B, undo/redo, save."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.editor_draft import parse_size, slugify
from game.core.editor_model import EditorModel, Tool


def playable() -> EditorModel:
    m = EditorModel.new(5, 7, title="Tiny")
    m.apply(Tool.LEMMING, (3, 1))
    m.apply(Tool.TARGET, (3, 5))
    return m


def test_tools_flip_and_erase() -> None:
    m = EditorModel.new(4, 5)
    assert not m.valid and len(m.problems()) == 2
    assert m.apply(Tool.WALL, (1, 2)) and m.draft.char_at((1, 2)) == "X"
    assert not m.apply(Tool.WALL, (1, 2))  # no change, no undo state
    m.apply(Tool.LEMMING, (2, 1))
    assert m.draft.char_at((2, 1)) == ">"
    m.apply(Tool.LEMMING, (2, 1))
    assert m.draft.char_at((2, 1)) == "<"
    m.apply(Tool.TARGET, (2, 3))
    assert m.valid and m.to_level().lemmings[0].direction == -1
    m.erase((2, 3))
    assert m.problems() == ["place at least one target (tool 4)"]
    with pytest.raises(ValueError, match="target"):
        m.to_level()
    assert not m.apply(Tool.WALL, (9, 9))  # outside the map


def test_undo_redo_every_edit_and_strokes() -> None:
    m = EditorModel.new(6, 6)
    states = [m.draft]
    m.apply(Tool.WALL, (1, 1)); states.append(m.draft)
    m.set_frames(7); states.append(m.draft)
    m.set_budget(2); states.append(m.draft)
    m.resize(7, 8); states.append(m.draft)
    m.set_title("Hello"); states.append(m.draft)
    for expected in reversed(states[:-1]):
        assert m.undo() and m.draft == expected
    assert not m.undo()
    for expected in states[1:]:
        assert m.redo() and m.draft == expected
    assert not m.redo()
    # a click and its drag are one undo step
    m.end_stroke()
    m.apply(Tool.WALL, (2, 1))
    m.apply(Tool.WALL, (2, 2), stroke=True)
    m.apply(Tool.WALL, (2, 3), stroke=True)
    m.end_stroke()
    assert m.draft.grid[2][1:4] == "XXX"
    m.undo()
    assert m.draft == states[-1]
    # a new edit after undo drops the redo states
    m.apply(Tool.TARGET, (3, 3))
    assert not m.can_redo


def test_resize_keeps_the_border_and_top_left() -> None:
    m = EditorModel.new(5, 6)
    m.apply(Tool.LEMMING, (1, 1))
    m.resize(7, 9)
    d = m.draft
    assert (d.height, d.width) == (7, 9)
    assert d.grid[0] == "X" * 9 and d.grid[-1] == "X" * 9 and all(r[0] == "X" == r[-1] for r in d.grid)
    assert d.char_at((1, 1)) == ">"
    m.resize(3, 3)
    assert m.draft.grid == ("XXX", "X>X", "XXX")
    assert not m.resize(1, 1) or m.draft.height >= 2  # clamped to the minimum size


def test_limits_are_clamped() -> None:
    m = EditorModel.new(4, 4)
    m.set_frames(0)
    assert m.draft.frames == 1
    m.set_budget(-3)
    assert m.draft.budget == 0
    m.set_budget(999)
    assert m.draft.budget == 16


def test_save_load_round_trip(tmp_path: Path) -> None:
    m = playable()
    m.set_frames(9)
    m.set_budget(1)
    assert m.dirty
    path = m.save(tmp_path)
    assert path == tmp_path / "tiny.txt" and not m.dirty
    level = Level.load(path)
    assert level == m.to_level() and level.title == "Tiny" and (level.frames, level.budget) == (9, 1)
    # saving again writes the same file; another new level with the same title gets a new name
    m.apply(Tool.WALL, (2, 3))
    assert m.save(tmp_path) == path
    other = playable()
    assert other.save(tmp_path) == tmp_path / "tiny_2.txt"


def test_pack_level_opens_as_a_copy(tmp_path: Path) -> None:
    pack = pack_level_paths()[0]
    before = pack.read_bytes()
    m = EditorModel.from_level(Level.load(pack))
    assert not m.dirty and m.path is None
    path = m.save(tmp_path)
    assert path.parent == tmp_path and pack.read_bytes() == before
    assert Level.load(path) == Level.load(pack)


def test_failed_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    m = playable()
    path = m.save(tmp_path)
    old = path.read_bytes()
    m.set_budget(4)

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        m.save(tmp_path)
    assert path.read_bytes() == old and m.dirty
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.txt"]  # no temporary file left


def test_helpers() -> None:
    assert parse_size("12x20") == (12, 20) and parse_size("0x5") is None
    assert slugify("The Original") == "the_original"
