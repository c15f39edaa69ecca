"""Taking a refused write back out of the log, so that it never comes back at a restart.

When ``COMMIT`` (or the sync of the ``-wal`` file inside it) fails, SQLite has usually
written the transaction's frames to the ``-wal`` file already, and its recovery at the
next start keeps every frame that is complete: an action the table was told was *not*
recorded would come back. So every write transaction of the game log first notes the
rows it is about to change (``note``). After a failed write the log:

1. rolls back and closes its connection (SQLite then checkpoints what was committed and
   deletes the ``-wal`` file when it can);
2. opens the file again, which runs SQLite's recovery exactly as the next start would;
3. puts each noted row back as it was before the refused write (``restore``);
4. empties the ``-wal`` file (``wal_checkpoint(TRUNCATE)``); when another connection
   stops that, it commits a small marker write instead, whose frames overwrite those
   that came after the last committed one;
5. reads the noted rows again and compares them with what they were.

Only then is the write reported as refused. If the storage fails again on the way, the
refusal says so (``StorageError.uncertain``) and the log retries the take-back before
its next read or write.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

MARKER_KEY = "log.write_refused_at"


@dataclass(frozen=True)
class Noted:
    """Some rows of one table as they were before a write transaction changed them."""

    table: str
    where: str
    args: tuple
    columns: tuple[str, ...]
    rows: frozenset[tuple]


def note(db: sqlite3.Connection, table: str, where: str, args: tuple) -> Noted:
    """The rows of ``table`` matching ``where`` now, inside the write transaction."""
    cur = db.execute(f"SELECT * FROM {table} WHERE {where}", args)
    names = tuple(d[0] for d in cur.description)
    return Noted(table, where, args, names, frozenset(cur.fetchall()))


def absent(table: str, where: str, args: tuple, columns: tuple[str, ...]) -> Noted:
    """Rows the write has just found not to exist (the next sequence number of a game,
    read in the same write transaction): noted without reading them again. Taking the
    write back removes whatever is there, and puts nothing in its place."""
    return Noted(table, where, args, columns, frozenset())


def columns(db: sqlite3.Connection, table: str) -> tuple[str, ...]:
    """The names of ``table``'s columns, in order (what ``note`` records with rows)."""
    return tuple(d[0] for d in db.execute(f"SELECT * FROM {table} LIMIT 0").description)


def unchanged(db: sqlite3.Connection, noted: Noted) -> bool:
    now = db.execute(f"SELECT * FROM {noted.table} WHERE {noted.where}", noted.args)
    return frozenset(now.fetchall()) == noted.rows


def restore(db: sqlite3.Connection, noted: list[Noted]) -> int:
    """Put the noted rows back, empty the -wal, check; returns how many row sets had to
    be put back (the refused write had come back through SQLite's recovery)."""
    stale = [n for n in noted if not unchanged(db, n)]
    if stale:
        db.execute("BEGIN IMMEDIATE")
        try:
            for n in reversed(stale):
                db.execute(f"DELETE FROM {n.table} WHERE {n.where}", n.args)
                marks = ", ".join("?" * len(n.columns))
                for row in n.rows:
                    db.execute(f"INSERT INTO {n.table} ({', '.join(n.columns)}) "
                               f"VALUES ({marks})", row)
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
    flush_wal(db)
    changed = [n for n in noted if not unchanged(db, n)]
    if changed:
        raise sqlite3.DatabaseError(f"the {changed[0].table} rows of the refused write "
                                    "could not be put back")
    return len(stale)


def flush_wal(db: sqlite3.Connection) -> None:
    """Leave no frame after the last committed one in the -wal file."""
    busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    if not busy:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO "
                   "UPDATE SET value = excluded.value",
                   (MARKER_KEY, f'"{datetime.now(UTC).isoformat(timespec="seconds")}"'))
        db.execute("COMMIT")
    except BaseException:
        _rollback(db)
        raise


def _rollback(db: sqlite3.Connection) -> None:
    try:
        if db.in_transaction:
            db.execute("ROLLBACK")
    except sqlite3.Error:
        pass  # the error that brought us here is the one to report
