"""A checksum per stored action and game row: a changed digit is found and named, the
other games play on, older logs get their checksums when migrated. A game's row is
checked whole (its status and finish time too) at every start: a changed byte there is
damage, the log is set aside and salvaged like any damaged log."""

from __future__ import annotations

import sqlite3
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from logfiles import SETUP, old_log

from companion.cli import main
from companion.errors import LogError
from companion.export.logfile import export_jsonl
from companion.games import get_rules
from companion.session import GameSession
from companion.store.checksum import action_crc, game_crc
from companion.store.gamelog import GameLog


def _two_games(log: GameLog) -> tuple[GameSession, GameSession]:
    first = GameSession.start(log, get_rules("scorepad"), SETUP)
    second = GameSession.start(log, get_rules("scorepad"), SETUP)
    for points in (3, 14, 5):
        first.do({"type": "score", "seat": 1, "points": points})
        second.do({"type": "score", "seat": 2, "points": points})
    return first, second


def _edit(path, sql: str, args: tuple = ()) -> None:
    """A change made behind the companion's back (a flipped digit on the card)."""
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def test_each_row_carries_the_checksum_of_what_it_stores(game_log):
    first, _ = _two_games(game_log)
    seq, at, text, crc = game_log.db.execute(
        "SELECT seq, at, action, crc FROM actions WHERE game_id = ? AND seq = 2",
        (first.game_id,)).fetchone()
    assert crc == action_crc(first.game_id, seq, at, text)
    kind, started, setup, status, finished, crc = game_log.db.execute(
        "SELECT kind, started_at, setup, status, finished_at, crc FROM games WHERE id = ?",
        (first.game_id,)).fetchone()
    assert crc == game_crc(first.game_id, kind, started, setup, status, finished)
    game_log.finish(first.game_id)
    status, finished, crc = game_log.db.execute(
        "SELECT status, finished_at, crc FROM games WHERE id = ?", (first.game_id,)).fetchone()
    assert status == "finished" and finished
    assert crc == game_crc(first.game_id, kind, started, setup, status, finished)


def test_one_changed_digit_is_named_and_the_other_game_plays_on(tmp_path):
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    first, second = _two_games(log)
    log.close()
    _edit(path, "UPDATE actions SET action = replace(action, '14', '41') "
                "WHERE game_id = ? AND seq = 2", (first.game_id,))
    log = GameLog(path)
    assert log.recovered is None, "a changed row is named, the file is not set aside"
    with pytest.raises(LogError, match=f"game {first.game_id}, action 2: it was changed"):
        GameSession.resume(log, first.game_id)
    other = GameSession.resume(log, second.game_id)
    other.do({"type": "score", "seat": 1, "points": 1})
    assert other.snapshot()["totals"] == {"1": 1, "2": 22}
    log.close()


def test_a_changed_setup_is_named_in_a_log_already_open(game_log):
    first, second = _two_games(game_log)
    game_log.db.execute("UPDATE games SET setup = replace(setup, 'Ann', 'Anx') WHERE id = ?",
                        (second.game_id,))
    assert game_log.game(second.game_id).damaged
    with pytest.raises(LogError, match=f"game {second.game_id}, its setup"):
        GameSession.resume(game_log, second.game_id)
    assert GameSession.resume(game_log, first.game_id).state == first.state


CHANGES = {
    "setup": "UPDATE games SET setup = replace(setup, 'Ann', 'Anx') WHERE id = ?",
    "status, finished back to open": "UPDATE games SET status = 'open' WHERE id = ?",
    "status, finished to abandoned": "UPDATE games SET status = 'abandoned' WHERE id = ?",
    "finish time, one digit": "UPDATE games SET finished_at = replace(finished_at, '.', ',')"
                              " WHERE id = ?",
    "finish time gone": "UPDATE games SET finished_at = NULL WHERE id = ?",
    "start time": "UPDATE games SET started_at = '1999' || substr(started_at, 5) WHERE id = ?",
    "kind": "UPDATE games SET kind = 'times' WHERE id = ?",
    "checksum": "UPDATE games SET crc = (crc | 256) - (crc & 256) WHERE id = ?",
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_changed_game_row_is_told_and_the_log_set_aside_at_the_next_start(tmp_path, change):
    """One changed field of a game's row (a finished game's status or finish time too)
    is damage: the log is set aside and salvaged, the table is told which game, every
    other game plays on, and the changed game is not carried into the new log as if it
    were whole."""
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    first, second = _two_games(log)
    log.finish(second.game_id)
    log.close()
    _edit(path, change, (second.game_id,))
    log = GameLog(path)
    try:
        assert log.recovered and f"game {second.game_id} was changed" in log.recovered
        assert "kept as games.sqlite3.unreadable-" in log.recovered
        assert [g.id for g in log.games()] == [first.game_id]
        assert GameSession.resume(log, first.game_id).state == first.state
    finally:
        log.close()
    assert len([p for p in tmp_path.iterdir() if p.name.startswith("games.sqlite3.unreadable-")
                and not p.name.endswith(("-wal", "-shm"))]) == 1
    again = GameLog(path)
    assert again.recovered is None, "what was saved is whole"
    again.close()


def test_closing_or_deleting_a_damaged_game_never_blesses_its_row(game_log):
    first, second = _two_games(game_log)
    game_log.db.execute("UPDATE games SET setup = replace(setup, 'Ann', 'Anx') WHERE id = ?",
                        (first.game_id,))
    game_log.finish(first.game_id, "abandoned")
    game_log.finish(first.game_id, "open")
    game_log.delete_game(first.game_id)
    assert game_log.game(first.game_id).damaged
    assert game_log.game(second.game_id).damaged is None


def test_a_missing_action_in_the_middle_is_named(game_log):
    first, _ = _two_games(game_log)
    game_log.db.execute("DELETE FROM actions WHERE game_id = ? AND seq = 2", (first.game_id,))
    with pytest.raises(LogError, match=f"game {first.game_id}, action 2: it is missing"):
        game_log.actions(first.game_id)


def test_export_verifies_and_names_the_bad_action(tmp_path, data_dir, capsys):
    from companion.paths import log_path

    log = GameLog(log_path())
    first, second = _two_games(log)
    log.close()
    _edit(log_path(), "UPDATE actions SET at = '1999-01-01' WHERE game_id = ? AND seq = 3",
          (second.game_id,))
    out = tmp_path / "night.jsonl"
    assert main(["export", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"game {second.game_id}, action 3" in err and "--game" in err
    assert not out.exists(), "a refused export leaves no file behind"
    assert main(["export", "--game", str(first.game_id), "-o", str(out)]) == 0
    assert out.read_text().count("\n") == 4


def test_migrating_an_older_log_gives_every_stored_row_its_checksum(tmp_path):
    path = tmp_path / "games.sqlite3"
    old_log(path, upto=2, games=2, actions=3)
    log = GameLog(path)
    assert log.schema_version >= 3
    assert [len(log.actions(g.id)) for g in log.games()] == [3, 3]
    assert log.db.execute("SELECT COUNT(*) FROM actions WHERE crc IS NULL").fetchone()[0] == 0
    log.close()


def test_export_of_an_older_log_reads_it_as_it_is(tmp_path, game_log):
    path = tmp_path / "old.sqlite3"
    old_log(path, upto=2, games=1, actions=2)
    log = GameLog(path, read_only=True)
    assert log.schema_version == 2
    assert export_jsonl(log, [1]).count("\n") == 3
    log.close()


@given(st.integers(1, 2**40), st.integers(1, 2**40), st.text(), st.text() | st.binary())
def test_an_action_checksum_is_the_crc_of_its_parts_joined(game_id, seq, at, text):
    """The one-step ``action_crc`` (a resume computes one per action) checks the same
    bytes as every log written so far: the four parts joined by the unit separator."""
    def encoded(part):
        return part if isinstance(part, bytes) else str(part).encode("utf-8", "replace")
    joined = b"\x1f".join(encoded(p) for p in (game_id, seq, at, text))
    assert action_crc(game_id, seq, at, text) == zlib.crc32(joined)


# -- migration 7: the game row's checksum covers status and finish time -----------------


def _schema_6_log(path, games: int = 3) -> None:
    """A log as schema 6 left it: old checksums (``setup_crc``), games finished."""
    from companion.store.migrations import MIGRATIONS, _in_transaction, _step

    old_log(path, upto=2, games=games, actions=2)
    db = sqlite3.connect(path, isolation_level=None)
    for number, name, step in MIGRATIONS[2:6]:
        _in_transaction(db, lambda m=(number, name, step): _step(db, *m))
    db.execute("UPDATE games SET status = 'finished', finished_at = 'later' WHERE id > 1")
    assert db.execute("PRAGMA user_version").fetchone()[0] == 6
    db.close()


def test_an_older_log_opens_with_every_game_and_every_row_gets_the_new_checksum(tmp_path):
    path = tmp_path / "games.sqlite3"
    _schema_6_log(path)
    log = GameLog(path)
    try:
        assert log.recovered is None
        assert log.schema_version >= 7
        assert [(g.id, g.status, g.damaged) for g in log.games()] == [
            (1, "open", None), (2, "finished", None), (3, "finished", None)]
        for gid, kind, started, setup, status, finished, crc in log.db.execute(
                "SELECT id, kind, started_at, setup, status, finished_at, crc FROM games"):
            assert crc == game_crc(gid, kind, started, setup, status, finished)
        assert [len(log.actions(g.id)) for g in log.games()] == [2, 2, 2]
    finally:
        log.close()


def test_the_upgrade_never_blesses_a_row_that_did_not_match(tmp_path):
    """A row already damaged under the old checksum stays damaged under the new one
    (the migration runs as it does on a log too large to check at start)."""
    from companion.store.migrations import migrate

    path = tmp_path / "games.sqlite3"
    _schema_6_log(path)
    _edit(path, "UPDATE games SET setup = replace(setup, 'Ann', 'Anx') WHERE id = 2")
    db = sqlite3.connect(path, isolation_level=None)
    try:
        assert migrate(db) >= 7
        rows = {gid: crc == game_crc(gid, kind, started, setup, status, finished)
                for gid, kind, started, setup, status, finished, crc in db.execute(
                    "SELECT id, kind, started_at, setup, status, finished_at, crc FROM games")}
    finally:
        db.close()
    assert rows == {1: True, 2: False, 3: True}


def test_an_older_log_with_a_changed_row_is_told_and_keeps_its_other_games(tmp_path):
    path = tmp_path / "games.sqlite3"
    _schema_6_log(path)
    _edit(path, "UPDATE games SET setup = replace(setup, 'Ann', 'Anx') WHERE id = 2")
    log = GameLog(path)
    try:
        assert log.recovered and "game 2 was changed" in log.recovered
        assert [g.id for g in log.games()] == [1, 3]
        assert all(g.damaged is None for g in log.games())
    finally:
        log.close()


# -- one changed byte anywhere in a game's row is found ---------------------------------

ROW_TEXTS = ("kind", "started_at", "setup", "status", "finished_at")


@given(data=st.data(), finished=st.booleans())
def test_one_changed_byte_anywhere_in_a_game_row_is_found(data, finished):
    """Each stored field of a game's row, one byte changed (any position, any new value):
    the row no longer matches its checksum, so the game is named as damaged and the
    start's check (``games_check``) fails. Constraints are ignored, as a card's bit flip
    ignores them."""
    from companion.store import integrity
    from companion.store.migrations import SCHEMA_VERSION

    log = GameLog(":memory:")
    try:
        first, second = _two_games(log)
        gid = second.game_id
        if finished:
            log.finish(gid)
        assert integrity.games_check(log.db, SCHEMA_VERSION) == "ok"
        raw = dict(zip(("id", *ROW_TEXTS, "crc"), log.db.execute(
            "SELECT id, CAST(kind AS BLOB), CAST(started_at AS BLOB), CAST(setup AS BLOB),"
            " CAST(status AS BLOB), CAST(finished_at AS BLOB), crc FROM games WHERE id = ?",
            (gid,)).fetchone(), strict=True))
        fields = [f for f, v in raw.items() if v is not None]
        field = data.draw(st.sampled_from(fields), label="field")
        mask = data.draw(st.integers(1, 255), label="xor")
        log.db.execute("PRAGMA ignore_check_constraints = ON")
        log.db.execute("PRAGMA foreign_keys = OFF")
        if field in ROW_TEXTS:
            value = bytearray(raw[field])
            at = data.draw(st.integers(0, len(value) - 1), label="byte")
            value[at] ^= mask
            log.db.execute(f"UPDATE games SET {field} = CAST(? AS TEXT) WHERE id = ?",
                           (bytes(value), gid))
        else:  # an integer: one byte of its value (the id: of its low 7 bytes)
            at = data.draw(st.integers(0, 6 if field == "id" else 3), label="byte")
            changed = raw[field] ^ (mask << (8 * at))
            log.db.execute(f"UPDATE games SET {field} = ? WHERE id = ?", (changed, gid))
            if field == "id":
                gid = changed
        verdict = integrity.games_check(log.db, SCHEMA_VERSION)
        assert verdict != "ok" and f"game {gid} " in verdict
        assert log.game(gid).damaged  # listed, named as damaged, never replayed
        assert log.game(first.game_id).damaged is None
    finally:
        log.close()


@given(st.integers(1, 2**40), st.text(), st.text(), st.text(), st.text(), st.none() | st.text())
def test_a_game_checksum_is_the_crc_of_its_stored_fields_joined(gid, kind, started, setup,
                                                                 status, finished):
    """docs/log-format.md's words: the fields joined by 0x1F, ``finished_at`` only when
    it is not NULL (so NULL and an empty text differ)."""
    parts = [str(gid), kind, started, setup, status] + ([] if finished is None else [finished])
    joined = b"\x1f".join(p.encode("utf-8", "replace") for p in parts)
    assert game_crc(gid, kind, started, setup, status, finished) == zlib.crc32(joined)
    if finished is None:
        assert game_crc(gid, kind, started, setup, status, "") != zlib.crc32(joined)
