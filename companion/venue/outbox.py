"""The venue outbox: what a box still has to publish, kept in its own game log.

Two halves, one table (``venue_outbox``, migration 4):

* ``OutboxHook`` is installed as ``GameLog.outbox_hook``. The game log calls it inside
  the very transaction that appends, undoes, starts or finishes a game, so the row that
  says "publish this" commits or rolls back with the action: a power cut can never keep
  an action and lose its message, or the other way round. After the commit it wakes the
  publisher.
* ``Outbox`` is the publisher thread's own connection to the same file (WAL lets it
  read while the UI thread writes): the rows not yet sent, marking them sent when the
  broker took them (PUBACK) and acknowledged when the venue stored them, and the game
  rows a message is built from.

A row's ``id`` is the box's message revision (``rev``): it only grows, so the venue can
keep the newest live state and drop anything older or repeated.

    log.outbox_hook = OutboxHook(wake=publisher.wake)
    outbox = Outbox(log_path)
    for row in outbox.unsent():
        ...; outbox.mark_sent([row.id])
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.errors import LogError
from companion.store.gamelog import dumps, utc_now

#: game log events that end a game: they publish the whole game as a result
RESULT_EVENTS = frozenset({"finished", "abandoned"})
#: the box's Ed25519 private key (``identity``), kept with the box id in the log's settings
BOX_KEY_SETTING = "venue_box_key"
#: the venue's public key once a person confirmed its fingerprint on the box's screen
VENUE_KEY_SETTING = "venue_trusted_key"


class OutboxHook:
    """Writes one outbox row per game-log event, inside the event's own transaction."""

    def __init__(self, clock: Callable[[], str] = utc_now,
                 wake: Callable[[], None] | None = None) -> None:
        self.clock = clock
        self.wake = wake

    def __call__(self, db: sqlite3.Connection, event: str, game_id: int, seq: int,
                 detail: dict, note: Callable[[str, str, tuple], None] | None = None) -> None:
        if note is not None:  # a refused write is taken back with this row too
            (last,) = db.execute("SELECT COALESCE(MAX(id), 0) FROM venue_outbox").fetchone()
            note("venue_outbox", "id > ?", (last,))
        if seq < 0:  # finish/reopen: the game's action count as it stands
            (seq,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?",
                                (game_id,)).fetchone()
        topic = "result" if event in RESULT_EVENTS else "live"
        db.execute(
            "INSERT INTO venue_outbox (game_id, topic, event, seq, body, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, topic, event, seq, dumps(detail), self.clock()),
        )

    def committed(self) -> None:
        if self.wake is not None:
            self.wake()


@dataclass(frozen=True, slots=True)
class OutboxRow:
    id: int
    game_id: int
    topic: str
    event: str
    seq: int
    created_at: str
    sent_at: str | None


@dataclass(frozen=True, slots=True)
class LoggedGame:
    id: int
    kind: str
    setup: dict
    started_at: str
    finished_at: str | None
    status: str


_ROW = "SELECT id, game_id, topic, event, seq, created_at, sent_at FROM venue_outbox"


class Outbox:
    """The publisher's connection to the game log: outbox rows and the games they name.

    Owned by the publisher thread. Writes are single short statements; a busy log (the
    UI thread is committing) waits a little, a broken one is a ``LogError``."""

    def __init__(self, path: Path | str, clock: Callable[[], str] = utc_now) -> None:
        self.path, self.clock = Path(path), clock
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None,
                                      check_same_thread=False, timeout=5)
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.execute("SELECT 1 FROM venue_outbox LIMIT 1").fetchall()
        except sqlite3.Error as exc:
            raise LogError(f"venue outbox in {path} cannot be used: {exc}") from exc

    def close(self) -> None:
        self.db.close()

    def _q(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise LogError(f"venue outbox in {self.path}: {exc}") from exc

    # -- the box's key and the venue it trusts -----------------------------------------

    def box_identity(self):
        """The box's signing key (``identity.Identity``), made once and kept in the log's
        settings (a salvaged log keeps it, with the box id): the venue's operator admits
        its fingerprint."""
        from companion.venue.identity import Identity

        rows = self._q("SELECT value FROM settings WHERE key = ?", (BOX_KEY_SETTING,))
        try:
            return Identity.from_seed(json.loads(rows[0][0]))
        except (IndexError, TypeError, ValueError):
            made = Identity.generate()
            self._set(BOX_KEY_SETTING, made.seed)
            return made

    def trusted_venue(self) -> str | None:
        """The venue public key confirmed on this box's screen (None: none yet)."""
        rows = self._q("SELECT value FROM settings WHERE key = ?", (VENUE_KEY_SETTING,))
        try:
            value = json.loads(rows[0][0])
        except (IndexError, TypeError, ValueError):
            return None
        return value if isinstance(value, str) else None

    def trust_venue(self, public: str) -> None:
        self._set(VENUE_KEY_SETTING, public)

    def _set(self, key: str, value: str) -> None:
        self._q("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO"
                " UPDATE SET value = excluded.value", (key, json.dumps(value)))

    # -- rows ---------------------------------------------------------------------------

    def unsent(self, limit: int = 500) -> list[OutboxRow]:
        return [OutboxRow(*r) for r in
                self._q(f"{_ROW} WHERE sent_at IS NULL ORDER BY id LIMIT ?", (limit,))]

    def unacked_results(self, limit: int = 500) -> list[OutboxRow]:
        """Results the broker took but the venue has not yet said it stored."""
        return [OutboxRow(*r) for r in self._q(
            f"{_ROW} WHERE topic = 'result' AND sent_at IS NOT NULL AND acked_at IS NULL"
            " ORDER BY id LIMIT ?", (limit,))]

    def latest_live(self) -> list[OutboxRow]:
        """The newest live row of each game that is still open: what a venue that just
        came (back) should see."""
        return [OutboxRow(*r) for r in self._q(
            f"{_ROW} WHERE id IN (SELECT MAX(o.id) FROM venue_outbox o JOIN games g"
            " ON g.id = o.game_id WHERE o.topic = 'live' AND g.status = 'open'"
            " GROUP BY o.game_id) ORDER BY id")]

    def mark_sent(self, ids: list[int]) -> None:
        if ids:
            marks = ",".join("?" * len(ids))
            self._q(f"UPDATE venue_outbox SET sent_at = ? WHERE id IN ({marks})"
                    " AND sent_at IS NULL", (self.clock(), *ids))

    def mark_acked(self, rev: int, game_id: int) -> bool:
        """The venue stored result ``rev`` of ``game_id``: that row and any older result
        of the same game are done. False when no such result is waiting."""
        try:
            cur = self.db.execute(
                "UPDATE venue_outbox SET acked_at = ? WHERE topic = 'result' AND game_id = ?"
                " AND id <= ? AND acked_at IS NULL", (self.clock(), game_id, rev))
        except sqlite3.Error as exc:
            raise LogError(f"venue outbox in {self.path}: {exc}") from exc
        return cur.rowcount > 0

    def counts(self) -> tuple[int, int]:
        """(rows not yet sent, results sent but not acknowledged)."""
        (unsent,) = self._q("SELECT COUNT(*) FROM venue_outbox WHERE sent_at IS NULL")[0]
        (unacked,) = self._q("SELECT COUNT(*) FROM venue_outbox WHERE topic = 'result'"
                             " AND acked_at IS NULL")[0]
        return unsent, unacked

    def prune(self, before: str) -> None:
        """Forget delivered rows older than ``before`` (an ISO time): sent live states and
        acknowledged results. Nothing undelivered is ever deleted."""
        self._q("DELETE FROM venue_outbox WHERE created_at < ? AND ((topic = 'live' AND"
                " sent_at IS NOT NULL) OR acked_at IS NOT NULL)", (before,))

    def newer_rewrite(self, game_id: int, after_rev: int) -> bool:
        """Whether the game was undone or re-set up after ``after_rev`` (a cached replay
        of it is then stale)."""
        return bool(self._q("SELECT 1 FROM venue_outbox WHERE game_id = ? AND id > ? AND"
                            " event IN ('undo', 'setup', 'open') LIMIT 1",
                            (game_id, after_rev)))

    # -- the games a message is built from ---------------------------------------------

    def game(self, game_id: int) -> LoggedGame:
        rows = self._q("SELECT id, kind, setup, started_at, finished_at, status FROM games"
                       " WHERE id = ?", (game_id,))
        if not rows:
            raise LogError(f"there is no game {game_id} in {self.path}")
        r = rows[0]
        return LoggedGame(r[0], r[1], _json(r[2], game_id), r[3], r[4], r[5])

    def actions(self, game_id: int, after_seq: int = 0) -> list[tuple[int, str, dict]]:
        return [(seq, at, _json(a, game_id)) for seq, at, a in self._q(
            "SELECT seq, at, action FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq))]


def game_uid(box: str, game: LoggedGame) -> str:
    """The identity of one game at the venue, which outlives the log's numbering: a log
    restored from an older image numbers its new games again from where the image
    stopped, but they start at other times. The box id, the game's number and its start
    time (to the millisecond), hashed: 32 hex digits, the same at every send."""
    text = f"{box}\n{game.id}\n{game.started_at}".encode()
    return hashlib.sha256(text).hexdigest()[:32]


def _json(text: str, game_id: int):
    try:
        return json.loads(text)
    except (TypeError, ValueError) as exc:
        raise LogError(f"game {game_id} is damaged in the log: {exc}") from exc
