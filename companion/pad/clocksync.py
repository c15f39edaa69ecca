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

A round trip that waited one way still tells the other side: the pad read its clock no
earlier than the send and no later than the receipt, each on its own. So the map is also
bounded by the *causal envelope*: the set of error lines (the error is a straight line)
that lie, at every sample of this clock in the window (the delayed ones too), between
``F(pad) - recv`` and ``F(pad) - sent`` (widened by the wander), with a rate error no
larger than a crystal allows. Its width at a pad time is how far apart the quickest trip
there and the quickest trip back, wherever they fell, leave the truth; the map is moved
to the envelope's centre at the latest sample (its fitted rate kept unless causality
rules it out), and ``uncertainty_at`` is the smaller of the two bounds. The envelope's
hulls are kept as samples come (a few corners, whatever the window holds). A
host that answers late one way (a busy reader, a pad that reads its input late) then no
longer needs one exchange that was quick both ways.

A sample that the current map cannot explain (its round trip is farther from the mapped
time than the tightest samples' bound allows; the envelope is not asked, its straight
line over two minutes is too fine a test) means the pad's clock jumped: a reboot the
host did not see, a wrapped counter, a stepped clock. ``add`` then starts a new fit (a
new ``epoch``) and returns ``"jump"``; whoever owns it voids what was stamped in doubt.

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
    # The causal envelope (see ``ClockSync``): every (a, b) here is a corner of the set of
    # error lines ``a + b * (pad - lines_ref)`` that causality leaves possible; the error
    # at a pad time is at most the largest of them there, plus the crystal's wander.
    lines: tuple[tuple[float, float], ...] = ()
    lines_ref: int = 0
    wander: float = 0.0
    bend: float = 0.0  # how fast the rate may change, per ns (a crystal warming up)

    def to_pad(self, host_ns: int) -> int:
        return self.pad_ref + round(self.slope * (host_ns - self.host_ref))

    def to_host(self, pad_ns: int) -> int:
        return self.host_ref + round((pad_ns - self.pad_ref) / self.slope)

    def uncertainty_at(self, pad_ns: int) -> int:
        """How far ``to_host(pad_ns)`` may be from the true host time, in ns."""
        bound = self._sample_bound(pad_ns)
        if self.lines:
            x = pad_ns - self.lines_ref
            worst = max(abs(a + b * x) for a, b in self.lines)
            bound = min(bound, worst + self.wander * abs(x) + 0.5 * self.bend * x * x + 1.0)
        return math.ceil(bound)

    def jump_bound_at(self, pad_ns: int) -> int:
        """The bound a new sample is checked against for a clock jump: the tightest
        samples' alone, without the envelope, whose two minutes of straight line a
        crystal warming up may bend by some µs (that must never void a round)."""
        return math.ceil(self._sample_bound(pad_ns))

    def _sample_bound(self, pad_ns: int) -> float:
        bound = self.anchor_ns + self.growth * abs(pad_ns - self.anchor_pad)
        if self.inside_lo <= pad_ns <= self.inside_hi:
            bound = min(bound, self.inside_ns)
        return bound

    @property
    def uncertainty_ns(self) -> int:
        """The bound at its tightest point (the most recent good sample)."""
        return min(self.anchor_ns, self.uncertainty_at(self.anchor_pad))


class ClockSync:
    def __init__(self, forget: float = 1 / 240, creep: float = 0.02,
                 slack_ns: int = 200_000, rtt_floor_ns: int = 50_000,
                 max_ppm: float = 1000.0, wander_ppm: float = 0.2,
                 min_span_ns: int = 2_000_000_000, window_ns: int = 120_000_000_000,
                 group: int = 12, jump_slack_ns: int = 100_000,
                 bend_ppm_per_s: float = 0.2) -> None:
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
        self.bend = bend_ppm_per_s * 1e-6 / 1e9
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
        # The hulls of the causal envelope (see ``_envelope``): (pad, -sent, recv) and
        # (pad, -recv, recv) of this clock's samples, kept as samples come and go.
        self._top: list[tuple[int, int, int]] = []
        self._bottom: list[tuple[int, int, int]] = []
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
            if outside > snap.jump_bound_at(pad_ns) + self.jump_slack_ns:
                self.jumps += 1
                self.reset()
                outcome = JUMP
        if self.min_rtt is None:
            self.min_rtt = float(rtt)
        else:
            self.min_rtt = min(self.min_rtt * (1.0 + self.creep) + 1000.0, float(rtt))
        oldest = recv_ns - self.window_ns
        for chain, y, lower in ((self._top, -sent_ns, True), (self._bottom, -recv_ns, False)):
            _push(chain, (pad_ns, y, recv_ns), lower)
            while len(chain) > 1 and chain[0][2] < oldest:
                del chain[0]
        if outcome == ACCEPTED and rtt > 2.0 * self.min_rtt + self.slack_ns:
            # Too slow to pull the fit, yet the pad read its clock inside this round
            # trip all the same: the causal envelope keeps it.
            self.rejected += 1
            self._snapshot = self._make_snapshot()
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
        envelope = self._envelope(host_ref, pad_ref, slope)
        lines: tuple[tuple[float, float], ...] = ()
        lines_ref = 0
        if envelope is not None:
            # Centre the map in what causality leaves possible at the latest sample: its
            # error there is then at most half the envelope's width. The fitted rate
            # stays unless causality rules it out (then the nearest rate it allows).
            corners, lines_ref = envelope
            a_lo, a_hi = min(a for a, _ in corners), max(a for a, _ in corners)
            b_lo, b_hi = min(b for _, b in corners), max(b for _, b in corners)
            a_c, b_c = (a_lo + a_hi) / 2, min(max(0.0, b_lo), b_hi)
            mapped = host_ref + (lines_ref - pad_ref) / slope
            host_ref, pad_ref = round(mapped - a_c), lines_ref
            slope = 1.0 / (1.0 / slope - b_c)
            shift = host_ref - (mapped - a_c)  # the rounding of host_ref
            lines = tuple((a - a_c + shift, b - b_c) for a, b in corners)

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
                        samples=self.samples, lines=lines, lines_ref=lines_ref,
                        wander=self.wander, bend=self.bend)

    def _envelope(self, host_ref: int, pad_ref: int, slope: float
                  ) -> tuple[list[tuple[float, float]], int] | None:
        """Every error line ``e(x) = a + b * x`` (``x`` pad ns after the latest sample's
        pad time, ``e`` the map's host time less the truth) that causality leaves
        possible: at each sample of this clock in the window the truth lies inside its
        round trip, so ``F(pad) - recv <= e <= F(pad) - sent`` there (widened by the
        crystal's wander with the distance), and ``b`` is within what a crystal allows.
        Each direction's quickest trip counts on its own: a reply that sat long on the
        way to the pad still says when the pad cannot have answered later than. Returns
        the corners of that convex set and the reference pad time, or None if the
        samples contradict each other (then the other bound alone stands)."""
        top, bottom = self._top, self._bottom
        if not top or not bottom:
            return None
        inv = 1.0 / slope
        ref = max(top[-1][0], bottom[-1][0])  # the latest sample's pad time
        w = self.wander
        # Only the hulls bind: e below every (x, high) is below their lower hull, above
        # every (x, low) above their upper hull. ``high`` is ``-sent`` plus a straight line
        # in pad time (the map, and the wander's ``w * |x|`` as ``x <= 0``), ``low`` the
        # same with ``-recv``: a straight line added to all points keeps the same hull, so
        # the hulls are kept on the raw integers (exactly) as samples come, whatever the
        # fit, and only their corners are turned into error bounds. A corner that leaves
        # the window is dropped without bringing back the samples it hid, and the bend
        # (not a straight line) may uncover a sample inside the hull: fewer bounds, a
        # wider envelope, never a wrong one.

        bend = self.bend

        def bound(pad: int, minus: int, sign: float) -> tuple[float, float]:
            # The error is the straight line of the rate now, bent by the rate's change
            # since (at most ``bend`` per ns): ``bend * x**2 / 2`` away from it at ``x``.
            x = float(pad - ref)
            slack = w * abs(x) + 0.5 * bend * x * x
            return x, (host_ref + minus) + (pad - pad_ref) * inv + sign * slack

        highs = [bound(pad, y, 1.0) for pad, y, _ in top]
        lows = [bound(pad, y, -1.0) for pad, y, _ in bottom]
        limit = self.max_ppm * 1e-6
        rate = 1.0 / (1.0 - limit) - 1.0  # the widest a crystal's host-per-pad rate is off
        b_lo, b_hi = (inv - 1.0) - rate, (inv - 1.0) + rate
        # The latest sample (x = 0) is a corner of both hulls: it bounds ``a`` itself.
        poly = [(lows[-1][1], b_lo), (lows[-1][1], b_hi), (highs[-1][1], b_hi),
                (highs[-1][1], b_lo)]
        for x, high in highs:
            poly = _clip(poly, 1.0, x, high)  # a + b x <= high
            if not poly:
                return None
        for x, low in lows:
            poly = _clip(poly, -1.0, -x, -low)  # a + b x >= low
            if not poly:
                return None
        return poly, ref


def _push(chain: list[tuple[int, int, int]], point: tuple[int, int, int],
          lower: bool) -> None:
    """Add a point right of every other to a lower (or upper) convex chain (monotone
    chain, exact on integers): the corners it hides leave."""
    sign = 1 if lower else -1
    x, y = point[0], point[1]
    if chain and chain[-1][0] >= x:  # the same pad time again: the tighter bound stays
        if sign * (y - chain[-1][1]) >= 0:
            return
        chain.pop()
    while len(chain) >= 2:
        x1, y1, _ = chain[-2]
        x2, y2, _ = chain[-1]
        if sign * ((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) <= 0:
            chain.pop()
        else:
            break
    chain.append(point)


def _clip(poly: list[tuple[float, float]], ca: float, cb: float, c: float
          ) -> list[tuple[float, float]]:
    """The convex polygon ``poly`` of (a, b) cut to ``ca * a + cb * b <= c``."""
    out: list[tuple[float, float]] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        fp = ca * p[0] + cb * p[1] - c
        fq = ca * q[0] + cb * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out
