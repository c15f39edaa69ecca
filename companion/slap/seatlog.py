"""One seat's edges as the slap arbiter keeps them: sorted by time, cheap to extend.

What it is for: ``SlapArbiter`` keeps a ``SeatLog`` per seat in play. Edges are tuples
``(t_ns, pressed, event)``. An edge later than all the seat's others (the usual case:
a seat's edges come from one source, in order) is appended at once; an earlier one waits
in ``pending`` until the arbiter next merges (one sort per seat, at the next ``poll``),
so a round delivered in any order costs about what sorting it costs.

``before`` is the latest edge older than everything in ``edges`` (what the bounce rule
needs to know about the past); ``slap`` the seat's slap in the current round, once
``find_slap`` has looked. Pure data and functions, no clock.

Edges are sorted by time only. Two edges of one switch at the same nanosecond say
nothing about which came last, so whoever reads the switch's state after them must not
depend on their order: the arbiter reads such a group as closed if it holds a press (the
cautious reading for chatter: it never makes a blip out of a slap).
"""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter

Edge = tuple  # (t_ns, pressed, event)
by_time = itemgetter(0)


class SeatLog:
    __slots__ = ("edges", "pending", "before", "overflow", "slap", "latest_t",
                 "latest_pressed", "stuck_t", "noted", "blips", "blips_ok",
                 "level", "level_after", "untimed_press")

    def __init__(self) -> None:
        self.edges: list[Edge] = []
        self.pending: list[Edge] = []
        self.before: Edge | None = None
        self.overflow = False
        self.slap: Edge | None = None
        self.latest_t: int | None = None
        self.latest_pressed = False
        self.stuck_t: int | None = None
        self.noted = 0  # bits of the once-a-round notices already given
        self.blips = 0  # chatter blips among ``edges`` (with ``before``) ...
        self.blips_ok = False  # ... while this holds: whatever changes them clears it
        # An edge without a usable time (``untimed``) says the button's level, not when:
        # ``level`` is that level, valid while no timed edge newer than ``level_after``
        # (the latest stamp when it came) has arrived.
        self.level: bool | None = None
        self.level_after: int | None = None
        self.untimed_press = False  # a press without a usable time this round

    def push_before(self, edge: Edge) -> None:
        if self.before is None or edge[0] > self.before[0]:
            self.before = edge
            self.blips_ok = False

    def last_before(self, t: int) -> Edge | None:
        """The latest edge stamped strictly before ``t`` (``before`` included)."""
        i = bisect_left(self.edges, (t,))
        if i:
            return self.edges[i - 1]
        return self.before if self.before is not None and self.before[0] < t else None

    def count_from(self, t: int) -> int:
        """How many edges are stamped at ``t`` or later."""
        return len(self.edges) - bisect_left(self.edges, (t,))

    def drop_older(self, t: int) -> None:
        """Move every edge older than ``t`` out of ``edges`` (the latest into ``before``)."""
        keep = bisect_left(self.edges, (t,))
        if keep:
            self.push_before(self.edges[keep - 1])
            del self.edges[:keep]
            self.blips_ok = False

    def merge(self) -> list[Edge]:
        """Sort the pending edges in; returns them, for describing."""
        pending, self.pending = self.pending, []
        self.blips_ok = False
        if self.edges:
            self.edges += pending
            self.edges.sort(key=by_time)
        else:
            self.edges = sorted(pending, key=by_time)
        return pending

    def find_slap(self, arm_ns: int, holdoff_ns: int) -> Edge | None:
        """The earliest press edge at/after ``arm_ns`` with no other edge in the holdoff
        before it. Depends only on the set of edges, so arrival order cannot change it."""
        prev = self.before[0] if self.before is not None else None
        cur = prev
        for edge in self.edges:
            t = edge[0]
            if t != cur:
                prev, cur = cur, t
            if edge[1] and t >= arm_ns and (prev is None or t - prev > holdoff_ns):
                self.slap = edge
                return edge
        self.slap = None
        return None

    def held_at(self, t: int) -> bool:
        """Was the button down at ``t`` (its latest edge before it a press, or the level
        an untimed edge gave if no timed edge came after it)?"""
        last = self.last_before(t)
        if self.level is not None:
            if self.latest_t == self.level_after:
                return self.level
            self.level = None
        return last is not None and last[1]
