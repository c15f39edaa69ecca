"""Bad input (issue 11): a tap on a disabled button, a tap during a change of screen,
names as long as allowed on every screen size's layout, a player renamed since."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

LONG = [{"name": n, "seat": i + 1} for i, n in enumerate(
    ["Maximiliana Oberst", "Bartholomew Quince", "Wilhelmina Stroud", "Konstantinos Pap"])]


def test_a_tap_on_a_disabled_button_does_nothing_and_says_nothing(ui):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": LONG})
    ui.pump()
    guess = ui.find("Guess a law")
    assert guess.disabled
    ui.tap(guess)
    assert ui.app.session.actions == [] and ui.app.sm.current_screen.page == "board"
    assert ui.app.banner_text == ""


def test_a_second_touch_during_a_change_of_screen_lands_nowhere_new(ui):
    from companion.ui.widgets import Tile

    ui.goto_home()
    for g in ui.app.log.open_games():
        ui.app.log.finish(g.id)  # through the log: its row's checksum with it
    ui.app.home()
    ui.pump()
    tile = ui.find("[b]Timer[/b]", kind=Tile)
    ui.double_tap(tile)  # the second touch comes as the timer screen appears
    assert ui.app.sm.current == "timer"
    assert ui.app.sm.current_screen.board.status() == "idle", "nothing under it started"


def test_names_as_long_as_allowed_stay_inside_their_labels(ui):
    from kivy.uix.label import Label

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": LONG})
    for i in range(3):
        assert ui.app.act({"type": "pickup", "seat": 1 + i, "reason": "temporal_flaw"})
    ui.pump(3)
    screen = ui.app.sm.current_screen
    for w in screen.walk():
        if isinstance(w, Label) and w.text and w.get_root_window() is not None \
                and w.width > 0 and w.text_size[0]:
            assert w.texture_size[0] <= w.width + 1, w.text
            if w.size_hint_y is not None or w.text_size[1]:  # a box of its own height
                assert w.texture_size[1] <= w.height + 1, w.text
    grid, board = screen.ids.buttons, screen.ids.board
    assert grid.top <= board.top + 1, "the buttons stay under the top bar"
    ui.screenshot("crazy_board_long_names")
    ui.app.home()
    ui.pump()
    line = ui.app.sm.current_screen.resume_text
    assert "Maximiliana Oberst" in line


def test_a_game_resumed_after_its_players_were_renamed_keeps_its_own_names(ui):
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": LONG[:2]})
    game = ui.app.session.game_id
    assert ui.app.act({"type": "score", "seat": 1, "points": 4})
    ui.app.home()
    # the same seats under other names in a later game
    assert ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                                      {"name": "Bo", "seat": 2}]})
    assert ui.app.act({"type": "score", "seat": 2, "points": 1})
    assert ui.app.resume_game(game)
    ui.pump()
    row = ui.find("Maximiliana Oberst:").parent
    assert row.children[-3].text == "4"  # the total beside the name
    assert ui.app.session.snapshot()["totals"]["1"] == 4


def test_a_log_that_fails_its_background_check_is_told_to_the_table(ui):
    """A log too large to check at start is checked on a worker thread; its answer
    reaches the banner, where the table looks (issue 13: a bounded check at start)."""
    ui.goto_home()
    ui.app.clear_banner()
    ui.app.log_checked("ok")
    assert ui.app.banner_text == ""
    ui.app.log_checked("row 4 missing from index idx_actions")
    ui.pump()
    assert "failed SQLite's check (row 4 missing" in ui.app.banner_text
    assert "Everything recorded is kept" in ui.app.banner_text
    ui.app.clear_banner()
