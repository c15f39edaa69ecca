"""A checksum per stored action and setup: a changed digit is found and named, the other
games play on, older logs get their checksums when migrated."""

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
from companion.store.checksum import action_crc, setup_crc
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
    kind, started, setup, crc = game_log.db.execute(
        "SELECT kind, started_at, setup, crc FROM games WHERE id = ?",
        (first.game_id,)).fetchone()
    assert crc == setup_crc(first.game_id, kind, started, setup)


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


def test_a_changed_setup_is_named(tmp_path):
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    first, second = _two_games(log)
    log.close()
    _edit(path, "UPDATE games SET setup = replace(setup, 'Ann', 'Anx') WHERE id = ?",
          (second.game_id,))
    log = GameLog(path)
    assert log.game(second.game_id).damaged
    with pytest.raises(LogError, match=f"game {second.game_id}, its setup"):
        GameSession.resume(log, second.game_id)
    assert GameSession.resume(log, first.game_id).state == first.state
    log.close()


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
