"""Chatter: a switch that closes by itself in bursts is named and left out of the
verdict, from raw GPIO edges (gpiozero MockFactory pins); from the pad (its firmware
reports a burst as a press and the release one hold-off later, as it reports a quick
tap) it cannot be told from a hand."""

from __future__ import annotations

import random

import gpiozero.pins.mock as mock_pins
import pytest

from companion.events import EventQueue, PressEvent
from companion.hw.buttons import SeatButtons
from companion.slap import ArbiterConfig, SlapArbiter
from companion.slap.chatter import blips

MS = 1_000_000
CFG = ArbiterConfig()


def edges(*pairs, source="gpio"):
    """(ms, pressed) pairs -> sorted edges as the arbiter keeps them."""
    return [(round(ms * MS), pressed, PressEvent(1, round(ms * MS), source, pressed))
            for ms, pressed in pairs]


def count(*pairs, at_rest=True, source="gpio"):
    return blips(edges(*pairs, source=source), at_rest, CFG)


@pytest.mark.parametrize("source", ["keyboard", "gpio-userspace", "pad", "pad-pio"])
def test_a_source_that_cannot_see_a_3_ms_closing_never_makes_a_blip(source):
    """Its stamps are a frame, 10 ms or the pad's hold-off coarse: what looks like a
    0.3 ms closing there may be a hand's 15 ms tap."""
    from companion.pad.linkevents import PadPress

    pairs = burst(100) + burst(300) + [(500, True), (500.001, False)]
    if source.startswith("pad"):
        got = blips([(round(ms * MS), p, PadPress(1, round(ms * MS), source, p))
                     for ms, p in pairs], True, CFG)
    else:
        got = count(*pairs, source=source)
    assert got == 0
    assert count(*pairs) == 3  # the same edges from the Pi's kernel-stamped GPIO


def burst(ms, n=5, gap=0.4):
    """A burst of ``n`` closings within a few ms that ends open, starting at ``ms``."""
    out = []
    for k in range(n):
        out += [(ms + 2 * k * gap, True), (ms + (2 * k + 1) * gap, False)]
    return out


@pytest.mark.parametrize("pairs, want, why", [
    (burst(100), 1, "one burst back at rest within 4 ms is one blip"),
    (burst(100) + burst(300), 2, "two bursts"),
    ([(100, True), (120, False), (400, True), (420, False)], 0,
     "at the host, two quick 20 ms taps are a hand's (a blip is under 5 ms)"),
    ([(100, True), (100.7, False), (101.9, True), (180, False), (181, True), (183, False)], 0,
     "a slap with bounce, held 80 ms, released with bounce"),
    ([(100, True), (102, False)], 1, "one 2 ms closing: a blip, but only one"),
    ([(100, True), (104, False)], 0, "a 4 ms closing is a (very quick) hand"),
    ([(100, True), (400, False), (401, True), (402, False), (403, True)], 0,
     "a held switch that chatters while held: no press from rest"),
])
def test_blips(pairs, want, why):  # host stamps: every edge seen
    assert count(*pairs) == want, why


def ev(seat, ms, pressed=True, source="gpio"):
    return PressEvent(seat, round(ms * MS), source, pressed)


def run(events, seats=(1, 2, 3), arm_ms=0, feed_many=False):
    arb = SlapArbiter(seats, CFG)
    notes = arb.arm(round(arm_ms * MS))
    if feed_many:
        notes += arb.feed_many(events)
    else:
        for e in events:
            notes += arb.feed(e)
    verdict = arb.poll(max(e.t_ns for e in events) + CFG.timeout_ns + CFG.settle_ns)
    return verdict, notes + arb.take_notices()


def chatter(seat, *starts_ms, source="gpio"):
    return [ev(seat, ms, p, source) for start in starts_ms for ms, p in burst(start)]


@pytest.mark.parametrize("feed_many", [False, True])
def test_a_chattering_seat_is_named_and_left_out(feed_many):
    # Seat 3 never slaps; its switch chatters three times around the round. Without the
    # chatter rule its first burst would be its "slap" and seat 2 would pick up.
    events = [ev(1, 100), ev(1, 180, False), ev(2, 250), ev(2, 330, False)]
    events += chatter(3, 150, 600, 900)
    verdict, notes = run(sorted(events, key=lambda e: e.t_ns), feed_many=feed_many)
    assert verdict.excluded == ((3, "chatter"),) and verdict.slappers == (1, 2)
    # seat 2 was the last of the seats that could be timed; seat 3 may have been later
    assert verdict.picker is None and verdict.candidates == (2, 3)
    said = [n for n in notes if n.kind == "chatter"]
    assert [n.seat for n in said] == [3]
    assert said[0].text.startswith("Seat 3's button is chattering")


def test_chatter_before_the_round_does_not_count():
    """The switch chattered before the arm; in the round its player slaps (a 2 ms first
    closing, then held): a hand, counted."""
    events = chatter(3, -900, -400, -100) + [ev(3, 150), ev(3, 152, False), ev(3, 153)]
    events += [ev(1, 100), ev(1, 180, False), ev(2, 250), ev(2, 330, False)]
    verdict, notes = run(events, arm_ms=0)
    assert not verdict.excluded and verdict.slaps[3] == 150 * MS and verdict.picker == 2
    assert "chatter" not in {n.kind for n in notes}


def test_one_quick_tap_is_a_slap_not_chatter():
    events = [ev(1, 100), ev(1, 180, False), ev(2, 250), ev(2, 265, False),  # a 15 ms tap
              ev(3, 400), ev(3, 480, False)]
    verdict, notes = run(events)
    assert verdict.picker == 3 and not verdict.excluded
    assert "chatter" not in {n.kind for n in notes}


def test_bounce_and_mashing_are_never_chatter():
    rng = random.Random(3)
    for _ in range(50):
        events = []
        for seat in (1, 2, 3):
            t = rng.randint(50, 900)
            for _ in range(rng.randint(1, 4)):  # mashing: presses of 40 ms and more
                events.append(ev(seat, t))
                bounces = sorted(rng.sample(range(1, 60), 2 * rng.randint(0, 3)))
                events += [ev(seat, t + b / 10, k % 2 == 1) for k, b in enumerate(bounces)]
                events.append(ev(seat, t + rng.randint(40, 200), False))
                t += rng.randint(250, 400)
        verdict, notes = run(sorted(events, key=lambda e: e.t_ns))
        assert not verdict.excluded and "chatter" not in {n.kind for n in notes}


class Clock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_burst_chatter_on_real_gpiozero_pins_never_slaps(config, mock_factory, monkeypatch):
    """200 rounds: seat 3's switch chatters in bursts and its player never slaps. It must
    never be counted as a slap, and each round says so by seat."""
    clock = Clock()
    monkeypatch.setattr(mock_pins, "monotonic", clock)
    queue = EventQueue()
    buttons = SeatButtons(config, queue.post, pin_factory=mock_factory, source="mock")
    rng = random.Random(14)
    pins = {s: mock_factory.pin(config.seat(s).button_pin) for s in (1, 2, 3)}
    try:
        for k in range(200):
            arm = 100.0 + 10.0 * k
            arbiter = SlapArbiter((1, 2, 3), ArbiterConfig())
            arbiter.arm(round(arm * 1e9))
            plan = sorted([(arm + rng.uniform(0.1, 1.0), "slap", 1),
                           (arm + rng.uniform(0.1, 1.0), "slap", 2)]
                          + [(arm + rng.uniform(-1.0, 2.0), "burst", 3) for _ in range(4)])
            for at, what, seat in plan:
                pin = pins[seat]
                if what == "slap":
                    clock.t = at
                    pin.drive_low()
                    clock.t = at + 0.08
                    pin.drive_high()
                else:
                    for j in range(rng.randint(2, 6)):  # closes for a fraction of a ms
                        clock.t = at + j * 0.0007
                        pin.drive_low()
                        clock.t = at + j * 0.0007 + 0.0003
                        pin.drive_high()
            notes = []
            for event in queue.drain():
                notes += arbiter.feed(event)
            verdict = arbiter.poll(round((arm + 5.0) * 1e9))
            notes += arbiter.take_notices()
            assert 3 not in verdict.slappers, (k, plan)
            if any(at >= arm for at, what, _ in plan if what == "burst"):
                assert verdict.excluded == ((3, "chatter"),)
                assert [n.seat for n in notes if n.kind == "chatter"] == [3]
            else:  # it chattered only before the round: within it, it never pressed
                assert verdict.picker == 3 and not verdict.excluded
    finally:
        buttons.close()


def test_burst_chatter_from_the_virtual_pad_looks_like_quick_taps():
    """The pad's known limit: its firmware reports a worn switch's burst as a press and,
    one hold-off later, the release, exactly as it reports a hand's 15 ms tap. At the
    pad's resolution that is something a hand does, so it is taken for a press (the
    honest player who taps quickly is never left out); telling them apart needs the
    firmware to report what its hold-off hides."""
    from wiresim import MS as SIM_MS
    from wiresim import SECOND, WireSim

    from companion.pad.link import PadPress

    sim = WireSim(seats=4, ppm=30, seed=5)
    sim.run_until(sim.host_ns + 5 * SECOND)
    sim.take()
    arm = sim.host_ns + 100 * SIM_MS
    sim.slap(1, arm + 200 * SIM_MS)
    sim.slap(2, arm + 420 * SIM_MS)
    for start in (arm + 150 * SIM_MS, arm + 700 * SIM_MS):  # two bursts
        for j in range(4):
            at = start + j * 700_000
            sim.at(at, lambda: sim._set_seat(4, True))
            sim.at(at + 300_000, lambda: sim._set_seat(4, False))
    tap = arm + 1200 * SIM_MS  # and a hand's 15 ms tap
    sim.at(tap, lambda: sim._set_seat(4, True))
    sim.at(tap + 15 * SIM_MS, lambda: sim._set_seat(4, False))
    sim.run_until(arm + 3 * SECOND)
    presses = [e for e in sim.take() if isinstance(e, PadPress)]
    seat4 = [e for e in presses if e.seat == 4]
    assert [e.pressed for e in seat4] == [True, False] * 3
    lengths = [(b.t_ns - a.t_ns) // SIM_MS for a, b in zip(seat4[::2], seat4[1::2],
                                                           strict=True)]
    assert all(20 <= n <= 21 for n in lengths)  # bursts and the tap alike: one hold-off
    arbiter = SlapArbiter((1, 2, 4), ArbiterConfig())
    arbiter.arm(arm)
    notes = []
    for e in presses:
        notes += arbiter.feed(e)
    verdict = arbiter.poll(arm + 5 * SECOND)
    notes += arbiter.take_notices()
    assert not verdict.excluded and "chatter" not in {n.kind for n in notes}
    assert verdict.slaps[4] == seat4[0].t_ns


@pytest.mark.parametrize("tie", [[(6.0, True), (6.0, False)], [(6.0, False), (6.0, True)]])
def test_two_edges_at_one_stamp_inside_a_bounce_train_are_no_chatter(tie):
    """Found by the bench: a press and a release on the same nanosecond inside a slap's
    bounce train, arriving in either order, made two blips out of one slap."""
    slap = [(0.0, True), (0.7, False), (2.9, True), (3.1, False), (5.4, True), *tie,
            (131.0, False), (131.3, True), (131.7, False), (134.7, True), (136.4, False)]
    events = [ev(3, 1500 + ms, pressed) for ms, pressed in slap]
    events += [ev(1, 100), ev(1, 180, False), ev(2, 250), ev(2, 330, False)]
    for order in (events, events[::-1]):
        verdict, notes = run(order)
        assert verdict.picker == 3 and not verdict.excluded
        assert "chatter" not in {n.kind for n in notes}
    assert count(*slap) == count(*slap[:5], *tie[::-1], *slap[7:]) == 0
