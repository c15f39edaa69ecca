"""Every number and string a box sends is bounded; a message out of bounds is dropped with
a line in the venue's log, and one that cannot be stored is set aside (dead letter): the
venue's copy is never left inside a transaction and later honest messages are stored."""

from __future__ import annotations

import json
import logging

import pytest
from venue_helpers import score

from companion.venue.topics import MAX_INT


def first_live(box):
    game = box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 1)], finish=False)
    topic, raw = box.messages()[-1]
    return game, topic, json.loads(raw)


@pytest.mark.parametrize("key", ["rev", "game", "seq"])
@pytest.mark.parametrize("value", [2**63, 2**64 + 5, MAX_INT + 1, 10**400])
def test_a_huge_number_is_dropped_with_a_log_line_and_honest_messages_still_arrive(
        store, box, key, value, caplog):
    game, topic, obj = first_live(box)
    obj[key] = value
    with caplog.at_level(logging.WARNING, "companion.venue.receiver"):
        got = store.receive(topic, box.sign(topic, obj))
    assert got.outcome == "rejected" and "out of range" in got.reason
    assert [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()] != []
    assert not store.db.in_transaction
    game.do(score(2, 3))
    game.finish()
    assert {store.receive(t, m).outcome for t, m in box.messages()} == {"stored"}
    assert store.board()["tables"][0]["status"] == "finished"


@pytest.mark.parametrize("change", [
    lambda o: o["players"][0].update(name="x" * 10_000),
    lambda o: o.update(table="T" * 10_000),
    lambda o: o.update(last="y" * 10_000),
    lambda o: o.update(at="z" * 500),
    lambda o: o.update(winners=["w" * 5000]),
    lambda o: o.update(winners=["a"] * 9),
    lambda o: o.update(players=o["players"] * 5),
    lambda o: o["players"][0].update(seat=2**63),
    lambda o: o["players"][0].update(score=-(2**70)),
], ids=["name", "table", "last", "at", "winner", "winners", "players", "seat", "score"])
def test_long_strings_and_lists_are_dropped(store, box, change):
    _game, topic, obj = first_live(box)
    change(obj)
    assert store.receive(topic, box.sign(topic, obj)).outcome == "rejected"
    assert store.board()["tables"] == []


def test_a_result_with_a_huge_number_or_a_long_name_is_dropped(store, box):
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 4), {"type": "finish"}])
    topic, raw = box.messages()[-1]
    for change in (lambda o: o.update(rev=2**63),
                   lambda o: o["setup"]["players"][0].update(name="n" * 10_000),
                   lambda o: o.update(finished_at="f" * 1000)):
        obj = json.loads(raw)
        change(obj)
        assert store.receive(topic, box.sign(topic, obj)).outcome == "rejected"
    assert store.results() == []
    assert store.receive(topic, raw).outcome == "stored"


def test_a_message_that_cannot_be_stored_is_set_aside_and_the_next_one_is_stored(
        store, box):
    store.db.execute("CREATE TRIGGER refuse BEFORE INSERT ON results BEGIN"
                     " SELECT RAISE(ABORT, 'the disk says no'); END")
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 4), {"type": "finish"}])
    msgs = box.messages()
    outcomes = [store.receive(t, m).outcome for t, m in msgs]
    assert outcomes[-1] == "dead" and "stored" in outcomes[:-1]
    assert not store.db.in_transaction
    (dead,) = store.dead_letters()
    assert dead["payload"] == msgs[-1][1] and "the disk says no" in dead["reason"]
    assert store.results() == [] and store.counters()["dead"] == 1
    assert "the disk says no" in store.board()["problems"][0]["reason"]
    store.db.execute("DROP TRIGGER refuse")
    box.sim.play_game("scorepad", ["Cy", "Di"], [score(2, 2), {"type": "finish"}])
    assert [store.receive(t, m).outcome for t, m in box.messages()][-1] == "stored"
    assert len(store.results()) == 1
