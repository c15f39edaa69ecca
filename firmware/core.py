"""The pad firmware's loop body: scan all seats, then talk to the host now and then.

What it is for: one ``Firmware.poll()`` is one scan of the seats (one read of every
input, stamped when something changed) and, every ``service_every`` scans, one service
pass: read the host's bytes, answer them, (re)send unacknowledged press reports, and
turn the lamps off when the host has been silent for ``SILENCE_US``. Pure logic over a
hal object; MicroPython-compatible and runs unchanged on CPython.

How to wire it: on the Pico, ``main.py`` does ``Firmware(hal.Hal()).run()``. The virtual
pad (``companion.pad.virtual``) builds a ``companion.pad.fakehal.FakeHal`` and calls
``poll()`` once per simulated scan period. The hal provides: ``seats``, ``setup()``,
``now_us()`` (64-bit microseconds), ``ticks_us()``/``ticks_diff(a, b)`` (cheap wrapping
ticks for scan gaps), ``read_seats()`` (all seats in one read, bit n-1 = seat n
pressed), ``set_lamps(mask)``, ``read_host()`` (bytes or None, never blocks),
``write_host(data)`` and ``random_u32()``.

Resolution: a slap is stamped by the scan that first sees it, so it happened within the
scan gap before its time; each report carries that gap and each heartbeat reply the
longest gap since the previous one (``max_gap_us``).
"""

import pad as padmod
import proto

FIRMWARE_VERSION = (1, 0, 0)
SCAN_US = 100  # nominal scan period, advertised in HELLO
HOLDOFF_US = 20000  # per-pin debounce hold-off after an edge
RESEND_US = 100000  # resend unacknowledged reports this often
SILENCE_US = 3000000  # lamps off after this long without a valid host frame
QUEUE = 32  # unacknowledged reports kept
RESEND_LIMIT = 8  # reports (re)sent per service pass
SERVICE_EVERY = 16  # scans between service passes


class Firmware:
    def __init__(self, hal, proto_version=proto.PROTOCOL_VERSION, service_every=SERVICE_EVERY):
        self.hal = hal
        hal.setup()
        self.proto_version = proto_version
        self.service_every = service_every
        self.pad = padmod.Pad(hal.seats, HOLDOFF_US, QUEUE, RESEND_US)
        self.nonce = hal.random_u32() & 0xFFFFFFFF or 1
        self.decoder = proto.Decoder()
        self.seq = 0
        self.lamps = 0
        hal.set_lamps(0)
        self.last_tick = hal.ticks_us()
        self.max_gap = 0
        self.count = 0
        self.last_host_us = hal.now_us()
        self.malformed = 0

    def run(self):
        """The Pico's main loop: never returns."""
        while True:
            self.poll()

    def poll(self):
        """One scan; every ``service_every`` scans also one service pass."""
        hal = self.hal
        tick = hal.ticks_us()
        gap = hal.ticks_diff(tick, self.last_tick)
        self.last_tick = tick
        if gap > self.max_gap:
            self.max_gap = gap
        bits = hal.read_seats()
        if bits != self.pad.state:
            self.pad.sample(bits, hal.now_us(), gap)
        self.count += 1
        if self.count >= self.service_every:
            self.count = 0
            self.service()

    def service(self):
        hal = self.hal
        now = hal.now_us()
        data = hal.read_host()
        if data:
            for seq, typ, payload in self.decoder.feed(data):
                self.handle(seq, typ, payload, now)
        for r in self.pad.due(now, RESEND_LIMIT):
            self.send(proto.PRESS, proto.press(self.nonce, r[0], r[1], r[2], r[3], r[4]))
        if self.lamps and now - self.last_host_us >= SILENCE_US:
            self.set_lamps(0)

    def handle(self, seq, typ, payload, now):
        if typ >= 0x80:
            return  # our own direction: an echo, never an order
        self.last_host_us = now
        code, value = proto.parse_host(typ, payload)
        if code:
            self.malformed += 1
            self.send(proto.ERROR, proto.error(seq, typ, code))
        elif typ == proto.HELLO_REQ:
            fw = FIRMWARE_VERSION
            self.send(proto.HELLO, proto.hello(seq, self.proto_version, fw, self.pad.seats,
                                               self.nonce, SCAN_US, HOLDOFF_US))
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
                seq, value, self.nonce, self.hal.now_us(), len(self.pad.queue), self.lamps,
                self.pad.overflow, gap))
        elif typ == proto.LAMPS:
            self.set_lamps(value & self.pad.mask)
            self.send(proto.LAMPS_ACK, proto.lamps_ack(seq, self.lamps))

    def set_lamps(self, mask):
        self.lamps = mask
        self.hal.set_lamps(mask)

    def send(self, typ, payload):
        self.hal.write_host(proto.frame(self.seq, typ, payload))
        self.seq = (self.seq + 1) & 0xFF
