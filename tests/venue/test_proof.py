"""Boxes prove their messages: a message with a real box's id but not that box's key or
signature changes nothing on the page, is counted there, and a forged ack does not make a
box forget a result (companion/venue/proof.py, docs/venue.md)."""

from __future__ import annotations

import json

from venue_helpers import Box, score

from companion.venue import proof
from companion.venue.page import board_html
from companion.venue.topics import encode


class Forger:
    """A broker client that knows everything on the wire, but not the box's secret."""

    def __init__(self, venue_public: str) -> None:
        self.secret = proof.new_secret()
        self.public = proof.public(self.secret)
        self.key = proof.shared_key(self.secret, venue_public)

    def own_key(self, topic: str, obj: dict) -> bytes:
        return encode(proof.sign(self.key, topic, {**obj, "key": self.public}))

    def box_key_own_sig(self, topic: str, obj: dict) -> bytes:
        """The box's real public key (read off the wire) with a signature it cannot make."""
        return encode(proof.sign(self.key, topic, obj))

    @staticmethod
    def unsigned(topic: str, obj: dict) -> bytes:
        return encode({k: v for k, v in obj.items() if k not in ("key", "sig")})


def ways(forger):
    return [forger.own_key, forger.box_key_own_sig, Forger.unsigned]


def test_a_forged_live_state_with_a_real_box_id_changes_nothing(store, box):
    game = box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 2)], finish=False)
    for t, m in box.messages():
        assert store.receive(t, m).outcome == "stored"
    before = store.board()
    forger = Forger(store.public)
    topic = box.topics.live()
    for way in ways(forger):
        fake = {"v": 1, "type": "live", "box": "0a0a0a0a", "table": "Table 1", "game": 1,
                "rev": 10**9, "seq": 99, "kind": "scorepad", "title": "Score pad",
                "status": "open", "players": [{"name": "Mallory", "seat": 1, "score": 999}],
                "key": box.public, "sig": "0" * 64}
        got = store.receive(topic, way(topic, fake))
        assert got.outcome == "unproven", way
    after = store.board()
    assert after["tables"] == before["tables"]
    assert after["unproven"] == 3 and store.counters()["unproven"] == 3
    assert 'id="unproven">3 message(s) did not prove' in board_html(after)
    game.do(score(2, 5))  # the real box goes on, and is still heard
    assert [store.receive(t, m).outcome for t, m in box.messages()] == ["stored"]
    assert store.board()["tables"][0]["players"][1]["score"] == 5


def test_a_forged_result_cannot_replace_a_game_or_credit_the_forger(store, box):
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 4), {"type": "finish"}])
    msgs = box.messages()
    for t, m in msgs:
        store.receive(t, m)
    topic, raw = msgs[-1]
    forger = Forger(store.public)
    before = store.board()
    for way in ways(forger):
        fake = json.loads(raw)
        fake["rev"] += 1000
        fake["setup"]["players"][0]["name"] = "Mallory"
        assert store.receive(topic, way(topic, fake)).outcome == "unproven"
    assert store.board()["leaderboards"] == before["leaderboards"]
    assert store.result("0a0a0a0a", 1)["setup"]["players"][0]["name"] == "Ann"
    again = store.receive(topic, raw)  # the real box's resend is still acknowledged
    assert again.outcome == "duplicate" and again.ack is not None


def test_a_second_key_for_a_known_box_is_refused_even_when_well_signed(store, box, tmp_path):
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 4)], finish=False)
    for t, m in box.messages():
        assert store.receive(t, m).outcome == "stored"
    other = Box(tmp_path / "box2", "0a0a0a0a", "Table 1")  # same id, another secret
    try:
        other.sim.play_game("scorepad", ["Mallory", "Eve"], [score(1, 9)], finish=False)
        outcomes = {store.receive(t, m).outcome for t, m in other.messages()}
    finally:
        other.close()
    assert outcomes == {"unproven"}
    assert store.board()["tables"][0]["players"][0]["name"] == "Ann"


def test_acks_are_signed_with_the_box_key_and_a_forged_one_does_not_verify(store, box):
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 4), {"type": "finish"}])
    got = [store.receive(t, m) for t, m in box.messages()][-1]
    topic, raw = store.signed_ack(*got.ack)
    assert proof.verify(box.key, topic, json.loads(raw))
    forged = proof.sign(Forger(store.public).key, topic, json.loads(raw))
    assert not proof.verify(box.key, topic, forged)
    assert not proof.verify(box.key, topic, {k: v for k, v in json.loads(raw).items()
                                             if k != "sig"})
