"""A whole night of the pad link in seconds: the real firmware and the real link on a
simulated USB wire, with a pad crystal that runs off, steps and restarts.

What it is for: the drift test and ``bench/pad_link.py``'s drifting-clock run. Nothing
sleeps and no thread runs: time is an injected host clock that jumps from one event to
the next (a heartbeat due, a frame arriving, a slap). The firmware (``firmware/core.py``
on a ``FakeHal`` with PIO capture) and ``PadLink`` are the product's own code; the wire
delays each frame by a random one-way time (in order, as USB does) and can hold a reply
back (a huge round trip), drop heartbeats, or carry a stranger's frames. What the link
posts goes into a ``PadBridge`` exactly as ``PadSource`` would post it.

The pad's clock: ``pad_ns(host) = pad0 + (host - host0) * (1 + ppm / 1e6) + steps``.
``set_ppm`` changes the rate from now on; ``step_clock(delta_ns)`` steps it without a new
boot (a wrapped counter, a reset the host did not see).

How to wire it::

    sim = WireSim(ppm=50, seed=1)
    sim.run_until(sim.host_ns + 5 * SECOND)            # handshake and first heartbeats
    truth = sim.slap(3, at_host_ns=sim.host_ns + 200 * MS)   # returns the true time
    sim.run_until(sim.host_ns + SECOND)
    for item in sim.take(): ...    # what the UI drained from the bridge: PadPress in host
                                   # time, LinkStatus, PadRebooted, PadVoid
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable

from companion.pad import codec
from companion.pad.bridge import PadBridge
from companion.pad.fakehal import FakeHal, load_firmware
from companion.pad.link import LinkTiming, PadLink

MS = 1_000_000
SECOND = 1_000_000_000
TO_PAD, TO_HOST = "to pad", "to host"


class _Posted:
    """The bridge's "source": the simulation posts into it."""

    def __init__(self, port: object, post: Callable[[object], None]) -> None:
        self.post = post
        self.resolution_ns = 0

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


class WireSim:
    def __init__(self, seats: int = 8, *, ppm: float = 0.0, seed: int = 0,
                 timing: LinkTiming | None = None, delay_ns: tuple[int, int] = (60_000, 450_000),
                 host0_ns: int = 1_000 * SECOND, pad0_ns: int = 0,
                 capture: str = "pio") -> None:
        self.rng = random.Random(seed)
        self.fw_modules = load_firmware()
        self.seats = seats
        self.capture = capture
        self.delay_ns = delay_ns
        self.host_ns = host0_ns
        self._host0, self._pad0, self._rate, self._step = host0_ns, pad0_ns, 1 + ppm * 1e-6, 0
        self.link = PadLink(timing)
        self.bridge = PadBridge(_Posted, None, host_clock=lambda: self.host_ns)
        self._order = itertools.count()
        self._flight: list[tuple[int, int, str, bytes]] = []
        self._last_arrival = {TO_PAD: 0, TO_HOST: 0}
        self._actions: list[tuple[int, int, Callable[[], None]]] = []
        self._pad_poll_at: int | None = None
        self._inputs = 0
        self.spike_rate = 0.0  # share of pad frames held back 20-200 ms (a huge round trip)
        self.spike_ns = (20 * MS, 200 * MS)
        self.answer_heartbeats = True
        #: if set, ``delay_for(direction)`` gives each frame's one-way time instead of
        #: ``delay_ns`` (``TO_PAD`` or ``TO_HOST``): a wire that waits one way only
        self.delay_for: Callable[[str], int] | None = None
        self.reconnects: list[str] = []
        self.received: list[object] = []  # drained from the bridge, as the UI does
        self.boots = 0
        self._boot()
        self.link.opened("/dev/sim-pad", self.host_ns, "simulated wire")
        self._after_link()

    # ---- the pad's clock ---------------------------------------------------------
    def pad_ns(self, host_ns: int) -> int:
        return self._pad0 + self._step + round((host_ns - self._host0) * self._rate)

    def set_ppm(self, ppm: float) -> None:
        now = self.pad_ns(self.host_ns)
        self._host0, self._pad0, self._step = self.host_ns, now, 0
        self._rate = 1 + ppm * 1e-6

    def step_clock(self, delta_ns: int) -> None:
        """The pad's clock jumps by ``delta_ns`` (negative: back) with no new boot."""
        self._step += delta_ns
        self.hal.jump(max(0, self.pad_ns(self.host_ns)) // 1000)

    def reboot(self) -> None:
        """A real restart: new nonce, report numbers and clock from 0."""
        self._host0, self._pad0, self._step = self.host_ns, 0, 0
        self._boot()

    def _boot(self) -> None:
        self.hal = FakeHal(self.seats, max(0, self.pad_ns(self.host_ns)) // 1000,
                           rng=random.Random(self.rng.getrandbits(64)), capture=self.capture)
        self.fw = self.fw_modules.core.Firmware(self.hal, service_every=1)
        self.hal.set_seats(self._inputs)
        self.boots += 1

    # ---- slaps --------------------------------------------------------------------
    def slap(self, seat: int, at_host_ns: int, hold_ns: int = 60 * MS) -> int:
        """Seat ``seat`` presses at true host time ``at_host_ns`` and releases
        ``hold_ns`` later; returns ``at_host_ns`` (the truth the mapping must find)."""
        self.at(at_host_ns, lambda: self._set_seat(seat, True))
        self.at(at_host_ns + hold_ns, lambda: self._set_seat(seat, False))
        return at_host_ns

    def _set_seat(self, seat: int, pressed: bool) -> None:
        bit = 1 << (seat - 1)
        self._inputs = (self._inputs | bit) if pressed else (self._inputs & ~bit)
        self._pad_time()
        self.hal.set_seats(self._inputs, at_ns=self.pad_ns(self.host_ns))
        self._poll_pad()
        soon = self.host_ns + MS  # the PIO's next sample may still be ahead: look again
        self._pad_poll_at = soon if self._pad_poll_at is None else min(self._pad_poll_at, soon)

    def at(self, host_ns: int, action: Callable[[], None]) -> None:
        """Run ``action`` when the simulation reaches ``host_ns``."""
        heapq.heappush(self._actions, (host_ns, next(self._order), action))

    def take(self) -> list[object]:
        """What the bridge delivered since the last call."""
        out, self.received = self.received, []
        return out

    def from_pad(self, data: bytes) -> None:
        """Bytes on the wire as if the pad had sent them (a stranger, a broken pad)."""
        self._send(TO_HOST, data)

    # ---- running ------------------------------------------------------------------
    def run_until(self, end_ns: int) -> None:
        """Run every event up to host time ``end_ns``; then the clock reads ``end_ns``."""
        stuck = 0
        while True:
            due = [self.link.next_deadline(self.host_ns)]
            if self._flight:
                due.append(self._flight[0][0])
            if self._actions:
                due.append(self._actions[0][0])
            if self._pad_poll_at is not None:
                due.append(self._pad_poll_at)
            t = min(due)
            if t > end_ns:
                self.host_ns = end_ns
                return
            if t <= self.host_ns:
                stuck += 1
                if stuck > 100:  # a deadline that does not move: let time move instead
                    t = self.host_ns + 1_000
            else:
                stuck = 0
            self.host_ns = max(self.host_ns, t)
            self._step_once()

    def _step_once(self) -> None:
        now = self.host_ns
        while self._actions and self._actions[0][0] <= now:
            heapq.heappop(self._actions)[2]()
        while self._flight and self._flight[0][0] <= now:
            _, _, where, data = heapq.heappop(self._flight)
            if where == TO_PAD:
                self.hal.feed_rx(data)
                self._poll_pad()
            else:
                self.link.feed(data, now)
        if self._pad_poll_at is not None and self._pad_poll_at <= now:
            self._pad_poll_at = None
            self._poll_pad()
        self.link.poll(now)
        self._after_link()

    def _pad_time(self) -> None:
        pad_us = max(0, self.pad_ns(self.host_ns)) // 1000
        if pad_us >= self.hal.now_us():
            self.hal.set_time(pad_us)

    def _poll_pad(self) -> None:
        self._pad_time()
        self.fw.poll()
        for frame in self.hal.take_tx():
            self._send(TO_HOST, frame)
        if self.fw.pad.queue or self.fw.levels != self.fw.pad.state:
            # Reports wait for their ACK, or a change waits for its hold-off to end: the
            # firmware's loop would be round again long before; so is the simulation.
            self._pad_poll_at = self.host_ns + 2 * MS

    def _send(self, where: str, data: bytes) -> None:
        if where == TO_PAD and not self.answer_heartbeats:
            data = b"".join(self._not_heartbeats(data))
            if not data:
                return
        delay = (self.delay_for(where) if self.delay_for is not None
                 else self.rng.randint(*self.delay_ns))
        if where == TO_HOST and self.spike_rate and self.rng.random() < self.spike_rate:
            delay += self.rng.randint(*self.spike_ns)
        arrival = max(self.host_ns + delay, self._last_arrival[where])
        self._last_arrival[where] = arrival
        heapq.heappush(self._flight, (arrival, next(self._order), where, data))

    @staticmethod
    def _not_heartbeats(data: bytes):
        if data.startswith(codec.PROBE_START):  # the handshake's probe text: not a frame
            yield data
            return
        for frame in codec.FrameDecoder().feed(data):
            if frame.type != codec.HEARTBEAT:
                yield codec.encode_frame(frame.seq, frame.type, frame.payload)

    def _after_link(self) -> None:
        out = self.link.take_output()
        if out:
            self._send(TO_PAD, out)
        events = self.link.take_events()
        if events:
            for event in events:
                self.bridge.queue.post(event)
            self.received += self.bridge.drain()  # the UI drains every frame
        if self.link.reconnect_reason is not None:  # the port is closed and opened again
            reason = self.link.reconnect_reason
            self.reconnects.append(reason)
            self.link.closed(self.host_ns, reason)
            self.link.opened("/dev/sim-pad", self.host_ns, "simulated wire")
            self._after_link()
