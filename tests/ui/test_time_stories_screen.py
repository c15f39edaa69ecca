"""The T.I.M.E Stories screen in the real window: captain die, stay, a dice test, runs.
(What each tap means is tested without a window in tests/control/test_time_stories.py.)"""

from __future__ import annotations

import pytest
from fakes import Faces
from samples import ASYLUM

pytestmark = pytest.mark.window

SETUP = ASYLUM



def start(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", SETUP), ui.app.status
    ui.pump()
    assert ui.app.sm.current == "time_stories"
    return ui.app.sm.current_screen


def settle(ui, screen):
    """Frames with a clock well past the animation: the die settles and is logged."""
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump(2)


def test_captain_button_rolls_travel_then_stay_and_undo(ui, monkeypatch):
    screen = start(ui)
    monkeypatch.setattr(ui.app.table, "clock", lambda: 0)  # the die tumbles until settled
    ui.find("25")
    screen.rng = Faces(2)
    ui.press_seat("spacebar")
    assert screen.v.rolling, "the die tumbles first"
    assert ui.app.session.snapshot()["tu"] == 25, "nothing is logged before it settles"
    assert screen.die_text != "2", "while tumbling it never shows the rolled face"
    settle(ui, screen)
    snap = ui.app.session.snapshot()
    assert snap["tu"] == 23 and not screen.v.rolling
    assert snap["log"][-1]["kind"] == "travel" and "captain die 2" in snap["log"][-1]["text"]
    assert ui.app.session.actions[-1] == {"type": "travel", "die": 2, "red": False}
    ui.find("23")
    ui.tap(ui.find("Stay (1 TU)"))
    assert ui.app.session.snapshot()["tu"] == 22
    assert screen.v.tu == "22" and "23 -> 22 TU" in screen.v.log[0]
    ui.find("23 -> 22 TU")
    path, colours = ui.screenshot("time_stories_mission")
    assert colours > 8
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["tu"] == 23


def test_red_lettered_toggle_adds_two(ui):
    screen = start(ui)
    ui.tap(ui.find("Red-lettered: no"))
    assert screen.v.red
    screen.rng = Faces(6)
    ui.tap(ui.find("Roll die"))
    settle(ui, screen)
    assert ui.app.session.snapshot()["tu"] == 20  # 3 + 2
    ui.find("Red-lettered: no")  # the toggle is for one departure
    assert ui.app.session.actions[-1] == {"type": "travel", "die": 6, "red": True}


def test_cook_example_dice_test_with_odds_and_a_turned_die(ui):
    screen = start(ui)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find("Glibness"))
    ui.tap(ui.find("Marie"))
    ui.tap(ui.find("Madeleine"))
    for kind in ("blank", "blank", "skull", "blank"):
        ui.tap(ui.find(f" {kind}"))
    ui.screenshot("time_stories_test_setup")
    ui.tap(ui.find("Start: "))
    assert ui.app.session.snapshot()["tests"], ui.app.status
    test = ui.app.session.snapshot()["tests"][0]
    assert (test["space"], test["dice"], test["left"]) == ("B", 4,
                                                           ["blank", "blank", "skull", "blank"])
    ui.find("4 dice: clear 28.0 %")
    ui.find("Marie hurt")
    ui.tap(ui.find("+"))
    ui.find("Turn to hit: 1")
    ui.screenshot("time_stories_test_odds")
    screen.rng = Faces(1, 3, 4, 2)
    ui.tap(ui.find("Roll 4 dice"))
    snap = ui.app.session.snapshot()
    assert snap["last_roll"]["outcome"]["turned"] == [0]
    assert snap["tests"][0]["left"] == ["skull", "blank"]
    ui.find("Removed: blank, blank")
    ui.find("Riposte: 2 skulls")
    ui.screenshot("time_stories_test_roll")
    ui.tap(ui.find("Continue (1 TU)"))
    assert ui.app.session.snapshot()["tu"] == 24
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["tu"] == 25


def test_the_tables_own_dice_are_entered_by_their_symbols(ui):
    """The table rolls its own action dice: each die is tapped until it shows what the
    real die shows, and the roll is recorded as the engine reads those symbols."""
    from kivy.uix.button import Button

    start(ui)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find("Glibness"))
    ui.tap(ui.find("Marie"))
    ui.tap(ui.find("Madeleine"))
    for kind in ("blank", "blank", "skull", "blank"):
        ui.tap(ui.find(f" {kind}"))
    ui.tap(ui.find("Start: "))
    def dice():  # rebuilt after each tap
        return [w for w in ui.app.root.walk()
                if isinstance(w, Button) and w.text.endswith("[/size]")]

    ui.tap(ui.find("Our dice"))
    assert len(dice()) == 4 and all("skull" in d.text for d in dice())
    for i, taps in enumerate((0, 1, 2, 3)):  # skull, blank, 1 hit, 2 hits
        for _ in range(taps):
            ui.tap(dice()[i])
    ui.screenshot("time_stories_our_dice")
    assert ui.app.session.actions[-1]["type"] == "test_start", "nothing rolled before Record"
    ui.tap(ui.find("Record roll"))
    assert ui.app.session.actions[-1] == {"type": "test_roll", "space": "B",
                                          "faces": [1, 3, 4, 6]}
    snap = ui.app.session.snapshot()
    assert snap["last_roll"]["outcome"]["symbols"] == ["skull", "blank", "hit", "double"]
    assert snap["tests"][0]["left"] == ["blank"]  # three hits: three shields gone
    ui.tap(ui.find("Undo"))
    ui.tap(ui.find("Undo"))


def test_run_ends_at_zero_and_run_two_starts_with_thirty(ui):
    screen = start(ui)
    ui.app.act({"type": "gain_item", "item": "Agency badge", "holder": None, "agency": True})
    ui.tap(ui.find("Correct TU"))
    for _ in range(5):
        ui.tap(ui.find("-5"))
    ui.find("->  0")
    ui.tap(ui.find("Apply"))
    ui.pump()
    assert ui.app.session.snapshot()["outcome"] == "failed_time"
    ui.find("Mission failed: time ran out")
    ui.find("Agency badge")
    ui.tap(ui.find("30"))
    ui.screenshot("time_stories_run_over")
    ui.tap(ui.find("Start run 2 (30 TU)"))
    snap = ui.app.session.snapshot()
    assert (snap["run"], snap["tu"], snap["running"]) == (2, 30, True)
    ui.find("Run 2")
    assert screen.v.tu == "30"
    ui.tap(ui.find("Characters"))
    ui.find("Madeleine")
    ui.screenshot("time_stories_characters")
    ui.tap(ui.find("Mission"))
    ui.find("Roll die")


def test_mission_won_shows_the_end_of_run_panel_at_once(ui):
    screen = start(ui)
    ui.tap(ui.find("Correct TU"))
    ui.tap(ui.find("Mission won"))
    snap = ui.app.session.snapshot()
    assert snap["mission_complete"] and snap["outcome"] == "successful"
    assert screen.control.panel == "next"
    ui.find("Mission successful!")
    ui.find("End game")
    ui.screenshot("time_stories_mission_won")
    # undo brings the run back, and the mission view with it
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["running"] and screen.control.panel == "mission"
    ui.find("Roll die")


def test_dice_test_refusals_are_plain_sentences_and_nothing_is_logged(ui):
    start(ui)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find(" blank"))
    ui.tap(ui.find("Start: "))
    # said in the screen's own message line, above the buttons: it covers nothing
    message = ui.find("Choose who takes part in the test at space B.")
    start_button = ui.find("Start: ")
    assert message.y >= start_button.top and ui.app.banner.text == ""
    ui.tap(ui.find("Clear"))
    ui.tap(ui.find("Marie"))
    ui.tap(ui.find("Start: "))
    ui.find("Add the card's shields, left to right.")
    ui.screenshot("time_stories_test_refused")
    assert ui.app.session.actions == []
    # a correction of 0 is refused in words as well
    ui.tap(ui.find("Mission"))
    ui.tap(ui.find("Correct TU"))
    ui.tap(ui.find("+1"))
    ui.tap(ui.find("Apply"))
    ui.find("A correction of 0 changes nothing.")
    assert ui.app.session.actions == []
