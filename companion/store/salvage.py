"""Saving what can still be read from a damaged game log into a new one.

A bad page in the file used to cost every game in it. ``salvage`` reads the damaged
log through a read-only connection, table by table in rowid order, stepping over what
SQLite cannot read, and copies into the new log:

* every game whose row is readable and matches its checksum (from schema 7 its status
  and finish time too: a game whose row was changed is not copied, it is named as not
  saved, and the restore from a USB export brings it back);
* for each such game, its actions from 1 up to the first one that is missing, cannot be
  read or does not match its checksum (a game replays only from a whole prefix);
* the player roster and the settings that can be read (the venue box id and key too);
* the marks of the saved games deleted from History (a game deleted on purpose does not
  come back into History because its log was damaged);
* the venue outbox: what was still to be delivered for the saved games is copied (in
  order, under new ids), and the new outbox's ids continue *above* every revision the
  damaged log can have used (``continue_revisions``): the venue drops a revision it has
  already seen as stale, so a salvaged box that started again from 1 would be silenced.

Game numbers are kept, so the history and the screens name the same games as before.
``Salvaged.summary()`` says in a sentence what was saved and what was not.

    build(path, fill=lambda db: report.__setattr__(...))   # see GameLog
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field

from companion.store.checksum import action_crc, game_crc, row_crc

#: What reading a damaged page can raise: SQLite's errors, and text that is no longer UTF-8
BROKEN = (sqlite3.DatabaseError, UnicodeDecodeError)
#: How far past the last readable rowid to look when the table's end cannot be read.
PROBE_LIMIT = 100_000
#: How far past the highest revision still readable the salvaged outbox starts: rows
#: past the readable end of a damaged outbox may have been sent with those revisions.
REVISION_GAP = 1 << 20


@dataclass
class Salvaged:
    whole: list[int] = field(default_factory=list)
    cut: dict[int, int] = field(default_factory=dict)  # game -> actions kept
    lost: list[int] = field(default_factory=list)

    def total(self) -> int:
        """Games found in the damaged log, saved or not."""
        return len(self.whole) + len(self.cut) + len(self.lost)

    def summary(self) -> str:
        total = self.total()
        if total == 0:
            return "No game could be read from it."
        parts = [f"{len(self.whole)} of {total} games were saved whole"]
        for gid, kept in sorted(self.cut.items()):
            parts.append(f"game {gid} was saved up to action {kept} (action {kept + 1} "
                         "could not be read)")
        if self.lost:
            parts.append("game" + ("s " if len(self.lost) > 1 else " ")
                         + ", ".join(str(g) for g in sorted(self.lost)) + " could not be read")
        return "; ".join(parts) + "."


def salvage(src: sqlite3.Connection, dst: sqlite3.Connection) -> Salvaged:
    """Copy what can be read from ``src`` (damaged) into ``dst`` (a new, empty log)."""
    report = Salvaged()
    if "games" not in _tables(src):
        return report  # not even the list of tables can be read
    has_crc = "crc" in _columns(src, "games")
    version = schema_of(src)
    game_cols = "id, kind, setup, started_at, finished_at, status" + (", crc" if has_crc else "")
    games = {}
    for row in readable_rows(src, "games", game_cols):
        if _setup_ok(row, has_crc, version):
            games[row[0]] = row
        elif isinstance(row[0], int):
            report.lost.append(row[0])
    by_game: dict[int, dict[int, tuple]] = {}
    act_cols = "game_id, seq, at, action" + (", crc" if has_crc else "")
    for row in readable_rows(src, "actions", act_cols):
        by_game.setdefault(row[0], {})[row[1]] = row
    for gid in set(by_game) - set(games) - set(report.lost):
        if isinstance(gid, int):
            report.lost.append(gid)
    dst.execute("BEGIN IMMEDIATE")
    for gid, (_, kind, setup, started_at, finished_at, status, *_) in sorted(games.items()):
        dst.execute("INSERT INTO games (id, kind, setup, started_at, finished_at, status, crc)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (gid, kind, setup, started_at, finished_at, status,
                     game_crc(gid, kind, started_at, setup, status, finished_at)))
        rows = by_game.get(gid, {})
        kept = 0
        while kept + 1 in rows and _action_ok(rows[kept + 1], has_crc):
            _, seq, at, action, *_ = rows[kept + 1]
            dst.execute("INSERT INTO actions (game_id, seq, at, action, crc)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (gid, seq, at, action, action_crc(gid, seq, at, action)))
            kept += 1
        if kept < len(rows) or (rows and max(rows) > kept):
            report.cut[gid] = kept
        else:
            report.whole.append(gid)
    if "players" in _tables(src):
        for row in readable_rows(src, "players", "name, last_seat, last_seen"):
            dst.execute("INSERT OR IGNORE INTO players (name, last_seat, last_seen) "
                        "VALUES (?, ?, ?)", row)
    for row in readable_rows(src, "settings", "key, value"):
        dst.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", row)
    if "deleted_games" in _tables(src) and "deleted_games" in _tables(dst):
        for gid, deleted_at, before in readable_rows(
                src, "deleted_games", "game_id, deleted_at, status_before"):
            if gid in games:
                dst.execute("INSERT OR IGNORE INTO deleted_games (game_id, deleted_at,"
                            " status_before) VALUES (?, ?, ?)", (gid, deleted_at, before))
    if "venue_outbox" in _tables(dst):
        continue_revisions(src, dst, set(games))
    dst.execute("COMMIT")
    return report


def continue_revisions(src: sqlite3.Connection, dst: sqlite3.Connection, games: set[int],
                       now_ms: int | None = None) -> int:
    """Start ``dst``'s outbox above every revision ``src`` may have used, and copy what
    ``src`` still had to deliver for ``games``. The start is the largest of: the highest
    readable id or sequence number plus ``REVISION_GAP``, and the time in milliseconds
    (when nothing of the old outbox can be read, a clock that has run on since still puts
    the new revisions above the old ones, which were counted one by one). Returns the
    first new revision."""
    seen = [0]
    tables = _tables(src)
    if "venue_outbox" in tables:
        rows = readable_rows(src, "venue_outbox",
                             "id, game_id, topic, event, seq, body, created_at, sent_at,"
                             " acked_at")
        seen += [r[0] for r in rows if isinstance(r[0], int)]
    else:
        rows = []
    if "sqlite_sequence" in tables:
        seen += [r[1] for r in readable_rows(src, "sqlite_sequence", "name, seq")
                 if r[0] == "venue_outbox" and isinstance(r[1], int)]
    floor = max(max(seen) + REVISION_GAP,
                now_ms if now_ms is not None else int(time.time() * 1000))
    (top,) = dst.execute("SELECT COALESCE(MAX(id), 0) FROM venue_outbox").fetchone()
    floor = max(floor, top)
    dst.execute("DELETE FROM sqlite_sequence WHERE name = 'venue_outbox'")
    dst.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('venue_outbox', ?)", (floor,))
    for _id, gid, topic, event, seq, body, created, sent, acked in sorted(
            (r for r in rows if isinstance(r[0], int)), key=lambda r: r[0]):
        undelivered = sent is None or (topic == "result" and acked is None)
        if gid in games and undelivered and topic in ("live", "result"):
            dst.execute("INSERT INTO venue_outbox (game_id, topic, event, seq, body,"
                        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (gid, topic, event, seq, body, created))
    return floor + 1


def schema_of(src: sqlite3.Connection) -> int:
    """The damaged log's schema version: the last step its ``migrations`` table lists
    (the header's ``user_version`` may be the damage, or a repaired header's 0), else
    the header's."""
    steps = [r[0] for r in readable_rows(src, "migrations", "number")
             if isinstance(r[0], int)] if "migrations" in _tables(src) else []
    if steps:
        return max(steps)
    try:
        return src.execute("PRAGMA user_version").fetchone()[0]
    except BROKEN:
        return 0


def _setup_ok(row: tuple, has_crc: bool, version: int) -> bool:
    """The game row (``id, kind, setup, started_at, finished_at, status, crc``) is whole."""
    gid, kind, setup, started_at, finished_at, status = row[:6]
    if not isinstance(gid, int) or not isinstance(kind, str) or not isinstance(setup, str):
        return False
    if has_crc:
        # a schema that cannot be read (< 3 with checksums): either form may be the one
        forms = {row_crc(version, gid, kind, started_at, setup, status, finished_at)}
        if version < 3:
            forms.add(game_crc(gid, kind, started_at, setup, status, finished_at))
        if row[6] not in forms:
            return False
    return _json_ok(setup)


def _action_ok(row: tuple, has_crc: bool) -> bool:
    gid, seq, at, action = row[:4]
    if not isinstance(action, str):
        return False
    if has_crc and row[4] != action_crc(gid, seq, at, action):
        return False
    return _json_ok(action)


def _json_ok(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def readable_rows(db: sqlite3.Connection, table: str, columns: str) -> list[tuple]:
    """Every row of ``table`` that SQLite can still read, in rowid order."""
    out: list[tuple] = []
    try:
        top = db.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]
    except BROKEN:
        top = None
    last, probed = 0, 0  # the last rowid read, the last rowid probed
    while True:
        try:
            for row in db.execute(f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? "
                                  "ORDER BY rowid", (last,)):
                out.append(row[1:])
                last = row[0]
            return out
        except BROKEN:
            # Step over what cannot be read: the next rowid whose page can be reached.
            probed = _next_readable(db, table, columns, max(last, probed) + 1, top)
            if probed is None:
                return out
            last = probed - 1


def _next_readable(db, table: str, columns: str, start: int, top: int | None) -> int | None:
    """The first rowid from ``start`` on whose b-tree path SQLite can read (None: none)."""
    end = top if top is not None else start + PROBE_LIMIT
    for rowid in range(start, end + 1):
        try:
            db.execute(f"SELECT {columns} FROM {table} WHERE rowid = ?", (rowid,)).fetchall()
        except BROKEN:
            continue
        return rowid
    return None


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    try:
        return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
    except BROKEN:
        return set()


def _tables(db: sqlite3.Connection) -> set[str]:
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except BROKEN:
        return set()
