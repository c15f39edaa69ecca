"""The SQLite game log: durable appends, undo, resume, migrations, and never losing a file."""

from __future__ import annotations

import sqlite3

import pytest

from companion.errors import LogError
from companion.store.gamelog import GameLog
from companion.store.migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, migrate

pytestmark = pytest.mark.arm64

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


def test_wal_and_full_sync(game_log):
    assert game_log.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert game_log.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert game_log.schema_version == SCHEMA_VERSION


def test_append_undo_and_reopen(tmp_path):
    path = tmp_path / "g.sqlite3"
    log = GameLog(path)
    gid = log.new_game("scorepad", SETUP)
    assert log.append(gid, {"type": "score", "seat": 1, "points": 2}) == 1
    assert log.append(gid, {"type": "score", "seat": 2, "points": 3}) == 2
    assert log.undo(gid) == {"type": "score", "seat": 2, "points": 3}
    log.close()
    again = GameLog(path)
    assert again.actions(gid) == [{"type": "score", "seat": 1, "points": 2}]
    assert [g.id for g in again.open_games()] == [gid]
    assert again.known_players() == [("Ann", 1), ("Bo", 2)]
    again.close()


def test_undo_on_empty_game_and_finished_game(game_log):
    gid = game_log.new_game("scorepad", SETUP)
    assert game_log.undo(gid) is None
    game_log.finish(gid)
    assert game_log.open_games() == []
    with pytest.raises(LogError, match="is finished"):
        game_log.append(gid, {"type": "finish"})
    with pytest.raises(LogError, match="no game 99"):
        game_log.append(99, {"type": "finish"})


def test_unstorable_action_is_refused_and_nothing_written(game_log):
    gid = game_log.new_game("scorepad", SETUP)
    with pytest.raises(LogError, match="cannot store"):
        game_log.append(gid, {"type": "score", "points": float("nan")})
    assert game_log.actions(gid) == []


def test_settings_round_trip(game_log):
    assert game_log.get_setting("muted", False) is False
    game_log.set_setting("muted", True)
    assert game_log.get_setting("muted") is True


def test_corrupted_file_is_kept_aside_and_a_fresh_log_starts(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"this is not a database at all, " * 200)
    log = GameLog(path)
    assert log.recovered and "kept as" in log.recovered
    kept = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not a database")
    assert log.games() == []
    log.close()


def test_damaged_pages_are_detected(tmp_path):
    path = tmp_path / "g.sqlite3"
    log = GameLog(path)
    gid = log.new_game("scorepad", SETUP)
    for i in range(300):
        log.append(gid, {"type": "score", "seat": 1, "points": i, "pad": "x" * 200})
    log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    data = bytearray(path.read_bytes())
    for offset in range(4096 * 2, len(data), 4096 * 3):  # scribble over several pages
        data[offset + 100 : offset + 400] = b"\xff" * 300
    path.write_bytes(bytes(data))
    again = GameLog(path)
    assert again.recovered, "a damaged log must be noticed, not silently used"
    assert any(".unreadable-" in p.name for p in tmp_path.iterdir())
    again.close()


def test_foreign_sqlite_database_is_not_touched(tmp_path):
    path = tmp_path / "g.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE recipes (name TEXT)")
    other.execute("INSERT INTO recipes VALUES ('soup')")
    other.commit()
    other.close()
    log = GameLog(path)
    assert "another program" in log.recovered
    log.close()
    kept = next(p for p in tmp_path.iterdir() if ".unreadable-" in p.name and "-wal" not in p.name)
    assert sqlite3.connect(kept).execute("SELECT name FROM recipes").fetchall() == [("soup",)]


def test_log_from_a_newer_companion_is_not_used(tmp_path):
    path = tmp_path / "g.sqlite3"
    GameLog(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    db.close()
    log = GameLog(path)
    assert "newer companion" in log.recovered
    log.close()


def test_an_old_schema_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "g.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("CREATE TABLE migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL,"
               " applied_at TEXT NOT NULL)")
    number, name, step = MIGRATIONS[0]
    db.execute("BEGIN")
    step(db)
    db.execute("INSERT INTO migrations VALUES (?, ?, 'then')", (number, name))
    db.execute("PRAGMA user_version = 1")
    db.execute("COMMIT")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("INSERT INTO games (kind, setup, started_at) VALUES ('scorepad', '{}', 'then')")
    db.close()
    log = GameLog(path)
    assert log.recovered is None
    assert log.schema_version == SCHEMA_VERSION
    assert [g.kind for g in log.games()] == ["scorepad"]
    assert log.known_players() == []
    log.close()


def test_a_failing_migration_leaves_nothing_half_done():
    db = sqlite3.connect(":memory:", isolation_level=None)

    def broken(conn):
        conn.execute("CREATE TABLE half (x)")
        raise RuntimeError("boom")

    MIGRATIONS.append((99, "broken", broken))
    try:
        with pytest.raises(RuntimeError):
            migrate(db)
    finally:
        MIGRATIONS.pop()
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert "half" not in tables
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_log_locked_by_another_process_is_busy_not_damaged(tmp_path):
    path = tmp_path / "g.sqlite3"
    GameLog(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(LogError, match="in use by another program"):
            GameLog(path)
    finally:
        holder.execute("COMMIT")
        holder.close()
    assert not [p for p in tmp_path.iterdir() if ".unreadable-" in p.name]


def test_read_only_use_never_renames_a_damaged_log(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"garbage " * 100)
    with pytest.raises(LogError, match="not an SQLite database.*left as it is"):
        GameLog(path, read_only=True)
    assert path.read_bytes() == b"garbage " * 100
    assert [p.name for p in tmp_path.iterdir()] == ["g.sqlite3"]


def test_a_damaged_row_is_named_and_the_rest_stays_usable(game_log):
    good = game_log.new_game("scorepad", SETUP)
    bad_setup = game_log.new_game("scorepad", SETUP)
    bad_action = game_log.new_game("scorepad", SETUP)
    game_log.append(good, {"type": "score", "seat": 1, "points": 2})
    game_log.db.execute("UPDATE games SET setup = '{not json' WHERE id = ?", (bad_setup,))
    game_log.db.execute("INSERT INTO actions VALUES (?, 1, 'now', X'FF00', 0)", (bad_action,))
    rows = {g.id: g for g in game_log.games()}
    assert rows[good].setup == SETUP and rows[good].damaged is None
    assert "damaged" in rows[bad_setup].setup and f"game {bad_setup}" in rows[bad_setup].damaged
    assert game_log.actions(good) == [{"type": "score", "seat": 1, "points": 2}]
    with pytest.raises(LogError, match=f"damaged at game {bad_setup}, its setup"):
        game_log.actions(bad_setup)
    with pytest.raises(LogError, match=f"damaged at game {bad_action}, action 1"):
        game_log.actions(bad_action)


def test_missing_tables_and_a_folder_in_place_are_kept_aside(tmp_path):
    path = tmp_path / "g.sqlite3"
    GameLog(path).close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE actions")
    db.close()
    log = GameLog(path)
    assert "'actions' is missing" in log.recovered
    log.close()
    folder = tmp_path / "other.sqlite3"
    folder.mkdir()
    log = GameLog(folder)
    assert "folder" in log.recovered and folder.is_file()
    log.close()


def test_version_changes_with_every_write_of_either_connection(tmp_path):
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    gid = log.new_game("scorepad", {"players": [{"name": "Ann", "seat": 1}]})
    v = log.version()
    log.actions(gid)
    log.games()
    assert log.version() == v  # reading changes nothing
    log.append(gid, {"type": "score", "seat": 1, "points": 2})
    assert log.version() != v
    v = log.version()
    log.set_setting("volume", 40)
    assert log.version() != v
    v = log.version()
    other = GameLog(path)  # another connection: its commit is seen too
    other.finish(gid, "abandoned")
    other.close()
    assert log.version() != v
    log.close()


def test_an_append_is_four_statements_and_its_take_back_still_removes_it(game_log):
    """BEGIN IMMEDIATE, the game's status and last seq, the INSERT, COMMIT: the new row
    is noted for the take-back without being read (the write just found its seq free),
    and a take-back of it still removes it."""
    from companion.store import takeback

    gid = game_log.new_game("scorepad", {"players": [{"name": "Ann", "seat": 1}]})
    game_log.append(gid, {"type": "score", "seat": 1, "points": 1})
    said: list[str] = []
    game_log.db.set_trace_callback(said.append)
    try:
        game_log.append(gid, {"type": "score", "seat": 1, "points": 2})
    finally:
        game_log.db.set_trace_callback(None)
    assert len(said) == 4, said
    assert said[0] == "BEGIN IMMEDIATE" and said[-1] == "COMMIT"
    assert said[2].startswith("INSERT INTO actions")
    (noted,) = game_log._noted  # what a read before the INSERT would have found
    assert (noted.table, noted.args, noted.rows) == ("actions", (gid, 2), frozenset())
    assert noted.columns == takeback.note(game_log.db, "actions", "seq = 0", ()).columns
    # as if SQLite's recovery had brought back the refused second append: it goes again
    assert takeback.restore(game_log.db, [noted]) == 1
    assert [a["points"] for a in game_log.actions(gid)] == [1]


def test_an_action_given_with_its_text_is_stored_as_that_text(game_log):
    from companion.store.gamelog import dumps

    gid = game_log.new_game("scorepad", {"players": [{"name": "Ann", "seat": 1}]})
    action = {"type": "score", "seat": 1, "points": 2}
    game_log.append(gid, action, text=dumps(action))
    (stored,) = game_log.db.execute("SELECT action FROM actions WHERE game_id = ?",
                                    (gid,)).fetchone()
    assert stored == dumps(action)
    assert game_log.action_rows(gid)[0][2] == action  # its checksum is the text's
