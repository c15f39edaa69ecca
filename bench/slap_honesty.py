"""Benchmark: does Stop Time ever name the wrong player? Measured through the whole path.

Run: ``PYTHONPATH=. xvfb-run -a python bench/slap_honesty.py [--rounds N] [--seed S]
[--only NAME] [--verbose]``
(about two minutes with the default 12 rounds per scenario; it needs a display for the
real Kivy app: ``xvfb-run`` gives one).

Path: slap rounds with known true times -> GPIO seats 1-4 on gpiozero's MockFactory
pins (the app's ``Table``, stamped as gpiozero stamps them) and pad seats 5-8 on the
real firmware (``firmware/core.py`` inside ``VirtualPad``) -> a real pseudo-terminal ->
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
  each burst made in one go on the hands' thread) and its player never slaps (the table
  must decide).

Printed per scenario: rounds; ``right`` (the final verdict names the true picker);
``table`` (the final verdict leaves it to the table); ``void`` (the round was voided);
``wrong certain`` (any verdict shown, first or redone, named someone who is not the true
picker: must be 0); ``redone`` (rounds whose verdict was redone by a late slap); pad
presses delivered twice. Exits 1 if any wrong certain verdict was shown.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import random
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
             "held button", "fast taps", "chattering switch")


@dataclass
class Tally:
    rounds: int = 0
    right: int = 0
    table: int = 0
    void: int = 0
    wrong_certain: int = 0
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
        real_void = screen.void_round

        def void(why=""):
            if screen.round.phase in ("armed", "open"):
                self.voided = True
            real_void(why)
        screen.void_round = void
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

    def burst(self, seat: int, closings: int) -> None:
        """A worn contact's burst: closings of 0.3 ms, 0.4 ms apart, in one go (the
        contact does not wait for the GIL, so neither does its model)."""
        pin = self.pin(seat)
        for _ in range(closings):
            pin.drive_low()
            end = time.perf_counter_ns() + 300_000
            while time.perf_counter_ns() < end:
                pass
            pin.drive_high()
            end = time.perf_counter_ns() + 400_000
            while time.perf_counter_ns() < end:
                pass

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
        h.shown, h.voided = [], False
        screen.arm()
        t0 = time.monotonic_ns() + 150 * MS
        last_pad = max((p for p in plan if p[0] in PAD_SEATS), key=lambda p: p[1])[0]
        for seat, ms in plan:
            at = t0 + round(ms * MS)
            hold = rng.randint(30, 90) * MS
            if name == "fast taps" and seat in GPIO_SEATS:
                hold = rng.randint(8, 15) * MS
                if rng.random() < 0.5:
                    h.gpio_tap(seat, at + hold + rng.randint(40, 80) * MS,
                               rng.randint(8, 15) * MS, truth, first=False)
            if seat in GPIO_SEATS:
                h.gpio_tap(seat, at, hold, truth)
            else:
                stamp = h.pad_tap(seat, at, hold, truth)
                if name == "lost frame + double slap" and seat == last_pad:
                    h._drop_stamp = stamp
                    h.pad_tap(seat, at + hold + 40 * MS, 30 * MS, truth, first=False)
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
        self.judge(truth, never, h.shown, h.voided)
        screen.cancel()
        h.frames(seconds=0.15)

    def judge(self, truth: dict[int, int], never: set[int], shown: list, voided: bool) -> None:
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
        t.redone += len(shown) > 1
        if voided or not shown:
            t.void += 1
            return
        final = shown[-1]
        if final.certain and final.picker == picker:
            t.right += 1
        elif not final.certain:
            t.table += 1
        if VERBOSE and not (final.certain and final.picker == picker):
            order = sorted(truth, key=truth.get)
            gaps = [round((truth[b] - truth[a]) / 1e6, 3)
                    for a, b in zip(order, order[1:], strict=False)]
            print(f"    {self.name}: truth {order} gaps ms {gaps} picker {picker}; shown: "
                  + " | ".join(v.summary() for v in shown))
            arb = self.h.screen.round.arbiter
            for seat, why in final.excluded:
                st = arb._st[seat]
                print(f"      seat {seat} {why}: before {st.before and st.before[:2]} edges "
                      + ", ".join(f"{(e[0] - arb._arm_ns) / 1e6:.3f}{'v' if e[1] else '^'}"
                                  f"{type(e[2]).__name__[:3]}" for e in st.edges))

    def run(self, rounds: int) -> Tally:
        h = self.h
        stop = threading.Event()
        spinner = None
        busy_event = None
        if self.name == "busy UI + GIL":
            from kivy.clock import Clock

            def busy(_dt):
                end = time.perf_counter() + 0.012
                while time.perf_counter() < end:
                    pass
            busy_event = Clock.schedule_interval(busy, 0)

            def spin():
                while not stop.is_set():
                    sum(range(2000))
            spinner = threading.Thread(target=spin, daemon=True)
            spinner.start()
        before = dict(h.delivered)
        try:
            for _ in range(rounds):
                self.one_round()
        finally:
            stop.set()
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
            print(f"{'scenario':28} {'rounds':>6} {'right':>6} {'table':>6} {'void':>5} "
                  f"{'wrong certain':>13} {'redone':>6} {'doubled':>7}")
            bad = 0
            for name in names:
                t0 = time.monotonic()
                tally = Scenario(h, name).run(args.rounds)
                bad += tally.wrong_certain
                print(f"{name:28} {tally.rounds:6} {tally.right:6} {tally.table:6} "
                      f"{tally.void:5} {tally.wrong_certain:13} {tally.redone:6} "
                      f"{tally.doubled:7}   ({time.monotonic() - t0:.0f} s)", flush=True)
                for truth, said in tally.wrong[:3]:
                    print(f"    wrong: {said} truth {truth}")
        finally:
            h.hands.stop()
            h.bridge.stop()
            h.pad.close()
            h.app.table.close()
            h.app.log.close()
    print("wrong certain verdicts:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
