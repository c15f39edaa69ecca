"""One seat's edges as the slap arbiter keeps them, and ``scan``: the edge rules, once.

What it is for: ``SlapArbiter`` keeps a ``SeatLog`` per seat in play. Edges are tuples
``(t_ns, pressed, event)``, sorted by time. ``scan`` is the one place that reads them:
bounce, the presses that are no bounce (the first at or after the arm is the slap),
orphan releases and chatter blips are all found in its one pass, whether the edges came
one by one in time order (it resumes where it stopped: one step per edge) or a batch was
sorted in (it starts again from ``before``). ``chatter.blips`` and the arbiter's
``feed``, ``feed_many``, ``poll`` and ``arm`` all go through it.

``before`` is the latest edge older than everything in ``edges`` (what the bounce rule
needs to know about the past). Pure data and functions, no clock.

Edges are sorted by time only. Two edges of one switch at the same nanosecond say
nothing about which came last, so whoever reads the switch's state after them must not
depend on their order: the scan reads such a group as closed if it holds a press (the
cautious reading for chatter: it never makes a blip out of a slap).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Container, Generator, Sequence
from operator import itemgetter

from companion.events import PressEvent

Edge = tuple  # (t_ns, pressed, event)
by_time = itemgetter(0)
_FAR = -(1 << 62)


class SeatLog:
    __slots__ = ("edges", "pending", "before", "overflow", "slap", "latest_t",
                 "latest_pressed", "stuck_t", "noted", "state", "blip_at",
                 "tail_blip", "level", "level_after", "untimed_press")

    def __init__(self) -> None:
        self.edges: list[Edge] = []
        self.pending: list[Edge] = []
        self.before: Edge | None = None
        self.overflow = False
        self.slap: Edge | None = None  # the seat's slap this round, as ``scan`` found it
        self.latest_t: int | None = None
        self.latest_pressed = False
        self.stuck_t: int | None = None
        self.noted = 0  # bits of the once-a-round notices already given
        # ``scan``'s place: it has read every edge in ``edges`` but those just appended,
        # and goes on from there; ``None``: read them all again from ``before``.
        self.state: Generator | None = None
        self.blip_at: list[int] = []  # press times of the blips among the scanned edges
        self.tail_blip: int | None = None  # ... and of the last episode, if it is one so far
        # An edge without a usable time (``untimed``) says the button's level, not when:
        # ``level`` is that level, valid while no timed edge newer than ``level_after``
        # (the latest stamp when it came) has arrived.
        self.level: bool | None = None
        self.level_after: int | None = None
        self.untimed_press = False  # a press without a usable time this round

    def push_before(self, edge: Edge) -> None:
        if self.before is None or edge[0] > self.before[0]:
            self.before = edge
            self.state = None

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
            self.state = None

    def merge(self) -> tuple[list[Edge], int]:
        """Sort the pending edges in; returns them (for describing) and the oldest one's
        stamp. If they are all newer than the edges kept, ``state`` stays: ``scan`` reads
        on with them (sorted)."""
        pending, self.pending = self.pending, []
        oldest = min(pending, key=by_time)[0]
        edges = self.edges
        if not edges:  # (a ``state`` with no edges has read none: it reads on)
            pending.sort(key=by_time)
            self.edges = pending[:]
        elif self.state is not None and oldest > edges[-1][0]:
            pending.sort(key=by_time)
            edges += pending  # all newer than what was read: the scan goes on from there
        else:
            edges += pending
            edges.sort(key=by_time)
            self.state = None
        return pending, oldest

    def blips(self, since_ns: int, until_ns: int, settled_ns: int | None = None) -> int:
        """How many blips (as the last ``scan`` found them) have their press within
        ``[since_ns, until_ns]``. The last episode, all short closings so far, counts once
        it began before ``settled_ns`` (a hold-off before the stream is complete: a hand's
        press seen between its bounce edges is no blip, a switch that keeps chattering
        is)."""
        n = 0
        for t in self.blip_at:
            if since_ns <= t <= until_ns:
                n += 1
        tail = self.tail_blip
        if tail is not None and since_ns <= tail <= until_ns and (
                settled_ns is None or tail < settled_ns):
            n += 1
        return n

    def held_at(self, t: int) -> bool:
        """Was the button down at ``t`` (its latest edge before it a press, or the level
        an untimed edge gave if no timed edge came after it)?"""
        last = self.last_before(t)
        if self.level is not None:
            if self.latest_t == self.level_after:
                return self.level
            self.level = None
        return last is not None and last[1]


def scan(st: SeatLog, arm_ns: int, holdoff_ns: int, blip_ns: int,
         sees_closings: Container[str], new: Sequence[Edge] | None = None
         ) -> tuple[list[Edge], Edge | None, Edge | None] | None:
    """Read the seat's edges and return what they hold: the presses that are no bounce,
    the first bounce press and the first orphan release among them (``None`` if none
    of these). Sets ``st.slap``, ``st.blip_at`` and ``st.tail_blip``.

    ``new``: the edges just appended to ``st.edges``, all later than the others: the
    read goes on from where it stopped (``st.state``), one step per edge. Without it, or
    after ``state`` was cleared (edges sorted in among older ones, dropped, a new
    ``before``, a new arm), every edge is read again from ``before``.

    The rules, on edges sorted by time:

    * **bounce**: an edge stamped within ``holdoff_ns`` after an earlier edge of the seat
      (a different stamp: edges sharing one stamp share the first one's standing). Edges
      closer than the hold-off form a *train*.
    * a **press** is a press edge that is no bounce; the **slap** is the first press at
      or after ``arm_ns`` (what it means to the round is the arbiter's ``_describe``).
    * an **orphan** is a release while the switch is open.
    * a **blip** is a press *episode* (from the first press of a train that starts at
      rest, to the end of the first train that ends at rest) whose longest continuous
      closing is under ``blip_ns``: what no hand does. Only a source that sees every
      edge finely enough can measure that: the episode's first press must be a plain
      host-stamped ``PressEvent`` from one of ``sees_closings`` (a source whose bound is
      under ``blip_ns``). The keyboard (a frame), userspace GPIO (10 ms) and the pad
      (its firmware reports a closing shorter than its hold-off as one hold-off long)
      cannot: their episodes are never blips.
    """
    reader = st.state
    if reader is None or new is None:
        st.blip_at = []
        reader = st.state = _reader(st.edges, st.before, st.blip_at, arm_ns, holdoff_ns,
                                    blip_ns, sees_closings)
        found, st.slap, st.tail_blip = next(reader)
    else:
        found, st.slap, st.tail_blip = reader.send(new)
    return found


def _reader(todo: Sequence[Edge], before: Edge | None, blip_at: list[int], arm_ns: int,
            holdoff_ns: int, blip_ns: int, sees_closings: Container[str]) -> Generator:
    """``scan``'s one pass over ``todo`` and then over each batch it is sent, kept where
    it stopped in between. (It holds no reference to the ``SeatLog``: no cycle for the
    garbage collector.)"""
    cur_t = before[0] if before is not None else _FAR
    last_p = before is not None and bool(before[1])
    boundary = fine = False
    train_rest = not last_p
    start = closed_at = None
    longest = 0
    slap = None
    while True:
        presses: list[Edge] = []
        bounce = orphan = None
        for edge in todo:
            t, pressed, event = edge
            if t == cur_t:  # one stamp, several edges: closed if any of them is a press
                after = True if last_p else pressed
            else:
                after = pressed
                boundary = t - cur_t > holdoff_ns
                cur_t = t
                if boundary:  # a new train: the previous one is over
                    if last_p:
                        train_rest = False
                    else:
                        if start is not None:
                            if fine and longest < blip_ns:
                                blip_at.append(start)
                            start = None
                        train_rest = True
            if pressed:
                if boundary:
                    presses.append(edge)
                    if slap is None and t >= arm_ns:
                        slap = edge
                elif bounce is None:
                    bounce = edge
                if start is None and train_rest:
                    start, longest = t, 0
                    fine = event.__class__ is PressEvent and event.source in sees_closings
            elif orphan is None and not last_p:
                orphan = edge
            if after:
                if not last_p:
                    closed_at = t
            elif last_p and closed_at is not None and t - closed_at > longest:
                longest = t - closed_at
            last_p = after
        todo = yield ((presses, bounce, orphan) if (
            presses or bounce is not None or orphan is not None) else None,
            slap, start if start is not None and not last_p and fine and longest < blip_ns
            else None)
