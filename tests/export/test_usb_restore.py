"""The History to a USB stick and back: 'Sheets to USB' also writes the games (JSON Lines)
and the BG Stats plays; 'Restore' adds the newest export's missing games to a box."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import jsonschema
from export.test_restore import everything, record
from fakes import usb_stick

from companion.export import usb
from companion.export.bgstats import SCHEMA
from companion.store.gamelog import GameLog


def test_the_history_goes_to_the_stick_and_comes_back_on_a_new_box(tmp_path):
    stick, mounts, roots = usb_stick(tmp_path)
    old = record(tmp_path / "old.sqlite3", [("scorepad", 6, "finished"),
                                            ("stop_time", 4, "finished"),
                                            ("times", 5, "open")])
    text = usb.copy_log(old, mounts, roots, stamp="2026-03-07-2300")
    assert text == ("Wrote 3 games and 1 BG Stats plays to KINGSTON, folder "
                    "table-companion.")
    folder = stick / "table-companion"
    plays = json.loads((folder / "plays-2026-03-07-2300.bgsplay").read_text("utf-8"))
    jsonschema.validate(plays, SCHEMA)
    assert [g["sourceGameId"] for g in plays["games"]] == ["scorepad"]  # no slap pad
    usb.copy_log(old, mounts, roots, stamp="2026-03-08-0900")
    newest = usb.newest_export(mounts, roots)
    assert newest == folder / "games-2026-03-08-0900.jsonl"
    new = GameLog(tmp_path / "new.sqlite3")
    said = usb.restore_from_stick(new, newest)
    assert said == "Restored from USB: games-2026-03-08-0900.jsonl: added 3 game(s) (#1-#3)."
    assert [(g.id, g.kind, g.status) for g in new.games()] == [
        (g.id, g.kind, g.status) for g in old.games()]
    assert "nothing new" in usb.restore_from_stick(new, newest)


def test_a_stick_pulled_out_or_a_damaged_export_restores_nothing(tmp_path):
    stick, mounts, roots = usb_stick(tmp_path)
    old = record(tmp_path / "old.sqlite3", [("scorepad", 6, "finished")])
    usb.copy_log(old, mounts, roots, stamp="2026-03-07-2300")
    box = record(tmp_path / "box.sqlite3", [("times", 3, "finished")],
                 start=datetime(2026, 5, 1, tzinfo=UTC))
    before = everything(box)
    path = usb.newest_export(mounts, roots)
    path.write_text(path.read_text("utf-8")[:-40], encoding="utf-8")  # cut off
    said = usb.restore_from_stick(box, path)
    assert said.startswith("Nothing was restored: ") and "games-2026-03-07-2300.jsonl:" in said
    assert said.endswith("The games on the box are as they were.")
    path.unlink()  # the stick went away
    said = usb.restore_from_stick(box, path)
    assert "cannot read" in said and said.startswith("Nothing was restored")
    assert everything(box) == before
    assert usb.newest_export(tmp_path / "no-mounts", roots) is None


def _box_with_export(tmp_path, mounts, roots):
    """A box's log with three finished games, exported to the stick, then closed."""
    path = tmp_path / "box" / "games.sqlite3"
    path.parent.mkdir()
    box = record(path, [("scorepad", 6, "finished"), ("times", 5, "finished"),
                        ("scorepad", 3, "finished")])
    usb.copy_log(box, mounts, roots, stamp="2026-03-07-2300")
    was = [(g.id, g.kind, g.started_at, g.status) for g in box.games()]
    box.close()
    return path, was


def test_a_game_whose_row_changed_comes_back_from_the_last_export(tmp_path):
    """One byte of a finished game's status changed on the card: at the next start the
    log is set aside and the game named; the last export on the stick brings it back
    (the one import path), under its own number, and the other games stay as they are."""
    import sqlite3

    stick, mounts, roots = usb_stick(tmp_path)
    path, was = _box_with_export(tmp_path, mounts, roots)
    db = sqlite3.connect(path)
    db.execute("PRAGMA ignore_check_constraints = ON")
    db.execute("UPDATE games SET status = 'fInished' WHERE id = 2")
    db.commit()
    db.close()
    box = GameLog(path)
    try:
        assert box.recovered and "game 2 was changed" in box.recovered
        assert [g.id for g in box.games()] == [1, 3]
        said = usb.restore_from_stick(box, usb.newest_export(mounts, roots))
        assert said == ("Restored from USB: games-2026-03-07-2300.jsonl: added 1 game(s) (#2);"
                        " 2 were already here.")
        assert [(g.id, g.kind, g.started_at, g.status) for g in box.games()] == was
        assert all(g.damaged is None for g in box.games())
    finally:
        box.close()


def test_a_log_cut_to_nothing_comes_back_from_the_last_export(tmp_path):
    stick, mounts, roots = usb_stick(tmp_path)
    path, was = _box_with_export(tmp_path, mounts, roots)
    path.write_bytes(b"")
    box = GameLog(path)
    try:
        assert box.recovered and "was found empty" in box.recovered
        assert box.games() == []
        said = usb.restore_from_stick(box, usb.newest_export(mounts, roots))
        assert said == "Restored from USB: games-2026-03-07-2300.jsonl: added 3 game(s) (#1-#3)."
        assert [(g.id, g.kind, g.started_at, g.status) for g in box.games()] == was
    finally:
        box.close()
