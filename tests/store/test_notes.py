"""A game's note: kept in its stored setup under the setup's checksum, apart from
what the engines, the play ids and the restore read; undo and replay never touch it."""

from __future__ import annotations

import pytest

from companion.errors import LogError
from companion.export.bgstats import play_id
from companion.games import get_rules
from companion.session import GameSession
from companion.store.gamelog import NOTE_CHARS, NOTE_KEY, GameLog

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


def finished_game(log: GameLog) -> int:
    gid = log.new_game("scorepad", SETUP)
    log.append(gid, {"type": "score", "seat": 1, "points": 2})
    log.append(gid, {"type": "score", "seat": 2, "points": 5})
    log.finish(gid)
    return gid


def test_a_note_on_a_finished_game_is_kept_and_read_back(tmp_path):
    path = tmp_path / "g.sqlite3"
    log = GameLog(path)
    gid = finished_game(log)
    before = log.game(gid)
    assert before.note == ""
    assert log.set_note(gid, "  Bo's   first win!\n") == "Bo's first win!"
    log.close()
    again = GameLog(path)
    row = again.game(gid)
    assert row.note == "Bo's first win!"
    assert row.setup == SETUP  # the engines' setup has no note in it
    assert (row.status, row.finished_at, row.n_actions) == \
        (before.status, before.finished_at, before.n_actions)
    assert play_id(row.kind, row.started_at, row.setup) == \
        play_id(before.kind, before.started_at, before.setup)
    assert again.actions(gid) == [{"type": "score", "seat": 1, "points": 2},
                                  {"type": "score", "seat": 2, "points": 5}]
    again.close()


@pytest.mark.parametrize("notes, shown", [
    (["first"], "first"),
    (["first", "second"], "second"),
    (["first", ""], ""),
    (["first", "   "], ""),
])
def test_a_note_replaces_the_one_before_and_empty_removes_it(game_log, notes, shown):
    gid = finished_game(game_log)
    for note in notes:
        game_log.set_note(gid, note)
    assert game_log.game(gid).note == shown
    stored = game_log.db.execute("SELECT setup FROM games WHERE id = ?", (gid,)).fetchone()[0]
    assert (NOTE_KEY in stored) == bool(shown)


def test_the_setup_checksum_covers_the_note(game_log):
    gid = finished_game(game_log)
    game_log.set_note(gid, "Ann was late")
    text = game_log.db.execute("SELECT setup FROM games WHERE id = ?", (gid,)).fetchone()[0]
    game_log.db.execute("UPDATE games SET setup = ? WHERE id = ?",
                        (text.replace("late", "lame"), gid))
    row = game_log.game(gid)
    assert row.damaged and "checksum" in row.damaged
    with pytest.raises(LogError, match="damaged"):
        game_log.set_note(gid, "sealed again?")  # a changed row is never re-sealed
    assert game_log.game(gid).damaged


def test_undo_and_resume_leave_the_note_alone(game_log):
    rules = get_rules("scorepad")
    session = GameSession.start(game_log, rules, SETUP)
    session.do({"type": "score", "seat": 1, "points": 3})
    session.do({"type": "score", "seat": 2, "points": 4})
    game_log.set_note(session.game_id, "a note before the end")
    session.undo()
    assert game_log.game(session.game_id).note == "a note before the end"
    again = GameSession.resume(game_log, session.game_id)
    assert again.n_actions == 1
    assert again.setup == SETUP


@pytest.mark.parametrize("bad, words", [
    (None, "is text"),
    (12, "is text"),
    ("x" * (NOTE_CHARS + 1), "at most"),
])
def test_a_bad_note_is_refused_and_nothing_changes(game_log, bad, words):
    gid = finished_game(game_log)
    game_log.set_note(gid, "kept")
    with pytest.raises(LogError, match=words):
        game_log.set_note(gid, bad)
    assert game_log.game(gid).note == "kept"


def test_a_note_on_no_game_is_refused(game_log):
    with pytest.raises(LogError, match="no game 42"):
        game_log.set_note(42, "hello")


def test_a_note_survives_the_salvage_of_a_damaged_log(tmp_path):
    from logfiles import damage_page_holding

    path = tmp_path / "games.sqlite3"
    log = GameLog(path)
    long_game = log.new_game("scorepad", SETUP)
    for i in range(1, 201):
        log.append(long_game, {"type": "score", "seat": 1, "points": 1,
                               "note": f"L-{i:04d}" + "x" * 150})
    noted = finished_game(log)
    log.set_note(noted, "kept through a bad card")
    log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    damage_page_holding(path, b"L-0100")
    again = GameLog(path)
    assert again.recovered
    assert again.game(noted).note == "kept through a bad card"
    assert again.game(noted).setup == SETUP
    again.close()
