"""companion/pad/codec.py against firmware/vectors.json, plus resync properties."""

import binascii
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import LinkError
from companion.pad import codec

pytestmark = pytest.mark.arm64

VECTORS = json.loads((Path(__file__).parents[2] / "firmware" / "vectors.json").read_text())


def _msg_from_fields(typ, f):
    if typ == codec.HELLO:
        return codec.Hello(f["re"], f["proto"], f["product"].encode(), tuple(f["firmware"]),
                           f["seats"], f["nonce"], f["chip"], f["capture"], f["capture_ns"],
                           f["holdoff_us"])
    if typ == codec.ACK:
        return codec.Ack(f["nonce"], tuple(f["reports"]))
    cls = {codec.HELLO_REQ: codec.HelloReq, codec.HEARTBEAT: codec.Heartbeat,
           codec.LAMPS: codec.Lamps, codec.PRESS: codec.Press,
           codec.HB_REPLY: codec.HeartbeatReply, codec.LAMPS_ACK: codec.LampsAck,
           codec.ERROR: codec.ErrorReply}[typ]
    return cls(**f)


def test_protocol_version_matches_vectors():
    assert VECTORS["protocol"] == codec.PROTOCOL_VERSION


@pytest.mark.parametrize("vec", VECTORS["crc16"], ids=lambda v: v["hex"][:16] or "empty")
def test_crc16(vec):
    data = bytes.fromhex(vec["hex"])
    assert codec.crc16(data) == vec["crc"] == binascii.crc_hqx(data, 0xFFFF)


def test_crc16_check_value():
    assert codec.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("vec", VECTORS["messages"], ids=lambda v: v["name"])
def test_messages_both_ways(vec):
    msg = _msg_from_fields(vec["type"], vec["fields"])
    frame = bytes.fromhex(vec["frame"])
    assert codec.encode_message(vec["seq"], msg) == frame
    [decoded] = codec.FrameDecoder().feed(frame)
    assert decoded == codec.Frame(vec["seq"], vec["type"], bytes.fromhex(vec["payload"]))
    assert codec.decode_message(decoded) == msg


@pytest.mark.parametrize("vec", VECTORS["streams"], ids=lambda v: v["name"])
@pytest.mark.parametrize("chunk", [1, 2, 7, 1000])
def test_streams_resync(vec, chunk):
    data = bytes.fromhex(vec["stream"])
    decoder = codec.FrameDecoder()
    got = []
    for i in range(0, len(data), chunk):
        got += decoder.feed(data[i:i + chunk])
    assert [codec.encode_frame(f.seq, f.type, f.payload).hex() for f in got] == vec["frames"]


@pytest.mark.parametrize("vec", VECTORS["malformed_host"], ids=lambda v: v["name"])
def test_malformed_messages_raise_link_error(vec):
    frame = codec.Frame(0, vec["type"], bytes.fromhex(vec["payload"]))
    with pytest.raises(LinkError, match=r"malformed|unknown"):
        codec.decode_message(frame)


def test_malformed_names_the_type_and_length():
    with pytest.raises(LinkError, match=r"malformed Press: 3 payload bytes, expected 30"):
        codec.decode_message(codec.Frame(1, codec.PRESS, b"abc"))


def test_values_that_do_not_fit_are_refused():
    with pytest.raises(LinkError, match="cannot encode"):
        codec.encode(codec.Lamps(256))
    with pytest.raises(LinkError, match="1..8 reports"):
        codec.encode(codec.Ack(1, tuple(range(9))))
    with pytest.raises(LinkError, match="exceeds 48"):
        codec.encode_frame(0, 1, bytes(49))


def test_error_reply_text_names_the_frame():
    assert codec.ErrorReply(7, 0x02, 3).text == (
        "pad refused frame seq 7 (type 0x02): ACK for another boot")


# ---- properties: garbage never yields a wrong frame, and valid frames are found -----------

frames_st = st.lists(
    st.tuples(st.integers(0, 255), st.sampled_from([0x81, 0x82, 0x83, 0x84, 0x85, 0x01]),
              st.binary(max_size=codec.MAX_PAYLOAD)),
    min_size=1, max_size=5)


def _is_real_frame(frame, stream):
    """A decoded frame is only acceptable if its exact bytes, CRC included, are in the
    stream (checked with binascii as an independent CRC)."""
    raw = codec.encode_frame(frame.seq, frame.type, frame.payload)
    body = raw[1:-2]
    return raw in stream and binascii.crc_hqx(body, 0xFFFF) == int.from_bytes(raw[-2:], "big")


# Garbage that looks like frames: sync bytes, short lengths, truncated real frames.
_tricky_bytes = st.lists(st.sampled_from([0xA5, 0x00, 0x01, 0x05, 0x14, 0x30, 0x81, 0xFF]),
                         max_size=12).map(bytes)
_truncated = st.builds(lambda f, cut: codec.encode_frame(*f)[:cut],
                       frames_st.map(lambda fs: fs[0]), st.integers(1, 40))
garbage_st = st.lists(st.one_of(st.binary(max_size=60), _tricky_bytes, _truncated)
                      .map(bytes), min_size=1, max_size=6)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(frames=frames_st, garbage=garbage_st, chunk=st.integers(1, 64))
def test_garbage_interleaved_never_yields_a_wrong_frame(frames, garbage, chunk):
    encoded = [codec.encode_frame(*f) for f in frames]
    stream = bytearray(garbage[0])
    for k, raw in enumerate(encoded):
        stream += raw
        stream += garbage[(k + 1) % len(garbage)]
    # Enough trailing bytes that a false frame start in the last garbage is disproved.
    stream += bytes(codec.MAX_PAYLOAD + codec.OVERHEAD)
    decoder = codec.FrameDecoder()
    got = []
    for i in range(0, len(stream), chunk):
        got += decoder.feed(bytes(stream[i:i + chunk]))
    assert all(_is_real_frame(f, bytes(stream)) for f in got)
    wanted = [codec.Frame(s, t, p) for s, t, p in frames]
    it = iter(got)
    assert all(any(w == g for g in it) for w in wanted), "a valid frame was lost"


@settings(max_examples=200, derandomize=True, deadline=None)
@given(data=st.binary(max_size=400), chunk=st.integers(1, 50))
def test_chunking_never_changes_what_is_decoded(data, chunk):
    whole = codec.FrameDecoder().feed(data)
    decoder = codec.FrameDecoder()
    pieces = []
    for i in range(0, len(data), chunk):
        pieces += decoder.feed(data[i:i + chunk])
    assert pieces == whole


@settings(max_examples=200, derandomize=True, deadline=None)
@given(frames=frames_st, flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 255)),
                                        max_size=3))
def test_corrupted_bytes_never_yield_a_wrong_frame(frames, flips):
    stream = bytearray(b"".join(codec.encode_frame(*f) for f in frames))
    for pos, mask in flips:
        stream[pos % len(stream)] ^= mask
    stream += bytes(codec.MAX_PAYLOAD + codec.OVERHEAD)
    got = codec.FrameDecoder().feed(bytes(stream))
    assert all(_is_real_frame(f, bytes(stream)) for f in got)
