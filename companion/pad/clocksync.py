"""Mapping host time to the pad's clock, from heartbeat round trips.

What it is for: slaps are ranked in the Pico's own clock (its 64-bit microsecond timer),
but the UI thread needs to know "what time is it on the pad now" to arm the arbiter and
to close a round. Each heartbeat gives one sample: the host sent at ``sent_ns``, got the
reply at ``recv_ns``, and the pad's time was ``pad_ns`` somewhere in between.

How it works (the idea is Klipper's clock sync, the code is ours): the smallest round
trip seen is kept and slowly forgotten (it creeps up by ``creep`` per sample, so a
changed USB path is relearned); samples whose round trip is well above it are discarded
as delayed. Accepted samples, taken at the middle of their round trip, feed an
exponentially forgetting linear fit of pad time against host time (weight ``alpha``);
the slope stays within ±``max_ppm`` of 1 (a crystal, not a rubber band) and is 1 until
the samples span ``min_span_ns``. A sample whose round trip is less than half that of the
sample the fit began with restarts the fit: a slow first exchange must not linger in the
average. The map's ``uncertainty_ns`` is half the round trip the fit began with. Pure:
times are passed in.

How to wire it::

    sync = ClockSync()
    sync.add(sent_ns, recv_ns, pad_us * 1000)   # per heartbeat reply
    snapshot = sync.snapshot()                  # immutable, safe to hand to another thread
    pad_now_ns = snapshot.to_pad(host_now_ns)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClockMap:
    """An immutable host-to-pad time mapping: pad = pad_ref + slope * (host - host_ref)."""

    host_ref: int
    pad_ref: int
    slope: float
    uncertainty_ns: int  # half the smallest round trip: how far off a sample may be

    def to_pad(self, host_ns: int) -> int:
        return self.pad_ref + round(self.slope * (host_ns - self.host_ref))

    def to_host(self, pad_ns: int) -> int:
        return self.host_ref + round((pad_ns - self.pad_ref) / self.slope)


class ClockSync:
    def __init__(self, alpha: float = 0.1, creep: float = 0.02, slack_ns: int = 200_000,
                 max_ppm: float = 1000.0, min_span_ns: int = 2_000_000_000) -> None:
        self.alpha = alpha
        self.creep = creep
        self.slack_ns = slack_ns
        self.max_ppm = max_ppm
        self.min_span_ns = min_span_ns
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new pad boot: a new clock)."""
        self.min_rtt: float | None = None
        self.rejected = 0
        self._restart_fit()

    def _restart_fit(self) -> None:
        self.samples = 0
        self._fit_rtt = 0
        self._base: tuple[int, int] | None = None
        self._mean_h = self._mean_p = 0.0
        self._var_h = self._cov = 0.0
        self._first_h = self._last_h = 0.0
        self._snapshot: ClockMap | None = None

    def add(self, sent_ns: int, recv_ns: int, pad_ns: int) -> bool:
        """One heartbeat sample; False if it was discarded (round trip too long)."""
        rtt = recv_ns - sent_ns
        if rtt < 0:
            self.rejected += 1
            return False
        if self.min_rtt is None:
            self.min_rtt = float(rtt)
        else:
            self.min_rtt = min(self.min_rtt * (1.0 + self.creep) + 1000.0, float(rtt))
        if rtt > 2.0 * self.min_rtt + self.slack_ns:
            self.rejected += 1
            return False
        if self.samples and rtt * 2 < self._fit_rtt:
            # Far tighter than the sample the fit began with (a slow first exchange, a
            # busy host): that history is worth less than this one sample. Start over.
            self._restart_fit()
        host = sent_ns + rtt // 2
        if self._base is None:
            self._base = (host, pad_ns)
            self._fit_rtt = rtt
        h = float(host - self._base[0])
        p = float(pad_ns - self._base[1])
        if self.samples == 0:
            self._mean_h, self._mean_p, self._first_h = h, p, h
        else:
            a = self.alpha
            dh, dp = h - self._mean_h, p - self._mean_p
            self._mean_h += a * dh
            self._mean_p += a * dp
            self._var_h = (1.0 - a) * (self._var_h + a * dh * dh)
            self._cov = (1.0 - a) * (self._cov + a * dh * dp)
        self._last_h = h
        self.samples += 1
        self._snapshot = self._make_snapshot()
        return True

    def _make_snapshot(self) -> ClockMap:
        assert self._base is not None and self.min_rtt is not None
        slope = 1.0
        if self._last_h - self._first_h >= self.min_span_ns and self._var_h > 0.0:
            fitted = self._cov / self._var_h
            limit = self.max_ppm * 1e-6
            slope = min(max(fitted, 1.0 - limit), 1.0 + limit)
        return ClockMap(host_ref=self._base[0] + round(self._mean_h),
                        pad_ref=self._base[1] + round(self._mean_p), slope=slope,
                        uncertainty_ns=round(max(self.min_rtt, self._fit_rtt) / 2))

    def snapshot(self) -> ClockMap | None:
        """The current mapping, or None before the first accepted sample."""
        return self._snapshot
