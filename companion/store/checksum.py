"""A checksum for each stored action and each game's row (schema 3 and later).

SQLite's own checks find a damaged page, not a changed digit inside a row that is still
well formed. Each ``actions`` row carries the CRC-32 of its game, sequence number, time
and JSON text, and each ``games`` row the CRC-32 of everything it stores: its id, kind,
start time and setup, and (schema 7 on, ``GAME_ROW_SCHEMA``) its status and finish time
too, so a bad byte that turns a finished game back into an open one, or moves its end,
is found like one in its setup. A row whose checksum no longer matches was changed after
it was written (a flipped bit on the card, or a hand-edit) and is named with its game
and sequence number. The CRC finds accidents, not forgery: anyone who can edit the file
can recompute it.

    crc = action_crc(game_id, seq, at, text)
    crc = game_crc(game_id, kind, started_at, setup, status, finished_at)
"""

from __future__ import annotations

import zlib

SEPARATOR = b"\x1f"  # ASCII unit separator: cannot occur inside the JSON text or an ISO time
#: The schema from which a game row's checksum covers its status and finish time
#: (migration 7 re-checksums the rows of older logs); before it, ``setup_crc``.
GAME_ROW_SCHEMA = 7


def _crc(*parts: object) -> int:
    data = SEPARATOR.join(p if isinstance(p, bytes) else str(p).encode("utf-8", "replace")
                          for p in parts)
    return zlib.crc32(data)


def action_crc(game_id: int, seq: int, at: str, action: str | bytes) -> int:
    """The checksum stored with an action row (the same bytes as ``_crc`` joins, built
    in one step: a resume checks one for every action)."""
    if isinstance(action, str):
        action = action.encode("utf-8", "replace")
    return zlib.crc32(b"%d\x1f%d\x1f%s\x1f%s" % (game_id, seq, at.encode("utf-8", "replace"),
                                                  action))


def setup_crc(game_id: int, kind: str | bytes, started_at: str | bytes,
              setup: str | bytes) -> int:
    """The checksum of a game row up to schema 6: its setup and what identifies it."""
    return _crc(game_id, kind, started_at, setup)


def game_crc(game_id: int, kind: str | bytes, started_at: str | bytes, setup: str | bytes,
             status: str | bytes, finished_at: str | bytes | None) -> int:
    """The checksum stored with a game row (schema 7 on): every field it stores. A game
    not finished (``finished_at`` NULL) has no sixth part, so NULL and an empty text
    differ."""
    parts: tuple[object, ...] = (game_id, kind, started_at, setup, status)
    if finished_at is not None:
        parts += (finished_at,)
    return _crc(*parts)


def row_crc(version: int, game_id: int, kind: str | bytes, started_at: str | bytes,
            setup: str | bytes, status: str | bytes, finished_at: str | bytes | None) -> int:
    """What the checksum of a game row of a log at schema ``version`` must be."""
    if version >= GAME_ROW_SCHEMA:
        return game_crc(game_id, kind, started_at, setup, status, finished_at)
    return setup_crc(game_id, kind, started_at, setup)


def unmatched(crc: int | None, good: int) -> int | None:
    """The checksum to keep on a row that did not match before it was changed: its old
    one, which matches nothing (``good``, the checksum the changed row would have, is
    never given to it: a damaged row is never blessed by a later write)."""
    return good ^ 1 if crc == good else crc


#: The games table's fields as stored, in ``game_crc``'s order (texts as their bytes,
#: so a byte that is no longer UTF-8 is a mismatch, not an error).
RAW_GAME_FIELDS = ("id, CAST(kind AS BLOB), CAST(started_at AS BLOB), CAST(setup AS BLOB),"
                   " CAST(status AS BLOB), CAST(finished_at AS BLOB), crc")
