"""The honest bound of a slap round, and a slap that may have come before the arm.

What it is for: ``SlapArbiter`` closes a round with ``round_bound``: the widest source
bound among the counted slaps (the two widest added when two sources mix), never below a
press's own capture bound (``resolution_ns`` on a ``PadPress``), plus the clock-sync
uncertainty of the two most uncertain presses when they come from different clocks
(``clock``). ``maybe_before_arm`` says whether a press mapped from another clock could
be on the wrong side of the arm time. See ``docs/slap-timing.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.events import PressEvent
from companion.slap.seatlog import Edge, SeatLog


def round_bound(bounds: Mapping[str, int], edges: Iterable[Edge]) -> tuple[int, str]:
    """The honest bound of a round's slaps (edges), and the joined source names."""
    widest = max(bounds.values())
    per_source: dict[str, int] = {}
    clocks: dict[object, int] = {}
    for edge in edges:
        event = edge[2]
        own = bounds.get(event.source, widest)
        clock, unsure = None, 0
        if event.__class__ is not PressEvent:  # a PadPress knows more about itself
            own = max(own, getattr(event, "resolution_ns", 0))
            clock = getattr(event, "clock", None)
            unsure = getattr(event, "uncertainty_ns", 0)
        if own > per_source.get(event.source, -1):
            per_source[event.source] = own
        if unsure > clocks.get(clock, -1):
            clocks[clock] = unsure
    if not per_source:
        return 0, ""
    top = sorted(per_source.values(), reverse=True)
    bound = top[0] if len(top) == 1 else top[0] + top[1]
    if len(clocks) > 1:  # two clocks: each side may be off by its sync bound
        sync = sorted(clocks.values(), reverse=True)
        bound += sync[0] + sync[1]
    return bound, "+".join(sorted(per_source))


def maybe_before_arm(st: SeatLog, slap: Edge, unsure: int, arm_ns: int) -> bool:
    """Could this slap, or the seat's last press before the arm, be on the wrong side of
    ``arm_ns``, given the sync uncertainty of their stamps?"""
    if slap[0] - unsure < arm_ns:
        return True
    last = st.last_before(arm_ns)
    return last is not None and last[1] and last[0] + getattr(
        last[2], "uncertainty_ns", 0) >= arm_ns
