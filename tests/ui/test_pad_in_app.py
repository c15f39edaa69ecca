"""The whole pad path in the real app: the virtual pad (real firmware code) on a real
pseudo-terminal, PadSource reading it with real pyserial, the PadBridge, the app's frame
loop and the slap pad screen's verdict. Waits are bounded by deadlines and wake on the
pty; nothing sleeps a fixed time.

Deterministic under load: the round closes only once the pad's watermark has passed its
last slap (every report stamped before it is in), and should the pad's link be starved
past the bounded wait, the verdict is redone when its slaps arrive; the test waits for
the pad to have nothing unacknowledged and the arbiter nothing unweighed, then reads the
verdict on screen."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.window


def test_pad_slaps_reach_a_verdict_in_the_pad_clock(ui, tmp_path):
    from companion.pad.bridge import PadBridge
    from companion.pad.source import PadSource
    from companion.pad.transport import Backoff
    from companion.pad.virtual import VirtualPad

    pad = VirtualPad(seats=8, link=tmp_path / "slap-pad", seed=7)
    bridge = PadBridge(lambda port, post: PadSource(port, post, backoff=Backoff(0.02, 0.2)),
                       str(pad.path))
    bridge.start()
    ui.goto_home()
    ui.app.pad = bridge

    def drive(until, timeout=8.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pad.step()
            ui.pump(1)
            if until():
                return True
            pad.wait(0.002)
        return False

    try:
        assert drive(lambda: bridge.source.status.state == "ready"), bridge.source.status
        screen = ui.open_slap_tool((1, 2, 4, 5, 6, 8))
        screen.arm()
        start = pad.clock_us() + 50_000
        order = [6, 1, 8, 2, 5, 4]  # seat 4 slaps last, 20 ms after seat 5
        stamps = {}
        for k, seat in enumerate(order):
            pad.tap(seat, start + k * 20_000, hold_us=30_000, bounces=3)
            stamps[seat] = pad.stamp_for(start + k * 20_000)
        last = stamps[order[-1]] * 1000  # pad ns

        def judged():
            mark = bridge.watermark_ns
            return (screen.round.verdict is not None and not pad.firmware.pad.queue
                    and not screen.round.arbiter.unsettled and bridge.map is not None
                    and mark is not None and mark >= bridge.map.to_host(last))
        assert drive(judged, timeout=30), ui.app.status
        verdict = screen.round.verdict
        assert verdict.source == "pad" and verdict.certain and verdict.picker == order[-1]
        assert [r.seat for r in verdict.ranking] == order
        # the delays are the pad's own: the bridge only shifted every stamp by one offset
        got = [r.delay_first_ns for r in verdict.ranking]
        assert got == [(stamps[s] - stamps[order[0]]) * 1000 for s in order]
        ui.screenshot("slap_pad_verdict")
    finally:
        if ui.app.sm.current == "slap":
            ui.app.sm.current_screen.cancel()  # leave the shared window as we found it
        ui.app.pad = None
        bridge.stop()
        pad.close()
        ui.goto_home()
