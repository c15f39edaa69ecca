"""The virtual pad on a pseudo-terminal, PadSource with real pyserial: what the UI gets.

Every wait is bounded by a deadline and wakes on the pty (select), never a fixed sleep.
"""

import pytest

from companion.events import SOURCE_PAD
from companion.pad.link import LinkTiming, PadRebooted

pytestmark = pytest.mark.arm64

FAST = LinkTiming(lost_after_ns=400_000_000, hello_timeout_ns=600_000_000)


def slap_all(rig, plan):
    """Schedule taps (seat, offset_us) from now; returns the stamps the pad will give."""
    now = rig.pad.clock_us()
    expected = []
    for seat, offset in plan:
        rig.pad.tap(seat, now + offset, hold_us=40_000, bounces=2)
        expected.append((seat, rig.pad.stamp_for(now + offset) * 1000))
    return expected


def test_presses_arrive_once_as_pad_events_across_2_to_the_32(end_to_end):
    rig = end_to_end(start_us=2**32 - 300_000, seats=4, seed=1)
    assert rig.drive(rig.ready), rig.statuses()
    plan = [(1, 200_000), (2, 250_000), (3, 250_000), (4, 400_000), (1, 450_000)]
    expected = slap_all(rig, plan)
    assert rig.drive(lambda: len(rig.presses()) >= 5 and not rig.pad.firmware.pad.queue)
    rig.drive(lambda: False, timeout=0.3)  # anything doubled would show up by now
    got = sorted((e.seat, e.t_ns) for e in rig.presses())
    assert got == sorted(expected)
    assert expected[0][1] < 2**32 * 1000 < expected[-1][1]
    assert {e.source for e in rig.presses()} == {SOURCE_PAD}
    assert dict(expected)[2] == dict(expected)[3]  # one scan: a tie, no pin wins
    pad_now = rig.source.now_ns()
    assert abs(pad_now - rig.pad.clock_us() * 1000) < 20_000_000
    assert rig.source.resolution_ns >= 100_000


def test_faults_on_the_line_never_lose_or_double(end_to_end):
    rig = end_to_end(seats=8, seed=2)
    assert rig.drive(rig.ready)
    rig.pad.corrupt_rate, rig.pad.drop_rate, rig.pad.dup_rate = 0.01, 0.2, 0.2
    plan = [(1 + k % 8, 20_000 + k * 25_000) for k in range(24)]
    expected = slap_all(rig, plan)
    assert rig.drive(lambda: len(rig.presses()) >= 24 and not rig.pad.firmware.pad.queue,
                     timeout=10)
    rig.pad.corrupt_rate = rig.pad.drop_rate = rig.pad.dup_rate = 0.0
    rig.drive(lambda: False, timeout=0.3)
    assert sorted((e.seat, e.t_ns) for e in rig.presses()) == sorted(expected)
    assert rig.pad.stats["frames_dropped"] and rig.pad.stats["frames_duplicated"]
    assert rig.pad.stats["bytes_corrupted"]


def test_unplug_and_replug_reconnects_by_itself_exactly_once(end_to_end):
    rig = end_to_end(seats=4, seed=3)
    assert rig.drive(rig.ready)
    before = slap_all(rig, [(1, 10_000)])
    assert rig.drive(lambda: len(rig.presses()) == 1)
    rig.pad.unplug()
    assert rig.drive(lambda: rig.source.status.state == "lost")
    during = slap_all(rig, [(2, 1_000), (3, 5_000)])  # queued on the pad
    rig.drive(lambda: False, timeout=0.2)
    rig.pad.replug()
    assert rig.drive(lambda: rig.ready() and not rig.pad.firmware.pad.queue)
    rig.drive(lambda: False, timeout=0.3)
    assert sorted((e.seat, e.t_ns) for e in rig.presses()) == sorted(before + during)
    lost = [s for s in rig.statuses() if s.state == "lost"]
    assert "went away (unplugged?)" in lost[0].text
    assert "same boot: no slap lost" in rig.source.status.text
    assert not [e for e in rig.events if isinstance(e, PadRebooted)]


def test_replug_that_reboots_voids_the_round_with_a_message(end_to_end):
    rig = end_to_end(seats=4, seed=4, start_us=10_000_000)
    assert rig.drive(rig.ready)
    slap_all(rig, [(1, 10_000)])
    assert rig.drive(lambda: len(rig.presses()) == 1)
    old = rig.pad.nonce
    rig.pad.unplug()
    assert rig.drive(lambda: rig.source.status.state == "lost")
    rig.pad.replug(reboot=True)
    assert rig.drive(rig.ready)
    after = slap_all(rig, [(2, 10_000)])
    assert rig.drive(lambda: len(rig.presses()) == 2)
    [notice] = [e for e in rig.events if isinstance(e, PadRebooted)]
    assert notice.old_nonce == old and notice.new_nonce == rig.pad.nonce
    assert notice.reason == "replug" and "this round does not count" in notice.text
    assert rig.presses()[-1].t_ns == after[0][1]


def test_reboot_without_unplug_is_noticed_from_the_reports(end_to_end):
    rig = end_to_end(seats=4, seed=5, start_us=50_000_000)
    assert rig.drive(rig.ready)
    rig.pad.reboot()
    assert rig.drive(lambda: any(isinstance(e, PadRebooted) for e in rig.events))
    [notice] = [e for e in rig.events if isinstance(e, PadRebooted)]
    assert notice.reason == "reboot" and notice.text.startswith("The slap pad restarted")
    assert rig.drive(rig.ready)
    after = slap_all(rig, [(4, 20_000)])
    assert rig.drive(lambda: len(rig.presses()) == 1)
    assert rig.presses()[0].t_ns == after[0][1]


def test_silent_pad_is_lost_then_found_again(end_to_end):
    rig = end_to_end(seats=2, seed=6, timing=FAST)
    assert rig.drive(rig.ready)
    rig.pad.muted = True
    assert rig.drive(lambda: rig.source.status.state == "lost")
    assert "no answer for 0.4 s" in rig.source.status.text
    rig.pad.muted = False
    assert rig.drive(rig.ready)


def test_protocol_mismatch_tells_the_table_what_to_do(end_to_end):
    rig = end_to_end(seats=2, proto_version=9)
    assert rig.drive(lambda: rig.source.status.state == "failed")
    text = rig.source.status.text
    assert "protocol version 9" in text and "speaks version 2" in text
    assert "firmware/" in text


def test_lamps_on_command(end_to_end):
    rig = end_to_end(seats=4)
    assert rig.drive(rig.ready)
    rig.source.set_lamp(3, True)
    assert rig.drive(lambda: rig.pad.lamps == 0b0100)
    rig.source.set_lamp(3, False)
    rig.source.set_lamp(1, True)
    assert rig.drive(lambda: rig.pad.lamps == 0b0001)


def test_no_clock_before_the_pad_is_there(tmp_path):
    from companion.pad.source import PadSource

    source = PadSource(str(tmp_path / "nothing"), lambda e: None)
    assert source.now_ns() is None
    with pytest.raises(Exception, match="1..8"):
        source.set_lamp(0, True)
    source.stop()


def test_pad_slaps_feed_the_arbiter_in_the_pads_clock(end_to_end):
    from companion.slap import ArbiterConfig, SlapArbiter

    rig = end_to_end(seats=4, seed=8)
    assert rig.drive(lambda: rig.source.now_ns() is not None)
    arbiter = SlapArbiter([1, 2, 3], ArbiterConfig())
    arbiter.arm(rig.source.now_ns())
    now = rig.pad.clock_us()
    for seat, offset in ((2, 20_000), (1, 31_000), (3, 33_000)):  # seat 3 last by 2 ms
        rig.pad.tap(seat, now + offset, bounces=3)
    verdicts = []
    fed = len(rig.events)

    def closed():
        nonlocal fed
        for event in rig.events[fed:]:
            arbiter.feed(event)
        fed = len(rig.events)
        verdict = arbiter.poll(rig.source.now_ns())
        if verdict is not None:
            verdicts.append(verdict)
        return bool(verdicts)

    assert rig.drive(closed, timeout=5)
    [verdict] = verdicts
    assert verdict.slappers == (2, 1, 3) and verdict.picker == 3
    assert verdict.source == "pad"
    assert verdict.ranking[-1].delay_prev_ns == 2_000_000
