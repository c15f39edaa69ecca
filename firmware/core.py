"""The pad firmware's loop body: capture seat edges, then talk to the host now and then.

What it is for: one ``Firmware.poll()`` takes the seat edges that happened since the
previous poll and, every ``service_every`` polls, runs one service pass: read the host's
bytes, answer them, (re)send unacknowledged press reports, and turn the lamps off when
the host has been silent for ``SILENCE_NS``. Pure logic over a hal object;
MicroPython-compatible and runs unchanged on CPython.

Two ways to capture edges (the hal decides, ``hal.capture``):

* PIO edge capture (``CAPTURE_PIO``): a PIO state machine samples all seat pins every 7
  system clock cycles and queues each change with its cycle count (``seat_pio.py``);
  ``hal.read_edges()`` returns them as ``(bits, t_ns, gap_ns)``, in order.
* the GPIO_IN scan (``CAPTURE_SCAN``, the fallback): each poll reads all seats at once
  (``hal.read_seats()``) and stamps a change with the 64-bit timer; the edge happened
  within the scan gap before it (``hal.read_edges()`` returns None).

How to wire it: on the Pico, ``main.py`` does ``Firmware(hal.Hal()).run()``. The virtual
pad (``companion.pad.virtual``) builds a ``companion.pad.fakehal.FakeHal`` and calls
``poll()`` once per simulated scan period. The hal provides: ``seats``, ``chip``,
``capture``, ``sample_ns``, ``setup()``, ``now_us()`` (64-bit microseconds),
``ticks_us()``/``ticks_diff(a, b)`` (cheap wrapping ticks for scan gaps),
``read_seats()`` (all seats in one read, bit n-1 = seat n pressed), ``read_edges()``,
``set_lamps(mask)``, ``read_host()`` (bytes or None, never blocks), ``write_host(data)``
and ``random_u32()``.

Times on the wire are ns of the pad's clock. Each report carries its capture bound
(``gap_ns``) and each heartbeat reply the longest since the previous one.
"""

import pad as padmod
import proto

FIRMWARE_VERSION = (2, 0, 0)
SCAN_NS = 100000  # nominal scan period of the GPIO_IN fallback, advertised in HELLO
HOLDOFF_NS = 20000000  # per-pin debounce hold-off after an edge
RESEND_NS = 100000000  # resend unacknowledged reports this often
SILENCE_NS = 3000000000  # lamps off after this long without a valid host frame
SILENCE_US = SILENCE_NS // 1000  # the same in ticks_us (a small int on the Pico)
QUEUE = 32  # unacknowledged reports kept
RESEND_LIMIT = 8  # reports (re)sent per service pass
SERVICE_EVERY = 16  # polls between service passes


class Firmware:
    def __init__(self, hal, proto_version=proto.PROTOCOL_VERSION, service_every=SERVICE_EVERY):
        self.hal = hal
        hal.setup()
        self.proto_version = proto_version
        self.service_every = service_every
        self.pad = padmod.Pad(hal.seats, HOLDOFF_NS, QUEUE, RESEND_NS)
        self.nonce = hal.random_u32() & 0xFFFFFFFF or 1
        self.decoder = proto.Decoder()
        self.seq = 0
        self.lamps = 0
        hal.set_lamps(0)
        self.last_tick = hal.ticks_us()
        self.max_gap = 0
        self.count = 0
        self.last_host_tick = hal.ticks_us()
        self.malformed = 0
        if hal.capture == proto.CAPTURE_PIO:
            self.capture_ns = hal.sample_ns
        else:
            self.capture_ns = SCAN_NS
        self.levels = 0  # PIO capture: the seats' levels after the latest edge, and the
        self.levels_ns = 0  # time just before that edge

    def run(self):
        """The Pico's main loop: never returns."""
        while True:
            self.poll()

    def poll(self):
        """Take the new seat edges; every ``service_every`` polls also one service pass."""
        hal = self.hal
        pad = self.pad
        edges = hal.read_edges()
        if edges is None:  # the GPIO_IN scan
            tick = hal.ticks_us()
            gap = hal.ticks_diff(tick, self.last_tick) * 1000
            self.last_tick = tick
            if gap > self.max_gap:
                self.max_gap = gap
            bits = hal.read_seats()
            if bits != pad.state:
                pad.sample(bits, hal.now_us() * 1000, gap)
        else:
            for bits, t_ns, gap in edges:
                if gap > self.max_gap:
                    self.max_gap = gap
                self.levels, self.levels_ns = bits, t_ns - gap  # the edge came after this
                if bits != pad.state:
                    pad.sample(bits, t_ns, gap)
            if self.levels != pad.state:
                # A change inside a hold-off: compare again now, as the scan would. The
                # change came with the last edge, so back to before it is the bound.
                now = hal.now_us() * 1000
                pad.sample(self.levels, now, now - self.levels_ns)
        self.count += 1
        if self.count >= self.service_every:
            self.count = 0
            self.service()

    def service(self):
        """Host bytes, reports due, the lamps' silence check. With nothing to read and
        nothing queued it allocates nothing: the 64-bit time (a long int on the Pico) is
        read only when a frame or a report needs it, and the silence is timed in
        ``ticks_us`` (a small int)."""
        hal = self.hal
        data = hal.read_host()
        if data:
            tick = hal.ticks_us()
            for seq, typ, payload in self.decoder.feed(data):
                self.handle(seq, typ, payload, tick)
        if self.pad.queue:
            now = hal.now_us() * 1000
            for r in self.pad.due(now, RESEND_LIMIT):
                self.send(proto.PRESS, proto.press(self.nonce, r[0], r[1], now, r[2], r[3],
                                                   r[4]))
        if self.lamps:
            # ticks_diff tells apart 2**29 µs (9 min) either way: a frame cannot be in
            # the future, so a negative silence is a loop that stalled for longer
            quiet = hal.ticks_diff(hal.ticks_us(), self.last_host_tick)
            if quiet >= SILENCE_US or quiet < 0:
                self.set_lamps(0)

    def handle(self, seq, typ, payload, tick):
        if typ >= 0x80:
            return  # our own direction: an echo, never an order
        self.last_host_tick = tick
        code, value = proto.parse_host(typ, payload)
        if code:
            self.malformed += 1
            self.send(proto.ERROR, proto.error(seq, typ, code))
        elif typ == proto.HELLO_REQ:
            hal = self.hal
            self.send(proto.HELLO, proto.hello(seq, self.proto_version, FIRMWARE_VERSION,
                                               self.pad.seats, self.nonce, hal.chip,
                                               hal.capture, self.capture_ns,
                                               HOLDOFF_NS // 1000))
        elif typ == proto.ACK:
            nonce, ids = value
            if nonce != self.nonce:
                self.send(proto.ERROR, proto.error(seq, typ, proto.ERR_STALE_NONCE))
                return
            for report_id in ids:
                self.pad.ack(report_id)
        elif typ == proto.HEARTBEAT:
            gap = self.max_gap
            self.max_gap = 0
            self.send(proto.HB_REPLY, proto.hb_reply(
                seq, value, self.nonce, self.hal.now_us() * 1000, len(self.pad.queue),
                self.lamps, self.pad.overflow, gap))
        elif typ == proto.LAMPS:
            self.set_lamps(value & self.pad.mask)
            self.send(proto.LAMPS_ACK, proto.lamps_ack(seq, self.lamps))

    def set_lamps(self, mask):
        self.lamps = mask
        self.hal.set_lamps(mask)

    def send(self, typ, payload):
        self.hal.write_host(proto.frame(self.seq, typ, payload))
        self.seq = (self.seq + 1) & 0xFF
