"""Sorting late edges in: the one pass per seat finds what the plain rules find (the
slap, the presses that are no bounce, bounce and orphan releases) and counts chatter
blips exactly as companion.slap.chatter.blips does, on any edges, boundaries included."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import PressEvent
from companion.slap import ArbiterConfig, SlapArbiter
from companion.slap.chatter import blips
from companion.slap.seatlog import SeatLog

MS = 1_000_000
CFG = ArbiterConfig()
H, B = CFG.holdoff_ns, CFG.blip_ns
gap = st.one_of(st.integers(1, 3 * MS), st.integers(15 * MS, 30 * MS), st.integers(0, 400 * MS),
                st.sampled_from([0, H, H + 1, H - 1, B, B + 1, B - 1, B - H, B - H + 1]))


@st.composite
def seat_logs(draw):
    gaps = draw(st.lists(gap, max_size=40))
    flags = draw(st.lists(st.booleans(), min_size=len(gaps) + 1, max_size=len(gaps) + 1))
    t = draw(st.integers(10**9, 10**10))
    edges = []
    for k, pressed in enumerate(flags):
        edges.append((t, pressed, None))
        if k < len(gaps):
            t += gaps[k]
    log = SeatLog()
    log.edges = edges
    if draw(st.booleans()):
        # ``before`` is older than every edge kept (SeatLog's invariant)
        log.before = (edges[0][0] - max(1, draw(st.one_of(gap, st.integers(1, 60 * MS)))),
                      draw(st.booleans()), None)
    return log, draw(st.integers(edges[0][0] - 50 * MS, edges[-1][0] + MS))


def plain_rules(log, arm):
    """The rules as written: a press is no bounce when no edge stamped strictly before it
    lies within the hold-off; an orphan release comes while the switch is open (after a
    release, or nothing; several edges at one stamp leave it closed if one is a press)."""
    edges = ([log.before] if log.before else []) + log.edges
    presses, bounces, orphans = [], [], []
    closed, last_t = False, None
    for i, (t, pressed, _) in enumerate(edges):
        if not (log.before and i == 0):
            earlier = [e for e in edges[:i] if e[0] < t]
            prev_t = earlier[-1][0] if earlier else None
            if pressed:
                (presses if prev_t is None or t - prev_t > H else bounces).append(edges[i])
            elif not closed:
                orphans.append(edges[i])
        closed = (closed or pressed) if t == last_t else pressed
        last_t = t
    slap = next((e for e in presses if e[0] >= arm), None)
    return presses, slap, bounces[:1], orphans[:1]


@settings(max_examples=500, deadline=None)
@given(seat_logs())
def test_one_pass_finds_what_the_rules_say(case):
    log, arm = case
    arbiter = SlapArbiter((1,), CFG)
    arbiter._arm_ns = arm
    presses, bounce, orphan = arbiter._scan(log)
    want_presses, want_slap, want_bounce, want_orphan = plain_rules(log, arm)
    assert presses == want_presses and log.slap == want_slap
    assert ([bounce] if bounce else []) == want_bounce
    assert ([orphan] if orphan else []) == want_orphan
    at_rest = not (log.before is not None and log.before[1])
    assert log.blips == blips(log.edges, at_rest, H, B, -10**18, 10**18)


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


def _run(case, one_pass, monkeypatch):
    seats, arm, events = case
    monkeypatch.setattr(SlapArbiter, "_one_pass", one_pass)
    arb = SlapArbiter(seats, CFG)
    arb.arm(arm)
    notes = arb.feed_many(events)
    first = arb.first_slap_ns
    verdict = arb.poll(arm + 10**12)
    return verdict, notes, arb.take_notices(), first


@settings(max_examples=400, deadline=None)
@given(batches())
def test_a_seat_s_first_batch_in_one_pass_is_what_scan_and_describe_say(case):
    """``_merge``'s own pass over a seat's first batch gives the notices, slaps and
    verdict that ``_scan`` and ``_describe`` give, each seat's in the same order."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast = _run(case, True, monkeypatch)
        slow = _run(case, False, monkeypatch)
    assert fast[0] == slow[0] and fast[3] == slow[3]
    for got, want in zip(fast[1:3], slow[1:3], strict=True):
        assert _by_seat(got) == _by_seat(want)


def _by_seat(notices):
    return sorted((tuple(n[:3]) + (n.text,) for n in notices), key=lambda n: n[1] or 0)
