"""Level codes (game.core.share): exact round trips, compact pack codes, one clear error for bad codes,
and the ``share`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.core.physics_catalog import SHIPPED
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.share import KNOWN_KEYS, LevelCodeError, decode, encode
from tests.strategies import levels

REPO = Path(__file__).resolve().parents[3]

META_KEYS = st.one_of(st.sampled_from(KNOWN_KEYS), st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,12}", fullmatch=True))
#: One line a level file can hold: no line breaks, no trailing spaces.
META_VALUES = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=40).map(
    str.rstrip)


@st.composite
def levels_with_meta(draw: st.DrawFn) -> Level:
    level = draw(levels(max_height=12, max_width=14, max_frames=400, max_budget=40))
    if draw(st.booleans()):  # a walled border, like most levels
        rows = ["X" * (level.width + 2)] + [f"X{row}X" for row in level.grid] + ["X" * (level.width + 2)]
        level = Level(level.frames, level.budget, tuple(rows))
    pairs = [p for p in draw(st.lists(st.tuples(META_KEYS, META_VALUES), max_size=5)) if p[0] != "physics"]
    physics = draw(st.sampled_from(["", "classic", "climber", SHIPPED["drifter"].renamed("mine").to_text()]))
    if physics:  # the physics line anywhere among the others
        pairs.insert(draw(st.integers(0, len(pairs))), ("physics", physics))
    return Level.from_rows(level.grid, level.frames, level.budget, meta=pairs)


@pytest.mark.parametrize("path", pack_level_paths(), ids=lambda p: p.name)
def test_every_pack_level_round_trips_exactly(path: Path) -> None:
    level = Level.load(path)
    code = encode(level)
    assert code.startswith("LB") and "\n" not in code and code.isascii()
    assert decode(code) == level
    assert decode(code).to_text() == level.to_text()


def test_the_original_fits_in_64_characters() -> None:
    original = Level.load(REPO / "levels" / "007_the_original.txt")
    code = encode(original)
    assert len(code) <= 64, code
    back = decode(code)
    assert back.title == "The Original" and back.meta == original.meta and back.grid == original.grid


@settings(max_examples=300, deadline=None)
@given(levels_with_meta())
def test_any_valid_level_round_trips_exactly(level: Level) -> None:
    if Level.from_text(level.to_text()) != level:  # not a level a file can hold
        return
    assert decode(encode(level)) == level


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_decodes_to_a_level_or_one_clear_error(text: str) -> None:
    try:
        decode(text)
    except LevelCodeError as exc:
        assert str(exc) and "\n" not in str(exc)


@settings(max_examples=200, deadline=None)
@given(levels_with_meta(), st.data())
def test_a_changed_character_is_caught_or_gives_a_valid_level(level: Level, data: st.DataObject) -> None:
    code = encode(level)
    i = data.draw(st.integers(2, len(code) - 1))
    new = data.draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"))
    try:
        decode(code[:i] + new + code[i + 1:])
    except LevelCodeError:
        pass


def test_bad_codes_get_one_message() -> None:
    original = Level.load(REPO / "levels" / "007_the_original.txt")
    code = encode(original)
    for bad, words in [("hello", "does not start with LB"), ("LB!!", "characters a code never holds"),
                       (code[:-5], "check"), (code[:30], ""), ("LB", "")]:
        with pytest.raises(LevelCodeError) as info:
            decode(bad)
        assert words in str(info.value)
    assert decode(f"  {code[:20]}\n{code[20:]} ") == original  # spaces and breaks from a chat are ignored


#: The Original's code in the first text form (base64url), as players shared it before the current alphabet.
OLD_ORIGINAL_CODE = "LBFKYjHA0AAAmAKjIoQDiQY-QBkf5FmemZeYk5TLJ4dTBzIzkSAB8"


def test_a_code_in_the_first_text_form_still_opens_its_level() -> None:
    original = Level.load(REPO / "levels" / "007_the_original.txt")
    assert decode(OLD_ORIGINAL_CODE) == original
    assert encode(original) != OLD_ORIGINAL_CODE
    with pytest.raises(LevelCodeError, match="check"):
        decode(OLD_ORIGINAL_CODE[:10] + "Q" + OLD_ORIGINAL_CODE[11:])


@pytest.mark.parametrize("path", pack_level_paths()[:12], ids=lambda p: p.name)
def test_codes_hold_no_look_alike_characters_and_read_in_either_case(path: Path) -> None:
    level = Level.load(path)
    code = encode(level)
    assert not set(code[2:]) & set("0O1Il") and code[2:] == code[2:].upper()
    assert decode("LB" + code[2:].lower()) == level
    assert decode(code.lower()) == level


def test_a_first_form_code_in_lower_case_is_named_as_such() -> None:
    with pytest.raises(LevelCodeError, match="first text form .* in lower case"):
        decode(OLD_ORIGINAL_CODE.lower())


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", *args], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_share_command_prints_the_code_and_writes_the_level_back(tmp_path: Path) -> None:
    done = run_main("share", "7")
    code = done.stdout.strip()
    assert done.returncode == 0 and code.startswith("LB") and len(code) <= 64
    out = tmp_path / "back.txt"
    done = run_main("share", code, "--out", str(out))
    assert done.returncode == 0 and Level.load(out) == Level.load(REPO / "levels" / "007_the_original.txt")
    again = run_main("share", code, "--out", str(out))
    assert again.returncode == 2 and "already exists" in again.stderr and "Traceback" not in again.stderr
    same = run_main("share", str(out), "--out", str(out), "--force")
    assert same.returncode == 2 and "is also the input level" in same.stderr
    bad = run_main("share", "LBabc")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    data = json.loads(run_main("share", "7", "--json").stdout)
    assert data["code"] == code and data["title"] == "The Original"
    assert data["chars"] == len(code) and Level.from_text(data["level"]) == Level.load(out)


def test_a_code_pasted_with_spaces_and_a_line_break_opens_its_level() -> None:
    code = encode(Level.load(REPO / "levels" / "007_the_original.txt"))
    done = run_main("share", f"  {code}\n")
    assert done.returncode == 0, done.stderr
    assert Level.from_text(done.stdout) == Level.load(REPO / "levels" / "007_the_original.txt")


def test_share_help_names_every_key_of_its_json() -> None:
    keys = list(json.loads(run_main("share", "7", "--json").stdout))
    text = " ".join(run_main("share", "--help").stdout.split())
    named = text.split("--json print one JSON object (", 1)[1].split(")", 1)[0]
    assert [part.split(":")[0] for part in named.split(", ")] == keys
