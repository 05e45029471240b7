"""The pygame-free editor model: tools, resize, N and B, undo/redo, save."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.editor_draft import MAX_EDIT_SIDE, Edge, level_fingerprint, parse_size, slugify
from game.core.level_text import MAX_SIDE
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


# ---------------------------------------------------------------- what an analysis depends on
def test_the_fingerprint_changes_with_every_dependency() -> None:
    m = playable()
    base = m.draft.fingerprint
    assert level_fingerprint(m.to_level()) == base
    m.set_title("Another name")
    assert m.draft.fingerprint == base  # the title is not analysed
    edits = {
        "physics": lambda: m.cycle_physics(),
        "budget": lambda: m.set_budget(m.draft.budget + 1),
        "frames": lambda: m.set_frames(m.draft.frames + 1),
        "lemming": lambda: m.apply(Tool.LEMMING, (3, 1)),  # turns it round
        "target": lambda: m.apply(Tool.TARGET, (3, 4)),
        "map": lambda: m.apply(Tool.WALL, (1, 3)),
    }
    for name, edit in edits.items():
        before = m.draft.fingerprint
        edit()
        assert m.draft.fingerprint != before, name
        assert level_fingerprint(m.to_level()) == m.draft.fingerprint, name
        m.undo()
        assert m.draft.fingerprint == before, name


# ---------------------------------------------------------------- sizes and edges
def test_every_size_the_game_accepts_and_no_crop_on_load() -> None:
    rows = ["X" * 90] + ["X" + " " * 88 + "X" for _ in range(78)] + ["X" * 90]
    rows[78] = "X>" + " " * 86 + "TX"
    level = Level.from_rows(rows, frames=200, budget=0)
    m = EditorModel.from_level(level)
    assert (m.draft.height, m.draft.width) == (80, 90)
    assert m.grow(Edge.BOTTOM) and (m.draft.height, m.draft.width) == (81, 90)
    assert m.to_level().lemmings and m.to_level().targets == ((78, 88),)
    assert EditorModel.new(256, 256).draft.height == 256 and MAX_EDIT_SIDE == MAX_SIDE
    assert parse_size("200x256") == (200, 256) and parse_size("257x10") is None
    big = EditorModel.new(256, 10)
    assert not big.grow(Edge.TOP) and big.draft.height == 256


def test_lines_are_added_and_removed_at_each_edge_inside_the_border() -> None:
    m = EditorModel.new(4, 4)
    m.apply(Tool.LEMMING, (1, 1))
    m.apply(Tool.TARGET, (2, 2))
    assert m.grow(Edge.TOP) and m.draft.grid == ("XXXX", "X  X", "X> X", "X TX", "XXXX")
    assert m.grow(Edge.LEFT) and m.draft.grid == ("XXXXX", "X   X", "X > X", "X  TX", "XXXXX")
    assert m.grow(Edge.RIGHT) and m.grow(Edge.BOTTOM)
    assert m.draft.grid == ("XXXXXX", "X    X", "X >  X", "X  T X", "X    X", "XXXXXX")
    for edge in Edge:
        assert m.shrink(edge)
    assert m.draft.grid == ("XXXX", "X> X", "X TX", "XXXX")
    # a line holding a lemming or a target is never removed; one holding walls only when forced
    assert m.removal_loss(Edge.TOP) == (["the lemming (row 1, column 1)"], 0)
    assert not m.shrink(Edge.TOP) and not m.shrink(Edge.TOP, force=True) and m.draft.height == 4
    assert m.removal_loss(Edge.RIGHT) == (["the target at row 2, column 2"], 0)
    m.apply(Tool.WALL, (1, 2))
    m.erase((1, 1))
    m.apply(Tool.LEMMING, (2, 1))
    assert m.removal_loss(Edge.TOP) == ([], 1)
    assert not m.shrink(Edge.TOP) and m.draft.height == 4
    assert m.shrink(Edge.TOP, force=True) and m.draft.grid == ("XXXX", "X>TX", "XXXX")
    # an open map (no border) works on the edge lines themselves
    o = EditorModel.from_level(Level.from_rows(["> T", "XXX"], frames=5, budget=0))
    assert o.grow(Edge.TOP) and o.draft.grid == ("   ", "> T", "XXX")
    assert o.removal_loss(Edge.BOTTOM) == ([], 3)
