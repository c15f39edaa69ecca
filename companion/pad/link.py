"""The pad session: handshake, acknowledgements, dedup, clock sync and link states.

What it is for: everything the host must remember about the pad between bytes, as a
pure state machine (``firmware/PROTOCOL.md`` "Behaviour"). No I/O and no clock reads:
the owner passes in the bytes that arrived and the current host time, and takes out the
bytes to write and the events to post. One thread owns a ``PadLink`` (``PadSource``'s).

How to wire it::

    link = PadLink()
    link.opened("/dev/slap-pad", now_ns)           # the transport opened the port
    link.feed(data, now_ns)                         # bytes read; LinkError on a bad pad
    link.poll(now_ns)                               # timers; by link.next_deadline()
    port.write(link.take_output())
    for event in link.take_events(): post(event)    # PressEvent, LinkStatus, PadRebooted
    if link.reconnect_reason: close the port; link.closed(now_ns, link.reconnect_reason)

States (``LinkStatus.state``): ``searching`` (no pad yet), ``connecting`` (port open,
shaking hands), ``ready``, ``lost`` (had a pad, lost it, looking again), ``failed`` (a
pad answered but cannot be used, e.g. another protocol version; retried slowly).

A pad reboot (a new nonce after another one) voids anything stamped in the old clock:
``PadRebooted`` says so once, and the UI voids a slap round in progress.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from companion.errors import LinkError
from companion.events import SOURCE_PAD, PressEvent
from companion.pad import codec
from companion.pad.clocksync import ClockMap, ClockSync

LINK_STATES = ("searching", "connecting", "ready", "lost", "failed")
DEDUP_WINDOW = 1024


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """The pad link's state (one of ``LINK_STATES``) and a sentence for the screen."""

    state: str
    text: str


@dataclass(frozen=True, slots=True)
class PadRebooted:
    """The pad restarted: its clock and report numbers began again. Void the round."""

    text: str
    old_nonce: int = 0
    new_nonce: int = 0


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """The link's timers, in host nanoseconds (tests shorten them)."""

    hello_retry_ns: int = 200_000_000
    hello_timeout_ns: int = 2_000_000_000
    heartbeat_ns: int = 247_000_000  # not a round number: no beat against the pad's timers
    lost_after_ns: int = 1_500_000_000
    lamp_retry_ns: int = 200_000_000


class _Seen:
    """Report ids delivered for one boot: a set plus a low-water mark."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.highest = 0

    def add(self, report: int) -> bool:
        """Record ``report``; False if it was delivered before."""
        if report in self.ids or report <= self.highest - DEDUP_WINDOW:
            return False
        self.ids.add(report)
        if report > self.highest:
            self.highest = report
            if len(self.ids) > 2 * DEDUP_WINDOW:
                floor = self.highest - DEDUP_WINDOW
                self.ids = {r for r in self.ids if r > floor}
        return True


def _seats(mask: int) -> Iterator[int]:
    seat = 1
    while mask:
        if mask & 1:
            yield seat
        mask >>= 1
        seat += 1


class PadLink:
    def __init__(self, timing: LinkTiming | None = None) -> None:
        self.timing = timing or LinkTiming()
        self.clock = ClockSync()
        self.state = "searching"
        self.text = ""
        self.hello: codec.Hello | None = None
        self.reconnect_reason: str | None = None
        self.port = ""
        self.nonce: int | None = None  # the boot we know; survives reconnects
        self._shaken_nonce: int | None = None  # the boot of the last completed handshake
        self._silent_tries = 0  # handshakes in a row that got no HELLO
        self._seen = _Seen()
        self._phase = "closed"  # closed / connecting / ready
        self._decoder = codec.FrameDecoder()
        self._out = bytearray()
        self._events: list[object] = []
        self._seq = 0
        self._hello_seqs: set[int] = set()
        self._hb_sent: dict[int, int] = {}
        self._lamps_want = 0
        self._lamps_have: int | None = None
        self._gaps: deque[int] = deque(maxlen=64)
        self._pad_seq: int | None = None
        self._overflow = 0
        self._opened_ns = self._last_rx_ns = self._next_hello_ns = 0
        self._next_hb_ns = self._next_lamp_ns = 0
        self.stats = {"frames": 0, "presses": 0, "duplicates": 0, "malformed": 0,
                      "refused": 0, "lost_frames": 0, "stale": 0}

    # ---- outside events -----------------------------------------------------------
    def opened(self, port: str, now_ns: int) -> None:
        """The transport opened ``port``: start the handshake."""
        self.port = port
        self._phase = "connecting"
        self.reconnect_reason = None
        self._decoder = codec.FrameDecoder()
        self._out.clear()
        self._seq = 0
        self._hello_seqs.clear()
        self._hb_sent.clear()
        self._lamps_have = None
        self._pad_seq = None
        self._opened_ns = self._last_rx_ns = now_ns
        self._next_hello_ns = now_ns
        if self.state != "failed" and not self._silent_tries:
            # After a handshake timeout the status stays on that message while we retry.
            self._status("connecting", f"Slap pad found on {port}: shaking hands.")
        self.poll(now_ns)

    def closed(self, now_ns: int, reason: str) -> None:
        """The transport closed (unplug, silence, handshake failure)."""
        was = self._phase
        self._phase = "closed"
        self.reconnect_reason = None
        if self.state == "failed":
            return
        if was == "ready" or self.hello is not None:
            self._status("lost", f"Slap pad lost: {reason}; reconnecting by itself.")
        else:
            self._status("searching", f"Looking for the slap pad: {reason}; trying again by "
                                      "itself.")

    def open_failed(self, reason: str) -> None:
        """An attempt to find or open the port failed; keep looking."""
        if self.state == "lost":
            self._status("lost", f"Slap pad lost: {reason}; reconnecting by itself.")
        elif self.state == "searching":
            self._status("searching", f"Looking for the slap pad: {reason}.")

    def set_lamp(self, seat: int, on: bool) -> None:
        if not 1 <= seat <= 8:
            raise LinkError(f"pad lamp seat must be 1..8, not {seat}")
        bit = 1 << (seat - 1)
        self._lamps_want = (self._lamps_want | bit) if on else (self._lamps_want & ~bit)
        self._next_lamp_ns = 0  # send at the next poll

    # ---- bytes and timers -----------------------------------------------------------
    def feed(self, data: bytes, now_ns: int) -> None:
        """Bytes read from the port. LinkError when the pad cannot be used."""
        acks: list[int] = []
        for frame in self._decoder.feed(data):
            self.stats["frames"] += 1
            if frame.type < 0x80:
                continue  # our own frame echoed back: never an answer
            try:
                msg = codec.decode_message(frame)
            except LinkError:
                self.stats["malformed"] += 1
                continue
            self._last_rx_ns = now_ns
            self._count_seq(frame.seq)
            self._handle(msg, now_ns, acks)
        for k in range(0, len(acks), codec.MAX_ACK_IDS):
            assert self.nonce is not None
            self._send(codec.Ack(self.nonce, tuple(acks[k:k + codec.MAX_ACK_IDS])))

    def poll(self, now_ns: int) -> None:
        """Run the timers: hello retries, heartbeats, lamp resends, loss detection."""
        t = self.timing
        if self.reconnect_reason is not None:
            return
        if self._phase == "connecting":
            if now_ns - self._opened_ns >= t.hello_timeout_ns:
                self._silent_tries += 1
                self.reconnect_reason = (f"{self.port} did not answer as a slap pad within "
                                         f"{t.hello_timeout_ns / 1e9:g} s; is the firmware on it?")
            elif now_ns >= self._next_hello_ns:
                self._hello_seqs.add(self._seq)
                self._send(codec.HelloReq(codec.PROTOCOL_VERSION))
                self._next_hello_ns = now_ns + t.hello_retry_ns
        elif self._phase == "ready":
            if now_ns - self._last_rx_ns >= t.lost_after_ns:
                self.reconnect_reason = f"no answer for {t.lost_after_ns / 1e9:g} s"
                return
            if now_ns >= self._next_hb_ns:
                self._hb_sent[self._seq] = now_ns
                if len(self._hb_sent) > 16:
                    del self._hb_sent[min(self._hb_sent, key=self._hb_sent.__getitem__)]
                self._send(codec.Heartbeat(now_ns))
                self._next_hb_ns = now_ns + t.heartbeat_ns
            if self._lamps_want != self._lamps_have and now_ns >= self._next_lamp_ns:
                self._send(codec.Lamps(self._lamps_want))
                self._next_lamp_ns = now_ns + t.lamp_retry_ns

    def next_deadline(self, now_ns: int) -> int:
        """The latest host time at which ``poll`` must run next."""
        t = self.timing
        if self._phase == "connecting":
            return min(self._next_hello_ns, self._opened_ns + t.hello_timeout_ns)
        if self._phase == "ready":
            due = min(self._next_hb_ns, self._last_rx_ns + t.lost_after_ns)
            if self._lamps_want != self._lamps_have:
                due = min(due, self._next_lamp_ns)
            return due
        return now_ns + t.heartbeat_ns

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out.clear()
        return out

    def take_events(self) -> list[object]:
        out, self._events = self._events, []
        return out

    # ---- what the UI may ask --------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self._phase == "ready"

    @property
    def clock_map(self) -> ClockMap | None:
        return self.clock.snapshot() if self._phase == "ready" else None

    @property
    def resolution_ns(self) -> int:
        """The honest capture bound: the worst recent scan gap, at least the nominal."""
        nominal = self.hello.scan_us if self.hello else 0
        return 1000 * max([nominal, *self._gaps])

    @property
    def decoder(self) -> codec.FrameDecoder:
        return self._decoder

    # ---- inside -----------------------------------------------------------------------
    def _send(self, msg: codec.Message) -> None:
        self._out += codec.encode_message(self._seq, msg)
        self._seq = (self._seq + 1) & 0xFF

    def _status(self, state: str, text: str) -> None:
        if (state, text) != (self.state, self.text):
            self.state, self.text = state, text
            self._events.append(LinkStatus(state, text))

    def _count_seq(self, seq: int) -> None:
        if self._pad_seq is not None:
            self.stats["lost_frames"] += (seq - self._pad_seq - 1) & 0xFF
        self._pad_seq = seq

    def _handle(self, msg: codec.Message, now_ns: int, acks: list[int]) -> None:
        if isinstance(msg, codec.Hello):
            self._on_hello(msg, now_ns)
        elif isinstance(msg, codec.Press):
            if self._phase != "ready" or msg.nonce != self.nonce:
                self._other_boot(msg.nonce, now_ns)
                return
            acks.append(msg.report)
            if not self._seen.add(msg.report):
                self.stats["duplicates"] += 1
                return
            self.stats["presses"] += 1
            self._gaps.append(msg.gap_us)
            t_ns = msg.t_us * 1000
            for seat in _seats(msg.pressed):
                self._events.append(PressEvent(seat, t_ns, SOURCE_PAD, True))
            for seat in _seats(msg.released):
                self._events.append(PressEvent(seat, t_ns, SOURCE_PAD, False))
        elif isinstance(msg, codec.HeartbeatReply):
            if self._phase != "ready" or msg.nonce != self.nonce:
                self._other_boot(msg.nonce, now_ns)
                return
            sent = self._hb_sent.pop(msg.re, None)
            if sent is not None and sent == msg.echo:
                self.clock.add(sent, now_ns, msg.t_us * 1000)
            self._gaps.append(msg.max_gap_us)
            self._lamps_have = msg.lamps
            if msg.overflow != self._overflow:
                self._overflow = msg.overflow
                self._status("ready", f"{self._ready_text()} Warning: the pad's queue was "
                                      f"full and it dropped {msg.overflow} edge(s).")
        elif isinstance(msg, codec.LampsAck):
            self._lamps_have = msg.lamps
        elif isinstance(msg, codec.ErrorReply):
            self.stats["refused"] += 1
            if msg.code == codec.ERR_STALE_NONCE:
                self.stats["stale"] += 1

    def _on_hello(self, hello: codec.Hello, now_ns: int) -> None:
        if self._phase == "ready":
            if hello.nonce != self.nonce:
                self._other_boot(hello.nonce, now_ns)
            return
        if self._phase != "connecting" or hello.re not in self._hello_seqs:
            return  # not an answer to this connection's HELLO_REQ
        if hello.proto != codec.PROTOCOL_VERSION:
            self._status("failed", f"The slap pad on {self.port} speaks protocol version "
                                   f"{hello.proto} (firmware {hello.firmware_text}) but this "
                                   f"companion speaks version {codec.PROTOCOL_VERSION}: copy "
                                   "this companion's firmware/ folder onto the Pico "
                                   "(see firmware/README.md).")
            self.reconnect_reason = "protocol version mismatch"
            raise LinkError(self.text)
        if not 1 <= hello.seats <= 8:
            self._status("failed", f"The slap pad on {self.port} reports {hello.seats} seats; "
                                   "1 to 8 are possible.")
            self.reconnect_reason = "bad seat count"
            raise LinkError(self.text)
        if hello.nonce != self.nonce:
            self._adopt(hello.nonce)
        same_boot = hello.nonce == self._shaken_nonce
        self._shaken_nonce = hello.nonce
        self.hello = hello
        self._phase = "ready"
        self._silent_tries = 0
        self._last_rx_ns = now_ns
        self._next_hb_ns = now_ns
        self._next_lamp_ns = now_ns
        self._status("ready", self._ready_text() + (" Reconnected to the same boot: no slap "
                                                    "lost." if same_boot else ""))
        self.poll(now_ns)

    def _ready_text(self) -> str:
        h = self.hello
        assert h is not None
        return (f"Slap pad ready on {self.port}: firmware {h.firmware_text}, {h.seats} seats, "
                f"boot {h.nonce:08x}, resolution {self.resolution_ns / 1000:g} µs.")

    def _adopt(self, nonce: int) -> None:
        old = self.nonce
        self.nonce = nonce
        self._seen = _Seen()
        self.clock.reset()
        self._gaps.clear()
        self._overflow = 0
        if old is not None:
            self._events.append(PadRebooted(
                f"The slap pad restarted (boot {old:08x} -> {nonce:08x}), so its clock started "
                "again: any slap round in progress is void; slap again when it is re-armed.",
                old, nonce))

    def _other_boot(self, nonce: int, now_ns: int) -> None:
        """A report or reply from a boot other than the one we shook hands with."""
        if self._phase != "ready" or nonce == self.nonce:
            return  # still shaking hands: the pad resends once we are ready
        self._adopt(nonce)
        self._phase = "connecting"
        self._opened_ns = now_ns
        self._next_hello_ns = now_ns
        self._hello_seqs.clear()
        self._status("connecting", f"Slap pad on {self.port} restarted: shaking hands again.")
        self.poll(now_ns)
