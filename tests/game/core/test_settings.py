"""Settings: defaults, validation, the XDG path, atomic saves, and a loader that takes any bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from game.core.settings import (
    MIN_WINDOW, SPEEDS, Palette, Settings, SettingsStore, default_settings_path, parse_settings,
)
from game.core.resume import ResumeStore, continue_index

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=20,
)
FIELDS = ["music_volume", "effects_volume", "muted", "fullscreen", "window_size", "preview", "speed",
          "palette", "reduced_motion", "ruler", "mines_board", "mines_custom", "pegs_board"]


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    return tmp_path / "cfg"


def test_path_respects_xdg_config_home(config_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_settings_path() == config_home / "lemming-bricks" / "settings.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert default_settings_path() == Path.home() / ".config" / "lemming-bricks" / "settings.json"


def test_defaults_preview_on_speed_1_standard_palette() -> None:
    s = SettingsStore.load().settings
    assert s == Settings() and s.preview and s.speed == 1 and s.palette == Palette.STANDARD
    assert not s.muted and not s.reduced_motion and not s.fullscreen


def test_update_saves_and_reloads(config_home: Path) -> None:
    store = SettingsStore.load()
    store.update(music_volume=0.3, muted=True, palette=Palette.COLOURBLIND, window_size=(800, 500), speed=4)
    data = json.loads(default_settings_path().read_text())
    assert data["music_volume"] == 0.3 and data["palette"] == "colourblind" and data["window_size"] == [800, 500]
    again = SettingsStore.load()
    assert again.settings == store.settings and again.messages == []
    assert again.settings.effective_music_volume() == 0.0  # muted
    assert not list(default_settings_path().parent.glob("*.tmp"))  # atomic: no temp file left


@pytest.mark.parametrize("changes", [{"speed": 3}, {"music_volume": 1.5}, {"muted": 1}, {"palette": "pink"},
                                     {"window_size": [100, 100]}, {"window_size": "big"}])
def test_invalid_updates_raise_and_change_nothing(changes: dict[str, object]) -> None:
    store = SettingsStore.load()
    with pytest.raises(ValueError):
        store.update(**changes)
    assert store.settings == Settings() and not default_settings_path().exists()


def test_bad_fields_fall_back_one_by_one() -> None:
    loaded = Settings.from_json({"music_volume": "loud", "speed": 8, "ruler": True, "unknown": 1})
    assert loaded.settings.music_volume == Settings().music_volume
    assert loaded.settings.speed == 8 and loaded.settings.ruler
    assert len(loaded.messages) == 1 and "music_volume" in loaded.messages[0]


def test_corrupt_file_gives_defaults_and_one_message(config_home: Path) -> None:
    path = default_settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00\xff{not json")
    store = SettingsStore.load()
    assert store.settings == Settings() and len(store.messages) == 1 and "settings" in store.messages[0]
    (aside,) = path.parent.glob("settings.json.corrupt-*")  # the damaged file is kept aside at once
    assert aside.read_bytes() == b"\x00\xff{not json"
    store.update(muted=True)  # saving works
    assert SettingsStore.load().settings.muted


def test_unreadable_path_is_a_message(config_home: Path) -> None:
    path = default_settings_path()
    path.mkdir(parents=True)  # a folder where the file should be
    store = SettingsStore.load()
    assert store.settings == Settings() and store.messages
    store.update(muted=True)
    assert store.messages[-1].startswith("could not save")


@hsettings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_load_without_crashing(raw: bytes) -> None:
    loaded = parse_settings(raw)
    assert isinstance(loaded.settings, Settings)


def test_the_side_puzzles_boards_chosen_last_are_kept_and_bad_ones_fall_back(config_home: Path) -> None:
    store = SettingsStore.load()
    assert (store.settings.mines_board, store.settings.mines_custom, store.settings.pegs_board) == (
        "beginner", (12, 10, 20), "english")  # a file without them: the defaults
    store.update(mines_board="custom", mines_custom=(20, 15, 60), pegs_board="french")
    again = SettingsStore.load().settings
    assert (again.mines_board, again.mines_custom, again.pegs_board) == ("custom", (20, 15, 60), "french")
    bad = {"mines_board": "huge", "mines_custom": [3, 100, 1], "pegs_board": "x" * 500, "muted": True}
    loaded = Settings.from_json(bad)
    assert (loaded.settings.mines_board, loaded.settings.mines_custom, loaded.settings.pegs_board) == (
        "beginner", (12, 10, 20), "english") and loaded.settings.muted
    assert len(loaded.messages) == 3 and all(len(m) < 200 for m in loaded.messages)
    for custom in ([12, 10, 200], [12, 10, True], [12.0, 10, 20], "12x10", [12, 10]):
        assert Settings.from_json({"mines_custom": custom}).messages, custom


@hsettings(max_examples=150, deadline=None)
@given(JSON)
def test_any_json_loads_to_valid_settings(data: object) -> None:
    loaded = parse_settings(json.dumps(data).encode())
    s = loaded.settings
    assert 0.0 <= s.music_volume <= 1.0 and 0.0 <= s.effects_volume <= 1.0
    assert s.speed in SPEEDS and isinstance(s.palette, Palette)
    assert s.window_size[0] >= MIN_WINDOW[0] and s.window_size[1] >= MIN_WINDOW[1]
    assert Settings.from_json(s.to_json()).settings == s  # what was accepted saves and reloads the same


@hsettings(max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=10))
def test_settings_like_objects_keep_every_valid_field(data: dict[str, object]) -> None:
    loaded = Settings.from_json(data)
    bad = {m.split("'")[1] for m in loaded.messages}
    for name in data:
        if name not in bad:
            assert Settings.from_json({name: data[name]}).messages == []


@hsettings(max_examples=100, deadline=None)
@given(st.binary(max_size=200) | JSON.map(lambda d: json.dumps(d).encode()))
def test_resume_file_any_bytes(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("resume") / "resume.json"
    path.write_bytes(raw)
    store = ResumeStore.load(path)
    assert isinstance(store.last_key, str)
    store.remember("a.txt", "h", [(1, 2)])
    assert ResumeStore.load(path).bricks_for("a.txt", "h") == ((1, 2),)


def test_resume_drops_stale_bricks_and_keeps_order(tmp_path: Path) -> None:
    store = ResumeStore.load(tmp_path / "r.json")
    store.remember("a", "h1", [(0, 1)])
    store.remember("b", "h2", [(3, 3), (1, 1)])
    again = ResumeStore.load(tmp_path / "r.json")
    assert again.last_key == "b" and again.bricks_for("b", "h2") == ((1, 1), (3, 3))
    assert again.bricks_for("a", "other hash") == ()


def test_resume_keeps_the_ai_help_mark_even_on_a_cleared_board(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    store = ResumeStore.load(path)
    store.remember("ai", "h", [(2, 1)], assisted=True)
    store.remember("own", "h", [(3, 3)])
    store.remember("cleared", "h", [], assisted=True)  # the AI showed the level's solution: kept without bricks
    assert json.loads(path.read_text())["boards"] == {
        "ai": {"hash": "h", "bricks": [[2, 1]], "assisted": True},
        "own": {"hash": "h", "bricks": [[3, 3]]}, "cleared": {"hash": "h", "bricks": [], "assisted": True}}
    again = ResumeStore.load(path)
    assert again.messages == []
    assert [again.assisted_for(k, "h") for k in ("ai", "own", "cleared", "unknown")] == [True, False, True, False]
    assert not again.assisted_for("ai", "another version of the level")
    again.remember("ai", "h", [(2, 1)])  # the same bricks without the mark: a change, saved
    assert not ResumeStore.load(path).assisted_for("ai", "h")


def test_resume_file_without_ai_help_marks_reads_as_the_players_bricks(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    path.write_text('{"last": "a", "boards": {"a": {"hash": "h", "bricks": [[1, 2]]}}}')
    store = ResumeStore.load(path)
    assert store.messages == [] and store.bricks_for("a", "h") == ((1, 2),) and not store.assisted_for("a", "h")


@given(st.lists(st.booleans(), max_size=8), st.integers(0, 9))
def test_continue_index_prefers_unsolved(solved: list[bool], last: int) -> None:
    keys = [f"k{i}" for i in range(len(solved))]
    i = continue_index(keys, solved, f"k{last}")
    if not keys:
        assert i is None
    elif not all(solved):
        assert i is not None and not solved[i]
        if last < len(keys) and not solved[last]:
            assert i == last
