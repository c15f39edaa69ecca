"""The Players screen in the window: its rows use the height there is at every size,
and the refusal Start gives never covers the In/Out that fixes it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 720)])
def test_the_rows_fill_the_screen_between_the_bars(ui, size):
    ui.goto_home()
    ui.resize(size)
    try:
        ui.app.choose_game("scorepad")
        ui.pump(3)
        screen = ui.app.sm.current_screen
        seats = screen.ids.seats
        lowest = min(row.to_window(row.x, row.y)[1] for row in screen.rows.values())
        bottom = seats.to_window(seats.x, seats.y)[1]
        assert lowest - bottom <= 12, f"{lowest - bottom:.0f} px empty under the rows"
        assert all(row.toggle.height >= 64 for row in screen.rows.values())
    finally:
        ui.resize((800, 480))
        ui.goto_home()


def test_the_refusal_leaves_seat_5_s_in_out_free_to_tap(ui):
    ui.goto_home()
    ui.app.choose_game("scorepad")
    ui.pump(2)
    screen = ui.app.sm.current_screen
    for seat, row in screen.rows.items():  # four players; whatever earlier games left
        row.name_input.text = ["Ann", "Bob", "Cara", "Dan"][seat - 1] if seat <= 4 else ""
        row.toggle.state = "down" if seat <= 4 else "normal"
    ui.pump()
    ui.tap(screen.rows[5].toggle)  # in, without a name: Start is refused
    assert screen.rows[5].toggle.state == "down"
    ui.tap(ui.find("Start"))
    assert ui.app.sm.current == "players" and ui.app.banner_text.startswith("Seat 5")
    ui.screenshot("players_refused")
    ui.tap(screen.rows[5].toggle)  # the fix, under no notice
    assert screen.rows[5].toggle.state == "normal"
    assert ui.app.banner_text == "", "fixed: the notice goes"
    ui.tap(ui.find("Start"))
    assert ui.app.sm.current == "game"
    ui.app.end_game("abandoned", ask=False)
