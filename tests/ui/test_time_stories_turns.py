"""T.I.M.E Stories in the real window: another space offered as "Stay (1 TU) and start",
and the items of a MISSION FAILED card added between runs."""

from __future__ import annotations

import pytest
from fakes import Faces
from samples import ASYLUM

pytestmark = pytest.mark.window


def start(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM), ui.app.status
    ui.pump()
    return ui.app.sm.current_screen


def choose(ui, text):
    from kivy.uix.button import Button

    ui.tap(ui.find(text, kind=Button))


def test_another_space_this_turn_is_offered_as_stay_and_start(ui):
    screen = start(ui)
    ui.tap(ui.find("Dice test"))
    panel = screen.control
    choose(ui, "Glibness")
    choose(ui, "Marie")
    ui.tap(ui.find(" blank"))
    ui.tap(ui.find("Start: "))
    assert ui.app.session.snapshot()["tests"][0]["space"] == "B"
    screen.rng = Faces(4, 4, 4)
    ui.tap(ui.find("Roll 3 dice"))
    assert ui.app.session.snapshot()["tests"] == []  # cleared at space B
    ui.tap(ui.find("New test"))
    # Marie rolled at B this turn: space C is another turn, refused with the offer
    choose(ui, "C")
    assert panel.who == ["Marie"] and panel.characteristic == "Glibness"  # kept from B
    ui.tap(ui.find(" blank"))
    n = len(ui.app.session.actions)
    ui.tap(ui.find("Start: "))
    ui.find("Marie rolled at space B this turn: space C is another turn (1 TU).")
    assert len(ui.app.session.actions) == n and ui.app.session.snapshot()["tu"] == 25
    offer = ui.find("Stay (1 TU) and start")
    ui.screenshot("time_stories_stay_and_start")
    ui.tap(offer)
    snap = ui.app.session.snapshot()
    assert snap["tu"] == 24 and snap["tests"][0]["space"] == "C"
    assert ui.app.session.actions[-1]["new_turn"] is True
    assert snap["log"][-2]["kind"] == "stay"
    # undo takes back the start and the turn together: one action
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["tu"] == 25 and ui.app.session.snapshot()["tests"] == []


def test_a_changed_choice_withdraws_the_offer(ui):
    screen = start(ui)
    assert ui.app.act({"type": "test_start", "space": "B", "characteristic": "Combat",
                       "characters": ["Marie"], "shields": ["blank"], "locked": False})
    assert ui.app.act({"type": "test_roll", "space": "B", "faces": [4]})
    ui.tap(ui.find("Dice test"))
    ui.find("Removed: blank")  # the log ends on that roll: the panel shows it first
    ui.tap(ui.find("New test"))
    choose(ui, "D")
    choose(ui, "Combat")
    choose(ui, "Marie")
    ui.tap(ui.find(" blank"))
    ui.tap(ui.find("Start: "))
    assert screen.control.offer is not None
    choose(ui, "Marie")  # Marie out: Madeleine goes alone, no extra turn needed
    assert screen.control.offer is None
    choose(ui, "Madeleine")
    ui.tap(ui.find("Start: "))
    snap = ui.app.session.snapshot()
    assert snap["tu"] == 25 and [t["space"] for t in snap["tests"]] == ["D"]


def test_items_of_a_mission_failed_card_between_runs(ui):
    from kivy.uix.button import Button

    screen = start(ui)
    assert ui.app.act({"type": "adjust_tu", "delta": -25, "reason": "card effect"})
    ui.pump()
    ui.find("A MISSION FAILED card gives items?")
    ui.tap(ui.find("Items", kind=Button))
    ui.find("add what a MISSION FAILED card gives")
    ui.tap(ui.find("New item"))
    ui.tap(ui.find("item name"))
    for letter in "ITEM 7":
        screen.entry.keyboard.shift = True  # (Shift before each capital)
        screen.entry.keyboard.press("Space" if letter == " " else letter.lower())
    ui.tap(ui.find("Done"))
    ui.find("ITEM 7")
    with pytest.raises(LookupError):  # nobody holds a receptacle between runs
        ui.find("Marie", kind=Button)
    ui.screenshot("time_stories_items_between_runs")
    ui.tap(ui.find("Add item"))
    assert ui.app.session.actions[-1] == {"type": "gain_item", "item": "ITEM 7",
                                          "holder": None, "agency": False}
    ui.tap(ui.find("Next run"))
    ui.tap(ui.find("Start run 2"))
    snap = ui.app.session.snapshot()
    assert snap["run"] == 2 and snap["running"]
    assert snap["items"] == [{"name": "ITEM 7", "holder": None, "agency": False}]
