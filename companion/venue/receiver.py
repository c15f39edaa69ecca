"""The venue's own copy of every table's games: exactly once, and only what tables sent.

``VenueStore.receive(topic, payload)`` takes one MQTT message and says what became of
it (``Received``): stored, a duplicate dropped, a stale live state ignored, held back
from a box nobody admitted yet, dropped in a flood, or rejected with a sentence that the
page lists under "Messages we could not use".

Who may write: only boxes a person admitted (``admit``, from the operator page, after
comparing the fingerprint the page shows with the one on the box's Settings). Admission
is kept in the ``admitted`` table and in memory, and takes effect at once. A message is
screened in memory before anything else, in this order, and what fails costs no disk
write and no signature check: the table's rate limit (``ratelimit``), the JSON, the box
id, and whether that box is admitted *with the key the message carries*; a box that is
not (new, or its key changed) lands on the bounded waiting list (``admission``). Only
then is the Ed25519 signature checked against the admitted key (``identity``).

Exactly once: a finished game is keyed by ``(box, uid)`` (``uid``: the game's identity,
which a log restored from an older image does not reuse); the same game again with the
same or an older ``rev`` is a duplicate (acknowledged again, stored once); a newer
``rev`` (the table reopened and re-finished it) replaces it. A live state is kept when it
is newer than the one held for that box: a later ``rev`` of the same game, or a game
started later. Nothing is shown that a table did not send: every payload is checked
(``topics.check_*``) and every finished game is replayed through its rules engine here.

One SQLite connection, used under a lock by the MQTT thread (writes) and the web
server (reads); WAL and ``synchronous=FULL``, so an acknowledged game survives a power
cut of the venue's machine too.

    store = VenueStore(path, venue="Chronos Café")
    outcome = store.receive(topic, payload)
    if outcome.ack: publish(*store.signed_ack(*outcome.ack))
    store.admit(box, fingerprint)   # the operator said yes
    store.board()                   # what the page shows
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import sqlite3
import statistics
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.errors import CompanionError, LogError
from companion.games import get_rules, info, title_of
from companion.games.replay import as_raised as _as_raised
from companion.games.replay import final
from companion.venue import identity
from companion.venue.admission import WaitingRoom
from companion.venue.identity import Identity
from companion.venue.ratelimit import RateLimits
from companion.venue.topics import (
    VERSION,
    PayloadError,
    Topics,
    box_id_of,
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
    received_at TEXT NOT NULL, uid TEXT);
CREATE TABLE IF NOT EXISTS results (box TEXT NOT NULL, game INTEGER NOT NULL,
    uid TEXT NOT NULL, rev INTEGER NOT NULL, table_slug TEXT NOT NULL,
    table_name TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
    started_at TEXT NOT NULL, finished_at TEXT, received_at TEXT NOT NULL,
    payload TEXT NOT NULL, players TEXT NOT NULL, winners TEXT NOT NULL,
    reactions TEXT NOT NULL, PRIMARY KEY (box, uid));
CREATE TABLE IF NOT EXISTS problems (topic TEXT NOT NULL, reason TEXT NOT NULL,
    count INTEGER NOT NULL, last_at TEXT NOT NULL, PRIMARY KEY (topic, reason));
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS admitted (box TEXT PRIMARY KEY, key TEXT NOT NULL,
    table_name TEXT NOT NULL, admitted_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS dead_letters (id INTEGER PRIMARY KEY, topic TEXT NOT NULL,
    reason TEXT NOT NULL, payload BLOB NOT NULL, received_at TEXT NOT NULL);
"""
_RESULT_COLUMNS = ("box, game, uid, rev, table_slug, table_name, kind, status, started_at,"
                   " finished_at, received_at, payload, players, winners, reactions")
#: dead letters kept: the newest ones (a flood of unstorable messages cannot fill the disk)
KEEP_DEAD = 1000
#: "messages we could not use" kept: the newest ones (a row per topic and reason)
KEEP_PROBLEMS = 200
TONIGHT = timedelta(hours=12)
#: outcomes decided in memory, before any disk write or signature check
QUIET = frozenset({"ignored", "waiting", "flood", "unproven"})
log = logging.getLogger(__name__)


def _plain(obj: dict) -> str:
    """A message as stored: what the box said, without its key and signature."""
    return json.dumps({k: v for k, v in obj.items() if k not in ("key", "sig")})


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Received:
    """What became of one message: ``stored``, ``duplicate``, ``stale``, ``ignored``
    (our own acks and status), ``waiting`` (its box is not admitted with that key: held
    on the waiting list), ``flood`` (over its table's rate limit), ``unproven`` (an
    admitted box's key but not its signature); these four are decided in memory and
    counted there (``quiet``), never written. Then ``rejected`` (with ``reason``) or ``dead``
    (well-formed but could not be stored: set aside in ``dead_letters``). ``ack`` is
    ``(table, box, game, rev, uid)`` when the box should hear that its result is stored."""

    outcome: str
    reason: str = ""
    ack: tuple[str, str, int, int, str] | None = None


class VenueStore:
    def __init__(self, path: Path | str, venue: str = "venue",
                 clock: Callable[[], str] = now_iso, key: Identity | None = None, *,
                 limits: RateLimits | None = None, waiting: WaitingRoom | None = None
                 ) -> None:
        """``key``: the venue's identity (made once and kept in the copy when None; a
        given one replaces the kept one). ``limits`` and ``waiting``: the per-table rate
        limits and the waiting list (defaults: ``RateLimits()``, ``WaitingRoom()``)."""
        self.path, self.clock = path, clock
        self.topics = Topics(venue)
        self.venue_name = venue
        self.lock = threading.Lock()
        self.version = 0  # grows with every change the page should show
        self.limits = limits or RateLimits()
        self.waiting = waiting or WaitingRoom()
        self.quiet: Counter[str] = Counter()  # in-memory outcomes (QUIET), for the page
        self.on_admit: list[Callable[[], None]] = []  # told after each admission
        self._problems_added = 0
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                      timeout=5)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            self._migrate_before()
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self._migrate_after()
            if key is not None:
                self._put("identity", key.seed)
            self.key = Identity.from_seed(self._setting("identity", lambda: Identity
                                                        .generate().seed))
            self.client_id = self._setting(
                "client_id", lambda: f"companion-venue-{secrets.token_hex(8)}")
            self.operator_token = self._setting("operator_token",
                                                lambda: secrets.token_urlsafe(18))
            self._admitted = dict(self.db.execute("SELECT box, key FROM admitted"))
        except sqlite3.Error as exc:
            raise LogError(f"the venue's copy {path} cannot be used: {exc}") from exc

    # -- the copy's own settings and its upgrade ------------------------------------------

    def _setting(self, name: str, make: Callable[[], str]) -> str:
        self.db.execute("INSERT OR IGNORE INTO settings VALUES (?, ?)", (name, make()))
        (value,) = self.db.execute("SELECT value FROM settings WHERE key = ?",
                                   (name,)).fetchone()
        return value

    def _put(self, name: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (name, value))

    def _columns(self, table: str) -> set[str]:
        return {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}

    def _migrate_before(self) -> None:
        """A copy made before games had a ``uid``: its results are set aside to be
        copied into the new table (``_migrate_after``), its live table gains the column."""
        if self._columns("results") and "uid" not in self._columns("results"):
            self.db.execute("ALTER TABLE results RENAME TO results_v1")
        if self._columns("live") and "uid" not in self._columns("live"):
            self.db.execute("ALTER TABLE live ADD COLUMN uid TEXT")

    def _migrate_after(self) -> None:
        if self._columns("results_v1"):
            # an old game's uid is 'v1-<game>': never the 32 hex digits of a new one
            self.db.execute(
                f"INSERT OR IGNORE INTO results ({_RESULT_COLUMNS}) SELECT box, game,"
                " 'v1-' || game, rev, table_slug, table_name, kind, status, started_at,"
                " finished_at, received_at, payload, players, winners, reactions"
                " FROM results_v1")
            self.db.execute("DROP TABLE results_v1")
        # the keys a box agreed with the venue by Diffie-Hellman prove nothing any more:
        # every box is admitted again, by a person
        self.db.execute("DROP TABLE IF EXISTS box_keys")

    # -- who may write ---------------------------------------------------------------------

    def admitted(self) -> dict[str, str]:
        """Every admitted box with the fingerprint of its key."""
        with self.lock:
            return {box: identity.fingerprint(key) for box, key in self._admitted.items()}

    def admit(self, box: str, fingerprint: str) -> str | None:
        """The operator admits the waiting ``box`` whose key has ``fingerprint`` (as the
        page showed it): at once, replacing any key the box was admitted with before.
        None when done, else a sentence saying why not."""
        with self.lock:
            entry = self.waiting.take(box, fingerprint)
            if entry is None:
                return (f"box {box} with fingerprint {fingerprint} is not waiting (any "
                        "more): reload the page")
            self._admit(entry.box, entry.key, entry.table)
        self._admitted_changed()
        return None

    def waiting_level(self, box: str, fingerprint: str) -> str | None:
        """The topic level (its broker account, behind the shipped ACL) the waiting
        ``box`` with ``fingerprint`` speaks from; None when it is not waiting."""
        with self.lock:
            entry = self.waiting.find(box, fingerprint)
            return None if entry is None else entry.level

    def admit_key(self, box: str, public: str, table: str = "?") -> None:
        """Admit ``box`` with the key ``public`` directly (a fingerprint confirmed some
        other way, e.g. read off the box; tests)."""
        identity.check_public(public)
        with self.lock:
            self._admit(box, public, table)
        self._admitted_changed()

    def _admit(self, box: str, public: str, table: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO admitted VALUES (?, ?, ?, ?)",
                        (box, public, table, self.clock()))
        self._admitted[box] = public
        self.waiting.forget(box)
        self.version += 1
        log.info("venue: box %s admitted with key %s", box, identity.fingerprint(public))

    def _admitted_changed(self) -> None:
        for tell in self.on_admit:
            tell()

    def announcement(self, online: bool) -> tuple[str, bytes]:
        """The retained ``_venue`` message, signed: whether we listen, our public key
        (boxes check its fingerprint against the one they were given), and every admitted
        box with its key's fingerprint (so a box can say on its screen that it waits)."""
        topic = self.topics.venue_status
        body = {"v": VERSION, "type": "venue", "online": online, "key": self.key.public,
                "admitted": self.admitted()}
        return topic, encode(self.key.sign(topic, body))

    def signed_ack(self, table: str, box: str, game: int, rev: int,
                   uid: str) -> tuple[str, bytes]:
        """The ack topic and payload for a stored result, signed with the venue's key."""
        topic = self.topics.ack(box, table)
        body = {"v": VERSION, "type": "ack", "game": game, "rev": rev, "uid": uid}
        return topic, encode(self.key.sign(topic, body))

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- receiving ---------------------------------------------------------------------

    def receive(self, topic: str, raw: bytes) -> Received:
        """What became of one message. Never raises and never leaves the copy inside a
        transaction. What the screen decides (``QUIET``) touches no disk; anything else is
        one transaction of its own, and one that cannot be stored is rolled back and set
        aside in ``dead_letters`` (the broker has it acknowledged, so it is not handed
        back for ever)."""
        with self.lock:
            early, parsed = self._screen(topic, raw)
            if early is not None and early.outcome in QUIET:
                n = self.quiet[early.outcome] = self.quiet[early.outcome] + 1
                if early.outcome == "unproven":
                    self.version += 1
                    if n & (n - 1) == 0:  # the 1st, 2nd, 4th, 8th...: a flood logs little
                        log.warning("venue: %d unproven message(s), the latest on %s: %s",
                                    n, topic[:200], early.reason)
                return early
            try:
                self.db.execute("BEGIN IMMEDIATE")
                got = early if early is not None else self._judge(topic, *parsed)
                self._count(got.outcome)
                if got.outcome == "rejected":
                    self._problem(topic, got.reason)
                self.db.execute("COMMIT")
            except Exception as exc:  # noqa: BLE001 - whatever it was, set it aside
                got = self._set_aside(topic, raw, exc)
            if got.outcome in ("rejected", "dead"):
                log.warning("venue: %s message on %s: %s", got.outcome, topic[:200],
                            got.reason)
            if got.outcome in ("stored", "rejected", "dead"):
                self.version += 1
            return got

    def _screen(self, topic: str, raw: bytes) -> tuple[Received | None, tuple | None]:
        """In memory, cheapest first: ``(Received, None)`` when the message goes no
        further, else ``(None, (table, kind, message))`` for ``_judge``."""
        try:
            table, kind, _box = self.topics.parse(topic)
        except PayloadError as exc:
            if not self.limits.allow("?"):  # foreign topics share one budget
                return Received("flood"), None
            return Received("rejected", str(exc)), None
        if kind in ("ack", "venue"):
            return Received("ignored"), None
        if not self.limits.allow(table):
            return Received("flood", f"over the rate limit of topic level {table}"), None
        try:
            wire = decode(raw)
            box = box_id_of(wire)
            public = identity.check_public(wire.get("key"))
        except PayloadError as exc:
            return Received("rejected", str(exc)), None
        if self._admitted.get(box) != public:
            if self.waiting.heard(table, box, public, wire.get("table"), self.clock()):
                self.version += 1  # a new entry on the waiting list
            why = ("is not admitted" if box not in self._admitted
                   else "carries another key than the one admitted")
            return Received("waiting", f"box {box} {why}"), None
        if not identity.verify(public, topic, wire):
            return Received("unproven", f"a message naming box {box} is not signed by the "
                                        "key it was admitted with"), None
        return None, (table, kind, wire)

    def _judge(self, topic: str, table: str, kind: str, wire: dict) -> Received:
        try:
            if kind == "live":
                return self._live(check_live(wire, table))
            return self._result(check_result(expand(wire), table), table)
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
        self._problems_added += 1
        if self._problems_added % 20 == 0:  # bounded: the newest KEEP_PROBLEMS rows stay
            self.db.execute("DELETE FROM problems WHERE rowid NOT IN (SELECT rowid FROM"
                            " problems ORDER BY last_at DESC LIMIT ?)", (KEEP_PROBLEMS,))

    def _seen(self, obj: dict) -> None:
        now = self.clock()
        self.db.execute(
            "INSERT INTO boxes VALUES (?, ?, ?, ?, ?) ON CONFLICT(box) DO UPDATE SET"
            " table_slug = excluded.table_slug, table_name = excluded.table_name,"
            " last_seen = excluded.last_seen",
            (obj["box"], segment(obj["table"]), obj["table"], now, now))

    def _live(self, obj: dict) -> Received:
        row = self.db.execute("SELECT rev, uid, payload FROM live WHERE box = ?",
                              (obj["box"],)).fetchone()
        if row is not None:
            held_rev, held_uid, held = row[0], row[1], json.loads(row[2])
            if held_uid == obj["uid"] and held_rev >= obj["rev"]:
                return Received("stale" if held_rev > obj["rev"] else "duplicate")
            if held_uid != obj["uid"] and str(held.get("started_at")) > obj["started_at"]:
                return Received("stale")  # a game that started before the one shown
        done = self.db.execute("SELECT rev FROM results WHERE box = ? AND uid = ?",
                               (obj["box"], obj["uid"])).fetchone()
        if done is not None and done[0] > obj["rev"]:
            return Received("stale")  # the game was finished after this state
        self._seen(obj)
        self.db.execute(
            "INSERT INTO live VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(box) DO UPDATE SET"
            " rev = excluded.rev, game = excluded.game, seq = excluded.seq,"
            " payload = excluded.payload, received_at = excluded.received_at,"
            " uid = excluded.uid",
            (obj["box"], obj["rev"], obj["game"], obj["seq"], _plain(obj), self.clock(),
             obj["uid"]))
        return Received("stored")

    def _result(self, obj: dict, table: str) -> Received:
        key = (obj["box"], obj["uid"])
        ack = (table, obj["box"], obj["game"], obj["rev"], obj["uid"])
        row = self.db.execute("SELECT rev FROM results WHERE box = ? AND uid = ?",
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
        finished = obj.get("finished_at")
        self.db.execute(
            f"INSERT OR REPLACE INTO results ({_RESULT_COLUMNS}) VALUES"
            " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (obj["box"], obj["game"], obj["uid"], obj["rev"], table, obj["table"],
             obj["kind"], obj["status"], obj["started_at"],
             finished if isinstance(finished, str) else None, self.clock(), _plain(obj),
             json.dumps(players), json.dumps(winners), json.dumps(outcome.reaction_names)))
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
        """The newest stored game ``game`` of ``box`` (a box restored from an older image
        of its log may have sent two games with one number: its newest is shown)."""
        with self.lock:
            row = self.db.execute("SELECT payload FROM results WHERE box = ? AND game = ?"
                                  " ORDER BY received_at DESC LIMIT 1",
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
                " FROM live l LEFT JOIN results r ON r.box = l.box AND r.uid = l.uid"
                " ORDER BY l.box").fetchall()
            results = self.db.execute(
                "SELECT box, game, table_name, kind, status, finished_at, received_at,"
                " players, winners, reactions FROM results ORDER BY received_at").fetchall()
            boxes = self.db.execute("SELECT box, table_slug, table_name, last_seen FROM boxes"
                                    " WHERE last_seen >= ?", (since,)).fetchall()
            problems = self.db.execute("SELECT topic, reason, count, last_at FROM problems"
                                       " ORDER BY last_at DESC LIMIT 20").fetchall()
            waiting = [{"box": w.box, "fingerprint": w.fingerprint, "table": w.table,
                        "first_seen": w.first_seen, "last_seen": w.last_seen,
                        "messages": w.messages,
                        "replaces": identity.fingerprint(self._admitted[w.box])
                        if w.box in self._admitted else None}
                       for w in self.waiting.entries()[:50]]
            quiet = dict(self.quiet)
            admitted = len(self._admitted)
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
                "fingerprint": f"This venue's fingerprint: {self.key.fingerprint}",
                "tonight": list(reversed(tonight))[:20], "leaderboards": leaderboards,
                "reactions": reactions, "warnings": warnings,
                "unproven": quiet.get("unproven", 0),
                "waiting": waiting, "admitted": admitted, "held": quiet.get("waiting", 0),
                "flood": quiet.get("flood", 0),
                "problems": [{"topic": t, "reason": r, "count": c, "at": a}
                             for t, r, c, a in problems],
                "marks": {t["box"]: [t["game"], t["seq"], t["status"], t["rev"]]
                          for t in tables}}
