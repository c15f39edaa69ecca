"""The edge rules, written once (``seatlog.scan``): it finds what the rules say (table:
the slap, the presses that are no bounce, bounce and orphan releases, shared stamps and
boundaries); read edge by edge as they come in time order it finds what one read of
them all finds; and a batch gives the verdict of the same edges fed one by one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import PressEvent
from companion.slap import ArbiterConfig, SlapArbiter
from companion.slap.chatter import closing_sources
from companion.slap.seatlog import SeatLog, scan

MS = 1_000_000
CFG = ArbiterConfig()
H, B = CFG.holdoff_ns, CFG.blip_ns
FINE = closing_sources(CFG)
SOURCES = ("gpio", "mock", "keyboard")
gap = st.one_of(st.integers(1, 3 * MS), st.integers(15 * MS, 30 * MS), st.integers(0, 400 * MS),
                st.sampled_from([0, H, H + 1, H - 1, B, B + 1, B - 1, abs(B - H), abs(B - H) + 1]))


@st.composite
def seat_logs(draw):
    gaps = draw(st.lists(gap, max_size=40))
    flags = draw(st.lists(st.booleans(), min_size=len(gaps) + 1, max_size=len(gaps) + 1))
    t = draw(st.integers(10**9, 10**10))
    edges = []
    for k, pressed in enumerate(flags):
        edges.append((t, pressed, PressEvent(1, t, draw(st.sampled_from(SOURCES)), pressed)))
        if k < len(gaps):
            t += gaps[k]
    log = SeatLog()
    log.edges = edges
    if draw(st.booleans()):
        # ``before`` is older than every edge kept (SeatLog's invariant)
        log.before = (edges[0][0] - max(1, draw(st.one_of(gap, st.integers(1, 60 * MS)))),
                      draw(st.booleans()), None)
    return log, draw(st.integers(edges[0][0] - 50 * MS, edges[-1][0] + MS))


# The rules in words: a press is no bounce when no edge stamped strictly before it lies
# within the hold-off H; the slap is the first such press at or after the arm; a release
# while the switch is open (after a release, or with nothing before) is an orphan;
# several edges at one stamp leave the switch closed if one of them is a press.
# (name, edges as (ms, pressed), before as (ms, pressed) or None, arm ms,
#  presses (ms), slap ms, bounce ms, orphan ms)
HMS = H / MS
SCAN_CASES = [
    ("a clean press and release", [(100, True), (180, False)], None, 0, [100], 100, None, None),
    ("bounce inside the hold-off", [(100, True), (101, False), (102, True), (180, False)],
     None, 0, [100], 100, 102, None),
    ("a press exactly the hold-off later is bounce", [(100, True), (100 + HMS, True)], None,
     0, [100], 100, 100 + HMS, None),
    ("a press just over the hold-off is a press", [(100, True), (100 + HMS + 1e-6, True)],
     None, 0, [100, 100 + HMS + 1e-6], 100, None, None),
    ("presses before the arm are no slap", [(-50, True), (-10, False), (40, True)], None, 0,
     [-50, 40], 40, None, None),
    ("release with nothing before: orphan", [(50, False), (100, True)], None, 0, [100], 100,
     None, 50),
    ("release after a release: orphan", [(50, True), (90, False), (200, False)], None, 0,
     [50], 50, None, 200),
    ("held since before: its release is no orphan", [(300, False), (400, True)], (0, True), 0,
     [400], 400, None, None),
    ("an old edge within the hold-off makes bounce", [(10, True)], (10 - HMS / 2, False), 0,
     [], None, 10, None),
    ("one stamp, press and release: closed", [(100, True), (100, False), (200, False)], None,
     0, [100], 100, None, None),
]


@pytest.mark.parametrize(("edges", "before", "arm", "presses", "slap", "bounce", "orphan"),
                         [c[1:] for c in SCAN_CASES], ids=[c[0] for c in SCAN_CASES])
def test_scan_finds_what_the_rules_say(edges, before, arm, presses, slap, bounce, orphan):
    at = 10**10

    def edge(ms, pressed):
        return (at + round(ms * MS), pressed, None)

    log = SeatLog()
    log.edges = [edge(*e) for e in edges]
    log.before = edge(*before) if before else None
    got_presses, got_bounce, got_orphan = scan(log, at + arm * MS, H, B, FINE) or ([], None,
                                                                                None)

    def ms(e):
        return None if e is None else (e[0] - at) / MS

    assert [ms(e) for e in got_presses] == pytest.approx(presses)
    assert ms(log.slap) == pytest.approx(slap)
    assert ms(got_bounce) == pytest.approx(bounce)
    assert ms(got_orphan) == pytest.approx(orphan)


@settings(max_examples=300, deadline=None)
@given(seat_logs())
def test_read_edge_by_edge_it_finds_what_one_read_finds(case):
    """The in-order path (one step per edge, resumed) and the batch path (one read of
    everything) are the same scan: same slap, same blips, same presses."""
    log, arm = case
    whole = SeatLog()
    whole.edges, whole.before = list(log.edges), log.before
    presses, bounce, orphan = scan(whole, arm, H, B, FINE) or ([], None, None)
    step = SeatLog()
    step.before = log.before
    got_presses, got_bounce, got_orphan = [], None, None
    for edge in log.edges:
        step.edges.append(edge)
        p, b, o = scan(step, arm, H, B, FINE, [edge]) or ([], None, None)
        got_presses += p
        got_bounce, got_orphan = got_bounce or b, got_orphan or o
    assert (step.slap, step.blip_at, step.tail_blip) == (whole.slap, whole.blip_at,
                                                         whole.tail_blip)
    assert (got_presses, got_bounce, got_orphan) == (presses, bounce, orphan)


@st.composite
def batches(draw):
    """(seats, arm, one frame's batch of edges in any order): trains of any gaps, edges
    before the arm, shared stamps, seats without edges, unknown seats."""
    seats = draw(st.lists(st.integers(1, 8), min_size=1, max_size=6, unique=True))
    arm = draw(st.integers(10**10, 10**11))
    events = []
    for seat in seats + draw(st.lists(st.sampled_from([0, 9]), max_size=1)):
        gaps = draw(st.lists(gap, max_size=14))
        t = arm + draw(st.integers(-3000 * MS, 1500 * MS))
        flags = draw(st.lists(st.booleans(), min_size=len(gaps) + 1, max_size=len(gaps) + 1))
        if not draw(st.integers(0, 4)):
            continue  # a seat that never slaps
        for k, pressed in enumerate(flags):
            events.append(PressEvent(seat, t, "gpio", pressed))
            if k < len(gaps):
                t += gaps[k]
    events = draw(st.permutations(events))
    return seats, arm, events


@settings(max_examples=300, deadline=None)
@given(batches())
def test_a_batch_gives_the_verdict_of_the_same_edges_fed_one_by_one(case):
    """``feed_many`` (sorted in at the poll) and ``feed`` (edge by edge) agree."""
    seats, arm, events = case
    verdicts = []
    for batch in (True, False):
        arb = SlapArbiter(seats, CFG)
        arb.arm(arm)
        if batch:
            arb.feed_many(events)
        else:
            for e in events:
                arb.feed(e)
        verdicts.append(arb.poll(arm + 10**12))
    assert verdicts[0] == verdicts[1]
