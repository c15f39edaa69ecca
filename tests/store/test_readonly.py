"""Read-only commands read only: export and doctor leave every byte of the folder as it
was, whatever they find there (a log, an older log, another program's file, an empty
file, a log in use). Each test fingerprints the folder before and after."""

from __future__ import annotations

import sqlite3

import pytest
from logfiles import SETUP, fingerprint, foreign_db, old_log

from companion.cli import main
from companion.errors import LogError
from companion.games import get_rules
from companion.session import GameSession
from companion.store.gamelog import GameLog


@pytest.fixture
def log_file(data_dir):
    from companion.paths import log_path

    return log_path()


def _played(path, points=(3, 4)) -> int:
    log = GameLog(path)
    game = GameSession.start(log, get_rules("scorepad"), SETUP)
    for p in points:
        game.do({"type": "score", "seat": 1, "points": p})
    log.close()
    return game.game_id


def _both(capsys) -> tuple[int, int, str]:
    """doctor and export, as a person would run them; returns both codes and the text."""
    doctor = main(["doctor"])
    export = main(["export"])
    out = capsys.readouterr()
    return doctor, export, out.out + out.err


def test_a_closed_log_is_read_without_a_byte_or_a_file_changing(log_file, capsys):
    _played(log_file)
    before = fingerprint(log_file.parent)
    doctor, export, text = _both(capsys)
    assert (doctor, export) == (0, 0), text
    assert '"points":4' in text.replace(" ", "")
    assert fingerprint(log_file.parent) == before


def test_a_log_in_use_is_read_with_its_newest_actions(log_file, capsys):
    _played(log_file)
    writer = GameLog(log_file)  # the kiosk, running: its newest action is in the -wal
    writer.append(1, {"type": "score", "seat": 2, "points": 9})
    before = fingerprint(log_file.parent)
    try:
        doctor, export, text = _both(capsys)
    finally:
        after = fingerprint(log_file.parent)
        writer.close()
    assert (doctor, export) == (0, 0), text
    assert '"points":9' in text.replace(" ", "")
    # Readers of a log in use register in the shared-memory index (-shm), as SQLite's WAL
    # protocol requires; the log and its -wal are not changed, and no file appears.
    assert after.keys() == before.keys()
    assert after["games.sqlite3"] == before["games.sqlite3"]
    assert after["games.sqlite3-wal"] == before["games.sqlite3-wal"]


def test_an_older_log_is_read_as_it_is_and_not_migrated(log_file, capsys):
    log_file.parent.mkdir(parents=True, exist_ok=True)
    old_log(log_file, upto=1, games=1, actions=2)
    before = fingerprint(log_file.parent)
    doctor, export, text = _both(capsys)
    assert (doctor, export) == (0, 0), text
    assert "(schema 1, 1 games)" in text and '"points":2' in text.replace(" ", "")
    assert fingerprint(log_file.parent) == before


@pytest.mark.parametrize("wal", [False, True], ids=["rollback-journal", "wal"])
def test_another_programs_database_is_refused_untouched(log_file, capsys, wal):
    log_file.parent.mkdir(parents=True, exist_ok=True)
    foreign_db(log_file, wal=wal)
    before = fingerprint(log_file.parent)
    header = log_file.read_bytes()[:100]
    doctor, export, text = _both(capsys)
    assert (doctor, export) == (1, 2)
    assert "another program" in text and "left as it is" in text
    assert log_file.read_bytes()[:100] == header  # bytes 18-19, 28, 96: journal mode etc.
    assert fingerprint(log_file.parent) == before


def test_a_zero_length_file_stays_zero_length(log_file, capsys):
    log_file.parent.mkdir(parents=True, exist_ok=True)
    log_file.write_bytes(b"")
    doctor, export, text = _both(capsys)
    assert (doctor, export) == (1, 2) and "empty (0 bytes)" in text
    assert log_file.read_bytes() == b""
    assert fingerprint(log_file.parent) == {"games.sqlite3": fingerprint(log_file.parent)[
        "games.sqlite3"]}


def test_a_newer_companions_log_is_refused_untouched(log_file, capsys):
    _played(log_file)
    db = sqlite3.connect(log_file)
    db.execute("PRAGMA user_version = 99")
    db.close()
    before = fingerprint(log_file.parent)
    doctor, export, text = _both(capsys)
    assert (doctor, export) == (1, 2) and "newer companion" in text
    assert fingerprint(log_file.parent) == before


def test_writing_through_a_read_only_log_is_refused(log_file):
    _played(log_file)
    log = GameLog(log_file, read_only=True)
    with pytest.raises(LogError, match="reading only"):
        log.append(1, {"type": "score", "seat": 1, "points": 1})
    log.close()
