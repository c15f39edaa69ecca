"""A checksum for each stored action and each game's setup (schema 3 and later).

SQLite's own checks find a damaged page, not a changed digit inside a row that is still
well formed. Each ``actions`` row carries the CRC-32 of its game, sequence number, time
and JSON text, and each ``games`` row the CRC-32 of its id, kind, start time and setup;
a row whose checksum no longer matches was changed after it was written (a flipped bit
on the card, or a hand-edit) and is named with its game and sequence number. The CRC
finds accidents, not forgery: anyone who can edit the file can recompute it.

    crc = action_crc(game_id, seq, at, text)
"""

from __future__ import annotations

import zlib

SEPARATOR = b"\x1f"  # ASCII unit separator: cannot occur inside the JSON text or an ISO time


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


def setup_crc(game_id: int, kind: str, started_at: str, setup: str | bytes) -> int:
    """The checksum stored with a game row (its setup and what identifies it)."""
    return _crc(game_id, kind, started_at, setup)
