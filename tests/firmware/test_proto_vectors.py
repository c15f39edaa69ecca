"""firmware/proto.py against firmware/vectors.json (the host codec is checked against the
same file in tests/pad/test_codec.py)."""

import json
from pathlib import Path

import pytest
from vector_packers import packers

from companion.pad.fakehal import load_firmware

VECTORS = json.loads((Path(__file__).parents[2] / "firmware" / "vectors.json").read_text())
proto = load_firmware().proto

PACKERS, HOST_VALUES = packers(proto)


def test_protocol_version_matches_vectors():
    assert VECTORS["protocol"] == proto.PROTOCOL_VERSION


@pytest.mark.parametrize("vec", VECTORS["crc16"], ids=lambda v: v["hex"][:16] or "empty")
def test_crc16(vec):
    assert proto.crc16(bytes.fromhex(vec["hex"])) == vec["crc"]


def test_crc16_check_value():
    assert proto.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("vec", VECTORS["messages"], ids=lambda v: v["name"])
def test_messages(vec):
    frame = bytes.fromhex(vec["frame"])
    payload = bytes.fromhex(vec["payload"])
    typ = vec["type"]
    # The frame bytes: built by the firmware exactly as in the vectors.
    assert proto.frame(vec["seq"], typ, payload) == frame
    if typ in PACKERS:  # pad-to-host: the firmware must pack the fields to this payload
        assert PACKERS[typ](vec["fields"]) == payload
    else:  # host-to-pad: the firmware must read these fields out of the frame
        [(seq, got_type, got_payload)] = proto.Decoder().feed(frame)
        assert (seq, got_type, bytes(got_payload)) == (vec["seq"], typ, payload)
        assert proto.parse_host(typ, got_payload) == (0, HOST_VALUES[typ](vec["fields"]))


@pytest.mark.parametrize("vec", VECTORS["streams"], ids=lambda v: v["name"])
@pytest.mark.parametrize("chunk", [1, 3, 1000])
def test_streams_resync(vec, chunk):
    data = bytes.fromhex(vec["stream"])
    decoder = proto.Decoder()
    got = []
    for i in range(0, len(data), chunk):
        got += decoder.feed(data[i:i + chunk])
    want = [bytes.fromhex(f) for f in vec["frames"]]
    assert [proto.frame(seq, typ, payload) for seq, typ, payload in got] == want


@pytest.mark.parametrize("vec", VECTORS["malformed_host"], ids=lambda v: v["name"])
def test_malformed_host_messages(vec):
    assert proto.parse_host(vec["type"], bytes.fromhex(vec["payload"])) == (vec["error"], None)


def test_oversized_payload_refused():
    with pytest.raises(ValueError):
        proto.frame(0, 0x81, bytes(proto.MAX_PAYLOAD + 1))


def test_gap_fields_saturate():
    assert proto.press(1, 2, 3, 4, 1, 0, 2**33)[-4:] == b"\xff\xff\xff\xff"
    assert proto.hb_reply(1, 2, 3, 4, 300, 0, 70_000, 2**40)[-8:] == (
        b"\xff\x00\xff\xff" + b"\xff\xff\xff\xff")


def test_hello_names_our_firmware():
    payload = proto.hello(0, 2, (2, 0, 0), 8, 1, proto.CHIP_RP2350, proto.CAPTURE_PIO, 47, 20000)
    assert payload[2:6] == proto.PRODUCT == b"SLAP"


def test_firmware_crc_is_binascii_crc_hqx():
    import binascii
    import random

    rng = random.Random(5)
    for n in (0, 1, 7, 48, 300):
        data = bytes(rng.randrange(256) for _ in range(n))
        assert proto.crc16(data) == binascii.crc_hqx(data, 0xFFFF)
