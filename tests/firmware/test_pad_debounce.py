"""firmware/pad.py: leading-edge debounce, ties, the queue of unacknowledged reports."""

import pytest

from companion.pad.fakehal import load_firmware

padmod = load_firmware().pad
HOLD = 20_000


def make(seats=4, capacity=32):
    return padmod.Pad(seats, HOLD, capacity, 100_000)


def run(pad, samples):
    """Feed (t_us, bits) samples the way core.poll does: only when bits differ."""
    out = []
    for t, bits in samples:
        if bits != pad.state:
            report = pad.sample(bits, t, 100)
            if report:
                out.append((report[1], report[2], report[3]))
    return out


def test_first_edge_is_stamped_at_once():
    pad = make()
    assert run(pad, [(1000, 0b0001)]) == [(1000, 0b0001, 0)]
    assert pad.state == 0b0001


def test_two_seats_in_one_sample_tie():
    pad = make()
    assert run(pad, [(5000, 0b0101)]) == [(5000, 0b0101, 0)]


def test_bounce_within_holdoff_is_ignored_and_release_reported_after():
    pad = make()
    samples = [(1000, 1), (1100, 0), (1200, 1), (1300, 0), (1400, 1),  # bounce
               (60_000, 0), (60_100, 1), (60_200, 0)]  # release with bounce
    assert run(pad, samples) == [(1000, 1, 0), (60_000, 0, 1)]


def test_release_inside_holdoff_is_reported_when_holdoff_ends():
    pad = make()
    samples = [(1000, 1), (5000, 0)] + [(t, 0) for t in range(5100, 25_000, 100)]
    assert run(pad, samples) == [(1000, 1, 0), (21_000, 0, 1)]


def test_holdoff_is_per_pin():
    pad = make()
    # Seat 1 bounces; seat 2 slaps 300 µs later and is stamped at once.
    samples = [(1000, 0b01), (1100, 0b00), (1300, 0b10), (1400, 0b11)]
    assert run(pad, samples) == [(1000, 0b01, 0), (1300, 0b10, 0)]


def test_bits_beyond_the_seat_count_are_ignored():
    pad = make(seats=2)
    assert run(pad, [(1000, 0b1100)]) == []


def test_timestamps_past_2_to_the_32_us():
    pad = make()
    t0 = 2**32 - 10_000
    samples = [(t0, 1), (t0 + 9_000, 0), (t0 + 25_000, 0), (t0 + 50_000, 1)]
    assert run(pad, samples) == [(t0, 1, 0), (t0 + 25_000, 0, 1), (t0 + 50_000, 1, 0)]


def test_report_ids_count_from_one_and_ack_removes():
    pad = make()
    run(pad, [(1000, 1), (30_000, 0), (60_000, 1)])
    assert [r[0] for r in pad.queue] == [1, 2, 3]
    assert pad.ack(2) is True
    assert pad.ack(2) is False  # a duplicate ack is harmless
    assert [r[0] for r in pad.queue] == [1, 3]


def test_due_sends_new_reports_then_resends_every_period():
    pad = make()
    run(pad, [(1000, 1), (30_000, 0)])
    assert [r[0] for r in pad.due(30_000, 8)] == [1, 2]
    assert list(pad.due(50_000, 8)) == []  # nothing due: an empty tuple
    assert [r[0] for r in pad.due(130_000, 8)] == [1, 2]
    pad.ack(1)
    assert [r[0] for r in pad.due(230_000, 8)] == [2]


def test_due_respects_the_limit_oldest_first():
    pad = make(seats=8)
    t = 0
    for k in range(10):
        t += 50_000
        run(pad, [(t, 1 << (k % 8)), (t + 25_000, 0)])
        t += 25_000
    first = pad.due(t, 8)
    assert [r[0] for r in first] == list(range(1, 9))


def test_full_queue_counts_overflow_and_never_overwrites():
    pad = make(capacity=2)
    run(pad, [(1000, 1), (30_000, 0), (60_000, 1), (90_000, 0)])
    assert [r[0] for r in pad.queue] == [1, 2]
    assert pad.overflow == 2
    assert pad.state == 0  # the debounced state still follows the buttons


@pytest.mark.parametrize("seats", [0, 9])
def test_seat_count_is_checked(seats):
    with pytest.raises(ValueError):
        padmod.Pad(seats, HOLD, 8, 100_000)
