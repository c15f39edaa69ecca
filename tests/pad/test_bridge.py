"""PadBridge: pad presses mapped into host time with the fit current in the stream, an
honest uncertainty, and the pad's own differences kept within a burst."""

from __future__ import annotations

from companion.events import EventQueue
from companion.pad.bridge import PadBridge
from companion.pad.clocksync import ClockMap
from companion.pad.link import LinkStatus, PadClock, PadPress, PadRebooted, PadVoid

BOOT = (0xABCD, 1)


class FakeSource:
    def __init__(self, port, post):
        self.post, self.resolution_ns = post, 0

    def start(self):
        pass

    def stop(self):
        pass


def clock_map(offset, slope=1.0, bound=300_000, epoch=1):
    """pad = host + offset (times ``slope``), bound ``bound`` everywhere near 0."""
    return ClockMap(epoch=epoch, host_ref=0, pad_ref=offset, slope=slope, anchor_pad=offset,
                    anchor_ns=bound, growth=0.0, inside_lo=0, inside_hi=0, inside_ns=bound,
                    samples=10)


def press(seat, pad_ns, clock=BOOT, pressed=True):
    return PadPress(seat, pad_ns, "pad", pressed, 100_000, 0, clock)


def make():
    bridge = PadBridge(FakeSource, None)
    return bridge, bridge.source


def test_a_press_before_any_clock_is_not_guessed():
    bridge, src = make()
    src.post(press(1, 5_000_000))
    [void] = bridge.drain()
    assert isinstance(void, PadVoid) and void.voids_round and void.reason == "untimed"
    assert "does not count" in void.text
    assert bridge.unmapped == 1


def test_each_press_maps_with_the_fit_current_at_its_place_in_the_stream():
    bridge, src = make()
    src.post(PadClock(clock_map(1_000_000_000)))
    src.post(press(1, 1_005_000_000))
    src.post(PadClock(clock_map(2_000_000_000, epoch=2)))  # a new fit (another epoch)
    src.post(press(2, 2_007_000_000, clock=(0xABCD, 2)))
    a, b = bridge.drain()
    assert (a.t_ns, b.t_ns) == (5_000_000, 7_000_000)
    assert a.uncertainty_ns == b.uncertainty_ns == 300_000
    assert a.clock != b.clock and a.resolution_ns == 100_000 and a.source == "pad"


def test_a_burst_keeps_the_pads_own_differences_and_owns_up_to_the_stray():
    bridge, src = make()
    src.post(PadClock(clock_map(1_000_000_000)))
    src.post(press(1, 1_005_000_000))
    src.post(PadClock(clock_map(1_000_000_040)))  # the fit moved by 40 ns meanwhile
    src.post(press(2, 1_005_000_137))  # 137 ns after seat 1, in the pad's clock
    a, b = bridge.drain()
    assert b.t_ns - a.t_ns == 137  # exactly as the pad measured
    assert a.clock == b.clock
    assert b.uncertainty_ns == 300_000 + 40  # the fit's bound plus how far the chain strays


def test_a_crystal_60_ppm_fast_strays_and_the_chain_starts_over_after_a_pause():
    bridge, src = make()
    fast = clock_map(0, slope=1 + 60e-6)
    src.post(PadClock(fast))
    for k in range(5):  # mashing for 2 s, 0.5 s apart: one chain
        src.post(press(1, k * 500_000_000))
    *burst, = bridge.drain()
    assert len({e.clock for e in burst}) == 1
    stray = burst[-1].uncertainty_ns - 300_000
    assert 110_000 < stray < 130_000  # 2 s of pad time at 60 ppm
    src.post(press(2, 7_000_000_000))  # after a 5 s pause: a new chain, mapped by the fit
    [after] = bridge.drain()
    assert after.clock != burst[0].clock and after.uncertainty_ns == 300_000
    assert after.t_ns == fast.to_host(7_000_000_000)


def test_voids_pass_through_and_a_reboot_forgets_the_map():
    bridge, src = make()
    src.post(PadClock(clock_map(0)))
    src.post(press(1, 10))
    src.post(PadVoid("The slap pad's clock jumped", "clock_jump"))
    src.post(LinkStatus("ready", "Slap pad ready"))
    src.post(PadRebooted("The slap pad restarted", 1, 2))
    src.post(press(2, 20))
    items = bridge.drain()
    assert [type(i).__name__ for i in items] == ["PadPress", "PadVoid", "LinkStatus",
                                                 "PadRebooted", "PadVoid"]
    assert items[-1].reason == "untimed"


def test_an_overflowing_queue_voids_the_round():
    bridge, src = make()
    bridge.queue = EventQueue(maxsize=3)
    src.post = bridge.queue.post
    src.post(PadClock(clock_map(0)))
    for k in range(10):
        src.post(press(1, k))
    items = bridge.drain()
    assert isinstance(items[-1], PadVoid) and items[-1].reason == "flood"
    assert "8 slap pad event(s) were dropped" in items[-1].detail
    assert "this round does not count" in items[-1].text


def test_resolution_has_the_scans_floor():
    bridge, src = make()
    assert bridge.resolution_ns == 100_000
    src.resolution_ns = 250_000
    assert bridge.resolution_ns == 250_000


def test_the_watermark_maps_below_every_later_press_and_only_moves_forward():
    from hypothesis import given
    from hypothesis import strategies as st

    from companion.pad.link import PadWatermark

    @given(st.lists(st.integers(0, 4_000_000_000), min_size=1, max_size=12),
           st.integers(0, 4_000_000_000), st.integers(-200_000, 200_000))
    def check(pads, mark, shift):
        bridge, src = make()
        src.post(PadClock(clock_map(1_000_000_000)))
        for p in sorted(pads):
            if p <= mark:
                src.post(press(1, 1_000_000_000 + p))
        src.post(PadWatermark(1_000_000_000 + mark, BOOT))
        src.post(PadClock(clock_map(1_000_000_000 + shift, bound=300_000)))  # a new fit
        for p in sorted(pads):
            if p > mark:
                src.post(press(2, 1_000_000_000 + p))
        before = bridge.watermark_ns
        out = bridge.drain()
        assert before is None and bridge.watermark_ns is not None
        assert all(e.t_ns > bridge.watermark_ns for e in out if e.seat == 2)
        src.post(PadWatermark(1_000_000_000 + mark - 1_000_000, BOOT))  # older: no step back
        high = bridge.watermark_ns
        bridge.drain()
        assert bridge.watermark_ns == high

    check()


def test_an_untimed_press_passes_marked_at_the_drain_time():
    bridge, src = make()
    bridge.host_clock = lambda: 42
    src.post(PadClock(clock_map(1_000_000_000)))
    src.post(PadPress(3, 1_005_000_000, "pad", False, 100_000, 0, BOOT, True))
    [release] = bridge.drain()
    assert release.untimed and not release.pressed and release.t_ns == 42
