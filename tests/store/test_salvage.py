"""A damaged page costs the rows on it, not the log: every other game is saved into the
fresh log and stays playable; the damaged file is kept aside as it was."""

from __future__ import annotations

from logfiles import SETUP, damage_page_holding

from companion.games import get_rules
from companion.session import GameSession
from companion.store.gamelog import GameLog


def _night(path) -> tuple[int, int, int]:
    """Three games; the first one long enough to fill many pages."""
    log = GameLog(path)
    long_game = log.new_game("scorepad", SETUP)
    short = log.new_game("scorepad", SETUP)
    finished = log.new_game("scorepad", SETUP)
    for i in range(1, 201):
        log.append(long_game, {"type": "score", "seat": 1, "points": 1,
                               "note": f"L-{i:04d}" + "x" * 150})
    for i in range(1, 6):
        log.append(short, {"type": "score", "seat": 2, "points": i})
    log.append(finished, {"type": "score", "seat": 1, "points": 7})
    log.finish(finished)
    log.set_setting("muted", True)
    log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    return long_game, short, finished


def test_a_bad_page_costs_only_the_actions_on_it(tmp_path):
    path = tmp_path / "games.sqlite3"
    long_game, short, finished = _night(path)
    damage_page_holding(path, b"L-0100")
    damaged = path.read_bytes()
    log = GameLog(path)
    assert log.recovered and "damaged" in log.recovered
    assert f"game {long_game} was saved up to action" in log.recovered
    kept = len(log.actions(long_game))
    assert 50 < kept < 100, kept  # the prefix before the bad page
    assert log.actions(long_game)[-1]["note"].startswith(f"L-{kept:04d}")
    resumed = GameSession.resume(log, short)  # the other games play on
    assert resumed.snapshot()["totals"] == {"1": 0, "2": 15}
    resumed.do({"type": "score", "seat": 1, "points": 4})
    assert log.game(finished).status == "finished" and log.actions(finished)[0]["points"] == 7
    assert log.get_setting("muted") is True
    assert log.known_players()
    assert GameSession.resume(log, long_game).state == GameSession(
        log, get_rules("scorepad"), long_game, SETUP, log.actions(long_game)).state
    log.close()
    (aside,) = [p for p in tmp_path.iterdir() if p.name.endswith(("Z", "Z-1"))]
    assert aside.read_bytes() == damaged, "the damaged file is kept exactly as it was"


def test_a_game_deleted_from_history_stays_deleted_after_a_salvage(tmp_path):
    path = tmp_path / "games.sqlite3"
    long_game, short, finished = _night(path)
    log = GameLog(path)
    log.delete_game(finished)
    log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    damage_page_holding(path, b"L-0100")
    log = GameLog(path)
    assert log.recovered and "damaged" in log.recovered
    assert log.deleted_games() == {finished}
    assert log.actions(finished)[0]["points"] == 7, "deleted, still in the log"
    log.close()


def test_salvage_twice_keeps_both_files(tmp_path):
    path = tmp_path / "games.sqlite3"
    _night(path)
    damage_page_holding(path, b"L-0150")
    GameLog(path).close()
    again = GameLog(path)  # the salvaged log is healthy: nothing more is set aside
    assert again.recovered is None
    again.close()
    assert len([p for p in tmp_path.iterdir() if ".unreadable-" in p.name
                and not p.name.endswith(("-wal", "-shm"))]) == 1


def test_a_file_with_no_readable_schema_is_kept_and_a_fresh_log_started(tmp_path):
    path = tmp_path / "games.sqlite3"
    _night(path)
    data = bytearray(path.read_bytes())
    data[100] = 0x00  # page 1, the schema's own b-tree page
    path.write_bytes(bytes(data))
    log = GameLog(path)
    assert "No game could be read" in log.recovered
    assert log.games() == []
    log.close()
