"""The standalone Time Captain die in the real window: roll, cost, red +2, kept history.
(What each tap means is tested without a window in tests/control/test_captain_die.py.)"""

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
    screen.tap(("clear",))
    return screen


def settle(ui, screen):
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump(2)


def test_captain_button_rolls_and_the_cost_follows_the_face(ui, monkeypatch):
    screen = open_tool(ui)
    monkeypatch.setattr(ui.app.table, "clock", lambda: 0)  # the die tumbles until settled
    screen.control.rng = Faces(6)
    ui.press_seat("spacebar")
    assert screen.v.rolling and screen.v.face != "6"
    settle(ui, screen)
    assert not screen.v.rolling
    ui.find("Die 6: 3 TU")
    screen.control.rng = Faces(1)
    ui.tap(ui.find("Red-lettered: no"))
    ui.tap(ui.find("Roll"))
    settle(ui, screen)
    ui.find("Die 1: 1 TU + 2 red = 3 TU")
    assert ui.app.log.get_setting("captain_die.history") == [[1, True], [6, False]]
    assert screen.v.history[1] == "Die 6: 3 TU"
    path, colours = ui.screenshot("captain_die")
    assert colours > 8
    ui.tap(ui.find("Red-lettered: +2"))


def test_a_tap_on_the_die_rolls_and_a_roll_cannot_start_twice(ui, monkeypatch):
    screen = open_tool(ui)
    monkeypatch.setattr(ui.app.table, "clock", lambda: 0)  # the die tumbles until settled
    screen.control.rng = Faces(3)
    ui.tap(screen.ids.die)
    assert screen.v.rolling
    ui.press_seat("spacebar")  # no second face is drawn while the die tumbles
    settle(ui, screen)
    assert ui.app.log.get_setting("captain_die.history") == [[3, False]]
    ui.find("Die 3: 2 TU")


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_faces_to_enter_are_whole_and_the_die_uses_the_room(ui, size):
    """"Which face?": the six faces and Cancel in the button row, every word on one
    line; the die grows with the window."""
    with ui.sized(size):
        screen = open_tool(ui)
        ui.tap(ui.find("Enter a face"))
        ui.pump()
        ui.find("Which face does your die show?")
        keys = screen.ids.buttons.children[::-1]
        assert [k.text for k in keys] == ["1", "2", "3", "4", "5", "6", "Cancel"]
        for key in keys:
            key.texture_update()
            assert key.texture_size[0] <= key.width - 8, f"{key.text!r} is cut"
        assert screen.ids.die.height >= size[1] * 0.35
        ui.screenshot(f"captain_die_faces_{size[0]}x{size[1]}")
        ui.tap(keys[3])
        ui.find("Die 4: 2 TU")
        assert ui.app.log.get_setting("captain_die.history") == [[4, False]]
        ui.find("Enter a face")
