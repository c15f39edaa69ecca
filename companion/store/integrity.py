"""SQLite's integrity check of the game log: bounded at start, finished in the background.

``PRAGMA quick_check`` reads every page of the file, so on a log that has kept years of
game nights it would hold up every start for longer and longer. At start the whole check
runs only on a log of at most ``START_BYTES`` (16 MiB with its WAL: a few milliseconds
on a desktop, about half a second from a Pi's SD card, and more than a year of ordinary
nights); a larger one opens at once with ``unchecked`` set, and the app runs the check
on a worker thread with its own read-only connection (``check_in_background``). The
bound is the file's size rather than a clock or SQLite's progress handler: SQLite checks
each b-tree inside one step (3.40, Raspberry Pi OS's), so only the amount it reads
bounds the time, and a size gives the same answer on every run.

Each game's row is checked against its checksum at every start as well, whatever the
log's size (``games_check``: the games table is small beside the actions): a changed
byte in a game's setup, status or finish time is damage like a bad page, so the log is
set aside and salvaged (``opening.py``), and the table is offered the last export on a
USB stick to restore the game from.

Nothing is weakened for a damaged file: when the background check fails, the log is
*marked* (a small ``<log>.damaged`` file beside it holding SQLite's words) and the table
is told; the next start sees the mark, checks the whole file whatever its size, and a
damaged log is then set aside and salvaged exactly as one found damaged at start (an
unreadable page that is only the card's read error is still told apart there, see
``opening.second_look``). A clean whole check clears the mark.

    if integrity.fits_at_start(path): verdict = integrity.quick_check(db)
    thread = integrity.check_in_background(path, done)  # done("ok" or what is wrong)
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from companion.store.checksum import GAME_ROW_SCHEMA, RAW_GAME_FIELDS, row_crc
from companion.store.storage import DAMAGED, kind_of

log = logging.getLogger(__name__)

#: The largest log (main file and WAL together) checked whole before the app starts.
START_BYTES = 16 * 1024 * 1024
MARK_SUFFIX = ".damaged"


def size_of(path: Path) -> int:
    """The log's bytes on the card: the main file and its WAL."""
    total = 0
    for p in (path, path.with_name(path.name + "-wal")):
        with contextlib.suppress(FileNotFoundError):
            total += p.stat().st_size
    return total


def fits_at_start(path: Path) -> bool:
    """Whether the whole check runs before the app starts: a log within ``START_BYTES``,
    or one a background check marked as failed."""
    return marked(path) or size_of(path) <= START_BYTES


def quick_check(db: sqlite3.Connection) -> str:
    """SQLite's answer: "ok", or the first thing it found wrong."""
    return db.execute("PRAGMA quick_check").fetchone()[0]


def games_check(db: sqlite3.Connection, version: int) -> str:
    """Every game row against its checksum (a log at schema ``version``): "ok", or which
    game's row was changed after it was recorded. Read as stored bytes, so a byte that
    is no longer UTF-8 is named like any other (SQLite's errors go to the caller)."""
    if version < 3:
        return "ok"  # no checksums yet
    bad = []
    for gid, kind, started, setup, status, finished, crc in db.execute(
            f"SELECT {RAW_GAME_FIELDS} FROM games ORDER BY id"):
        if crc != row_crc(version, gid, kind, started, setup, status, finished):
            bad.append(gid)
    if not bad:
        return "ok"
    what = "setup, status or finish time" if version >= GAME_ROW_SCHEMA else "setup"
    games = ", ".join(str(g) for g in bad)
    return (f"the row of game{'s' if len(bad) > 1 else ''} {games} was changed after it was "
            f"recorded (its {what} no longer matches its checksum)")


def full_check(path: Path) -> str:
    """The whole check on a read-only connection of its own ("ok" or what is wrong):
    SQLite's, then each game's row against its checksum."""
    uri = f"file:{quote(str(Path(path).absolute()), safe='/')}?mode=ro"
    db = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        verdict = quick_check(db)
        if verdict == "ok":
            version = db.execute("PRAGMA user_version").fetchone()[0]
            verdict = games_check(db, version)
        return verdict
    finally:
        db.close()


def check_in_background(path: Path, done: Callable[[str], None]) -> threading.Thread:
    """Run ``full_check`` on a daemon thread; a failure marks the log (``mark``), then
    ``done`` gets the answer on that thread (hand it to the UI thread yourself). SQLite
    finding the file malformed is a failure too (the next start's whole check tells a
    card's read error apart from damage). A check that cannot run at all (the file went
    away, a full or busy card) is logged and answers nothing: the next start checks
    again."""
    def work() -> None:
        try:
            verdict = full_check(path)
        except sqlite3.Error as exc:
            if kind_of(exc) != DAMAGED:
                log.warning("integrity check of %s could not run: %s", path, exc)
                return
            verdict = str(exc)
        if verdict != "ok":
            mark(path, verdict)
        done(verdict)

    thread = threading.Thread(target=work, name="log-integrity", daemon=True)
    thread.start()
    return thread


def mark_path(path: Path) -> Path:
    return path.with_name(path.name + MARK_SUFFIX)


def mark(path: Path, why: str) -> None:
    """Leave word for the next start that the log failed its check (best effort: a
    card too sick to take the mark is checked in the background again next time)."""
    try:
        mark_path(path).write_text(why + "\n", encoding="utf-8")
    except OSError as exc:
        log.warning("could not mark %s as damaged: %s", path, exc)


def marked(path: Path) -> bool:
    return mark_path(path).exists()


def clear_mark(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        mark_path(path).unlink()
