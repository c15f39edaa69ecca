"""SlapArbiter: the rulebook's cases, table-driven edge cases and order properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import ConfigError
from companion.events import PressEvent
from companion.slap import (
    DEFAULT_RESOLUTION_NS,
    NOTICE_KINDS,
    ArbiterConfig,
    SlapArbiter,
    decide,
    false_alarm,
)

pytestmark = pytest.mark.arm64

MS = 1_000_000
CFG = ArbiterConfig()
SETTLE, TIMEOUT = CFG.settle_ns, CFG.timeout_ns


def ev(seat, ms, pressed=True, source="gpio"):
    return PressEvent(seat, round(ms * MS), source, pressed)


def play(events, seats=(1, 2, 3), arm_ms=0, poll_ms=None, config=None):
    """Arm, feed ``events`` in the given order, poll once; returns (verdict, notices)."""
    arb = SlapArbiter(seats, config)
    notices = arb.arm(round(arm_ms * MS))
    for e in events:
        notices += arb.feed(e)
    if poll_ms is None:  # long after anything: closes by completion or timeout
        poll_ms = max(e.t_ns for e in events) / MS + (TIMEOUT + SETTLE) / MS
    verdict = arb.poll(round(poll_ms * MS))
    return verdict, notices + arb.take_notices()


def kinds(notices):
    return {n.kind for n in notices}


def bounce(seat, ms):
    """A press at ``ms`` with a bounce train, released 80 ms later with its own bounce."""
    edges = [(0, True), (0.7, False), (1.9, True), (2.2, False), (4.5, True), (80, False),
             (81, True), (83, False)]
    return [ev(seat, ms + dt, pressed) for dt, pressed in edges]


ARM = "arm"

# (name, events in arrival order (ARM: the arm(0) call), seats, picker, candidates,
#  too_close, non_slappers, excluded, notice kinds that must appear)
CASES = [
    ("rulebook: the last slapper picks up", [ev(1, 100), ev(2, 150), ev(3, 400)],
     (1, 2, 3), 3, (3,), False, (), (), {"slap", "verdict"}),
    ("bounce never counts twice", bounce(1, 100) + bounce(2, 101.5) + bounce(3, 50),
     (1, 2, 3), 2, (2,), False, (), (), {"bounce"}),
    ("bounce arriving before its press", bounce(2, 101.5) + bounce(1, 100)[::-1] + [ev(3, 50)],
     (1, 2, 3), 2, (2,), False, (), (), {"bounce", "orphan_release"}),
    ("mashing is ignored", [ev(1, 100), ev(1, 200, False), ev(1, 300), ev(2, 150), ev(3, 50)],
     (1, 2, 3), 2, (2,), False, (), (), {"mash"}),
    ("one non-slapper picks up", [ev(1, 100), ev(2, 150)], (1, 2, 3), 3, (3,), False, (3,), (),
     set()),
    ("two non-slappers: table decides", [ev(1, 100), ev(2, 150)], (1, 2, 3, 4), None, (3, 4),
     False, (3, 4), (), set()),
    ("last two too close", [ev(1, 100), ev(2, 300), ev(3, 300.4)], (1, 2, 3), None, (2, 3),
     True, (), (), set()),
    ("every slapper within the bound", [ev(1, 100), ev(2, 299.5), ev(3, 299.8), ev(4, 300)],
     (1, 2, 3, 4), None, (2, 3, 4), True, (), (), set()),
    ("exact tie", [ev(1, 100), ev(2, 300), ev(3, 300)], (1, 2, 3), None, (2, 3), True, (), (),
     set()),
    ("unknown seats change nothing", [ev(1, 100), ev(9, 120), ev(0, 500), ev(2, 150), ev(3, 200)],
     (1, 2, 3), 3, (3,), False, (), (), {"unknown_seat"}),
    ("backwards stamp ranks by its time", [ev(1, 500), ev(1, 100), ev(2, 150), ev(3, 200)],
     (1, 2, 3), 3, (3,), False, (), (), {"backwards"}),
    ("press stamped before the arm", [ev(3, -30), ev(3, -10, False), ev(1, 100), ev(2, 150)],
     (1, 2, 3), 3, (3,), False, (3,), (), {"false_slap"}),
    ("slap after the timeout is late", [ev(1, 100), ev(2, 150), ev(3, 100 + 2600)],
     (1, 2, 3), 3, (3,), False, (3,), (), {"late"}),
    ("held before the arm, never released: may be last too", [ev(3, -500), ARM, ev(1, 100),
                                                               ev(2, 150)],
     (1, 2, 3), None, (2, 3), False, (), ((3, "held"),), {"false_slap", "held"}),
    ("held, released before the first slap", [ev(3, -500), ARM, ev(3, 50, False), ev(1, 100),
                                              ev(2, 150)],
     (1, 2, 3), 3, (3,), False, (3,), (), set()),
    ("held, released later, then slapped", [ev(3, -500), ARM, ev(3, 120, False), ev(3, 400),
                                            ev(1, 100), ev(2, 150)],
     (1, 2, 3), 3, (3,), False, (), (), set()),
    ("release bounce of a held button is no slap", [ev(3, -500), ARM, ev(3, 50, False),
                                                    ev(3, 51), ev(3, 52, False), ev(1, 100),
                                                    ev(2, 150)],
     (1, 2, 3), 3, (3,), False, (3,), (), {"bounce"}),
    ("false slap bouncing across the arm", [ev(3, -2), ev(3, -1, False), ev(3, 1),
                                            ev(3, 2, False), ev(1, 100), ev(2, 150)],
     (1, 2, 3), 3, (3,), False, (3,), (), {"false_slap", "bounce"}),
    ("release without a press", [ev(2, 90, False), ev(1, 100), ev(2, 150), ev(3, 200)],
     (1, 2, 3), 3, (3,), False, (), (), {"orphan_release"}),
    ("unknown source gets the widest bound", [ev(1, 100), ev(2, 300, source="x"),
                                              ev(3, 316, source="x")],
     (1, 2, 3), None, (2, 3), True, (), (), {"unknown_source"}),
]


@pytest.mark.parametrize(("events", "seats", "picker", "cands", "close", "never", "excl", "want"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_round_table(events, seats, picker, cands, close, never, excl, want):
    # The round is armed at 0, where ARM stands in the list (else before everything).
    arb = SlapArbiter(seats)
    notices = []
    if ARM not in events:
        notices += arb.arm(0)
    for e in events:
        notices += arb.arm(0) if e is ARM else arb.feed(e)
    verdict = arb.poll(max(e.t_ns for e in events if e is not ARM) + TIMEOUT + SETTLE)
    notices += arb.take_notices()
    assert verdict is not None
    got = (verdict.picker, verdict.candidates, verdict.too_close, verdict.non_slappers,
           verdict.excluded)
    assert got == (picker, cands, close, never, excl)
    assert want <= kinds(notices)
    assert kinds(notices) <= NOTICE_KINDS
    for n in notices:
        if n.seat is not None and n.kind != "verdict":
            assert f"Seat {n.seat}" in n.text
    assert not arb.armed and arb.last_verdict == verdict


def test_rulebook_several_false_slappers():
    verdict, _ = play([ev(2, 100), ev(4, 180), ev(1, 140)], seats=(1, 2, 3, 4))
    assert verdict.candidates == (3,)  # as a real slap, seat 3 never slapped
    assert false_alarm(verdict).picker == 4


def test_notices_carry_seat_and_time():
    _, notices = play([ev(1, 100), ev(1, 100.5, False), ev(2, 200)], seats=(1, 2))
    slap = [n for n in notices if n.kind == "slap"]
    assert [(n.seat, n.t_ns) for n in slap] == [(1, 100 * MS), (2, 200 * MS)]
    assert slap[1].text == "Seat 2: slap at +100.000 ms"


def test_presses_while_disarmed_are_false_slaps():
    arb = SlapArbiter((1, 2))
    notices = arb.feed(ev(1, 5)) + arb.feed(ev(1, 6, False)) + arb.feed(ev(1, 7))
    assert [(n.kind, n.seat, n.t_ns) for n in notices] == [("false_slap", 1, 5 * MS),
                                                          ("bounce", 1, 7 * MS)]
    assert arb.poll(10_000 * MS) is None and arb.first_slap_ns is None


def test_round_closes_settle_after_the_last_slap():
    arb = SlapArbiter((1, 2))
    arb.arm(0)
    arb.feed(ev(1, 100))
    assert arb.poll(300 * MS) is None and arb.first_slap_ns == 100 * MS
    arb.feed(ev(2, 300))
    assert arb.poll(300 * MS + SETTLE - 1) is None
    assert arb.poll(300 * MS + SETTLE).picker == 2
    assert [n.kind for n in arb.take_notices()] == ["verdict"]
    assert arb.poll(10_000 * MS) is None  # disarmed until the next arm


def test_timeout_closes_the_round():
    arb = SlapArbiter((1, 2, 3))
    arb.arm(0)
    arb.feed(ev(1, 100))
    arb.feed(ev(2, 150))
    assert arb.poll(100 * MS + TIMEOUT + SETTLE - 1) is None
    verdict = arb.poll(100 * MS + TIMEOUT + SETTLE)
    assert (verdict.picker, verdict.non_slappers) == (3, (3,))


def test_stuck_button_during_a_round():
    arb = SlapArbiter((1, 2, 3))
    arb.arm(0)
    arb.feed(ev(1, 100))  # pressed and never released
    arb.feed(ev(2, 150))
    arb.feed(ev(2, 250, False))
    # Held for over 1.5 s only once the host's stream is complete that far (a release
    # stamped before then may still be on its way: ``settle_ns``).
    assert arb.poll(100 * MS + CFG.stuck_ns + SETTLE) is None
    assert arb.take_notices() == []
    assert arb.poll(101 * MS + CFG.stuck_ns + SETTLE) is None
    stuck = arb.take_notices()
    assert [(n.kind, n.seat) for n in stuck] == [("stuck", 1)]
    assert arb.poll(1900 * MS) is None and arb.take_notices() == []  # reported once
    verdict = arb.poll(100 * MS + TIMEOUT + SETTLE)
    assert verdict.slappers == (1, 2) and verdict.picker == 3
    held = arb.arm(3000 * MS)  # next round: still down
    assert [(n.kind, n.seat) for n in held] == [("held", 1)]
    assert "Seat 1: button held down" in held[0].text


def test_slap_arriving_after_the_verdict_reopens_it():
    """A slap stamped inside the round that arrives after its verdict redoes it; one
    stamped before the next arm but arriving after it is a notice, not counted."""
    arb = SlapArbiter((1, 2, 3))
    arb.arm(0)
    arb.feed(ev(1, 100))
    arb.feed(ev(3, 400))
    first = arb.poll(100 * MS + TIMEOUT + SETTLE)
    assert first.picker == 2 and first.non_slappers == (2,) and arb.judged
    assert arb.poll(100 * MS + TIMEOUT + SETTLE + MS) is None  # nothing new
    assert [n.kind for n in arb.feed(ev(2, 150))] == ["slap"]
    again = arb.poll(100 * MS + TIMEOUT + SETTLE + 2 * MS)
    assert again.picker == 3 and again.slappers == (1, 2, 3) and arb.revision == 1
    arb.arm(5000 * MS)
    assert [n.kind for n in arb.feed(ev(2, 4000))] == ["false_slap"]


def test_arm_and_disarm_abandon_an_open_round():
    arb = SlapArbiter((1, 2))
    arb.arm(0)
    arb.feed(ev(1, 100))
    arb.disarm()
    assert arb.poll(10_000 * MS) is None
    arb.arm(20_000 * MS)
    arb.feed(ev(1, 19_000))  # before this arm: a false slap, not the old round
    assert arb.first_slap_ns is None


def test_flood_is_survived():
    flood = [ev(1, 100 + i * 0.001, pressed=bool(i % 2 == 0)) for i in range(2000)]
    verdict, notices = play(flood + [ev(2, 150)], seats=(1, 2))
    # closings of 1 µs are no hand's: seat 1 is left out as chattering, a candidate
    assert verdict.slappers == (2,) and dict(verdict.excluded) == {1: "chatter"}
    assert verdict.candidates == (1, 2) and not verdict.certain
    assert {"flood", "bounce", "chatter"} <= kinds(notices)
    assert len(notices) < 10


def test_flood_hiding_the_slap_leaves_the_seat_untimed():
    noise = [ev(1, -5 + i * 0.001, pressed=bool(i % 2)) for i in range(3000)]
    verdict, notices = play(noise + [ev(2, 150), ev(3, 160)], seats=(1, 2, 3), arm_ms=-3)
    assert (verdict.excluded, verdict.picker, verdict.candidates) == (
        ((1, "chatter"),), None, (1, 3))
    assert "flood" in kinds(notices)


@pytest.mark.parametrize("bad", [None, "press", PressEvent(True, 5, "gpio"),
                                 PressEvent(1, 5.5, "gpio"), PressEvent(1, 5, None)])
def test_invalid_events_are_reported_not_raised(bad):
    arb = SlapArbiter((1, 2))
    arb.arm(0)
    assert [n.kind for n in arb.feed(bad)] == ["invalid"]
    assert arb.first_slap_ns is None


def test_mixed_sources_add_their_bounds():
    verdict, _ = play([ev(1, 100, source="pad"), ev(2, 101.05, source="gpio")], seats=(1, 2))
    assert (verdict.source, verdict.resolution_ns, verdict.too_close) == ("gpio+pad", 1_100_000,
                                                                         True)


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"holdoff_ns": -1}, "holdoff_ns"),
    ({"holdoff_ns": 2.5}, "holdoff_ns"),
    ({"timeout_ns": 0}, "timeout_ns"),
    ({"timeout_ns": True}, "timeout_ns"),
    ({"stuck_ns": 0}, "stuck_ns"),
    ({"settle_ns": -3}, "settle_ns"),
    ({"max_edges": 2}, "max_edges"),
    ({"holdoff_ns": 5 * MS, "timeout_ns": 5 * MS}, "holdoff_ns"),
    ({"resolution_ns": {}}, "resolution_ns"),
    ({"resolution_ns": {"gpio": -1}}, r"resolution_ns\['gpio'\]"),
    ({"resolution_ns": {"": 5}}, "resolution_ns"),
    ({"resolution_ns": [("gpio", 1)]}, "resolution_ns"),
])
def test_config_rejects(kwargs, field):
    with pytest.raises(ConfigError, match=field):
        ArbiterConfig(**kwargs)


def test_config_defaults_and_bounds():
    cfg = ArbiterConfig(resolution_ns={"gpio": 2 * MS, "pad": 50_000})
    assert (CFG.holdoff_ns, CFG.timeout_ns, CFG.stuck_ns) == (20 * MS, 2500 * MS, 1500 * MS)
    assert dict(CFG.resolution_ns) == dict(DEFAULT_RESOLUTION_NS)
    assert cfg.bound_for("keyboard") == 2 * MS  # unknown here: the widest known bound
    assert cfg.round_bound(["pad", "pad"]) == 50_000
    assert cfg.round_bound(["pad", "gpio"]) == 2_050_000
    with pytest.raises(TypeError):
        cfg.resolution_ns["gpio"] = 0  # type: ignore[index]


@pytest.mark.parametrize(("seats", "words"), [((), "not empty"), ((1, 1), "distinct"),
                                              ((0, 1), "0"), ((True,), "True"), (("2",), "'2'")])
def test_seats_rejected(seats, words):
    with pytest.raises(ConfigError, match=words):
        SlapArbiter(seats)


# -- properties --------------------------------------------------------------------------
SOURCES = sorted(DEFAULT_RESOLUTION_NS)


def _train(draw, seat, t, src, pressed, most):
    """Bounce edges within 6 ms after an edge, ending in the edge's state."""
    offsets = sorted(draw(st.lists(st.integers(1_000, 6 * MS), max_size=most, unique=True)))
    out = [PressEvent(seat, t + dt, src, i % 2 == 1 if pressed else i % 2 == 0)
           for i, dt in enumerate(offsets)]
    if out and out[-1].pressed != pressed:
        out.append(PressEvent(seat, t + 6 * MS + 1, src, pressed))
    return out


def _press(draw, seat, t, src):
    out = [PressEvent(seat, t, src, True)] + _train(draw, seat, t, src, True, 8)
    up = t + draw(st.integers(30, 500)) * MS
    return out + [PressEvent(seat, up, src, False)] + _train(draw, seat, up, src, False, 4), up


@st.composite
def rounds(draw):
    """(seats, arm_ns, events in time order, true slaps, held seats, source)."""
    seats = draw(st.lists(st.integers(1, 8), min_size=2, max_size=8, unique=True))
    src = draw(st.sampled_from(SOURCES))
    bound = DEFAULT_RESOLUTION_NS[src]
    arm = draw(st.integers(0, 2**60))
    anchors = draw(st.lists(st.integers(0, 1500 * MS), min_size=1, max_size=3))
    roles = draw(st.lists(st.sampled_from(["slap"] * 4 + ["never", "late", "held", "lifted"]),
                          min_size=len(seats), max_size=len(seats)))
    roles[0] = "slap"
    events, truth, held, lifted = [], {}, set(), {}
    for seat, role in zip(seats, roles, strict=True):
        if role == "slap":
            t = arm + draw(st.sampled_from(anchors)) + draw(st.one_of(
                st.just(0), st.integers(0, 2 * bound), st.integers(0, 400 * MS)))
            mine, up = _press(draw, seat, t, src)
            if draw(st.booleans()):  # mashing
                mine += _press(draw, seat, up + draw(st.integers(30, 300)) * MS, src)[0]
            events += mine
            truth[seat] = t
        elif role == "late":
            events += _press(draw, seat, arm + 10_000 * MS, src)[0]
        elif role in ("held", "lifted"):
            events.append(PressEvent(seat, arm - 1000 * MS, src, True))
            held.add(seat)
        if role == "lifted":  # held at the arm, released (with bounce) during the round
            up = arm + draw(st.integers(0, 2000 * MS))
            events += [PressEvent(seat, up, src, False)] + _train(draw, seat, up, src, False, 4)
            lifted[seat] = up
    first = min(truth.values())
    held -= {s for s, up in lifted.items() if up < first}  # free to slap: a non-slapper
    events.sort(key=lambda e: e.t_ns)
    return seats, arm, events, truth, held, src


def _expected(seats, truth, held, src):
    return decide(truth, seats, DEFAULT_RESOLUTION_NS[src], src,
                  excluded=dict.fromkeys(held, "held"))


@settings(deadline=None, max_examples=120)
@given(rounds(), st.randoms(use_true_random=False))
def test_any_arrival_order_gives_the_true_verdict(rnd, random):
    seats, arm, events, truth, held, src = rnd
    shuffled = events[:]
    random.shuffle(shuffled)
    want = _expected(seats, truth, held, src)
    for order in (events, shuffled, events[::-1]):
        arb = SlapArbiter(seats)
        arb.arm(arm)
        for e in order:
            arb.feed(e)
        assert arb.poll(events[-1].t_ns + TIMEOUT + SETTLE) == want
        batched = SlapArbiter(seats)  # one frame's batch at a time
        batched.arm(arm)
        for k in range(0, len(order), 7):
            batched.feed_many(order[k:k + 7])
        assert batched.poll(events[-1].t_ns + TIMEOUT + SETTLE) == want
    bound = DEFAULT_RESOLUTION_NS[src]
    rank = {s: i for i, s in enumerate(want.slappers)}
    for a in truth:
        for b in truth:
            if truth[b] - truth[a] >= bound:
                assert rank[a] < rank[b]
    if want.certain and not want.non_slappers:
        assert all(truth[want.picker] - t >= bound for s, t in truth.items() if s != want.picker)


@settings(deadline=None, max_examples=80)
@given(rounds())
def test_polled_every_event_in_time_order(rnd):
    """Like the UI: events arrive in time order, poll runs with each one's time."""
    seats, arm, events, truth, held, src = rnd
    arb = SlapArbiter(seats)
    arb.arm(arm)
    verdicts = []
    for e in events:
        arb.feed(e)
        verdicts.append(arb.poll(e.t_ns))
    verdicts.append(arb.poll(events[-1].t_ns + TIMEOUT + SETTLE))
    got = [v for v in verdicts if v is not None]
    assert got == [_expected(seats, truth, held, src)]


def test_held_press_learnt_after_the_arm_is_still_held():
    """A press stamped before the arm but delivered after it counts by its stamp."""
    verdict, notices = play([ev(3, -500), ev(1, 100), ev(2, 150)])
    assert (verdict.picker, verdict.candidates, verdict.excluded) == (None, (2, 3),
                                                                        ((3, "held"),))
    assert "false_slap" in kinds(notices)


# -- honest bounds with presses mapped from another clock ------------------------------

def pad(seat, ms, unsure_ns=300_000, clock=("pad", 1), resolution_ns=56, pressed=True):
    from companion.pad.link import PadPress

    return PadPress(seat, round(ms * MS), "pad-pio", pressed, resolution_ns, unsure_ns, clock)


def test_a_pad_only_round_keeps_the_pads_own_resolution():
    verdict, _ = play([pad(1, 100), pad(2, 100.0003), pad(3, 100.0006)])
    # 300 ns apart: ordered, because one clock needs no sync margin (bound 112 ns).
    assert verdict.picker == 3 and verdict.resolution_ns == 112 and verdict.source == "pad-pio"


def test_mixed_clocks_widen_the_bound_by_the_sync_uncertainty():
    # GPIO seat 1 at 100 ms; pad seat 2 at 101.2 ms with a 300 µs sync bound:
    # 1 ms (gpio) + 112 ns (pad-pio) + 300 µs (sync) = 1.300112 ms > 1.2 ms: too close.
    verdict, _ = play([ev(1, 100), pad(2, 101.2)], seats=(1, 2))
    assert verdict.too_close and verdict.resolution_ns == 1_300_112
    assert verdict.source == "gpio+pad-pio"
    verdict, _ = play([ev(1, 100), pad(2, 101.4)], seats=(1, 2))
    assert verdict.picker == 2


def test_two_pad_chains_are_two_clocks():
    verdict, _ = play([pad(1, 100, clock=("pad", 1)), pad(2, 100.5, clock=("pad", 2))],
                      seats=(1, 2))
    assert verdict.too_close and verdict.resolution_ns == 112 + 2 * 300_000


def test_a_press_s_own_capture_bound_widens_its_source():
    verdict, _ = play([pad(1, 100, resolution_ns=400_000), pad(2, 100.3)], seats=(1, 2))
    assert verdict.too_close and verdict.resolution_ns == 400_000


def test_a_slap_that_may_have_come_before_the_arm_is_left_out():
    verdict, notices = play([pad(1, 0.2, unsure_ns=500_000), pad(2, 100), pad(3, 150)])
    assert verdict.excluded == ((1, "untimed"),) and verdict.candidates == (1, 3)
    assert verdict.picker is None
    assert "unsure_start" in kinds(notices)
    verdict, _ = play([pad(1, 0.6, unsure_ns=500_000), pad(2, 100), pad(3, 150)])
    assert verdict.excluded == ()
