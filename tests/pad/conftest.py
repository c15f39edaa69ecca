"""Shared rigs for the pad tests: the link against the real firmware, in one process."""

import random

import pytest

from companion.events import PressEvent
from companion.pad.fakehal import FakeHal, load_firmware
from companion.pad.link import LinkStatus, LinkTiming, PadLink, PadRebooted

FW = load_firmware()


class Loopback:
    """PadLink <-> firmware core over in-memory "wires", stepped in 1 ms ticks of one
    shared fake clock (host ns; the pad clock is ``start_us`` + host µs). Faults apply
    per frame (pad to host: drop/dup) and per byte (both ways: corrupt)."""

    def __init__(self, seats=4, start_us=0, seed=0, timing=None, proto_version=None):
        self.rng = random.Random(seed)
        self.seats = seats
        self.host_ns = 1_000_000_000
        self.link = PadLink(timing or LinkTiming())
        self.drop = self.dup = self.corrupt = self.drop_to_pad = 0.0
        self.connected = True  # the wire carries bytes
        self.events = []
        self.boot(start_us, proto_version)
        self.link.opened("/dev/loop", self.host_ns)

    def boot(self, start_us=0, proto_version=None):
        self.start_us = start_us
        self.base_ns = self.host_ns
        self.hal = FakeHal(self.seats, start_us, rng=random.Random(self.rng.getrandbits(32)))
        kwargs = {"proto_version": proto_version} if proto_version else {}
        self.fw = FW.core.Firmware(self.hal, service_every=1, **kwargs)

    @property
    def pad_us(self):
        return self.start_us + (self.host_ns - self.base_ns) // 1000

    def _corrupt(self, data):
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < self.corrupt:
                out[i] ^= self.rng.randrange(1, 256)
        return bytes(out)

    def run(self, ms, until=None):
        """Advance ``ms`` milliseconds (stop early when ``until()`` is true)."""
        for _ in range(ms):
            self.host_ns += 1_000_000
            self.hal.set_time(self.pad_us)
            self.fw.poll()
            wire = bytearray()
            for frame in self.hal.take_tx():
                if self.rng.random() < self.drop:
                    continue
                copies = 2 if self.rng.random() < self.dup else 1
                wire += self._corrupt(frame) * copies
            if self.connected and wire:
                self.link.feed(bytes(wire), self.host_ns)
            self.link.poll(self.host_ns)
            out = self.link.take_output()
            if self.connected and out and self.rng.random() >= self.drop_to_pad:
                self.hal.feed_rx(self._corrupt(out))
            self.events += self.link.take_events()
            if until is not None and until():
                return True
        return False

    def close(self, reason):
        self.link.closed(self.host_ns, reason)
        self.events += self.link.take_events()

    def slap(self, seat, hold_ms=60):
        self.hal.set_seats(self.hal.read_seats() | (1 << (seat - 1)))
        self.run(1)
        t_ns = self.hal.now_us() * 1000
        self.run(hold_ms)
        self.hal.set_seats(self.hal.read_seats() & ~(1 << (seat - 1)))
        return t_ns

    def presses(self):
        return [e for e in self.events if isinstance(e, PressEvent) and e.pressed]

    def statuses(self):
        return [e for e in self.events if isinstance(e, LinkStatus)]

    def reboots(self):
        return [e for e in self.events if isinstance(e, PadRebooted)]


@pytest.fixture
def loopback():
    return Loopback


class EndToEnd:
    """A VirtualPad on a real pseudo-terminal and a PadSource reading it with real
    pyserial on its own thread; ``drive`` runs the pad in real time until a condition
    holds or a deadline passes (no fixed sleeps: it waits on the pty with select)."""

    def __init__(self, tmp_path, timing=None, **pad_kwargs):
        from companion.events import EventQueue
        from companion.pad.source import PadSource
        from companion.pad.transport import Backoff
        from companion.pad.virtual import VirtualPad

        self.pad = VirtualPad(link=tmp_path / "slap-pad", **pad_kwargs)
        self.queue = EventQueue()
        self.events = []
        self.source = PadSource(self.pad.path, self.queue.post, timing=timing,
                                backoff=Backoff(first=0.02, limit=0.2))

    def drive(self, until, timeout=5.0):
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pad.step()
            self.events += self.queue.drain()
            if until():
                return True
            self.pad.wait(0.002)
        return False

    def ready(self):
        return self.source.status.state == "ready"

    def presses(self):
        return [e for e in self.events if isinstance(e, PressEvent) and e.pressed]

    def statuses(self):
        return [e for e in self.events if isinstance(e, LinkStatus)]

    def close(self):
        self.source.stop()
        self.pad.close()


@pytest.fixture
def end_to_end(tmp_path):
    made = []

    def make(**kwargs):
        rig = EndToEnd(tmp_path, **kwargs)
        made.append(rig)
        rig.source.start()
        return rig

    yield make
    for rig in made:
        rig.close()
