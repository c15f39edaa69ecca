"""Taking a refused write back: rows put back as they were, the -wal emptied. (The real
thing, with a sync that fails under strace, is in tests/faults/.)"""

from __future__ import annotations

import pytest
from logfiles import SETUP

from companion.errors import StorageError
from companion.store import takeback
from companion.store.gamelog import GameLog


def test_rows_a_refused_write_changed_are_put_back_and_the_wal_emptied(tmp_path):
    log = GameLog(tmp_path / "games.sqlite3")
    gid = log.new_game("scorepad", SETUP)
    log.append(gid, {"type": "score", "seat": 1, "points": 1})
    db = log.db
    before = [takeback.note(db, "actions", "game_id = ? AND seq = ?", (gid, 2)),
              takeback.note(db, "actions", "game_id = ? AND seq = ?", (gid, 1)),
              takeback.note(db, "settings", "key = ?", ("muted",))]
    # As if SQLite's recovery had brought back a refused append and a refused undo.
    log.append(gid, {"type": "score", "seat": 1, "points": 2})
    db.execute("DELETE FROM actions WHERE game_id = ? AND seq = 1", (gid,))
    assert takeback.restore(db, before) == 2
    assert [a["points"] for a in log.actions(gid)] == [1]
    assert (tmp_path / "games.sqlite3-wal").stat().st_size == 0
    assert takeback.restore(db, before) == 0  # nothing left to put back
    log.close()


def test_when_a_reader_blocks_the_checkpoint_a_marker_write_overwrites_the_wal(tmp_path):
    log = GameLog(tmp_path / "games.sqlite3")
    gid = log.new_game("scorepad", SETUP)
    reader = GameLog(tmp_path / "games.sqlite3")
    reader.db.execute("BEGIN")
    reader.db.execute("SELECT COUNT(*) FROM games").fetchone()  # holds a read snapshot
    log.append(gid, {"type": "score", "seat": 1, "points": 1})
    log.db.execute("PRAGMA busy_timeout = 0")
    takeback.flush_wal(log.db)
    assert log.get_setting(takeback.MARKER_KEY)
    reader.db.execute("COMMIT")
    reader.close()
    log.close()


def test_a_take_back_that_fails_says_the_action_may_come_back_and_retries(tmp_path, monkeypatch):
    log = GameLog(tmp_path / "games.sqlite3")
    gid = log.new_game("scorepad", SETUP)
    log.db.execute("CREATE TEMP TRIGGER fail BEFORE INSERT ON settings "
                   "BEGIN SELECT RAISE(FAIL, 'disk I/O error'); END")  # the write fails ...
    calls = []

    def failing_restore(db, noted):
        calls.append(noted)
        raise __import__("sqlite3").OperationalError("disk I/O error")

    monkeypatch.setattr(takeback, "restore", failing_restore)  # ... and so does the take-back
    with pytest.raises(StorageError) as err:
        log.set_setting("muted", True)
    assert err.value.uncertain and "may still be in the log" in str(err.value)
    with pytest.raises(StorageError):
        log.games()  # retried first, before anything is read
    monkeypatch.undo()
    assert log.games()[0].id == gid  # the storage is back: the take-back finishes
    log.set_setting("muted", False)
    assert len(calls) == 2
    log.close()
