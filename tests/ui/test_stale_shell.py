"""Nothing stale, nothing harmful, in the real window: the slap pad tool's stand-in
names never become players, a tool never shows another game's Undo, a double tap across
a change of screen and a tap on a disabled button do nothing."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


def test_the_slap_tools_seat_names_never_fill_the_next_players_screen(ui):
    ui.goto_home()
    # the slap pad tool's log as it keeps it when it plays without names (the newest
    # table in the roster: "Seat 1" … "Seat 5" at their seats)
    gid = ui.app.log.new_game("stop_time", {"players": [{"name": f"Seat {n}", "seat": n}
                                                        for n in range(1, 6)]})
    ui.app.log.finish(gid, "abandoned")
    assert ("Seat 1", 1) in ui.app.log.known_players()
    ui.app.choose_game("scorepad")
    ui.pump()
    screen = ui.app.sm.current_screen
    names = [row.name_input.text for row in screen.rows.values()]
    assert not [n for n in names if n.startswith("Seat ")], names
    ui.tap(screen.rows[1].name_input)  # typing: the known players offered
    offered = [b.text for b in screen.known_buttons if b.opacity > 0]
    assert not [n for n in offered if n.startswith("Seat ")], offered
    screen.stop_typing()


def test_a_tool_opened_after_a_game_shows_no_undo_of_that_game(ui):
    ui.goto_home()
    for g in ui.app.log.open_games():  # the slap tool has no running log of its own
        ui.app.abandon_game(g.id)
    ui.app.sm.get_screen("slap").tools.session = None
    ui.pump()
    assert ui.app.start_game("scorepad", {"players": [{"name": "Dominik", "seat": 1},
                                                      {"name": "Ann", "seat": 2}]})
    assert ui.app.act({"type": "score", "seat": 1, "points": 4})
    assert ui.app.undo_text.startswith("Undo: score")
    ui.app.end_game("abandoned", ask=False)  # no frame in between
    ui.app.navigate("slap")
    ui.pump()
    undo = ui.app.sm.current_screen.ids.undo
    assert "Dominik" not in undo.text and "score" not in undo.text, undo.text


def test_a_double_tap_on_a_tile_does_nothing_on_the_next_screen(ui):
    from companion.ui.widgets import Tile

    ui.goto_home()
    tile = ui.find("Score pad", kind=Tile)
    ui.double_tap(tile)  # the second touch lands where Players now shows
    screen = ui.app.sm.current_screen
    assert screen.name == "players"
    assert not screen.typing and ui.app.question is None
    before = {s: (w.toggle.state, w.name_input.text) for s, w in screen.rows.items()}
    ui.double_tap(ui.find("< Back"))  # back home; the second touch reaches nothing
    assert ui.app.sm.current == "home" and ui.app.session is None
    ui.app.choose_game("scorepad")
    ui.pump()
    after = {s: (w.toggle.state, w.name_input.text) for s, w in screen.rows.items()}
    assert after == before


def test_a_tap_on_a_disabled_button_does_nothing(ui):
    ui.goto_home()
    for g in ui.app.log.open_games():
        ui.app.abandon_game(g.id)
    ui.app.home()
    ui.pump()
    home = ui.app.sm.current_screen
    resume = ui.find("Resume")
    assert resume.disabled and home.resume_id == 0
    opened = ui.find("None open")
    assert opened.disabled
    n_games = len(ui.app.log.games())
    ui.tap(resume)
    ui.tap(opened)
    assert ui.app.sm.current == "home" and ui.app.session is None
    assert home.sheet is None and len(ui.app.log.games()) == n_games
