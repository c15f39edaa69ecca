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
