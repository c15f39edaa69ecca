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


def test_a_copy_from_before_game_uids_keeps_its_games_and_admits_afresh(tmp_path, box):
    import json
    import sqlite3

    from companion.venue.receiver import VenueStore

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE live (box TEXT PRIMARY KEY, rev INTEGER NOT NULL, game INTEGER NOT NULL,
            seq INTEGER NOT NULL, payload TEXT NOT NULL, received_at TEXT NOT NULL);
        CREATE TABLE results (box TEXT NOT NULL, game INTEGER NOT NULL, rev INTEGER NOT NULL,
            table_slug TEXT NOT NULL, table_name TEXT NOT NULL, kind TEXT NOT NULL,
            status TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,
            received_at TEXT NOT NULL, payload TEXT NOT NULL, players TEXT NOT NULL,
            winners TEXT NOT NULL, reactions TEXT NOT NULL, PRIMARY KEY (box, game));
        CREATE TABLE box_keys (box TEXT PRIMARY KEY, key TEXT NOT NULL,
            first_seen TEXT NOT NULL);
        INSERT INTO box_keys VALUES ('0a0a0a0a', 'a DH public value', 't');
    """)
    payload = {"box": "0a0a0a0a", "game": 1, "kind": "scorepad", "setup": {}, "actions": []}
    old.execute("INSERT INTO results VALUES ('0a0a0a0a', 1, 5, 'table-1', 'Table 1',"
                " 'scorepad', 'finished', 's', 'f', '2026-12-01T20:00:00.000+00:00', ?,"
                " '[{\"name\": \"Zed\", \"seat\": 1, \"score\": 3}]', '[\"Zed\"]', '{}')",
                (json.dumps(payload),))
    old.commit()
    old.close()
    store = VenueStore(path, "Chronos Café")
    try:
        assert [(r["box"], r["game"]) for r in store.results()] == [("0a0a0a0a", 1)]
        assert store.admitted() == {}  # a key agreed by Diffie-Hellman proves nothing
        assert store.db.execute("SELECT uid FROM results").fetchall() == [("v1-1",)]
        box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 1), {"type": "finish"}])
        msgs = box.messages()
        assert {store.receive(t, m).outcome for t, m in msgs} == {"waiting"}
        box.admit_to(store)
        assert {store.receive(t, m).outcome for t, m in msgs} == {"stored"}
        assert len(store.results()) == 2  # its game 1 again, as a game of its own
    finally:
        store.close()


def test_the_messages_we_could_not_use_are_bounded(store):
    from companion.venue.receiver import KEEP_PROBLEMS

    for i in range(KEEP_PROBLEMS + 100):
        store.receive(f"companion/chronos-cafe/table-{i}/live", b"not json")
    (rows,) = store.db.execute("SELECT COUNT(*) FROM problems").fetchone()
    assert KEEP_PROBLEMS <= rows < KEEP_PROBLEMS + 20
    assert len(store.board()["problems"]) == 20
