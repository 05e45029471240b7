"""Settings, resume and Endless files under hostile content, and two real processes saving at once.

Every loader takes any bytes or JSON without raising, reads only regular files with a size cap
(a FIFO never blocks), sets an unusable file aside with one message; every save merges under a
lock so concurrent games lose nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import endless_record, resume, settings as settings_mod
from game.core.endless_record import EndlessRecord, load_record, save_record
from game.core.level import Level
from game.core.progress import ProgressStore
from game.core.puzzles.mines_records import MinesRecords
from game.core.resume import ResumeStore
from game.core.settings import Settings, SettingsStore

REPO = Path(__file__).resolve().parents[2]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=30)
#: JSON shaped like each file, so the field validators are reached too.
SETTINGS_LIKE = st.dictionaries(st.sampled_from([f.name for f in fields(Settings)]), JSON, max_size=10)
RESUME_LIKE = st.fixed_dictionaries({"last": JSON, "boards": st.dictionaries(st.text(max_size=4), st.fixed_dictionaries(
    {"hash": JSON, "bricks": JSON | st.lists(st.lists(st.integers(), max_size=3), max_size=3)},
    optional={"assisted": JSON}), max_size=3)})
KEPT_LEVEL_LIKE = st.fixed_dictionaries({"seed": JSON | st.integers(-3, 9), "step": JSON | st.integers(-3, 9),
                                         "score": JSON, "text": JSON | st.just("# title: t\n9\n1\n> .T\nXXXX\n")
                                         | st.text(alphabet="XT<>.# :\n0123456789")})
ENDLESS_LIKE = st.dictionaries(st.sampled_from(["seed", "step", "solved", "streak", "best_streak", "last_score"]),
                               JSON | st.integers(-3, 10**30), max_size=6) | st.builds(
    lambda d, level: {**d, "level": level},
    st.fixed_dictionaries({k: st.integers(0, 9) for k in ("seed", "step", "solved", "streak", "best_streak")}),
    KEPT_LEVEL_LIKE)
LEVEL = Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=1)
HYP = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _fresh(folder: Path, name: str) -> Path:
    folder.mkdir(exist_ok=True)
    for p in folder.iterdir():
        p.unlink()
    return folder / name


def _check_settings(path: Path) -> None:
    store = SettingsStore.load(path)
    assert isinstance(store.settings, Settings) and len(store.messages) <= len(fields(Settings))
    store.update(muted=not store.settings.muted)
    assert SettingsStore.load(path).settings == store.settings


def _check_resume(path: Path) -> None:
    store = ResumeStore.load(path)
    assert isinstance(store.last_key, str) and len(store.messages) <= 1
    store.remember("z.txt", "h", [(1, 2)])
    again = ResumeStore.load(path)
    assert again.messages == [] and again.bricks_for("z.txt", "h") == ((1, 2),) and again.last_key == "z.txt"


def _check_endless(path: Path) -> None:
    record, message = load_record(path)
    assert isinstance(record, EndlessRecord) and record.step >= 1
    saved = save_record(record.won(1.0), path)
    assert load_record(path) == (saved, "")


CHECKS = {"settings.json": _check_settings, "resume.json": _check_resume, "endless.json": _check_endless}


# ---------------------------------------------------------------- any bytes, any JSON
@HYP
@given(raw=st.binary(max_size=300))
def test_any_bytes_load_and_save(raw: bytes, tmp_path: Path) -> None:
    for name, check in CHECKS.items():
        path = _fresh(tmp_path / name, name)
        path.write_bytes(raw)
        check(path)


@HYP
@given(data=JSON)
def test_any_json_load_and_save(data: object, tmp_path: Path) -> None:
    for name, check in CHECKS.items():
        path = _fresh(tmp_path / name, name)
        path.write_text(json.dumps(data))
        check(path)


@HYP
@given(s=SETTINGS_LIKE, r=RESUME_LIKE, e=ENDLESS_LIKE)
def test_file_shaped_json_load_and_save(s: object, r: object, e: object, tmp_path: Path) -> None:
    for (name, check), data in zip(CHECKS.items(), (s, r, e)):
        path = _fresh(tmp_path / name, name)
        path.write_text(json.dumps(data))
        check(path)


@pytest.mark.parametrize("content", [b"{oops", b"[1, 2]", b"\xff\xfe", b"[" * 100_000, b'{"a": ' + b"9" * 5000 + b"}"])
def test_unusable_file_is_set_aside_with_one_message(content: bytes, tmp_path: Path) -> None:
    paths = {name: tmp_path / name for name in CHECKS}
    for p in paths.values():
        p.write_bytes(content)
    s = SettingsStore.load(paths["settings.json"])
    r = ResumeStore.load(paths["resume.json"])
    e, e_message = load_record(paths["endless.json"])
    assert s.settings == Settings() and len(s.messages) == 1
    assert r.boards == {} and len(r.messages) == 1
    assert e_message and "Endless starts afresh" in e_message
    for name in CHECKS:
        (aside,) = tmp_path.glob(f"{name}.corrupt-*")
        assert aside.read_bytes() == content  # nothing destroyed
        assert not (tmp_path / name).exists()


def test_bom_prefixed_files_are_accepted(tmp_path: Path) -> None:
    bom = b"\xef\xbb\xbf"
    (tmp_path / "settings.json").write_bytes(bom + b'{"speed": 4}')
    (tmp_path / "resume.json").write_bytes(bom + b'{"last": "a", "boards": {"a": {"hash": "h", "bricks": [[1, 2]]}}}')
    (tmp_path / "endless.json").write_bytes(bom + json.dumps(EndlessRecord(seed=3, step=5).to_json()).encode())
    s = SettingsStore.load(tmp_path / "settings.json")
    r = ResumeStore.load(tmp_path / "resume.json")
    assert s.messages == [] and s.settings.speed == 4
    assert r.messages == [] and r.bricks_for("a", "h") == ((1, 2),)
    assert load_record(tmp_path / "endless.json") == (EndlessRecord(seed=3, step=5), "")


def test_huge_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    for name, cap in (("settings.json", settings_mod.MAX_SETTINGS_BYTES), ("resume.json", resume.MAX_RESUME_BYTES),
                      ("endless.json", endless_record.MAX_RECORD_BYTES)):
        with open(tmp_path / name, "wb") as handle:  # sparse: large on paper, nothing on disk
            handle.truncate(cap + 1)
    assert "too large" in SettingsStore.load(tmp_path / "settings.json").messages[0]
    assert "too large" in ResumeStore.load(tmp_path / "resume.json").messages[0]
    assert "too large" in load_record(tmp_path / "endless.json")[1]


# ---------------------------------------------------------------- a FIFO at the path
def test_fifo_never_blocks_loading_or_saving(tmp_path: Path) -> None:
    for name in CHECKS:
        os.mkfifo(tmp_path / name)
    start = time.monotonic()
    s = SettingsStore.load(tmp_path / "settings.json")
    r = ResumeStore.load(tmp_path / "resume.json")
    e, e_message = load_record(tmp_path / "endless.json")
    assert s.settings == Settings() and "not a regular file" in s.messages[0]
    assert r.boards == {} and "not a regular file" in r.messages[0]
    assert "not a regular file" in e_message
    s.update(muted=True)
    r.remember("a.txt", "h", [(1, 1)])
    with pytest.raises(OSError, match="not a regular file"):
        save_record(e, tmp_path / "endless.json")
    assert time.monotonic() - start < 10
    assert s.messages[-1].startswith("could not save") and r.messages[-1].startswith("could not save")
    for name in CHECKS:
        assert (tmp_path / name).is_fifo()  # never replaced


# ---------------------------------------------------------------- merging
def test_settings_merge_keeps_the_other_process_fields(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    a, b = SettingsStore.load(path), SettingsStore.load(path)
    a.update(speed=4)
    b.update(muted=True)  # b never saw speed=4: it must not write its stale speed back
    assert SettingsStore.load(path).settings == Settings(speed=4, muted=True)
    assert b.settings.speed == 4  # and b adopted it
    a.update(speed=2)
    assert SettingsStore.load(path).settings == Settings(speed=2, muted=True)


def test_resume_merge_per_level_most_recent_write_wins(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    a, b = ResumeStore.load(path), ResumeStore.load(path)
    a.remember("one", "h", [(1, 1)])
    b.remember("two", "h", [(2, 2)])
    a.remember("two", "h", [(3, 3)])  # a's later write to level two wins; b's level one? b never touched it
    disk = ResumeStore.load(path)
    assert disk.bricks_for("one", "h") == ((1, 1),) and disk.bricks_for("two", "h") == ((3, 3),)
    assert disk.last_key == "two"
    b.remember("three", "h", [])
    disk = ResumeStore.load(path)
    assert disk.bricks_for("two", "h") == ((3, 3),) and "three" in disk.boards and disk.last_key == "three"


def test_resume_malformed_entries_are_copied_aside_once_before_a_save_drops_them(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    original = '{"last": "a", "boards": {"a": {"hash": "h", "bricks": [[1, 2]]}, "b": {"hash": 3}, "c": []}}'
    path.write_text(original)
    store = ResumeStore.load(path)
    (aside,) = tmp_path.glob("resume.json.corrupt-*")
    assert aside.read_text() == original and store.bricks_for("a", "h") == ((1, 2),)
    assert store.messages == [f"resume.json: 2 entries unreadable, dropped; the file as it was is kept as {aside.name}"]
    store.remember("d", "h", [(3, 3)])
    store.remember("e", "h", [(4, 4)])
    assert len(store.messages) == 1 and len(list(tmp_path.glob("resume.json.corrupt-*"))) == 1  # told once
    assert set(json.loads(path.read_text())["boards"]) == {"a", "d", "e"}


@pytest.mark.parametrize("mark", ["yes", 1, 0, None, [], {}])
def test_resume_entry_with_a_malformed_ai_help_mark_is_dropped_like_other_malformed_entries(
        mark: object, tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    original = json.dumps({"last": "a", "boards": {"a": {"hash": "h", "bricks": [[1, 2]], "assisted": True},
                                                   "b": {"hash": "h", "bricks": [[3, 4]], "assisted": mark}}})
    path.write_text(original)
    store = ResumeStore.load(path)
    (aside,) = tmp_path.glob("resume.json.corrupt-*")
    assert aside.read_text() == original and "b" not in store.boards
    assert store.bricks_for("a", "h") == ((1, 2),) and store.assisted_for("a", "h")
    assert store.messages == [f"resume.json: 1 entry unreadable, dropped; the file as it was is kept as {aside.name}"]


def test_resume_entries_broken_during_play_are_copied_aside_before_the_save(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    store = ResumeStore.load(path)
    store.remember("a", "h", [(1, 2)])
    assert store.messages == [] and not list(tmp_path.glob("*.corrupt-*"))
    edited = '{"last": "a", "boards": {"a": {"hash": "h", "bricks": [[1, 2]]}, "mine": {"hash": "h", "bricks": "?"}}}'
    path.write_text(edited)
    store.remember("b", "h", [(2, 2)])
    (aside,) = tmp_path.glob("resume.json.corrupt-*")
    assert aside.read_text() == edited and "mine" not in json.loads(path.read_text())["boards"]
    assert store.messages == [f"resume.json: 1 entry unreadable, dropped; the file as it was is kept as {aside.name}"]


def test_resume_entry_edited_again_under_the_same_name_is_copied_again(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    first = '{"last": "a", "boards": {"a": {"hash": "h", "bricks": [[1, 2]]}, "b": {"hash": 3}}}'
    path.write_text(first)
    store = ResumeStore.load(path)
    store.remember("c", "h", [(3, 3)])
    assert len(store.messages) == 1 and len(list(tmp_path.glob("resume.json.corrupt-*"))) == 1
    edited = '{"last": "a", "boards": {"a": {"hash": "h", "bricks": [[1, 2]]}, "b": {"hash": 4}}}'
    path.write_text(edited)  # the same entry, malformed again with other content
    store.remember("d", "h", [(4, 4)])
    copies = {p.read_text() for p in tmp_path.glob("resume.json.corrupt-*")}
    assert copies == {first, edited} and "b" not in json.loads(path.read_text())["boards"]
    assert len(store.messages) == 2 and all(name in store.messages[1] for name in ("1 entry", "kept as"))


def test_resume_save_stays_within_the_size_the_loader_reads(tmp_path: Path) -> None:
    """Boards of many bricks past the file's cap: the save drops the least recently played ones."""
    path = tmp_path / "resume.json"
    bricks = [(r, c) for r in range(60) for c in range(60)]  # 3,600 bricks: about 32 kB a board
    per_board = len(json.dumps([list(b) for b in bricks]))
    over = resume.MAX_RESUME_BYTES // per_board + 20
    assert over <= resume.MAX_LEVELS  # the byte cap, not the count, is what the save must keep to
    store = ResumeStore.load(path)
    for k in range(over):
        store.remember(f"level-{k:03d}", "h", bricks, save=False)
    store.save()
    assert 0 < path.stat().st_size <= resume.MAX_RESUME_BYTES
    again = ResumeStore.load(path)
    assert again.messages == [] and again.last_key == f"level-{over - 1:03d}"
    kept = list(again.boards)
    assert kept == [f"level-{k:03d}" for k in range(over - len(kept), over)] and len(kept) < over  # the newest


def test_endless_merge_keeps_the_best_streak(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    save_record(EndlessRecord(seed=1, step=9, streak=6, best_streak=6), path)
    saved = save_record(EndlessRecord(seed=1, step=3, streak=1, best_streak=2), path)
    assert saved == EndlessRecord(seed=1, step=3, streak=1, best_streak=6)
    assert load_record(path) == (saved, "")



def test_endless_edited_outside_the_game_is_copied_aside_before_a_save(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    mine = save_record(EndlessRecord(seed=1, step=2, solved=1, streak=1, best_streak=1), path)
    edited = b'{"seed": 77, "step": 40, "solved": 39, "streak": 5, "best_streak": 9, "note": "mine"}\n'
    path.write_bytes(edited)
    notes: list[str] = []
    saved = save_record(mine.won(), path, base=mine, notes=notes)
    (aside,) = tmp_path.glob("endless.json.corrupt-*")
    assert aside.read_bytes() == edited  # what the player had, byte for byte
    assert saved == EndlessRecord(seed=1, step=3, solved=2, streak=2, best_streak=9) == load_record(path)[0]
    assert notes == [f"endless.json was changed outside the game: what it held is kept as {aside.name}"]
    again: list[str] = []
    save_record(saved.gave_up(), path, base=saved, notes=again)  # unchanged since: no second copy
    assert again == [] and len(list(tmp_path.glob("endless.json.corrupt-*"))) == 1


@pytest.mark.parametrize("content", [b'{"levels": {"a.txt": {"solved": true}}}', b'{"seed": -1}'])
def test_endless_foreign_content_is_copied_aside_before_a_save(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    path.write_bytes(content)
    notes: list[str] = []
    saved = save_record(EndlessRecord(seed=3), path, notes=notes)  # even a caller that knows no base
    (aside,) = tmp_path.glob("endless.json.corrupt-*")
    assert aside.read_bytes() == content and load_record(path) == (saved, "")
    assert len(notes) == 1 and notes[0].startswith("endless.json: ") and notes[0].endswith(f"kept as {aside.name}")


def test_endless_unreadable_at_save_is_moved_aside_and_said(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    path.write_bytes(b"{half")
    notes: list[str] = []
    save_record(EndlessRecord(seed=3), path, base=EndlessRecord(seed=3), notes=notes)
    (aside,) = tmp_path.glob("endless.json.corrupt-*")
    assert aside.read_bytes() == b"{half"
    assert len(notes) == 1 and notes[0].startswith("endless.json was unreadable (") and aside.name in notes[0]


# ---------------------------------------------------------------- two real processes
WRITER = textwrap.dedent("""
    import sys  # late: the script a child process runs
    from game.core.resume import ResumeStore  # late: the script a child process runs
    from game.core.settings import SettingsStore  # late: the script a child process runs
    folder, me, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    resume = ResumeStore.load(folder + "/resume.json")
    settings = SettingsStore.load(folder + "/settings.json")
    for k in range(n):
        resume.remember(f"{me}-{k}.txt", me, [(k, 1 if me == "a" else 2)])
        if me == "a":
            settings.update(music_volume=round(k / n, 3))
        else:
            settings.update(speed=(1, 2, 4, 8)[k % 4], ruler=k % 2 == 0)
    settings.update(**({"music_volume": 0.25} if me == "a" else {"speed": 4, "ruler": True}))
    assert not resume.messages and not settings.messages, (resume.messages, settings.messages)
""")


def test_two_processes_saving_resume_and_settings_lose_nothing(tmp_path: Path) -> None:
    saves = 120
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), me, str(saves)], cwd=REPO,
                              stderr=subprocess.PIPE, text=True) for me in ("a", "b")]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    store = ResumeStore.load(tmp_path / "resume.json")
    assert store.messages == []
    lost = [f"{me}-{k}.txt" for me in ("a", "b") for k in range(saves)
            if store.bricks_for(f"{me}-{k}.txt", me) != ((k, 1 if me == "a" else 2),)]
    assert lost == []
    assert store.last_key in (f"a-{saves - 1}.txt", f"b-{saves - 1}.txt")
    final = SettingsStore.load(tmp_path / "settings.json")
    assert final.messages == []
    assert (final.settings.music_volume, final.settings.speed, final.settings.ruler) == (0.25, 4, True)
    assert not list(tmp_path.glob("*.corrupt-*")) and not list(tmp_path.glob(".*.tmp"))


def test_a_file_holding_null_is_set_aside_not_taken_for_missing(tmp_path: Path) -> None:
    for name in CHECKS:
        (tmp_path / name).write_text("null")
    assert len(SettingsStore.load(tmp_path / "settings.json").messages) == 1
    assert len(ResumeStore.load(tmp_path / "resume.json").messages) == 1
    assert load_record(tmp_path / "endless.json")[1]
    assert len(list(tmp_path.glob("*.corrupt-*"))) == 3


def _save_over(name: str, path: Path, content: bytes) -> list[str]:
    """Load the store ``name`` from a good file, put ``content`` in its place, save; what the player is told."""
    if name == "endless.json":
        mine = save_record(EndlessRecord(seed=4, step=2), path)
        path.write_bytes(content)
        notes: list[str] = []
        save_record(mine.won(), path, base=mine, notes=notes)
        return notes
    store: ResumeStore | SettingsStore | ProgressStore | MinesRecords
    if name == "resume.json":
        store = ResumeStore.load(path)
        store.remember("a.txt", "h", [(1, 2)])
        path.write_bytes(content)
        store.remember("b.txt", "h", [(2, 2)])
    elif name == "settings.json":
        store = SettingsStore.load(path)
        store.update(speed=4)
        path.write_bytes(content)
        store.update(muted=True)
    elif name == "progress.json":
        store = ProgressStore.load(path)
        path.write_bytes(content)
        store.record_win("a.txt", LEVEL, [(1, 2)])
    else:
        store = MinesRecords.load(path)
        path.write_bytes(content)
        store.record(9, 9, 10, won=True, seconds=12.0)
    return store.messages


@pytest.mark.parametrize("content", [b"null", b"null\n", b"[1, 2]", b"3", b'"text"', b"true"])
@pytest.mark.parametrize("name", [*CHECKS, "progress.json", "mines.json"])
def test_a_store_holding_no_object_at_save_is_kept_aside_and_the_player_told(name: str, content: bytes,
                                                                               tmp_path: Path) -> None:
    """``null`` is foreign content like any other, not a missing file: kept aside before the save replaces it."""
    path = tmp_path / name
    told = _save_over(name, path, content)
    (aside,) = tmp_path.glob(f"{name}.corrupt-*")
    assert aside.read_bytes() == content  # what the file held, byte for byte
    assert len(told) == 1 and aside.name in told[0] and "not a JSON object" in told[0]
    assert isinstance(json.loads(path.read_text()), dict)  # the save went through


def test_settings_with_bad_fields_keep_the_good_ones_and_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    original = '{"speed": 4, "music_volume": "loud", "ruler": 3}'
    path.write_text(original)
    store = SettingsStore.load(path)
    assert store.settings == Settings(speed=4) and len(store.messages) == 1
    assert "music_volume" in store.messages[0] and "ruler" in store.messages[0]
    (aside,) = tmp_path.glob("settings.json.corrupt-*")
    assert aside.read_text() == original and path.read_text() == original  # nothing lost before a save
    store.update(muted=True)
    assert SettingsStore.load(path).settings == Settings(speed=4, muted=True)


ENDLESS_WITH_A_FIELD = json.dumps({**EndlessRecord(seed=4, step=2).to_json(), "theme": "dark"}).encode()
WRONG_SHAPES = [
    ("progress.json", b'{"levels": 5}'),
    ("progress.json", b'{"levels": {"a.txt": {"best_bricks": -1}, "b.txt": {}}}'),
    ("progress.json", b'{"puzzles": {"life/a.txt": {"best": -2}}, "worlds_seen": ["ok", 7]}'),
    ("settings.json", b'{"levels": 5}'),
    ("settings.json", b'{"speed": 3, "muted": true}'),
    ("resume.json", b'{"levels": 5}'),
    ("resume.json", b'{"last": "a", "boards": {}, "theme": "dark"}'),
    ("endless.json", ENDLESS_WITH_A_FIELD),
    ("mines.json", b'{"levels": 5}'),
    ("mines.json", b'{"version": 1, "boards": {"9x9/10": {"wins": -1}, "8x8/10": {"wins": 2}}}'),
    ("mines.json", b'{"version": 1, "boards": [1, 2]}'),
    ("progress.json", b'{"version": 2, "levels": {"b.txt": {"solved": true}}}'),
    ("mines.json", b'{"version": 2, "boards": {"9x9/10": {"wins": 2}}}'),
]


@pytest.mark.parametrize(("name", "content"), WRONG_SHAPES)
def test_a_store_holding_what_it_cannot_read_at_save_keeps_a_copy_and_tells_once(name: str, content: bytes,
                                                                                  tmp_path: Path) -> None:
    """An object of another shape, written between load and save, is copied aside before the save drops it."""
    path = tmp_path / name
    told = _save_over(name, path, content)
    (aside,) = tmp_path.glob(f"{name}.corrupt-*")
    assert aside.read_bytes() == content  # what the file held, byte for byte
    assert len(told) == 1 and told[0].endswith(f"kept as {aside.name}")
    assert isinstance(json.loads(path.read_text()), dict)  # the save went through
    again = _save_over_again(name, path)  # what the copy holds is not copied a second time
    assert again == [] and len(list(tmp_path.glob(f"{name}.corrupt-*"))) == 1


def _save_over_again(name: str, path: Path) -> list[str]:
    """Load the store ``name`` from ``path`` as the last save left it, save once more; what the player is told."""
    if name == "endless.json":
        record, message = load_record(path)
        notes = [message] if message else []
        save_record(record.won(), path, base=record, notes=notes)
        return notes
    store: ResumeStore | SettingsStore | ProgressStore | MinesRecords
    if name == "resume.json":
        store = ResumeStore.load(path)
        store.remember("c.txt", "h", [(3, 3)])
    elif name == "settings.json":
        store = SettingsStore.load(path)
        store.update(speed=8)
    elif name == "progress.json":
        store = ProgressStore.load(path)
        store.record_attempt("b.txt")
    else:
        store = MinesRecords.load(path)
        store.record(9, 9, 10, won=False, seconds=1.0)
    return store.messages


@pytest.mark.parametrize(("name", "version"), [("progress.json", 2), ("mines.json", 7), ("mines.json", "2.0")])
def test_a_file_of_a_newer_version_is_kept_aside_before_this_version_rewrites_it(name: str, version: object,
                                                                                 tmp_path: Path) -> None:
    """What a newer game wrote is never silently rewritten in this version's format: the file as it was is
    kept aside first, and the message names the version."""
    path = tmp_path / name
    key = "levels" if name == "progress.json" else "boards"
    content = json.dumps({"version": version, key: {}}).encode()
    told = _save_over(name, path, content)
    (aside,) = tmp_path.glob(f"{name}.corrupt-*")
    assert aside.read_bytes() == content
    words = f"version {version}, newer than" if isinstance(version, int) else f"version {json.dumps(version)}, not one"
    assert len(told) == 1 and f"({words}" in told[0] and aside.name in told[0]
    assert json.loads(path.read_text())["version"] == 1


@pytest.mark.parametrize(("name", "content"), [
    ("progress.json", b'{"levels": {"a.txt": {"best_bricks": -1}}, "worlds_seen": [7]}'),
    ("settings.json", b'{"speed": 3, "theme": "dark"}'),
    ("mines.json", b'{"version": 1, "boards": {"9x9/10": {"wins": -1}}, "mine": 1}'),
])
def test_a_store_that_kept_a_copy_when_loading_does_not_copy_it_again_when_saving(name: str, content: bytes,
                                                                                   tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    store: SettingsStore | ProgressStore | MinesRecords
    if name == "progress.json":
        store = ProgressStore.load(path)  # the good records are written back at once
        store.record_win("a.txt", LEVEL, [(1, 2)])
    elif name == "settings.json":
        store = SettingsStore.load(path)
        store.update(muted=True)
    else:
        store = MinesRecords.load(path)
        store.record(9, 9, 10, won=True, seconds=3.0)
    (aside,) = tmp_path.glob(f"{name}.corrupt-*")
    assert aside.read_bytes() == content and len(store.messages) == 1 and aside.name in store.messages[0]
