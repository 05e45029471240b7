"""The level model: parsing, printing, round trips, and every kind of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import LevelFormatError
from game.core.level import LEFT, RIGHT, Lemming, Level
from game.core.physics import CLASSIC
from game.core.physics_catalog import SHIPPED
from tests.conftest import ORIGINAL_PACK, ORIGINAL_SHARED
from tests.strategies import levels


def test_original_shared_file_loads_unchanged_and_round_trips() -> None:
    if not ORIGINAL_SHARED.exists():
        pytest.skip("shared/ is not beside the checkout")
    text = ORIGINAL_SHARED.read_text()
    level = Level.load(ORIGINAL_SHARED)
    assert (level.height, level.width, level.frames, level.budget) == (10, 10, 20, 3)
    assert level.lemmings == (Lemming(1, 1, LEFT),)
    assert level.targets == ((8, 8),)
    assert level.to_text() == text


def test_pack_copy_of_original_has_title_and_same_puzzle() -> None:
    level = Level.load(ORIGINAL_PACK)
    assert level.title == "The Original"
    assert level.to_text() == ORIGINAL_PACK.read_text()
    if ORIGINAL_SHARED.exists():
        assert level.puzzle_hash == Level.load(ORIGINAL_SHARED).puzzle_hash


def test_alternative_characters_and_padding() -> None:
    level = Level.from_text("7\n2\nR..T\nL\nXXXX\n")
    assert level.grid == (">  T", "<   ", "XXXX")
    assert level.lemmings == (Lemming(0, 0, RIGHT), Lemming(1, 0, LEFT))
    assert level.brickable_cells == ((0, 1), (0, 2), (1, 1), (1, 2), (1, 3))


def test_metadata_lines() -> None:
    text = "# title: Bridge\n# author: Ada\n5\n0\n> T\nXXX\n"
    level = Level.from_text(text)
    assert level.meta == (("title", "Bridge"), ("author", "Ada"))
    assert level.title == "Bridge"
    assert level.to_text() == text
    assert level.with_meta("title", "Gap").to_text().startswith("# title: Gap\n# author: Ada\n")


def test_the_physics_is_a_value_read_once_and_written_back_in_its_place() -> None:
    text = "# title: Steps\n# physics: climber\n# certified: minimum 1\n5\n1\n>  T\nXXXX\n"
    level = Level.from_text(text)
    assert level.physics is SHIPPED["climber"] and level.meta == (("title", "Steps"), ("certified", "minimum 1"))
    assert level.to_text() == text
    copies = [level.with_meta("hint", "up"), level.with_limits(budget=2), level.with_meta("title", "Stairs")]
    assert all(copy.physics is level.physics for copy in copies)  # copied, never parsed again
    assert level.with_meta("hint", "up").to_text().startswith("# title: Steps\n# physics: climber\n# certified")
    assert level.with_physics(SHIPPED["drifter"]).to_text() == text.replace("climber", "drifter")
    assert level.with_physics(CLASSIC).to_text() == "# title: Steps\n# certified: minimum 1\n5\n1\n>  T\nXXXX\n"
    explicit = "# physics: classic\n5\n1\n>  T\nXXXX\n"
    assert Level.from_text(explicit).to_text() == explicit and Level.from_text(explicit).physics == CLASSIC


def test_a_level_is_built_with_the_physics_value_not_a_line() -> None:
    plain = Level.from_text("5\n1\n>  T\nXXXX\n")
    with pytest.raises(ValueError, match="physics value"):
        Level(plain.frames, plain.budget, plain.grid, (("physics", "climber"),))
    with pytest.raises(ValueError, match="with_physics"):
        plain.with_meta("physics", "climber")
    last = Level(plain.frames, plain.budget, plain.grid, (("a", "b"),), SHIPPED["careful"], physics_at=1)
    assert last == plain.with_meta("a", "b").with_physics(SHIPPED["careful"]) and last.physics_at is None
    assert Level.from_text(last.to_text()) == last and hash(Level.from_text(last.to_text())) == hash(last)
    with pytest.raises(LevelFormatError, match="second '# physics:' line"):
        Level.from_text("# physics: climber\n# physics: careful\n5\n1\n>  T\nXXXX\n")


def test_crlf_and_missing_final_newline() -> None:
    assert Level.from_text("5\r\n0\r\n> T\r\nXXX") == Level.from_text("5\n0\n> T\nXXX\n")


@settings(max_examples=200, deadline=None)
@given(levels())
def test_round_trip(level: Level) -> None:
    text = level.to_text()
    again = Level.from_text(text)
    assert again == level
    assert again.to_text() == text


def _error(text: str | bytes) -> LevelFormatError:
    with pytest.raises(LevelFormatError) as info:
        if isinstance(text, bytes):
            Level.from_bytes(text, "lvl.txt")
        else:
            Level.from_text(text, "lvl.txt")
    return info.value


@pytest.mark.parametrize(
    ("text", "line", "col", "words"),
    [
        ("20\n3\nX<  ?T\n", 3, 5, "unknown map character '?'"),
        ("20\n3\nX<\tT\n", 3, 3, "unknown map character"),
        ("", 1, 1, "empty file"),
        ("\n\n", 1, 1, "empty file"),
        ("abc\n3\n>T\n", 1, 1, "expected the number of frames"),
        ("20\n", 2, 1, "missing header: expected the brick budget"),
        ("20\nthree\n>T\n", 2, 1, "expected the brick budget"),
        ("20\n3\n", 3, 1, "the map is empty"),
        ("20\n3\nXT\nXX\n", 3, 1, "no lemming"),
        ("20\n3\n> \nXX\n", 3, 1, "no target"),
        ("0\n3\n>T\n", 1, 1, "at least 1"),
        ("20\n-1\n>T\n", 2, 1, "at least 0"),
        ("  7x\n0\n>T\n", 1, 3, "expected the number of frames"),
        ("# title\n5\n0\n>T\n", 1, 1, "# key: value"),
        ("# title: t\n5\n0\n>T?\n", 4, 3, "unknown map character"),
    ],
)
def test_bad_text_names_line_and_column(text: str, line: int, col: int, words: str) -> None:
    err = _error(text)
    assert (err.path, err.line, err.col) == ("lvl.txt", line, col)
    assert words in err.message
    assert str(err).startswith(f"lvl.txt:{line}:{col}: ")


def test_non_utf8_bytes_name_the_position() -> None:
    err = _error(b"20\n3\nX<  \xff T\n")
    assert (err.line, err.col) == (3, 5)
    assert "not UTF-8" in err.message


def test_ten_megabyte_file_is_refused_quickly(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"20\n3\n" + b"X" * (10 * 1024 * 1024))
    with pytest.raises(LevelFormatError) as info:
        Level.load(big)
    assert info.value.path == str(big)
    assert "too large" in info.value.message


def test_missing_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(LevelFormatError, match="no such file"):
        Level.load(tmp_path / "nope.txt")


def test_utf8_bom_is_accepted() -> None:
    assert Level.from_bytes("\ufeff5\n0\n>T\n".encode()).frames == 5


def test_save_is_atomic_and_round_trips(tmp_path: Path) -> None:
    level = Level.from_rows([">  T", "XXXX"], 6, 1, title="Walk")
    path = tmp_path / "sub" / "walk.txt"
    level.save(path)
    assert Level.load(path) == level
    assert [p.name for p in path.parent.iterdir()] == ["walk.txt"]


def test_constructor_rejects_invalid_levels() -> None:
    with pytest.raises(ValueError, match="no lemming"):
        Level(5, 0, ("XT",))
    with pytest.raises(ValueError, match="width"):
        Level(5, 0, ("> T", "X"))
    with pytest.raises(ValueError, match="frames"):
        Level(0, 0, (">T",))


def test_obstacle_map_and_hash() -> None:
    level = Level.from_rows(["> .T", "XX.X"], 5, 1)
    obst = level.obstacle_map([(1, 2)])
    assert obst.tolist() == [[False, False, False, False], [True, True, True, True]]
    assert level.puzzle_hash != level.with_limits(budget=2).puzzle_hash
    assert level.puzzle_hash == level.with_meta("title", "x").puzzle_hash


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200) | st.text(alphabet="0123456789-#: \nXT<>LR.abc\t\r", max_size=120).map(str.encode))
def test_any_bytes_parse_or_give_a_positioned_error(data: bytes) -> None:
    try:
        level = Level.from_bytes(data, "f.txt")
    except LevelFormatError as err:
        assert err.line >= 1 and err.col >= 1
        assert str(err).startswith(f"f.txt:{err.line}:{err.col}: ")
    else:
        assert Level.from_text(level.to_text()) == level


@settings(max_examples=100, deadline=None)
@given(levels(), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_equivalent_spellings_parse_to_the_same_level(level: Level, newline: str, dots: bool) -> None:
    text = level.to_text()
    if dots:  # the header lines hold only digits, so this rewrites the map alone
        text = text.replace(" ", ".").replace("<", "L").replace(">", "R")
    assert Level.from_text(text.replace("\n", newline)) == level
