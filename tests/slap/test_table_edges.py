"""The edges of a round as the table lives them: players' taps and holds with known true
times, on the Pi's buttons, the pad and the keyboard, delivered frame by frame the way
the slap screen feeds the arbiter (one batch a frame, a poll and the pad's watermark
every frame, for half a minute after the verdict). Who is counted, who is left out and
why, and what the table is told (once)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.events import PressEvent
from companion.pad.linkevents import PadPress
from companion.slap import ArbiterConfig, SlapArbiter

MS = 1_000_000
US = 1_000
CFG = ArbiterConfig()
FRAME = 16_667 * US  # 60 frames a second
PAD_HOLDOFF = 20 * MS  # the pad firmware's own hold-off
PAD = ("pad", ("pad", "pad-pio"), "The slap pad")


@dataclass
class Hand:
    """Edges one player (or one worn switch) makes, as (arrival ns, event)."""

    edges: list = field(default_factory=list)

    def gpio(self, seat, at_ms, hold_ms, bounce=True):
        """A press on the Pi's button, kernel-stamped, with contact bounce at both ends."""
        t, up = round(at_ms * MS), round((at_ms + hold_ms) * MS)
        trains = [(t, True)]
        if bounce:
            trains += [(t + 600 * US, False), (t + 1400 * US, True)]
        trains += [(up, False)]
        if bounce:
            trains += [(up + 700 * US, True), (up + 1500 * US, False)]
        self.edges += [(s, PressEvent(seat, s, "gpio", p)) for s, p in trains]
        return self

    def worn(self, seat, at_ms, closings=5):
        """A worn contact closing for 0.3 ms at a time, every 0.7 ms: nobody's hand."""
        t = round(at_ms * MS)
        for k in range(closings):
            a = t + k * 700 * US
            self.edges += [(a, PressEvent(seat, a, "gpio", True)),
                           (a + 300 * US, PressEvent(seat, a + 300 * US, "gpio", False))]
        return self

    def pad(self, seat, at_ms, hold_ms, late_release_ms=0):
        """A tap on the pad: the firmware reports the press at once and the release
        after its hold-off at the soonest; the release may reach the host late."""
        t = round(at_ms * MS)
        up = max(round((at_ms + hold_ms) * MS), t + PAD_HOLDOFF + 10 * US)
        self.edges += [(t, PadPress(seat, t, "pad-pio", True, 112)),
                       (up + round(late_release_ms * MS),
                        PadPress(seat, up, "pad-pio", False, up - t - round(hold_ms * MS)))]
        return self

    def key(self, seat, at_ms, hold_ms, frame_late_ms=0):
        """A key held ``hold_ms``: stamped when the UI thread handles it, at the next
        frame; with ``frame_late_ms`` the press and the release are handled in one late
        frame, microseconds apart."""
        def handled(ms):
            return -(-round(ms * MS) // FRAME) * FRAME

        down = handled(at_ms)
        up = handled(at_ms + hold_ms)
        if frame_late_ms:
            down = handled(at_ms + hold_ms + frame_late_ms)
            up = down + 5 * US
        self.edges += [(down, PressEvent(seat, down, "keyboard", True)),
                       (up, PressEvent(seat, up, "keyboard", False))]
        return self


def table(seats, hands, prev=None, arm_ms=0, until_ms=34_000, confirm_lag_ms=0,
          pad_stall=None):
    """Play a round armed at ``arm_ms`` (after a previous round armed 4 s earlier if
    ``prev``), frame by frame; returns (first verdict, last verdict, this round's
    notices). The pad's watermark trails the frame by ``confirm_lag_ms``, and stops
    during ``pad_stall`` (start ms, end ms)."""
    arb = SlapArbiter(seats)
    edges = sorted(hands.edges, key=lambda a: a[0])
    notes, verdicts = [], []
    t = (arm_ms - 4000) * MS if prev is not None else arm_ms * MS
    if prev is not None:
        edges = sorted(edges + prev.edges, key=lambda a: a[0])
        arb.arm(t)
        arb.expect(*PAD)
    armed = prev is None
    if armed:
        notes += arb.arm(t)
        arb.expect(*PAD)
    k = 0
    while t < until_ms * MS:
        t += FRAME
        if not armed and t >= arm_ms * MS:
            notes = arb.arm(arm_ms * MS)  # this round's notices from here
            arb.expect(*PAD)
            armed = True
        batch = []
        while k < len(edges) and edges[k][0] <= t:
            batch.append(edges[k][1])
            k += 1
        notes += arb.feed_many(batch)
        stalled = pad_stall and pad_stall[0] * MS <= t <= pad_stall[1] * MS
        if not stalled:
            arb.confirm("pad", t - confirm_lag_ms * MS)
        verdict = arb.poll(t)
        notes += arb.take_notices()
        if verdict is not None and armed:
            verdicts.append(verdict)
    assert verdicts, "the round was never judged"
    return verdicts[0], verdicts[-1], notes


def told(notes, kind):
    return [n.seat for n in notes if n.kind == kind]


# (what the table sees, seats, this round's hands, the round before's hands,
#  seats counted, seats left out and why, seats told as chattering)
CASES = [
    ("two 15 ms pad taps, one in the round before: the player is counted",
     (1, 5), Hand().gpio(1, 300, 90).pad(5, 500, 15), Hand().pad(5, -700, 15),
     (1, 5), {}, []),
    ("two 15 ms pad taps in the round (a slap, then a mash): counted",
     (1, 5), Hand().gpio(1, 300, 90).pad(5, 500, 15).pad(5, 900, 15), None,
     (1, 5), {}, []),
    ("a keyboard key held 120 ms, handled in one late frame: counted, no chatter",
     (1, 2), Hand().key(1, 300, 120, frame_late_ms=40).key(2, 200, 90), None,
     (1, 2), {}, []),
    ("two keys each handled in one late frame, twice a round: counted",
     (1, 2), Hand().key(1, 300, 80, 30).key(1, 900, 80, 30).key(2, 200, 200, 20)
     .key(2, 700, 150, 10), None, (1, 2), {}, []),
    ("a worn GPIO switch closing 0.3 ms bursts: left out as chatter, told once",
     (1, 2, 3), Hand().gpio(1, 200, 80).gpio(2, 400, 80).worn(3, 150).worn(3, 700)
     .worn(3, 1300), None, (1, 2), {3: "chatter"}, [3]),
    ("a worn switch's one burst taken for its slap: left out, told once",
     (1, 2, 3), Hand().gpio(1, 200, 80).gpio(2, 400, 80).worn(3, 600), None,
     (1, 2), {3: "chatter"}, [3]),
    ("a worn switch bursting once after its player's slap: left out, told once",
     (1, 2, 3), Hand().gpio(1, 200, 80).gpio(3, 300, 60).worn(3, 500).gpio(2, 600, 80), None,
     (1, 2), {3: "chatter"}, [3]),
    ("a worn switch that chattered in the round before only: its player's slap counts",
     (1, 2, 3), Hand().gpio(1, 200, 80).gpio(2, 400, 80).gpio(3, 650, 60),
     Hand().worn(3, -2500).worn(3, -1900).worn(3, -300), (1, 2, 3), {}, []),
    ("a quick 8 ms tap on the Pi's button is a hand (the 3 ms line)",
     (1, 2), Hand().gpio(1, 200, 8).gpio(1, 500, 8).gpio(2, 400, 80), None,
     (1, 2), {}, []),
    ("a 0.3 ms burst at a userspace GPIO callback cannot be measured: a press",
     (1, 2), Hand(edges=[(t, PressEvent(2, t, "gpio-userspace", p)) for t, p in
                         ((400 * MS, True), (400 * MS + 300 * US, False))]).gpio(1, 200, 80),
     None, (1, 2), {}, []),
]


@pytest.mark.parametrize(("seats", "hands", "prev", "counted", "left_out", "chatter"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_table_sees(seats, hands, prev, counted, left_out, chatter):
    first, last, notes = table(seats, hands, prev)
    for verdict in (first, last):
        assert verdict.slappers == tuple(s for s in verdict.slappers if s in counted)
        assert set(verdict.slappers) == set(counted) - set(left_out)
        assert dict(verdict.excluded) == left_out
    assert told(notes, "chatter") == chatter  # once, though the close re-runs every frame
    assert not told(notes, "stuck")


def test_a_keyboard_round_is_timed_to_a_frame():
    """Keys are stamped a frame late at most: two slaps more than a frame apart are
    called, closer ones are too close."""
    assert CFG.bound_for("keyboard") == 17 * MS
    _, verdict, _ = table((1, 2), Hand().key(1, 200, 90).key(2, 240, 90))
    assert verdict.picker == 2 and verdict.resolution_ns == 17 * MS
    _, verdict, _ = table((1, 2), Hand().key(1, 200, 90).key(2, 205, 90))
    assert verdict.too_close and verdict.candidates == (1, 2)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(80, 200), st.integers(0, 120), st.integers(1, 300)),
                min_size=2, max_size=2), st.integers(0, 1500))
def test_held_keys_are_never_left_out(keys, seat2_ms):
    """Keys held 80-200 ms, each handled in one frame up to 120 ms late (press and
    release stamped microseconds apart), twice a round: the player is always counted."""
    hands = Hand().key(2, seat2_ms, 100)
    at = 0
    for hold, late, gap in keys:
        hands.key(1, at + 50, hold, frame_late_ms=late)
        at += 50 + hold + late + gap
    first, last, notes = table((1, 2), hands, until_ms=6000)
    assert set(first.slappers) == set(last.slappers) == {1, 2} and not last.excluded
    assert not told(notes, "chatter")


def test_a_pad_release_that_arrives_late_is_no_stuck_button():
    """Seat 5's 15 ms tap reaches the host, its release only after a 3 s stall of the
    link: nobody held the button, nothing says so."""
    hands = Hand().gpio(1, 200, 80).pad(5, 500, 15, late_release_ms=3000)
    _, verdict, notes = table((1, 5), hands, pad_stall=(480, 3600))
    assert not told(notes, "stuck") and verdict.picker == 5


def test_a_pad_button_really_held_is_told_once():
    hands = Hand().gpio(1, 200, 80)
    hands.edges.append((500 * MS, PadPress(5, 500 * MS, "pad-pio", True, 112)))
    _, verdict, notes = table((1, 5), hands, until_ms=5000)
    assert told(notes, "stuck") == [5] and verdict.picker == 5


def test_a_pad_button_held_past_a_quiet_watermark_is_not_told_yet():
    """Stuck is told only once the pad's stream is complete 1.5 s past the press."""
    hands = Hand().gpio(1, 200, 80)
    hands.edges.append((500 * MS, PadPress(5, 500 * MS, "pad-pio", True, 112)))
    _, _, notes = table((1, 5), hands, until_ms=5000, pad_stall=(400, 9000))
    assert not told(notes, "stuck")


@st.composite
def rounds(draw):
    """A round's edges: hands on the Pi's buttons, the pad and the keyboard, and a worn
    switch, each seat on one source."""
    hands = Hand()
    seats = (1, 2, 3, 4)
    for seat, kind in zip(seats, draw(st.permutations(["gpio", "pad", "key", "worn"])),
                          strict=True):
        at = draw(st.integers(50, 1500))
        for _ in range(draw(st.integers(0 if kind == "worn" else 1, 3))):
            hold = draw(st.integers(5, 200))
            getattr(hands, kind)(seat, at, *(() if kind == "worn" else (hold,)))
            at += hold + draw(st.integers(25, 600))
    return seats, [e for _, e in hands.edges]


@settings(max_examples=150, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_the_order_edges_arrive_in_never_changes_the_verdict(rnd, rng):
    seats, events = rnd
    got = []
    for shuffle, batch in ((False, False), (True, False), (True, True)):
        order = events[:]
        if shuffle:
            rng.shuffle(order)
        arb = SlapArbiter(seats)
        arb.arm(0)
        if batch:
            arb.feed_many(order)
        else:
            for e in order:
                arb.feed(e)
        got.append(arb.poll(10**10))
    assert got[0] is not None and got[0] == got[1] == got[2]


def test_a_pad_slap_too_close_to_the_arm_is_told_once():
    """The pad's clock sync cannot tell whether seat 5 slapped before the arm: it is left
    out, and the table hears it once, though the close runs again every frame."""
    hands = Hand().gpio(1, 300, 80)
    hands.edges.append((MS, PadPress(5, MS, "pad-pio", True, 112, uncertainty_ns=2 * MS)))
    first, last, notes = table((1, 5), hands)
    assert dict(first.excluded) == dict(last.excluded) == {5: "untimed"}
    assert told(notes, "unsure_start") == [5]


def test_a_switch_chattering_all_through_the_round_is_left_out_once():
    """Closings of 0.3 ms every 5 ms for four seconds (one train, more edges than a round
    keeps): the round closes, the seat is left out and told once."""
    hands = Hand().gpio(1, 200, 80).gpio(2, 400, 80)
    for k in range(800):
        hands.worn(3, 100 + 5 * k, closings=1)
    first, last, notes = table((1, 2, 3), hands, until_ms=8000)
    assert dict(first.excluded) == dict(last.excluded) == {3: "chatter"}
    assert told(notes, "chatter") == [3]
