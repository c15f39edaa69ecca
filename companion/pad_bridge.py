"""Bring the Pico pad's events into the UI thread's single clock.

The pad stamps slaps with its own 64-bit microsecond timer; GPIO events and the frame
loop use the Pi's monotonic clock. ``PadBridge`` shifts every pad timestamp by one
offset (host time minus pad time, taken from the link's clock sync) that is fixed for
as long as the link stays up with the same boot. A constant shift keeps every
difference between pad slaps exactly as the pad measured it, so the ranking is still
the pad's, while round timeouts run on the same clock as everything else. The offset is
taken again after a reconnect or a reboot (the round in progress is voided then).

The events keep ``source="pad"``, so the arbiter applies the pad's resolution bound.

    bridge = PadBridge(PadSource(port, queue.post), host_clock=time.monotonic_ns)
    bridge.start()
    for item in bridge.drain():   # PressEvent in host time, LinkStatus, PadRebooted
        ...
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from companion.events import EventQueue, PressEvent


class PadBridge:
    def __init__(self, source_factory: Callable, port: str | None,
                 host_clock: Callable[[], int] = time.monotonic_ns,
                 max_uncertainty_ns: int = 5_000_000) -> None:
        self.max_uncertainty_ns = max_uncertainty_ns
        self.queue = EventQueue()
        self.source = source_factory(port, self.queue.post)
        self.host_clock = host_clock
        self.offset_ns: int | None = None
        self.held_back: list[PressEvent] = []

    def start(self) -> None:
        self.source.start()

    def stop(self) -> None:
        self.source.stop()

    def drain(self) -> list:
        """Pending items, pad presses shifted into host time.

        A press that arrives before the clock sync is tight enough (``max_uncertainty_ns``)
        is held back until the offset is known, never dropped.
        """
        out: list = []
        for item in self.queue.drain():
            if isinstance(item, PressEvent):
                self.held_back.append(item)
                continue
            if getattr(item, "state", "ready") != "ready" or type(item).__name__ == "PadRebooted":
                self.offset_ns = None  # a new link or a new boot: a new offset
            out.append(item)
        if self.held_back and self.offset_ns is None and self._synced():
            self.offset_ns = self.host_clock() - self.source.now_ns()
        if self.held_back and self.offset_ns is not None:
            out.extend(replace(e, t_ns=e.t_ns + self.offset_ns) for e in self.held_back)
            self.held_back.clear()
        return out

    def set_lamp(self, seat: int, on: bool) -> None:
        """Light a seat's lamp on the pad (so the pad can mirror the box's lamps)."""
        self.source.set_lamp(seat, on)

    def _synced(self) -> bool:
        """The link's clock map is there and tight enough to fix the offset with."""
        if self.source.now_ns() is None:
            return False
        uncertainty = getattr(self.source, "clock_uncertainty_ns", lambda: 0)()
        return uncertainty is not None and uncertainty <= self.max_uncertainty_ns

    @property
    def resolution_ns(self) -> int:
        return max(100_000, int(getattr(self.source, "resolution_ns", 0) or 0))
