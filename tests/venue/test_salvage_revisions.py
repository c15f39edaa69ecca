"""A salvaged log continues its box's revisions: a box whose log was damaged mid-night
and salvaged is still heard by the venue (its next live states and games are stored, not
dropped as stale), and what it had not yet delivered is still delivered."""

from __future__ import annotations

import sqlite3

from logfiles import damage_page_holding
from venue_helpers import Box, score

from companion.store.salvage import REVISION_GAP, continue_revisions
from companion.venue.outbox import Outbox


def note(i: int) -> dict:
    return {"type": "score", "seat": 1, "points": 1, "note": f"N-{i:04d}" + "x" * 150}


def test_a_box_salvaged_mid_night_is_still_heard(tmp_path, store):
    folder = tmp_path / "box"
    box = Box(folder, "0a0a0a0a", "Table 1")
    box.admit_to(store)  # with the key the salvage keeps, in the log's settings
    box.sim.play_game("scorepad", ["Ann", "Bo"], [score(1, 3), {"type": "finish"}])
    long = box.sim.play_game("scorepad", ["Cy", "Di"], [note(i) for i in range(1, 120)],
                             finish=False)
    assert {store.receive(t, m).outcome for t, m in box.messages()} <= {"stored"}
    last_rev = store.board()["tables"][0]["rev"]
    long.finish()  # finished at the table, but the box dies before it is delivered
    box.sim.log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    box.close()
    damage_page_holding(folder / "games.sqlite3", b"N-0060")

    box = Box(folder, "0a0a0a0a", "Table 1")  # opening the log salvages it
    try:
        assert "damaged" in box.sim.log.recovered
        sent = box.messages()  # the finished game still waiting, under a new revision
        assert sent and {store.receive(t, m).outcome for t, m in sent} == {"stored"}
        assert store.result("0a0a0a0a", long.game_id)["status"] == "finished"
        box.sim.play_game("scorepad", ["Ed", "Flo"], [score(2, 4)], finish=False)
        outcomes = [store.receive(t, m).outcome for t, m in box.messages()]
        assert outcomes and set(outcomes) == {"stored"}
        table = store.board()["tables"][0]
        assert table["players"][0]["name"] == "Ed" and table["rev"] > last_rev
    finally:
        box.close()


def _old_outbox(path, rows):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE venue_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, game_id,"
               " topic, event, seq, body, created_at, sent_at, acked_at)")
    db.executemany("INSERT INTO venue_outbox VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    return db


def test_undelivered_rows_are_copied_above_every_old_revision(tmp_path):
    src = _old_outbox(tmp_path / "old.sqlite3", [
        (7, 1, "result", "finished", 3, "{}", "t", "t", "t"),   # delivered
        (8, 2, "result", "finished", 3, "{}", "t", "t", None),  # sent, never acked
        (9, 2, "live", "append", 4, "{}", "t", None, None),     # not sent
        (10, 3, "live", "append", 1, "{}", "t", None, None)])   # its game was lost
    box = Box(tmp_path / "new", "0a0a0a0a", "Table 1")
    try:
        dst = box.sim.log.db
        dst.execute("BEGIN IMMEDIATE")
        first = continue_revisions(src, dst, {1, 2}, now_ms=0)
        dst.execute("COMMIT")
        assert first == 10 + REVISION_GAP + 1
        rows = Outbox(box.sim.path).unsent()
        assert [(r.id, r.game_id, r.topic) for r in rows] == [
            (first, 2, "result"), (first + 1, 2, "live")]
    finally:
        box.close()


def test_with_nothing_of_the_old_outbox_readable_the_clock_sets_the_floor(tmp_path):
    src = sqlite3.connect(tmp_path / "empty.sqlite3")
    box = Box(tmp_path / "new", "0a0a0a0a", "Table 1")
    try:
        dst = box.sim.log.db
        dst.execute("BEGIN IMMEDIATE")
        first = continue_revisions(src, dst, set(), now_ms=1_796_000_000_000)
        dst.execute("COMMIT")
        assert first == 1_796_000_000_001
    finally:
        box.close()
