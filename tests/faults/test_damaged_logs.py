"""Every damage a log can come with ends in set-aside plus salvage, with a sentence, and
the table plays on: a bad byte in the schema page (a garbled table, column or collation
name, or one inside a CHECK constraint), a truncated file (to nothing too: the box
knows it held games), one bad byte in a game's row (its status, its start), a dangling
symlink, a file of another kind. Read-only commands get a sentence and leave the file as it was."""

from __future__ import annotations

import os
import sqlite3

import pytest
from logfiles import SETUP

from companion.errors import LogError
from companion.store.gamelog import GameLog


def _night(path) -> int:
    log = GameLog(path)
    game = log.new_game("scorepad", SETUP)
    for _i in range(1, 120):
        log.append(game, {"type": "score", "seat": 1, "points": 1, "note": "x" * 100})
    log.set_setting("venue_box_id", "0a0a0a0a")
    log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    return game


def _garble(marker: bytes, at: int = 0, byte: int = 0xFF):
    """A bad byte in the schema page (page 1): in ``marker``'s first occurrence."""
    def damage(path):
        data = bytearray(path.read_bytes())
        where = data.find(marker)
        assert 0 <= where < 4096, f"{marker!r} is not in the schema page"
        data[where + at] = byte
        path.write_bytes(bytes(data))
    return damage


def _truncate(size: int):
    def damage(path):
        path.write_bytes(path.read_bytes()[:size])
    return damage


def _in_game_row(pattern: bytes, at: int, byte: int):
    """One bad byte in the game's row as the card holds it: the record's bytes matching
    ``pattern`` (its start time and status run together in the record), ``at`` into it."""
    def damage(path):
        import re

        data = bytearray(path.read_bytes())
        (found,) = [m.start() for m in re.finditer(pattern, bytes(data))]
        data[found + at] ^= byte
        path.write_bytes(bytes(data))
    return damage


def _dangling(path):
    path.unlink()
    os.symlink(path.parent / "gone" / "games.sqlite3", path)


def _text(path):
    path.write_text("this is not a game log\n" * 50)


def _other_program(path):
    path.unlink()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (x)")
    db.commit()
    db.close()


DAMAGE = {
    "table name not UTF-8": _garble(b"CREATE TABLE games", 13),
    "column name not UTF-8": _garble(b"started_at", 2),
    "column renamed": _garble(b"started_at", 2, ord("A")),
    "CHECK names a renamed column": _garble(b"status IN", 1, ord("A")),
    "collation renamed": _garble(b"NOCASE", 1, ord("A")),
    "file format byte": lambda p: p.write_bytes(p.read_bytes()[:19] + b"\x07"
                                                + p.read_bytes()[20:]),
    "truncated mid-file": _truncate(4096 * 3 + 100),
    "truncated in the header": _truncate(50),
    "truncated to nothing": _truncate(0),
    "a game's status, one byte": _in_game_row(rb"\+00:00open", 6, 0x20),
    "a game's start time, one digit": _in_game_row(rb"\d\d:\d\d\.\d\d\d\+00:00open", 1, 0x01),
    "dangling symlink": _dangling,
    "a text file": _text,
    "another program's database": _other_program,
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_log_is_set_aside_told_and_the_table_plays(tmp_path, damage):
    path = tmp_path / "games.sqlite3"
    _night(path)
    damage(path)
    log = GameLog(path)  # never a traceback
    try:
        assert log.recovered and "kept as games.sqlite3.unreadable-" in log.recovered
        game = log.new_game("scorepad", SETUP)
        log.append(game, {"type": "score", "seat": 2, "points": 3})
        assert log.actions(game)
    finally:
        log.close()
    aside = [p for p in tmp_path.iterdir() if ".unreadable-" in p.name
             and not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1
    again = GameLog(path)
    assert again.recovered is None  # what was saved is healthy
    again.close()


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_read_only_command_gets_a_sentence_and_changes_nothing(tmp_path, damage):
    path = tmp_path / "games.sqlite3"
    _night(path)
    damage(path)
    before = sorted(p.name for p in tmp_path.iterdir())
    data = path.read_bytes() if path.exists() else None
    try:
        log = GameLog(path, read_only=True)
    except LogError as exc:
        assert str(exc) and "Traceback" not in str(exc)
    else:  # a damage SQLite tolerates when reading (the CHECK): it still reads
        log.games()
        log.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (path.read_bytes() if path.exists() else None) == data


@pytest.mark.parametrize("offset, byte", [(0, 0x00), (16, 0x07), (17, 0x01), (19, 0x07),
                                          (21, 0x00)])
def test_a_bad_byte_in_the_header_costs_no_game(tmp_path, offset, byte):
    path = tmp_path / "games.sqlite3"
    game = _night(path)
    data = bytearray(path.read_bytes())
    data[offset] = byte
    path.write_bytes(bytes(data))
    log = GameLog(path)
    try:
        assert log.recovered and "1 of 1 games were saved whole" in log.recovered
        assert len(log.actions(game)) == 119
        assert log.get_setting("venue_box_id") == "0a0a0a0a"
    finally:
        log.close()
    assert not list(tmp_path.glob("*.repair"))
