"""The pad session: handshake, acknowledgements, dedup, clock sync and link states.

What it is for: everything the host must remember about the pad between bytes, as a
pure state machine (``firmware/PROTOCOL.md`` "Behaviour"). No I/O and no clock reads:
the owner passes in the bytes that arrived and the current host time, and takes out the
bytes to write and the events to post. One thread owns a ``PadLink`` (``PadSource``'s).

How to wire it::

    link = PadLink()
    link.opened("/dev/slap-pad", now_ns, "Pico, serial E661...")  # the port opened
    link.feed(data, now_ns)                         # bytes read; LinkError on a bad pad
    link.poll(now_ns)                               # timers; by link.next_deadline()
    port.write(link.take_output())
    for event in link.take_events(): post(event)    # see below
    if link.reconnect_reason: close the port; link.closed(now_ns, link.reconnect_reason)

Events: ``LinkStatus`` (the state and a sentence), ``PadClock`` (the clock map changed:
pad presses after it map with it), ``PadPress`` (a press or release in the pad's clock),
``PadRebooted`` and ``PadVoid`` (void a slap round in progress: the pad restarted, its
clock jumped, it flooded, or presses could not be timed). Presses come out only after
the ``PadClock`` they were checked against, so whoever maps them in stream order always
has the right map.

States (``LinkStatus.state``): ``searching`` (no pad yet), ``connecting`` (port open,
shaking hands), ``ready``, ``lost`` (had a pad, lost it, looking again), ``failed`` (a
device answered but is not a usable slap pad; retried slowly).

Checking a press: each PRESS says when the pad sent it (``sent_ns``). Mapped through the
current fit, that must be before the host received it and not long before; if not, the
pad's clock jumped since the last heartbeat: the press waits, a heartbeat goes out at
once, and the answer decides (a jump voids the round and starts a new fit, which the
waiting presses are checked against again). A press also waits while the fit is looser
than ``max_uncertainty_ns`` at its stamp, at most ``hold_ns``; then it goes out with its
honest (larger) uncertainty.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from companion.errors import LinkError
from companion.events import SOURCE_PAD, PressEvent
from companion.pad import codec
from companion.pad.clocksync import JUMP, ClockMap, ClockSync

LINK_STATES = ("searching", "connecting", "ready", "lost", "failed")
DEDUP_WINDOW = 1024
SOURCE_PAD_PIO = "pad-pio"  # presses captured by the PIO program (sub-microsecond)
MAX_UNCHECKED = 256  # presses waiting for a clock check; more is a flood


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
    voids_round: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PadVoid:
    """The pad's presses cannot be judged honestly for now (``reason``: ``clock_jump``,
    ``flood``, ``untimed``): void a round in progress, show ``text``."""

    text: str
    reason: str
    voids_round: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PadClock:
    """The link's clock map changed; pad presses after this event map with it."""

    map: ClockMap


@dataclass(frozen=True, slots=True)
class PadPress(PressEvent):
    """A ``PressEvent`` with what the arbiter needs to be honest about it.

    ``resolution_ns``: the capture bound of this stamp (the edge happened within it
    before ``t_ns``). ``uncertainty_ns``: how far ``t_ns`` may be from the true time of
    the clock the round is judged in (0 in the pad's own clock; the clock sync's bound
    once ``PadBridge`` has mapped it into host time). ``clock``: stamps with the same
    value differ exactly as the pad measured them (no sync error between them).
    """

    resolution_ns: int = 0
    uncertainty_ns: int = 0
    clock: object = None


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """The link's timers and limits, in host nanoseconds (tests shorten them)."""

    hello_retry_ns: int = 200_000_000
    hello_timeout_ns: int = 2_000_000_000
    heartbeat_ns: int = 247_000_000  # not a round number: no beat against the pad's timers
    lost_after_ns: int = 1_500_000_000
    sync_lost_ns: int = 3_000_000_000  # no heartbeat reply for this long: reconnect
    lamp_retry_ns: int = 200_000_000
    max_uncertainty_ns: int = 2_000_000  # presses wait for a fit at least this tight ...
    hold_ns: int = 3_000_000_000  # ... but no longer than this
    max_delivery_ns: int = 2_000_000_000  # a PRESS is read within this of being sent
    max_report_age_ns: int = 600_000_000_000  # a report older than its send by more: bogus
    flood_per_s: int = 500  # new reports in one second beyond what hands can make


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


def _printable(data: bytes, limit: int = 100) -> str:
    """What a device printed, as one readable line (for messages): its first words,
    where a board's banner or prompt is."""
    text = " ".join("".join(chr(b) if 32 <= b < 127 else " " for b in data).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class PadLink:
    def __init__(self, timing: LinkTiming | None = None) -> None:
        self.timing = timing or LinkTiming()
        self.clock = ClockSync()
        self.state = "searching"
        self.text = ""
        self.hello: codec.Hello | None = None
        self.reconnect_reason: str | None = None
        self.port = ""
        self.device = ""  # the port and what USB says it is, for messages
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
        self._heard = bytearray()  # raw bytes while shaking hands, to quote a stranger
        self._unchecked: list[tuple[codec.Press, int]] = []  # (press, received at)
        self._published: ClockMap | None = None
        self._recent: deque[int] = deque()  # receive times of new reports (flood check)
        self._flooding = False
        self._opened_ns = self._last_rx_ns = self._next_hello_ns = 0
        self._next_hb_ns = self._next_lamp_ns = self._last_sync_ns = 0
        self.stats = {"frames": 0, "presses": 0, "duplicates": 0, "malformed": 0,
                      "refused": 0, "lost_frames": 0, "stale": 0, "held": 0,
                      "clock_jumps": 0, "untimed": 0, "flooded": 0}

    # ---- outside events -----------------------------------------------------------
    def opened(self, port: str, now_ns: int, description: str = "") -> None:
        """The transport opened ``port`` (``description``: what USB says it is)."""
        self.port = port
        self.device = f"{port} ({description})" if description else port
        self._phase = "connecting"
        self.reconnect_reason = None
        self._decoder = codec.FrameDecoder()
        self._out.clear()
        self._heard.clear()
        self._seq = 0
        self._hello_seqs.clear()
        self._hb_sent.clear()
        self._lamps_have = None
        self._pad_seq = None
        self._opened_ns = self._last_rx_ns = now_ns
        self._next_hello_ns = now_ns
        if self.state != "failed" and not self._silent_tries:
            # After a handshake timeout the status stays on that message while we retry.
            self._status("connecting", f"Slap pad found on {self.device}: shaking hands.")
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
        """Bytes read from the port. LinkError when the device cannot be used."""
        if self._phase == "connecting" and data and len(self._heard) < 512:
            self._heard += data[:512 - len(self._heard)]
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
                self.reconnect_reason = self._silence_text()
            elif now_ns >= self._next_hello_ns:
                self._hello_seqs.add(self._seq)
                self._send(codec.HelloReq(codec.PROTOCOL_VERSION))
                self._next_hello_ns = now_ns + t.hello_retry_ns
        elif self._phase == "ready":
            if now_ns - self._last_rx_ns >= t.lost_after_ns:
                self.reconnect_reason = f"no answer for {t.lost_after_ns / 1e9:g} s"
                return
            if now_ns - self._last_sync_ns >= t.sync_lost_ns:
                self.reconnect_reason = (f"the pad stopped answering clock-sync heartbeats "
                                         f"for {t.sync_lost_ns / 1e9:g} s")
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
            if self._unchecked:
                self._check_waiting(now_ns)

    def next_deadline(self, now_ns: int) -> int:
        """The latest host time at which ``poll`` must run next."""
        t = self.timing
        if self._phase == "connecting":
            return min(self._next_hello_ns, self._opened_ns + t.hello_timeout_ns)
        if self._phase == "ready":
            due = min(self._next_hb_ns, self._last_rx_ns + t.lost_after_ns,
                      self._last_sync_ns + t.sync_lost_ns)
            if self._lamps_want != self._lamps_have:
                due = min(due, self._next_lamp_ns)
            if self._unchecked:
                due = min(due, self._unchecked[0][1] + t.hold_ns)
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
    def source(self) -> str:
        """The press source name of this pad: ``pad`` (GPIO_IN scan) or ``pad-pio``."""
        if self.hello is not None and self.hello.capture == codec.CAPTURE_PIO:
            return SOURCE_PAD_PIO
        return SOURCE_PAD

    @property
    def resolution_ns(self) -> int:
        """The honest capture bound: the worst recent gap, at least the nominal one."""
        nominal = self.hello.capture_ns if self.hello else 0
        return max([nominal, *self._gaps])

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

    def _void(self, reason: str, text: str) -> None:
        self._events.append(PadVoid(text, reason))

    def _count_seq(self, seq: int) -> None:
        if self._pad_seq is not None:
            self.stats["lost_frames"] += (seq - self._pad_seq - 1) & 0xFF
        self._pad_seq = seq

    def _silence_text(self) -> str:
        said = _printable(bytes(self._heard))
        text = (f"{self.device} did not answer as the slap pad within "
                f"{self.timing.hello_timeout_ns / 1e9:g} s")
        if said:
            text += f" (it printed: {said!r})"
        return text + ("; is the table companion's slap pad firmware on it? "
                       "(see firmware/README.md)")

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
            self._gaps.append(msg.gap_ns)
            if self._flood(now_ns):
                return
            self._take(msg, now_ns)
        elif isinstance(msg, codec.HeartbeatReply):
            if self._phase != "ready" or msg.nonce != self.nonce:
                self._other_boot(msg.nonce, now_ns)
                return
            self._last_sync_ns = now_ns
            sent = self._hb_sent.pop(msg.re, None)
            if sent is not None and sent == msg.echo:
                self._sample(sent, now_ns, msg.t_ns)
            self._gaps.append(msg.max_gap_ns)
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

    # -- clock and presses --
    def _sample(self, sent_ns: int, recv_ns: int, pad_ns: int) -> None:
        outcome = self.clock.add(sent_ns, recv_ns, pad_ns)
        if outcome == JUMP:
            self.stats["clock_jumps"] += 1
            self._seen = _Seen()  # the report numbers may have started again too
            self._void("clock_jump", "The slap pad's clock jumped (it may have restarted "
                                     "without saying so): any slap round in progress is "
                                     "void; slap again when it is re-armed.")
        snap = self.clock.snapshot()
        if snap is not None and snap is not self._published:
            self._published = snap
            self._events.append(PadClock(snap))
        if self._unchecked:
            self._check_waiting(recv_ns)

    def _take(self, msg: codec.Press, now_ns: int) -> None:
        if not self._unchecked and self._verdict(msg, now_ns) == "ok":
            self._deliver(msg)
            return
        if len(self._unchecked) >= MAX_UNCHECKED:
            self._flooded(now_ns, len(self._unchecked))
            return
        self.stats["held"] += 1
        self._unchecked.append((msg, now_ns))
        self._next_hb_ns = min(self._next_hb_ns, now_ns)  # ask the pad's time at once
        self._check_waiting(now_ns)

    def _verdict(self, msg: codec.Press, now_ns: int) -> str:
        """``ok`` to deliver now, ``wait`` for a better fit, ``bad`` never."""
        t = self.timing
        age = msg.sent_ns - msg.t_ns
        if age < 0 or age > t.max_report_age_ns:
            return "bad"  # stamped and sent in two different clocks
        snap = self.clock.snapshot()
        if snap is None:
            return "wait"
        sent_u = snap.uncertainty_at(msg.sent_ns)
        sent_host = snap.to_host(msg.sent_ns)
        if sent_host > now_ns + sent_u or sent_host < now_ns - t.max_delivery_ns - sent_u:
            return "doubt"  # sent "after" it arrived, or long before: the clock jumped?
        if snap.uncertainty_at(msg.t_ns) > t.max_uncertainty_ns:
            return "wait"
        return "ok"

    def _check_waiting(self, now_ns: int) -> None:
        t = self.timing
        keep: list[tuple[codec.Press, int]] = []
        lost = 0
        for msg, since in self._unchecked:
            verdict = self._verdict(msg, now_ns)
            waited = now_ns - since
            if verdict == "ok" or (verdict == "wait" and waited >= t.hold_ns
                                   and self.clock.snapshot() is not None):
                self._deliver(msg)
            elif verdict == "bad" or waited >= t.hold_ns:
                lost += 1
            else:
                keep.append((msg, since))
        self._unchecked = keep
        if lost:
            self.stats["untimed"] += lost
            self._void("untimed", f"{lost} slap pad press(es) could not be placed in time "
                                  "(the pad's clock did not agree with itself), so they were "
                                  "left out: any slap round in progress is void.")

    def _deliver(self, msg: codec.Press) -> None:
        source = self.source
        clock = (self.nonce, self.clock.epoch)
        for seat in _seats(msg.pressed):
            self._events.append(PadPress(seat, msg.t_ns, source, True, msg.gap_ns, 0, clock))
        for seat in _seats(msg.released):
            self._events.append(PadPress(seat, msg.t_ns, source, False, msg.gap_ns, 0, clock))

    def _flood(self, now_ns: int) -> bool:
        """Count a new report; True while the pad floods (its presses are dropped)."""
        recent = self._recent
        recent.append(now_ns)
        while recent and recent[0] <= now_ns - 1_000_000_000:
            recent.popleft()
        if len(recent) > self.timing.flood_per_s:
            if not self._flooding:
                self._flooded(now_ns, len(recent))
            self.stats["flooded"] += 1
            return True
        self._flooding = False
        return False

    def _flooded(self, now_ns: int, count: int) -> None:
        self._flooding = True
        self._void("flood", f"The slap pad sent {count} presses within a second, more than "
                            "hands can make (a short circuit or a broken switch?): they are "
                            "ignored until it calms down, and any slap round in progress is "
                            "void.")

    # -- handshake and boots --
    def _on_hello(self, hello: codec.Hello, now_ns: int) -> None:
        if self._phase == "ready":
            if hello.nonce != self.nonce:
                self._other_boot(hello.nonce, now_ns)
            return
        if self._phase != "connecting" or hello.re not in self._hello_seqs:
            return  # not an answer to this connection's HELLO_REQ
        if hello.proto != codec.PROTOCOL_VERSION:
            self._status("failed", f"The slap pad on {self.device} speaks protocol version "
                                   f"{hello.proto} (firmware {hello.firmware_text}) but this "
                                   f"companion speaks version {codec.PROTOCOL_VERSION}: copy "
                                   "this companion's firmware/ folder onto the Pico "
                                   "(see firmware/README.md).")
            self.reconnect_reason = "protocol version mismatch"
            raise LinkError(self.text)
        if hello.product != codec.PRODUCT:
            self._status("failed", f"The device on {self.device} answered in the slap pad's "
                                   f"protocol but calls itself {hello.product!r}, not the "
                                   f"table companion's slap pad ({codec.PRODUCT!r}); it is "
                                   "left alone. Flash firmware/ onto the pad (see "
                                   "firmware/README.md) or unplug the other board.")
            self.reconnect_reason = "not the slap pad firmware"
            raise LinkError(self.text)
        if not 1 <= hello.seats <= 8:
            self._status("failed", f"The slap pad on {self.device} reports {hello.seats} "
                                   "seats; 1 to 8 are possible.")
            self.reconnect_reason = "bad seat count"
            raise LinkError(self.text)
        if hello.nonce != self.nonce:
            self._adopt(hello.nonce)
        same_boot = hello.nonce == self._shaken_nonce
        self._shaken_nonce = hello.nonce
        self.hello = hello
        self._phase = "ready"
        self._silent_tries = 0
        self._last_rx_ns = self._last_sync_ns = now_ns
        self._next_hb_ns = now_ns
        self._next_lamp_ns = now_ns
        self._status("ready", self._ready_text() + (" Reconnected to the same boot: no slap "
                                                    "lost." if same_boot else ""))
        self.poll(now_ns)

    def _ready_text(self) -> str:
        h = self.hello
        assert h is not None
        res = self.resolution_ns
        res_text = f"{res / 1000:g} µs" if res >= 1000 else f"{res} ns"
        return (f"Slap pad ready on {self.port}: firmware {h.firmware_text} on "
                f"{h.chip_text}, {h.seats} seats, {h.capture_text}, boot {h.nonce:08x}, "
                f"resolution {res_text}.")

    def _adopt(self, nonce: int) -> None:
        old = self.nonce
        self.nonce = nonce
        self._seen = _Seen()
        self.clock.reset()
        self._gaps.clear()
        self._overflow = 0
        self._recent.clear()
        self._flooding = False
        if self._unchecked:
            self.stats["untimed"] += len(self._unchecked)
            self._unchecked = []  # stamped in the old boot's clock: nothing to map them with
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
