"""The pad link's handshake: who is on the other end of the port, and which boot.

What it is for: a mixin of ``PadLink`` (its state lives there). A device is taken for the
slap pad only when it answers a HELLO_REQ of this connection with a HELLO of our
protocol version that carries our product tag; any other answer fails with a sentence
naming the device (the port and what USB says it is), and silence is reported with the
device's first printed words (another MicroPython board answers with its REPL). A new
boot nonce in a HELLO that answers our request means the pad restarted: everything
stamped in its old clock is void. A report or reply from another boot only makes the
link ask again (``_other_boot``).

The probe: until the pad has answered, HELLO_REQ goes out as printable text
(``codec.encode_probe``, firmware/PROTOCOL.md "Probe"), never as a binary frame, whose
bytes 0x01/0x03/0x04 are Ctrl-A/C/D to a MicroPython REPL: another board on the port
reads it as typed text. A device that answers as something else (it echoes the probe,
prints a prompt, a banner or a traceback) is not asked again on that connection, and
only listened to for ``STRANGER_QUIET_NS`` on the next ones.

Line noise is not another board. Garbled bytes are what the pad's own frames look like
on a noisy cable, so:

* a port that has answered as the pad in this process's life (by its name with what USB
  says it is, or by its USB serial number wherever it shows up) is never taken for a
  stranger: a handshake that hears only garbage times out and is simply tried again;
* on a port that never answered, nothing counts against it while anything pad-like was
  heard: a whole frame, or a frame's start (``SYNC``, a possible length, a type the pad
  sends), which 5 % noise leaves intact in most of the pad's frames and random bytes
  hold about once in 68,000; the words above are never read inside pad-like bytes;
* only ``GARBLED_TRIES`` handshakes in a row that each heard at least 64 bytes and
  nothing pad-like (a board babbling in some other protocol) make it a stranger.
"""

from __future__ import annotations

from typing import cast

from companion.errors import LinkError
from companion.pad import codec
from companion.pad.linkevents import VOID_WORDS, PadRebooted
from companion.pad.presscheck import SeenReports

#: After a device answered as another board: its next connections only listen this long
STRANGER_QUIET_NS = 60_000_000_000
#: What another board says that our pad never does (our pad only ever sends frames)
_STRANGER_WORDS = (codec.PROBE_START, b">>>", b"MicroPython", b"Traceback", b"REPL")
#: Handshakes in a row that heard only bytes unlike the pad's before a never-seen port is
#: taken for another board (one noisy window is no verdict)
GARBLED_TRIES = 3
#: A handshake that heard at least this much, and nothing pad-like, counts as one of them
GARBLED_BYTES = 64
_PAD_TYPES = frozenset((codec.HELLO, codec.PRESS, codec.HB_REPLY, codec.LAMPS_ACK,
                        codec.ERROR))


def _printable(data: bytes, limit: int = 100) -> str:
    """What a device printed, as one readable line (for messages): its first words,
    where a board's banner or prompt is."""
    text = " ".join("".join(chr(b) if 32 <= b < 127 else " " for b in data).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Handshake:
    """``PadLink``'s handshake and boot tracking (a mixin: see the module docstring)."""

    def _identities(self) -> set[str]:
        """What names this device: its port with what USB says it is, and its USB
        serial number alone (the same pad on another port)."""
        names = {self.device}
        desc = self.device[len(self.port):]
        if "serial " in desc:
            names.add(desc[desc.index("serial "):].rstrip(")"))
        return names

    def _known_pad(self) -> bool:
        """This device has answered as the slap pad in this process's life."""
        return not self._known.isdisjoint(self._identities())

    def _pad_like(self) -> bool:
        """Something heard on this connection is shaped like the pad's frames: a whole
        frame, or a frame's start (SYNC, a length that fits, a type the pad sends)."""
        if self._decoder.frames:
            return True
        heard = self._heard
        i = heard.find(codec.SYNC)
        while 0 <= i < len(heard) - 3:
            if heard[i + 1] <= codec.MAX_PAYLOAD and heard[i + 3] in _PAD_TYPES:
                return True
            i = heard.find(codec.SYNC, i + 1)
        return False

    def _spoke_as_other(self) -> bool:
        """Words another board prints (a banner, a prompt, our probe echoed), heard from
        a device that never answered as the pad and sent nothing pad-like."""
        if self._known_pad() or self._pad_like():
            return False
        heard = bytes(self._heard)
        return any(w in heard for w in _STRANGER_WORDS)

    def _judge_try(self) -> bool:
        """At the end of a handshake that got no HELLO: is this device another board?
        Words decide at once; garbage only after ``GARBLED_TRIES`` such tries in a row."""
        if self._known_pad() or self._pad_like():
            self._garbled.pop(self.device, None)
            self._strangers.pop(self.device, None)  # it sounds like our pad after all
            return False
        if self._spoke_as_other():
            return True
        if len(self._heard) < GARBLED_BYTES:
            return False  # silence (or nearly): neither for it nor against it
        tries = self._garbled.get(self.device, 0) + 1
        self._garbled[self.device] = tries
        return tries >= GARBLED_TRIES

    def _probe(self, now_ns: int) -> None:
        """Send one HELLO_REQ as probe text, unless this device is another board."""
        if self._spoke_as_other():
            self._strangers[self.device] = now_ns
            return
        since = self._strangers.get(self.device)
        if since is not None and now_ns - since < STRANGER_QUIET_NS:
            return  # it answered as another board a moment ago: only listen
        self._hello_seqs.add(self._seq)
        self._out += codec.encode_probe(self._seq)
        self._seq = (self._seq + 1) & 0xFF

    def _silence_text(self) -> str:
        said = _printable(bytes(self._heard))
        if self._judge_try():  # remembered: the next connections only listen
            self._strangers.setdefault(self.device, self._opened_ns)
        if self._known_pad():
            text = (f"{self.device} did not answer the handshake within "
                    f"{self.timing.hello_timeout_ns / 1e9:g} s")
            if self._heard:
                text += (f" ({len(self._heard)} bytes came garbled: line noise? check the "
                         "cable)")
            return text
        if self.device in self._strangers:
            printed = f" (it printed: {said!r})" if said else ""
            return (f"{self.device} answered as another board, not the slap pad"
                    f"{printed}; it is left alone and asked again in "
                    f"{STRANGER_QUIET_NS // 1_000_000_000} s. Is the table companion's slap "
                    "pad firmware on it? (see firmware/README.md)")
        text = (f"{self.device} did not answer as the slap pad within "
                f"{self.timing.hello_timeout_ns / 1e9:g} s")
        if said:
            text += f" (it printed: {said!r})"
        return text + ("; is the table companion's slap pad firmware on it? "
                       "(see firmware/README.md)")

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
        self._reconnected = False
        self._strangers.pop(self.device, None)
        self._garbled.pop(self.device, None)
        self._known.update(self._identities())
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
        h = cast(codec.Hello, self.hello)  # called once the hello is in
        res = self.resolution_ns
        res_text = f"{res / 1000:g} µs" if res >= 1000 else f"{res} ns"
        return (f"Slap pad ready on {self.port}: firmware {h.firmware_text} on "
                f"{h.chip_text}, {h.seats} seats, {h.capture_text}, boot {h.nonce:08x}, "
                f"resolution {res_text}.")

    def _adopt(self, nonce: int) -> None:
        old = self.nonce
        if old is not None:
            self._deliver_held()  # in the old boot's clock, before it is forgotten
        self.nonce = nonce
        self._seen = SeenReports()
        self.clock.reset()
        self._gaps.clear()
        self._overflow = 0
        self._recent.clear()
        self._flooding = False
        if old is not None:
            reason = "replug" if self._reconnected else "reboot"
            self._events.append(PadRebooted(
                VOID_WORDS[reason], old, nonce, reason,
                f"the slap pad restarted (boot {old:08x} -> {nonce:08x}"
                f"{', seen after a reconnect' if self._reconnected else ''}): its clock and "
                "report numbers started again"))

    def _other_boot(self, nonce: int, now_ns: int) -> None:
        """A report or reply from a boot other than the one we shook hands with.

        One frame is no proof of a restart (a CRC-valid frame can still be a stray), so
        nothing is forgotten here: the link shakes hands again, and only a HELLO that
        answers this connection's request with another boot number starts the new boot
        (``_on_hello`` -> ``_adopt``). Until then the de-duplication of the boot we know
        stays, so a report of ours that comes again is still dropped."""
        if self._phase != "ready" or nonce == self.nonce:
            return  # still shaking hands: the pad resends once we are ready
        self.stats["foreign"] = self.stats.get("foreign", 0) + 1
        self._phase = "connecting"
        self._opened_ns = now_ns
        self._next_hello_ns = now_ns
        self._hello_seqs.clear()
        self._status("connecting", f"Slap pad on {self.port} answered from another boot "
                                   f"({nonce:08x}): shaking hands again.")
        self.poll(now_ns)
