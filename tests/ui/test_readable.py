"""Readings across the table (issue 11, trap 9): big where it matters, never spilt."""

from __future__ import annotations

import pytest
from fakes import Faces
from samples import ASYLUM

pytestmark = pytest.mark.window


def test_captain_die_shows_the_time_units_big_and_the_face_smaller(ui):
    ui.goto_home()
    ui.app.navigate("captain_die")
    ui.pump()
    screen = ui.app.sm.current_screen
    screen.control.rng = Faces(6)
    screen.tap(("red",))
    screen.tap(("roll",))
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump()
    tu = ui.find("5 TU")
    assert tu.text == "5 TU" and tu.font_size > screen.ids.die.font_size
    ui.find("Die 6: 3 TU + 2 red = 5 TU")
    ui.screenshot("captain_die_tu_big")


def test_the_time_log_keeps_its_box_under_the_chart_newest_line_first(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM)
    for _ in range(9):
        assert ui.app.act({"type": "stay"})
    ui.pump(3)
    screen = ui.app.sm.current_screen
    log = screen.ids.log
    rows = [w for w in log.children[0].children if w.text]
    newest = max(rows, key=lambda w: w.top)
    assert "17 -> 16 TU" in newest.text, newest.text  # the latest spend is at the top
    chart = next(w for w in screen.walk() if type(w).__name__ == "BurndownChart")
    assert log.top <= chart.y + 1, "the log never runs over the burn-down chart"
    ui.screenshot("time_stories_log")


def test_dice_test_choices_have_headings_and_names_stay_in_their_buttons(ui):
    from kivy.uix.button import Button

    ui.goto_home()
    setup = dict(ASYLUM)
    assert ui.app.start_game("time_stories", setup)
    screen = ui.app.sm.current_screen
    screen.open("test")
    ui.pump(3)
    for heading in ("Space", "Tested", "Who rolls", "Shields, in order"):
        ui.find(heading)
    for t in (w for w in screen.walk() if isinstance(w, Button) and w.text):
        assert t.texture_size[0] <= t.width, t.text  # cut to fit, never over the edge
    ui.screenshot("time_stories_dice_test_setup")


def test_times_instruction_is_whole(ui):
    from kivy.uix.label import Label

    players = [{"name": n, "seat": i + 1} for i, n in
               enumerate(["Einstein", "Curie", "Gauss", "Noether"])]
    ui.goto_home()
    assert ui.app.start_game("times", {"players": players, "target": 15})
    ui.pump(3)
    line = ui.find("Which card did", kind=Label)
    assert not line.shorten and line.texture_size[1] <= line.height
    assert line.text.endswith("play?")


def test_time_after_time_has_a_title_and_chooses_nobody_after_a_card_is_laid(ui):
    ui.goto_home()
    assert ui.app.start_game("time_after_time", {"players": [{"name": "Chloé", "seat": 1},
                                                             {"name": "Lucas", "seat": 2}]})
    ui.pump()
    screen = ui.app.sm.current_screen
    ui.find("Time After Time")
    ui.tap(ui.find("Chloé"))
    screen.choose_hour(12)
    assert screen.tap_slot(1, 3)
    assert screen.pick.seat is None, "the next card must not land in Chloé's row by itself"
    ui.screenshot("time_after_time_title")


def test_professor_tempus_says_points_cards_and_refills_in_words(ui):
    ui.goto_home()
    setup = {"players": [{"name": n, "seat": i + 1} for i, n in
                         enumerate(["Arthur", "Mickael", "Louisa"])], "first_seat": 1}
    assert ui.app.start_game("professor_tempus", setup)
    ui.pump()
    ui.find("6 cards · 0 points")
    info = ui.app.sm.current_screen.info
    assert "refills left" in info and "pts" not in info
    ui.screenshot("professor_tempus_words")
