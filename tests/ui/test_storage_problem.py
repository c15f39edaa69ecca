"""A failing SD card is told full-screen with what to do, during play and at start-up,
and the game is left exactly as it was before the refused action."""

from __future__ import annotations

import pytest

from companion.errors import StorageError
from companion.ui import storage_problem as sp

pytestmark = pytest.mark.window

FULL = StorageError("Could not write to the game log /x/games.sqlite3: the storage is full "
                    "(database or disk is full).", "full", "Free some space on the SD card.")


def _modal_view(ui):
    from kivy.core.window import Window

    views = [w for child in Window.children for w in child.walk()
             if isinstance(w, sp.StorageProblemView)]
    return views[0] if views else None


def test_a_refused_action_covers_the_screen_and_ok_goes_back_to_the_game(ui):
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                                      {"name": "Bo", "seat": 2}]})
    ui.pump()
    ui.app.act({"type": "score", "seat": 1, "points": 3})
    ui.app.log.db.execute("PRAGMA query_only = ON")  # the card went read-only
    try:
        assert not ui.app.act({"type": "score", "seat": 1, "points": 5})
        ui.pump()
        view = _modal_view(ui)
        assert view is not None, "the storage problem must cover the screen"
        assert view.headline == "The SD card is read-only"
        assert "not recorded" in view.happened and "check the SD card" in view.advice
        path, colours = ui.screenshot("storage_problem_during_play")
        assert colours > 4
        ok = next(w for w in view.walk() if getattr(w, "text", "") == "OK")
        assert ok.height >= 64 and ok.width >= 64
        ui.tap(ok)
        assert _modal_view(ui) is None
    finally:
        ui.app.log.db.execute("PRAGMA query_only = OFF")
    assert ui.app.session.snapshot()["totals"]["1"] == 3
    assert [a["points"] for a in ui.app.log.actions(ui.app.session.game_id)] == [3]
    ui.app.end_game("abandoned", ask=False)


def test_an_ordinary_refusal_stays_in_the_status_bar(ui):
    from companion.errors import RuleError

    assert sp.tell(RuleError("scorepad.no_such_seat", "Nobody plays at seat 9 in this game.")) \
        is False
    assert _modal_view(ui) is None


@pytest.mark.parametrize(("kind", "words"), [("full", "full"), ("readonly", "read-only"),
                                             ("io", "errors")])
def test_each_kind_has_its_headline(kind, words):
    assert words in sp.headline(StorageError("x", kind, "y"))


def test_at_start_up_it_retries_on_its_own_and_restarts_once_the_log_opens(ui):
    from kivy.clock import Clock

    now = [0.0]
    attempts, restarts = [], []
    outcomes = [FULL, FULL, None]

    def retry():
        attempts.append(now[0])
        outcome = outcomes.pop(0)
        if outcome is not None:
            raise outcome

    from kivy.app import App

    try:
        app = sp.StorageProblemApp(FULL, retry=retry, clock=lambda: now[0],
                                   restart=lambda: restarts.append(now[0]))
        view = app.build()
    finally:
        App._running_app = ui.app  # Kivy makes every new App "the running one"
    Clock.unschedule(app._frame)  # driven by hand here, with the injected clock
    assert view.headline == "The SD card is full" and "cannot be opened" in view.happened
    assert view.button == "Try again"
    app._frame(0)
    assert attempts == []  # not before RETRY_S
    now[0] = sp.RETRY_S
    app._frame(0)
    assert attempts == [sp.RETRY_S] and not restarts
    assert app.try_again() is False  # the button: at once
    now[0] += sp.RETRY_S
    app._frame(0)
    assert restarts == [now[0]] and app.recovered


def _button(view, text):
    return next(w for w in view.walk() if getattr(w, "text", "") == text
                and hasattr(w, "on_release"))


def test_a_log_set_aside_offers_the_last_usb_export_and_restores_from_it(ui, tmp_path,
                                                                          monkeypatch):
    """At start, a log set aside (here: found empty though the box had games) covers the
    screen with what happened and "Restore from USB": without an export it says how to
    get one; with one, the games the box lacks come back through the one import path."""
    from datetime import UTC, datetime

    from export.test_restore import record
    from fakes import plug_usb_stick

    from companion.export import usb

    plug_usb_stick(tmp_path, monkeypatch)
    ui.goto_home()
    sentence = ("The game log was damaged: games.sqlite3 was found empty, though this box "
                "had recorded games in it since 2026-11-30 19:02 UTC (a card fault?). It "
                "is kept as games.sqlite3.unreadable-20261203T180000Z; a fresh log was "
                "started.")
    sheet = sp.offer_restore(ui.app, sentence)
    ui.pump()
    assert _modal_view(ui) is sheet, "it covers the screen"
    assert sheet.headline == "Games are missing from the game log"
    assert sheet.happened == sentence and "No games export on a USB stick" in sheet.details
    restore = _button(sheet, "Restore from USB")
    assert restore.height >= 64 and restore.width >= 64 and restore.opacity == 1
    ui.screenshot("log_set_aside_offers_restore")
    mine = [(g.id, g.kind, g.started_at) for g in ui.app.log.games()]
    ui.tap(restore)  # no export on the stick yet: it says how, nothing changes
    assert _modal_view(ui) is sheet and "No games export on a USB stick" in sheet.details
    assert [(g.id, g.kind, g.started_at) for g in ui.app.log.games()] == mine
    other = record(tmp_path / "other.sqlite3", [("professor_tempus", 12, "finished")],
                   start=datetime(2025, 11, 11, 20, tzinfo=UTC))
    usb.copy_log(other, stamp="2025-11-11-2300")
    other.close()
    ui.tap(restore)
    assert sheet.happened.startswith("Restored from USB: games-2025-11-11-2300.jsonl: added "
                                     "1 game(s)")
    games = ui.app.log.games()
    assert [(g.id, g.kind, g.started_at) for g in games][:len(mine)] == mine
    assert games[-1].kind == "professor_tempus"
    assert sheet.other == "" and sheet.button == "OK"
    ui.screenshot("log_set_aside_restored")
    ui.tap(_button(sheet, "OK"))
    assert _modal_view(ui) is None
    ui.app.log.delete_game(games[-1].id)  # the session's one log: as the test found it


def test_not_now_leaves_the_fresh_log_as_it_is(ui):
    ui.goto_home()
    sheet = sp.offer_restore(ui.app, "The game log was damaged (SQLite integrity check "
                                     "failed: x). 1 of 2 games were saved whole.",
                             newest=lambda: None)
    ui.pump()
    assert sheet.headline == "The game log was damaged"
    before = len(ui.app.log.games())
    ui.tap(_button(sheet, "Not now"))
    assert _modal_view(ui) is None and len(ui.app.log.games()) == before


@pytest.mark.parametrize(("sentence", "words"), [
    ("The game log was damaged: games.sqlite3 is missing, though this box had recorded "
     "games in it.", "missing"),
    ("games.sqlite3 is not a companion game log (it is a folder, not a file); it is kept "
     "as x.", "set aside"),
    ("The game log was damaged (the row of game 3 was changed after it was recorded).",
     "damaged")])
def test_each_set_aside_has_its_headline(sentence, words):
    assert words in sp.recovered_headline(sentence)
