"""A game deleted from History stays in the SQLite log, marked, and is hidden from
History, the statistics and the exports, across a restart; an older log opens."""

from __future__ import annotations

import sqlite3

from companion.export.logfile import exported_ids
from companion.store.gamelog import GameLog
from companion.store.readonly import open_read_only
from companion.ui.presenters.history import recent_summaries, win_table
from tests.logfiles import old_log

ANN_BO = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


def _finished(log: GameLog, points: int) -> int:
    gid = log.new_game("scorepad", ANN_BO)
    log.append(gid, {"type": "score", "seat": 2, "points": points})
    log.append(gid, {"type": "finish"})
    log.finish(gid)
    return gid


def test_a_deleted_game_is_kept_in_the_log_and_hidden_after_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    kept, gone = _finished(log, 4), _finished(log, 9)
    open_gid = log.new_game("scorepad", ANN_BO)
    log.append(open_gid, {"type": "score", "seat": 1, "points": 1})
    log.delete_game(gone)
    log.delete_game(open_gid)
    log.close()

    log = GameLog(path)  # a restart
    try:
        assert log.deleted_games() == {gone, open_gid}
        shown = [g.game_id for g in recent_summaries(log, 30)]
        assert shown == [kept]
        assert [(s.name, s.played, s.won) for s in win_table(recent_summaries(log, 30))] \
            == [("Bo", 1, 1), ("Ann", 1, 0)]
        assert exported_ids(log) == [kept]
        assert log.open_games() == []  # the open one is not offered for resume
        # nothing lost: the rows are as recorded
        assert [a["points"] for a in log.actions(gone) if "points" in a] == [9]
        assert log.game(gone).status == "finished"
        assert log.game(open_gid).status == "abandoned"
    finally:
        log.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT status_before FROM deleted_games ORDER BY game_id")\
        .fetchall() == [("finished",), ("open",)]
    db.close()


def test_deleting_twice_or_an_unknown_game(tmp_path):
    log = GameLog(tmp_path / "games.sqlite3")
    gid = _finished(log, 2)
    log.delete_game(gid)
    log.delete_game(gid)  # a second tap: the same mark, nothing else
    assert log.deleted_games() == {gid}
    try:
        log.delete_game(99)
    except Exception as exc:  # noqa: BLE001
        assert "no game 99" in str(exc)
    else:
        raise AssertionError("an unknown game must be refused")
    log.close()


def test_an_older_log_opens_with_its_games_shown_and_read_only_too(tmp_path):
    path = tmp_path / "old.sqlite3"
    old_log(path, upto=5, games=2)
    db, _version = open_read_only(path)  # before the new table: reading still works
    db.close()
    ro = GameLog(path, read_only=True)
    assert ro.deleted_games() == set()
    assert exported_ids(ro) == [1, 2]
    ro.close()
    log = GameLog(path)  # the app: the mark's table is added, nothing else changes
    assert log.deleted_games() == set()
    assert [g.id for g in log.games()] == [1, 2]
    log.delete_game(1)
    assert exported_ids(log) == [2]
    log.close()
