"""The venue's own copy of every table's games: exactly once, and only what tables sent.

``VenueStore.receive(topic, payload)`` takes one MQTT message and says what became of
it (``Received``): stored, a duplicate dropped, a stale live state ignored, or rejected
with a sentence that the page lists under "Messages we could not use".

Exactly once: a finished game is keyed by ``(box, game)``; the same game again with the
same or an older ``rev`` is a duplicate (acknowledged again, stored once); a newer
``rev`` (the table reopened and re-finished it) replaces it. A live state is kept only
when its ``rev`` is newer than the one held for that box. Nothing is shown that a table
did not send: every payload is checked (``topics.check_*``) and every finished game is
replayed through its rules engine here, and winners and reaction times come from that
replay, not from the message.

One SQLite connection, used under a lock by the MQTT thread (writes) and the web
server (reads); WAL and ``synchronous=FULL``, so an acknowledged game survives a power
cut of the venue's machine too.

    store = VenueStore(path, venue="Chronos Café")
    outcome = store.receive(topic, payload)
    if outcome.ack: publish(outcome.ack_topic, ...)
    store.board()   # what the page shows
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.errors import CompanionError, LogError
from companion.games import get_rules
from companion.games.replay import as_raised as _as_raised
from companion.games.replay import final
from companion.ui.presenters.history import reactions_of, winners_of
from companion.venue.payloads import scores_of, title
from companion.venue.topics import (
    PayloadError,
    Topics,
    check_live,
    check_result,
    decode,
    segment,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS boxes (box TEXT PRIMARY KEY, table_slug TEXT NOT NULL,
    table_name TEXT NOT NULL, first_seen TEXT NOT NULL, last_seen TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS live (box TEXT PRIMARY KEY, rev INTEGER NOT NULL,
    game INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL,
    received_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (box TEXT NOT NULL, game INTEGER NOT NULL,
    rev INTEGER NOT NULL, table_slug TEXT NOT NULL, table_name TEXT NOT NULL,
    kind TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,
    received_at TEXT NOT NULL, payload TEXT NOT NULL, players TEXT NOT NULL,
    winners TEXT NOT NULL, reactions TEXT NOT NULL, PRIMARY KEY (box, game));
CREATE TABLE IF NOT EXISTS problems (topic TEXT NOT NULL, reason TEXT NOT NULL,
    count INTEGER NOT NULL, last_at TEXT NOT NULL, PRIMARY KEY (topic, reason));
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
"""
TONIGHT = timedelta(hours=12)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Received:
    """What became of one message: ``stored``, ``duplicate``, ``stale``, ``ignored``
    (our own acks and status) or ``rejected`` (with ``reason``). ``ack`` is
    ``(table, box, game, rev)`` when the box should hear that its result is stored."""

    outcome: str
    reason: str = ""
    ack: tuple[str, str, int, int] | None = None


class VenueStore:
    def __init__(self, path: Path | str, venue: str = "venue",
                 clock: Callable[[], str] = now_iso) -> None:
        self.path, self.clock = path, clock
        self.topics = Topics(venue)
        self.venue_name = venue
        self.lock = threading.Lock()
        self.version = 0  # grows with every change the page should show
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                      timeout=5)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
        except sqlite3.Error as exc:
            raise LogError(f"the venue's copy {path} cannot be used: {exc}") from exc

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- receiving ---------------------------------------------------------------------

    def receive(self, topic: str, raw: bytes) -> Received:
        with self.lock:
            try:
                table, kind, _box = self.topics.parse(topic)
                if kind in ("ack", "venue"):
                    return Received("ignored")
                obj = decode(raw)
                if kind == "live":
                    got = self._live(check_live(obj, table))
                else:
                    got = self._result(check_result(obj, table), table)
            except PayloadError as exc:
                got = Received("rejected", str(exc))
            self._count(got.outcome)
            if got.outcome == "rejected":
                self._problem(topic, got.reason)
            if got.outcome in ("stored", "rejected"):
                self.version += 1
            return got

    def _count(self, name: str) -> None:
        self.db.execute("INSERT INTO counters VALUES (?, 1) ON CONFLICT(name) DO UPDATE"
                        " SET n = n + 1", (name,))

    def _problem(self, topic: str, reason: str) -> None:
        self.db.execute("INSERT INTO problems VALUES (?, ?, 1, ?) ON CONFLICT(topic, reason)"
                        " DO UPDATE SET count = count + 1, last_at = excluded.last_at",
                        (topic[:200], reason[:300], self.clock()))

    def _seen(self, obj: dict) -> None:
        now = self.clock()
        self.db.execute(
            "INSERT INTO boxes VALUES (?, ?, ?, ?, ?) ON CONFLICT(box) DO UPDATE SET"
            " table_slug = excluded.table_slug, table_name = excluded.table_name,"
            " last_seen = excluded.last_seen",
            (obj["box"], segment(obj["table"]), obj["table"], now, now))

    def _live(self, obj: dict) -> Received:
        row = self.db.execute("SELECT rev FROM live WHERE box = ?", (obj["box"],)).fetchone()
        if row is not None and row[0] >= obj["rev"]:
            return Received("stale" if row[0] > obj["rev"] else "duplicate")
        done = self.db.execute("SELECT rev FROM results WHERE box = ? AND game = ?",
                               (obj["box"], obj["game"])).fetchone()
        if done is not None and done[0] > obj["rev"]:
            return Received("stale")  # the game was finished after this state
        self.db.execute("BEGIN IMMEDIATE")
        self._seen(obj)
        self.db.execute(
            "INSERT INTO live VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(box) DO UPDATE SET"
            " rev = excluded.rev, game = excluded.game, seq = excluded.seq,"
            " payload = excluded.payload, received_at = excluded.received_at",
            (obj["box"], obj["rev"], obj["game"], obj["seq"], json.dumps(obj), self.clock()))
        self.db.execute("COMMIT")
        return Received("stored")

    def _result(self, obj: dict, table: str) -> Received:
        key = (obj["box"], obj["game"])
        ack = (table, obj["box"], obj["game"], obj["rev"])
        row = self.db.execute("SELECT rev FROM results WHERE box = ? AND game = ?",
                              key).fetchone()
        if row is not None and row[0] >= obj["rev"]:
            return Received("duplicate", ack=ack)
        try:
            rules = get_rules(obj["kind"])
            state = final(rules, rules.initial(obj["setup"]),
                          (a["action"] for a in obj["actions"]), refusal=_as_raised)
            snapshot = rules.snapshot(state)
        except (CompanionError, RecursionError, TypeError, ValueError) as exc:
            return Received("rejected", f"game {obj['game']} from {obj['table']!r} does not "
                                        f"replay here ({exc})")
        scores = scores_of(obj["kind"], snapshot)
        players = [{"name": str(p.get("name")), "seat": p.get("seat"),
                    "score": scores.get(p.get("seat"))}
                   for p in obj["setup"].get("players", []) if isinstance(p, dict)]
        winners = winners_of(obj["kind"], snapshot) if obj["status"] == "finished" else []
        self.db.execute("BEGIN IMMEDIATE")
        self._seen(obj)
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key, obj["rev"], table, obj["table"], obj["kind"], obj["status"],
             obj["started_at"], obj.get("finished_at") if isinstance(obj.get("finished_at"),
                                                                     str) else None,
             self.clock(), json.dumps(obj), json.dumps(players), json.dumps(winners),
             json.dumps(reactions_of(obj["kind"], snapshot))))
        self.db.execute("COMMIT")
        return Received("stored", ack=ack)

    # -- reading -----------------------------------------------------------------------

    def counters(self) -> dict[str, int]:
        with self.lock:
            return dict(self.db.execute("SELECT name, n FROM counters").fetchall())

    def results(self) -> list[dict]:
        """Every stored game: box, game, rev, table, kind, status and the full payload."""
        with self.lock:
            rows = self.db.execute("SELECT box, game, rev, table_name, kind, status, payload"
                                   " FROM results ORDER BY received_at").fetchall()
        return [{"box": r[0], "game": r[1], "rev": r[2], "table": r[3], "kind": r[4],
                 "status": r[5], "payload": json.loads(r[6])} for r in rows]

    def result(self, box: str, game: int) -> dict | None:
        with self.lock:
            row = self.db.execute("SELECT payload FROM results WHERE box = ? AND game = ?",
                                  (box, game)).fetchone()
        return json.loads(row[0]) if row else None

    def board(self, now: datetime | None = None) -> dict:
        """Everything the live page shows, as plain data (see ``web``)."""
        now = now or datetime.fromisoformat(self.clock())
        since = (now - TONIGHT).isoformat(timespec="milliseconds")
        with self.lock:
            version = self.version
            lives = self.db.execute(
                "SELECT l.box, l.payload, r.winners, r.status, MAX(l.rev, COALESCE(r.rev, 0))"
                " FROM live l LEFT JOIN results r ON r.box = l.box AND r.game = l.game"
                " ORDER BY l.box").fetchall()
            results = self.db.execute(
                "SELECT box, game, table_name, kind, status, finished_at, received_at,"
                " players, winners, reactions FROM results ORDER BY received_at").fetchall()
            boxes = self.db.execute("SELECT box, table_slug, table_name, last_seen FROM boxes"
                                    " WHERE last_seen >= ?", (since,)).fetchall()
            problems = self.db.execute("SELECT topic, reason, count, last_at FROM problems"
                                       " ORDER BY last_at DESC LIMIT 20").fetchall()
        tables = []
        for box, payload, winners, status, rev in lives:
            live = json.loads(payload)
            over = winners is not None
            tables.append({
                "box": box, "table": live["table"], "game": live["game"], "seq": live["seq"],
                "rev": rev,
                "title": live["title"], "players": live["players"], "line": live.get("line"),
                "last": live.get("last"), "at": live.get("at"),
                "status": status if over else live["status"],
                "winners": json.loads(winners) if over else live.get("winners", []),
                "url": f"/game/{box}/{live['game']}" if over else None})
        tables.sort(key=lambda t: (t["table"].casefold(), t["box"]))
        tonight, boards, delays = [], {}, {}
        for box, game, table, kind, status, finished, received, players, winners, react \
                in results:
            winners = json.loads(winners)
            if status != "finished":
                continue
            if winners and (finished or received) >= since:
                tonight.append({"table": table, "title": title(kind), "winners": winners,
                                "url": f"/game/{box}/{game}", "at": finished or received})
            for name, ds in json.loads(react).items():
                delays.setdefault(name.casefold(), (name, []))[1].extend(ds)
            if kind == "stop_time":  # slap practice: reaction times, nobody wins
                continue
            board = boards.setdefault(kind, {})
            won = {w.casefold() for w in winners}
            for p in json.loads(players):
                name = p["name"]
                entry = board.setdefault(name.casefold(), {"name": name, "won": 0, "played": 0})
                entry["played"] += 1
                entry["won"] += name.casefold() in won
        leaderboards = [{"kind": kind, "title": title(kind),
                         "rows": sorted(rows.values(), key=lambda e: (-e["won"], -e["won"] /
                                        e["played"], e["name"].casefold()))[:10]}
                        for kind, rows in sorted(boards.items(), key=lambda kv: title(kv[0]))]
        reactions = sorted(({"name": n, "median_ms": round(statistics.median(ds)), "slaps":
                             len(ds)} for n, ds in delays.values() if ds),
                           key=lambda e: e["median_ms"])[:10]
        by_slug: dict[str, list[tuple[str, str]]] = {}
        for box, slug, name, _seen in boxes:
            by_slug.setdefault(slug, []).append((box, name))
        warnings = [f"{len(v)} boxes call themselves {v[0][1]!r} (box ids "
                    f"{', '.join(b[:8] for b, _ in v)}): their games are kept apart, but "
                    "give each box its own table name." for v in by_slug.values() if len(v) > 1]
        return {"version": version, "venue": self.venue_name, "tables": tables,
                "tonight": list(reversed(tonight))[:20], "leaderboards": leaderboards,
                "reactions": reactions, "warnings": warnings,
                "problems": [{"topic": t, "reason": r, "count": c, "at": a}
                             for t, r, c, a in problems],
                "marks": {t["box"]: [t["game"], t["seq"], t["status"], t["rev"]]
                          for t in tables}}
