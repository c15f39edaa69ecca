"""Numbered schema migrations for the game log, each applied once, in order, in a transaction.

A database written by any older version opens with a newer one: ``migrate`` applies the
missing steps and records each in the ``migrations`` table. Never edit a released step;
add a new one at the end.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

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


# Numbers 3 and 4 are taken by work on other branches (per-action checksums, the venue
# outbox); they may be applied after 5 on a log that saw 5 first, which is fine: each
# step is independent and recorded by number.
MIGRATIONS: list[tuple[int, str, Callable[[sqlite3.Connection], None]]] = [
    (1, "games, actions and settings", _m1_initial),
    (2, "player roster", _m2_players),
    (5, "History summaries of finished games", _m5_summaries),
]

SCHEMA_VERSION = MIGRATIONS[-1][0]


def migrate(db: sqlite3.Connection) -> int:
    """Bring ``db`` to ``SCHEMA_VERSION``; returns the version it is at afterwards."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS migrations ("
        " number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    done = {row[0] for row in db.execute("SELECT number FROM migrations")}
    for number, name, step in MIGRATIONS:
        if number in done:
            continue
        # One transaction per step: all of it or none of it. The connection is in
        # autocommit mode (isolation_level=None), so BEGIN/COMMIT are ours.
        db.execute("BEGIN IMMEDIATE")
        try:
            step(db)
            db.execute(
                "INSERT INTO migrations (number, name, applied_at) VALUES (?, ?, ?)",
                (number, name, datetime.now(UTC).isoformat(timespec="seconds")),
            )
            # the highest step applied (steps may be applied out of order, see above)
            db.execute(f"PRAGMA user_version = {max([number, *done])}")
            # In the same transaction: a log whose first step committed is always ours.
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        done.add(number)
    return db.execute("PRAGMA user_version").fetchone()[0]
