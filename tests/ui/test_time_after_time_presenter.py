"""Time After Time view data without Kivy: the emergency-move flow and the empty hand."""

from __future__ import annotations

import pytest

from companion.games import time_after_time as tat
from companion.ui.presenters import time_after_time as view

SETUP = {"players": [{"name": "Chloé", "seat": 1}, {"name": "Lucas", "seat": 2}]}


def played(*actions, setup=SETUP):
    state = tat.initial(setup)
    for a in actions:
        state = tat.apply(state, a)
    return state


def place(seat, slot, hour):
    return {"type": "place", "seat": seat, "slot": slot, "hour": hour}


# 08H in the fifth slot and 09H in the sixth: four empty slots before 08H, only 06H-07H fit
STUCK = (place(1, 4, 8), place(1, 5, 9))


def test_emergency_enabled_only_for_a_stuck_row():
    fine = played(place(1, 3, 12))
    assert not view.controls(fine, view.Pick(seat=1))["emergency"]
    assert view.start_emergency(fine, view.Pick(seat=1)) == view.Pick(seat=1)
    stuck = played(*STUCK)
    assert view.is_stuck(stuck, 1) and not view.is_stuck(stuck, 2)
    assert view.controls(stuck, view.Pick(seat=1))["emergency"]
    assert not view.controls(stuck, view.Pick(seat=2))["emergency"]
    assert not view.controls(stuck, view.Pick())["emergency"]


def test_one_card_moved():
    state = played(*STUCK)
    pick = view.start_emergency(state, view.Pick(seat=1, hour=15))
    assert pick == view.Pick(seat=1, emergency=True)  # the hour picked is dropped
    assert view.movable(state, pick) == {4, 5}
    assert view.emergency_action(pick) is None
    assert not view.controls(state, pick)["confirm"]
    pick = view.emergency_tap(state, pick, 4)  # lift 08H
    assert pick.moving == 4 and view.targets(state, pick) == {3}
    row = view.rows(state, pick)[0]
    assert row["slots"][4]["moving"] and row["slots"][3]["legal"]
    # the landing slot, the lifted card, and 09H (tapping it lifts 09H instead)
    assert [s["enabled"] for s in row["slots"]] == [False, False, False, True, True, True,
                                                    False]
    assert view.emergency_tap(state, pick, 5).moving == 5
    assert not any(s["enabled"] for s in view.rows(state, pick)[1]["slots"])
    assert view.emergency_tap(state, pick, 0) == pick  # not next to it: nothing happens
    pick = view.emergency_tap(state, pick, 3)
    assert pick.moves == ((4, 3),) and pick.moving is None
    assert view.preview(state, pick) == [None, None, None, 8, None, 9, None]
    assert view.rows(state, pick)[0]["slots"][3]["moved"]
    assert view.movable(state, pick) == {5}  # 08H has moved once already
    action = view.emergency_action(pick)
    assert action == {"type": "emergency_move", "seat": 1, "from": 4, "to": 3}
    assert tat.apply(state, action).seats[0].row == (None, None, None, 8, None, 9, None)
    assert "Confirm" in view.prompt(state, pick)


def test_two_neighbours_shift_together_and_a_lift_can_be_let_go():
    state = played(*STUCK)
    pick = view.start_emergency(state, view.Pick(seat=1))
    pick = view.emergency_tap(state, pick, 5)
    assert view.targets(state, pick) == {6}
    pick = view.emergency_tap(state, pick, 5)  # tapped again: put back
    assert pick.moving is None and not pick.moves
    for slot in (4, 3, 5, 4):  # 08H left, then 09H left into the slot 08H left
        pick = view.emergency_tap(state, pick, slot)
    assert pick.moves == ((4, 3), (5, 4))
    assert view.movable(state, pick) == set()  # two cards: the most one turn allows
    action = view.emergency_action(pick)
    assert action == {"type": "emergency_move", "seat": 1,
                      "moves": [{"from": 4, "to": 3}, {"from": 5, "to": 4}]}
    assert tat.apply(state, action).seats[0].row == (None, None, None, 8, 9, None, None)
    assert view.cancel_emergency(pick) == view.Pick(seat=1)


def test_another_player_leaves_the_flow():
    state = played(*STUCK)
    pick = view.emergency_tap(state, view.start_emergency(state, view.Pick(seat=1)), 4)
    assert view.Pick(seat=1, hour=12).with_seat(2) == view.Pick(seat=2, hour=12)
    assert pick.with_seat(2) == view.Pick(seat=2)
    assert pick.with_seat(1) == pick


def test_hand_empty_only_once_the_pile_is_gone():
    state = played()
    assert not view.controls(state, view.Pick(seat=1))["hand_empty"]
    assert view.hand_empty_action(state, view.Pick(seat=1)) is None
    state = played({"type": "draw_pile", "count": 21})
    c = view.controls(state, view.Pick(seat=2))
    assert c["hand_empty"] and c["show_hand_empty"] and not c["draw"]
    assert not view.controls(state, view.Pick())["hand_empty"]  # whose hand?
    action = view.hand_empty_action(state, view.Pick(seat=2))
    assert action == {"type": "hand_empty", "seat": 2}
    over = tat.apply(state, action)
    assert view.result(over) == "Tie: nobody wins"
    assert not view.controls(over, view.Pick(seat=2))["hand_empty"]


@pytest.mark.parametrize("n", [3, 4])
def test_rows_for_three_and_four_players(n):
    names = ["Chloé", "Lucas", "Inès", "Hugo"][:n]
    setup = {"players": [{"name": nm, "seat": i + 1} for i, nm in enumerate(names)]}
    state = tat.initial(setup)
    rows = view.rows(state, view.Pick(seat=n, hour=10))
    assert [r["name"] for r in rows] == names and len(rows[-1]["slots"]) == 7
    assert all(s["legal"] for s in rows[-1]["slots"])
    assert view.header(state) == f"Pile {tat.setup_for(n).draw_pile}"


def test_discard_and_green_slots_follow_the_engine_state_by_state():
    """The engine's placement answers are asked once per state (``view.legal_slots``,
    ``view.seats_that_can_place``): each new state gets its own, never the last one's.
    Discard is offered exactly when nobody can place the hour."""
    import random

    rng = random.Random(7)
    state = tat.initial(SETUP)
    for _ in range(30):
        for seat in (1, 2):
            for hour in view.HOURS:
                pick = view.Pick(seat=seat, hour=hour)
                nobody = not tat.seats_that_can_place(state, hour)
                gone = hour in tat.unavailable_hours(state)
                live = not state.over and state.asking is None
                assert view.controls(state, pick)["discard"] == (live and nobody and not gone)
                row = view.rows(state, pick)[seat - 1]
                legal = set(tat.legal_slots(state.seats[seat - 1].row, hour))
                assert {s["slot"] for s in row["slots"] if s["legal"]} == (
                    legal if live else set())
        if state.over or state.asking is not None:
            break
        moves = [place(s.player.seat, i, h) for s in state.seats for h in view.HOURS
                 if h not in tat.unavailable_hours(state) for i in tat.legal_slots(s.row, h)]
        if not moves:
            break
        state = tat.apply(state, rng.choice(moves))
