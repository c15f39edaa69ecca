"""Bring the Pico pad's presses into the UI thread's clock, with an honest error bound.

The pad stamps slaps with its own clock; GPIO events and the frame loop use the Pi's
monotonic clock. The link keeps fitting pad time against host time (offset and rate,
``companion.pad.clocksync``) and posts each new fit as a ``PadClock`` event, in order
with the presses. ``PadBridge.drain()`` maps every press with the fit current at that
point of the stream and says how far the result may be off (``uncertainty_ns``), so the
arbiter can widen its bound by exactly that when pad slaps are ranked against GPIO ones.

Differences between pad slaps stay exactly as the pad measured them: presses that
follow each other by less than ``chain_gap_ns`` (a round, mashing) are placed from the
first one's mapped time plus their pad-clock difference (a "chain"), and carry one
``clock`` id, so the arbiter ranks them with the pad's own resolution. How far a chain
strays from the fit (the crystal's rate) is added to each press's uncertainty, and a
chain starts over after a quiet gap, or once it strays by ``max_stray_ns`` and the pad
has been quiet for ``restart_quiet_ns``.

Watermarks (``PadWatermark``: every pad report up to a pad time is delivered) are mapped
the same way and kept as ``watermark_ns``: host time up to which the pad's stream is
complete, in the very mapping its presses got (the fit, or the chain a later press would
join, whichever is earlier), so the arbiter can wait for it before it closes a round
(``SlapArbiter.confirm``). It only moves forward, and only once ``drain`` has handed out
every press it covers. ``heard_ns`` is the host time the latest watermark was drained.

Presses the link could not place (``untimed``) pass through, marked, at the host time of
their drain: the arbiter takes their level (a release is never lost) but not their time.

Void notices (``PadRebooted``, ``PadVoid``: ``voids_round`` is true) pass through; so do
``LinkStatus`` lines. If the bridge's own queue overflowed (a flood), it says so with a
``PadVoid`` as well: the round cannot be judged with presses missing.

    bridge = PadBridge(PadSource, "/dev/slap-pad", host_clock=time.monotonic_ns)
    bridge.start()
    for item in bridge.drain():   # PadPress in host time, LinkStatus, PadRebooted, PadVoid
        ...
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.events import EventQueue, PressEvent
from companion.pad.clocksync import ClockMap
from companion.pad.link import (
    VOID_WORDS,
    LinkTiming,
    PadClock,
    PadPress,
    PadRebooted,
    PadVoid,
    PadWatermark,
)


@dataclass(slots=True)
class _Chain:
    key: object  # (nonce, epoch) of the pad clock
    ident: int
    anchor_pad: int
    anchor_host: int
    lo: int
    hi: int


class PadBridge:
    def __init__(self, source_factory: Callable, port: str | None,
                 host_clock: Callable[[], int] = time.monotonic_ns, *,
                 chain_gap_ns: int = 3_000_000_000, max_stray_ns: int = 300_000,
                 restart_quiet_ns: int = 500_000_000) -> None:
        self.queue = EventQueue()
        self.source = source_factory(port, self.queue.post)
        self.host_clock = host_clock
        self.chain_gap_ns = chain_gap_ns
        self.max_stray_ns = max_stray_ns
        self.restart_quiet_ns = restart_quiet_ns
        self.map: ClockMap | None = None
        self._chain: _Chain | None = None
        self._ids = itertools.count(1)
        self._dropped = 0
        self.unmapped = 0  # presses that came without a clock to map them (never expected)
        self.worst_uncertainty_ns = 0
        self.watermark_ns: int | None = None  # host time the pad's stream is complete to
        self.heard_ns: int | None = None  # host time of the drain that brought it

    def start(self) -> None:
        self.source.start()

    def stop(self) -> None:
        self.source.stop()

    def drain(self) -> list:
        """Pending items in order, pad presses mapped into host time."""
        out: list = []
        for item in self.queue.drain():
            if isinstance(item, PadClock):
                self.map = item.map
            elif isinstance(item, PadWatermark):
                self._mark(item)
            elif isinstance(item, PressEvent):
                if getattr(item, "untimed", False):
                    out.append(PadPress(item.seat, self.host_clock(), item.source,
                                        item.pressed, 0, 0, None, True))
                    continue
                mapped = self._map(item)
                if mapped is not None:
                    out.append(mapped)
                else:
                    self.unmapped += 1
                    out.append(PadVoid(VOID_WORDS["untimed"], "untimed",
                                       "a slap pad press arrived before its clock sync and "
                                       "was left out"))
            else:
                if isinstance(item, PadRebooted):
                    self.map = None
                if getattr(item, "voids_round", False):
                    self._chain = None
                out.append(item)
        if self.queue.dropped != self._dropped:
            lost, self._dropped = self.queue.dropped - self._dropped, self.queue.dropped
            self._chain = None
            out.append(PadVoid("Slap pad presses came faster than the screen could take "
                               "them: this round does not count. Slap again.", "flood",
                               f"{lost} slap pad event(s) were dropped because they came "
                               "faster than the screen could take them"))
        return out

    def _mark(self, mark: PadWatermark) -> None:
        mapping = self.map
        if mapping is None or (mark.clock is not None and mark.clock[1] != mapping.epoch):
            return
        pad = mark.pad_ns
        host = mapping.to_host(pad)
        chain = self._chain
        if chain is not None and chain.key == mark.clock and pad <= chain.hi + self.chain_gap_ns:
            host = min(host, chain.anchor_host + (pad - chain.anchor_pad))
        host -= 1 + mapping.uncertainty_at(pad)  # a later fit may place presses that far back
        if self.watermark_ns is None or host > self.watermark_ns:
            self.watermark_ns = host
        self.heard_ns = self.host_clock()

    def _map(self, press: PressEvent) -> PressEvent | None:
        mapping = self.map
        if mapping is None:
            return None
        key = getattr(press, "clock", None)
        pad = press.t_ns
        fit = mapping.to_host(pad)
        chain = self._chain
        if chain is not None and chain.key == key and (
                chain.lo - self.chain_gap_ns <= pad <= chain.hi + self.chain_gap_ns):
            host = chain.anchor_host + (pad - chain.anchor_pad)
            stray = abs(host - fit)
            if stray > self.max_stray_ns and pad - chain.hi >= self.restart_quiet_ns:
                chain = None  # strayed too far, and nothing of a round is left in flight
        else:
            chain = None
        if chain is None:
            chain = _Chain(key, next(self._ids), pad, fit, pad, pad)
            self._chain = chain
            host, stray = fit, 0
        chain.lo, chain.hi = min(chain.lo, pad), max(chain.hi, pad)
        uncertainty = mapping.uncertainty_at(pad) + stray
        self.worst_uncertainty_ns = max(self.worst_uncertainty_ns, uncertainty)
        return PadPress(press.seat, host, press.source, press.pressed,
                        getattr(press, "resolution_ns", 0), uncertainty,
                        ("pad", key, chain.ident))

    def set_lamp(self, seat: int, on: bool) -> None:
        """Light a seat's lamp on the pad (so the pad can mirror the box's lamps)."""
        self.source.set_lamp(seat, on)

    @property
    def resolution_ns(self) -> int:
        """The pad's measured capture bound, never below the GPIO_IN scan's 0.1 ms."""
        return max(100_000, int(getattr(self.source, "resolution_ns", 0) or 0))

    @property
    def longest_hold_ns(self) -> int:
        """How long the link may hold a press back (a clock fit to wait for) plus a
        heartbeat: a slap round that waits for the pad waits this long before it leaves
        the pad's seats to the table (``companion.slap.view.arbiter_config``)."""
        timing = getattr(getattr(self.source, "link", None), "timing", None) or LinkTiming()
        return timing.hold_ns + timing.heartbeat_ns
