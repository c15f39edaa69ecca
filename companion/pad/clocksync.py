"""Pad time against host time, all night: a running fit of offset and rate, and an
honest bound on how far a mapped time may be off.

What it is for: the Pico stamps slaps with its own clock (ns since its boot, from its
crystal); the UI ranks them with the Pi's GPIO slaps and closes rounds on the Pi's
monotonic clock. A crystal is tens of ppm off (20 ppm is 72 ms an hour), so one offset
taken once drifts away; the fit follows both offset and rate, and says how far a pad
time mapped into host time may be from the truth.

Samples: each heartbeat gives one. The host sent at ``sent_ns`` and got the reply at
``recv_ns``; the pad's clock read ``pad_ns`` at some host instant inside
``[sent_ns, recv_ns]`` (causality is all we assume: no symmetric delays).

The fit (the idea is Klipper's clock sync, the code is ours): a weighted least-squares
line of pad time against the round trip's midpoint, every sample weighted by
``1 / (round trip + rtt_floor_ns)**2`` (a slow exchange counts for little) and forgotten
by ``forget`` per sample (about a minute of memory at 4 samples a second). Samples whose
round trip is far above the smallest recent one are discarded as delayed. The slope is
kept within ``max_ppm`` of 1 (a crystal, not a rubber band).

The bound (``ClockMap.uncertainty_at``): for every kept sample ``i`` the fit's error at
``pad_i`` is at most ``b_i = max(F(pad_i) - sent_i, recv_i - F(pad_i))`` (``F`` maps pad
to host), because the truth is inside the round trip. The crystal runs at a steady rate
over a couple of minutes, so the error is a straight line in pad time: between two
samples it is at most the larger ``b``; away from the best recent sample ``e`` it grows
at most by ``(b_s + b_e) / span`` per ns (``s`` the best sample of the window's oldest
ones), and never faster than a crystal can be off (``max_ppm``; twice that once the
slope is fitted, since the fit may be off the other way), plus ``wander_ppm`` for the
crystal's slow changes. Before the samples span ``min_span_ns`` the rate is not fitted
(slope 1).

A sample that the current map cannot explain (its round trip is farther from the mapped
time than the bound allows) means the pad's clock jumped: a reboot the host did not see,
a wrapped counter, a stepped clock. ``add`` then starts a new fit (a new ``epoch``) and
returns ``"jump"``; whoever owns it voids what was stamped in doubt.

How to wire it (pure: times are passed in)::

    sync = ClockSync()
    outcome = sync.add(sent_ns, recv_ns, pad_ns)   # "accepted", "delayed", "jump", "invalid"
    mapping = sync.snapshot()                      # immutable ClockMap or None
    host_ns = mapping.to_host(pad_ns); bound = mapping.uncertainty_at(pad_ns)
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import cast

ACCEPTED, DELAYED, JUMP, INVALID = "accepted", "delayed", "jump", "invalid"


@dataclass(frozen=True, slots=True)
class ClockMap:
    """An immutable pad/host mapping, ``pad = pad_ref + slope * (host - host_ref)``, with
    its error bound. ``epoch`` changes whenever the fit starts over (a new clock)."""

    epoch: int
    host_ref: int
    pad_ref: int
    slope: float
    anchor_pad: int  # the pad time where the bound is tightest
    anchor_ns: int  # the bound there
    growth: float  # how much the bound grows per ns of pad time away from the anchor
    inside_lo: int  # between these pad times the bound is at most inside_ns
    inside_hi: int
    inside_ns: int
    samples: int

    def to_pad(self, host_ns: int) -> int:
        return self.pad_ref + round(self.slope * (host_ns - self.host_ref))

    def to_host(self, pad_ns: int) -> int:
        return self.host_ref + round((pad_ns - self.pad_ref) / self.slope)

    def uncertainty_at(self, pad_ns: int) -> int:
        """How far ``to_host(pad_ns)`` may be from the true host time, in ns."""
        bound = self.anchor_ns + self.growth * abs(pad_ns - self.anchor_pad)
        if self.inside_lo <= pad_ns <= self.inside_hi:
            bound = min(bound, self.inside_ns)
        return math.ceil(bound)

    @property
    def uncertainty_ns(self) -> int:
        """The bound at its tightest point (the most recent good sample)."""
        return self.anchor_ns


class ClockSync:
    def __init__(self, forget: float = 1 / 240, creep: float = 0.02,
                 slack_ns: int = 200_000, rtt_floor_ns: int = 50_000,
                 max_ppm: float = 1000.0, wander_ppm: float = 0.2,
                 min_span_ns: int = 2_000_000_000, window_ns: int = 120_000_000_000,
                 group: int = 12, jump_slack_ns: int = 100_000) -> None:
        self.forget = forget
        self.creep = creep
        self.slack_ns = slack_ns
        self.rtt_floor_ns = rtt_floor_ns
        self.max_ppm = max_ppm
        self.wander = wander_ppm * 1e-6
        self.min_span_ns = min_span_ns
        self.window_ns = window_ns
        self.group = group
        self.jump_slack_ns = jump_slack_ns
        self.epoch = 0
        self.rejected = 0
        self.jumps = 0
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new pad boot, a jumped clock: a new clock). New epoch."""
        self.epoch += 1
        self.min_rtt: float | None = None
        self.samples = 0
        self._base: tuple[int, int] | None = None
        self._weight = 0.0
        self._mean_h = self._mean_p = 0.0
        self._var_h = self._cov = 0.0
        self._kept: deque[tuple[int, int, int]] = deque()  # (sent, recv, pad) accepted
        self._snapshot: ClockMap | None = None

    def snapshot(self) -> ClockMap | None:
        """The current mapping, or None before the first accepted sample."""
        return self._snapshot

    def add(self, sent_ns: int, recv_ns: int, pad_ns: int) -> str:
        """One heartbeat sample; returns ``ACCEPTED``, ``DELAYED`` (round trip too long,
        not used), ``JUMP`` (the clock jumped: a new fit starts with this sample) or
        ``INVALID`` (a negative round trip)."""
        rtt = recv_ns - sent_ns
        if rtt < 0:
            self.rejected += 1
            return INVALID
        outcome = ACCEPTED
        snap = self._snapshot
        if snap is not None:
            mapped = snap.to_host(pad_ns)
            outside = max(sent_ns - mapped, mapped - recv_ns, 0)
            if outside > snap.uncertainty_at(pad_ns) + self.jump_slack_ns:
                self.jumps += 1
                self.reset()
                outcome = JUMP
        if self.min_rtt is None:
            self.min_rtt = float(rtt)
        else:
            self.min_rtt = min(self.min_rtt * (1.0 + self.creep) + 1000.0, float(rtt))
        if outcome == ACCEPTED and rtt > 2.0 * self.min_rtt + self.slack_ns:
            self.rejected += 1
            return DELAYED
        self._fit(sent_ns, recv_ns, pad_ns)
        return outcome

    # ---- inside -------------------------------------------------------------------
    def _fit(self, sent: int, recv: int, pad: int) -> None:
        mid = sent + (recv - sent) // 2
        if self._base is None:
            self._base = (mid, pad)
        h = float(mid - self._base[0])
        p = float(pad - self._base[1])
        w = 1.0 / float(recv - sent + self.rtt_floor_ns) ** 2
        keep = 1.0 - self.forget
        self._weight = keep * self._weight + w
        share = w / self._weight
        dh, dp = h - self._mean_h, p - self._mean_p
        self._mean_h += share * dh
        self._mean_p += share * dp
        self._var_h = keep * self._var_h + w * dh * (h - self._mean_h)
        self._cov = keep * self._cov + w * dh * (p - self._mean_p)
        self.samples += 1
        kept = self._kept
        kept.append((sent, recv, pad))
        while kept and kept[0][1] < recv - self.window_ns:
            kept.popleft()
        self._snapshot = self._make_snapshot()

    def _make_snapshot(self) -> ClockMap:
        base = cast("tuple[int, int]", self._base)  # set by the first exchange, before any map
        kept = self._kept
        span_host = kept[-1][1] - kept[0][0]
        limit = self.max_ppm * 1e-6
        slope = 1.0
        if span_host >= self.min_span_ns and self._var_h > 0.0:
            slope = min(max(self._cov / self._var_h, 1.0 - limit), 1.0 + limit)
        host_ref = base[0] + round(self._mean_h)
        pad_ref = base[1] + round(self._mean_p)

        inv = 1.0 / slope
        n = len(kept)
        g_end = min(self.group, n - n // 2)  # the groups never overlap: with few samples,
        g_start = min(self.group, n // 2)  # the halves
        # The tightest recent sample (the latest of equals) and the tightest old one.
        b_end = b_start = math.inf
        p_end = p_start = 0
        for i in range(n - g_end, n):
            sent, recv, pad = kept[i]
            mapped = host_ref + (pad - pad_ref) * inv
            b = max(mapped - sent, recv - mapped)
            if b <= b_end:
                b_end, p_end = b, pad
        for i in range(g_start):
            sent, recv, pad = kept[i]
            mapped = host_ref + (pad - pad_ref) * inv
            b = max(mapped - sent, recv - mapped)
            if b < b_start:
                b_start, p_start = b, pad
        if not g_start:
            b_start, p_start = b_end, p_end
        # How fast the error may grow away from the anchor: never faster than a crystal
        # allows (a fitted slope is within max_ppm of 1, so is the truth), nor than the
        # two samples allow, the error being a straight line through both their bounds.
        worst = limit if slope == 1.0 and span_host < self.min_span_ns else 2 * limit
        span_pad = p_end - p_start
        if span_pad > 0:
            worst = min(worst, (b_start + b_end) / span_pad)
        growth = worst + self.wander
        lo, hi = sorted((p_start, p_end))
        inside = max(b_start, b_end) + self.wander * (hi - lo)
        return ClockMap(epoch=self.epoch, host_ref=host_ref, pad_ref=pad_ref, slope=slope,
                        anchor_pad=p_end, anchor_ns=math.ceil(b_end), growth=growth,
                        inside_lo=lo, inside_hi=hi, inside_ns=math.ceil(inside),
                        samples=self.samples)
