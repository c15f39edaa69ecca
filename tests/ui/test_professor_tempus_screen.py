"""The Professor Tempus screen in the real window: the rulebook's Arthur/Mickael/Louisa
example through the screen's handlers, a refused play with its reason, a round's count."""

from __future__ import annotations

import pytest

from companion.games import professor_tempus as pt
from companion.ui.presenters import professor_tempus as view

pytestmark = pytest.mark.window

ARTHUR, MICKAEL, LOUISA = 1, 2, 3
SETUP = {"players": [{"name": "Arthur", "seat": 1}, {"name": "Mickael", "seat": 2},
                     {"name": "Louisa", "seat": 3}], "first_seat": 1}


def start(ui):
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", SETUP)
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.name == "professor_tempus"
    return screen


def enter(screen, mode, holder, colour, value):
    screen.choose_mode(mode)
    screen.choose_holder(holder)
    screen.choose_colour(colour)
    return screen.enter_value(value)


def card(colour, value):
    return {"colour": colour, "value": value}


def test_presenter_move_and_refusal():
    state = pt.initial(SETUP)
    assert view.turn_text(state) == "Arthur's turn"
    assert view.fresh_move(state) == view.Move("open+", 0, "red")
    state = pt.apply(state, view.build_action(state, view.Move("open-", 0), 5)[0])
    action, reason = view.build_action(state, view.Move("play_on", 0, "red"), 7)
    assert action is None and "lower than 5 red" in reason
    hs = view.holders(state, view.Move("play_on"))
    assert hs[0]["enabled"] and hs[0]["owner"] == ARTHUR and not hs[1]["enabled"]


def test_rulebook_example_through_the_screen(ui):
    screen = start(ui)
    ui.find("Arthur's turn")
    # Arthur opens a descending series with the 5 red; Mickael plays the 3 red on it and
    # takes it; Louisa plays the 3 joker (joker rule, same value) and takes it.
    ui.tap(ui.find("Open −"))
    ui.tap(ui.find("Red"))
    assert screen.move == view.Move("open-", 0, "red")
    ui.tap(ui.find("5", kind=type(ui.find("Red"))))
    assert screen.turn == "Mickael's turn"
    assert not enter(screen, "play_on", 0, "red", 7)  # 7 is not lower than 5: refused
    assert "lower than 5 red" in ui.app.status
    assert enter(screen, "play_on", 0, "red", 3)
    assert enter(screen, "play_on", 0, "joker", 3)
    session = ui.app.session
    assert session.actions == [
        {"type": "open_series", "seat": ARTHUR, "holder": 0, "direction": "-",
         "card": card("red", 5)},
        {"type": "play_on", "seat": MICKAEL, "holder": 0, "card": card("red", 3)},
        {"type": "play_on", "seat": LOUISA, "holder": 0, "card": card("joker", 3)}]
    assert ui.app.log.actions(session.game_id) == session.actions
    held = session.state.holders[0]
    assert held.owner == LOUISA and held.colour is None
    ui.find("next: any")
    ui.find("Arthur's turn")
    ui.screenshot("professor_tempus")


def test_round_count_and_running_totals(ui):
    screen = start(ui)
    assert enter(screen, "open-", 0, "red", 5)
    assert enter(screen, "play_on", 0, "red", 3)
    assert enter(screen, "play_on", 0, "joker", 3)
    assert enter(screen, "open+", 1, "red", 10)
    for value in range(11, 19):
        assert enter(screen, "play_on", 1, "red", value)
    state = ui.app.session.state
    assert state.phase == "scoring"
    ui.find("Count hourglasses")
    for _ in range(4):
        ui.pump()  # the panel is rebuilt on each tap: lay it out before tapping
        ui.tap(screen.ids.panel.children[0].children[1].children[0])  # Louisa's "+"
    assert screen.entries == {LOUISA: 4}
    ui.screenshot("professor_tempus_count")
    ui.tap(ui.find("Score round"))
    assert ui.app.session.actions[-1] == {
        "type": "score_round", "hourglasses": {"1": 0, "2": 0, "3": 4}}
    snap = ui.app.session.snapshot()
    assert snap["totals"] == {"1": 0, "2": 0, "3": 4} and snap["round"] == 2
    ui.find("4 pts")
    ui.find("Mickael's turn")  # the next round starts left of the previous first player
