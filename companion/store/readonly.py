"""Opening the game log for reading only: ``companion export``, ``doctor`` and friends.

A read-only command never changes what it reads: no journal-mode switch, no migration,
no rename, nothing written to another program's file or to an empty one. The file is
looked at as plain bytes first; SQLite then opens it with a read-only URI:

* ``immutable=1`` when no side files exist (nobody has the log open, so everything is in
  the main file) and on read-only media without a ``-shm`` file; SQLite then takes no
  locks and creates no files;
* ``mode=ro`` otherwise, so the newest actions in the ``-wal`` file are read as well
  (SQLite reads them through the existing ``-shm`` file, also on read-only media).

    db, version = open_read_only(path)
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from companion.errors import LogError
from companion.store.migrations import APPLICATION_ID, SCHEMA_VERSION
from companion.store.opening import (
    EMPTY,
    SQLITE_MAGIC,
    TABLES,
    Look,
    as_log_error,
    connect,
    had_games,
    read_header,
    schema_damage,
    undecodable,
)
from companion.store.storage import READONLY, probe

LEFT_ALONE = "it was left as it is"
SALVAGE = "Starting the companion saves what can be saved."


def open_read_only(path: Path) -> tuple[sqlite3.Connection, int]:
    """A read-only connection to the log at ``path`` and its schema version.

    LogError (never a change to the file) when there is no log, it is empty, another
    program's, newer or damaged; StorageError when the storage cannot be read.
    """
    header = read_header(path)
    if header is None:
        raise LogError(f"there is no game log at {path}")
    if isinstance(header, Look):
        raise LogError(f"{path} is not a game log: {header.why}; {LEFT_ALONE}")
    if len(header) == 0:
        if had_games(path, EMPTY):  # the games it held are gone: say so
            raise LogError(f"{path} is empty (0 bytes), though this box had recorded games "
                           "in it (a card fault may have cut it off); starting the companion "
                           "sets it aside and offers to restore the last export from a USB "
                           f"stick; {LEFT_ALONE}")
        raise LogError(f"{path} is empty (0 bytes): it holds no games; {LEFT_ALONE}")
    if not header.startswith(SQLITE_MAGIC) or len(header) < 100:
        raise LogError(f"{path} is not an SQLite database (damaged, or another program's "
                       f"file); {LEFT_ALONE}")
    if int.from_bytes(header[68:72], "big") not in (0, APPLICATION_ID):
        raise LogError(f"{path} is an SQLite database of another program; {LEFT_ALONE}")
    sides = [path.with_name(path.name + s) for s in ("-wal", "-shm")]
    had = {p for p in sides if p.exists()}
    db = connect(path, _mode(path))
    try:
        return db, _check_or_close(db, path)
    except BaseException:
        _forget_new_side_files(sides, had)
        raise


def _forget_new_side_files(sides: list[Path], had: set[Path]) -> None:
    """Looking closer at a damaged log (``as_log_error``) opens it ``mode=ro``, and
    SQLite then makes an empty ``-wal`` and its ``-shm`` beside it: take those away
    again, so a read-only command leaves the folder as it found it."""
    wal = sides[0]
    if wal in had or (wal.exists() and wal.stat().st_size > 0):
        return
    for p in sides:
        if p not in had:
            with contextlib.suppress(OSError):
                p.unlink()


def _check_or_close(db: sqlite3.Connection, path: Path) -> int:
    """The schema version; the connection closed and a LogError when it is no log."""
    try:
        return _check(db, path)
    except UnicodeDecodeError as exc:
        db.close()
        raise LogError(f"{path} is damaged (its list of tables cannot be read); "
                       f"{LEFT_ALONE}. {SALVAGE}") from exc
    except sqlite3.Error as exc:
        db.close()
        if undecodable(exc):
            raise LogError(f"{path} is damaged (its list of tables cannot be read); "
                           f"{LEFT_ALONE}. {SALVAGE}") from exc
        raise as_log_error(exc, path, "Could not read") from exc
    except BaseException:
        db.close()
        raise


def _mode(path: Path) -> str:
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    if not wal.exists() and not shm.exists():
        return "immutable=1"
    if shm.exists():
        return "mode=ro"
    if wal.stat().st_size == 0:
        return "immutable=1"
    if probe(path.parent) == READONLY:
        raise LogError(f"the newest actions of {path} are in {wal.name}, which SQLite cannot "
                       f"read on read-only storage without {shm.name}: copy the folder to "
                       "writable storage and read it there")
    return "mode=ro"  # SQLite creates the -shm index beside it; the log is not changed


def _check(db: sqlite3.Connection, path: Path) -> int:
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if app_id != APPLICATION_ID:
        if not tables:
            raise LogError(f"{path} holds no games yet (a log the companion never "
                           f"finished creating); {LEFT_ALONE}")
        raise LogError(f"{path} is an SQLite database of another program; {LEFT_ALONE}")
    if version > SCHEMA_VERSION:
        raise LogError(f"{path} was written by a newer companion (schema {version}, this one "
                       f"reads up to {SCHEMA_VERSION}); {LEFT_ALONE}")
    missing = TABLES - tables
    wrong = None if missing else schema_damage(db, version)
    if wrong:
        raise LogError(f"{path} is damaged: {wrong}; {LEFT_ALONE}. {SALVAGE}")
    if missing:
        raise LogError(f"{path} is damaged: its table {sorted(missing)[0]!r} is missing; "
                       f"{LEFT_ALONE}. Starting the companion saves what can be saved.")
    check = db.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise LogError(f"{path} is damaged (SQLite integrity check: {check}); {LEFT_ALONE}. "
                       "Starting the companion saves what can be saved.")
    return version
