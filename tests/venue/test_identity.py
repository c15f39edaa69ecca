"""The pieces the venue's trust is made of, without a broker: Ed25519 signatures bound to
their topic, fingerprints as people type them, the per-client rate limits (clock
injected) and the bounded waiting list."""

from __future__ import annotations

import pytest

from companion.venue.admission import WaitingRoom
from companion.venue.identity import Identity, fingerprint, normal_fingerprint, verify
from companion.venue.ratelimit import RateLimits

TOPIC = "companion/chronos-cafe/table-1/live"


def test_a_signature_fits_only_its_topic_its_message_and_its_key():
    me, other = Identity.generate(), Identity.generate()
    signed = me.sign(TOPIC, {"v": 1, "game": 3})
    assert verify(me.public, TOPIC, signed)
    assert not verify(other.public, TOPIC, signed)
    assert not verify(me.public, TOPIC.replace("table-1", "table-2"), signed)
    assert not verify(me.public, TOPIC, signed | {"game": 4})
    assert not verify(me.public, TOPIC, {k: v for k, v in signed.items() if k != "sig"})
    flipped = format(int(signed["sig"][:2], 16) ^ 1, "02x") + signed["sig"][2:]
    assert not verify(me.public, TOPIC, signed | {"sig": flipped})
    assert not verify("zz" * 32, TOPIC, signed)


def test_a_kept_seed_gives_back_the_same_identity():
    me = Identity.generate()
    again = Identity.from_seed(me.seed)
    assert (again.public, again.fingerprint) == (me.public, me.fingerprint)
    assert verify(me.public, TOPIC, again.sign(TOPIC, {"v": 1}))
    with pytest.raises(ValueError):
        Identity.from_seed("not a seed")


def test_fingerprints_read_as_typed():
    fp = fingerprint("00" * 32)
    assert len(fp) == 24 and fp.count("-") == 4
    assert normal_fingerprint(fp.upper().replace("-", " ")) == fp
    assert normal_fingerprint(fp[:-1]) is None and normal_fingerprint("x" * 20) is None


def test_a_client_over_its_rate_is_dropped_and_the_others_are_not():
    now = [100.0]
    limits = RateLimits(rate=10, burst=5, clock=lambda: now[0], max_clients=3)
    assert [limits.allow("flood") for _ in range(8)] == [True] * 5 + [False] * 3
    assert limits.allow("table-3")  # another client has its own bucket
    now[0] += 0.25  # 2.5 tokens later
    assert [limits.allow("flood") for _ in range(3)] == [True, True, False]
    for name in ("a", "b", "c"):  # at most max_clients buckets: the oldest goes
        limits.allow(name)
    assert len(limits._buckets) == 3 and "flood" not in limits._buckets
    assert limits.dropped == 4


def test_the_waiting_list_is_bounded_per_level_and_in_all():
    room = WaitingRoom(per_level=2, total=5)
    key = Identity.generate().public
    assert room.heard("table-3", "3a3a3a3a", key, "Table 3", "t0")
    assert not room.heard("table-3", "3a3a3a3a", key, "Table 3", "t1")  # the same entry
    for i in range(50):  # a stranger inventing boxes at its own level
        room.heard("stranger", f"{i:08x}", key, "x" * 500, f"t{i + 2}")
    assert len(room) == 3
    assert {e.box for e in room.entries() if e.level == "table-3"} == {"3a3a3a3a"}
    assert {e.table for e in room.entries() if e.level == "stranger"} == {"?"}
    for i in range(10):  # inventing levels: only the total holds then
        room.heard(f"level-{i}", "0b0b0b0b", key, "T", f"u{i}")
    assert len(room) == 5
    entry = room.take("0b0b0b0b", fingerprint(key))
    assert entry is not None and entry.box == "0b0b0b0b" and len(room) == 4
    assert room.take("0b0b0b0b", "0000-0000-0000-0000-0000") is None
