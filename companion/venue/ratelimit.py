"""Per-client rate limits at the venue: a flood from one client must not delay the others.

A token bucket per client (the venue uses the table's topic level, which the broker's ACL
ties to one account, see deploy/mosquitto/): ``burst`` messages at once, then ``rate`` a
second. A message over the limit is dropped before anything else is done with it (not
parsed, not checked, not written anywhere). At most ``max_clients`` buckets are kept; the
one used longest ago goes first, so invented clients cannot grow the venue's memory.

    limits = RateLimits(rate=20, burst=400)
    if not limits.allow("table-3"): drop it
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class RateLimits:
    def __init__(self, rate: float = 20.0, burst: float = 400.0, *,
                 clock: Callable[[], float] = time.monotonic, max_clients: int = 4096) -> None:
        self.rate, self.burst, self.clock, self.max_clients = rate, burst, clock, max_clients
        self._buckets: OrderedDict[str, list[float]] = OrderedDict()  # client -> [tokens, t]
        self.dropped = 0

    def allow(self, client: str) -> bool:
        now = self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self.max_clients:
                self._buckets.popitem(last=False)
            bucket = self._buckets[client] = [self.burst, now]
        else:
            self._buckets.move_to_end(client)
            bucket[0] = min(self.burst, bucket[0] + (now - bucket[1]) * self.rate)
            bucket[1] = now
        if bucket[0] < 1.0:
            self.dropped += 1
            return False
        bucket[0] -= 1.0
        return True
