"""On a real Pico with the slap firmware: skipped unless COMPANION_PICO names its port.

    COMPANION_PICO=/dev/ttyACM0 .venv/bin/python -m pytest -m pico tests/pad/test_pico.py -s

With COMPANION_PICO_SLAP=1 the test also asks you to slap seat 1 within 15 s.
"""

import os
import time

import pytest

from companion.events import EventQueue, PressEvent
from companion.pad.fakehal import load_firmware
from companion.pad.source import PadSource

PORT = os.environ.get("COMPANION_PICO")
pytestmark = [pytest.mark.pico,
              pytest.mark.skipif(not PORT, reason="set COMPANION_PICO=/dev/... to test a Pico")]


def wait_for(source, queue, events, until, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        events += queue.drain()
        if until():
            return True
        # The link runs on its own thread; this only paces the check of its results.
        time.sleep(0.01)
    return False


def test_real_pico_handshake_clock_lamps_and_slap():
    queue = EventQueue()
    events = []
    source = PadSource(PORT, queue.post)
    source.start()
    try:
        assert wait_for(source, queue, events, lambda: source.now_ns() is not None, 10), (
            source.status)
        hello = source.link.hello
        assert hello.firmware == load_firmware().core.FIRMWARE_VERSION
        first = source.now_ns()
        assert wait_for(source, queue, events, lambda: source.link.clock.samples >= 8, 5)
        elapsed = source.now_ns() - first
        assert 1_000_000_000 < elapsed < 4_000_000_000
        source.set_lamp(1, True)
        assert wait_for(source, queue, events, lambda: source.link._lamps_have == 1, 2)
        source.set_lamp(1, False)
        print(f"\npad resolution (worst recent scan gap): {source.resolution_ns / 1000:g} µs, "
              f"min round trip {source.link.clock.min_rtt / 1000:.0f} µs")
        if os.environ.get("COMPANION_PICO_SLAP"):
            print("slap seat 1 now ...")
            assert wait_for(source, queue, events, lambda: any(
                isinstance(e, PressEvent) and e.seat == 1 and e.pressed for e in events), 15)
    finally:
        source.stop()
