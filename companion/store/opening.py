"""Opening the game log file: what is at the path, building a new log, setting one aside.

``identify`` looks before anything is written: the first 100 bytes are read as plain
bytes (another program's database is recognised by its application id without SQLite
ever opening it for writing), then a read-only SQLite connection reads the id, schema
version and tables, and runs ``quick_check`` when the file is small enough to check
at start (``integrity.py``: a larger log opens ``unchecked`` and is checked in the
background; one marked damaged by that check gets the whole check here). The answer is one of:

* ``ABSENT`` or ``EMPTY``: no log yet (no file, a zero-length file, or the remains of a
  first start that never committed): ``build`` makes one. Unless the box knows the log
  held games (``had_games``: the ``<name>.had-games`` note written beside the log once
  it holds a game, or a ``-wal`` with frames beside a zero-length file): then it is a
  history lost, not a first start, and it is told and set aside like a damaged log;
* ``OURS``: a companion log, possibly of an older schema (the caller migrates it);
* ``FOREIGN`` (another program's file, a folder, a newer companion's log) or
  ``DAMAGED`` (SQLite says corrupt or not a database, the integrity check fails, a table
  is missing): only these two are ever set aside.

Any other failure (read or write errors, a full disk, read-only storage) is a
``StorageError`` and nothing is renamed. A log that another program holds locked is a
``LogError`` ("in use").

``build`` creates a log under a temporary name (``<name>.new``), complete in one
transaction, and only then gives it its name, so a first start cut short leaves either
no log or a whole one.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import LogError, StorageError
from companion.store import integrity
from companion.store.migrations import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    _step,
    migrate,
)
from companion.store.salvage import Salvaged, salvage
from companion.store.storage import (
    BUSY,
    DAMAGED,
    READONLY,
    STORAGE_KINDS,
    kind_of,
    probe,
    storage_error,
)

log = logging.getLogger(__name__)

ABSENT, EMPTY, OURS, FOREIGN = "absent", "empty", "ours", "foreign"
SQLITE_MAGIC = b"SQLite format 3\0"
TABLES = {"games", "actions", "settings", "migrations"}
SIDE_FILES = ("-wal", "-shm", "-journal")
#: A short busy timeout: a log that another process holds is "in use", not damaged.
BUSY_TIMEOUT_S = 2
PAGE_SIZE = 4096  # every companion log's (SQLite's default)
#: What a damaged schema page raises besides SQLite's own errors: a name or an error
#: message that is no longer UTF-8 cannot even be decoded by Python.
UNREADABLE = (sqlite3.Error, UnicodeDecodeError)


@dataclass(frozen=True)
class Look:
    """What ``identify`` found at the path; ``why`` says it in words for the table."""

    state: str
    why: str = ""
    version: int = 0
    #: False when the integrity check did not finish within the start's budget.
    checked: bool = True


def identify(path: Path) -> Look:
    """What is at ``path``, found without writing anything to it."""
    header = read_header(path)
    if header is None:
        return Look(ABSENT)
    if isinstance(header, Look):
        return header
    if len(header) == 0:
        return Look(EMPTY)
    if not header.startswith(SQLITE_MAGIC) or len(header) < 100:
        return Look(DAMAGED, "it is not an SQLite database")
    if int.from_bytes(header[68:72], "big") not in (0, APPLICATION_ID):
        return Look(FOREIGN, "it is an SQLite database of another program")
    look = _look(path)
    return second_look(path) if look.state == DAMAGED else look


def _look(path: Path) -> Look:
    check_now = integrity.fits_at_start(path)
    try:
        db = connect(path, "mode=ro")
        try:
            return _look_inside(db, check_now)
        finally:
            db.close()
    except UnicodeDecodeError:
        return Look(DAMAGED, "its list of tables cannot be read")
    except sqlite3.Error as exc:
        if undecodable(exc):
            return Look(DAMAGED, "its list of tables cannot be read")
        kind = kind_of(exc, path.parent)
        if kind == DAMAGED:
            return Look(DAMAGED, str(exc))
        raise as_log_error(exc, path, "Could not read", confirm=False) from exc


def second_look(path: Path) -> Look:
    """Before a file is called damaged: SQLite reports a read error (EIO) as "database
    disk image is malformed", so every byte of the log and its -wal is read here first
    (an error is the storage's: StorageError), then SQLite looks again. Only a file that
    reads cleanly and still fails SQLite's checks is damaged."""
    for p in (path, path.with_name(path.name + "-wal")):
        try:
            with open(p, "rb") as f:
                while f.read(1 << 20):
                    pass
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise storage_error(exc, path, "Could not read") from exc
    return _look(path)


def read_header(path: Path) -> bytes | Look | None:
    """The file's first 100 bytes (None when there is no file; a Look for a folder or a
    device); StorageError when the storage cannot be read."""
    try:
        st = path.stat()
    except FileNotFoundError:
        if path.is_symlink():  # a link to nothing: set it aside, never write through it
            return Look(FOREIGN, f"it is a link to {os.readlink(path)}, which does not "
                                 "exist")
        return None
    except OSError as exc:
        raise storage_error(exc, path, "Could not read") from exc
    if path.is_dir():
        return Look(FOREIGN, "it is a folder, not a file")
    if not path.is_file():
        return Look(FOREIGN, "it is not a regular file")
    if st.st_size == 0:
        return b""
    try:
        with open(path, "rb") as f:
            return f.read(100)
    except OSError as exc:
        raise storage_error(exc, path, "Could not read") from exc


def _look_inside(db: sqlite3.Connection, check_now: bool) -> Look:
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    # No file of another program looks like this: a first start (of an older companion)
    # that never committed its first step. It holds nothing.
    if app_id == 0 and version == 0 and tables <= {"migrations"} and (
            not tables or db.execute("SELECT COUNT(*) FROM migrations").fetchone()[0] == 0):
        return Look(EMPTY)
    if app_id != APPLICATION_ID:
        return Look(FOREIGN, "it is an SQLite database of another program")
    if version > SCHEMA_VERSION:
        return Look(FOREIGN, f"it was written by a newer companion (schema {version}, this "
                             f"one knows {SCHEMA_VERSION})", version)
    missing = TABLES - tables if version else set()
    if missing:
        return Look(DAMAGED, f"its table {sorted(missing)[0]!r} is missing", version)
    wrong = schema_damage(db, version)
    if wrong:
        return Look(DAMAGED, wrong, version)
    if check_now:
        check = integrity.quick_check(db)
        if check != "ok":
            return Look(DAMAGED, f"SQLite integrity check failed: {check}", version)
    rows = integrity.games_check(db, version)  # every start: the games table is small
    if rows != "ok":
        return Look(DAMAGED, rows, version)
    return Look(OURS, version=version, checked=check_now)


def undecodable(exc: BaseException) -> bool:
    """SQLite's "Could not decode to UTF-8" (a name in the schema page is garbled) or
    "unsupported file format" (a format byte of the header is): damage, not an error of
    the storage."""
    text = str(exc)
    return "decode to UTF-8" in text or "unsupported file format" in text


@functools.cache
def expected_schema(version: int) -> dict[str, frozenset[str]]:
    """Every table and its columns, as migrations 1..``version`` make them."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for number, name, step in MIGRATIONS[:version]:
            _step(db, number, name, step)
        return {t: frozenset(r[1] for r in db.execute(f"PRAGMA table_info({t})"))
                for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                       " AND name NOT LIKE 'sqlite_%'").fetchall()}
    finally:
        db.close()


def schema_damage(db: sqlite3.Connection, version: int) -> str | None:
    """Why the log's tables are not the ones its schema version has, or None. A bad byte
    in the schema page can rename a column, a collation or a table without SQLite
    noticing until a write needs it: each table's insert is compiled here (``EXPLAIN``
    runs nothing), so that happens now, on a read-only connection."""
    if not 1 <= version <= SCHEMA_VERSION:
        return None
    for table, columns in sorted(expected_schema(version).items()):
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if not have:
            return f"its table {table!r} is missing"
        if not columns <= have:
            return (f"its table {table!r} lacks the column {sorted(columns - have)[0]!r} "
                    "(its schema is damaged)")
        try:
            db.execute(f"EXPLAIN INSERT INTO {table} DEFAULT VALUES").fetchall()
        except sqlite3.OperationalError as exc:
            return f"its table {table!r} cannot be written ({exc})"
    done = {r[0] for r in db.execute("SELECT number FROM migrations")}
    if not set(range(1, version + 1)) <= done:
        return "its list of schema steps is damaged"
    return None


def open_log(path: Path) -> tuple[sqlite3.Connection, str | None, bool]:
    """The app's connection to the log at ``path`` (created when there is none), a
    sentence for the host when a foreign or damaged file had to be set aside, and whether
    the integrity check is still to finish (``integrity.check_in_background``)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if kind_of(exc, path.parent) in STORAGE_KINDS:
            raise storage_error(exc, path, "Cannot use the folder of") from exc
        raise LogError(f"cannot use the folder {path.parent} for the game log: "
                       f"{exc.strerror or exc}") from exc
    refuse_read_only_storage(path)
    look = identify(path)
    recovered = None
    lost = look.state in (ABSENT, EMPTY) and had_games(path, look.state)
    if lost:
        recovered = _history_lost(path, look.state)
    elif look.state in (ABSENT, EMPTY):
        build(path, replace_empty=look.state == EMPTY)
    elif look.state == FOREIGN:
        aside = move_aside(path)
        build(path)
        recovered = (f"{path.name} is not a companion game log ({look.why}); it is kept as "
                     f"{aside.name} and a fresh log was started.")
    elif look.state == DAMAGED:
        recovered = _salvage(path, look.why)
    if look.state != OURS or look.checked:
        integrity.clear_mark(path)  # checked whole, or a fresh log in its place
    try:
        return open_for_play(path), recovered, not look.checked
    except UNREADABLE as exc:
        garbled = isinstance(exc, UnicodeDecodeError) or undecodable(exc)
        if look.state == OURS and "malformed database schema" in str(exc):
            # a read-only look tolerates what a writer cannot (a CHECK constraint naming
            # a column that a bad byte renamed): when every byte reads, it is damage
            second_look(path)  # StorageError when it was the storage after all
            garbled = True
        if not (garbled and look.state == OURS):
            if isinstance(exc, UnicodeDecodeError):
                raise LogError(f"the game log {path} is damaged (its list of tables cannot "
                               "be read)") from exc
            raise as_log_error(exc, path, "Could not open") from exc
    # SQLite reads the whole schema only now, and a name in it is garbled: salvage
    recovered = _salvage(path, "its list of tables cannot be read")
    try:
        return open_for_play(path), recovered, False
    except UNREADABLE as exc:
        raise LogError(f"the game log {path} could not be opened after it was saved "
                       f"({exc})") from exc


# -- a log that held games, found empty --------------------------------------------------

HAD_GAMES_SUFFIX = ".had-games"


def had_games_path(path: Path) -> Path:
    return path.with_name(path.name + HAD_GAMES_SUFFIX)


def note_games(path: Path) -> None:
    """Leave word beside the log that it holds games (once: nothing is written when the
    note is there). Best effort: a card that cannot take it is told by the log itself."""
    note = had_games_path(path)
    if note.exists():
        return
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    text = (f"{path.name} has held games since {stamp}. Should it ever be found empty or "
            "missing, the companion says so and keeps the empty file aside instead of "
            "starting a new History without a word (docs/log-format.md).\n")
    tmp = note.with_name(note.name + ".new")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, note)
        _fsync(path.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        log.warning("could not note that %s holds games: %s", path, exc)


def had_games(path: Path, state: str) -> bool:
    """Whether an absent or empty log at ``path`` once held games: its note says so, or
    (a zero-length file) its ``-wal`` still holds frames, which only a log in use leaves."""
    if had_games_path(path).exists():
        return True
    wal = path.with_name(path.name + "-wal")
    try:
        return state == EMPTY and path.stat().st_size == 0 and wal.stat().st_size > 0
    except OSError:
        return False


def _since(path: Path) -> str:
    try:
        text = had_games_path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    found = text.split(" since ", 1)[1].split(".", 1)[0] if " since " in text else ""
    return f" since {found}" if found and len(found) < 30 else ""


def _history_lost(path: Path, state: str) -> str:
    """The log that held games is gone or empty (a card fault that truncated it): what
    is left of it is set aside as a damaged log is (the empty file and its -wal and -shm,
    kept), a fresh log takes its place, and the sentence says so."""
    if state == EMPTY:
        aside = move_aside(path)
        build(path)
        return (f"The game log was damaged: {path.name} was found empty, though this box "
                f"had recorded games in it{_since(path)} (a card fault?). It is kept as "
                f"{aside.name}; a fresh log was started.")
    build(path)  # a -wal left without its log is moved aside, never paired with the new one
    return (f"The game log was damaged: {path.name} is missing, though this box had "
            f"recorded games in it{_since(path)} (a card fault?). A fresh log was started.")


def _salvage(path: Path, why: str) -> str:
    """Save every readable game of a damaged log into a fresh one that takes its place;
    the damaged file is kept aside. Returns the sentence for the host."""
    saved = Salvaged()

    def fill(dst: sqlite3.Connection) -> None:
        nonlocal saved
        saved = _salvage_from(path, dst)
        if not saved.total():  # perhaps only the file's first 100 bytes are damaged
            saved = _salvage_with_header_repaired(path, dst) or saved

    tmp = temp_name(path)
    build(tmp, fill=fill)  # complete under the temporary name first
    try:
        aside = move_aside(path, keep_name=True)
        os.replace(tmp, path)
        _fsync(path.parent)
    except (OSError, StorageError) as exc:
        raise storage_error(exc, path, "Could not replace the damaged") from exc
    return (f"The game log was damaged ({why}). {saved.summary()} The damaged file is kept "
            f"as {aside.name}.")


def _salvage_from(path: Path, dst: sqlite3.Connection) -> Salvaged:
    try:
        src = connect(path, "mode=ro")
    except sqlite3.Error:
        return Salvaged()  # nothing readable: the fresh log stays empty
    try:
        return salvage(src, dst)
    finally:
        src.close()


def _salvage_with_header_repaired(path: Path, dst: sqlite3.Connection) -> Salvaged | None:
    """Salvage from a copy of the log whose 100-byte header is a fresh log's (page size
    4096, as every companion log has), with the page count of the file: one bad byte in
    the header makes SQLite refuse a file whose pages are all whole. None when that
    saves nothing either (or the copy cannot be made: the disk is full)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) < 2 * PAGE_SIZE or len(data) % PAGE_SIZE:
        return None
    fresh = sqlite3.connect(":memory:")
    try:
        fresh.execute("PRAGMA page_size = 4096")
        fresh.execute("CREATE TABLE t (x)")
        header = bytearray(fresh.serialize()[:100])
    finally:
        fresh.close()
    header[28:32] = (len(data) // PAGE_SIZE).to_bytes(4, "big")
    header[92:96] = header[24:28]  # the page count above is valid
    copy = path.with_name(path.name + ".repair")
    try:
        copy.write_bytes(bytes(header) + data[100:])
        saved = _salvage_from(copy, dst)
        return saved if saved.total() else None
    except (OSError, sqlite3.Error):
        return None
    finally:
        _remove(copy)


def connect(path: Path, mode: str | None = None) -> sqlite3.Connection:
    """An SQLite connection in autocommit mode; ``mode`` is a URI query ("mode=ro")."""
    target = f"file:{_uri_path(path)}?{mode}" if mode else str(path)
    return sqlite3.connect(target, isolation_level=None, check_same_thread=False,
                           timeout=BUSY_TIMEOUT_S, uri=bool(mode))


def _uri_path(path: Path) -> str:
    from urllib.parse import quote

    return quote(str(path.absolute()), safe="/")


def open_for_play(path: Path) -> sqlite3.Connection:
    """The read-write connection: WAL journal, full sync, foreign keys."""
    db = connect(path)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        db.close()
        raise
    return db


def refuse_read_only_storage(path: Path) -> None:
    """StorageError before anything is tried when the log's folder is read-only."""
    if probe(path.parent) == READONLY:
        raise storage_error(OSError(30, "read-only file system"), path, "Cannot write to",
                            kind=READONLY)


# -- building a new log ---------------------------------------------------------------------


def temp_name(path: Path) -> Path:
    return path.with_name(path.name + ".new")


def build(path: Path, replace_empty: bool = False, fill=None) -> None:
    """Create a complete log at ``path`` (absent, or EMPTY with ``replace_empty``).

    Built under ``<name>.new`` in one transaction, then linked into place (never over a
    file that appeared meanwhile). ``fill(db)``, if given, runs on the new log before it
    gets its name (salvage copies games into it). StorageError when the storage fails;
    the path is then left as it was.
    """
    tmp = temp_name(path)
    _remove(tmp)  # a stale one is an earlier first start cut short: never the log
    try:
        db = connect(tmp)
        try:
            db.execute("PRAGMA synchronous = FULL")
            migrate(db, fresh=True)
            if fill is not None:
                fill(db)
            db.execute("PRAGMA journal_mode = WAL")
        finally:
            db.close()
        _fsync(tmp)
        if replace_empty:
            for suffix in SIDE_FILES:  # the empty log's own: nothing of value in them
                _unlink(path.with_name(path.name + suffix))
            os.replace(tmp, path)
        else:
            _clear_orphans(path)
            _link_into_place(tmp, path)
        _fsync(path.parent)
    except (sqlite3.Error, OSError) as exc:
        with contextlib.suppress(OSError):
            _remove(tmp)
        raise as_log_error(exc, path, "Could not create") from exc


def _link_into_place(tmp: Path, path: Path) -> None:
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass  # another start made one meanwhile: that one is the log
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP):  # no hard links (FAT)
            raise
        if not path.exists():
            os.rename(tmp, path)
            return
    tmp.unlink()


def _clear_orphans(path: Path) -> None:
    """Side files left by a log that is gone: a -wal must never meet a new database."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        wal.rename(aside_name(path).with_name(aside_name(path).name + "-wal"))
    for suffix in SIDE_FILES:
        _unlink(path.with_name(path.name + suffix))


def _remove(path: Path) -> None:
    for p in (path, *(path.with_name(path.name + s) for s in SIDE_FILES)):
        _unlink(p)


def _unlink(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- setting a file aside -------------------------------------------------------------------


def aside_name(path: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.unreadable-{stamp}")
    n = 1
    while aside.exists() or aside.with_name(aside.name + "-wal").exists():
        aside = path.with_name(f"{path.name}.unreadable-{stamp}-{n}")
        n += 1
    return aside


def move_aside(path: Path, keep_name: bool = False) -> Path:
    """Rename a damaged or foreign file (and its side files) to ``.unreadable-<time>``.

    ``keep_name``: the main file stays reachable at ``path`` too (a hard link), for a
    replacement to take its place atomically. StorageError when it cannot be done;
    nothing is then changed.
    """
    aside = aside_name(path)
    try:
        if keep_name:
            os.link(path, aside)
        else:
            path.rename(aside)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(aside.with_name(aside.name + suffix))
        _fsync(path.parent)
    except OSError as exc:
        raise storage_error(exc, path, "Could not set aside",
                            tail=" Nothing was changed.") from exc
    return aside


# -- errors ------------------------------------------------------------------------------


def as_log_error(exc: BaseException, path: Path | None, doing: str,
                 confirm: bool = True) -> LogError:
    """A LogError for an SQLite or OS error: "in use", a StorageError, or plain.

    "Damaged" only after ``second_look`` agrees (``confirm``): otherwise the failure was
    a read error of the storage, and is told as one.
    """
    if isinstance(exc, LogError):
        return exc
    kind = kind_of(exc, path.parent if path is not None else None)
    if kind == BUSY:
        return LogError(f"the game log {path} is in use by another program ({exc}); "
                        "close it and try again")
    if kind == DAMAGED and confirm and path is not None:
        try:
            if second_look(path).state != DAMAGED:  # it reads fine now: a read error
                why = OSError(errno.EIO, f"a read failed; SQLite said: {exc}")
                return storage_error(why, path, doing, kind="io")
        except LogError as looked:
            return looked
    if kind == DAMAGED:
        return LogError(f"the game log {path} is damaged ({exc}); start the companion again "
                        "to save what can be saved")
    if kind in STORAGE_KINDS:
        return storage_error(exc, path, doing)
    return LogError(f"the game log {path} cannot be used: {exc}")
