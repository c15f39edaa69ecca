"""ClockSync: offset and rate fitted from heartbeats, an honest bound, jumps caught."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.pad.clocksync import ACCEPTED, DELAYED, INVALID, JUMP, ClockSync

OFFSET = 7_000_000_000_000  # pad clock minus host clock at host 0, ns


class Crystal:
    """A pad clock ``ppm`` off the host's: pad = offset + (1 + ppm) * host."""

    def __init__(self, ppm, offset=OFFSET):
        self.rate, self.offset = 1 + ppm * 1e-6, offset

    def pad(self, host):
        return self.offset + round(host * self.rate)

    def host(self, pad):
        return (pad - self.offset) / self.rate


def beat(sync, crystal, host, rng, rtt_lo=150_000, rtt_hi=600_000, spike=0.0):
    """One heartbeat sent at ``host``: returns (outcome, pad time stamped, host truth)."""
    rtt = rng.randint(rtt_lo, rtt_hi)
    if rng.random() < spike:
        rtt += rng.randint(5_000_000, 80_000_000)  # a reply stuck behind something
    at = host + rng.randint(0, rtt)  # the pad reads its clock somewhere in the trip
    pad = crystal.pad(at)
    return sync.add(host, host + rtt, pad), pad, at


def run(sync, crystal, rng, seconds, start=10**12, period=247_000_000, **kw):
    host = start
    for _ in range(int(seconds * 1e9 / period)):
        beat(sync, crystal, host, rng, **kw)
        host += period
    return host


def test_nothing_before_the_first_sample():
    assert ClockSync().snapshot() is None


def test_offset_and_rate_follow_a_fast_crystal():
    crystal = Crystal(+50)
    sync = ClockSync()
    host = run(sync, crystal, random.Random(1), 300)
    snap = sync.snapshot()
    assert snap.slope == pytest.approx(1 + 50e-6, abs=2e-6)
    for ahead in (0, 100_000_000, 1_000_000_000):
        pad = crystal.pad(host + ahead)
        assert abs(snap.to_host(pad) - (host + ahead)) < 300_000
        assert abs(snap.to_pad(host + ahead) - pad) < 300_000
    assert snap.uncertainty_at(crystal.pad(host)) < 600_000  # about half a round trip


@settings(max_examples=40, deadline=None)
@given(ppm=st.floats(-120, 120), seed=st.integers(0, 10**6), seconds=st.integers(1, 200),
       spike=st.sampled_from([0.0, 0.05, 0.3]), rtt_hi=st.sampled_from([300_000, 3_000_000]))
def test_the_bound_is_honest(ppm, seed, seconds, spike, rtt_hi):
    """Wherever a pad time is mapped (at a sample, between samples, up to 1 s past the
    last one, or well back), the truth is within the bound the map claims."""
    rng = random.Random(seed)
    crystal = Crystal(ppm, offset=rng.randint(0, 2**50))
    sync = ClockSync()
    host = 10**12
    truths = []
    for _ in range(int(seconds * 4)):
        outcome, pad, at = beat(sync, crystal, host, rng, rtt_hi=rtt_hi, spike=spike)
        assert outcome != JUMP
        truths.append((pad, at))
        host += 247_000_000
    snap = sync.snapshot()
    probes = truths[-40:] + [(crystal.pad(host + d), host + d)
                             for d in (0, 50_000_000, 1_000_000_000)]
    probes += [(crystal.pad(host - d), host - d) for d in (3_000_000_000, 30_000_000_000)]
    for pad, truth in probes:
        err = abs(snap.to_host(pad) - truth)
        assert err <= snap.uncertainty_at(pad), (err, snap.uncertainty_at(pad), snap)


def test_delayed_replies_are_discarded_and_do_not_pull_the_fit():
    crystal = Crystal(-30)
    sync = ClockSync()
    host = run(sync, crystal, random.Random(2), 60, spike=0.3)
    assert sync.rejected > 20
    snap = sync.snapshot()
    assert abs(snap.to_host(crystal.pad(host)) - host) < 400_000


def test_a_slow_first_exchange_counts_for_little():
    crystal = Crystal(0)
    sync = ClockSync()
    sync.add(0, 180_000_000, crystal.pad(0))  # the reply came 180 ms late
    assert sync.snapshot().uncertainty_ns == 90_000_000  # and the bound says so
    sync.add(1_000_000_000, 1_001_000_000, crystal.pad(1_000_500_000))
    snap = sync.snapshot()
    assert abs(snap.to_host(crystal.pad(2_000_000_000)) - 2_000_000_000) < 1_000_000
    assert snap.uncertainty_ns <= 1_000_000


def test_before_the_samples_span_two_seconds_the_rate_is_unknown_and_the_bound_grows():
    sync = ClockSync()
    crystal = Crystal(0)
    sync.add(0, 200_000, crystal.pad(100_000))
    snap = sync.snapshot()
    assert snap.slope == 1.0
    near, far = snap.uncertainty_at(crystal.pad(0)), snap.uncertainty_at(crystal.pad(10**9))
    assert far - near >= 990_000  # 1 s away: a crystal may be 1000 ppm off


@pytest.mark.parametrize("step_ns, why", [
    (-7_000_000_000_000, "the pad restarted without a new HELLO: its clock is back near 0"),
    (-(2**32) * 1000, "a 32-bit microsecond counter wrapped"),
    (50_000_000, "the clock stepped 50 ms forward"),
    (-20_000_000, "the clock stepped 20 ms back"),
])
def test_a_clock_that_jumps_starts_a_new_fit(step_ns, why):
    crystal = Crystal(20)
    rng = random.Random(3)
    sync = ClockSync()
    host = run(sync, crystal, rng, 30)
    epoch = sync.snapshot().epoch
    crystal.offset += step_ns
    outcome, _, _ = beat(sync, crystal, host, rng)
    assert outcome == JUMP, why
    assert sync.snapshot().epoch == epoch + 1 and sync.jumps == 1
    host = run(sync, crystal, rng, 10, start=host + 247_000_000)
    snap = sync.snapshot()
    assert abs(snap.to_host(crystal.pad(host)) - host) <= snap.uncertainty_at(crystal.pad(host))


def test_steps_within_the_bound_are_not_jumps():
    crystal = Crystal(0)
    rng = random.Random(4)
    sync = ClockSync()
    host = run(sync, crystal, rng, 30)
    crystal.offset += 50_000  # 50 µs: inside the round trip, nothing to tell
    assert beat(sync, crystal, host, rng)[0] == ACCEPTED


def test_a_clock_that_is_no_crystal_keeps_jumping():
    sync = ClockSync()
    outcomes = []
    host = 0
    for _ in range(40):  # a "pad" running 5 % fast
        outcomes.append(sync.add(host, host + 200_000, round((host + 100_000) * 1.05)))
        host += 250_000_000
    assert outcomes.count(JUMP) > 10


def test_negative_round_trip_is_invalid_and_reset_forgets():
    sync = ClockSync()
    assert sync.add(1000, 500, 0) == INVALID
    assert sync.add(0, 200_000, 5) == ACCEPTED
    epoch = sync.epoch
    sync.reset()
    assert sync.snapshot() is None and sync.samples == 0 and sync.epoch == epoch + 1


def test_a_slower_path_is_relearned():
    crystal = Crystal(0)
    sync = ClockSync()
    host = 0
    for _ in range(20):
        sync.add(host, host + 100_000, crystal.pad(host + 50_000))
        host += 250_000_000
    outcomes = [sync.add(host + k * 250_000_000, host + k * 250_000_000 + 3_000_000,
                         crystal.pad(host + k * 250_000_000 + 1_500_000)) for k in range(300)]
    assert outcomes[0] == DELAYED
    assert outcomes[-1] == ACCEPTED, "the smallest round trip must be forgotten slowly"


def lopsided(sync, crystal, host, rng, to_pad, to_host):
    """A heartbeat whose way to the pad takes ``to_pad`` ns (the pad reads its clock when
    it reads the heartbeat) and whose reply takes ``to_host`` ns back (either may be a
    (lo, hi) range to draw from)."""
    there = rng.randint(*to_pad) if isinstance(to_pad, tuple) else to_pad
    back = rng.randint(*to_host) if isinstance(to_host, tuple) else to_host
    at = host + there
    return sync.add(host, at + back, crystal.pad(at)), crystal.pad(at), at


QUICK, SLOW = (100_000, 1_000_000), (10_000_000, 90_000_000)


def test_each_direction_s_quickest_trip_counts_on_its_own():
    """Every round trip waits 10-90 ms one way or the other: on its way to the pad (the
    pad's loop reads it late) or on its way back (the host's reader gets to it late), as
    the bench's virtual pad and a busy host's link thread did. No single reply pins the
    pad's time closer than 5 ms, so the bound stayed over 5 ms and every press waited its
    3 s for a 2 ms fit, then went out with a wide doubt. But a reply bounds the pad's
    clock from above by its send and from below by its receipt, each on its own, and a
    steady crystal ties them together over the window: the quick ways there pin one side,
    the quick ways back the other. Within 40 s a press up to a heartbeat past the latest
    one is placed well inside the 2 ms the link asks for."""
    crystal = Crystal(+37)
    rng = random.Random(8)
    sync = ClockSync()
    host = 10**12
    for _ in range(160):
        there, back = (SLOW, QUICK) if rng.random() < 0.5 else (QUICK, SLOW)
        assert lopsided(sync, crystal, host, rng, there, back)[0] != JUMP
        host += 247_000_000
    snap = sync.snapshot()
    for ahead in (0, 100_000_000, 247_000_000):
        pad = crystal.pad(host + ahead)
        err = abs(snap.to_host(pad) - (host + ahead))
        assert err <= snap.uncertainty_at(pad) <= 1_000_000, (ahead, err, snap)


def test_a_way_that_always_waits_is_a_doubt_no_sample_can_remove():
    """If every heartbeat waits at least 10 ms on its way to the pad, a pad clock 10 ms
    ahead would answer alike: the bound must stay at least that wide."""
    crystal = Crystal(0)
    rng = random.Random(9)
    sync = ClockSync()
    host = 10**12
    for _ in range(200):
        lopsided(sync, crystal, host, rng, SLOW, QUICK)
        host += 247_000_000
    snap = sync.snapshot()
    pad = crystal.pad(host)
    assert abs(snap.to_host(pad) - host) <= snap.uncertainty_at(pad)
    assert snap.uncertainty_at(pad) >= 5_000_000


@settings(max_examples=40, deadline=None)
@given(ppm=st.floats(-120, 120), seed=st.integers(0, 10**6), beats=st.integers(1, 400),
       to_pad_hi=st.sampled_from([300_000, 5_000_000, 90_000_000]),
       to_host_hi=st.sampled_from([300_000, 5_000_000, 90_000_000]))
def test_the_bound_is_honest_whichever_way_the_trip_waits(ppm, seed, beats, to_pad_hi,
                                                          to_host_hi):
    """Lopsided trips, either way round, with slow replies the fit discards: wherever a
    pad time is mapped, the truth is within the claimed bound."""
    rng = random.Random(seed)
    crystal = Crystal(ppm, offset=rng.randint(0, 2**50))
    sync = ClockSync()
    host = 10**12
    truths = []
    for _ in range(beats):
        outcome, pad, at = lopsided(sync, crystal, host, rng, (50_000, to_pad_hi),
                                    (50_000, to_host_hi))
        assert outcome != JUMP
        truths.append((pad, at))
        host += rng.choice((30_000_000, 247_000_000))
    snap = sync.snapshot()
    probes = truths[-40:] + [(crystal.pad(host + d), host + d)
                             for d in (0, 50_000_000, 1_000_000_000, 3_000_000_000)]
    probes += [(crystal.pad(host - d), host - d) for d in (3_000_000_000, 30_000_000_000)]
    for pad, truth in probes:
        err = abs(snap.to_host(pad) - truth)
        assert err <= snap.uncertainty_at(pad), (err, snap.uncertainty_at(pad))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_crystal_warming_up_bends_the_line_and_the_bound_still_holds(seed):
    """The envelope takes the error for a straight line over two minutes; a crystal that
    warms up changes its rate (here 10 ppm within a minute, more than a board warming
    does), which bends it. The bound allows for that bend, and it is never a jump."""
    rng = random.Random(seed)
    sync = ClockSync()
    host, pad, ppm = 10**12, 7 * 10**15, 20.0
    for k in range(1200):
        ppm = 20.0 + 10.0 * min(max((k * 0.247 - 120) / 60, 0.0), 1.0)
        rate = 1 + ppm * 1e-6
        there, back = rng.randint(50_000, 400_000), rng.randint(50_000, 400_000)
        assert sync.add(host, host + there + back, round(pad + there * rate)) != JUMP
        snap = sync.snapshot()
        for ahead in (there, there + 100_000_000, 247_000_000):
            truth_pad = round(pad + ahead * rate)
            err = abs(snap.to_host(truth_pad) - (host + ahead))
            assert err <= snap.uncertainty_at(truth_pad), (k, ahead, err)
        host, pad = host + 247_000_000, pad + 247_000_000 * rate
