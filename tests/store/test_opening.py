"""Opening the log: a first start is complete or nothing, only damaged or foreign files
are set aside (and kept byte for byte), remains of a cut-short start are reused."""

from __future__ import annotations

import sqlite3

import pytest
from logfiles import SETUP, foreign_db

from companion.errors import LogError, StorageError
from companion.store import opening
from companion.store.gamelog import GameLog
from companion.store.migrations import APPLICATION_ID, SCHEMA_VERSION


def _names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_first_start_builds_the_whole_log_before_it_has_its_name(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    seen = []
    real_link = opening._link_into_place

    def link(tmp, target):
        # At the moment the log gets its name, it is already complete.
        db = sqlite3.connect(tmp)
        seen.append((db.execute("PRAGMA application_id").fetchone()[0],
                     db.execute("PRAGMA user_version").fetchone()[0],
                     db.execute("PRAGMA journal_mode").fetchone()[0]))
        db.close()
        assert not target.exists()
        real_link(tmp, target)

    monkeypatch.setattr(opening, "_link_into_place", link)
    log = GameLog(path)
    assert seen == [(APPLICATION_ID, SCHEMA_VERSION, "wal")]
    assert log.recovered is None and log.schema_version == SCHEMA_VERSION
    log.close()
    assert _names(tmp_path) == ["games.sqlite3"]


def test_a_stale_temporary_log_is_replaced(tmp_path):
    path = tmp_path / "games.sqlite3"
    (tmp_path / "games.sqlite3.new").write_bytes(b"half of an earlier first start")
    (tmp_path / "games.sqlite3.new-journal").write_bytes(b"x" * 512)
    log = GameLog(path)
    assert log.recovered is None
    log.close()
    assert _names(tmp_path) == ["games.sqlite3"]


def test_a_zero_length_file_becomes_the_log(tmp_path):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"")
    log = GameLog(path)
    assert log.recovered is None
    gid = log.new_game("scorepad", SETUP)
    log.close()
    assert [g.id for g in GameLog(path).games()] == [gid]
    assert not [n for n in _names(tmp_path) if "unreadable" in n]


def test_an_older_companions_cut_short_first_start_is_not_taken_for_a_foreign_file(tmp_path):
    """Older versions created the migrations table before the first step's transaction:
    a crash in between left a table and no application id. It holds nothing."""
    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL,"
               " applied_at TEXT NOT NULL)")
    db.close()
    log = GameLog(path)
    assert log.recovered is None
    assert log.schema_version == SCHEMA_VERSION
    log.close()
    assert _names(tmp_path) == ["games.sqlite3"]


def test_a_foreign_database_is_set_aside_byte_for_byte(tmp_path):
    path = tmp_path / "games.sqlite3"
    foreign_db(path)
    original = path.read_bytes()
    log = GameLog(path)
    assert "another program" in log.recovered
    log.close()
    (kept,) = [p for p in tmp_path.iterdir() if p.name.endswith(tuple("0123456789Z"))
               and ".unreadable-" in p.name]
    assert kept.read_bytes() == original, "never opened for writing: not one byte changed"


def test_a_foreign_file_with_our_name_but_another_application_id_is_never_opened(tmp_path):
    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA application_id = 1234")
    db.execute("CREATE TABLE x (y)")
    db.close()
    original = path.read_bytes()
    log = GameLog(path)
    assert "another program" in log.recovered
    log.close()
    kept = next(p for p in tmp_path.iterdir() if ".unreadable-" in p.name)
    assert kept.read_bytes() == original


def test_an_orphaned_wal_never_meets_a_new_log(tmp_path):
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    log.new_game("scorepad", SETUP)
    wal = (tmp_path / "games.sqlite3-wal").read_bytes()
    log.db.close()
    path.unlink()  # someone deleted the log but not its -wal
    (tmp_path / "games.sqlite3-wal").write_bytes(wal)
    fresh = GameLog(path)
    assert fresh.games() == []
    assert fresh.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    fresh.close()
    assert any(n.endswith("-wal") and ".unreadable-" in n for n in _names(tmp_path))


def test_a_locked_log_is_in_use_and_nothing_is_renamed(tmp_path):
    path = tmp_path / "games.sqlite3"
    GameLog(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(LogError, match="in use") as err:
            GameLog(path)
        assert not isinstance(err.value, StorageError)
    finally:
        holder.execute("COMMIT")
        holder.close()
    assert not [n for n in _names(tmp_path) if "unreadable" in n]


def test_a_data_folder_that_cannot_be_made_is_a_message(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(LogError, match="cannot use the folder .* Not a directory"):
        GameLog(blocker / "data" / "games.sqlite3")


# -- a log that held games, found empty or missing ----------------------------------------


def _played(path) -> int:
    log = GameLog(path)
    gid = log.new_game("scorepad", SETUP)
    log.append(gid, {"type": "score", "seat": 1, "points": 3})
    log.close()
    return gid


def _kept_aside(folder) -> list[str]:
    return [n for n in _names(folder) if ".unreadable-" in n]


def test_a_log_that_held_games_leaves_word_beside_it(tmp_path):
    path = tmp_path / "games.sqlite3"
    GameLog(path).close()
    assert not opening.had_games_path(path).exists(), "no game yet: nothing to lose"
    _played(path)
    assert "has held games since" in opening.had_games_path(path).read_text()


def test_an_older_log_with_games_gets_the_word_when_it_opens(tmp_path):
    from logfiles import old_log

    path = tmp_path / "games.sqlite3"
    old_log(path, upto=6, games=2)
    GameLog(path).close()
    assert opening.had_games_path(path).exists()


@pytest.mark.parametrize("wal", [False, True], ids=["closed cleanly", "with its -wal"])
def test_a_log_that_held_games_found_empty_is_told_and_set_aside(tmp_path, wal):
    """A card fault that truncates the log to nothing: not a first start. Told, the empty
    file (and a -wal beside it) kept aside, a fresh log to play on."""
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    log.new_game("scorepad", SETUP)
    if wal:
        wal_bytes = (tmp_path / "games.sqlite3-wal").read_bytes()
    log.close()
    path.write_bytes(b"")
    if wal:
        (tmp_path / "games.sqlite3-wal").write_bytes(wal_bytes)
    log = GameLog(path)
    try:
        assert log.recovered and "was found empty" in log.recovered
        assert "had recorded games" in log.recovered and "kept as" in log.recovered
        assert log.games() == []
        log.new_game("scorepad", SETUP)
    finally:
        log.close()
    aside = _kept_aside(tmp_path)
    assert len([n for n in aside if not n.endswith(("-wal", "-shm"))]) == 1
    if wal:
        (kept_wal,) = [n for n in aside if n.endswith("-wal")]
        assert (tmp_path / kept_wal).read_bytes() == wal_bytes, "the -wal is kept as it was"
    again = GameLog(path)
    assert again.recovered is None and len(again.games()) == 1
    again.close()


def test_a_zero_length_log_beside_a_wal_with_frames_is_a_lost_history_without_the_word(
        tmp_path):
    """The box's other trace: only a log in use leaves frames in a -wal."""
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    log.new_game("scorepad", SETUP)
    wal_bytes = (tmp_path / "games.sqlite3-wal").read_bytes()
    log.db.close()
    opening.had_games_path(path).unlink()
    path.write_bytes(b"")
    (tmp_path / "games.sqlite3-wal").write_bytes(wal_bytes)
    log = GameLog(path)
    assert log.recovered and "was found empty" in log.recovered
    log.close()
    assert any(n.endswith("-wal") for n in _kept_aside(tmp_path))


def test_a_log_that_held_games_gone_missing_is_told(tmp_path):
    path = tmp_path / "games.sqlite3"
    _played(path)
    path.unlink()
    log = GameLog(path)
    assert log.recovered and "is missing" in log.recovered
    assert log.games() == []
    log.close()


def test_a_brand_new_box_still_starts_quietly(tmp_path):
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    assert log.recovered is None
    log.close()
    path.write_bytes(b"")  # a first start's empty file
    log = GameLog(path)
    assert log.recovered is None
    log.close()
    assert not _kept_aside(tmp_path)


def test_reading_only_an_empty_log_that_held_games_says_so_and_changes_nothing(tmp_path):
    from logfiles import fingerprint

    path = tmp_path / "games.sqlite3"
    _played(path)
    path.write_bytes(b"")
    before = fingerprint(tmp_path)
    with pytest.raises(LogError, match="empty .*had recorded games"):
        GameLog(path, read_only=True)
    assert fingerprint(tmp_path) == before
