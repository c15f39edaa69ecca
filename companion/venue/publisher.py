"""The box's publisher: sends the venue outbox to the MQTT broker, in a thread of its own.

What it guarantees (docs/venue.md):

* every outbox row is published with QoS 1 and marked sent only when the broker has
  acknowledged it (PUBACK); a row in flight when the connection drops is sent again;
* a finished game stays "unacknowledged" until the venue says it stored it
  (``.../ack/<box>``); it is sent again whenever the venue announces itself (after the
  venue or the broker restarted) and, while the venue is listening, every
  ``resend_after`` seconds until it says so: a broker that loses messages in a restart
  loses nothing for good;
* the live state is newest-wins: of several unsent states of one game only the newest
  is published (retained), the older ones are superseded;
* nothing in the game log depends on the network: the table plays on while the broker
  is away, however long, and the outbox sends everything when it is back.

Which venue it believes: only the one whose key has the fingerprint in the config
(``venue.fingerprint``) or that a person confirmed once on the box's screen
(``confirm_venue``, kept in the log). The venue's retained ``_venue`` announcement and its
acks are Ed25519-signed (``identity``); an announcement by any other key is refused and
the table told, and nothing is ever sent until a believed venue has announced itself.
Every message the box sends carries its own public key and is signed with its own key
(kept in the game log): the venue's operator admits this box by that key's fingerprint
(``fingerprint``, for the Settings screen), and the venue's announcement lists the
admitted boxes, so the box can say it is waiting.

What the table is told goes to ``notices`` (text, is_error), drained by the UI thread:
refused credentials, a TLS certificate that does not match, the broker away (with a
reminder every ``remind_every`` seconds), another box using the same table name, a venue
refused or waiting for confirmation, and whether the venue has admitted this box yet.
``venue_status`` is the latest of those in a few words, for a Settings line.

    pub = Publisher(cfg.venue, log_path, box_id)
    game_log.outbox_hook = OutboxHook(wake=pub.wake)
    pub.start()
    ...
    pub.stop()
"""

from __future__ import annotations

import logging
import queue
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion.errors import CompanionError
from companion.venue import identity
from companion.venue.mqtt import BrokerSettings, Connection, Worker
from companion.venue.outbox import Outbox, OutboxRow, game_uid
from companion.venue.payloads import PayloadBuilder
from companion.venue.settings import VenueConfig
from companion.venue.topics import (
    MAX_PAYLOAD,
    PayloadError,
    Topics,
    check_ack,
    compact,
    decode,
    encode,
)

log = logging.getLogger(__name__)
KEEP_DAYS = 7  # delivered outbox rows are forgotten after a week


def sentence(text: str) -> str:
    """``text`` ending as a sentence: 'is the broker running?' keeps its question mark."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!")) else text + "."


def minutes(seconds: float) -> str:
    m = int(seconds // 60)
    return f"{m // 60} h {m % 60} min" if m >= 60 else f"{m} min"


class Publisher(Worker):
    """Owns the MQTT connection and its own connection to the game log's outbox."""

    thread_name = "venue-publisher"

    def __init__(self, cfg: VenueConfig, log_path: Path | str, box_id: str, *,
                 clock: Callable[[], float] = time.monotonic, resend_after: float = 120.0,
                 remind_every: float = 900.0, max_backoff: float = 60.0) -> None:
        self.cfg, self.log_path, self.box, self.clock = cfg, Path(log_path), box_id, clock
        self.resend_after, self.remind_every = resend_after, remind_every
        self.topics = Topics(cfg.venue, cfg.table)
        # a client id nobody can read off the page: another client with the same id would
        # push this box off the broker
        settings = BrokerSettings(
            cfg.host, cfg.port, f"companion-box-{secrets.token_hex(8)}", cfg.username,
            cfg.password if cfg.password_file else None, cfg.tls, cfg.ca_file,
            cfg.cert_file, cfg.key_file)
        self.conn = Connection(settings, on_message=self._on_message, on_up=self._on_up,
                               on_down=self._on_down, max_backoff=max_backoff)
        self.notices: queue.SimpleQueue[tuple[str, bool]] = queue.SimpleQueue()
        self.outbox: Outbox | None = None
        self.builder: PayloadBuilder | None = None
        self._inflight: dict[int, list[int]] = {}  # message id -> outbox rows it sends
        self._busy: set[int] = set()  # outbox rows in flight
        self._resend_all = False
        self._last_resend = 0.0
        self._down_since: float | None = None
        self._told_problem: str | None = None
        self._last_reminder = 0.0
        self._other_boxes: set[str] = set()
        self.venue_online = False  # the venue's retained _venue message says it listens
        self.me: identity.Identity | None = None  # this box's key (``open``)
        self.venue_key: str | None = None  # the believed venue's public key, once heard
        self.candidate: tuple[str, dict] | None = None  # an unconfirmed venue: key, message
        self.admitted = False  # the believed venue lists this box with this box's key
        self.venue_status = "no venue heard yet"  # in a few words, for Settings
        self._told_state: str | None = None
        self._refused: set[str] = set()  # fingerprints already told as refused
        self._confirm: str | None = None  # a fingerprint confirmed on the screen
        self._told_account = False
        self.published = 0

    # -- life ------------------------------------------------------------------------

    def open(self) -> None:
        """Open the outbox (in the thread that will step the publisher)."""
        if self.outbox is None:
            self.outbox = Outbox(self.log_path)
            self.me = self.outbox.box_identity()
            self.builder = PayloadBuilder(self.outbox, self.box, self.cfg.table)
            week_ago = datetime.now(UTC) - timedelta(days=KEEP_DAYS)
            self.outbox.prune(week_ago.isoformat(timespec="milliseconds"))

    def stop(self, timeout: float = 5.0) -> None:
        self._halt(timeout)
        self.conn.close()
        if self.outbox is not None:
            self.outbox.close()
            self.outbox = None

    def wake(self) -> None:
        """From the UI thread, after a commit: there is something new to send."""
        self.conn.wake()

    @property
    def fingerprint(self) -> str | None:
        """This box's key fingerprint, as the venue's operator page shows it (None until
        the publisher opened the log; ``VenueBox.fingerprint`` reads it without waiting)."""
        return self.me.fingerprint if self.me is not None else None

    def confirm_venue(self, fingerprint: str) -> None:
        """From the UI thread: a person confirmed that the venue announcing
        ``fingerprint`` (``candidate``) is the venue's own page. Kept in the log; from
        then on only that venue is believed."""
        self._confirm = identity.normal_fingerprint(fingerprint)
        self.conn.wake()

    def _run(self) -> None:
        told = False
        while self._running:
            try:
                self.step(self.clock())
                told = False
            except Exception as exc:  # noqa: BLE001 - a thread boundary: log, tell, go on
                log.exception("venue publisher")
                if not told:
                    self.notices.put((f"Venue: cannot read the outbox ({exc}); the games "
                                      "stay in the log and are sent when it can.", True))
                    told = True
                self.conn.pump(2.0)  # not a busy loop while the log is unreadable
                continue
            self.conn.pump(0.5 if self.conn.state == "up" else 0.25)

    # -- one pass ----------------------------------------------------------------------

    def step(self, now: float) -> None:
        """Connect when due, collect acknowledgements, publish what is due, tell news."""
        self.open()  # raises when the outbox cannot open: from here it is open
        if self._confirm is not None:
            self._confirmed(self._confirm)
            self._confirm = None
        self.conn.attempt(now)
        if self.conn.acked:
            for mid in self.conn.acked:
                rows = self._inflight.pop(mid, [])
                self._busy.difference_update(rows)
                self.outbox.mark_sent(rows)
            self.conn.acked.clear()
        if self.conn.state == "up" and self.venue_key is not None:
            self._publish_due(now)  # only once a venue we believe has announced itself
        elif self.conn.state == "down":
            self._tell_down(now)

    def _tell_down(self, now: float) -> None:
        problem = self.conn.problem
        if problem is None:
            return
        if self._down_since is None:
            self._down_since = now
        if problem != self._told_problem:
            self._told_problem, self._last_reminder = problem, now
            self.notices.put((f"Venue: {sentence(problem)} Games are kept and sent later.",
                              self.conn.refused or "TLS" in problem))
        elif now - self._last_reminder >= self.remind_every:
            self._last_reminder = now
            unsent, unacked = self.outbox.counts()
            self.notices.put((f"Venue: no broker for {minutes(now - self._down_since)} "
                              f"({problem}); {unsent + unacked} messages wait in the log, "
                              "nothing is lost.", False))

    def _on_up(self) -> None:
        for topic in (self.topics.ack(self.box), self.topics.venue_status, self.topics.live()):
            self.conn.subscribe(topic)
        self._inflight.clear()
        self._busy.clear()
        self._resend_all = True  # the broker may have lost retained states in a restart
        unsent = self.outbox.counts()[0] if self.outbox else 0
        since = f" after {minutes(self.clock() - self._down_since)}" \
            if self._down_since is not None and self.published else ""
        self.notices.put((f"Venue: connected to {self.conn.settings.where}{since}"
                          + (f"; sending {unsent} waiting messages." if unsent else "."),
                          False))
        user, level = self.cfg.username, self.topics.table
        if user is not None and user != level and not self._told_account:
            self._told_account = True  # the shipped ACL lets an account write its own level
            self.notices.put((f"Venue: this box logs in as '{user}' but publishes under "
                              f"'{level}' (its venue.table); with the venue's broker ACL "
                              f"its account must be named '{level}', or nothing it sends "
                              "arrives.", True))
        self._down_since, self._told_problem = None, None

    def _on_down(self, why: str) -> None:
        self._inflight.clear()
        self._busy.clear()

    def _publish_due(self, now: float) -> None:
        rows = [r for r in self.outbox.unsent(limit=300) if r.id not in self._busy]
        newest_live: dict[int, OutboxRow] = {}
        superseded = []
        for row in rows:
            if row.topic == "live":
                if row.game_id in newest_live:
                    superseded.append(newest_live[row.game_id].id)
                newest_live[row.game_id] = row
        self.outbox.mark_sent(superseded)
        for row in rows:
            if row.id in superseded:
                continue
            self._send(row)
        if self._resend_all or (self.venue_online
                                and now - self._last_resend >= self.resend_after):
            self._last_resend = now
            again = self.outbox.unacked_results()
            if self._resend_all:
                again += self.outbox.latest_live()
            self._resend_all = False
            for row in again:
                if row.id not in self._busy:
                    self._send(row)

    # -- which venue ---------------------------------------------------------------------

    def _tell_state(self, state: str, text: str, error: bool) -> None:
        """Tell the table about the venue when what it would be told changes."""
        self.venue_status = text.removeprefix("Venue: ")
        if state != self._told_state:
            self._told_state = state
            self.notices.put((text, error))

    def _believes(self, key: str) -> bool | None:
        """Whether this box believes a venue with ``key``: True, False, or None when no
        venue is pinned yet (neither ``venue.fingerprint`` nor a confirmed one)."""
        if self.cfg.fingerprint is not None:
            return identity.fingerprint(key) == self.cfg.fingerprint
        trusted = self.outbox.trusted_venue()
        return None if trusted is None else key == trusted

    def _heard_venue(self, topic: str, obj: dict) -> None:
        """A ``_venue`` announcement: believed, refused, or waiting for a person."""
        key = obj.get("key")
        try:
            identity.check_public(key)
        except PayloadError:
            log.warning("venue: an announcement on _venue without a usable key")
            return
        if not identity.verify(key, topic, obj):
            log.warning("venue: an announcement on _venue its key did not sign")
            return
        fp = identity.fingerprint(key)
        believed = self._believes(key)
        if believed is None:
            self.candidate = (key, obj)
            if self.venue_key is None:
                self._tell_state(f"confirm {fp}", (
                    f"Venue: a venue page with fingerprint {fp} is listening, but this box "
                    "believes no venue yet. If that page shows the same fingerprint, "
                    "confirm it in Settings (or write it as venue.fingerprint in the "
                    "config); until then nothing is sent."), True)
            return
        if not believed:
            if fp not in self._refused:
                self._refused.add(fp)
                trusted = self.cfg.fingerprint or identity.fingerprint(
                    self.outbox.trusted_venue() or "")
                self.notices.put((
                    f"Venue: refused a venue announcing itself with fingerprint {fp}: this "
                    f"box believes only {trusted}. Nothing is sent to it and nothing it "
                    "says is used.", True))
            if self.venue_key is None:
                self.venue_status = f"refused a venue with fingerprint {fp}"
                self._told_state = "refused"
            return
        self._believed(key, obj)

    def _believed(self, key: str, obj: dict) -> None:
        if self.venue_key != key:
            self.venue_key = key
            self._resend_all = True
        self.venue_online = obj.get("online") is True
        if not self.venue_online:
            return  # its last will, made when it connected: the admissions in it may be old
        admitted = obj.get("admitted")
        theirs = admitted.get(self.box) if isinstance(admitted, dict) else None
        self.admitted = theirs == self.me.fingerprint
        # it came (back), maybe after the broker lost everything, or it just admitted us:
        # what is unacknowledged goes again
        self._resend_all = True
        if self.admitted:
            self._tell_state("admitted", "Venue: admitted by the venue; games are "
                             "delivered.", False)
        elif theirs is not None:
            self._tell_state(f"other {theirs}", (
                f"Venue: refused: the venue admitted this box with another key ({theirs}). "
                f"Waiting for the venue to admit this box's fingerprint {self.me.fingerprint}"
                " (Settings); games wait in the log."), True)
        else:
            self._tell_state("waiting", (
                "Venue: waiting for the venue to admit this box (fingerprint "
                f"{self.me.fingerprint}, also in Settings); games wait in the log."), False)

    def _confirmed(self, fp: str) -> None:
        if self.candidate is None or identity.fingerprint(self.candidate[0]) != fp:
            self.notices.put((f"Venue: no venue with fingerprint {fp} is listening; "
                              "nothing was confirmed.", True))
            return
        key, obj = self.candidate
        self.outbox.trust_venue(key)
        self.candidate = None
        self._believed(key, obj)

    def _send(self, row: OutboxRow) -> None:
        try:
            if row.topic == "live":
                payload, topic, retain = self.builder.live(row), self.topics.live(), True
            else:
                payload, topic, retain = self.builder.result(row), self.topics.result(), False
        except CompanionError as exc:  # a game the log cannot give back: say so, skip it
            log.error("venue: cannot build message %s: %s", row.id, exc)
            self.notices.put((f"Venue: game {row.game_id} cannot be sent ({exc}).", True))
            self.outbox.mark_sent([row.id])
            return
        body = encode(self.me.sign(topic, {**payload, "key": self.me.public}))
        if len(body) > MAX_PAYLOAD and row.topic == "result":
            body = encode(self.me.sign(topic, {**compact(payload), "key": self.me.public}))
        if len(body) > MAX_PAYLOAD:  # sent again, it would be refused again: give up
            log.error("venue: message %s for game %s is %d bytes, over %d even compacted",
                      row.id, row.game_id, len(body), MAX_PAYLOAD)
            self.notices.put((f"Venue: game {row.game_id} is too large to send to the "
                              f"venue ({len(body) // 1000} kB); it stays in this box's log "
                              "and its score sheets.", True))
            self.outbox.mark_sent([row.id])
            if row.topic == "result":
                self.outbox.mark_acked(row.id, row.game_id)
            return
        mid = self.conn.publish(topic, body, qos=1, retain=retain)
        if mid < 0:
            return
        self._inflight.setdefault(mid, []).append(row.id)
        self._busy.add(row.id)
        self.published += 1

    # -- what comes back ---------------------------------------------------------------

    def _on_message(self, topic: str, raw: bytes) -> None:
        try:
            _table, kind, box = self.topics.parse(topic)
            obj = decode(raw)
        except PayloadError:
            return  # not ours to judge on the box; the venue page lists foreign messages
        if kind == "ack" and box == self.box:
            try:
                game, rev, uid = check_ack(obj)
            except PayloadError:
                return
            if self.venue_key is None or not identity.verify(self.venue_key, topic, obj):
                log.warning("venue: an ack for game %s that the venue did not sign; the "
                            "result is kept and sent again", game)
                return
            try:
                ours = game_uid(self.box, self.outbox.game(game))
            except CompanionError:
                return
            if uid != ours:  # an ack for another game of that number (an older image)
                log.warning("venue: an ack for another game %s; ignored", game)
                return
            self.outbox.mark_acked(rev, game)
        elif kind == "venue":
            self._heard_venue(topic, obj)
        elif kind == "live":
            other = obj.get("box")
            if isinstance(other, str) and other != self.box and other not in self._other_boxes:
                self._other_boxes.add(other)
                self.notices.put((f"Venue: another box ({other[:8]}) also calls itself "
                                  f"'{self.cfg.table}'; give each box its own venue.table "
                                  "so the page keeps your games apart.", True))
