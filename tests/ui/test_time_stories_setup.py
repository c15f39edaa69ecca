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


def type_in(ui, screen, field, text):
    """Tap the field, type ``text`` on the screen's own keyboard, then Done."""
    tap(ui, field)
    assert screen.v.panel == "typing"
    keyboard = screen.entry.keyboard
    for letter in text:
        keyboard.shift = letter.isupper()
        keyboard.press(" " if letter == " " else letter.lower() if letter.isalpha() else letter)
    ui.pump(1)
    tap(ui, "Done")


def test_new_game_opens_setup_and_records_mission_tu_and_characters(ui):
    screen = start(ui)
    old_game = ui.app.session.game_id
    ui.find("Setup: mission and time")  # no characters yet: setup comes first
    tap(ui, "The Marcy Case")
    assert screen.control.setup.draft.mission == "The Marcy Case"
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
    message = ui.find("Ann's character needs a name.")
    ui.find("Setup: Ann's character")
    field = ui.find("the character's name")
    assert message.top <= field.y, "the message is under the field, covering nothing"
    assert not ui.app.banner.text
    ui.screenshot("time_stories_setup_refused")
    type_in(ui, screen, "the character's name", "Kenny")
    ui.find("Kenny")
    tap(ui, "+")  # life 3
    ui.screenshot("time_stories_setup_character")
    tap(ui, "Next >")
    type_in(ui, screen, "the character's name", "Tiffany")
    tap(ui, "Start run 1")
    snap = ui.app.session.snapshot()
    assert (snap["mission"], snap["starting_tu"], snap["tu"]) == ("The Marcy Case", 34, 34)
    assert [(c["name"], c["seat"], c["max_life"]) for c in snap["characters"]] == [
        ("Kenny", 1, 3), ("Tiffany", 2, 2)]
    assert snap["characters"][0]["characteristics"] == {
        "Search": 1, "Ranged Combat": 1, "Close Combat": 1}
    # the same game, its setup amended before anything happened: no abandoned game left
    assert ui.app.session.game_id == old_game
    assert ui.app.log.game(old_game).setup["mission"] == "The Marcy Case"
    assert ui.app.log.game(old_game).status == "open"
    assert screen.v.heading == "T.I.M.E Stories: The Marcy Case"
    ui.find("34")  # the TU count, not covered by any banner
    ui.find("Roll die")
    # undo takes the cast back and the setup panel returns with the new mission and TU
    ui.tap(ui.find("Undo"))
    ui.find("Setup: mission and time")
    ui.find("The Marcy Case")
    ui.find("34")


def test_the_keyboard_types_the_mission_and_a_preset_is_a_suggestion(ui):
    screen = start(ui)
    tap(ui, "Asylum")
    tap(ui, "Asylum")  # the field
    ui.screenshot("time_stories_setup_typing")
    assert screen.v.panel == "typing" and screen.ids.field.text == "Asylum"
    for _ in range(6):
        screen.entry.keyboard.press("Erase")
    for letter in "Lost":
        screen.entry.keyboard.press(letter.lower())
    ui.pump(1)
    assert screen.control.setup.draft.mission == "Lost"
    tap(ui, "Prophecy of Dragons")  # a suggestion under the keys
    tap(ui, "Done")
    ui.find("Setup: mission and time")
    assert screen.control.setup.draft.mission == "Prophecy of Dragons"


def test_captain_die_waits_for_characters_then_play_without(ui):
    screen = start(ui)
    screen.rng = Faces(2)
    ui.press_seat("spacebar")
    assert not screen.v.rolling and ui.app.session.snapshot()["tu"] == 25
    ui.find(NO_CHARACTERS)
    ui.find("Setup: mission and time")
    ui.screenshot("time_stories_setup_blocked")
    tap(ui, "Play without characters")
    assert screen.v.panel == "mission"
    ui.press_seat("spacebar")
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump(2)
    assert ui.app.session.snapshot()["tu"] == 23
    # a dice test cannot start without characters: a sentence, nothing logged
    n = len(ui.app.session.actions)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find(" blank"))
    ui.tap(ui.find("Start: "))
    ui.find("This run has no characters: add them first.")
    assert len(ui.app.session.actions) == n


def test_asylum_preset_fills_the_sheet_and_keeps_the_game(ui):
    screen = start(ui)
    game = ui.app.session.game_id
    tap(ui, "Next >")
    tap(ui, "Marie")
    ui.find("Marie Bertholet")
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
    ui.find("Marie Bertholet")
    tap(ui, "Cancel")
    assert screen.v.panel == "mission"
    ui.tap(ui.find("Stay (1 TU)"))
    ui.tap(ui.find("Characters"))
    ui.find("New characters can come in at the start of the next run")


def test_a_double_tap_on_next_turns_one_page_and_fast_steps_all_count(ui):
    screen = start(ui)
    assert screen.control.setup.page == 0
    ui.double_tap(ui.find("Next >"))
    assert screen.control.setup.page == 1, "the second touch of one tap turns no page"
    plus = ui.find("+", kind=__import__("kivy.uix.button").uix.button.Button)
    ui.double_tap(plus)  # a stepper: every tap counts
    assert screen.control.setup.sheet().life == 4
