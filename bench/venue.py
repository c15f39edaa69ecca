"""Benchmark of venue mode, end to end: many tables, one broker, one venue page.

Run: ``python bench/venue.py [--tables 50] [--games 3] [--actions 14] [--interval 0.4]
[--flood 20]`` (about a minute and a half by default; everything on 127.0.0.1, on ports
chosen at run time).

What runs: a real Mosquitto (``LocalBroker``), ``companion venue`` as its own process
(subscriber, its SQLite copy, the Starlette page), and in this process ``--tables``
simulated boxes (``SimTable``: a real game log with the outbox, real ``GameSession``s and
rules engines, a real paho publisher each). One driver thread plays every table's night
(score pads and slap-pad rounds, with some undos), each table acting every
``--interval`` s; halfway through, the broker is killed (SIGKILL, no persistence: its
retained states and queues are gone) and started again on the same port. Before the
night each box appears on the venue's waiting list and the bench, as the operator,
admits it on the operator page by the fingerprint the box shows (its Settings); the
boxes believe the venue by the fingerprint ``companion venue`` printed.

Then a stranger floods for ``--flood`` s from its own account, on its own topic level
(where the broker's ACL keeps it, deploy/mosquitto/): invented boxes, an admitted box's
id and key with signatures it cannot make, and junk, as fast as one paho client sends.
Five seconds in, one admitted table plays a short game to its end.

A reader follows the page's own server-sent events (``/events``), as a browser does.

Printed:

* messages per second: what the venue received (stored + duplicates dropped + stale
  live states) over the time from the first action to the last game stored;
* latency from a table's action (just before ``GameSession.do``) to the first page
  update that shows it or a later state of that table (the update carries each table's
  newest revision): p50, p99 and max, overall and for actions outside the outage;
* exactly once: every finished game of every table compared with the venue's copy
  (same setup, same actions): lost, doubled (a game or an action more than the table
  played) and phantom (a game no table played) must all be 0; duplicates the venue
  dropped, which is the exactly-once at work;
* under flood: from the end of the flood-time game to the first page update showing it,
  and what the venue did with the stranger's messages.

It ends with the lines ``lost N, doubled N, phantom N`` and ``under flood: on the page
after S s``.

Exits 1 when a game is lost, doubled or phantom.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.venue.identity import Identity
from companion.venue.outbox import Outbox
from companion.venue.settings import VenueConfig
from companion.venue.topics import Topics, encode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the test harness
from localbroker import LocalBroker  # noqa: E402
from simtable import SimTable  # noqa: E402

VENUE = "Bench Night"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


class PageReader:
    """Follows /events; ``seen[box]`` is the newest revision shown, with when."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown: dict[str, list[tuple[int, int]]] = {}  # box -> [(rev, t_ns)]
        self.updates = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                with httpx.stream("GET", self.url + "/events", timeout=httpx.Timeout(
                        5.0, read=20.0)) as response:
                    for line in response.iter_lines():
                        if self.stop.is_set():
                            return
                        if line.startswith("data: "):
                            self._board(json.loads(line[6:]), time.monotonic_ns())
            except httpx.HTTPError:
                self.stop.wait(0.2)

    def _board(self, data: dict, t_ns: int) -> None:
        self.updates += 1
        for box, mark in data["marks"].items():
            revs = self.shown.setdefault(box, [])
            if not revs or mark[3] > revs[-1][0]:
                revs.append((mark[3], t_ns))

    def first_showing(self, box: str, rev: int) -> int | None:
        for shown_rev, t_ns in self.shown.get(box, []):
            if shown_rev >= rev:
                return t_ns
        return None


class Stranger:
    """A client with its own account flooding its own topic level, in a thread."""

    def __init__(self, port: int, admitted_box: str, admitted_key: str) -> None:
        topics = Topics(VENUE, "Stranger")
        me = Identity.generate()
        self.messages = []
        for i in range(900):
            body = {"v": 1, "type": "live", "box": f"{i:08x}", "table": "Stranger",
                    "game": 1, "uid": "5e" * 16, "rev": i + 1, "seq": 1, "kind": "scorepad",
                    "title": "Score pad", "status": "open", "started_at": "2026-12-03T20:00",
                    "players": [{"name": "Mallory", "seat": 1, "score": 1}],
                    "key": me.public}
            if i % 3 == 0:  # an invented box, signed by its own key
                self.messages.append((topics.live(), encode(me.sign(topics.live(), body))))
            elif i % 3 == 1:  # an admitted box's id and key, a signature it cannot make
                self.messages.append((topics.result(), encode(
                    body | {"box": admitted_box, "key": admitted_key, "sig": "ab" * 64})))
            else:
                self.messages.append((topics.live(), b"{" * 2000))
        self.sent = 0
        self.stop = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-stranger")
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            topic, raw = self.messages[self.sent % len(self.messages)]
            self.client.publish(topic, raw, qos=0)
            self.sent += 1
            if self.sent % 200 == 0:  # paho's own queue stays short: one QoS 1 round trip
                self.client.publish(topic, raw, qos=1).wait_for_publish(10)
                self.sent += 1

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        self.client.disconnect()
        self.client.loop_stop()


def admit_all(url: str, operator: str, tables: list[SimTable], deadline_s: float = 60) -> None:
    """The operator admits each box whose fingerprint (on its Settings) is waiting."""
    want = {}
    for t in tables:
        outbox = Outbox(t.path)
        want[t.publisher.box] = outbox.box_identity().fingerprint
        outbox.close()
    deadline = time.monotonic() + deadline_s
    while want and time.monotonic() < deadline:
        for w in httpx.get(url + "/api/board", timeout=10).json()["waiting"]:
            if want.get(w["box"]) == w["fingerprint"]:
                httpx.post(f"{operator}/admit", data={"box": w["box"], "fingerprint":
                                                      w["fingerprint"]}, timeout=10)
                del want[w["box"]]
        time.sleep(0.2)  # polling the page as an operator would, bounded by the deadline
    if want:
        raise SystemExit(f"boxes never waiting on the page: {sorted(want)}")


def last_rev(table: SimTable) -> int:
    (rev,) = table.log.db.execute("SELECT COALESCE(MAX(id), 0) FROM venue_outbox").fetchone()
    return rev


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--actions", type=int, default=14)
    ap.add_argument("--interval", type=float, default=0.4, help="s between a table's actions")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--no-restart", action="store_true")
    ap.add_argument("--flood", type=float, default=20.0, help="s of a stranger's flood")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="venue-bench-"))
    broker = LocalBroker(tmp / "broker").start()
    venue = subprocess.Popen(
        [sys.executable, "-m", "companion", "venue", "--broker", "127.0.0.1", "--port",
         str(broker.port), "--venue", VENUE, "--listen", "127.0.0.1", "--http-port", "0",
         "--db", str(tmp / "venue.sqlite3"), "--for", "900"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tables: list[SimTable] = []
    reader = None
    try:
        lines = "".join(venue.stdout.readline() for _ in range(3))
        found = re.search(r"venue page: (http://\S+)", lines)
        fingerprint = re.search(r"venue fingerprint: (\S+)", lines)
        operator = re.search(r"operator page .*: (http://\S+)", lines)
        if not (found and fingerprint and operator):
            print(f"companion venue did not start: {lines}{venue.stdout.read()}")
            return 1
        url = found.group(1)
        reader = PageReader(url)
        reader.thread.start()
        for i in range(args.tables):
            box = f"{i + 1:08x}"
            cfg = VenueConfig("127.0.0.1", broker.port, VENUE, f"Table {i + 1}",
                              fingerprint=fingerprint.group(1))
            tables.append(SimTable(tmp / box, cfg, box, games=args.games,
                                   actions=args.actions, seed=args.seed + i, max_backoff=1.0))
        for t in tables:
            t.start()
            t.step()  # a first game started: the box is heard, and waits to be admitted
        admit_all(url, operator.group(1), tables)

        # the night: each table acts every --interval s, all tables spread over it
        actions: list[tuple[str, int, int]] = []  # (box, rev, t_ns)
        playing = list(tables)
        start = time.monotonic()
        tick = args.interval / max(1, len(tables))
        n = 0
        restart_at = None
        outage = (0, 0)
        while playing:
            for t in list(playing):
                due = start + n * tick
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)  # pacing the simulated players, not waiting for a result
                n += 1
                t_ns = time.monotonic_ns()
                if t.step() is None:
                    playing.remove(t)
                    continue
                actions.append((t.publisher.box, last_rev(t), t_ns))
            if restart_at is None and not args.no_restart and time.monotonic() - start > (
                    args.games * (args.actions + 3) * args.interval) / 2:
                restart_at = time.monotonic_ns()
                broker.restart(hard=True)
                outage = (restart_at, time.monotonic_ns())
        played_s = time.monotonic() - start

        # let it settle: bounded, until every game is at the venue and every box heard so
        db = sqlite3.connect(f"file:{tmp / 'venue.sqlite3'}?mode=ro", uri=True)
        outboxes = [Outbox(t.path) for t in tables]  # this thread's own connections

        def settle() -> float | None:
            expected = {(t.publisher.box, gid) for t in tables for gid in t.expected()}
            deadline = time.monotonic() + 180
            while time.monotonic() < deadline:
                (count,) = db.execute("SELECT COUNT(*) FROM results").fetchone()
                unsent = sum(sum(o.counts()) for o in outboxes)
                if count >= len(expected) and unsent == 0:
                    return time.monotonic() - start
                time.sleep(0.2)  # polling another process's file, bounded by the deadline
            return None

        settled_s = settle()
        if reader.shown:
            time.sleep(0.5)  # the page's last coalesced update

        # the flood: a stranger's account on its own level, an admitted table plays beside
        flood_s, flooded = None, 0
        if args.flood > 0:
            player = tables[0]
            key = Outbox(player.path)
            stranger = Stranger(broker.port, player.publisher.box,
                                key.box_identity().public)
            key.close()
            flood_start = time.monotonic()
            stranger.thread.start()
            time.sleep(min(5.0, args.flood / 4))  # the flood well under way
            player.play_game("scorepad", ["Ann", "Bo"], [
                {"type": "score", "seat": 1, "points": 3}, {"type": "score", "seat": 2,
                                                            "points": 2}, {"type": "finish"}])
            end_ns, rev = time.monotonic_ns(), last_rev(player)
            deadline = time.monotonic() + args.flood + 30
            while time.monotonic() < deadline:
                shown = reader.first_showing(player.publisher.box, rev)
                if shown is not None:
                    flood_s = (shown - end_ns) / 1e9
                    break
                time.sleep(0.05)  # polling the page reader, bounded by the deadline
            time.sleep(max(0.0, flood_start + args.flood - time.monotonic()))  # pacing
            stranger.close()
            flooded = stranger.sent
            flood_took = time.monotonic() - flood_start
            if settle() is None:
                settled_s = None
            seen = httpx.get(url + "/api/board", timeout=30).json()
        expected = {(t.publisher.box, gid): g for t in tables for gid, g in t.expected().items()}
        rows = db.execute("SELECT box, game, payload FROM results").fetchall()
        counters = dict(db.execute("SELECT name, n FROM counters").fetchall())
        db.close()
        for o in outboxes:
            o.close()
    finally:
        if reader is not None:
            reader.stop.set()
        for t in tables:
            t.stop()
        venue.terminate()
        try:
            venue.wait(20)
        except subprocess.TimeoutExpired:
            venue.kill()
            venue.wait(10)
        broker.stop()

    got = {(b, g): json.loads(p) for b, g, p in rows}
    lost = sum(1 for k, g in expected.items()
               if k not in got or len(got[k]["actions"]) < len(g["actions"])
               or got[k]["actions"][:len(g["actions"])] != g["actions"])
    doubled = sum(1 for k, g in expected.items()
                  if k in got and len(got[k]["actions"]) > len(g["actions"]))
    phantom = sum(1 for k in got if k not in expected)
    latencies, outside = [], []
    unseen = 0
    for box, rev, t_ns in actions:
        shown = reader.first_showing(box, rev)
        if shown is None:
            unseen += 1
            continue
        ms = max(0, shown - t_ns) / 1e6
        latencies.append(ms)
        if not outage[0] - 1e9 <= t_ns <= outage[0] + 15e9:
            outside.append(ms)
    received = sum(counters.get(k, 0) for k in ("stored", "duplicate", "stale"))
    span = settled_s or played_s
    print(f"venue bench: {len(tables)} tables, {len(actions)} actions, {len(expected)} games, "
          f"broker restarted {broker.restarts}x (SIGKILL, no persistence)")
    print(f"  messages at the venue: {received} in {span:.1f} s = {received / span:.0f}/s "
          f"(stored {counters.get('stored', 0)}, duplicates dropped "
          f"{counters.get('duplicate', 0)}, stale live states {counters.get('stale', 0)}, "
          f"rejected {counters.get('rejected', 0)}); page updates {reader.updates}")
    print(f"  action -> page: p50 {pct(latencies, 50):.0f} ms, p99 {pct(latencies, 99):.0f} "
          f"ms, max {max(latencies, default=float('nan')):.0f} ms over {len(latencies)} "
          f"actions ({unseen} never shown on their own)")
    print(f"  away from the restart (15 s after it): p50 {pct(outside, 50):.0f} ms, "
          f"p99 {pct(outside, 99):.0f} ms over {len(outside)} actions")
    print(f"  games: {len(expected)} played, {len(got)} at the venue; settled {span:.1f} s "
          f"after the first action (night played in {played_s:.1f} s)")
    if args.flood > 0:
        print(f"  flood: {flooded} messages from a stranger's account in {flood_took:.1f} s "
              f"= {flooded / flood_took:.0f}/s; the venue dropped {seen['flood']} over the "
              f"rate limit unread, held {seen['held']} from unadmitted boxes, counted "
              f"{seen['unproven']} forged signatures; {len(seen['waiting'])} on the waiting "
              "list")
    print(f"lost {lost}, doubled {doubled}, phantom {phantom}")
    if args.flood > 0:
        print("under flood: " + ("never on the page" if flood_s is None else
                                 f"on the page after {flood_s:.2f} s"))
    return 1 if lost or doubled or phantom or (args.flood > 0 and flood_s is None) else 0


if __name__ == "__main__":
    sys.exit(main())
