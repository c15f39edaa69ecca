"""A round closes only when it can be judged: sources' watermarks, the bounded wait for a
quiet one, untimed edges, and slaps that arrive after the verdict (injected clock)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import PressEvent
from companion.pad.link import PadPress
from companion.slap import ArbiterConfig, SlapArbiter, decide

MS = 1_000_000
CFG = ArbiterConfig()
SETTLE, TIMEOUT, QUIET = CFG.settle_ns, CFG.timeout_ns, CFG.quiet_ns
PAD = ("pad", "pad-pio")


def gpio(seat, ms, pressed=True):
    return PressEvent(seat, round(ms * MS), "gpio", pressed)


def pad(seat, ms, pressed=True, untimed=False):
    return PadPress(seat, round(ms * MS), "pad", pressed, 100_000, 0, ("pad", 1, 1), untimed)


def armed(seats=(1, 2, 3), expect=True):
    arb = SlapArbiter(seats)
    arb.arm(0)
    if expect:
        arb.expect("pad", PAD, "The slap pad")
    return arb


def test_a_complete_round_waits_for_the_pad_to_confirm_past_its_last_slap():
    arb = armed()
    arb.feed_many([gpio(1, 100), pad(2, 150), pad(3, 200)])
    assert arb.poll(200 * MS + SETTLE) is None  # the pad has not said it is complete
    arb.confirm("pad", 199 * MS)
    assert arb.poll(200 * MS + SETTLE + MS) is None  # not past the last slap yet
    arb.confirm("pad", 200 * MS)
    verdict = arb.poll(200 * MS + SETTLE + 2 * MS)
    assert verdict.picker == 3 and verdict.certain


def test_one_lost_frame_and_a_double_slap_give_the_true_last_slapper():
    """Seat 3's first press is lost and resent 100 ms later; its second press (a mash)
    arrives first. The pad's watermark stays below the lost press until it is resent, so
    the round waits, and ranks the first press."""
    arb = armed()
    arb.feed_many([gpio(1, 100), pad(2, 180), pad(3, 150, False), pad(3, 160)])
    arb.confirm("pad", 139 * MS)  # the pad still holds report "150" unacknowledged
    assert arb.poll(400 * MS) is None
    arb.feed_many([pad(3, 140)])  # the resent first press
    arb.confirm("pad", 250 * MS)
    verdict = arb.poll(400 * MS)
    assert verdict.slaps[3] == 140 * MS and verdict.picker == 2


def test_a_quiet_pad_makes_its_unheard_seats_candidates_with_a_sentence():
    arb = armed((1, 2, 3, 4))
    arb.feed_many([gpio(1, 100), gpio(2, 300), gpio(2, 400, False)])
    arb.confirm("pad", 50 * MS)
    end = 100 * MS + TIMEOUT + SETTLE
    assert arb.poll(end) is None
    assert arb.poll(end + QUIET - 1) is None  # the bounded wait
    verdict = arb.poll(end + QUIET)
    assert not verdict.certain
    assert dict(verdict.excluded) == {3: "quiet", 4: "quiet"}
    assert set(verdict.candidates) == {2, 3, 4}  # the last slapper, and the unheard
    quiet = [n for n in arb.take_notices() if n.kind == "quiet"]
    assert [n.text for n in quiet] == ["The slap pad went quiet during the round: the table "
                                       "decides"]


def test_a_seat_heard_only_on_gpio_is_no_quiet_seat():
    arb = armed((1, 2, 3))
    arb.feed_many([gpio(3, -3000), gpio(3, -2900, False)])  # seat 3 is wired to the Pi
    arb.feed_many([gpio(1, 100), pad(2, 300)])
    verdict = arb.poll(100 * MS + TIMEOUT + SETTLE + QUIET)
    # seat 3 never slapped (no pad could hide its slap); seat 2's pad slap came after
    # the pad's last word, so an earlier press of it may still be on its way
    assert verdict.non_slappers == (3,) and verdict.excluded == ((2, "quiet"),)
    assert verdict.candidates == (2, 3)


def test_the_pad_heard_again_after_a_quiet_verdict_redoes_it():
    arb = armed((1, 2, 3))
    arb.feed_many([gpio(1, 100), gpio(2, 300)])
    end = 100 * MS + TIMEOUT + SETTLE + QUIET
    quiet = arb.poll(end)
    assert dict(quiet.excluded) == {3: "quiet"} and not quiet.certain
    arb.feed_many([pad(3, 250)])  # replugged: the pad resends what it held
    assert arb.poll(end + MS) is None  # its stream is not complete yet: nothing new
    arb.confirm("pad", 2000 * MS)
    again = arb.poll(end + 2 * MS)
    assert again.picker == 2 and again.certain and arb.revision == 1
    assert arb.poll(end + 3 * MS) is None  # the same facts: no new verdict


def test_an_untimed_release_frees_a_seat_that_was_held():
    arb = SlapArbiter((1, 2))
    arb.feed(pad(1, -500))  # pressed before the round
    assert [n.kind for n in arb.arm(0)] == ["held"]
    arb.disarm()
    arb.feed(pad(1, 0, pressed=False, untimed=True))  # its release could not be timed
    assert arb.arm(10 * MS) == []
    arb.feed_many([pad(2, 100), pad(1, 200)])
    arb.expect("pad", PAD, "The slap pad")
    arb.confirm("pad", 300 * MS)
    assert arb.poll(400 * MS).picker == 1


def test_an_untimed_press_in_the_round_leaves_its_seat_a_candidate():
    arb = armed((1, 2, 3))
    arb.feed_many([gpio(1, 100), pad(2, 150, untimed=True), pad(2, 300), pad(3, 200)])
    arb.confirm("pad", 400 * MS)
    verdict = arb.poll(100 * MS + TIMEOUT + SETTLE)
    assert dict(verdict.excluded) == {2: "untimed"} and set(verdict.candidates) == {2, 3}


def test_a_slap_stamped_after_the_deadline_still_counts_as_late_not_as_a_slap():
    arb = armed((1, 2), expect=False)
    arb.feed(gpio(1, 100))
    verdict = arb.poll(100 * MS + TIMEOUT + SETTLE)
    assert verdict.picker == 2
    notes = arb.feed(gpio(2, 100 + TIMEOUT / MS + 5))
    assert [n.kind for n in notes] == ["late"]
    assert arb.poll(100 * MS + TIMEOUT + SETTLE + 10 * MS) is None


# -- the property: whatever the delays, a certain verdict is the true one ---------------

@st.composite
def deliveries(draw):
    seats = tuple(range(1, draw(st.integers(2, 6)) + 1))
    on_pad = {s: draw(st.booleans()) for s in seats}
    truth, events = {}, []  # events: (arrival ns, event, stamp)
    for s in seats:
        if draw(st.integers(0, 5)) == 0:
            continue  # never slaps
        t = draw(st.integers(1, 900)) * MS + draw(st.integers(0, 999_999))
        truth[s] = t
        presses = [t]
        if draw(st.booleans()):  # a double slap
            presses.append(t + draw(st.integers(30, 200)) * MS)
        for p in presses:
            if on_pad[s]:
                delay = draw(st.one_of(st.integers(1, 5), st.integers(90, 110),
                                       st.integers(500, 4500))) * MS
                events.append((p + delay, pad(s, p / MS), p))
                events.append((p + delay + 40 * MS, pad(s, p / MS + 25, False), p + 25 * MS))
            else:
                delay = draw(st.integers(0, SETTLE // MS - 1)) * MS
                events.append((p + delay, gpio(s, p / MS), p))
                events.append((p + delay + 40 * MS, gpio(s, p / MS + 25, False), p + 25 * MS))
    if not truth:
        first = min(seats)
        truth[first] = 10 * MS
        events.append((10 * MS, gpio(first, 10), 10 * MS))
    stall = draw(st.one_of(st.none(), st.tuples(st.integers(0, 3000), st.integers(200, 4000))))
    return seats, truth, events, stall


@settings(deadline=None, max_examples=150)
@given(deliveries())
def test_no_certain_verdict_is_ever_wrong_whatever_the_pad_delays(case):
    seats, truth, events, stall = case
    arb = SlapArbiter(seats)
    arb.arm(0)
    arb.expect("pad", PAD, "The slap pad")
    never = [s for s in seats if s not in truth]
    last = [s for s, t in truth.items() if t == max(truth.values())]
    truly_last = never or last  # who really picks up, whatever any bound says
    pending = sorted(events, key=lambda a: a[0])
    verdicts = []
    now = 0
    while now < 12_000 * MS:
        now += 16 * MS
        ready = [e for a, e, _ in pending if a <= now]
        pending = [x for x in pending if x[0] > now]
        arb.feed_many(ready)
        stalled = stall is not None and stall[0] * MS <= now < (stall[0] + stall[1]) * MS
        if not stalled:  # a heartbeat answered: complete up to the oldest undelivered
            waiting = [t for _, e, t in pending if e.source == "pad"]
            arb.confirm("pad", min([now - 5 * MS, *(t - 1 for t in waiting)]))
        verdict = arb.poll(now)
        if verdict is not None:
            verdicts.append(verdict)
    assert verdicts, "the round never closed"
    for v in verdicts:
        if v.certain:
            assert [v.picker] == truly_last, (v, truth)
    # The last word is what the rule gives for the true times at the bound it claims
    # (one source's bound when only that source slapped, both added otherwise).
    final = verdicts[-1]
    assert final.candidates == decide(truth, seats, final.resolution_ns, final.source).candidates
