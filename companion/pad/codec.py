"""The slap pad protocol, host side: CRC-16, frames, resync and typed messages.

What it is for: the pure half of the Pico link (``firmware/PROTOCOL.md`` is the
specification; ``firmware/vectors.json`` the shared test vectors). No I/O, no clock,
no threads: bytes in, frames and message objects out, and back.

How to wire it::

    decoder = FrameDecoder()
    for frame in decoder.feed(chunk_from_serial):      # any chunking, garbage included
        msg = decode_message(frame)                     # Hello, Press, ... or LinkError
    port.write(encode_message(seq, Heartbeat(host_time=now_ns)))

The firmware has its own implementation (``firmware/proto.py``, MicroPython); the two are
kept honest by the vectors, not by sharing code.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass

from companion.errors import LinkError

PROTOCOL_VERSION = 2
PRODUCT = b"SLAP"  # every HELLO of the table companion's slap pad firmware carries it
SYNC = 0xA5
MAX_PAYLOAD = 48
OVERHEAD = 6
MAX_ACK_IDS = 8

HELLO_REQ, ACK, HEARTBEAT, LAMPS = 0x01, 0x02, 0x03, 0x04
HELLO, PRESS, HB_REPLY, LAMPS_ACK, ERROR = 0x81, 0x82, 0x83, 0x84, 0x85
ERR_UNKNOWN_TYPE, ERR_BAD_LENGTH, ERR_STALE_NONCE = 1, 2, 3
ERROR_NAMES = {ERR_UNKNOWN_TYPE: "unknown type", ERR_BAD_LENGTH: "wrong payload length",
               ERR_STALE_NONCE: "ACK for another boot"}
CHIP_SIMULATED, CHIP_RP2040, CHIP_RP2350 = 0, 1, 2
CHIP_NAMES = {CHIP_SIMULATED: "simulated", CHIP_RP2040: "RP2040", CHIP_RP2350: "RP2350"}
CAPTURE_SCAN, CAPTURE_PIO = 0, 1
CAPTURE_NAMES = {CAPTURE_SCAN: "GPIO_IN scan", CAPTURE_PIO: "PIO edge capture"}


#: The probe (firmware/PROTOCOL.md, "Probe"): what the host sends instead of a HELLO_REQ
#: frame until the pad has answered. Printable ASCII only: another MicroPython board reads
#: it as typed text, where the frame's 0x01/0x03/0x04 bytes are Ctrl-A/C/D to its REPL.
PROBE_START = b"~SLAP"


def encode_probe(seq: int, proto: int = PROTOCOL_VERSION) -> bytes:
    """HELLO_REQ as the probe text: ``~SLAP<proto>?<seq, 2 hex digits>~``."""
    return PROBE_START + f"{proto % 10}?{seq & 0xFF:02x}~".encode("ascii")


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR).

    ``binascii.crc_hqx`` computes exactly this CRC in C; the firmware has its own table
    version (MicroPython has no ``crc_hqx``), and both are checked against vectors.json.
    """
    return binascii.crc_hqx(data, crc)


@dataclass(frozen=True, slots=True)
class Frame:
    """One CRC-checked frame: the sender's sequence number, message type and payload."""

    seq: int
    type: int
    payload: bytes


def encode_frame(seq: int, typ: int, payload: bytes) -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise LinkError(f"frame payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((len(payload), seq & 0xFF, typ)) + payload
    return bytes((SYNC,)) + body + crc16(body).to_bytes(2, "big")


class FrameDecoder:
    """Incremental decoder: scan for SYNC, check LEN and CRC, on failure drop one byte.

    Counters: ``frames`` delivered, ``dropped`` bytes discarded while resynchronising,
    ``bad_crc`` candidate frames refused by their CRC.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.frames = 0
        self.dropped = 0
        self.bad_crc = 0

    def feed(self, data: bytes) -> list[Frame]:
        buf = self._buf
        buf += data
        out: list[Frame] = []
        i, n = 0, len(buf)
        while True:
            j = buf.find(SYNC, i)
            if j < 0:
                self.dropped += n - i
                i = n
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
            if crc16(buf[i + 1:end - 2]) != int.from_bytes(buf[end - 2:end], "big"):
                i += 1
                self.dropped += 1
                self.bad_crc += 1
                continue
            out.append(Frame(buf[i + 2], buf[i + 3], bytes(buf[i + 4:end - 2])))
            i = end
        del buf[:i]
        self.frames += len(out)
        return out


# ---- messages --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class HelloReq:
    proto: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Ack:
    nonce: int
    reports: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    host_time: int


@dataclass(frozen=True, slots=True)
class Lamps:
    mask: int


@dataclass(frozen=True, slots=True)
class Hello:
    """The pad's answer to HELLO_REQ. Only ``re`` and ``proto`` are common to every
    protocol version; a HELLO of another version is decoded that far (the rest is
    zero) so the link can say which version the pad speaks."""

    re: int
    proto: int
    product: bytes
    firmware: tuple[int, int, int]
    seats: int
    nonce: int
    chip: int
    capture: int
    capture_ns: int
    holdoff_us: int

    @property
    def firmware_text(self) -> str:
        return ".".join(str(v) for v in self.firmware)

    @property
    def chip_text(self) -> str:
        return CHIP_NAMES.get(self.chip, f"chip {self.chip}")

    @property
    def capture_text(self) -> str:
        return CAPTURE_NAMES.get(self.capture, f"capture {self.capture}")


@dataclass(frozen=True, slots=True)
class Press:
    """One sample's edges: stamped ``t_ns`` on the pad clock, sent at ``sent_ns``, the
    edge within ``(t_ns - gap_ns, t_ns]``."""

    nonce: int
    report: int
    t_ns: int
    sent_ns: int
    pressed: int
    released: int
    gap_ns: int


@dataclass(frozen=True, slots=True)
class HeartbeatReply:
    re: int
    echo: int
    nonce: int
    t_ns: int
    pending: int
    lamps: int
    overflow: int
    max_gap_ns: int


@dataclass(frozen=True, slots=True)
class LampsAck:
    re: int
    lamps: int


@dataclass(frozen=True, slots=True)
class ErrorReply:
    re: int
    type: int
    code: int

    @property
    def text(self) -> str:
        name = ERROR_NAMES.get(self.code, f"code {self.code}")
        return f"pad refused frame seq {self.re} (type 0x{self.type:02x}): {name}"


Message = (HelloReq | Ack | Heartbeat | Lamps | Hello | Press | HeartbeatReply | LampsAck
           | ErrorReply)

_FIXED: dict[int, tuple[type, str]] = {
    HELLO_REQ: (HelloReq, "<B"),
    HEARTBEAT: (Heartbeat, "<Q"),
    LAMPS: (Lamps, "<B"),
    PRESS: (Press, "<IIQQBBI"),
    HB_REPLY: (HeartbeatReply, "<BQIQBBHI"),
    LAMPS_ACK: (LampsAck, "<BB"),
    ERROR: (ErrorReply, "<BBB"),
}
_TYPE_OF = {cls: typ for typ, (cls, _) in _FIXED.items()} | {Hello: HELLO, Ack: ACK}
_HELLO_FMT = "<BB4sBBBBIBBIH"
_HELLO_V1_FMT = "<BBBBBBIHH"  # protocol 1 (firmware 1.x): read to name it, never used


def encode(msg: Message) -> tuple[int, bytes]:
    """The (type, payload) of a message; LinkError for values that do not fit."""
    try:
        if isinstance(msg, Hello):
            return HELLO, struct.pack(_HELLO_FMT, msg.re, msg.proto, msg.product,
                                      *msg.firmware, msg.seats, msg.nonce, msg.chip,
                                      msg.capture, msg.capture_ns, msg.holdoff_us)
        if isinstance(msg, Ack):
            if not 1 <= len(msg.reports) <= MAX_ACK_IDS:
                raise LinkError(f"an ACK names 1..{MAX_ACK_IDS} reports, not {len(msg.reports)}")
            return ACK, struct.pack(f"<I{len(msg.reports)}I", msg.nonce, *msg.reports)
        typ = _TYPE_OF[type(msg)]
        fmt = _FIXED[typ][1]
        return typ, struct.pack(fmt, *(getattr(msg, f) for f in msg.__slots__))
    except struct.error as exc:
        raise LinkError(f"cannot encode {msg!r}: {exc}") from exc


def encode_message(seq: int, msg: Message) -> bytes:
    """The frame bytes carrying ``msg`` with sequence number ``seq``."""
    typ, payload = encode(msg)
    return encode_frame(seq, typ, payload)


def decode_message(frame: Frame) -> Message:
    """The message in a CRC-checked frame; LinkError names a malformed one."""
    typ, payload = frame.type, frame.payload
    if typ == HELLO:
        return _decode_hello(payload)
    if typ == ACK:
        n = len(payload)
        if n < 8 or n > 4 + 4 * MAX_ACK_IDS or n % 4:
            raise LinkError(f"malformed ACK: {n} payload bytes")
        nonce, *ids = struct.unpack(f"<I{n // 4 - 1}I", payload)
        return Ack(nonce, tuple(ids))
    if typ not in _FIXED:
        raise LinkError(f"unknown message type 0x{typ:02x} (frame seq {frame.seq})")
    cls, fmt = _FIXED[typ]
    if len(payload) != struct.calcsize(fmt):
        raise LinkError(f"malformed {cls.__name__}: {len(payload)} payload bytes, "
                        f"expected {struct.calcsize(fmt)}")
    return cls(*struct.unpack(fmt, payload))


def _decode_hello(payload: bytes) -> Hello:
    n = len(payload)
    if n >= 2 and payload[1] == 1 and n == struct.calcsize(_HELLO_V1_FMT):
        re, proto, major, minor, patch, seats, nonce, scan_us, hold = struct.unpack(
            _HELLO_V1_FMT, payload)
        return Hello(re, proto, b"", (major, minor, patch), seats, nonce, CHIP_SIMULATED,
                     CAPTURE_SCAN, scan_us * 1000, hold)
    if n >= 2 and payload[1] != PROTOCOL_VERSION:
        return Hello(payload[0], payload[1], b"", (0, 0, 0), 0, 0, 0, 0, 0, 0)
    if n != struct.calcsize(_HELLO_FMT):
        raise LinkError(f"malformed HELLO: {n} payload bytes, expected "
                        f"{struct.calcsize(_HELLO_FMT)}")
    re, proto, product, major, minor, patch, seats, nonce, chip, capture, capture_ns, hold = (
        struct.unpack(_HELLO_FMT, payload))
    return Hello(re, proto, product, (major, minor, patch), seats, nonce, chip, capture,
                 capture_ns, hold)
