"""Time After Time engine: setup table, row checker, actions, results, properties."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, refused

from companion.errors import CompanionError
from companion.games import time_after_time as tat

_ = None
CHLOE, LUCAS, MARTIN, NICOLAS = 1, 2, 3, 4


def game(n: int = 2):
    names = ["Chloé", "Lucas", "Martin", "Nicolas"][:n]
    return tat.initial({"players": [{"name": nm, "seat": i + 1} for i, nm in enumerate(names)]})


def run(state, *actions):
    for a in actions:
        state = tat.apply(state, a)
    return state


def place(seat, slot, hour):
    return {"type": "place", "seat": seat, "slot": slot, "hour": hour}


def row_of(state, seat):
    return next(s.row for s in state.seats if s.player.seat == seat)


def NO_GHOST(seat):  # noqa: N802 - reads as the answer it is
    return {"type": "ghost_answer", "seat": seat, "holds_ghost": False}


def HOLDS_GHOST(seat):  # noqa: N802
    return {"type": "ghost_answer", "seat": seat, "holds_ghost": True}


# -- setup ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "cards", "ghosts", "dealt", "pile"), [
    (2, 13, 1, 14, 21),
    (3, 19, 2, 21, 15),
    (4, 26, 2, 28, 8),
])
def test_setup_by_player_count(n, cards, ghosts, dealt, pile):
    deal = tat.setup_for(n)
    assert (deal.time_cards, deal.ghosts, deal.dealt, deal.draw_pile) == (cards, ghosts, dealt,
                                                                           pile)
    assert deal.per_hand == 7 and deal.dealt == 7 * n
    assert game(n).draw_pile == pile


@pytest.mark.parametrize("n", [1, 5, 0, True, "3"])
def test_setup_rejects_other_counts(n):
    with refused("time_after_time.player_count"):
        tat.setup_for(n)


def test_initial_rejects_five_players():
    players = [{"name": f"P{i}", "seat": i} for i in range(1, 6)]
    with refused("setup.player_count"):
        tat.initial({"players": players})


# -- row checker ----------------------------------------------------------------------

# The rulebook's example: Chloé places 12H00, then 17H00, then 08H00, ... and finally
# 20H00 completes her row correctly (slots chosen here so the row can be completed).
CHLOE_STEPS = [(3, 12), (5, 17), (1, 8), (0, 6), (2, 10), (4, 15), (6, 20)]


def test_chloe_example_row_is_correct_at_every_step():
    row = [None] * 7
    for slot, hour in CHLOE_STEPS:
        assert tat.can_place(row, slot, hour) == (True, "")
        row[slot] = hour
        assert tat.check_row(row) == []
    assert row == [6, 8, 10, 12, 15, 17, 20]
    assert tat.is_complete(row)


@pytest.mark.parametrize(("row", "kinds", "slots"), [
    ([_, _, _, _, _, _, _], [], []),
    ([6, 7, 8, 9, 10, 11, 12], [], []),
    ([6, _, _, 12, _, _, 22], [], []),
    ([12, 12, _, _, _, _, _], ["duplicate"], [(0, 1)]),
    ([_, 14, _, 9, _, _, _], ["order"], [(1, 3)]),
    ([_, 14, _, 20, _, 20, _], ["duplicate"], [(3, 5)]),
    ([5, _, _, _, _, _, _], ["hour"], [(0,)]),
    ([_, _, _, _, _, _, 23], ["hour"], [(6,)]),
    ([_, "8", _, _, _, _, _], ["hour"], [(1,)]),
    ([_, _, _, _, 8, _, _], ["stuck"], [(0, 1, 2, 3)]),  # 4 slots before 08H00, 2 hours
    ([_, _, _, _, 20, _, _], [], []),  # 2 slots after 20H00: 21, 22 fit
    ([_, _, _, _, 21, _, _], ["stuck"], [(5, 6)]),  # only 22H00 after
    ([_, _, 18, _, _, _, _], [], []),  # 4 slots after 18H00: 19-22 fit
    ([_, _, 19, _, _, _, _], ["stuck"], [(3, 4, 5, 6)]),
    ([_, 10, _, _, 12, _, _], ["stuck"], [(2, 3)]),  # only 11H00 between
    ([_, 10, _, 12, _, _, _], [], []),
    ([6, 7, 8, 9, 10, 11], ["length"], [()]),
])
def test_check_row_table(row, kinds, slots):
    problems = tat.check_row(row)
    assert [p.kind for p in problems] == kinds
    assert [p.slots for p in problems] == slots
    assert all(p.message for p in problems)


def test_stuck_fits_exactly_at_the_edges():
    assert tat.check_row([_, _, _, _, _, 21, _]) == []  # 22H00 after, 5 hours before
    assert [p.kind for p in tat.check_row([_, _, _, _, _, 22, _])] == ["stuck"]
    assert tat.check_row([_, _, 8, _, _, _, _]) == []
    assert [p.kind for p in tat.check_row([_, _, 7, _, _, _, _])] == ["stuck"]


def test_check_row_counts_unavailable_hours():
    row = [_, 10, _, 13, _, _, _]
    assert tat.check_row(row) == []
    assert tat.check_row(row, unavailable=[11]) == []
    problems = tat.check_row(row, unavailable=[11, 12])
    assert [p.kind for p in problems] == ["stuck"]
    assert "still available" in problems[0].message


@pytest.mark.parametrize(("row", "slot", "hour", "ok", "why"), [
    ([_, _, _, 12, _, 17, _], 4, 14, True, ""),
    ([_, _, _, 12, _, 17, _], 2, 14, False, "left of 12H00"),
    ([_, _, _, 12, _, 17, _], 6, 14, False, "right of 17H00"),
    ([_, _, _, 12, _, 17, _], 3, 14, False, "already holds 12H00"),
    ([_, _, _, 12, _, 17, _], 4, 12, False, "already in slot 4"),
    ([_, _, _, 12, _, 17, _], 4, 5, False, "not a time card"),
    ([_, _, _, 12, _, 17, _], 4, 23, False, "not a time card"),
    ([_, _, _, 12, _, 17, _], 7, 14, False, "no slot 7"),
    ([_, _, _, 12, _, 17, _], -1, 14, False, "no slot -1"),
    ([_, _, _, _, _, _, _], 0, 22, True, ""),  # legal, though it blocks the row
])
def test_can_place_table(row, slot, hour, ok, why):
    got_ok, got_why = tat.can_place(row, slot, hour)
    assert got_ok is ok
    assert why in got_why


def test_legal_and_safe_slots():
    row = [_, _, _, 12, _, 17, _]
    assert tat.legal_slots(row, 14) == (4,)
    assert tat.legal_slots(row, 8) == (0, 1, 2)
    assert tat.safe_slots(row, 8) == (0, 1, 2)
    assert tat.safe_slots(row, 7) == (0, 1)  # 7 in slot 2 leaves 2 slots for 06H00 alone
    assert tat.legal_slots(row, 20) == (6,)
    assert tat.legal_slots([6, 7, 8, 9, 10, 11, 12], 15) == ()
    assert tat.safe_slots([_] * 7, 22) == (6,)


# -- engine: places, wins, ghosts -----------------------------------------------------


def test_chloe_completes_her_row_is_asked_about_ghosts_and_wins():
    state = game()
    for slot, hour in CHLOE_STEPS[:-1]:
        state = tat.apply(state, place(CHLOE, slot, hour))
        assert not state.over and state.asking is None
    state = tat.apply(state, place(CHLOE, *CHLOE_STEPS[-1]))
    # the deal is secret: the ghost may be in her hand, so she is asked before anything else
    assert not state.over and state.asking == CHLOE
    state = tat.apply(state, NO_GHOST(CHLOE))
    snap = tat.snapshot(state)
    assert snap["over"] and snap["result"] == "win"
    assert snap["winners"] == [CHLOE] and snap["winner_names"] == ["Chloé"]
    with refused("time_after_time.over"):
        tat.apply(state, place(LUCAS, 0, 6))


def test_full_row_with_a_ghost_waits_until_the_ghost_is_taken():
    state = run(game(), {"type": "ghost", "seat": CHLOE, "delta": 1},
                *[place(CHLOE, s, h) for s, h in CHLOE_STEPS])
    assert not state.over and tat.is_complete(row_of(state, CHLOE))
    # Lucas (Chloé's left-hand neighbour) draws the ghost from her: Chloé wins.
    state = tat.apply(state, {"type": "ghost", "seat": LUCAS, "delta": 1, "from": CHLOE})
    assert state.over and state.winners == (CHLOE,)
    assert state.seats[1].ghosts == 1


def test_opponent_can_win_first_while_a_ghost_is_held():
    state = run(game(), {"type": "ghost", "seat": CHLOE, "delta": 1},
                *[place(CHLOE, s, h) for s, h in CHLOE_STEPS],
                *[place(LUCAS, i, h) for i, h in enumerate([7, 9, 11, 13, 14, 16])])
    assert not state.over
    state = tat.apply(state, place(LUCAS, 6, 22))
    assert state.winners == (LUCAS,)


def test_ghost_counts_are_bounded_and_pass_between_neighbours():
    state = tat.apply(game(3), {"type": "ghost", "seat": CHLOE, "delta": 1})
    state = tat.apply(state, {"type": "ghost", "seat": MARTIN, "delta": 1})
    with refused("time_after_time.all_ghosts_held"):
        tat.apply(state, {"type": "ghost", "seat": LUCAS, "delta": 1})
    # Lucas draws from his right-hand neighbour Chloé, not from Martin
    with refused("time_after_time.draw_from_right"):
        tat.apply(state, {"type": "ghost", "seat": LUCAS, "delta": 1, "from": MARTIN})
    # Chloé's right-hand neighbour is the last player, Martin
    state = tat.apply(state, {"type": "ghost", "seat": CHLOE, "delta": 1, "from": MARTIN})
    assert [s.ghosts for s in state.seats] == [2, 0, 0]


def test_copies_are_counted_across_rows_and_the_box():
    state = run(game(3), place(CHLOE, 3, 12), place(LUCAS, 3, 12))
    with refused("time_after_time.both_copies_out"):
        tat.apply(state, place(MARTIN, 3, 12))
    assert tat.unavailable_hours(state) == (12,)
    assert tat.snapshot(state)["unavailable"] == [12]


def test_discard_only_when_nobody_can_place():
    state = run(game(), *[place(CHLOE, i, h) for i, h in enumerate([6, 8, 10, 12, 15, 17])],
                *[place(LUCAS, i, h) for i, h in enumerate([7, 9, 11, 13, 16, 18])])
    assert tat.seats_that_can_place(state, 14) == ()
    assert tat.seats_that_can_place(state, 21) == (CHLOE, LUCAS)
    with refused("time_after_time.still_placeable"):
        tat.apply(state, {"type": "discard", "seat": LUCAS, "hour": 21})
    state = tat.apply(state, {"type": "discard", "seat": LUCAS, "hour": 14})
    state = tat.apply(state, {"type": "discard", "seat": CHLOE, "hour": 14})
    assert state.discarded == (14, 14) and 14 in tat.unavailable_hours(state)
    with refused("time_after_time.both_copies_out"):
        tat.apply(state, {"type": "discard", "seat": CHLOE, "hour": 14})


# -- draw pile and the tie ------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_draw_pile_counted_from_the_deal_then_a_tie(n):
    state = game(n)
    pile = tat.setup_for(n).draw_pile
    state = tat.apply(state, {"type": "draw_pile", "seat": CHLOE, "count": 2})
    with refused("time_after_time.pile_not_empty"):
        tat.apply(state, {"type": "hand_empty", "seat": LUCAS})
    for _i in range(pile - 2):
        state = tat.apply(state, {"type": "draw_pile"})
    assert state.draw_pile == 0
    with refused("time_after_time.pile_short"):
        tat.apply(state, {"type": "draw_pile"})
    state = tat.apply(state, {"type": "hand_empty", "seat": LUCAS})
    snap = tat.snapshot(state)
    assert snap["over"] and snap["result"] == "tie" and snap["winners"] == []
    assert snap["ended_by"] == LUCAS


def test_hand_with_a_ghost_is_not_empty():
    state = run(game(), {"type": "draw_pile", "count": 21},
                {"type": "ghost", "seat": LUCAS, "delta": 1})
    with refused("time_after_time.holds_ghosts"):
        tat.apply(state, {"type": "hand_empty", "seat": LUCAS})


# -- emergency moves ------------------------------------------------------------------


def test_emergency_move_one_card_at_a_time():
    state = tat.apply(game(), place(CHLOE, 4, 8))  # 4 slots before 08H00: stuck
    state = tat.apply(state, {"type": "emergency_move", "seat": CHLOE, "from": 4, "to": 3})
    assert row_of(state, CHLOE) == (_, _, _, 8, _, _, _)
    state = tat.apply(state, {"type": "emergency_move", "seat": CHLOE, "from": 3, "to": 2})
    assert tat.check_row(row_of(state, CHLOE)) == []
    with refused("time_after_time.not_stuck"):
        tat.apply(state, {"type": "emergency_move", "seat": CHLOE, "from": 2, "to": 1})
    assert state.seats[0].emergency_moves == 2


def test_emergency_move_two_cards():
    state = run(game(), place(CHLOE, 3, 7), place(CHLOE, 4, 8))
    moves = {"type": "emergency_move", "seat": CHLOE,
             "moves": [{"from": 3, "to": 2}, {"from": 4, "to": 3}]}
    state = tat.apply(state, moves)
    assert row_of(state, CHLOE) == (_, _, 7, 8, _, _, _)


@pytest.mark.parametrize(("move", "expected"), [
    ({"from": 4, "to": 2}, "time_after_time.move_one_step"),
    ({"from": 0, "to": 1}, MALFORMED),
    ({"from": 4, "to": 5}, "time_after_time.slot_taken"),
    ({"moves": [{"from": 3, "to": 4}, {"from": 4, "to": 3}]}, "time_after_time.move_breaks_row"),
    ({"moves": [{"from": 3, "to": 2}, {"from": 4, "to": 3}, {"from": 5, "to": 4}]},
     "time_after_time.emergency_count"),
    ({"moves": [{"from": 3, "to": 2}, {"from": 3, "to": 4}]}, "time_after_time.move_twice"),
])
def test_emergency_move_limits(move, expected):
    state = run(game(), place(CHLOE, 3, 7), place(CHLOE, 4, 8), place(CHLOE, 5, 9))
    before = copy.deepcopy(state)
    expect(expected, tat.apply, state, {"type": "emergency_move", "seat": CHLOE, **move})
    assert state == before


# -- bad input: refused or malformed, state unchanged ------------------------------


@pytest.mark.parametrize(("action", "expected", "words"), [
    (place(CHLOE, 3, 14), "time_after_time.cannot_place", "already holds 12H00"),
    (place(CHLOE, 4, 5), "time_after_time.cannot_place", "not a time card"),
    (place(CHLOE, 4, 23), "time_after_time.cannot_place", "not a time card"),
    (place(CHLOE, 7, 14), "time_after_time.cannot_place", "no slot 7"),
    (place(CHLOE, 1, 14), "time_after_time.cannot_place", "left of 12H00"),
    (place(CHLOE, 5, 12), "time_after_time.cannot_place", "already in slot 4"),
    (place(9, 0, 6), "time_after_time.no_such_seat", "seat 9"),
    ({"type": "place", "seat": CHLOE, "slot": 0, "hour": "6"}, MALFORMED, "'hour'"),
    ({"type": "place", "seat": CHLOE, "hour": 6}, MALFORMED, "needs 'slot'"),
    ({"type": "ghost", "seat": CHLOE, "delta": 2}, MALFORMED, "one at a time"),
    ({"type": "ghost", "seat": CHLOE, "delta": -1}, "time_after_time.no_ghost", "holds no ghost"),
    ({"type": "draw_pile", "count": 22}, "time_after_time.pile_short", "holds 21"),
    ({"type": "draw_pile", "count": 0}, MALFORMED, "at least one"),
    ({"type": "discard", "seat": CHLOE, "hour": 14}, "time_after_time.still_placeable",
     "could still place"),
    ({"type": "emergency_move", "seat": CHLOE, "from": 3, "to": 2}, "time_after_time.not_stuck",
     "can still be completed"),
    ({"type": "slap", "seat": CHLOE}, MALFORMED, "no action 'slap'"),
    ({"seat": CHLOE}, MALFORMED, "no 'type'"),
])
def test_bad_input_raises_and_leaves_state_unchanged(action, expected, words):
    state = tat.apply(game(), place(CHLOE, 3, 12))
    before = copy.deepcopy(state)
    error = expect(expected, tat.apply, state, action)
    assert words in str(error)
    assert state == before


# -- statistics across games ----------------------------------------------------------


def test_tally_wins_across_games():
    won = tat.snapshot(run(game(), *[place(CHLOE, s, h) for s, h in CHLOE_STEPS],
                           NO_GHOST(CHLOE)))
    tie = tat.snapshot(run(game(), {"type": "draw_pile", "count": 21},
                           {"type": "hand_empty", "seat": CHLOE}))
    swapped = tat.initial({"players": [{"name": "Lucas", "seat": 1}, {"name": "Chloé", "seat": 2},
                                       {"name": "Martin", "seat": 3}]})
    lucas = tat.snapshot(run(swapped, *[place(1, s, h) for s, h in CHLOE_STEPS], NO_GHOST(1)))
    unfinished = tat.snapshot(game())
    stats = tat.tally_wins(json.loads(json.dumps([won, tie, lucas, unfinished])))
    assert stats["games"] == 4 and stats["finished"] == 3 and stats["ties"] == 1
    assert stats["wins"] == {"Chloé": 1, "Lucas": 1, "Martin": 0}
    assert stats["played"] == {"Chloé": 4, "Lucas": 4, "Martin": 1}
    assert stats["win_rate"]["Chloé"] == 0.25
    with pytest.raises(CompanionError):
        tat.tally_wins([{"game": "professor_tempus"}])


# -- properties -----------------------------------------------------------------------

cells = st.one_of(st.none(), st.integers(0, 30))


@settings(deadline=None, max_examples=300)
@given(st.lists(cells, min_size=7, max_size=7))
def test_accepted_rows_are_strictly_increasing_times(row):
    if tat.check_row(row) == []:
        filled = [h for h in row if h is not None]
        assert all(6 <= h <= 22 for h in filled)
        assert all(a < b for a, b in zip(filled, filled[1:], strict=False))
        # and there are enough hours left for every empty slot
        assert len(filled) + row.count(None) == 7


sorted_rows = st.lists(st.integers(6, 22), max_size=7, unique=True).flatmap(
    lambda hours: st.permutations(sorted(hours) + [None] * (7 - len(hours))).map(
        lambda perm: _ordered(perm, sorted(hours))))


def _ordered(perm, hours):
    it = iter(hours)
    return [None if x is None else next(it) for x in perm]


@settings(deadline=None, max_examples=200)
@given(sorted_rows, st.integers(6, 22))
def test_legal_slots_keep_the_row_ordered(row, hour):
    legal = tat.legal_slots(row, hour)
    for slot in range(7):
        new = list(row)
        if new[slot] is not None:
            assert slot not in legal
            continue
        new[slot] = hour
        ordered = all(p.kind == "stuck" for p in tat.check_row(new))
        assert (slot in legal) == ordered
    for slot in tat.safe_slots(row, hour):
        new = list(row)
        new[slot] = hour
        assert slot in legal and tat.check_row(new) == []


def action_strategy(seats):
    seat = st.sampled_from(seats)
    return st.one_of(
        st.builds(place, seat, st.integers(-1, 7), st.integers(5, 23)),
        st.builds(place, seat, st.integers(0, 6), st.integers(6, 22)),
        st.fixed_dictionaries({"type": st.just("ghost"), "seat": seat,
                               "delta": st.sampled_from([1, -1])}),
        st.fixed_dictionaries({"type": st.just("ghost"), "seat": seat, "delta": st.just(1),
                               "from": seat}),
        st.fixed_dictionaries({"type": st.just("draw_pile"), "count": st.integers(0, 9)}),
        st.fixed_dictionaries({"type": st.just("discard"), "seat": seat,
                               "hour": st.integers(6, 22)}),
        st.fixed_dictionaries({"type": st.just("emergency_move"), "seat": seat,
                               "from": st.integers(0, 6), "to": st.integers(-1, 7)}),
        st.fixed_dictionaries({"type": st.just("hand_empty"), "seat": seat}),
        st.fixed_dictionaries({"type": st.just("ghost_answer"), "seat": seat,
                               "holds_ghost": st.booleans()}),
    )


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 4).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(action_strategy(list(range(1, n + 1))),
                                             max_size=80))))
@pytest.mark.arm64
def test_replay_equals_live_and_apply_never_mutates(case):
    n, actions = case
    start = game(n)
    state, accepted = start, []
    for action in actions:
        before = copy.deepcopy(state)
        try:
            new = tat.apply(state, action)
        except CompanionError:
            assert state == before
            continue
        assert state == before
        accepted.append(json.loads(json.dumps(action)))
        state = new
        totals = tat.on_table(state)
        assert all(v <= 2 for v in totals.values())
        assert sum(s.ghosts for s in state.seats) <= state.deal.ghosts
        assert 0 <= state.draw_pile <= state.deal.draw_pile
        for s in state.seats:
            assert all(p.kind == "stuck" for p in tat.check_row(s.row))
    assert run(start, *accepted) == state
    snap = tat.snapshot(state)
    assert json.loads(json.dumps(snap)) == snap


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 4), st.data())
def test_random_legal_games_end_correctly_and_replay(n, data):
    start = game(n)
    state, accepted = start, []
    seats = [s.player.seat for s in start.seats]
    for _step in range(200):
        if state.over:
            break
        if state.asking is not None:  # a complete row: the player answers, yes or no
            action = {"type": "ghost_answer", "seat": state.asking,
                      "holds_ghost": data.draw(st.booleans())}
            state = tat.apply(state, action)
            accepted.append(action)
            continue
        seat = data.draw(st.sampled_from(seats))
        i = seats.index(seat)
        kind = data.draw(st.sampled_from(["place"] * 16 + ["ghost", "pass", "draw", "empty"]))
        if kind == "place":
            hour = data.draw(st.integers(6, 22))
            slots = tat.legal_slots(state.seats[i].row, hour)
            if not slots or tat.on_table(state)[hour] >= 2:
                continue
            action = place(seat, data.draw(st.sampled_from(slots)), hour)
        elif kind == "ghost":
            action = {"type": "ghost", "seat": seat, "delta": 1}
            if sum(s.ghosts for s in state.seats) >= state.deal.ghosts:
                continue
        elif kind == "pass":
            if state.seats[i - 1].ghosts == 0 and not tat.unaccounted_ghosts(state):
                continue
            action = {"type": "ghost", "seat": seat, "delta": 1, "from": seats[i - 1]}
        elif kind == "draw":
            if state.draw_pile == 0:
                continue
            action = {"type": "draw_pile", "count": data.draw(st.integers(1, 2))}
            if action["count"] > state.draw_pile:
                continue
        else:
            if state.draw_pile or state.seats[i].ghosts:
                continue
            action = {"type": "hand_empty", "seat": seat}
        old, before = state, copy.deepcopy(state)
        state = tat.apply(old, action)  # every action built above is legal
        assert old == before
        accepted.append(action)
    if state.result == "win":
        (winner,) = state.winners
        won = state.seats[seats.index(winner)]
        assert won.ghosts == 0 and tat.is_complete(won.row)
    elif state.result == "tie":
        assert state.draw_pile == 0 and state.winners == ()
    else:  # nobody with a complete row is known to be free of ghosts
        assert not any(s.ghosts == 0 and tat.is_complete(s.row)
                       and s.player.seat != state.asking for s in state.seats)
    assert run(start, *json.loads(json.dumps(accepted))) == state


# -- a winner who may still hold a ghost ------------------------------------------------
# Rulebook, in our words: the deal puts the ghosts into hands, secretly; a player wins as
# soon as they have no ghost in hand and their seven spaces are correctly covered. One who
# completes the row with a ghost in hand places no more cards and plays on; they win once
# their left-hand neighbour has taken every ghost from them, unless an opponent wins first.


def test_a_new_game_knows_no_ghost_in_any_hand_but_every_ghost_is_somewhere():
    state = game(3)
    assert [s.ghosts for s in state.seats] == [0, 0, 0]
    assert tat.unaccounted_ghosts(state) == 2
    assert tat.snapshot(state)["unaccounted_ghosts"] == 2


def test_a_complete_row_with_a_ghost_in_hand_is_no_win_and_play_goes_on():
    state = run(game(3), *[place(CHLOE, s, h) for s, h in CHLOE_STEPS])
    assert state.asking == CHLOE and not state.over
    with refused("time_after_time.answer_first") as info:  # nothing else until she answers
        tat.apply(state, place(LUCAS, 0, 7))
    assert info.value.sentence == ("Chloé's row is complete: Chloé first answers whether a "
                                   "ghost is still in their hand.")
    with refused("time_after_time.not_asked"):  # only she answers, for herself
        tat.apply(state, HOLDS_GHOST(LUCAS))
    state = tat.apply(state, HOLDS_GHOST(CHLOE))
    assert not state.over and state.asking is None
    assert state.seats[0].ghosts == 1 and tat.unaccounted_ghosts(state) == 1
    # Lucas, her left-hand neighbour, draws a ghost from her: she may hold the other one
    state = tat.apply(state, {"type": "ghost", "seat": LUCAS, "delta": 1, "from": CHLOE})
    assert state.asking == CHLOE and not state.over
    state = tat.apply(state, HOLDS_GHOST(CHLOE))  # she still has one
    assert tat.unaccounted_ghosts(state) == 0
    # Lucas takes her last ghost: both are now known to be his, so she wins unasked
    state = tat.apply(state, {"type": "ghost", "seat": LUCAS, "delta": 1, "from": CHLOE})
    assert state.over and state.winners == (CHLOE,) and state.seats[1].ghosts == 2


def test_when_every_ghost_is_known_elsewhere_the_complete_row_wins_without_asking():
    state = run(game(), {"type": "ghost", "seat": LUCAS, "delta": 1},
                *[place(CHLOE, s, h) for s, h in CHLOE_STEPS])
    assert state.over and state.winners == (CHLOE,) and state.asking is None


def test_an_opponent_may_win_before_the_ghost_holder():
    state = run(game(3), *[place(CHLOE, s, h) for s, h in CHLOE_STEPS], HOLDS_GHOST(CHLOE),
                *[place(LUCAS, i, h) for i, h in enumerate([7, 9, 11, 13, 14, 16, 22])])
    assert state.asking == LUCAS  # the second ghost may be in Lucas's hand
    state = tat.apply(state, NO_GHOST(LUCAS))
    assert state.over and state.winners == (LUCAS,)


def test_a_ghost_drawn_from_a_hand_the_companion_knew_nothing_of():
    state = tat.apply(game(), {"type": "ghost", "seat": LUCAS, "delta": 1, "from": CHLOE})
    assert [s.ghosts for s in state.seats] == [0, 1] and tat.unaccounted_ghosts(state) == 0
    with refused("time_after_time.no_ghost_to_give"):  # the only ghost is Lucas's now
        tat.apply(state, {"type": "ghost", "seat": LUCAS, "delta": 1, "from": CHLOE})


def test_an_empty_hand_holds_no_ghost_so_a_complete_row_wins_at_once():
    steps = [place(CHLOE, s, h) for s, h in CHLOE_STEPS]
    state = run(game(), *steps[:-1], {"type": "draw_pile", "count": 21}, steps[-1])
    assert state.asking == CHLOE
    state = run(game(), *steps[:-1], {"type": "draw_pile", "count": 21})
    state = run(state, steps[-1], HOLDS_GHOST(CHLOE))
    with refused("time_after_time.holds_ghosts"):
        tat.apply(state, {"type": "hand_empty", "seat": CHLOE})


def test_a_won_game_is_over_for_the_session():
    state = run(game(), *[place(CHLOE, s, h) for s, h in CHLOE_STEPS])
    assert not tat.is_over(state)
    assert tat.is_over(tat.apply(state, NO_GHOST(CHLOE)))
