"""Telling a sick disk from a damaged file, and saying what to do about it.

SQLite raises ``DatabaseError`` for a full disk, an I/O error or read-only storage as
well as for a damaged file. Only ``SQLITE_CORRUPT`` and ``SQLITE_NOTADB`` (and the game
log's own checks) say that the file itself is damaged; every other failure is the
storage or the moment, and is never a reason to set a log aside.

    kind = kind_of(exc, path.parent)        # "damaged", "busy", "full", "readonly", "io"...
    raise storage_error(exc, path, "Could not write to")

``kind_of`` asks the file system when SQLite's code is only "I/O error" or "cannot
open": a read-only mount is "readonly", no free space is "full", the rest is "io".
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from companion.errors import StorageError

DAMAGED, BUSY, FULL, READONLY, IO, OTHER = "damaged", "busy", "full", "readonly", "io", "other"
STORAGE_KINDS = (FULL, READONLY, IO)

#: SQLite primary result codes (the low byte of an extended code) and what they mean here.
_SQLITE_CODES = {
    3: IO,  # SQLITE_PERM
    5: BUSY,  # SQLITE_BUSY
    6: BUSY,  # SQLITE_LOCKED
    8: READONLY,  # SQLITE_READONLY
    10: IO,  # SQLITE_IOERR (refined by asking the file system)
    11: DAMAGED,  # SQLITE_CORRUPT
    13: FULL,  # SQLITE_FULL
    14: IO,  # SQLITE_CANTOPEN (refined by asking the file system)
    15: IO,  # SQLITE_PROTOCOL (a lock that cannot be had: the file system misbehaves)
    22: IO,  # SQLITE_NOLFS
    26: DAMAGED,  # SQLITE_NOTADB
}

_OS_ERRNOS = {
    errno.ENOSPC: FULL,
    errno.EDQUOT: FULL,
    errno.EROFS: READONLY,
    errno.EACCES: READONLY,
    errno.EPERM: READONLY,
    errno.EIO: IO,
}

#: Below this much free space a write error is taken for a full disk.
NEARLY_FULL_BYTES = 64 * 1024

ADVICE = {
    FULL: "The storage is full. Free some space on the SD card (old exports or files), "
          "then try again.",
    READONLY: "The storage is read-only. Switch the box off, check the SD card (its lock "
              "switch, or replace it) and the data folder's owner, then start again.",
    IO: "The SD card reports read or write errors. Switch the box off and check or replace "
        "the card; copy games.sqlite3 from it first if you can.",
}

WHAT = {FULL: "the storage is full", READONLY: "the storage is read-only",
        IO: "the storage reported an error"}


def kind_of(exc: BaseException, folder: Path | None = None) -> str:
    """What ``exc`` says about the log or its storage (one of the constants above)."""
    if isinstance(exc, StorageError):
        return exc.kind
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is None:
            return OTHER
        kind = _SQLITE_CODES.get(code & 0xFF, OTHER)
    elif isinstance(exc, OSError):
        kind = _OS_ERRNOS.get(exc.errno, OTHER)
    else:
        return OTHER
    if kind == IO and folder is not None:
        return probe(folder)
    return kind


def probe(folder: Path) -> str:
    """Ask the file system why a write or open may have failed: read-only, full, or io."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return IO
    if st.f_flag & os.ST_RDONLY:
        return READONLY
    if st.f_bavail * st.f_frsize < NEARLY_FULL_BYTES:
        return FULL
    if not os.access(folder, os.W_OK):
        return READONLY
    return IO


def storage_error(exc: BaseException, path: Path | None, doing: str,
                  kind: str | None = None, tail: str = "") -> StorageError:
    """A StorageError for ``exc``: '<doing> the game log <path>: <what> (<detail>).'"""
    folder = path.parent if path is not None else None
    kind = kind or kind_of(exc, folder)
    if kind not in STORAGE_KINDS:
        kind = IO
    detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    message = f"{doing} the game log {path}: {WHAT[kind]} ({detail}).{tail}"
    return StorageError(message, kind, ADVICE[kind])


def is_storage(exc: BaseException, folder: Path | None = None) -> bool:
    return kind_of(exc, folder) in STORAGE_KINDS
