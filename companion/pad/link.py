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
clock jumped, it flooded, or presses could not be timed), ``PadWatermark`` (every report
stamped up to a pad time is out: a heartbeat reply said nothing was left unacknowledged,
and none waits here). Presses come out only after the ``PadClock`` they were checked
against, so whoever maps them in stream order always has the right map; a watermark only
after every press it covers. A new report asks for a heartbeat within
``confirm_after_ns``, so the watermark passes a slap soon after it.

States (``LinkStatus.state``): ``searching`` (no pad yet), ``connecting`` (port open,
shaking hands), ``ready``, ``lost`` (had a pad, lost it, looking again), ``failed`` (a
device answered but is not a usable slap pad; retried slowly).

The handshake (only our firmware is the slap pad) is ``companion.pad.handshake``; the
checks every press passes before it goes out (against the clock fit, floods) are
``companion.pad.presscheck``; the events and timers, ``companion.pad.linkevents``.
"""

from __future__ import annotations

from collections import deque
from typing import cast

from companion.errors import LinkError
from companion.events import SOURCE_PAD
from companion.pad import codec
from companion.pad.clocksync import JUMP, ClockMap, ClockSync
from companion.pad.handshake import Handshake
from companion.pad.linkevents import (
    VOID_WORDS,
    LinkStatus,
    LinkTiming,
    PadClock,
    PadPress,
    PadRebooted,
    PadVoid,
    PadWatermark,
)
from companion.pad.presscheck import DEDUP_WINDOW, PressIntake, SeenReports

__all__ = ["DEDUP_WINDOW", "LINK_STATES", "SOURCE_PAD_PIO", "LinkStatus", "LinkTiming",
           "PadClock", "PadLink", "PadPress", "PadRebooted", "PadVoid", "PadWatermark",
           "VOID_WORDS"]

LINK_STATES = ("searching", "connecting", "ready", "lost", "failed")
SOURCE_PAD_PIO = "pad-pio"  # presses captured by the PIO program (sub-microsecond)


class PadLink(Handshake, PressIntake):
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
        self._reconnected = False  # the port closed since the last completed handshake
        self._silent_tries = 0  # handshakes in a row that got no HELLO
        self._seen = SeenReports()
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
        self._strangers: dict[str, int] = {}  # device -> when it answered as another board
        self._known: set[str] = set()  # devices (and USB serials) that answered as the pad
        self._garbled: dict[str, int] = {}  # device -> handshakes in a row of only garbage
        self._unchecked: list[tuple[codec.Press, int]] = []  # (press, received at)
        self._published: ClockMap | None = None
        self._watermark: tuple[object, int] | None = None  # (boot, pad ns) last emitted
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
        self._reconnected = True
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
            # acks are taken only in the ready phase, for frames of its boot: nonce is set
            self._send(codec.Ack(cast(int, self.nonce), tuple(acks[k:k + codec.MAX_ACK_IDS])))

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
                self._probe(now_ns)  # handshake.py: printable text, never to a stranger
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

    def _void(self, reason: str, detail: str) -> None:
        self._events.append(PadVoid(VOID_WORDS[reason], reason, detail))

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
            self._gaps.append(msg.gap_ns)
            self._next_hb_ns = min(self._next_hb_ns, now_ns + self.timing.confirm_after_ns)
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
            if msg.pending == 0:
                self._confirm(msg.t_ns)
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
    def _confirm(self, pad_ns: int) -> None:
        """The pad had nothing unacknowledged at ``pad_ns``: every report stamped up to
        then is here. Presses still waiting for a clock check hold the mark back."""
        if self._unchecked:
            pad_ns = min(pad_ns, min(p.t_ns for p, _ in self._unchecked) - 1)
        key = (self.nonce, self.clock.epoch)
        last = self._watermark
        if last is not None and last[0] == key and last[1] >= pad_ns:
            return
        self._watermark = (key, pad_ns)
        self._events.append(PadWatermark(pad_ns, key))

    def _sample(self, sent_ns: int, recv_ns: int, pad_ns: int) -> None:
        outcome = self.clock.add(sent_ns, recv_ns, pad_ns)
        if outcome == JUMP:
            self.stats["clock_jumps"] += 1
            self._seen = SeenReports()  # the report numbers may have started again too
            self._void("clock_jump", "the pad's clock jumped (a restart the host did not "
                                     "see, or a counter that wrapped): a heartbeat reply "
                                     "lay outside the clock fit's bound; the fit starts "
                                     "again")
        snap = self.clock.snapshot()
        if snap is not None and snap is not self._published:
            self._published = snap
            self._events.append(PadClock(snap))
        if self._unchecked:
            self._check_waiting(recv_ns)
