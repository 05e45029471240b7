"""Progress file: solved marks, best counts, hashes, replays, corrupt files, atomic writes, verify."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli.main import main
from game.core import progress
from game.core.level import Level
from game.core.progress import ProgressStore, ReplayStatus, default_progress_path, level_key, verify_replays
from game.core.progress_records import MAX_REPLAYS, LevelRecord, Replay
from game.core.progress_trim import size
from game.core.storage import user_levels_dir
from tests.conftest import ORIGINAL_KEY, ORIGINAL_PACK

LEVEL = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2, title="Tiny")
CHANGED = Level.from_rows(["> ..T", "XX..X", "XXXXX"], frames=6, budget=2, title="Tiny")


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def test_default_path_respects_xdg(data_home: Path) -> None:
    assert default_progress_path() == data_home / "lemming-bricks" / "progress.json"


def test_missing_file_is_empty_and_silent() -> None:
    store = ProgressStore.load_default()
    assert store.records == {} and store.messages == []
    assert not store.status("a.txt", LEVEL).solved


def test_record_win_best_and_round_trip() -> None:
    store = ProgressStore.load_default()
    assert store.record_win("a.txt", LEVEL, [(1, 2), (0, 3)]) is True
    assert store.record_win("a.txt", LEVEL, [(1, 2), (0, 3)]) is False   # same set again: kept once
    assert store.record_win("a.txt", LEVEL, [(1, 2)]) is True            # fewer bricks: new best
    again = ProgressStore.load_default()
    st = again.status("a.txt", LEVEL)
    assert st.solved and st.best_bricks == 1 and not st.changed
    replays = again.records["a.txt"].replays
    assert [r.bricks for r in replays] == [((1, 2),), ((0, 3), (1, 2))]
    assert all(r.level_hash == LEVEL.puzzle_hash for r in replays)
    data = json.loads(default_progress_path().read_text())
    assert data["version"] == 1 and data["levels"]["a.txt"]["best_bricks"] == 1


def test_changed_since_solved() -> None:
    store = ProgressStore.load_default()
    store.record_win("a.txt", LEVEL, [(1, 2)])
    st = store.status("a.txt", CHANGED)
    assert st.solved and st.changed
    assert not store.is_solved("a.txt", CHANGED)
    # metadata changes do not count
    assert not store.status("a.txt", LEVEL.with_meta("title", "Other")).changed
    # solving the new version clears the mark and restarts the best count
    store.record_win("a.txt", CHANGED, [(1, 2), (1, 3)])
    st = store.status("a.txt", CHANGED)
    assert not st.changed and st.best_bricks == 2


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", "null", '{"levels": {"a.txt": {"replays": [{"x": 1}]}}}',
                                     '{"levels": 5}', "\x00\x01"])
def test_corrupt_file_reported_once_and_replaced(content: str) -> None:
    path = default_progress_path()
    path.parent.mkdir(parents=True)
    path.write_text(content)
    _check_replaced(path, content.encode())


def test_non_utf8_file_is_corrupt_too() -> None:
    path = default_progress_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe{")
    _check_replaced(path, b"\xff\xfe{")


def test_directory_in_the_way_is_reported_not_raised() -> None:
    path = default_progress_path()
    path.mkdir(parents=True)
    store = ProgressStore.load(path)
    assert len(store.messages) == 1
    store.record_win("a.txt", LEVEL, [(1, 2)])  # cannot save: reported, no crash
    assert any("could not save" in m for m in store.messages)


def _check_replaced(path: Path, content: bytes) -> None:
    store = ProgressStore.load(path)
    assert len(store.messages) == 1 and "corrupt" in store.messages[0]
    assert store.records == {}
    (aside,) = path.parent.glob("progress.json.corrupt-*")
    assert aside.read_bytes() == content                     # nothing is destroyed
    assert ProgressStore.load(path).messages == []           # reported once
    store.record_win("a.txt", LEVEL, [(1, 2)])
    assert ProgressStore.load(path).status("a.txt", LEVEL).solved


def test_write_is_atomic(monkeypatch: pytest.MonkeyPatch) -> None:
    store = ProgressStore.load_default()
    store.record_win("a.txt", LEVEL, [(1, 2)])
    before = default_progress_path().read_text()

    def boom(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", boom)
    store.record_win("b.txt", LEVEL, [(1, 2)])
    assert default_progress_path().read_text() == before
    assert any("could not save" in m for m in store.messages)
    assert [p.name for p in default_progress_path().parent.iterdir() if not p.name.endswith(".lock")] == [
        "progress.json"]


def test_verify_replays() -> None:
    store = ProgressStore.load_default()
    store.record_win("a.txt", LEVEL, [(1, 2)])
    store.record_win("b.txt", LEVEL, [(1, 2)])
    store.record_win("c.txt", LEVEL, [(1, 2)])
    checks = {c.key: c for c in verify_replays(store, {"a.txt": LEVEL, "b.txt": CHANGED})}
    assert checks["a.txt"].status == ReplayStatus.WINS and checks["a.txt"].same_hash
    assert checks["b.txt"].status == ReplayStatus.LOSES and not checks["b.txt"].same_hash
    assert checks["c.txt"].status == ReplayStatus.MISSING
    wall = Level.from_rows(["> X.T", "XXXXX", "XXXXX"], frames=6, budget=2)
    (chk,) = verify_replays(store, {"a.txt": wall, "b.txt": LEVEL, "c.txt": LEVEL})[:1]
    assert chk.status == ReplayStatus.ILLEGAL


def test_verify_command(capsys: pytest.CaptureFixture[str]) -> None:
    original = Level.load(ORIGINAL_PACK)
    store = ProgressStore.load_default()
    store.record_win(ORIGINAL_KEY, original, [(2, 1), (5, 4), (6, 6)])
    assert main(["verify"]) == 0
    out = capsys.readouterr().out
    assert f"{ORIGINAL_KEY}: 3 bricks [2,1;5,4;6,6] WINS" in out
    assert "1 of 1 saved replays still win" in out
    store.record_win(ORIGINAL_KEY, original, [(2, 1), (5, 4), (6, 6)])
    store.records[ORIGINAL_KEY].replays[0] = type(store.records[ORIGINAL_KEY].replays[0])(
        original.puzzle_hash, ((2, 1),), 0.0)
    store.save()
    assert main(["verify"]) == 1
    assert "LOSES" in capsys.readouterr().out


def test_level_key() -> None:
    assert level_key("levels/005_x.txt") == "005_x.txt"
    assert level_key(user_levels_dir() / "mine.txt") == "user/mine.txt"


def test_worlds_seen_are_saved_merged_and_bounded(tmp_path: Path) -> None:
    """Two games mark different worlds seen: the file keeps both; a hostile list is read safely."""
    path = tmp_path / "progress.json"
    one, two = ProgressStore.load(path), ProgressStore.load(path)
    assert one.mark_world_seen("The Steps") and not one.mark_world_seen("The Steps")
    assert two.mark_world_seen("Windy Heights")
    assert ProgressStore.load(path).worlds_seen == {"The Steps", "Windy Heights"}
    data = json.loads(path.read_text())
    data["worlds_seen"] = ["ok", 7, None, "x" * 10_000, {"a": 1}]
    path.write_text(json.dumps(data))
    assert ProgressStore.load(path).worlds_seen == {"ok"}


def _big_progress(path: Path) -> ProgressStore:
    """Eight solved levels of 20 replays (40 bricks each, saved one second apart) and twenty unsolved ones."""
    store = ProgressStore.load(path)
    clock = 0.0
    for k in range(8):
        replays = []
        for j in range(MAX_REPLAYS):
            clock += 1.0
            replays.append(Replay("h", tuple((j, c) for c in range(40 + j)), clock))
        store.records[f"solved-{k}.txt"] = LevelRecord(solved=True, level_hash="h", best_bricks=40, own_best=40,
                                                       replays=replays)
    for k in range(20):
        store.records[f"tried-{k:02d}.txt"] = LevelRecord(attempts=k + 1, hints_used=1)
    return store


def test_a_save_keeps_progress_within_the_cap_dropping_old_replays_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "progress.json"
    store = _big_progress(path)
    cap = size(store.to_json()) // 2
    monkeypatch.setattr(progress, "MAX_PROGRESS_BYTES", cap)
    store.save()
    assert 0 < path.stat().st_size <= cap
    again = ProgressStore.load(path)
    assert again.messages == []  # the loader reads it whole
    solved = {k: r for k, r in again.records.items() if k.startswith("solved-")}
    assert len(solved) == 8 and all(r.solved and r.best_bricks == 40 and r.own_best == 40 for r in solved.values())
    assert all(r.replays[0].bricks == tuple((0, c) for c in range(40)) for r in solved.values())  # the best kept
    stamps = sorted(r.saved_at for rec in solved.values() for r in rec.replays[1:])
    dropped = [t for t in range(1, 8 * MAX_REPLAYS + 1) if t % MAX_REPLAYS != 1 and float(t) not in stamps]
    assert dropped and max(dropped) < min(stamps)  # the oldest extra replays went first
    assert len([k for k in again.records if k.startswith("tried-")]) == 20  # unsolved kept while replays sufficed
    assert len(store.messages) == 1 and f"{len(dropped)} older replays and 0 records" in store.messages[0]


def test_a_save_drops_unsolved_records_before_the_best_replays_and_never_a_solved_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "progress.json"
    store = _big_progress(path)
    without_extras = {k: LevelRecord(solved=r.solved, level_hash=r.level_hash, best_bricks=r.best_bricks,
                                     own_best=r.own_best, replays=r.replays[:1], attempts=r.attempts)
                      for k, r in store.records.items() if r.solved}
    cap = size({**store.to_json(), "levels": {k: r.to_json() for k, r in without_extras.items()}}) + 600
    monkeypatch.setattr(progress, "MAX_PROGRESS_BYTES", cap)
    store.save()
    assert path.stat().st_size <= cap
    again = ProgressStore.load(path)
    assert again.messages == [] and all(again.records[k].solved for k in without_extras)
    tried = sorted(k for k in again.records if k.startswith("tried-"))
    assert 0 < len(tried) < 20 and tried == [f"tried-{k:02d}.txt" for k in range(20 - len(tried), 20)]  # most tries kept
    assert all(len(again.records[k].replays) == 1 for k in without_extras)


def test_a_save_that_cannot_fit_the_solved_levels_is_refused_and_the_file_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "progress.json"
    ProgressStore.load(path).record_win("first.txt", LEVEL, [(1, 2)])
    before = path.read_bytes()
    monkeypatch.setattr(progress, "MAX_PROGRESS_BYTES", len(before) + 300)  # the file fits, eight more solved levels not
    store = _big_progress(path)
    store.record_win("one-more.txt", LEVEL, [(1, 2)])
    assert path.read_bytes() == before and not list(tmp_path.glob("progress.json.corrupt-*"))
    assert store.messages[-1].startswith(f"could not save progress to {path}: the solved levels alone take ")
