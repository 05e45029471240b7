"""A level's info lines (title, author, description, hint): set in the editor's model, written as
``# key: value`` lines, read back unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.editor_model import INFO_FIELDS, EditorModel
from game.core.level import Level
from game.core.physics_catalog import SHIPPED
from tests.strategies import levels

#: One line of text as a designer types it (any printable characters, spaces inside).
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=60)


@settings(max_examples=60, deadline=None)
@given(levels(), st.dictionaries(st.sampled_from(INFO_FIELDS), TEXT), st.booleans())
def test_info_lines_round_trip_through_the_file(level: Level, info: dict[str, str], careful: bool) -> None:
    m = EditorModel.from_level(level.with_physics(SHIPPED["careful"]) if careful else level)
    for key, value in info.items():
        m.set_meta(key, value)
    saved = m.to_level()
    again = Level.from_text(saved.to_text())
    assert again == saved and again.to_text() == saved.to_text()
    for key, value in info.items():
        expected = " ".join(value.split())
        if key == "title" and not expected:
            continue  # the title line goes with an empty title
        assert again.meta_value(key) == expected, key
        assert EditorModel.from_level(again).meta_value(key) == expected
    assert again.physics == saved.physics and again.grid == level.grid


def test_removing_a_line_keeps_the_physics_line_in_its_place() -> None:
    text = "# title: T\n# author: A\n# physics: careful\n# hint: H\n3\n0\n>T\n"
    m = EditorModel.from_level(Level.from_text(text))
    assert m.set_meta("author", "")
    assert m.to_level().to_text() == "# title: T\n# physics: careful\n# hint: H\n3\n0\n>T\n"
    assert m.set_meta("description", "Two cells")
    assert m.to_level().to_text() == "# title: T\n# physics: careful\n# hint: H\n# description: Two cells\n3\n0\n>T\n"
    assert m.undo() and m.undo() and m.to_level().to_text() == text
