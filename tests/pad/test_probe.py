"""Looking for the pad harms no other board: until the pad has answered, the host sends
HELLO_REQ only as printable text (never Ctrl-A/C/D to a MicroPython REPL), the firmware
understands that text, and a port that answered as another board is not probed again."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.firmware import proto
from companion.pad import codec
from companion.pad.handshake import STRANGER_QUIET_NS
from companion.pad.link import LinkTiming, PadLink

MS = 1_000_000


class ReplBoard:
    """A MicroPython board running its own program, its REPL on the USB port: Ctrl-C is
    a KeyboardInterrupt, Ctrl-D a soft reset, Ctrl-A raw REPL, Ctrl-E paste mode; every
    other byte is typed text, echoed back."""

    CONTROL = {0x01: "raw REPL", 0x03: "KeyboardInterrupt", 0x04: "soft reset",
               0x05: "paste mode"}

    def __init__(self) -> None:
        self.interrupts: list[str] = []
        self.received = bytearray()
        self.out = bytearray(b"MicroPython v1.27.0 on 2026-11-01; Raspberry Pi Pico\r\n>>> ")

    def write(self, data: bytes) -> None:
        self.received += data
        for b in data:
            if b in self.CONTROL:
                self.interrupts.append(self.CONTROL[b])
            elif b >= 0x20:
                self.out.append(b)

    def read(self) -> bytes:
        data, self.out = bytes(self.out), bytearray()
        return data


def test_a_repl_board_gets_no_interrupt_while_the_kiosk_looks_for_its_pad():
    board = ReplBoard()
    link = PadLink(LinkTiming())
    now, reconnects, opened = 0, 0, True
    link.opened("/dev/ttyACM0", now, "Board in FS mode")
    while now < 20_000 * MS:  # 20 s, as the issue measured: 8 interrupts, 8 resets
        if opened:
            link.poll(now)
            board.write(link.take_output())
            link.feed(board.read(), now)
            link.poll(now)
            board.write(link.take_output())
            if link.reconnect_reason:
                reconnects += 1
                link.closed(now, link.reconnect_reason)
                opened, reopen_at = False, now + 1000 * MS  # the source's back-off
        elif now >= reopen_at:
            link.opened("/dev/ttyACM0", now, "Board in FS mode")
            opened = True
        now += 10 * MS
    assert board.interrupts == []
    assert all(0x20 <= b < 0x7F for b in board.received)
    probes = bytes(board.received).count(codec.PROBE_START)
    assert reconnects >= 5 and probes == 1  # asked once; then only listened to
    assert "answered as another board" in link.text


def test_a_stranger_is_only_listened_to_and_asked_again_after_the_quiet_time():
    link = PadLink(LinkTiming(hello_timeout_ns=1000 * MS))
    link.opened("/dev/ttyACM0", 0, "Board")
    assert link.take_output().startswith(codec.PROBE_START)
    link.feed(b">>> ", 5 * MS)
    link.poll(1001 * MS)
    link.closed(1001 * MS, link.reconnect_reason)
    link.opened("/dev/ttyACM0", 2000 * MS, "Board")
    link.poll(2500 * MS)
    assert link.take_output() == b""  # only listening
    later = 1001 * MS + STRANGER_QUIET_NS
    link.poll(later)
    link.closed(later, "again")
    link.opened("/dev/ttyACM0", later, "Board")
    assert link.take_output().startswith(codec.PROBE_START)


@given(st.integers(0, 255))
def test_every_probe_is_printable_text_and_the_firmware_reads_it(seq):
    text = codec.encode_probe(seq)
    assert all(0x20 <= b < 0x7F for b in text)
    assert text == proto.probe(seq)
    assert proto.Decoder().feed(text) == [(seq, proto.HELLO_REQ, bytes((2,)))]


@given(st.lists(st.integers(0, 255), max_size=6), st.binary(max_size=40),
       st.integers(1, 7))
def test_the_firmware_finds_probes_among_frames_and_garbage_in_any_chunks(seqs, junk, chunk):
    stream = b""
    want = []
    for i, seq in enumerate(seqs):
        if i % 2:
            stream += proto.frame(seq, proto.LAMPS, b"\x03")
            want.append((seq, proto.LAMPS, b"\x03"))
        else:
            stream += codec.encode_probe(seq)
            want.append((seq, proto.HELLO_REQ, b"\x02"))
        stream += junk.replace(b"\xa5", b"").replace(b"~", b"")
    dec = proto.Decoder()
    got = []
    for k in range(0, len(stream), chunk):
        got += dec.feed(stream[k:k + chunk])
    assert [(s, t, bytes(p)) for s, t, p in got] == want


def test_the_real_firmware_answers_the_probe(loopback):
    rig = loopback()
    assert rig.run(50, until=lambda: rig.link.ready)
    assert rig.link.stats["frames"] >= 1
