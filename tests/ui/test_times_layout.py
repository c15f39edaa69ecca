"""The Times screen's later pages at 800x480, 1024x600 and 1280x720 with 20-letter
names: the year pad, the outcomes, the scoring track, More and Override. Nothing cut,
spilling or overlapping, every button in the window and (at 800x480) 64 px at least;
the instruction at 22 px or more. Screenshots: tests/_artifacts/layout_times_*."""

from __future__ import annotations

import pytest
from layout_check import FOUR, SIZES, problems, size_id

from tests.ui.test_layout_sizes import check
from tests.ui.times_steps import play_cards

pytestmark = pytest.mark.window


@pytest.fixture(params=SIZES, ids=size_id)
def size(request, ui):
    with ui.sized(request.param) as shown:
        yield shown


def check_dialog(ui, size, dialog, name):
    """The dialog alone (laid over the screen on purpose: its buttons cover the
    screen's)."""
    ui.pump(3)
    ui.screenshot(f"layout_{name}_{size[0]}x{size[1]}")
    found = problems(dialog, min_target=64 if size == (800, 480) else None)
    assert not found, "\n".join(found)


def test_times_year_outcomes_track_and_dialogs(ui, size):
    from kivy.metrics import sp

    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15})
    screen = ui.app.sm.current_screen
    check(ui, size, "times_play_long_names")
    play_cards(ui, screen)
    screen.refused_space("century", 17)  # why a tap laid nothing: whole, at 22 px
    assert "cannot start at 1700" in screen.ids.turn_prompt.text
    check(ui, size, "times_refused")
    assert screen.ids.turn_prompt.font_size >= sp(22), "the instruction is read at 22 px"
    for name in ("doubt", "join_doubt", "join_doubt"):  # Ann's pink 5 doubted by all
        screen.do("tap_space", "century", 10) if name == "doubt" else None
        screen.do(name)
    for d in (2, 9, 9):
        screen.do("digit", d)
    check(ui, size, "times_reveal")
    screen.key("OK")
    assert screen.view.panel == "evaluated", ui.app.status
    check(ui, size, "times_evaluated")
    screen.do("open_menu")
    check_dialog(ui, size, screen.menu, "times_menu")
    screen.do("open_override")
    screen.do("override_pick", 2)
    screen.do("override_set", 1)
    screen.do("override_reason", "Card dropped")
    check_dialog(ui, size, screen.dialog, "times_override")
    screen.do("save_override")
    assert screen.dialog.parent is None, ui.app.status
    screen.do("next_event")  # Bob's hand of one ends the round
    assert screen.view.panel == "track"
    check(ui, size, "times_track")
    ui.app.end_game("abandoned", ask=False)
