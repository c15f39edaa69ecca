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

import contextlib
import json
import logging
import sqlite3
import statistics
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.errors import CompanionError, LogError
from companion.games import get_rules, info, title_of
from companion.games.replay import as_raised as _as_raised
from companion.games.replay import final
from companion.venue import proof
from companion.venue.topics import (
    VERSION,
    PayloadError,
    Topics,
    check_live,
    check_result,
    decode,
    encode,
    expand,
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
CREATE TABLE IF NOT EXISTS box_keys (box TEXT PRIMARY KEY, key TEXT NOT NULL,
    first_seen TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS dead_letters (id INTEGER PRIMARY KEY, topic TEXT NOT NULL,
    reason TEXT NOT NULL, payload BLOB NOT NULL, received_at TEXT NOT NULL);
"""
#: dead letters kept: the newest ones (a flood of unstorable messages cannot fill the disk)
KEEP_DEAD = 1000
TONIGHT = timedelta(hours=12)
log = logging.getLogger(__name__)


def _plain(obj: dict) -> str:
    """A message as stored: what the box said, without its proof."""
    return json.dumps({k: v for k, v in obj.items() if k not in ("key", "sig")})


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Received:
    """What became of one message: ``stored``, ``duplicate``, ``stale``, ``ignored``
    (our own acks and status), ``unproven`` (it does not prove the box it names:
    ``reason`` says how), ``rejected`` (with ``reason``) or ``dead`` (well-formed
    but could not be stored: set aside in ``dead_letters``, ``reason`` says why). ``ack`` is
    ``(table, box, game, rev)`` when the box should hear that its result is stored."""

    outcome: str
    reason: str = ""
    ack: tuple[str, str, int, int] | None = None


class VenueStore:
    def __init__(self, path: Path | str, venue: str = "venue",
                 clock: Callable[[], str] = now_iso, secret: int | None = None) -> None:
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
            self.secret = self._secret(secret)
        except sqlite3.Error as exc:
            raise LogError(f"the venue's copy {path} cannot be used: {exc}") from exc
        #: what the venue announces on ``_venue``: boxes derive their HMAC key from it
        self.public = proof.public(self.secret)
        self._keys: dict[str, tuple[str, bytes]] = {}  # box -> (its public, HMAC key)

    def _secret(self, given: int | None) -> int:
        """The venue's Diffie-Hellman secret, made once and kept in its copy."""
        if given is not None:
            self.db.execute("INSERT OR REPLACE INTO settings VALUES ('secret', ?)",
                            (format(given, "x"),))
        self.db.execute("INSERT OR IGNORE INTO settings VALUES ('secret', ?)",
                        (format(proof.new_secret(), "x"),))
        (text,) = self.db.execute("SELECT value FROM settings WHERE key = 'secret'").fetchone()
        return int(text, 16)

    def key_for(self, box: str) -> bytes | None:
        """The HMAC key of a box whose key is pinned (acks to it are signed with it)."""
        if box not in self._keys:
            row = self.db.execute("SELECT key FROM box_keys WHERE box = ?", (box,)).fetchone()
            if row is None:
                return None
            self._keys[box] = (row[0], proof.shared_key(self.secret, row[0]))
        return self._keys[box][1]

    def _prove(self, topic: str, obj: dict) -> str | None:
        """None when the message proves its box, else why not. The first key that proves
        a box id is pinned for it (in the message's own transaction)."""
        box, public = obj["box"], obj.get("key")
        try:
            proof.parse_public(public)
        except PayloadError:
            return f"a message naming box {box} carries no usable key"
        pinned = self.key_for(box)
        if pinned is not None and self._keys[box][0] != public:
            return f"a message naming box {box} carries another key than that box's"
        key = pinned if pinned is not None else proof.shared_key(self.secret, public)
        if not proof.verify(key, topic, obj):
            return f"a message naming box {box} is not signed by it"
        if pinned is None:
            self.db.execute("INSERT INTO box_keys VALUES (?, ?, ?)", (box, public,
                                                                    self.clock()))
            self._keys[box] = (public, key)
            log.info("venue: box %s joined with key %s", box, proof.fingerprint(public))
        return None

    def signed_ack(self, table: str, box: str, game: int, rev: int) -> tuple[str, bytes]:
        """The ack topic and payload for a stored result, signed with the box's key."""
        topic = self.topics.ack(box, table)
        body = {"v": VERSION, "type": "ack", "game": game, "rev": rev}
        with self.lock:
            key = self.key_for(box)
        return topic, encode(proof.sign(key, topic, body) if key is not None else body)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- receiving ---------------------------------------------------------------------

    def receive(self, topic: str, raw: bytes) -> Received:
        """What became of one message. Never raises and never leaves the copy inside a
        transaction: each message is one transaction of its own, and one that cannot be
        stored is rolled back and set aside in ``dead_letters`` (the broker has it
        acknowledged, so it is not handed back for ever)."""
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                got = self._judge(topic, raw)
                self._count(got.outcome)
                if got.outcome in ("rejected", "unproven"):
                    self._problem(topic, got.reason)
                self.db.execute("COMMIT")
            except Exception as exc:  # noqa: BLE001 - whatever it was, set it aside
                got = self._set_aside(topic, raw, exc)
            if got.outcome in ("rejected", "dead", "unproven"):
                log.warning("venue: %s message on %s: %s", got.outcome, topic[:200],
                            got.reason)
            if got.outcome in ("stored", "rejected", "dead", "unproven"):
                self.version += 1
            return got

    def _judge(self, topic: str, raw: bytes) -> Received:
        try:
            table, kind, _box = self.topics.parse(topic)
            if kind in ("ack", "venue"):
                return Received("ignored")
            wire = decode(raw)  # what the box signed; a compacted result expanded below
            obj = check_live(wire, table) if kind == "live" else check_result(
                expand(wire), table)
            why = self._prove(topic, wire)
            if why is not None:
                return Received("unproven", why)
            if kind == "live":
                return self._live(obj)
            return self._result(obj, table)
        except PayloadError as exc:
            return Received("rejected", str(exc))

    def _set_aside(self, topic: str, raw: bytes, exc: BaseException) -> Received:
        reason = f"could not be stored ({exc.__class__.__name__}: {str(exc)[:200]})"
        try:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO dead_letters (topic, reason, payload, received_at)"
                            " VALUES (?, ?, ?, ?)", (topic[:200], reason, bytes(raw),
                                                     self.clock()))
            self.db.execute("DELETE FROM dead_letters WHERE id <= (SELECT MAX(id) FROM"
                            " dead_letters) - ?", (KEEP_DEAD,))
            self._count("dead")
            self._problem(topic, reason)
            self.db.execute("COMMIT")
        except Exception as again:  # noqa: BLE001 - the copy itself is failing
            log.error("venue: a message on %s could not even be set aside: %s",
                      topic[:200], again)
            if self.db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
        return Received("dead", reason)

    def dead_letters(self) -> list[dict]:
        """The messages set aside: topic, reason, the raw payload and when it came."""
        with self.lock:
            rows = self.db.execute("SELECT topic, reason, payload, received_at FROM"
                                   " dead_letters ORDER BY id").fetchall()
        return [{"topic": t, "reason": r, "payload": bytes(p), "at": a} for t, r, p, a in rows]

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
        self._seen(obj)
        self.db.execute(
            "INSERT INTO live VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(box) DO UPDATE SET"
            " rev = excluded.rev, game = excluded.game, seq = excluded.seq,"
            " payload = excluded.payload, received_at = excluded.received_at",
            (obj["box"], obj["rev"], obj["game"], obj["seq"], _plain(obj), self.clock()))
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
            outcome = rules.outcome(state)
        except (CompanionError, RecursionError, TypeError, ValueError) as exc:
            return Received("rejected", f"game {obj['game']} from {obj['table']!r} does not "
                                        f"replay here ({exc})")
        players = [{"name": name, "seat": seat, "score": outcome.scores.get(seat)}
                   for seat, name in outcome.players]
        winners = list(outcome.winner_names) if obj["status"] == "finished" else []
        self._seen(obj)
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*key, obj["rev"], table, obj["table"], obj["kind"], obj["status"],
             obj["started_at"], obj.get("finished_at") if isinstance(obj.get("finished_at"),
                                                                     str) else None,
             self.clock(), _plain(obj), json.dumps(players), json.dumps(winners),
             json.dumps(outcome.reaction_names)))
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
            unproven = self.db.execute("SELECT n FROM counters WHERE name = 'unproven'"
                                       ).fetchone()
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
                tonight.append({"table": table, "title": title_of(kind), "winners": winners,
                                "url": f"/game/{box}/{game}", "at": finished or received})
            for name, ds in json.loads(react).items():
                delays.setdefault(name.casefold(), (name, []))[1].extend(ds)
            game_info = info(kind)
            if game_info is not None and not game_info.ranked:  # reaction times only
                continue
            board = boards.setdefault(kind, {})
            won = {w.casefold() for w in winners}
            for p in json.loads(players):
                name = p["name"]
                entry = board.setdefault(name.casefold(), {"name": name, "won": 0, "played": 0})
                entry["played"] += 1
                entry["won"] += name.casefold() in won
        leaderboards = [{"kind": kind, "title": title_of(kind),
                         "rows": sorted(rows.values(), key=lambda e: (-e["won"], -e["won"] /
                                        e["played"], e["name"].casefold()))[:10]}
                        for kind, rows in sorted(boards.items(), key=lambda kv: title_of(kv[0]))]
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
                "unproven": unproven[0] if unproven else 0,
                "problems": [{"topic": t, "reason": r, "count": c, "at": a}
                             for t, r, c, a in problems],
                "marks": {t["box"]: [t["game"], t["seq"], t["status"], t["rev"]]
                          for t in tables}}
