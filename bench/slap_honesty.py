"""Benchmark: does Stop Time ever name the wrong player? Measured through the whole path.

Run: ``PYTHONPATH=. xvfb-run -a python bench/slap_honesty.py [--rounds N] [--seed S]
[--only NAME] [--verbose]``
(about two minutes with the default 12 rounds per scenario; it needs a display for the
real Kivy app: ``xvfb-run`` gives one).

Path: slap rounds with known true times -> GPIO seats 1-4 on gpiozero's MockFactory
pins (the app's ``Table``, stamped as gpiozero stamps them) and pad seats 5-8 on the
real firmware (``firmware/core.py`` inside ``VirtualPad``, on a thread of its own as the
Pico on its own CPU) -> a real pseudo-terminal ->
real pyserial in ``PadSource`` (its own thread) -> ``PadBridge`` -> the real
``CompanionApp`` frame loop (``app._frame`` run by Kivy's clock) -> the slap screen
(``SlapScreen``, its ``SlapArbiter``, the pad's watermark) -> the verdict on screen.
Every verdict the screen shows in a round is kept: the first and any redone one.

Scenarios (each round: all eight seats slap within about 0.4 s, the last two at least
5 ms apart, unless the scenario says otherwise):

* ``clean``: nothing wrong.
* ``replug``: the pad's cable is pulled 30 ms after the first slap, back 0.5-3 s later.
* ``stalled link``: the link thread's hand-over to the queue stalls 0.5-4 s from the
  first slap on (every event it posts in that time waits, in order).
* ``lost frame + double slap``: the first frame of the last pad slapper's report is
  lost; that seat slaps again 40 ms later (the pad resends the first after 100 ms).
* ``release on another screen``: a GPIO seat's button goes down while the slap screen
  shows, is lifted while Home shows; back on the slap screen that seat slaps last.
* ``foreign boot frame``: a CRC-valid press frame with another boot number (and a
  report id already delivered) comes in the middle of the round.
* ``busy UI + GIL``: every frame the UI thread works 12 ms, and a CPU-bound thread
  contends for the GIL.
* ``held button``: a GPIO seat is held down from before the arm to after the verdict
  (it cannot be timed: the table must decide).
* ``fast taps``: GPIO seats tap for 8-15 ms, some twice (a hand, never chatter).
* ``chattering switch``: a GPIO seat's switch chatters in bursts (closings of 0.3 ms,
  stamped at their true times as the kernel stamps GPIO edges) and its player never
  slaps (the table must decide).
* ``pad opens the round``: nothing armed; the first slap, on the pad, opens the round
  (it must count in it, never be left out as "too close to the round's start").
* ``pad reboot mid-round``: two pad seats slap, then the pad restarts: the round is void
  and the table must be told; once the pad is back every seat slaps again, and that
  round is judged.
* ``crash mid-round``: two or three seats slap, then the game log is read as the box
  reads it after a crash (a second connection to the same file): the round kept there
  must be told at the restart, naming who had slapped. (tests/slap/test_round_crash.py
  kills a process with SIGKILL for the same check.)
* ``keyboard under load``: the seats are keys (the README's "try it without a Pi"), held
  80-200 ms, handled by the app's own key handler in its frames, with a GIL-bound
  thread and ``stress --cpu 2`` beside it when ``stress`` is installed.
* ``fast pad taps``: two pad seats tap for 15 ms, one of them also in the round before.

Printed per scenario: rounds; ``right`` (the final verdict names the true picker);
``table`` (the final verdict leaves it to the table); ``void told`` (a round voided or
cut short and the table told why, in words); ``void untold`` (voided or never judged
without a word); ``wrong certain`` (any verdict shown, first or redone, named someone
who is not the true picker); ``honest out`` (seats that really slapped but a verdict
shown left out of its ranking: an opener, a fast tapper, a key held 120 ms); ``redone``
(rounds whose verdict was redone by a late slap); pad presses delivered twice. Ends with
the totals ``wrong certain verdicts: N``, ``void untold: N`` and ``honest left out: N``
(0 wanted in each); exits 1 unless all three are 0.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

MS = 1_000_000
VERBOSE = False
GPIO_SEATS = (1, 2, 3, 4)
PAD_SEATS = (5, 6, 7, 8)
SCENARIOS = ("clean", "replug", "stalled link", "lost frame + double slap",
             "release on another screen", "foreign boot frame", "busy UI + GIL",
             "held button", "fast taps", "chattering switch", "pad opens the round",
             "pad reboot mid-round", "crash mid-round", "keyboard under load",
             "fast pad taps")
KEYS = {seat: str(seat) for seat in range(1, 9)}


@dataclass
class Tally:
    rounds: int = 0
    right: int = 0
    table: int = 0
    void_told: int = 0
    void_untold: int = 0
    wrong_certain: int = 0
    honest_out: int = 0
    redone: int = 0
    doubled: int = 0
    wrong: list = field(default_factory=list)


class Gate:
    """The link thread's hand-over to the queue, which a scenario can stall: events
    posted while it is shut wait, in order, until it opens."""

    def __init__(self) -> None:
        self.post = None
        self.shut_until = 0
        self.held: deque = deque()
        self.lock = threading.Lock()

    def wrap(self, post):
        self.post = post

        def gated(item):
            with self.lock:
                if time.monotonic_ns() < self.shut_until or self.held:
                    self.held.append(item)
                    return
            post(item)
        return gated

    def pump(self) -> None:
        with self.lock:
            if time.monotonic_ns() < self.shut_until:
                return
            items, self.held = list(self.held), deque()
        for item in items:
            self.post(item)


class Hands(threading.Thread):
    """The players' hands on the GPIO buttons: their own thread, on time to a fraction of
    a millisecond (as real hands are, whatever the UI thread is doing)."""

    def __init__(self) -> None:
        super().__init__(name="hands", daemon=True)
        self.todo: list = []
        self.order = itertools.count()
        self.cv = threading.Condition()
        self.stopping = False

    def at(self, host_ns: int, fn) -> None:
        with self.cv:
            heapq.heappush(self.todo, (host_ns, next(self.order), fn))
            self.cv.notify()

    @property
    def idle(self) -> bool:
        with self.cv:
            return not self.todo

    def run(self) -> None:
        while True:
            with self.cv:
                while not self.stopping and not self.todo:
                    self.cv.wait()
                if self.stopping:
                    return
                due = self.todo[0][0]
                wait = (due - time.monotonic_ns()) / 1e9
                if wait > 0.002:
                    self.cv.wait(wait - 0.001)
                    continue
                if wait > 0:
                    continue  # the last fraction of a ms: spin
                fn = heapq.heappop(self.todo)[2]
            fn()

    def stop(self) -> None:
        with self.cv:
            self.stopping = True
            self.cv.notify()


class Harness:
    def __init__(self, folder: Path, seed: int) -> None:
        from companion.ui.kivy_env import prepare

        prepare(folder / "kivy")
        from companion.config import load_config
        from companion.pad.bridge import PadBridge
        from companion.pad.source import PadSource
        from companion.pad.transport import Backoff
        from companion.pad.virtual import VirtualPad
        from companion.sound import SoundCues
        from companion.store.gamelog import GameLog
        from companion.table import Table
        from companion.ui.app import CompanionApp

        class Silent:
            def play(self):
                pass

            def stop(self):
                pass

        class Loader:
            @staticmethod
            def load(_path):
                return Silent()

        self.rng = random.Random(seed)
        self.actions: list = []
        self._order = itertools.count()
        self.shown: list = []
        self.screen = None
        cfg = load_config()
        self.cfg = cfg
        self.app = app = CompanionApp(cfg, GameLog(folder / "games.sqlite3"),
                                      Table.from_config(cfg, "mock"),
                                      SoundCues(folder / "sounds", loader=Loader()))
        app.frame_pacing = False
        app._run_prepare()
        self.pad = VirtualPad(seats=8, link=folder / "slap-pad", seed=seed)
        self.pad.serve()  # its own thread, as the Pico has its own CPU
        self.gate = Gate()
        self.delivered: dict[tuple, int] = {}
        self.bridge = PadBridge(lambda port, post: PadSource(
            port, self.gate.wrap(self._count(post)), backoff=Backoff(0.02, 0.2)),
            str(self.pad.path))
        app.pad = self.bridge
        self.bridge.start()
        self.frames(until=lambda: self.bridge.source.status.state == "ready", seconds=10)
        screen = app.sm.get_screen("slap")
        screen.tools.seats = tuple(range(1, 9))
        app.navigate("slap")
        self.frames(seconds=0.1)
        self.screen = screen
        assert screen.round.seats == tuple(range(1, 9)), screen.round.seats
        self.voided = False
        self.hands = Hands()
        self.hands.start()
        self.stamps: dict[int, int] = {}  # seat -> stamp of its latest GPIO press
        for watcher in app.table.buttons.watchers.values():
            watcher._post = self._stamp(watcher._post)
        self._drop_stamp = None
        self.log_path = folder / "games.sqlite3"
        self.told: list[str] = []  # what the banner was asked to tell this round
        real_pad_event, real_tell = screen.pad_event, app.tell

        def pad_event(notice):
            voided = real_pad_event(notice)
            self.voided = self.voided or voided
            return voided

        def tell(text, cause=""):
            self.told.append(text)
            real_tell(text, cause)
        screen.pad_event, app.tell = pad_event, tell
        real_send = self.pad._send

        def send(frames):  # "lost frame": the first send of one report never arrives
            keep = []
            for frame in frames:
                if (self._drop_stamp is not None and len(frame) >= 20 and frame[3] == 0x82
                        and int.from_bytes(frame[12:20], "little") == self._drop_stamp):
                    self._drop_stamp = None
                    continue
                keep.append(frame)
            real_send(keep)
        self.pad._send = send

    def _stamp(self, post):
        def stamping(event):
            if event.pressed:
                self.stamps[event.seat] = event.t_ns
            post(event)
        return stamping

    def _count(self, post):
        from companion.pad.link import PadPress

        def counting(item):
            if isinstance(item, PadPress) and not getattr(item, "untimed", False):
                key = (item.clock, item.seat, item.t_ns, item.pressed)
                self.delivered[key] = self.delivered.get(key, 0) + 1
            post(item)
        return counting

    # -- time ---------------------------------------------------------------------------
    def at(self, host_ns: int, fn) -> None:
        heapq.heappush(self.actions, (host_ns, next(self._order), fn))

    def frame(self) -> None:
        from kivy.base import EventLoop

        now = time.monotonic_ns()
        while self.actions and self.actions[0][0] <= now:
            heapq.heappop(self.actions)[2]()
        self.pad.step()
        self.gate.pump()
        EventLoop.idle()
        verdict = self.screen.round.verdict if self.screen is not None else None
        if verdict is not None and (not self.shown or self.shown[-1] is not verdict):
            self.shown.append(verdict)
        self.pad.wait(0.001)

    def frames(self, until=lambda: False, seconds: float = 5.0) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.frame()
            if until():
                return True
        return False

    def pad_host_ns(self, at_us: int) -> int:
        """The host time the pad clock shows ``at_us`` at (the virtual pad's clock is the
        host's monotonic clock since its boot)."""
        return self.pad._mono0 + (at_us - self.pad._base_us) * 1000

    # -- seats ----------------------------------------------------------------------------
    def pin(self, seat: int):
        return self.app.table.factory.pin(self.cfg.seat(seat).button_pin)

    def gpio_tap(self, seat: int, at_ns: int, hold_ns: int, truth: dict, first=True) -> None:
        def down():
            self.pin(seat).drive_low()
            pressed_at = self.stamps[seat]  # the edge's own stamp (set inside drive_low)
            if first:
                truth[seat] = pressed_at
            # let go ``hold_ns`` after the press, however late the press came
            self.hands.at(pressed_at + hold_ns, lambda: self.pin(seat).drive_high())
        self.hands.at(at_ns, down)

    def key_tap(self, seat: int, at_ns: int, hold_ns: int, truth: dict) -> None:
        """A key held ``hold_ns`` from ``at_ns`` (its true time), handled by the app's own
        key handler when its frame comes, as Kivy hands it the window's key events."""
        key = KEYS[seat]
        truth[seat] = at_ns
        self.at(at_ns, lambda: self.app._on_key_down(None, ord(key), 0, key, []))
        self.at(at_ns + hold_ns, lambda: self.app._on_key_up(None, ord(key), 0))

    def burst(self, seat: int, closings: int) -> None:
        """A worn contact's burst: closings of 0.3 ms, 0.4 ms apart, each edge stamped at
        its true time, as the Pi's kernel stamps a GPIO edge (lgpio) however late the
        process reads it. (Driving the mock pin from a Python thread instead stamps the
        edges when that thread runs, and the GIL stretches a 0.3 ms closing to several
        ms: a switch no Pi would see.)"""
        from companion.events import PressEvent

        t = time.monotonic_ns()
        post = self.app.table.queue.post
        for k in range(closings):
            down = t + k * 700_000
            post(PressEvent(seat, down, "mock", True))
            post(PressEvent(seat, down + 300_000, "mock", False))

    def pad_tap(self, seat: int, at_ns: int, hold_ns: int, truth: dict, first=True) -> int:
        at_us = self.pad.clock_us() + (at_ns - time.monotonic_ns()) // 1000
        self.pad.tap(seat, at_us, hold_us=hold_ns // 1000, bounces=self.rng.randint(0, 2))
        stamp = self.pad.stamp_for(at_us) * 1000
        if first:
            truth[seat] = self.pad_host_ns(stamp // 1000)
        return stamp


class Scenario:
    def __init__(self, h: Harness, name: str) -> None:
        self.h, self.name = h, name
        self.tally = Tally()
        self.reboot_told = False

    def plan(self) -> list[tuple[int, int]]:
        """(seat, offset ms) for all eight seats, in slap order; the last two 5 ms or
        more apart."""
        rng = self.h.rng
        seats = list(range(1, 9))
        rng.shuffle(seats)
        t, out = 0.0, []
        for k, seat in enumerate(seats):
            t += rng.uniform(5, 25) if k == len(seats) - 1 else rng.uniform(0.5, 50)
            out.append((seat, t))
        return out

    def one_round(self) -> None:
        h, rng, name = self.h, self.h.rng, self.name
        screen, app = h.screen, h.app
        truth: dict[int, int] = {}
        never: set[int] = set()
        plan = self.plan()
        if name == "release on another screen":
            seat = rng.choice(GPIO_SEATS)
            plan = [p for p in plan if p[0] != seat] + [(seat, plan[-1][1] + rng.uniform(5, 30))]
            h.pin(seat).drive_low()
            h.frames(seconds=0.05)
            app.navigate("home")
            h.frames(seconds=0.05)
            h.pin(seat).drive_high()  # lifted while Home shows
            h.frames(seconds=0.05)
            app.navigate("slap")
            h.frames(seconds=0.05)
        held = None
        if name == "held button":
            held = rng.choice(GPIO_SEATS)
            never.add(held)
            plan = [p for p in plan if p[0] != held]
            h.pin(held).drive_low()
            h.frames(seconds=0.05)
        chatter = None
        if name == "chattering switch":
            chatter = GPIO_SEATS[-1]  # the same worn switch all along
            never.add(chatter)
            plan = [p for p in plan if p[0] != chatter]
        fast = ()
        if name == "fast pad taps":
            fast = tuple(rng.sample(PAD_SEATS, 2))
            # one of them taps in the round before (the table's last, judged or not)
            t = time.monotonic_ns() + 20 * MS
            h.pad_tap(fast[0], t, 15 * MS, {}, first=False)
            h.frames(until=lambda: time.monotonic_ns() > t + 400 * MS, seconds=2)
        h.shown, h.voided, h.told = [], False, []
        if name == "pad opens the round":  # nothing armed: the first slap, a pad seat's
            opener = rng.choice(PAD_SEATS)
            rest = [p for p in plan if p[0] != opener]
            plan = [(opener, plan[0][1])] + [(seat, max(ms, plan[0][1] + 0.5))
                                             for seat, ms in rest]
            plan.sort(key=lambda p: p[1])
        else:
            screen.arm()
        t0 = time.monotonic_ns() + 150 * MS
        if name == "pad reboot mid-round":
            voided_truth: dict[int, int] = {}
            for k, seat in enumerate(rng.sample(PAD_SEATS, 2)):
                h.pad_tap(seat, t0 + k * 30 * MS, 50 * MS, voided_truth)
            # both reports sent and acknowledged (the host may still hold them for a
            # clock fit): the pad restarts well inside the round's 2.5 s
            h.frames(until=lambda: (time.monotonic_ns() > t0 + 100 * MS
                                    and not h.pad.firmware.pad.queue), seconds=2)
            h.pad.reboot()
            h.frames(until=lambda: (h.bridge.source.status.state == "ready"
                                    and any("does not count" in t for t in h.told)),
                     seconds=10)
            h.frames(seconds=0.3)
            # told or not, the table slaps again: that round is judged as any other
            self.reboot_told = h.voided and any("does not count" in t for t in h.told)
            h.voided, h.told = False, []
            t0 = time.monotonic_ns() + 150 * MS
        self.slap(plan, t0, truth)
        first_ns = t0 + round(plan[0][1] * MS)
        if chatter is not None:
            for k in range(3):
                start = first_ns - 100 * MS + k * rng.randint(150, 300) * MS
                closings = rng.randint(3, 6)
                h.hands.at(start, lambda s=chatter, n=closings: h.burst(s, n))
        if name == "replug":
            back = rng.uniform(0.5, 3.0)
            h.at(first_ns + 30 * MS, h.pad.unplug)
            h.at(first_ns + 30 * MS + round(back * 1e9), h.pad.replug)
        if name == "stalled link":
            span = rng.uniform(0.5, 4.0)

            def stall():
                h.gate.shut_until = time.monotonic_ns() + round(span * 1e9)
            h.at(first_ns, stall)
        if name == "foreign boot frame":
            def forge():
                from companion.pad import codec

                nonce = h.pad.nonce ^ 0x5A5A5A5A
                msg = codec.Press(nonce, 1, 0, 0, 1 << (PAD_SEATS[0] - 1), 0, 100_000)
                h.pad._write(codec.encode_message(77, msg))
            h.at(first_ns + 20 * MS, forge)
        if name == "crash mid-round":
            h.frames(until=lambda: len(screen.round.live) >= 2, seconds=5)
            self.judge_crash(dict(screen.round.live))
            screen.cancel()
            h.frames(until=lambda: not h.actions and h.hands.idle, seconds=3)
            h.frames(seconds=0.15)
            return
        end = t0 + round(plan[-1][1] * MS) + 300 * MS

        def settled():
            return (time.monotonic_ns() > end and not h.actions and h.hands.idle
                    and not h.gate.held
                    and not h.pad.firmware.pad.queue and screen.round.arbiter is not None
                    and not getattr(screen.round.arbiter, "unsettled", False)
                    and (h.voided or (screen.round.verdict is not None
                                      and time.monotonic_ns() > end + 400 * MS)))
        h.frames(until=settled, seconds=12)
        h.frames(seconds=0.2)  # anything still on its way shows now
        if held is not None:
            h.pin(held).drive_high()
        self.judge(truth, never, h.shown, h.voided, h.told)
        screen.cancel()
        h.frames(seconds=0.15)

    def slap(self, plan: list[tuple[int, float]], t0: int, truth: dict) -> None:
        """Every seat of ``plan`` slaps ``ms`` after ``t0``, on its GPIO button, its pad
        button or (``keyboard under load``) its key."""
        h, rng, name = self.h, self.h.rng, self.name
        last_pad = max((p for p in plan if p[0] in PAD_SEATS), key=lambda p: p[1])[0]
        for seat, ms in plan:
            at = t0 + round(ms * MS)
            hold = rng.randint(30, 90) * MS
            if name == "keyboard under load":
                h.key_tap(seat, at, rng.randint(80, 200) * MS, truth)
                continue
            if name == "fast taps" and seat in GPIO_SEATS:
                hold = rng.randint(8, 15) * MS
                if rng.random() < 0.5:
                    h.gpio_tap(seat, at + hold + rng.randint(40, 80) * MS,
                               rng.randint(8, 15) * MS, truth, first=False)
            if name == "fast pad taps" and seat in PAD_SEATS:
                hold = 15 * MS
            if seat in GPIO_SEATS:
                h.gpio_tap(seat, at, hold, truth)
            else:
                stamp = h.pad_tap(seat, at, hold, truth)
                if name == "lost frame + double slap" and seat == last_pad:
                    h._drop_stamp = stamp
                    h.pad_tap(seat, at + hold + 40 * MS, 30 * MS, truth, first=False)

    def judge_crash(self, slapped: dict[int, int]) -> None:
        """The round as a box restarted now would find it in its log, and what it tells."""
        import sqlite3

        from companion.slap.round import KEPT_ROUND, interrupted_text

        t = self.tally
        t.rounds += 1
        db = sqlite3.connect(f"file:{self.h.log_path}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM settings WHERE key = ?",
                             (KEPT_ROUND,)).fetchone()
        finally:
            db.close()
        kept = json.loads(row[0]) if row else None
        text = interrupted_text(kept) if isinstance(kept, dict) else ""
        names = self.h.screen.round.names
        told = bool(text) and all((names.get(s) or f"Seat {s}") in text for s in slapped)
        t.void_told += told
        t.void_untold += not told
        if VERBOSE and not told:
            print(f"    crash: slapped {sorted(slapped)}, kept {kept}, told {text!r}")

    def judge(self, truth: dict[int, int], never: set[int], shown: list, voided: bool,
              told: list[str]) -> None:
        t = self.tally
        t.rounds += 1
        if never:
            picker = min(never) if len(never) == 1 else None
        else:
            picker = max(truth, key=truth.get)
        for v in shown:
            if v.certain and v.picker != picker:
                t.wrong_certain += 1
                t.wrong.append((dict(truth), v.summary()))
                break
        honest = set(truth) - never
        t.honest_out += max((len(honest - {e.seat for e in v.ranking}) for v in shown),
                            default=0)
        t.redone += len(shown) > 1
        if self.name == "pad reboot mid-round":  # the first try: voided and told?
            t.void_told += self.reboot_told
            t.void_untold += not self.reboot_told
        if voided:  # the table must have been told why
            said = any("does not count" in text for text in told)
            t.void_told += said
            t.void_untold += not said
        if not shown:
            t.void_untold += not voided
            return
        final = shown[-1]
        if final.certain and final.picker == picker:
            t.right += 1
        elif not final.certain:
            t.table += 1
        if VERBOSE and (not (final.certain and final.picker == picker)
                        or any(honest - {e.seat for e in v.ranking} for v in shown)):
            order = sorted(truth, key=truth.get)
            gaps = [round((truth[b] - truth[a]) / 1e6, 3)
                    for a, b in zip(order, order[1:], strict=False)]
            print(f"    {self.name}: truth {order} gaps ms {gaps} picker {picker}; shown: "
                  + " | ".join(v.summary() for v in shown))

    def run(self, rounds: int) -> Tally:
        h = self.h
        stop = threading.Event()
        spinner = None
        busy_event = None
        stress = None

        def spin():  # a thread that wants the GIL all the time
            while not stop.is_set():
                sum(range(2000))
        watchers = h.app.table.buttons.watchers.values()
        if self.name == "keyboard under load":  # the keys as `make run` stamps them
            for watcher in watchers:
                watcher.source = "keyboard"
            spinner = threading.Thread(target=spin, daemon=True)
            spinner.start()
            if shutil.which("stress"):
                stress = subprocess.Popen(["stress", "--cpu", "2", "--timeout", "600"],
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
        if self.name == "busy UI + GIL":
            from kivy.clock import Clock

            def busy(_dt):
                end = time.perf_counter() + 0.012
                while time.perf_counter() < end:
                    pass
            busy_event = Clock.schedule_interval(busy, 0)
            spinner = threading.Thread(target=spin, daemon=True)
            spinner.start()
        before = dict(h.delivered)
        try:
            for _ in range(rounds):
                self.one_round()
        finally:
            stop.set()
            for watcher in watchers:
                watcher.source = "mock"
            if stress is not None:
                stress.terminate()
                stress.wait()
            if spinner is not None:
                spinner.join()
            if busy_event is not None:
                busy_event.cancel()
        self.tally.doubled = sum(n - before.get(k, 0) - 1 for k, n in h.delivered.items()
                                 if n - before.get(k, 0) > 1)
        return self.tally


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--only", default=None, help="one scenario by name")
    parser.add_argument("--verbose", action="store_true", help="each round not right")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    names = [n for n in SCENARIOS if args.only in (None, n)]
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(Path(tmp), args.seed)
        try:
            print(f"{'scenario':28} {'rounds':>6} {'right':>6} {'table':>6} "
                  f"{'void told':>9} {'void untold':>11} {'wrong certain':>13} "
                  f"{'honest out':>10} {'redone':>6} {'doubled':>7}")
            wrong = untold = out = 0
            for name in names:
                t0 = time.monotonic()
                tally = Scenario(h, name).run(args.rounds)
                wrong += tally.wrong_certain
                untold += tally.void_untold
                out += tally.honest_out
                print(f"{name:28} {tally.rounds:6} {tally.right:6} {tally.table:6} "
                      f"{tally.void_told:9} {tally.void_untold:11} {tally.wrong_certain:13} "
                      f"{tally.honest_out:10} {tally.redone:6} {tally.doubled:7}   "
                      f"({time.monotonic() - t0:.0f} s)", flush=True)
                for truth, said in tally.wrong[:3]:
                    print(f"    wrong: {said} truth {truth}")
        finally:
            h.hands.stop()
            h.bridge.stop()
            h.pad.close()
            h.app.table.close()
            h.app.log.close()
    print(f"wrong certain verdicts: {wrong}")
    print(f"void untold: {untold}")
    print(f"honest left out: {out}")
    return 1 if wrong or untold or out else 0


if __name__ == "__main__":
    sys.exit(main())
