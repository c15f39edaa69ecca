"""The features a table expected (issue 11): what Undo takes back, choosing who deals,
entering the physical die, a score sheet, Settings, a timer that says it runs on."""

from __future__ import annotations

import pytest
from samples import ASYLUM

pytestmark = pytest.mark.window

FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


def test_undo_says_what_it_takes_back(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    ui.pump()
    assert ui.app.undo_text == "Undo"
    ui.tap(ui.find("Stay (1 TU)"))
    undo = ui.find("Undo: stay")
    assert undo.texture_size[0] <= undo.width
    ui.tap(undo)
    assert ui.app.session.snapshot()["tu"] == 25 and ui.app.undo_text == "Undo"


def test_choose_who_deals_first(ui):
    ui.goto_home()
    for g in ui.app.log.open_games():
        ui.app.log.finish(g.id)  # through the log: its row's checksum with it
    ui.app.choose_game("crazy_time")
    ui.pump()
    screen = ui.app.sm.current_screen
    for seat, row in screen.rows.items():
        row.toggle.state = "down" if seat <= 4 else "normal"
    for p in FOUR:
        screen.rows[p["seat"]].name_input.text = p["name"]
    ui.pump()
    first = ui.find("Deals first: Ann")
    ui.tap(first)
    assert first.text == "Deals first: Bob"
    ui.tap(ui.find("Start"))
    assert ui.app.sm.current == "crazy_time", ui.app.status
    assert ui.app.session.setup["first_dealer"] == 2
    assert ui.app.session.snapshot()["dealer"] == 2


def test_the_physical_captain_die_can_be_entered(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    ui.pump()
    screen = ui.app.sm.current_screen
    screen.enter_face()
    ui.pump()
    ui.find("Which face does the Time Captain die show?")
    ui.tap(ui.find("4"))
    assert ui.app.session.actions[-1] == {"type": "travel", "die": 4, "red": False}
    assert ui.app.session.snapshot()["tu"] == 23


def test_history_shows_a_score_sheet_per_game(ui):
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": FOUR[:2]})
    game = ui.app.session.game_id
    assert ui.app.act({"type": "score", "seat": 2, "points": 5})
    assert ui.app.act({"type": "score", "seat": 1, "points": 3})
    ui.app.home()
    ui.app.navigate("history")
    ui.pump()
    ui.tap(ui.find(f"#{game} Score pad"))
    ui.find("Totals: Bob 5, Ann 3")
    ui.find("1. ")
    ui.find("score: Bob, +5")
    ui.screenshot("history_score_sheet")
    ui.tap(ui.find("Close"))
    assert ui.app.sm.current == "history"


def test_settings_volume_brightness_and_a_safe_switch_off(ui):
    ui.goto_home()
    ui.app.navigate("settings")
    ui.pump()
    if ui.app.muted:
        ui.app.toggle_mute()
        ui.pump()
    screen = ui.app.sm.current_screen
    before = screen.volume
    minus = next(w for w in screen.walk() if getattr(w, "text", "") == "Softer")
    ui.tap(minus, after_s=0.1)
    ui.tap(minus, after_s=0.1)  # a counter: both fast taps count
    assert screen.volume == max(0, before - 20)
    assert ui.app.log.get_setting("volume") == screen.volume
    assert ui.app.cues.volume == pytest.approx(screen.volume / 100)
    ui.tap(ui.find("No adjustable backlight"))  # no /sys/class/backlight here
    assert "no adjustable backlight" in ui.app.banner_text  # said plainly, whole
    ui.screenshot("settings")
    ui.tap(ui.find("Switch off"))
    ui.find("Switch the box off?")
    from companion.ui.app import Question

    question = ui.app.question
    assert isinstance(question, Question)
    ui.tap(next(w for w in question.walk() if getattr(w, "text", "") == "Switch off"))
    assert "Simulation: the box would now run 'systemctl poweroff'" in ui.app.banner_text


def test_the_timer_names_players_and_says_it_runs_on_after_back(ui):
    from companion.ui.presenters.timer import TimerBoard

    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": FOUR})
    assert ui.app.act({"type": "score", "seat": 1, "points": 1})
    ui.app.navigate("timer")
    ui.pump()
    timer = ui.app.sm.current_screen
    timer.board = TimerBoard.fresh((1, 2, 3, 4))
    timer.refresh()
    ui.pump()
    ui.find("Cara")
    ui.tap(ui.find("Start"))
    ui.tap(ui.find("< Back"))
    ui.pump()
    assert ui.app.sm.current != "timer"
    assert ui.app.clock_note.startswith("Timer running:")
    ui.app.navigate("timer")
    ui.pump()
    ui.tap(ui.find("Reset"))
    assert ui.app.clock_note == ""


def test_points_are_typed_on_a_number_pad(ui):
    from companion.ui.widgets import NumberPad

    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": FOUR[:2]})
    ui.pump()
    ui.tap(ui.find("+ N"))
    pad = next(w for w in ui.app.layer.children if isinstance(w, NumberPad))
    ui.find("Points for Ann")
    for key in ("3", "7"):
        ui.tap(next(w for w in pad.ids.pad_keys.children if w.text == key), after_s=0.1)
    ui.screenshot("number_pad")
    ui.tap(next(w for w in pad.ids.pad_keys.children if w.text == "OK"))
    assert pad.parent is None
    assert ui.app.session.snapshot()["totals"]["1"] == 37


def test_a_count_out_of_range_is_refused_in_words(ui):
    from companion.ui.widgets import NumberPad

    got = []
    pad = NumberPad("Hourglasses for Louisa (0 to 6)", got.append, 0, 6, value=2)
    pad.press("9")
    pad.ok()
    assert got == [] and pad.note == "9 is not possible here: 0 to 6."
    pad.press("Erase")
    pad.press("4")
    pad.ok()
    assert got == [4]
