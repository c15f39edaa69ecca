"""Benchmark of venue mode, end to end: many tables, one broker, one venue page.

Run: ``python bench/venue.py [--tables 50] [--games 3] [--actions 14] [--interval 0.4]``
(about a minute by default; everything on 127.0.0.1, on ports chosen at run time).

What runs: a real Mosquitto (``LocalBroker``), ``companion venue`` as its own process
(subscriber, its SQLite copy, the Starlette page), and in this process ``--tables``
simulated boxes (``SimTable``: a real game log with the outbox, real ``GameSession``s and
rules engines, a real paho publisher each). One driver thread plays every table's night
(score pads and slap-pad rounds, with some undos), each table acting every
``--interval`` s; halfway through, the broker is killed (SIGKILL, no persistence: its
retained states and queues are gone) and started again on the same port.

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
  dropped, which is the exactly-once at work.

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

from companion.venue.outbox import Outbox
from companion.venue.settings import VenueConfig

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
        line = venue.stdout.readline()
        found = re.search(r"venue page: (http://\S+)", line)
        if not found:
            print(f"companion venue did not start: {line}{venue.stdout.read()}")
            return 1
        url = found.group(1)
        reader = PageReader(url)
        reader.thread.start()
        for i in range(args.tables):
            box = f"{i + 1:08x}"
            cfg = VenueConfig("127.0.0.1", broker.port, VENUE, f"Table {i + 1}")
            tables.append(SimTable(tmp / box, cfg, box, games=args.games,
                                   actions=args.actions, seed=args.seed + i, max_backoff=1.0))
        for t in tables:
            t.start()

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
        expected = {(t.publisher.box, gid): g for t in tables for gid, g in t.expected().items()}
        deadline = time.monotonic() + 180
        db = sqlite3.connect(f"file:{tmp / 'venue.sqlite3'}?mode=ro", uri=True)
        outboxes = [Outbox(t.path) for t in tables]  # this thread's own connections
        settled_s = None
        while time.monotonic() < deadline:
            (count,) = db.execute("SELECT COUNT(*) FROM results").fetchone()
            unsent = sum(sum(o.counts()) for o in outboxes)
            if count >= len(expected) and unsent == 0:
                settled_s = time.monotonic() - start
                break
            time.sleep(0.2)  # polling another process's file, bounded by the deadline
        if reader.shown:
            time.sleep(0.5)  # the page's last coalesced update
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
    print(f"  games: {len(expected)} played, {len(got)} at the venue; lost {lost}, doubled "
          f"{doubled}, phantom {phantom}; settled {span:.1f} s after the first action "
          f"(night played in {played_s:.1f} s)")
    return 1 if lost or doubled or phantom else 0


if __name__ == "__main__":
    sys.exit(main())
