"""A Crazy Time slap round on when the box stopped: the restart says so on Home, and
again when that game is resumed, naming who had slapped; then it is forgotten."""

from __future__ import annotations

import pytest

from companion.events import PressEvent

pytestmark = pytest.mark.window

MS = 1_000_000
FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


def test_a_round_cut_by_a_crash_is_told_at_the_start_and_on_resume(ui):
    from companion.slap.round import KEPT_ROUND

    app = ui.app
    ui.goto_home()
    assert app.start_game("crazy_time", {"players": FOUR})
    ui.pump()
    game = app.session.game_id
    ui.tap(ui.find("Stop Time!"))
    slap = app.sm.current_screen
    t0 = app.table.now_ns() - 20_000 * MS
    slap.arm(t0)
    for seat, ms in ((2, 0), (4, 60)):
        slap.on_press_event(PressEvent(seat, t0 + ms * MS, "mock", True))
    slap.on_frame(t0 + 100 * MS)
    kept = app.log.get_setting(KEPT_ROUND)  # what a crash now would leave in the log
    assert kept["game"] == game and [s for s, _t in kept["slapped"]] == [2, 4]

    # the restart, as the app does it after a crash (its build); the round is not on
    slap.cancel()
    app.log.set_setting(KEPT_ROUND, kept)
    ui.goto_home()
    app._tell_interrupted_round()
    ui.pump()
    told = "The box stopped during a slap round (Bob, Dan had slapped)"
    assert app.banner_text.startswith(told), app.banner_text
    assert app.log.get_setting(KEPT_ROUND) == kept  # told again when the game is resumed
    ui.screenshot("slap_round_cut_home")
    assert app.resume_game(game)
    ui.pump()
    assert app.sm.current == "crazy_time" and app.banner_text.startswith(told)
    ui.screenshot("slap_round_cut_resumed")
    assert app.log.get_setting(KEPT_ROUND) is None  # then forgotten
    app.clear_banner()
    ui.goto_home()
