"""Large games reach the venue: a result over the 1 MB message limit goes out compacted
(its actions zlib-compressed), the venue expands it within a bound, and a game too large
even then is given up with a sentence at the table instead of being resent forever."""

from __future__ import annotations

import base64
import json
import random
import zlib

from venue_helpers import Box, score, venue_config

from companion.venue.outbox import Outbox
from companion.venue.publisher import Publisher
from companion.venue.topics import MAX_EXPANDED, MAX_PAYLOAD, compact, encode


def noted(i: int, text: str) -> dict:
    return {**score(1 + i % 2, 1), "note": text}


def test_a_result_over_the_limit_arrives_compacted_and_whole(tmp_path, store):
    box = Box(tmp_path / "box", "0a0a0a0a", "Table 1")
    box.admit_to(store)
    try:
        box.sim.play_game("scorepad", ["Ann", "Bo"],
                          [noted(i, f"round {i} " + "slap " * 200) for i in range(1200)]
                          + [score(2, 1), {"type": "finish"}])
        row = [r for r in box.outbox.unsent(limit=10_000) if r.topic == "result"][-1]
        payload = box.builder.result(row)
        assert len(encode(payload)) > MAX_PAYLOAD  # as it was: never stored, resent forever
        small = compact(payload)
        raw = box.sign(box.topics.result(), small)
        assert len(raw) < MAX_PAYLOAD // 4
        got = store.receive(box.topics.result(), raw)
        assert got.outcome == "stored" and got.ack is not None
        assert store.result("0a0a0a0a", 1)["actions"] == payload["actions"]
        assert store.board()["tonight"][0]["winners"] == ["Bo"]
    finally:
        box.close()


def test_a_compacted_result_that_expands_too_far_or_is_not_zlib_is_dropped(tmp_path, store):
    box = Box(tmp_path / "box", "0a0a0a0a", "Table 1")
    box.admit_to(store)
    try:
        box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 2), {"type": "finish"}])
        row = [r for r in box.outbox.unsent(limit=10_000) if r.topic == "result"][-1]
        payload = compact(box.builder.result(row))
        bomb = base64.b64encode(zlib.compress(b"[" + b" " * (MAX_EXPANDED + 10) + b"]", 9))
        for packed in (bomb.decode(), "not base64!", base64.b64encode(b"junk").decode()):
            got = store.receive(box.topics.result(),
                                box.sign(box.topics.result(), {**payload, "actions_z": packed}))
            assert got.outcome == "rejected" and "actions_z" in got.reason
        assert store.results() == []
    finally:
        box.close()


def test_a_game_too_large_even_compacted_is_told_and_not_resent_forever(tmp_path):
    box = Box(tmp_path / "box", "0a0a0a0a", "Table 1")
    rng = random.Random(25)
    try:
        box.sim.play_game("scorepad", ["Ann", "Bo"], [
            noted(i, "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789")
                             for _ in range(1500))) for i in range(1000)])
        game_id = 1
        pub = Publisher(venue_config(9), box.sim.path, "0a0a0a0a")
        sent = []
        pub.conn.publish = lambda topic, body, qos=1, retain=False: sent.append(body) or 1
        try:
            pub.open()
            row = [r for r in pub.outbox.unsent(limit=10_000) if r.topic == "result"][-1]
            pub._send(row)
            assert sent == []
            text, error = pub.notices.get_nowait()
            assert error and f"game {game_id} is too large to send" in text
            assert "stays in this box's log" in text
            assert row.id not in {r.id for r in pub.outbox.unsent(limit=10_000)}
            assert row.id not in {r.id for r in pub.outbox.unacked_results()}
        finally:
            pub.stop()
        assert Outbox(box.sim.path).counts()[1] == 0
    finally:
        box.close()


def test_compact_keeps_everything_but_the_form_of_the_actions():
    payload = {"v": 1, "type": "result", "actions": [{"seq": 1, "at": "t", "action": {}}]}
    small = compact(payload)
    assert "actions" not in small and small["type"] == "result"
    assert json.loads(zlib.decompress(base64.b64decode(small["actions_z"]))) == \
        payload["actions"]
