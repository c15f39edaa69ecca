"""History's 'Restore' in the real window: the newest games export on a USB stick is
offered, asked about, and its missing games listed afterwards; games here stay."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from companion.export import usb

pytestmark = pytest.mark.window


def test_restore_from_usb_adds_the_missing_games_and_lists_them(ui, tmp_path, monkeypatch):
    from export.test_restore import record
    from fakes import plug_usb_stick

    plug_usb_stick(tmp_path, monkeypatch)
    ui.goto_home()
    ui.app.navigate("history")
    ui.pump()
    ui.tap(ui.find("Restore"))
    assert "No games export on a USB stick" in ui.app.sm.current_screen.message
    other = record(tmp_path / "other.sqlite3", [("professor_tempus", 12, "finished")],
                   start=datetime(2025, 12, 24, 20, tzinfo=UTC))
    usb.copy_log(other, stamp="2025-12-24-2300")
    other.close()
    mine = [(g.id, g.kind, g.started_at) for g in ui.app.log.games()]
    ui.tap(ui.find("Restore"))
    ui.find("games-2025-12-24-2300.jsonl that this box does not have?")
    ui.screenshot("history-restore-question")
    ui.tap(_answer(ui, "Restore"))
    screen = ui.app.sm.current_screen
    assert screen.message.startswith("Restored from USB: games-2025-12-24-2300.jsonl: added "
                                     "1 game(s)")
    games = ui.app.log.games()
    assert [(g.id, g.kind, g.started_at) for g in games][:len(mine)] == mine
    assert games[-1].kind == "professor_tempus"
    ui.find("Professor Tempus")  # listed at once
    ui.screenshot("history-restored")
    ui.goto_home()


def _answer(ui, text):
    """The question's answer button showing exactly ``text``."""
    from kivy.uix.behaviors import ButtonBehavior

    question = ui.app.question
    return next(w for w in question.walk() if isinstance(w, ButtonBehavior)
                and getattr(w, "text", "") == text)


