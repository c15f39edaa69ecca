"""Chatter: a seat whose switch makes presses no hand makes.

What it is for: a worn or dirty microswitch (or a loose wire) closes on its own in short
bursts. After the hold-off each burst looks like a fresh press, so without this a
chattering seat "slaps" in every round. A hand cannot make such presses: even a
glancing tap keeps the switch closed for milliseconds, while a chattering contact only
touches for a fraction of one, however long its burst lasts.

The rule (``companion.slap.seatlog.scan`` finds the blips, in the same pass that finds
bounce and the slap): a press *episode* whose longest continuous closing is under
``blip_ns`` (3 ms) is a *blip*, judged only where the source sees every edge finely
enough to measure a closing that short (``closing_sources``: the Pi's GPIO with kernel
stamps, and the mock pins of tests). A seat with a blip within the round (from its arm
to its close; the last episode once it is over) cannot be timed: a worn contact's burst
stamped a little late passes for a short tap, so its "slap" cannot be trusted. It is
left out of the verdict (``chatter``), a candidate, and told once a round (as a
chattering switch from ``chatter_blips`` blips on). A keyboard key, a userspace GPIO
callback or the pad never make a blip: their stamps cannot see a 3 ms closing (a frame,
10 ms, the pad's 20 ms hold-off), and a quick tap there is a hand.
"""

from __future__ import annotations

from collections.abc import Container, Sequence

from companion.slap.config import ArbiterConfig
from companion.slap.seatlog import SeatLog, scan


def closing_sources(config: ArbiterConfig) -> frozenset[str]:
    """The press sources whose stamps can tell a closing under ``blip_ns`` from a hand's:
    those whose bound is under it."""
    return frozenset(s for s, b in config.resolution_ns.items() if b < config.blip_ns)


def blips(edges: Sequence[tuple], at_rest: bool, config: ArbiterConfig,
          since_ns: int = -(1 << 62), until_ns: int = 1 << 62,
          sees_closings: Container[str] | None = None) -> int:
    """How many blips ``scan`` finds among ``edges`` ((t_ns, pressed, event) sorted by
    time) with their press within ``[since_ns, until_ns]``. ``at_rest``: the switch was
    open before the first edge."""
    log = SeatLog()
    log.edges = list(edges)
    if not at_rest and log.edges:
        log.before = (log.edges[0][0] - config.holdoff_ns - 1, True, None)
    if sees_closings is None:
        sees_closings = closing_sources(config)
    scan(log, since_ns, config.holdoff_ns, config.blip_ns, sees_closings)
    return log.blips(since_ns, until_ns)
