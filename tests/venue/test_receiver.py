"""The venue's copy: exactly once per (box, game), newest live state only, foreign and
malformed messages listed apart, nothing shown that a table did not send."""

from __future__ import annotations

import json

from venue_helpers import Box, score


def test_a_game_is_stored_once_however_often_it_comes(store, box):
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 4), score(2, 1), {"type": "finish"}])
    msgs = box.messages()
    outcomes = [store.receive(t, m).outcome for t, m in msgs + msgs + list(reversed(msgs))]
    assert outcomes[:len(msgs)] == ["stored"] * len(msgs)
    assert "stored" not in outcomes[len(msgs):]
    assert len(store.results()) == 1
    counts = store.counters()
    assert counts["duplicate"] + counts["stale"] == 2 * len(msgs) == 2 * counts["stored"]
    again = store.receive(*msgs[-1])
    assert again.outcome == "duplicate"
    uid = store.result("0a0a0a0a", 1)["uid"]
    assert again.ack == ("table-1", "0a0a0a0a", 1, again.ack[3], uid)
    board = store.board()
    assert board["tonight"][0]["winners"] == ["Ann"]
    assert board["tables"][0]["status"] == "finished"


def test_an_older_live_state_never_replaces_a_newer_one(store, box):
    game = box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 1)], finish=False)
    first = box.messages()
    game.do(score(2, 5))
    newer = box.messages()
    assert store.receive(*newer[-1]).outcome == "stored"
    assert [store.receive(t, m).outcome for t, m in first] == ["stale", "stale"]
    (table,) = store.board()["tables"]
    assert [p["score"] for p in table["players"]] == [1, 5] and table["seq"] == 2


def test_a_result_is_judged_by_its_replay_not_by_what_it_claims(store, box):
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(2, 9), {"type": "finish"}])
    topic, raw = box.messages()[-1]
    claim = json.loads(raw) | {"winners": ["Mallory"]}
    assert store.receive(topic, box.sign(topic, claim)).outcome == "stored"
    assert store.board()["tonight"][0]["winners"] == ["Bo"]


def test_a_result_that_does_not_replay_is_listed_apart_and_not_acknowledged(store, box):
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 1), {"type": "finish"}])
    topic, raw = box.messages()[-1]
    forged = json.loads(raw)
    forged["actions"][0]["action"]["seat"] = 7
    got = store.receive(topic, box.sign(topic, forged))
    assert got.outcome == "rejected" and got.ack is None
    assert "does not replay here (Nobody plays at seat 7 in this game.)" in got.reason
    board = store.board()
    assert board["tonight"] == [] and board["leaderboards"] == []
    assert board["problems"][0]["reason"] == got.reason
    store.receive(topic, box.sign(topic, forged))
    assert store.board()["problems"][0]["count"] == 2  # listed once, counted twice


def test_foreign_topics_and_payloads_never_reach_the_tables(store):
    for topic, raw in (("companion/chronos-cafe/table-1/live", b"hello"),
                       ("companion/chronos-cafe/kitchen", b"{}"),
                       ("companion/chronos-cafe/table-1/live", b'{"v": 1, "type": "live"}')):
        assert store.receive(topic, raw).outcome == "rejected"
    assert store.receive("companion/chronos-cafe/_venue", b"anything").outcome == "ignored"
    board = store.board()
    assert board["tables"] == [] and len(board["problems"]) == 3


def test_two_boxes_with_one_table_name_are_kept_apart_and_told(store, tmp_path, box):
    other = Box(tmp_path / "box2", "0b0b0b0b", "table 1")  # same topic level
    other.admit_to(store)
    try:
        box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 1), {"type": "finish"}])
        other.sim.play_game("scorepad", ["Cy", "Dee"], [score(2, 1), {"type": "finish"}])
        for t, m in box.messages() + other.messages():
            assert store.receive(t, m).outcome == "stored"
        board = store.board()
        assert len(board["tables"]) == 2 and len(store.results()) == 2
        (warning,) = board["warnings"]
        assert "2 boxes call themselves" in warning and "0a0a0a0a" in warning \
            and "0b0b0b0b" in warning
    finally:
        other.close()


def test_slap_reaction_times_come_from_the_replayed_rounds(store, tmp_path):
    b = Box(tmp_path / "box3", "3c3c3c3c", "Table 3")
    b.admit_to(store)
    try:
        b.sim.games = 3  # the third game of a night is slap-pad rounds
        b.sim._night = b.sim._play()
        while b.sim.step() is not None:
            pass
        for t, m in b.messages():
            store.receive(t, m)
        reactions = store.board()["reactions"]
        assert reactions
        slaps = store.results()[-1]["payload"]
        assert slaps["kind"] == "stop_time"
        import statistics

        names = {p["seat"]: p["name"] for p in slaps["setup"]["players"]}
        delays: dict[str, list[float]] = {}
        for a in slaps["actions"]:  # what the table sent: each round's slap times
            facts = a["action"]["verdict"]["slaps"]
            for entry in facts:
                delays.setdefault(names[entry["seat"]], []).append(
                    round((entry["t_ns"] - facts[0]["t_ns"]) / 1e6, 3))
        want = {n: round(statistics.median(d)) for n, d in delays.items()}
        assert {r["name"]: r["median_ms"] for r in reactions} == want
        assert reactions == sorted(reactions, key=lambda r: r["median_ms"])
    finally:
        b.close()
