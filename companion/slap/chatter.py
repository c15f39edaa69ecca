"""Chatter: a seat whose switch makes presses no hand makes.

What it is for: a worn or dirty microswitch (or a loose wire) closes on its own in short
bursts. After the hold-off each burst looks like a fresh press, so without this a
chattering seat "slaps" in every round. A hand cannot make such presses: a slap keeps
the switch closed for tens of milliseconds, while a burst is back at rest within a few
(at the Pi's GPIO, where every edge arrives) or exactly one hold-off later (from the pad,
whose firmware reports the first edge and the state after its own hold-off).

The rule, on a seat's edges sorted by time: edges closer than the hold-off form a
*train*. A press *episode* starts with the first press edge of a train that begins at
rest, and ends with the first train that ends at rest; it lasts from that press edge to
the last edge of that train. An episode shorter than ``blip_ns`` is a *blip*. A seat
with ``chatter_blips`` blips or more in the window is chattering. One blip alone (a
very quick tap) never is.

How to wire it: ``SlapArbiter`` calls ``blips(edges, ...)`` when a round closes, for the
seats' edges of the look-back window, and leaves chattering seats out of the verdict
like a stuck one, with a ``chatter`` notice naming the seat.
"""

from __future__ import annotations

from collections.abc import Sequence


def blips(edges: Sequence[tuple], at_rest: bool, holdoff_ns: int, blip_ns: int,
          since_ns: int, until_ns: int, pad_blip_ns: int | None = None) -> int:
    """Count the blips among ``edges`` ((t_ns, pressed, ...) sorted by time) whose press
    edge is within ``[since_ns, until_ns]``. ``at_rest``: the switch was open before the
    first edge. (``SlapArbiter._scan`` counts the same way in its own pass over a seat.)
    A train starts where an edge comes more than ``holdoff_ns`` after the previous
    *distinct* stamp, as the bounce rule reads it.

    What makes an episode a blip depends on who stamped it. From the host (a plain
    ``PressEvent``: every edge seen), the switch's *longest continuous closing* within
    the episode is under ``blip_ns``: a hand keeps it closed for milliseconds at least,
    even in a glancing tap, while a chattering contact only touches for a fraction of
    one (however long its burst lasts). From the pad, whose firmware reports the first
    edge and the state one hold-off later, the episode itself is under ``pad_blip_ns``
    (default ``blip_ns``)."""
    from companion.events import PressEvent

    pad_blip = blip_ns if pad_blip_ns is None else pad_blip_ns
    count = 0
    start = None  # the press edge of the episode in progress
    from_pad = False  # ... stamped by the pad (measured by its length)
    longest = 0  # the episode's longest continuous closing so far
    closed_at = None  # when the current closing began
    train_rest = at_rest  # was the switch open when the current train began?
    closed = not at_rest  # the switch's state after the latest edge (True = closed)
    prev_t = cur_t = None
    for edge in edges:
        t, pressed = edge[0], bool(edge[1])
        if t == cur_t:  # one stamp, several edges: their order says nothing
            after = closed or pressed  # closed if any of them is a press
        else:
            after = pressed
            prev_t, cur_t = cur_t, t
            if prev_t is not None and t - prev_t > holdoff_ns:  # the previous train ended
                if closed:
                    train_rest = False
                else:
                    if start is not None:
                        short = (prev_t - start < pad_blip) if from_pad else longest < blip_ns
                        count += short and since_ns <= start <= until_ns
                        start = None
                    train_rest = True
        if pressed and start is None and train_rest:
            start, longest = t, 0
            event = edge[2] if len(edge) > 2 else None
            from_pad = event is not None and event.__class__ is not PressEvent
        if after and not closed:
            closed_at = t
        elif closed and not after and closed_at is not None and t - closed_at > longest:
            longest = t - closed_at
        closed = after
    if start is not None and not closed and (since_ns <= start <= until_ns) and (
            (cur_t - start < pad_blip) if from_pad else longest < blip_ns):
        count += 1
    return count
