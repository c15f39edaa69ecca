"""Chatter that is chatter: Hypothesis generates human slaps (one press, bounce within a
few ms, a release after milliseconds to tens of them, more bounce) and a worn switch's
bursts (closings of a fraction of a millisecond, over and over, no finger), on the wire
as the Pi sees it. A hand is never chatter; a switch chattering twice is always named.
The thresholds are in ``docs/slap-timing.md``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import PressEvent
from companion.slap import ArbiterConfig, SlapArbiter
from companion.slap.chatter import blips

US = 1_000
MS = 1_000_000
CFG = ArbiterConfig()


@st.composite
def human_taps(draw, seat=1, start=0):
    """A person slapping or tapping, as fast as people do: each contact lasts 8 ms or
    more (a glancing tap) and bounces for up to 3 ms at both ends; taps at least 40 ms
    apart (25 a second is faster than any hand)."""
    events, t = [], start + draw(st.integers(0, 200)) * MS
    for _ in range(draw(st.integers(1, 6))):
        bounce = draw(st.integers(0, 3000)) * US
        contact = max(draw(st.integers(8, 200)) * MS, bounce + 3 * MS)
        events.append(PressEvent(seat, t, "gpio", True))
        edges = sorted(draw(st.lists(st.integers(1, max(1, bounce // US)), max_size=6,
                                     unique=True)))
        if len(edges) % 2:
            edges = edges[:-1]
        for k, dt in enumerate(edges):  # release/press pairs: it ends closed
            events.append(PressEvent(seat, t + dt * US, "gpio", k % 2 == 1))
        up = t + contact
        events.append(PressEvent(seat, up, "gpio", False))
        rb = sorted(draw(st.lists(st.integers(1, 3000), max_size=4, unique=True)))
        if len(rb) % 2:
            rb = rb[:-1]
        for k, dt in enumerate(rb):  # press/release pairs: it ends open
            events.append(PressEvent(seat, up + dt * US, "gpio", k % 2 == 0))
        t = up + 4 * MS + draw(st.integers(40, 600)) * MS
    return events


@st.composite
def chatter_bursts(draw, seat=2, start=0, least=2):
    """A worn contact: bursts of closings under 1 ms each, no finger; bursts more than
    the hold-off apart."""
    events, t = [], start + draw(st.integers(0, 300)) * MS
    for _ in range(draw(st.integers(least, 5))):
        for _ in range(draw(st.integers(1, 8))):
            closed = draw(st.integers(20, 900)) * US
            events.append(PressEvent(seat, t, "gpio", True))
            events.append(PressEvent(seat, t + closed, "gpio", False))
            t += closed + draw(st.integers(50, 2000)) * US
        t += CFG.holdoff_ns + draw(st.integers(1, 900)) * MS
    return events


def count(events):
    edges = [(e.t_ns, e.pressed, e) for e in sorted(events, key=lambda e: e.t_ns)]
    return blips(edges, True, CFG)


@settings(max_examples=300, deadline=None)
@given(human_taps())
def test_a_hand_never_makes_a_blip(taps):
    assert count(taps) == 0


@settings(max_examples=300, deadline=None)
@given(chatter_bursts())
def test_every_burst_of_a_worn_switch_is_a_blip(bursts):
    assert count(bursts) >= CFG.chatter_blips


@settings(max_examples=150, deadline=None)
@given(human_taps(seat=1, start=0), chatter_bursts(seat=2, start=0),
       st.integers(50, 400))
def test_in_a_round_the_hand_is_timed_and_the_chattering_seat_is_a_candidate(
        taps, bursts, seat3_ms):
    arb = SlapArbiter((1, 2, 3))
    arb.arm(-1)
    events = taps + bursts + [PressEvent(3, seat3_ms * MS, "gpio", True),
                              PressEvent(3, seat3_ms * MS + 60 * MS, "gpio", False)]
    arb.feed_many(sorted(events, key=lambda e: e.t_ns))
    verdict = arb.poll(max(e.t_ns for e in events) + CFG.timeout_ns + CFG.settle_ns)
    notes = arb.take_notices()
    assert dict(verdict.excluded) == {2: "chatter"}
    assert 1 in verdict.slappers and verdict.slaps[1] == taps[0].t_ns
    assert 2 in verdict.candidates and not verdict.certain
    said = [n for n in notes if n.kind == "chatter"]
    assert [n.seat for n in said] == [2]


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 8), st.integers(20, 900), st.integers(50, 400), st.integers(0, 300))
def test_one_burst_alone_is_no_slap(closings, closed_us, seat1_ms, burst_ms):
    """A single burst of a worn switch (its player never slaps) is not taken for a slap:
    the seat is left out, a candidate, and nobody else is named in its place."""
    arb = SlapArbiter((1, 2, 3))
    arb.arm(0)
    events = [PressEvent(1, seat1_ms * MS, "gpio", True),
              PressEvent(1, seat1_ms * MS + 60 * MS, "gpio", False),
              PressEvent(2, (seat1_ms + 30) * MS, "gpio", True),
              PressEvent(2, (seat1_ms + 90) * MS, "gpio", False)]
    t = burst_ms * MS
    for _ in range(closings):
        events += [PressEvent(3, t, "gpio", True), PressEvent(3, t + closed_us * US, "gpio",
                                                               False)]
        t += closed_us * US + 500 * US
    arb.feed_many(sorted(events, key=lambda e: e.t_ns))
    verdict = arb.poll(max(e.t_ns for e in events) + CFG.timeout_ns + CFG.settle_ns)
    assert dict(verdict.excluded) == {3: "chatter"} and not verdict.certain
    assert 3 in verdict.candidates
