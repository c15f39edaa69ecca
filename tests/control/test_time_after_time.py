"""Time After Time's taps without a window: what the host taps, what the log records and
what the table is told and shown, with a real game session (``TimeAfterTimeControl``).

The rulebook's example: Chloé places 12H00, then 17H00, then 08H00 ... and finally
20H00, her 7 spaces covered with the times increasing from left to right. A player who
draws a Ghost shows it (from their right-hand neighbour's hand). A row that can no longer
be completed is put right by moving one or two placed cards by one position. Once the
draw pile is gone, a player whose hand is empty ends the game."""

from __future__ import annotations

import pytest

from companion.control.time_after_time import TimeAfterTimeControl
from companion.ui.presenters import time_after_time as view
from tests.control.table_port import TablePort

CHLOE, LUCAS, INES, HUGO = 1, 2, 3, 4
SETUP = {"players": [{"name": "Chloé", "seat": 1}, {"name": "Lucas", "seat": 2}]}
THREE = {"players": SETUP["players"] + [{"name": "Inès", "seat": 3}]}
FOUR = {"players": THREE["players"] + [{"name": "Hugo", "seat": 4}]}
# 12H, 17H, 8H ... 20H as in the rulebook, in slots that leave the row completable
CHLOES_ROW = [(3, 12), (5, 17), (1, 8), (0, 6), (2, 10), (4, 15), (6, 20)]


def table(game_log, config, setup=SETUP):
    app = TablePort(game_log, config)
    app.start("time_after_time", setup)
    control = TimeAfterTimeControl(app)
    app.on_refresh = control.view  # as the screen does after each step
    control.entered()
    return app, control


@pytest.fixture
def app_control(game_log, config):
    return table(game_log, config)


def place(control, seat, hour, slot):
    control.choose_seat(seat)
    control.choose_hour(hour)
    return control.tap_slot(seat, slot)


def test_chloes_row_tap_by_tap_then_her_ghost_question(app_control):
    app, control = app_control
    for slot, hour in CHLOES_ROW:
        assert place(control, CHLOE, hour, slot)
        assert control.pick == view.Pick()  # nobody stays chosen after a card is laid
    assert app.actions == [{"type": "place", "seat": CHLOE, "slot": s, "hour": h}
                           for s, h in CHLOES_ROW]
    # the deal was secret: before she wins she is asked, her lamp lit
    v = control.view()
    assert v.band == "ask" and "Chloé: is a ghost still in your hand?" in v.question
    assert app.table.lamps.lit == {CHLOE} and v.no_label == "No ghost: Chloé wins"
    assert all(h["off"] for h in v.hours)
    assert not control.press(LUCAS, True)  # nobody answers for her
    assert app.session.state.asking == CHLOE
    assert control.no_ghost()
    assert app.actions[-1] == {"type": "ghost_answer", "seat": CHLOE, "holds_ghost": False}
    v = control.view()
    assert v.band == "over" and v.result == "Chloé wins!" and app.table.lamps.lit == set()


def test_her_own_button_says_yes_and_play_goes_on(game_log, config):
    app, control = table(game_log, config, THREE)
    for slot, hour in CHLOES_ROW:
        assert app.act({"type": "place", "seat": CHLOE, "slot": slot, "hour": hour})
    assert control.view().band == "ask" and app.table.lamps.lit == {CHLOE}
    assert not control.press(CHLOE, False)  # a release answers nothing
    assert control.press(CHLOE, True)
    assert app.actions[-1] == {"type": "ghost_answer", "seat": CHLOE, "holds_ghost": True}
    assert app.last_said() == ("Chloé plays on", False)
    assert control.view().band == "hours" and app.table.lamps.lit == set()


@pytest.mark.parametrize("undo", ["the screen's Undo", "an undo from elsewhere"])
def test_an_undo_leaves_no_hour_picked(app_control, undo):
    """Lucas has 9H picked when the host takes back Chloé's 12H: after the undo no hour
    is picked and no row offers green slots, whoever asked for the undo."""
    app, control = app_control
    assert place(control, CHLOE, 12, 3)
    control.choose_seat(LUCAS)
    control.choose_hour(9)
    assert control.pick == view.Pick(seat=LUCAS, hour=9)
    if undo == "the screen's Undo":
        assert app.undo()  # app.refresh shows the view at once
    else:
        app.on_refresh = None
        assert app.undo()  # the controller learns it from the session
    v = control.view()
    assert app.actions == [] and control.pick == view.Pick()
    assert not any(h["look"] == "picked" for h in v.hours)
    assert not any(s["look"] == "legal" for r in v.rows for s in r["slots"])
    assert v.prompt.startswith("Tap a player")


def test_an_illegal_slot_is_refused_in_the_engines_words_and_the_choice_stays(app_control):
    app, control = app_control
    assert place(control, CHLOE, 12, 3)
    control.choose_seat(CHLOE)
    control.choose_hour(17)
    slots = control.view().rows[0]["slots"]
    assert slots[2]["off"] and slots[4]["look"] == "legal"  # 17H left of 12H: no
    assert not control.tap_slot(CHLOE, 2)
    assert app.last_said() == ("Chloé cannot place it there: 17H00 cannot go left of 12H00 "
                               "in slot 4: times increase from left to right.", True)
    assert control.pick == view.Pick(seat=CHLOE, hour=17) and len(app.actions) == 1
    assert not control.tap_slot(LUCAS, 0)  # another row: that player is chosen instead
    assert control.pick.seat == LUCAS and len(app.actions) == 1


def test_a_ghost_drawn_from_the_right_hand_neighbour(app_control):
    app, control = app_control
    assert "ghost_plus" in control.view().off  # nobody chosen yet
    control.choose_seat(LUCAS)
    assert control.ghost(1)
    assert app.actions[-1] == {"type": "ghost", "seat": LUCAS, "delta": 1, "from": CHLOE}
    assert control.pick.seat == LUCAS  # chosen still: the second card is drawn now
    assert not control.ghost(1)  # two players: the one ghost is Lucas's already
    assert app.last_said()[1] and "holds no ghost" in app.last_said()[0]
    assert control.ghost(-1)
    assert app.actions[-1] == {"type": "ghost", "seat": LUCAS, "delta": -1}


def test_draw_discard_and_hand_empty(app_control):
    app, control = app_control
    control.choose_seat(LUCAS)
    control.choose_hour(9)
    assert "discard" in control.view().off  # 9H can still be placed
    assert control.draw()
    assert app.actions[-1] == {"type": "draw_pile", "count": 1, "seat": LUCAS}
    assert app.act({"type": "draw_pile", "count": app.session.state.draw_pile})
    v = control.view()
    assert v.pile_out and "draw" in v.off and "hand_empty" not in v.off
    assert control.hand_empty()
    assert app.actions[-1] == {"type": "hand_empty", "seat": LUCAS}
    assert control.view().result == "Tie: nobody wins"


def test_an_emergency_move_of_two_cards(app_control):
    app, control = app_control
    for slot, hour in ((4, 8), (5, 9)):  # 08H fifth, 09H sixth: cannot be completed
        assert place(control, CHLOE, hour, slot)
    control.choose_seat(CHLOE)
    assert "emergency" not in control.view().off
    control.start_emergency()
    v = control.view()
    assert v.band == "emergency" and "confirm" in v.off and all(h["off"] for h in v.hours)
    for slot in (4, 3, 5, 4):  # lift 08H, down one left; lift 09H, down one left
        assert not control.tap_slot(CHLOE, slot)
    assert [s["text"] for s in control.view().rows[0]["slots"]][3:5] == ["8H", "9H"]
    assert app.session.state.seats[0].row[4] == 8  # nothing sent yet
    assert control.confirm_emergency()
    assert app.actions[-1] == {"type": "emergency_move", "seat": CHLOE,
                               "moves": [{"from": 4, "to": 3}, {"from": 5, "to": 4}]}
    assert not control.pick.emergency and control.view().band == "hours"
    control.start_emergency()
    control.cancel_emergency()
    assert control.pick == view.Pick(seat=CHLOE)


def test_four_players_enter_the_hour_on_the_pad(game_log, config):
    app, control = table(game_log, config, FOUR)
    v = control.view()
    assert v.hour_pad and not v.pad_shown and v.pad[-1]["key"] == ("close_pad",)
    assert control.press(INES, True)  # her seat button opens the pad for her
    assert control.view().pad_shown and control.pick.seat == INES
    assert control.ghost(1)  # a ghost drawn: the pad waits for the second card
    assert control.view().pad_shown
    control.choose_hour(9)
    v = control.view()
    assert not v.pad_shown and v.rows[2]["slots"][0]["look"] == "legal"
    control.choose_seat(INES)  # her name again: another hour
    assert control.view().pad_shown
    control.close_pad()
    assert not control.view().pad_shown and control.pick.seat == INES
    assert not control.press(5, True) and not control.press(0, True)  # not in this game


def test_another_game_starts_with_nobody_chosen(app_control):
    app, control = app_control
    control.choose_seat(LUCAS)
    control.choose_hour(9)
    app.start("time_after_time", SETUP)
    assert control.view().prompt == "Tap a player, then an hour, then a slot"
    assert control.pick == view.Pick()
    app.controller.session = None
    assert control.view().prompt == "No game"
