"""The T.I.M.E Stories setup panel in the real window: mission, starting TU, characters."""

from __future__ import annotations

import pytest
from fakes import Faces

from companion.ui.presenters.time_stories_setup import NO_CHARACTERS

pytestmark = pytest.mark.window

PLAYERS = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]}


def start(ui, setup=PLAYERS):
    ui.goto_home()
    assert ui.app.start_game("time_stories", dict(setup)), ui.app.status
    ui.pump()
    assert ui.app.sm.current == "time_stories"
    return ui.app.sm.current_screen


def tap(ui, text):
    from kivy.uix.button import Button

    ui.tap(ui.find(text, kind=Button))


def test_new_game_opens_setup_and_records_mission_tu_and_characters(ui):
    from companion.ui.screens.time_stories_setup import SetupPanel

    screen = start(ui)
    old_game = ui.app.session.game_id
    assert isinstance(screen.panel, SetupPanel), "no characters yet: setup comes first"
    ui.find("Setup: mission and time")
    tap(ui, "The Marcy Case")
    assert screen.panel.mission_in.text == "The Marcy Case"
    for _ in range(2):
        tap(ui, "+5")
    tap(ui, "-1")
    ui.find("34")
    ui.screenshot("time_stories_setup_mission")
    tap(ui, "Next >")
    ui.find("Setup: Ann's character (1 of 2)")
    ui.find("Search")  # the mission's characteristics are already there
    tap(ui, "Next >")
    # Bea's page is the last one; Ann has no name yet: Start sends the host back there
    tap(ui, "Start run 1")
    assert ui.app.status == "Ann's character needs a name." and ui.app.status_error
    ui.find("Setup: Ann's character")
    screen.panel.name_in.text = "Kenny"  # what the on-screen keyboard types
    tap(ui, "+")  # life 3
    ui.screenshot("time_stories_setup_character")
    tap(ui, "Next >")
    screen.panel.name_in.text = "Tiffany"
    tap(ui, "Start run 1")
    snap = ui.app.session.snapshot()
    assert (snap["mission"], snap["starting_tu"], snap["tu"]) == ("The Marcy Case", 34, 34)
    assert [(c["name"], c["seat"], c["max_life"]) for c in snap["characters"]] == [
        ("Kenny", 1, 3), ("Tiffany", 2, 2)]
    assert snap["characters"][0]["characteristics"] == {
        "Search": 1, "Ranged Combat": 1, "Close Combat": 1}
    assert ui.app.session.actions == [{"type": "set_characters", "characters": [
        {"name": "Kenny", "player_seat": 1, "life": 3, "resistance": 2,
         "characteristics": {"Search": 1, "Ranged Combat": 1, "Close Combat": 1}},
        {"name": "Tiffany", "player_seat": 2, "life": 2, "resistance": 2,
         "characteristics": {"Search": 1, "Ranged Combat": 1, "Close Combat": 1}}]}]
    # the same game, its setup amended before anything happened: no abandoned game left
    assert ui.app.session.game_id == old_game
    assert ui.app.log.game(old_game).setup["mission"] == "The Marcy Case"
    assert ui.app.log.game(old_game).status == "open"
    assert screen.panel is None and screen.heading == "T.I.M.E Stories: The Marcy Case"
    ui.find("Roll die")
    # undo takes the cast back and the setup panel returns with the new mission and TU
    ui.tap(ui.find("Undo"))
    assert isinstance(screen.panel, SetupPanel)
    ui.find("Setup: mission and time")
    assert screen.panel.mission_in.text == "The Marcy Case"
    ui.find("34")


def test_captain_die_waits_for_characters_then_play_without(ui):
    from companion.ui.screens.time_stories_setup import SetupPanel

    screen = start(ui)
    screen.rng = Faces(2)
    ui.press_seat("spacebar")
    assert not screen.rolling and ui.app.session.snapshot()["tu"] == 25
    assert ui.app.status == NO_CHARACTERS and ui.app.status_error
    assert isinstance(screen.panel, SetupPanel)
    ui.screenshot("time_stories_setup_blocked")
    tap(ui, "Play without characters")
    assert screen.panel is None
    ui.press_seat("spacebar")
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump(2)
    assert ui.app.session.snapshot()["tu"] == 23
    # a dice test cannot start without characters: a sentence, nothing logged
    n = len(ui.app.session.actions)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find(" blank"))
    ui.tap(ui.find("Start: "))
    assert ui.app.status == "This run has no characters: add them first."
    assert len(ui.app.session.actions) == n


def test_asylum_preset_fills_the_sheet_and_keeps_the_game(ui):
    screen = start(ui)
    game = ui.app.session.game_id
    tap(ui, "Next >")
    tap(ui, "Marie")
    assert screen.panel.name_in.text == "Marie Bertholet"
    ui.find("Glibness")
    tap(ui, "Next >")
    tap(ui, "Madeleine")
    ui.screenshot("time_stories_setup_preset")
    tap(ui, "Start run 1")
    snap = ui.app.session.snapshot()
    assert ui.app.session.game_id == game, "same mission and TU: no restart"
    assert [c["name"] for c in snap["characters"]] == ["Marie Bertholet",
                                                       "Madeleine du Tilleul"]
    assert snap["characters"][1]["characteristics"] == {"Combat": 2, "Deftness": 2,
                                                        "Glibness": 1}
    ui.tap(ui.find("Characters"))
    ui.find("Change characters")
    ui.screenshot("time_stories_characters_before_play")
    tap(ui, "Change characters")
    ui.find("Setup: Ann's character (1 of 2)")
    assert screen.panel.name_in.text == "Marie Bertholet"
    tap(ui, "Cancel")
    assert screen.panel is None
    ui.tap(ui.find("Stay (1 TU)"))
    ui.tap(ui.find("Characters"))
    ui.find("New characters can come in at the start of the next run")
