"""The integrity check at start is bounded; a large log is checked in the background, and
one that fails there is marked, so the next start checks it whole and saves what it can.

The bound is the log's size, so these tests lower it (``START_BYTES``) instead of
building a log of many megabytes."""

from __future__ import annotations

from logfiles import SETUP, damage_page_holding

from companion.store import integrity
from companion.store.gamelog import GameLog


def _night(path, notes: int = 300) -> int:
    log = GameLog(path)
    gid = log.new_game("scorepad", SETUP)
    for i in range(1, notes + 1):
        log.append(gid, {"type": "score", "seat": 1, "points": 1,
                         "note": f"N-{i:04d}" + "x" * 150})
    log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    return gid


def test_the_bound_counts_the_wal_too(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    _night(path)
    main_file = path.stat().st_size
    path.with_name(path.name + "-wal").write_bytes(b"\0" * 4096)
    assert integrity.size_of(path) == main_file + 4096
    monkeypatch.setattr(integrity, "START_BYTES", main_file)
    assert not integrity.fits_at_start(path)
    integrity.mark(path, "a page is missing")
    assert integrity.fits_at_start(path), "a marked log is checked whole whatever its size"


def test_a_log_that_fits_the_budget_opens_checked(tmp_path):
    path = tmp_path / "games.sqlite3"
    _night(path)
    log = GameLog(path)
    assert not log.unchecked
    log.close()


def test_a_large_log_opens_at_once_and_is_checked_in_the_background(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    gid = _night(path)
    monkeypatch.setattr(integrity, "START_BYTES", path.stat().st_size - 1)
    log = GameLog(path)
    assert log.unchecked and not log.recovered
    answers: list[str] = []
    integrity.check_in_background(path, answers.append).join()
    assert answers == ["ok"] and not integrity.marked(path)
    assert len(log.actions(gid)) == 300
    log.close()


def test_damage_found_in_the_background_is_salvaged_at_the_next_start(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    gid = _night(path)
    monkeypatch.setattr(integrity, "START_BYTES", 4096)
    damage_page_holding(path, b"N-0200")
    log = GameLog(path)  # the damage lies beyond what the start had time to check
    assert log.unchecked and not log.recovered
    answers: list[str] = []
    integrity.check_in_background(path, answers.append).join()
    assert answers and answers[0] != "ok"
    assert integrity.marked(path), "the failed check leaves word for the next start"
    log.close()

    again = GameLog(path)  # the mark lifts the budget: the whole file is checked
    assert again.recovered and "damaged" in again.recovered
    assert not again.unchecked and not integrity.marked(path)
    kept = len(again.actions(gid))
    assert 100 < kept < 200, kept  # the actions before the bad page are saved
    again.close()


def test_a_mark_on_a_log_that_checks_clean_is_cleared(tmp_path):
    """A mark can outlive its cause (the log was salvaged by hand, or restored from a
    copy): the whole check decides, and a clean log loses the mark."""
    path = tmp_path / "games.sqlite3"
    _night(path)
    integrity.mark(path, "row 3 missing from index")
    log = GameLog(path)
    assert not log.recovered and not log.unchecked and not integrity.marked(path)
    log.close()


def test_a_check_that_cannot_run_answers_nothing_and_marks_nothing(tmp_path):
    path = tmp_path / "gone.sqlite3"
    answers: list[str] = []
    integrity.check_in_background(path, answers.append).join()
    assert answers == [] and not integrity.marked(path)
