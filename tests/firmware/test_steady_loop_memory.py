"""What the pad's steady loop allocates, under real MicroPython with its collector.

A collection on the Pico stops the loop for as long as it takes to mark the heap, so
the loop that runs every 100 µs should allocate nothing: then no collection ever falls
inside a slap. The script below runs the firmware's own ``core``, ``pad``, ``proto``
and ``edges`` over a hal written here that allocates nothing itself (its ``now_us()``
builds the 64-bit time from its parts, as ``hal.now_us()`` does from the timer's two
registers), and counts ``gc.mem_alloc()`` before and after 10,000 scans:

* idle, lamps dark and lamps lit (the host's LAMPS command; the silence check runs);
* with presses: a seat pressed and released every 1,000 scans (20 reports), each report
  acknowledged by the host 50 scans after it was made;
* one heartbeat: the service pass that reads a HEARTBEAT and writes its reply;

each with the GPIO_IN scan and with the PIO edge capture. During each count the
collector is held off (``gc.disable()``), so that a collection cannot hide garbage;
before and after it, it is on. The unix port is 64-bit (small integers up to 2**62);
the same script runs under the 32-bit WebAssembly build, whose small integers stop at
2**30 as the Pico's do, so that the 64-bit times' cost on the Pico shows too. The
numbers are printed (``pytest -s``) and named in firmware/README.md.
"""

from __future__ import annotations

import json

import pytest

from companion.pad import codec

pytestmark = pytest.mark.slow

SCANS = 10_000
START_US = 2**32 + 12_345  # past the 32-bit µs wrap (71 minutes after boot)
NONCE = 0x12345678  # the hal's random_u32(), so the host's ACKs name this boot

SCRIPT = r'''
import gc, json, core, edges, proto
COLLECT = gc.isenabled()  # off only under the 32-bit build, whose collector faults
cfg = json.load(open(ROOT + "/cfg.json"))
SCANS = cfg["scans"]
START_US = cfg["start_us"]
FREQ = 125000000


class Hal:
    """Allocates nothing but what the Pico's hal does: its now_us() builds the time."""
    seats = 8

    def __init__(self, capture):
        self.chip = proto.CHIP_RP2040
        self.capture = capture
        self.base = START_US
        self.base_ticks = START_US & 0x3FFFFFFF
        self.elapsed = 0
        self.bits = 0
        self.rx = None
        self.words = None
        self.sent = 0
        self.last = None
        self.lamps = 0
        self.decoder = edges.EdgeDecoder(FREQ, START_US * 1000, 8) if capture else None
        self.sample_ns = self.decoder.sample_ns if capture else 0

    def setup(self):
        pass

    def now_us(self):
        return self.base + self.elapsed

    def ticks_us(self):
        return (self.base_ticks + self.elapsed) & 0x3FFFFFFF

    def ticks_diff(self, a, b):
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

    def read_seats(self):
        return self.bits

    def read_edges(self):
        # as hal.read_edges: () with an empty FIFO, else the FIFO's words decoded
        if not self.capture:
            return None
        if self.words is None:
            return ()
        raw, self.words = self.words, None
        words = [w for w in raw]
        return self.decoder.decode(words, self.now_us() * 1000)

    def set_lamps(self, mask):
        self.lamps = mask

    def read_host(self):
        data, self.rx = self.rx, None
        return data

    def write_host(self, data):
        self.sent += 1
        self.last = data

    def random_u32(self):
        return 0x12345678


def word_at(elapsed_us, bits):
    """The PIO word for a change to ``bits`` seen at ``elapsed_us`` after the start."""
    k = (elapsed_us * FREQ // 1000000 - 6) // 7
    return ((~bits & 0xFF) << 24) | ((0xFFFFFF - k) & 0xFFFFFF)


def plan(first, presses):
    """(scan, what, arg) in scan order: seat 1 down and up, the host's ACK 50 scans on."""
    out = []
    if presses:
        report = first
        for k in range(SCANS // 1000):
            for at, bits in ((k * 1000 + 100, 1), (k * 1000 + 600, 0)):
                out.append((at, "seats", bits))
                out.append((at + 50, "host", cfg["acks"][report]))
                report += 1
    return out


def run(fw, hal, scans, events):
    """``scans`` polls, 100 µs apart, with ``events`` (prepared beforehand) on the way."""
    e = 0
    n = len(events)
    for i in range(scans):
        hal.elapsed += 100
        while e < n and events[e][0] == i:
            what = events[e][1]
            if what == "seats":
                hal.bits = events[e][2]
                if hal.capture:
                    hal.words = events[e][3]
            else:
                hal.rx = events[e][2]
            e += 1
        fw.poll()


def prepared(events, offset):
    """Events with their bytes and PIO words made now, outside the count."""
    out = []
    for at, what, arg in events:
        if what == "seats":
            elapsed = 100 * (offset + at + 1)
            out.append((at, what, arg, (word_at(elapsed, arg),)))
        else:
            out.append((at, what, bytes.fromhex(arg)))
    return out


def counted(fw, hal, scans, events):
    """Bytes allocated by ``scans`` polls, the collector held off meanwhile."""
    if COLLECT:
        gc.collect()
        gc.disable()
    before = gc.mem_alloc()
    run(fw, hal, scans, events)
    after = gc.mem_alloc()
    if COLLECT:
        gc.enable()
    return after - before


out = {}
for capture in (0, 1):
    res = {}
    for case in ("idle", "lit", "presses", "heartbeat"):
        hal = Hal(capture)
        fw = core.Firmware(hal)
        warm = [(10, "host", cfg["lamps"])] if case == "lit" else []
        if case in ("presses", "heartbeat"):  # a press, a release, their ACKs, before
            warm = [(100, "seats", 1), (150, "host", cfg["acks"][0]),
                    (400, "seats", 0), (450, "host", cfg["acks"][1])]
        run(fw, hal, 1000, prepared(warm, 0))
        if case == "heartbeat":
            events = prepared([(0, "host", cfg["heartbeat"])], 1000)
            sent = hal.sent
            res[case] = counted(fw, hal, fw.service_every, events)
            res["heartbeat_replies"] = hal.sent - sent
            continue
        events = prepared(plan(2, case == "presses"), 1000) if case == "presses" else []
        sent = hal.sent
        res[case] = counted(fw, hal, SCANS, events)
        res[case + "_frames"] = hal.sent - sent
        if case == "presses":
            res["reports"] = fw.pad.next_id - 3
            res["unacked"] = len(fw.pad.queue)
    out[str(capture)] = res
print(json.dumps(out))
'''


def _config() -> dict:
    ack = [codec.encode_message(200 + i, codec.Ack(NONCE, (i + 1,))).hex() for i in range(22)]
    return {"scans": SCANS, "start_us": START_US, "acks": ack,
            "lamps": codec.encode_message(199, codec.Lamps(0b1111)).hex(),
            "heartbeat": codec.encode_message(198, codec.Heartbeat(77)).hex()}


def _measure(runner) -> dict:
    out = runner(SCRIPT, {"cfg.json": json.dumps(_config())})
    return json.loads(out.strip().splitlines()[-1])


def _say(build: str, got: dict) -> None:
    for capture, name in (("0", "GPIO_IN scan"), ("1", "PIO capture")):
        r = got[capture]
        print(f"\n{build}, {name}: {SCANS} scans idle {r['idle']} B "
              f"({r['idle'] / SCANS:g} B/scan), lamps lit {r['lit']} B "
              f"({r['lit'] / SCANS:g} B/scan); with {r['reports']} reports "
              f"{r['presses']} B ({r['presses'] / r['reports']:g} B/report, "
              f"{r['presses'] / SCANS:g} B/scan); one heartbeat {r['heartbeat']} B")


def test_the_steady_loop_allocates_nothing_per_scan(micropython):
    got = _measure(micropython)
    _say("unix port (64-bit)", got)
    for capture in ("0", "1"):
        r = got[capture]
        assert (r["idle"], r["lit"]) == (0, 0), r
        assert r["idle_frames"] == r["lit_frames"] == 0  # nothing was said meanwhile
        assert r["reports"] == 20 and r["unacked"] == 0, r
        assert r["presses_frames"] == 20  # each report sent once, no resend
        assert r["heartbeat_replies"] == 1
        # what a report costs, made, sent and acknowledged (1568-1792 B when measured;
        # firmware/README.md names it): a resend on every service pass would pass this
        assert r["presses"] <= 2048 * r["reports"], r


def test_the_steady_loop_on_a_32_bit_build(micropython32):
    """Where the Pico's small integers end (2**30): the 64-bit times are long integers."""
    got = _measure(micropython32)
    _say("WebAssembly build (32-bit)", got)
    for capture in ("0", "1"):
        r = got[capture]
        assert (r["idle"], r["lit"]) == (0, 0), r
        assert r["reports"] == 20 and r["unacked"] == 0, r
