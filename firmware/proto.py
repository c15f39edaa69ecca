"""Slap pad protocol, firmware side: CRC-16, framing, resync, message packing.

What it is for: turning the pad's messages into frames for the host and host frames back
into values, exactly as ``PROTOCOL.md`` says. Pure (no I/O, no clock) and written in the
subset of Python that MicroPython runs, so the same file runs on the Pico, in the
virtual pad on CPython, and in the tests against ``vectors.json``.

How to wire it: ``frame(seq, type, payload)`` gives the bytes to write; a ``Decoder``
takes whatever bytes arrived (any chunking, garbage included) and returns complete
``(seq, type, payload)`` frames; ``parse_host(type, payload)`` checks a host message.
"""

import struct

PROTOCOL_VERSION = 2
PRODUCT = b"SLAP"  # in every HELLO: this is the table companion's slap pad firmware
SYNC = 0xA5
MAX_PAYLOAD = 48
OVERHEAD = 6  # SYNC, LEN, SEQ, TYPE before the payload; the CRC after it

# Host to pad.
HELLO_REQ = 0x01
ACK = 0x02
HEARTBEAT = 0x03
LAMPS = 0x04
# Pad to host.
HELLO = 0x81
PRESS = 0x82
HB_REPLY = 0x83
LAMPS_ACK = 0x84
ERROR = 0x85

# ERROR codes.
ERR_UNKNOWN_TYPE = 1
ERR_BAD_LENGTH = 2
ERR_STALE_NONCE = 3

MAX_ACK_IDS = 8

# The host's probe (PROTOCOL.md, "Probe"): HELLO_REQ as printable text, so that a board
# that is not the pad (a MicroPython REPL) reads it as typed text, never as Ctrl-C/D:
# "~SLAP" + protocol digit + "?" + seq in two lower-case hex digits + "~".
PROBE_START = b"~SLAP"
PROBE_LEN = 10
_HEX = b"0123456789abcdef"

# Chips in HELLO.
CHIP_SIMULATED = 0
CHIP_RP2040 = 1
CHIP_RP2350 = 2
# Capture methods in HELLO.
CAPTURE_SCAN = 0
CAPTURE_PIO = 1

_HELLO = "<BB4sBBBBIBBIH"
_PRESS = "<IIQQBBI"
_HB_REPLY = "<BQIQBBHI"
_U32 = 0xFFFFFFFF


def _make_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (poly 0x1021, init 0xFFFF): "123456789" -> 0x29B1."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ b]
    return crc


def frame(seq, typ, payload):
    """The bytes of one frame: SYNC, LEN, SEQ, TYPE, payload, CRC (high byte first)."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytes((n, seq & 0xFF, typ)) + bytes(payload)
    crc = crc16(body)
    return bytes((SYNC,)) + body + bytes((crc >> 8, crc & 0xFF))


class Decoder:
    """Incremental frame decoder with resynchronisation (PROTOCOL.md, "Decoding").

    ``feed(data)`` returns the list of ``(seq, type, payload)`` completed by ``data``.
    ``dropped`` counts bytes thrown away while hunting for a frame, ``bad_crc`` the
    candidate frames whose CRC did not match.
    """

    def __init__(self):
        self.buf = b""
        self.dropped = 0
        self.bad_crc = 0

    def feed(self, data):
        buf = self.buf + bytes(data)
        out = []
        i = 0
        n = len(buf)
        while True:
            j = buf.find(b"\xa5", i)
            k = buf.find(PROBE_START, i)
            if k >= 0 and (j < 0 or k < j):
                self.dropped += k - i
                i = k
                if n - i < PROBE_LEN:
                    break
                probe = _probe(buf[i:i + PROBE_LEN])
                if probe is None:
                    i += 1
                    self.dropped += 1
                    continue
                out.append((probe[1], HELLO_REQ, bytes((probe[0],))))
                i += PROBE_LEN
                continue
            if j < 0:
                keep = _probe_tail(buf, i, n)  # the start of a probe still arriving
                self.dropped += keep - i
                i = keep
                break
            self.dropped += j - i
            i = j
            if n - i < 2:
                break
            length = buf[i + 1]
            if length > MAX_PAYLOAD:
                i += 1
                self.dropped += 1
                continue
            end = i + length + OVERHEAD
            if n < end:
                break
            if crc16(buf[i + 1:end - 2]) != (buf[end - 2] << 8) | buf[end - 1]:
                i += 1
                self.dropped += 1
                self.bad_crc += 1
                continue
            out.append((buf[i + 2], buf[i + 3], buf[i + 4:end - 2]))
            i = end
        self.buf = buf[i:]
        return out


def _probe(text):
    """``(proto, seq)`` of one probe's 10 bytes, or None when they are not one."""
    if text[6] != 0x3F or text[9] != 0x7E or not 0x30 <= text[5] <= 0x39:
        return None
    hi = _HEX.find(bytes((text[7],)))
    lo = _HEX.find(bytes((text[8],)))
    if hi < 0 or lo < 0:
        return None
    return text[5] - 0x30, hi * 16 + lo


def _probe_tail(buf, i, n):
    """Where the probe that ``buf`` ends with begins (``n`` when it ends with none)."""
    for k in range(max(i, n - len(PROBE_START) + 1), n):
        if PROBE_START.startswith(buf[k:n]):
            return k
    return n


def probe(seq, proto=PROTOCOL_VERSION):
    """The probe's bytes (the host's; here for the tests and the vectors)."""
    return PROBE_START + bytes((0x30 + proto, 0x3F, _HEX[(seq >> 4) & 15],
                                _HEX[seq & 15], 0x7E))


def _u16(value):
    return value if value < 0xFFFF else 0xFFFF


def _u32(value):
    return value if value < _U32 else _U32


def hello(re, proto, fw, seats, nonce, chip, capture, capture_ns, holdoff_us):
    """HELLO payload; ``fw`` is a (major, minor, patch) tuple."""
    return struct.pack(_HELLO, re & 0xFF, proto, PRODUCT, fw[0], fw[1], fw[2], seats, nonce,
                       chip, capture, _u32(capture_ns), _u16(holdoff_us))


def press(nonce, report, t_ns, sent_ns, pressed, released, gap_ns):
    """PRESS payload: one sample's edges, stamped in ns of the pad's 64-bit clock, and
    the pad time at which this copy of the report is sent."""
    return struct.pack(_PRESS, nonce, report, t_ns, sent_ns, pressed, released, _u32(gap_ns))


def hb_reply(re, echo, nonce, t_ns, pending, lamps, overflow, max_gap_ns):
    """HB_REPLY payload: the host's echo, the pad's time and its health counters."""
    return struct.pack(_HB_REPLY, re & 0xFF, echo, nonce, t_ns, min(pending, 255), lamps,
                       _u16(overflow), _u32(max_gap_ns))


def lamps_ack(re, lamps):
    return bytes((re & 0xFF, lamps))


def error(re, typ, code):
    return bytes((re & 0xFF, typ, code))


def parse_host(typ, payload):
    """Check a host message: returns ``(0, value)`` or ``(error_code, None)``.

    Values: HELLO_REQ -> host protocol version; ACK -> ``(nonce, [report ids])``;
    HEARTBEAT -> the echo value; LAMPS -> the lamp mask.
    """
    n = len(payload)
    if typ == HELLO_REQ:
        if n != 1:
            return ERR_BAD_LENGTH, None
        return 0, payload[0]
    if typ == ACK:
        if n < 8 or n > 4 + 4 * MAX_ACK_IDS or n % 4:
            return ERR_BAD_LENGTH, None
        nonce = struct.unpack_from("<I", payload, 0)[0]
        ids = [struct.unpack_from("<I", payload, k)[0] for k in range(4, n, 4)]
        return 0, (nonce, ids)
    if typ == HEARTBEAT:
        if n != 8:
            return ERR_BAD_LENGTH, None
        return 0, struct.unpack_from("<Q", payload, 0)[0]
    if typ == LAMPS:
        if n != 1:
            return ERR_BAD_LENGTH, None
        return 0, payload[0]
    return ERR_UNKNOWN_TYPE, None
