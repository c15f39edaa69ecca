"""Game log files for tests: older schemas, foreign databases, damage, fingerprints."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from companion.store.checksum import action_crc, row_crc
from companion.store.migrations import APPLICATION_ID, MIGRATIONS

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


def old_log(path: Path, upto: int, games: int = 1, actions: int = 2) -> None:
    """A log as an older companion left it: schema ``upto``, closed cleanly (no -wal)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL,"
               " applied_at TEXT NOT NULL)")
    for number, name, step in MIGRATIONS[:upto]:
        db.execute("BEGIN")
        step(db)
        db.execute("INSERT INTO migrations VALUES (?, ?, 'then')", (number, name))
        db.execute(f"PRAGMA user_version = {number}")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("COMMIT")
    for g in range(1, games + 1):
        setup = '{"players":[{"name":"Ann","seat":1},{"name":"Bo","seat":2}]}'
        db.execute("INSERT INTO games (id, kind, setup, started_at) VALUES (?, 'scorepad', ?,"
                   " 'then')", (g, setup))
        if upto >= 3:  # with the checksums that schema writes
            db.execute("UPDATE games SET crc = ? WHERE id = ?",
                       (row_crc(upto, g, "scorepad", "then", setup, "open", None), g))
        for seq in range(1, actions + 1):
            action = f'{{"points":{seq},"seat":1,"type":"score"}}'
            db.execute("INSERT INTO actions (game_id, seq, at, action) VALUES (?, ?, 'then', ?)",
                       (g, seq, action))
            if upto >= 3:
                db.execute("UPDATE actions SET crc = ? WHERE game_id = ? AND seq = ?",
                           (action_crc(g, seq, "then", action), g, seq))
    db.close()


def foreign_db(path: Path, wal: bool = False) -> None:
    """Another program's SQLite database (application id 0, its own tables)."""
    db = sqlite3.connect(path, isolation_level=None)
    if wal:
        db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.execute("INSERT INTO recipes VALUES ('soup')")
    db.close()


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` with the SHA-256 of its bytes: equal before and after
    means nothing was written, created, renamed or deleted."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir()) if p.is_file()}


def damage_page_holding(path: Path, marker: bytes, page_size: int = 4096) -> int:
    """Make the b-tree page that holds ``marker`` unreadable (its type byte); returns the
    page number. The log must be checkpointed into the main file first."""
    data = bytearray(path.read_bytes())
    at = data.find(marker)
    assert at >= 0, f"{marker!r} is not in the main file (checkpoint first)"
    page = at // page_size
    data[page * page_size] = 0x00
    path.write_bytes(bytes(data))
    return page + 1
