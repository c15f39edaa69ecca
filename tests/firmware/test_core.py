"""firmware/core.py on FakeHal: what the pad answers, reports, resends and switches."""

import pytest

from companion.pad import codec
from companion.pad.fakehal import FakeHal, load_firmware

fw = load_firmware()
SCAN = 100


class Rig:
    """The firmware on a fake hal, with the host side spoken through the host codec."""

    def __init__(self, seats=4, start_us=0, capture="scan"):
        self.hal = FakeHal(seats, start_us, capture=capture)
        self.fw = fw.core.Firmware(self.hal, service_every=1)
        self.seq = 0
        self.decoder = codec.FrameDecoder()

    def run_until(self, t_us):
        t = self.hal.now_us()
        while t < t_us:
            t = min(t + SCAN, t_us)
            self.hal.set_time(t)
            self.fw.poll()

    def send(self, msg):
        self.hal.feed_rx(codec.encode_message(self.seq, msg))
        self.seq += 1
        return self.seq - 1

    def replies(self):
        frames = self.decoder.feed(b"".join(self.hal.take_tx()))
        return [(f.seq, codec.decode_message(f)) for f in frames]

    def messages(self):
        return [m for _, m in self.replies()]


def test_boot_takes_over_the_serial_line_and_darkens_lamps():
    rig = Rig()
    assert rig.hal.kbd_intr_disabled
    assert rig.hal.lamps == 0 and rig.hal.lamp_writes == 1
    assert rig.fw.nonce != 0


def test_hello_names_the_request_it_answers():
    rig = Rig(seats=6)
    rig.send(codec.HelloReq())
    seq = rig.send(codec.HelloReq())
    rig.run_until(1000)
    hellos = rig.messages()
    assert [h.re for h in hellos] == [0, seq]
    h = hellos[1]
    assert (h.proto, h.seats, h.nonce) == (codec.PROTOCOL_VERSION, 6, rig.fw.nonce)
    assert h.product == codec.PRODUCT == b"SLAP"
    assert h.firmware == fw.core.FIRMWARE_VERSION
    assert (h.chip, h.capture) == (codec.CHIP_SIMULATED, codec.CAPTURE_SCAN)
    assert (h.capture_ns, h.holdoff_us) == (fw.core.SCAN_NS, fw.core.HOLDOFF_NS // 1000)


def test_hello_says_pio_capture_and_its_sample_period():
    rig = Rig(capture="pio")
    rig.send(codec.HelloReq())
    rig.run_until(1000)
    [h] = rig.messages()
    assert (h.capture, h.capture_ns) == (codec.CAPTURE_PIO, 56)


def test_heartbeat_reply_echoes_and_stamps_with_64_bit_time():
    rig = Rig(start_us=2**32 - 500)
    rig.run_until(2**32 + 1000)
    seq = rig.send(codec.Heartbeat(123456789))
    rig.run_until(2**32 + 1100)
    [reply] = rig.messages()
    assert isinstance(reply, codec.HeartbeatReply)
    assert (reply.re, reply.echo, reply.nonce) == (seq, 123456789, rig.fw.nonce)
    assert (2**32 + 1000) * 1000 < reply.t_ns <= (2**32 + 1100) * 1000
    assert reply.max_gap_ns == SCAN * 1000


def test_press_reported_resent_until_acked():
    rig = Rig()
    rig.run_until(10_000)
    rig.hal.set_seats(0b0110)  # seats 2 and 3 in the same sample
    rig.run_until(10_100)
    [press] = rig.messages()
    assert (press.pressed, press.released, press.t_ns, press.gap_ns) == (
        0b0110, 0, 10_100_000, SCAN * 1000)
    assert press.sent_ns == 10_100_000  # sent in the same pass
    rig.run_until(10_100 + 99_900)
    assert rig.messages() == []  # not yet
    rig.run_until(10_100 + 100_100)
    [again] = rig.messages()
    assert again.report == press.report and again.t_ns == press.t_ns  # resent, same report
    assert again.sent_ns == 110_100_000  # the resend's own time
    rig.send(codec.Ack(rig.fw.nonce, (press.report,)))
    rig.run_until(500_000)
    assert rig.messages() == []


def test_ack_for_another_boot_is_refused_and_report_kept():
    rig = Rig()
    rig.hal.set_seats(1)
    rig.run_until(1000)
    [press] = rig.messages()
    seq = rig.send(codec.Ack(rig.fw.nonce ^ 1, (press.report,)))
    rig.run_until(1100)
    [err] = rig.messages()
    assert (err.re, err.type, err.code) == (seq, codec.ACK, codec.ERR_STALE_NONCE)
    assert len(rig.fw.pad.queue) == 1


def test_lamps_on_command_and_off_after_host_silence():
    rig = Rig()
    seq = rig.send(codec.Lamps(0b1111_0101))  # bits beyond 4 seats are ignored
    rig.run_until(1000)
    [ack] = rig.messages()
    assert (ack.re, ack.lamps) == (seq, 0b0101)
    assert rig.hal.lamps == 0b0101
    silence = fw.core.SILENCE_NS // 1000
    rig.run_until(1000 + silence - 1000)
    assert rig.hal.lamps == 0b0101
    rig.send(codec.Heartbeat(1))  # any valid frame keeps them on
    rig.run_until(1000 + silence + 500_000)
    assert rig.hal.lamps == 0b0101
    rig.run_until(2 * silence + 600_000)
    assert rig.hal.lamps == 0


@pytest.mark.parametrize("stall_s", [4, 600, 1100])
def test_lamps_go_dark_after_a_stalled_loop_too(stall_s):
    """The silence is timed in ticks_us, which wrap every 2**30 µs (17.9 min) and tell
    differences apart only within 2**29 µs: a loop that stalled for minutes with the
    lamps lit still darkens them at its next pass."""
    rig = Rig()
    rig.send(codec.Lamps(0b0011))
    rig.run_until(1000)
    assert rig.hal.lamps == 0b0011
    rig.hal.set_time(1000 + stall_s * 1_000_000)
    rig.fw.poll()
    assert rig.hal.lamps == 0


@pytest.mark.parametrize(("typ", "payload", "code"), [
    (0x7E, b"", codec.ERR_UNKNOWN_TYPE),
    (codec.HEARTBEAT, b"\x01", codec.ERR_BAD_LENGTH),
])
def test_malformed_frames_get_an_error_naming_them(typ, payload, code):
    rig = Rig()
    rig.hal.feed_rx(codec.encode_frame(42, typ, payload))
    rig.run_until(1000)
    [err] = rig.messages()
    assert (err.re, err.type, err.code) == (42, typ, code)


def test_own_direction_frames_are_ignored():
    rig = Rig()
    rig.hal.feed_rx(codec.encode_message(0, codec.HeartbeatReply(0, 0, 0, 0, 0, 0, 0, 0)))
    rig.run_until(1000)
    assert rig.messages() == []


def test_scan_gap_reported_is_the_longest_since_last_heartbeat():
    rig = Rig()
    rig.run_until(1000)
    rig.hal.set_time(1750)  # one late scan: 750 µs
    rig.fw.poll()
    rig.send(codec.Heartbeat(5))
    rig.run_until(2000)
    [reply] = rig.messages()
    assert reply.max_gap_ns == 750_000
    rig.send(codec.Heartbeat(6))
    rig.run_until(3000)
    [reply] = rig.messages()
    assert reply.max_gap_ns == SCAN * 1000


def test_frame_seq_counts_up_and_wraps():
    rig = Rig()
    for _ in range(300):
        rig.send(codec.Heartbeat(1))
    rig.run_until(300 * SCAN * 2)
    seqs = [seq for seq, _ in rig.replies()]
    assert seqs == [k & 0xFF for k in range(300)]


def test_pio_capture_stamps_edges_between_scans_to_the_sample():
    rig = Rig(capture="pio")
    rig.run_until(10_000)
    rig.hal.set_seats(0b0001, at_ns=10_000_123)  # seat 1 at 10 ms + 123 ns ...
    rig.hal.set_seats(0b0011, at_ns=10_000_300)  # ... seat 2 177 ns later
    rig.run_until(10_100)  # the firmware polls 100 µs later: the times are the PIO's
    [first, second] = rig.messages()
    assert (first.pressed, second.pressed) == (0b0001, 0b0010)
    assert first.t_ns == 10_000_144 and first.gap_ns == 56  # the next 56 ns sample
    assert second.t_ns == 10_000_312 and second.t_ns - second.gap_ns < 10_000_300
    rig.send(codec.Heartbeat(1))
    rig.run_until(10_200)
    [reply] = rig.messages()
    assert reply.max_gap_ns == 56


def test_pio_capture_reports_a_release_that_came_inside_the_hold_off():
    """A burst ends open inside the press's hold-off: no edge comes after it, so the
    firmware must look again once the hold-off is over (as the scan does every scan)."""
    rig = Rig(capture="pio")
    rig.run_until(10_000)
    rig.hal.set_seats(0b0001, at_ns=10_000_000)
    rig.hal.set_seats(0b0000, at_ns=10_300_000)  # open again 0.3 ms later
    rig.run_until(40_000)
    press, release = rig.messages()
    assert (press.pressed, release.released) == (0b0001, 0b0001)
    hold = fw.core.HOLDOFF_NS
    assert 10_000_000 + hold <= release.t_ns <= 10_000_000 + hold + SCAN * 1000
    assert release.t_ns - release.gap_ns <= 10_300_000  # the bound reaches back to the edge
