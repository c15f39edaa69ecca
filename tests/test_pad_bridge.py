"""Pad presses shifted into host time by one fixed offset: differences stay the pad's."""

from __future__ import annotations

from companion.events import PressEvent
from companion.pad.link import LinkStatus, PadRebooted
from companion.pad_bridge import PadBridge


class FakeSource:
    def __init__(self, port, post):
        self.post, self.pad_now, self.resolution_ns = post, None, 0

    def start(self):
        pass

    def stop(self):
        pass

    def now_ns(self):
        return self.pad_now


def make(host=10_000_000_000):
    clock = {"now": host}
    bridge = PadBridge(FakeSource, None, host_clock=lambda: clock["now"])
    return bridge, bridge.source, clock


def test_presses_wait_for_clock_sync_then_keep_their_differences():
    bridge, src, clock = make()
    src.post(PressEvent(1, 5_000_000, "pad"))
    src.post(PressEvent(2, 5_000_137, "pad"))  # 137 ns after seat 1, in the pad's clock
    assert bridge.drain() == []  # no sync yet: held back, not dropped
    src.pad_now = 5_100_000
    a, b = bridge.drain()
    assert a.t_ns == 5_000_000 + (clock["now"] - 5_100_000)
    assert b.t_ns - a.t_ns == 137 and b.source == "pad"


def test_offset_stays_fixed_while_the_link_is_up_and_is_retaken_after_a_reboot():
    bridge, src, clock = make()
    src.pad_now = 1_000
    src.post(PressEvent(1, 900, "pad"))
    (first,) = bridge.drain()
    offset = bridge.offset_ns
    clock["now"] += 777  # the clocks drift: the offset must not follow mid-link
    src.pad_now = 1_500
    src.post(PressEvent(2, 1_400, "pad"))
    (second,) = bridge.drain()
    assert second.t_ns - first.t_ns == 500 and bridge.offset_ns == offset
    src.post(PadRebooted("the pad restarted"))
    src.post(PressEvent(3, 10, "pad"))
    src.pad_now = 20
    items = bridge.drain()
    assert isinstance(items[0], PadRebooted)
    assert items[1].t_ns == 10 + clock["now"] - 20


def test_status_lines_pass_through_and_resolution_has_a_floor():
    bridge, src, _ = make()
    src.post(LinkStatus("lost", "Slap pad unplugged"))
    assert bridge.drain() == [LinkStatus("lost", "Slap pad unplugged")]
    assert bridge.resolution_ns == 100_000
    src.resolution_ns = 250_000
    assert bridge.resolution_ns == 250_000


def test_the_offset_waits_for_a_tight_clock_sync():
    bridge, src, clock = make()
    src.uncertainty = 40_000_000  # a slow first exchange: 40 ms either way
    src.clock_uncertainty_ns = lambda: src.uncertainty
    src.pad_now = 1_000
    src.post(PressEvent(1, 900, "pad"))
    assert bridge.drain() == [] and bridge.offset_ns is None  # held back, not guessed
    src.uncertainty = 300_000
    (event,) = bridge.drain()
    assert event.t_ns == 900 + clock["now"] - 1_000
