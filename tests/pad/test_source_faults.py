"""PadSource never gives up: an exception at any step of connecting, shaking hands,
reading or writing closes the port, says so, and reconnects; no slap lost or doubled.

The property test drives ``PadSource.run_once()`` (no thread) over an in-memory wire to
the real firmware core, with an injected clock, ``select`` and back-off wait: no sleeps.
"""

from __future__ import annotations

import random
import struct
import time
from collections import Counter

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import LinkError
from companion.events import EventQueue, PressEvent
from companion.pad.fakehal import FakeHal, load_firmware
from companion.pad.link import LinkStatus, LinkTiming
from companion.pad.source import PadSource
from companion.pad.transport import Backoff, SerialTransport

FW = load_firmware()
OPS = ("open", "fileno", "read", "write", "close", "feed", "poll", "post")
ERRORS = {
    "LinkError": lambda: LinkError("injected link error"),
    "OSError": lambda: OSError(5, "injected I/O error"),
    "SerialException": lambda: serial.SerialException("injected serial error"),
    "ValueError": lambda: ValueError("injected bug"),
    "RuntimeError": lambda: RuntimeError("injected bug"),
    "struct.error": lambda: struct.error("injected bug"),
    "KeyError": lambda: KeyError("injected"),
}
FD = 1000  # the wire's pretend file descriptor (select is injected)


class Faults:
    """Raise the planned exception at the n-th call of an operation."""

    def __init__(self, plan):
        self.plan = {(op, n): kind for op, n, kind in plan}
        self.calls = Counter()
        self.fired: list[tuple[str, int, str]] = []

    def hit(self, op):
        self.calls[op] += 1
        kind = self.plan.pop((op, self.calls[op]), None)
        if kind is not None:
            self.fired.append((op, self.calls[op], kind))
            raise ERRORS[kind]()


class Wire:
    """A SerialTransport stand-in joined in memory to the real firmware core, which runs
    on the same fake clock (pad µs = host ns // 1000)."""

    def __init__(self, clock, faults, seats=4):
        self.clock, self.faults = clock, faults
        self.hal = FakeHal(seats, 0, rng=random.Random(7))
        self.fw = FW.core.Firmware(self.hal, service_every=1)
        self.is_open = False
        self.to_host = bytearray()

    def run_pad(self):
        self.hal.set_time(self.clock["ns"] // 1000)
        self.fw.poll()
        if self.is_open:
            for frame in self.hal.take_tx():
                self.to_host += frame
        else:
            self.hal.take_tx()  # nobody listening: the bytes are lost

    def open(self):
        self.faults.hit("open")
        self.is_open = True
        self.to_host.clear()
        return "/dev/wire"

    def fileno(self):
        self.faults.hit("fileno")
        if not self.is_open:
            raise LinkError("the pad port is not open")
        return FD

    def read(self):
        self.faults.hit("read")
        data = bytes(self.to_host)
        self.to_host.clear()
        return data

    def write(self, data):
        self.faults.hit("write")
        self.hal.feed_rx(data)

    def close(self):
        self.is_open = False
        self.faults.hit("close")


class Rig:
    def __init__(self, plan, seats=4):
        self.clock = {"ns": 1_000_000_000}
        self.faults = Faults(plan)
        self.wire = Wire(self.clock, self.faults, seats)
        self.queue = EventQueue()
        self.source = PadSource(None, self._post, clock=lambda: self.clock["ns"],
                                timing=LinkTiming(hello_timeout_ns=600_000_000),
                                transport=self.wire, backoff=Backoff(0.01, 0.1),
                                select_fn=self._select, wait=self._wait)
        link = self.source.link
        for name in ("feed", "poll"):
            real = getattr(link, name)
            setattr(link, name, self._guard(name, real))
        self.events: list = []

    def _guard(self, op, real):
        def call(*args, **kwargs):
            self.faults.hit(op)
            return real(*args, **kwargs)
        return call

    def _post(self, event):
        self.faults.hit("post")
        self.queue.post(event)

    def _advance(self, ns):
        end = self.clock["ns"] + ns
        while self.clock["ns"] < end:
            self.clock["ns"] = min(end, self.clock["ns"] + 1_000_000)
            self.wire.run_pad()

    def _select(self, rlist, _w, _x, timeout):
        if not (self.wire.is_open and self.wire.to_host):
            self._advance(max(1_000, min(int(timeout * 1e9), 1_000_000)))
        return ([FD] if self.wire.is_open and self.wire.to_host and FD in rlist else []), [], []

    def _wait(self, seconds):
        self._advance(max(1_000, int(seconds * 1e9)))

    def run(self, steps, until=None):
        for _ in range(steps):
            self.source.run_once()  # must never raise
            self.events += self.queue.drain()
            if until is not None and until():
                return True
        return False

    def slap(self, seat):
        """Press and release ``seat``; returns its stamp in the pad clock (ns)."""
        hal = self.wire.hal
        hal.set_seats(hal.read_seats() | 1 << (seat - 1))
        self._advance(1_000_000)
        stamp = hal.now_us() * 1000
        self._advance(40_000_000)
        hal.set_seats(hal.read_seats() & ~(1 << (seat - 1)))
        self._advance(1_000_000)
        return stamp

    def ready(self):
        return self.source.status.state == "ready"

    def presses(self):
        return [(e.seat, e.t_ns) for e in self.events if isinstance(e, PressEvent) and e.pressed]


fault = st.tuples(st.sampled_from(OPS), st.integers(1, 8), st.sampled_from(sorted(ERRORS)))


@settings(max_examples=60, deadline=None)
@given(plan=st.lists(fault, max_size=6, unique_by=lambda f: f[:2]), slap_at=st.integers(0, 40))
def test_any_failure_at_any_step_ends_in_a_reconnect_never_a_dead_link(plan, slap_at):
    rig = Rig(plan)
    expected = []
    for step in range(60):  # faults fire while connecting, shaking hands and serving
        if step == slap_at:
            expected.append((2, rig.slap(2)))
        rig.source.run_once()
        rig.events += rig.queue.drain()
    rig.faults.plan.clear()  # from here on the hardware behaves
    assert rig.run(3000, until=rig.ready), (rig.faults.fired, rig.source.status)
    expected.append((3, rig.slap(3)))
    assert rig.run(3000, until=lambda: len(rig.presses()) >= len(expected)
                   and not rig.wire.fw.pad.queue), rig.source.status
    rig.run(200)  # a doubled press would show up by now
    assert sorted(rig.presses()) == sorted(expected)  # nothing lost, nothing doubled
    if any(op == "post" for op, _, _ in rig.faults.fired):
        return  # the UI's queue itself failed: the messages may be what was lost
    said = [e.text for e in rig.events if isinstance(e, LinkStatus)]
    for op, _n, kind in rig.faults.fired:
        if kind != "LinkError" and op != "close":  # a LinkError is an ordinary drop
            name = type(ERRORS[kind]()).__name__
            assert any(name in text and "by itself" in text for text in said), (op, kind, said)


def test_the_first_write_after_opening_failing_is_a_reconnect_with_a_message():
    rig = Rig([("write", 1, "SerialException")])
    assert rig.run(2000, until=rig.ready)
    lost = [e for e in rig.events if isinstance(e, LinkStatus) and e.state in ("lost",
                                                                                 "searching")]
    assert lost and "injected serial error" in lost[0].text
    assert "by itself" in lost[0].text


def test_a_bug_inside_the_link_is_logged_reported_and_survived(caplog):
    rig = Rig([("feed", 1, "KeyError"), ("poll", 3, "RuntimeError")])
    assert rig.run(2000, until=rig.ready)
    assert rig.source.faults == 2
    texts = [e.text for e in rig.events if isinstance(e, LinkStatus)]
    assert any("KeyError" in t and "by itself" in t for t in texts)
    assert any("RuntimeError" in t for t in texts)
    assert "Traceback" in caplog.text or any(r.exc_info for r in caplog.records)


class FlakyTransport(SerialTransport):
    """Real pyserial on a real pty, but the first write after opening raises."""

    def __init__(self, port, failures):
        super().__init__(port)
        self.failures = failures

    def write(self, data):
        if self.failures:
            self.failures -= 1
            raise RuntimeError("USB stack hiccup")
        super().write(data)


def test_the_link_thread_survives_and_reconnects(tmp_path):
    from companion.pad.virtual import VirtualPad

    pad = VirtualPad(seats=4, link=tmp_path / "slap-pad", seed=4)
    queue = EventQueue()
    source = PadSource(pad.path, queue.post, transport=FlakyTransport(pad.path, 2),
                       backoff=Backoff(0.01, 0.05))
    source.start()
    events: list = []
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and source.status.state != "ready":
            pad.step()
            events += queue.drain()
            pad.wait(0.002)
        events += queue.drain()
        assert source.status.state == "ready", events
        assert source.running and source.faults == 2
        assert [e for e in events if isinstance(e, LinkStatus) and "USB stack hiccup" in e.text]
    finally:
        source.stop()
        pad.close()


@pytest.mark.parametrize("kind", ["RuntimeError", "OSError"])
def test_post_failing_does_not_kill_the_step(kind):
    rig = Rig([("post", 1, kind), ("post", 2, kind)])
    assert rig.run(2000, until=rig.ready)
