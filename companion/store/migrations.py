"""Numbered schema migrations for the game log, each applied once, in order, in a transaction.

A database written by any older version opens with a newer one: ``migrate`` applies the
missing steps and records each in the ``migrations`` table. Never edit a released step;
add a new one at the end.

A new log is built by ``migrate(db, fresh=True)``: the ``migrations`` table, every step
and the application id in one transaction, so a first start cut short by a crash or a
full disk leaves nothing that could be taken for another program's database.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

from companion.store.checksum import (
    RAW_GAME_FIELDS,
    action_crc,
    game_crc,
    setup_crc,
    unmatched,
)

#: Identifies our SQLite files (PRAGMA application_id): ASCII "TCMP".
APPLICATION_ID = 0x54434D50


def _run(db: sqlite3.Connection, script: str) -> None:
    # Statement by statement: executescript() would COMMIT the open transaction first.
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _m1_initial(db: sqlite3.Connection) -> None:
    _run(
        db,
        """
        CREATE TABLE games (
            id          INTEGER PRIMARY KEY,
            kind        TEXT NOT NULL,
            setup       TEXT NOT NULL,
            started_at  TEXT NOT NULL,
            finished_at TEXT,
            status      TEXT NOT NULL DEFAULT 'open'
                        CHECK (status IN ('open', 'finished', 'abandoned'))
        );
        CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq     INTEGER NOT NULL,
            at      TEXT NOT NULL,
            action  TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE settings (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """
    )


def _m2_players(db: sqlite3.Connection) -> None:
    """The roster of people who have played, so setup can offer known names."""
    _run(
        db,
        """
        CREATE TABLE players (
            name      TEXT PRIMARY KEY COLLATE NOCASE,
            last_seat INTEGER,
            last_seen TEXT NOT NULL
        );
        """
    )


def _m3_checksums(db: sqlite3.Connection) -> None:
    """A checksum per action and per game setup (``companion/store/checksum.py``);
    the rows already stored get theirs now."""
    db.execute("ALTER TABLE actions ADD COLUMN crc INTEGER")
    db.execute("ALTER TABLE games ADD COLUMN crc INTEGER")
    rows = db.execute("SELECT game_id, seq, at, action FROM actions").fetchall()
    for game_id, seq, at, action in rows:
        db.execute("UPDATE actions SET crc = ? WHERE game_id = ? AND seq = ?",
                   (action_crc(game_id, seq, at, action), game_id, seq))
    games = db.execute("SELECT id, kind, started_at, setup FROM games").fetchall()
    for game_id, kind, started_at, setup in games:
        db.execute("UPDATE games SET crc = ? WHERE id = ?",
                   (setup_crc(game_id, kind, started_at, setup), game_id))


def _m4_venue_outbox(db: sqlite3.Connection) -> None:
    """Venue mode (issue 16, docs/venue.md): what is still to be published to the venue's
    MQTT broker, written in the same transaction as the action it tells of. ``id`` is the
    box's message revision: AUTOINCREMENT, so it is never reused after a delete."""
    _run(
        db,
        """
        CREATE TABLE venue_outbox (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            game_id    INTEGER NOT NULL,
            topic      TEXT NOT NULL CHECK (topic IN ('live', 'result')),
            event      TEXT NOT NULL,
            seq        INTEGER NOT NULL,
            body       TEXT NOT NULL,
            created_at TEXT NOT NULL,
            sent_at    TEXT,
            acked_at   TEXT
        );
        CREATE INDEX venue_outbox_unsent ON venue_outbox (sent_at, id);
        """
    )


def _m5_summaries(db: sqlite3.Connection) -> None:
    """History's line for each finished game, computed once: replaying a long game takes
    a while, and History lists thirty of them. ``made_with`` names what the summary was
    computed from (engine version, summary form, when the game was finished, how many
    actions): a summary whose ``made_with`` no longer matches is computed again."""
    _run(
        db,
        """
        CREATE TABLE summaries (
            game_id   INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            made_with TEXT NOT NULL,
            summary   TEXT NOT NULL
        );
        """
    )


def _m6_deleted_games(db: sqlite3.Connection) -> None:
    """Games deleted from History: the game, its actions and its status stay in the log
    untouched (nothing is lost by a mistaken tap); this row only hides it from History,
    the statistics and the exports. ``status_before``: what the game was when deleted."""
    _run(
        db,
        """
        CREATE TABLE deleted_games (
            game_id       INTEGER PRIMARY KEY REFERENCES games(id),
            deleted_at    TEXT NOT NULL,
            status_before TEXT NOT NULL
        );
        """
    )


def _m7_game_row_checksums(db: sqlite3.Connection) -> None:
    """A game row's checksum covers its status and finish time too (``game_crc``): a bad
    byte there changed a game unnoticed before. Each row whose old checksum (its setup
    and what identifies it) still matches gets the new one; a row whose old one does not
    match keeps it, so it stays damaged and is never blessed by the upgrade."""
    rows = db.execute(f"SELECT {RAW_GAME_FIELDS} FROM games").fetchall()
    for game_id, kind, started_at, setup, status, finished_at, crc in rows:
        new = game_crc(game_id, kind, started_at, setup, status, finished_at)
        if crc != setup_crc(game_id, kind, started_at, setup):
            new = unmatched(crc, new)
        db.execute("UPDATE games SET crc = ? WHERE id = ?", (new, game_id))


MIGRATIONS: list[tuple[int, str, Callable[[sqlite3.Connection], None]]] = [
    (1, "games, actions and settings", _m1_initial),
    (2, "player roster", _m2_players),
    (3, "a checksum per action and per setup", _m3_checksums),
    (4, "venue outbox", _m4_venue_outbox),  # issue 16: venue mode
    (5, "History summaries of finished games", _m5_summaries),
    (6, "games deleted from History", _m6_deleted_games),
    (7, "a game row's checksum covers its status and finish time", _m7_game_row_checksums),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]


def migrate(db: sqlite3.Connection, *, fresh: bool = False) -> int:
    """Bring ``db`` to ``SCHEMA_VERSION``; returns the version it is at afterwards.

    ``fresh``: ``db`` is new and empty; every step goes into one transaction with the
    application id. Otherwise each missing step is its own transaction.
    """
    if fresh:
        _in_transaction(db, lambda: [_step(db, *m) for m in MIGRATIONS])
    else:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        done = ({row[0] for row in db.execute("SELECT number FROM migrations")}
                if "migrations" in tables else set())
        for number, name, step in MIGRATIONS:
            if number not in done:
                _in_transaction(db, lambda m=(number, name, step): _step(db, *m))
    return db.execute("PRAGMA user_version").fetchone()[0]


def _step(db: sqlite3.Connection, number: int, name: str,
          step: Callable[[sqlite3.Connection], None]) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS migrations ("
        " number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    step(db)
    db.execute(
        "INSERT INTO migrations (number, name, applied_at) VALUES (?, ?, ?)",
        (number, name, datetime.now(UTC).isoformat(timespec="seconds")),
    )
    db.execute(f"PRAGMA user_version = {number}")
    # In the same transaction: a log whose first step committed is always ours.
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _in_transaction(db: sqlite3.Connection, fn: Callable[[], object]) -> None:
    """All of it or none of it. The connection is in autocommit mode
    (isolation_level=None), so BEGIN/COMMIT are ours."""
    db.execute("BEGIN IMMEDIATE")
    try:
        fn()
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):  # the step's own error is the one to tell
            db.execute("ROLLBACK")
        raise
