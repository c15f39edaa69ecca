"""The standalone Time Captain die in the real window: roll, cost, red +2, kept history."""

from __future__ import annotations

import pytest
from fakes import Faces

pytestmark = pytest.mark.window



def open_tool(ui):
    ui.goto_home()
    ui.app.navigate("captain_die")
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.name == "captain_die"
    screen.clear()
    return screen


def settle(ui, screen):
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump(2)


def test_captain_button_rolls_and_the_cost_follows_the_face(ui):
    screen = open_tool(ui)
    screen.rng = Faces(6)
    ui.press_seat("spacebar")
    assert screen.rolling and screen.face_text != "6"
    settle(ui, screen)
    assert not screen.rolling
    ui.find("Die 6: 3 TU")
    screen.rng = Faces(1)
    ui.tap(ui.find("Red-lettered: no"))
    ui.tap(ui.find("Roll"))
    settle(ui, screen)
    ui.find("Die 1: 1 TU + 2 red = 3 TU")
    assert ui.app.log.get_setting("captain_die.history") == [[1, True], [6, False]]
    assert screen.history_text.splitlines()[1] == "Die 6: 3 TU"
    path, colours = ui.screenshot("captain_die")
    assert colours > 8
    ui.tap(ui.find("Red-lettered: +2"))


def test_a_tap_on_the_die_rolls_and_a_roll_cannot_start_twice(ui):
    screen = open_tool(ui)
    screen.rng = Faces(3)
    ui.tap(screen.ids.die)
    assert screen.rolling
    ui.press_seat("spacebar")  # no second face is drawn while the die tumbles
    settle(ui, screen)
    assert ui.app.log.get_setting("captain_die.history") == [[3, False]]
    ui.find("Die 3: 2 TU")


def test_the_face_picker_keeps_each_answer_whole(ui):
    """"Which face?": the six faces and Cancel side by side, every word on one line
    ("Cancel", not "Cance" over "l"), at the box's size and the largest."""
    from companion.ui.app import Question

    for size in ((800, 480), (1280, 720)):
        with ui.sized(size):
            screen = open_tool(ui)
            ui.tap(ui.find("Enter a face"))
            picker = ui.app.question
            assert isinstance(picker, Question)
            ui.pump()
            keys = list(reversed(picker.ids.answers.children))
            assert [k.text for k in keys] == ["1", "2", "3", "4", "5", "6", "Cancel"]
            one_line = keys[0].texture_size[1]
            for key in keys:
                key.texture_update()
                assert key.texture_size[1] <= one_line + 1, f"{key.text!r} wraps"
                assert key.texture_size[0] <= key.width - 8
            ui.screenshot(f"captain_die_faces_{size[0]}x{size[1]}")
            ui.tap(ui.find("Cancel"))
            assert ui.app.question is None and screen.face_text != ""
