"""ClockSync: smallest-round-trip filtering and the forgetting linear fit."""

import random

import pytest

from companion.pad.clocksync import ClockSync

DRIFT = 50e-6  # the pad's crystal runs 50 ppm fast
OFFSET = 7_000_000_000_000  # pad clock minus host clock, ns


def pad_time(host_ns):
    return OFFSET + round(host_ns * (1 + DRIFT))


def feed(sync, rng, n, period_ns=250_000_000, start_ns=10**12, spikes=0.0):
    host = start_ns
    for _ in range(n):
        rtt = rng.randint(150_000, 400_000)
        if rng.random() < spikes:
            rtt += rng.randint(5_000_000, 50_000_000)  # a delayed reply
        stamp_at = host + rng.randint(0, rtt)  # the pad stamps somewhere in the trip
        sync.add(host, host + rtt, pad_time(stamp_at))
        host += period_ns
    return host


def test_nothing_before_the_first_sample():
    assert ClockSync().snapshot() is None


def test_maps_host_to_pad_within_the_round_trip():
    sync = ClockSync()
    rng = random.Random(1)
    host = feed(sync, rng, 80)
    mapping = sync.snapshot()
    for ahead in (0, 100_000_000, 1_000_000_000):
        err = mapping.to_pad(host + ahead) - pad_time(host + ahead)
        assert abs(err) < 200_000, err
    assert mapping.slope == pytest.approx(1 + DRIFT, abs=20e-6)
    assert abs(mapping.to_host(pad_time(host)) - host) < 200_000


def test_delayed_replies_are_discarded():
    sync = ClockSync()
    rng = random.Random(2)
    host = feed(sync, rng, 80, spikes=0.3)
    assert sync.rejected > 10
    err = sync.snapshot().to_pad(host) - pad_time(host)
    assert abs(err) < 300_000, err


def test_slope_is_one_until_the_samples_span_enough_time():
    sync = ClockSync(min_span_ns=2_000_000_000)
    feed(sync, random.Random(3), 5)  # 1 s of samples
    assert sync.snapshot().slope == 1.0


def test_slope_is_limited_to_a_crystal():
    sync = ClockSync(max_ppm=1000)
    host = 0
    for k in range(40):  # a "pad" running 5 % fast: not a crystal
        sync.add(host, host + 200_000, round((host + 100_000) * 1.05) + k)
        host += 250_000_000
    assert sync.snapshot().slope == pytest.approx(1.001)


def test_negative_round_trip_is_rejected_and_reset_forgets():
    sync = ClockSync()
    assert sync.add(1000, 500, 0) is False
    assert sync.add(0, 200_000, 5) is True
    sync.reset()
    assert sync.snapshot() is None and sync.samples == 0


def test_a_slower_path_is_relearned():
    sync = ClockSync()
    host = 0
    for _ in range(20):
        sync.add(host, host + 100_000, pad_time(host + 50_000))
        host += 250_000_000
    accepted = [sync.add(host + k * 250_000_000, host + k * 250_000_000 + 3_000_000,
                         pad_time(host + k * 250_000_000 + 1_500_000)) for k in range(300)]
    assert not accepted[0]
    assert accepted[-1], "the smallest round trip must be forgotten slowly"


def test_a_much_tighter_sample_restarts_a_fit_that_began_with_a_slow_exchange():
    from companion.pad.clocksync import ClockSync

    sync = ClockSync()
    true_offset = 5_000_000_000  # pad = host + offset
    # A slow first exchange: the reply came 180 ms late, the pad answered at once.
    sync.add(0, 180_000_000, 0 + true_offset)
    assert abs(sync.snapshot().to_pad(0) - true_offset) > 80_000_000
    assert sync.snapshot().uncertainty_ns == 90_000_000
    sync.add(1_000_000_000, 1_001_000_000, 1_000_500_000 + true_offset)
    snap = sync.snapshot()
    assert abs(snap.to_pad(2_000_000_000) - (2_000_000_000 + true_offset)) < 1_000_000
    assert snap.uncertainty_ns == 500_000
