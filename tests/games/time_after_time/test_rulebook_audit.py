"""Time After Time: an audit of the engine against the rulebook, rule by rule.

Each test names, in our own words, the rule it checks. Placements are compared with an
independent reading of the row rule; the rulebook's worked examples (Chloé's row,
Lucas, Martin and Nicolas drawing round the table) are replayed through ``apply``.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, refused

from companion.errors import CompanionError
from companion.games import time_after_time as tat

_ = None


def game(*names: str) -> tat.State:
    return tat.initial({"players": [{"name": nm, "seat": i + 1} for i, nm in enumerate(names)]})


def place(seat, slot, hour):
    return {"type": "place", "seat": seat, "slot": slot, "hour": hour}


def ghost(seat, delta=1, **more):
    return {"type": "ghost", "seat": seat, "delta": delta, **more}


def run(state, *actions):
    for a in actions:
        state = tat.apply(state, a)
    return state


def row_of(state, seat):
    return next(s.row for s in state.seats if s.player.seat == seat)


# -- contents and setup -----------------------------------------------------------------


def test_34_time_cards_two_of_each_hour_from_06h00_to_22h00():
    """Contents: 06H00 to 22H00, two copies each."""
    assert tat.TIME_CARDS == 34 == 2 * len(range(tat.FIRST_HOUR, tat.LAST_HOUR + 1))
    assert (tat.FIRST_HOUR, tat.LAST_HOUR, tat.COPIES) == (6, 22, 2)


@pytest.mark.parametrize(("n", "time_cards", "ghosts", "dealt", "pile"), [
    (2, 13, 1, 14, 21),  # one ghost goes back in the box with two players
    (3, 19, 2, 21, 15),
    (4, 26, 2, 28, 8),
])
def test_setup_takes_13_19_or_26_time_cards_with_the_ghosts(n, time_cards, ghosts, dealt,
                                                             pile):
    """Setup: 13 + 1 ghost, 19 + 2, 26 + 2, dealt seven each; the rest is the draw pile."""
    deal = tat.setup_for(n)
    assert (deal.time_cards, deal.ghosts, deal.dealt, deal.per_hand) == (time_cards, ghosts,
                                                                         dealt, 7)
    assert deal.dealt == 7 * n
    state = game(*"ABCD"[:n])
    assert state.draw_pile == pile == 34 - time_cards
    assert tat.unaccounted_ghosts(state) == ghosts
    assert all(s.row == (None,) * 7 for s in state.seats)  # seven "?" spaces each


@pytest.mark.parametrize("n", [1, 5])
def test_only_two_to_four_players(n):
    with pytest.raises(CompanionError):
        game(*[f"P{i}" for i in range(n)])


# -- the row rule -----------------------------------------------------------------------


def test_chloes_example_12_then_17_then_08_and_finally_20():
    """Principle: Chloé places 12H00 first, then 17H00, then 08H00, ... and finally 20H00,
    covering her seven spaces correctly; cards go in any order, anywhere."""
    state = game("Chloé", "Lucas")
    state = tat.apply(state, ghost(2))  # the only ghost is known to be in Lucas's hand
    steps = [(3, 12), (5, 17), (0, 8), (1, 10), (2, 11), (4, 14), (6, 20)]
    for k, (slot, hour) in enumerate(steps):
        state = tat.apply(state, place(1, slot, hour))
        assert state.over is (k == len(steps) - 1)
    assert row_of(state, 1) == (8, 10, 11, 12, 14, 17, 20)
    assert state.result == "win" and state.winners == (1,)


def rulebook_place_ok(row, slot, hour) -> bool:
    """Our reading: an existing hour, a free space, and the times still strictly increase
    from left to right once it is there (the gap between neighbours does not matter)."""
    if not 6 <= hour <= 22 or not 0 <= slot < 7 or row[slot] is not None:
        return False
    new = list(row)
    new[slot] = hour
    filled = [h for h in new if h is not None]
    return all(a < b for a, b in zip(filled, filled[1:], strict=False))


@pytest.mark.parametrize(("row", "slot", "hour", "ok"), [
    ([_, _, _, 12, _, _, _], 4, 22, True),  # any gap between neighbours is fine
    ([_, _, _, 12, _, _, _], 2, 6, True),
    ([_, _, _, 12, _, _, _], 4, 12, False),  # the same time twice never advances
    ([_, _, _, 12, _, _, _], 2, 13, False),  # later time to the left
    ([_, _, _, 12, _, _, _], 4, 11, False),  # earlier time to the right
    ([_, _, 9, _, 10, _, _], 3, 10, False),
    ([6, _, _, _, _, _, 22], 6, 21, False),  # space already covered
    ([_, _, _, _, _, _, _], 0, 5, False),  # no 05H00 card
    ([_, _, _, _, _, _, _], 6, 23, False),
])
def test_times_must_increase_from_left_to_right(row, slot, hour, ok):
    assert rulebook_place_ok(row, slot, hour) is ok
    assert tat.can_place(row, slot, hour)[0] is ok
    state = game("A", "B")
    for i, h in enumerate(row):
        if h is not None:
            state = tat.apply(state, place(1, i, h))
    before = copy.deepcopy(state)
    if ok:
        assert row_of(tat.apply(state, place(1, slot, hour)), 1)[slot] == hour
    else:
        with refused("time_after_time.cannot_place"):
            tat.apply(state, place(1, slot, hour))
        assert state == before


sorted_rows = st.lists(st.integers(6, 22), max_size=6, unique=True).flatmap(
    lambda hours: st.permutations(sorted(hours) + [None] * (7 - len(hours))).map(
        lambda perm: _fill(perm, sorted(hours))))


def _fill(perm, hours):
    it = iter(hours)
    return [None if x is None else next(it) for x in perm]


@settings(deadline=None, max_examples=300)
@given(sorted_rows, st.integers(-1, 7), st.integers(4, 24))
def test_place_agrees_with_an_independent_reading_of_the_row_rule(row, slot, hour):
    assert tat.can_place(row, slot, hour)[0] is rulebook_place_ok(row, slot, hour)


@settings(deadline=None, max_examples=300)
@given(st.lists(st.one_of(st.none(), st.integers(6, 22)), min_size=7, max_size=7))
def test_a_complete_row_is_seven_strictly_increasing_times(row):
    """End: all seven spaces covered, time advancing left to right, no duplicate."""
    expected = None not in row and all(a < b for a, b in zip(row, row[1:], strict=False))
    assert tat.is_complete(row) is expected
    if None not in row and not expected:
        assert {p.kind for p in tat.check_row(row)} <= {"order", "duplicate"}
        assert tat.check_row(row)


def test_a_third_copy_of_an_hour_does_not_exist():
    """Two copies of each time: once both are face up (or in the box), no third."""
    state = run(game("A", "B", "C"), place(1, 0, 7), place(2, 0, 7))
    with refused("time_after_time.both_copies_out"):
        tat.apply(state, place(3, 0, 7))
    state = run(game("A", "B"), place(1, 0, 6), place(1, 1, 7), place(1, 2, 8), place(1, 3, 9),
                place(1, 4, 10), place(1, 5, 11),
                place(2, 0, 12), place(2, 1, 13), place(2, 2, 14), place(2, 3, 15),
                place(2, 4, 16), place(2, 5, 17),
                {"type": "discard", "seat": 1, "hour": 6})
    with refused("time_after_time.both_copies_out"):
        tat.apply(state, {"type": "discard", "seat": 2, "hour": 6})


def test_placing_06h00_in_the_middle_is_allowed_but_leaves_the_row_stuck():
    """Reading: the rulebook's "06H00 at the far left" is advice for anticipating; an
    illogical card is legal (the Emergency Cases exist to repair it), reported as stuck."""
    state = tat.apply(game("A", "B"), place(1, 3, 6))
    assert [p.kind for p in tat.check_row(row_of(state, 1))] == ["stuck"]
    assert tat.safe_slots([_] * 7, 6) == (0,)
    assert tat.safe_slots([_] * 7, 22) == (6,)


# -- drawing round the table: Lucas, Martin and Nicolas ---------------------------------


LUCAS, MARTIN, NICOLAS = 1, 2, 3  # clockwise: Lucas begins, Martin is on his left


def test_lucas_draws_from_nicolas_and_martin_draws_from_lucas():
    """Gameplay example: Lucas begins and draws from his right-hand neighbour Nicolas,
    places 14H00 toward the middle; Martin, on Lucas's left, draws 21H00 from Lucas and
    places it at the far right. Ghosts pass the same way, right to left."""
    state = game("Lucas", "Martin", "Nicolas")
    state = run(state, place(LUCAS, 3, 14), place(MARTIN, 6, 21))
    assert row_of(state, LUCAS)[3] == 14 and row_of(state, MARTIN)[6] == 21
    state = tat.apply(state, ghost(LUCAS, **{"from": NICOLAS}))
    state = tat.apply(state, ghost(MARTIN, **{"from": LUCAS}))
    assert [s.ghosts for s in state.seats] == [0, 1, 0]
    before = copy.deepcopy(state)
    with refused("time_after_time.draw_from_right"):
        tat.apply(state, ghost(LUCAS, **{"from": MARTIN}))
    with refused("time_after_time.draw_from_right"):
        tat.apply(state, ghost(NICOLAS, **{"from": LUCAS}))
    assert state == before


# -- can anyone place it? --------------------------------------------------------------


def test_a_card_nobody_can_place_goes_to_the_box_otherwise_it_stays_in_play():
    """When the drawer cannot place a card and no opponent could, it goes to the box;
    if anyone still could, it stays in play (discard refused)."""
    state = run(game("A", "B"), *[place(1, i, h) for i, h in enumerate([6, 8, 10, 12])],
                *[place(2, i, h) for i, h in enumerate([13, 14, 15])])
    # A cannot place 07H00, B cannot either: to the box
    state = tat.apply(state, {"type": "discard", "seat": 1, "hour": 7})
    assert state.discarded == (7,)
    # 11H00 fits in neither row (no free space between 10H00 and 12H00, none left of
    # 13H00); 20H00 fits in both
    assert tat.seats_that_can_place(state, 11) == ()
    assert tat.seats_that_can_place(state, 20) == (1, 2)
    before = copy.deepcopy(state)
    with refused("time_after_time.still_placeable"):
        tat.apply(state, {"type": "discard", "seat": 1, "hour": 20})
    assert state == before


# -- end of the game ----------------------------------------------------------------------


def test_a_win_ends_the_game_immediately():
    """End: a correct row of seven with no ghost in hand wins at once; nothing after."""
    state = run(game("A", "B"), ghost(2), *[place(1, i, 6 + 2 * i) for i in range(7)])
    assert tat.is_over(state) and state.winners == (1,)
    for action in (place(2, 0, 7), ghost(1, **{"from": 2}), {"type": "draw_pile"},
                   {"type": "hand_empty", "seat": 2}):
        with refused("time_after_time.over"):
            tat.apply(state, action)


def test_a_full_row_with_a_ghost_wins_once_the_left_neighbour_takes_the_ghost():
    """A correct row with a ghost in hand plays on; it wins when the left-hand neighbour
    has drawn every ghost from that hand."""
    state = run(game("A", "B", "C"), ghost(1), ghost(3),
                *[place(1, i, 6 + 2 * i) for i in range(7)])
    assert not state.over and tat.is_complete(row_of(state, 1))
    state = tat.apply(state, ghost(2, **{"from": 1}))  # B sits on A's left
    assert state.over and state.winners == (1,)


def test_an_opponent_can_get_ahead_of_the_ghost_holder():
    state = run(game("A", "B", "C"), ghost(1), ghost(3),
                *[place(1, i, 6 + 2 * i) for i in range(7)],
                *[place(2, i, 7 + 2 * i) for i in range(7)])
    assert state.over and state.winners == (2,)


def test_two_ghosts_must_both_be_taken():
    state = run(game("A", "B", "C"), ghost(1), ghost(1),
                *[place(1, i, 6 + 2 * i) for i in range(7)], ghost(2, **{"from": 1}))
    assert not state.over
    state = tat.apply(state, ghost(2, **{"from": 1}))
    assert state.over and state.winners == (1,)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_exhausted_pile_then_an_empty_hand_is_a_tie(n):
    """Exhausted draw pile: play goes on without drawing until a hand is empty; that ends
    the game, a tie when that player does not meet the victory condition."""
    state = game(*"ABCD"[:n])
    pile = state.draw_pile
    state = tat.apply(state, {"type": "draw_pile", "count": pile - 1})
    with refused("time_after_time.pile_not_empty"):
        tat.apply(state, {"type": "hand_empty", "seat": 2})
    state = tat.apply(state, {"type": "draw_pile"})
    with refused("time_after_time.pile_short"):
        tat.apply(state, {"type": "draw_pile"})
    state = tat.apply(state, {"type": "hand_empty", "seat": 2})
    assert state.over and state.result == "tie" and state.winners == ()
    with refused("time_after_time.over"):
        tat.apply(state, place(1, 0, 6))


def test_with_the_pile_gone_a_correct_row_still_wins_and_an_unfinished_one_ties():
    """After the pile is exhausted a correct row with no ghost still wins at once; the
    hand that runs out without a winning row ends the game in a tie."""
    state = run(game("A", "B"), ghost(2, **{"from": 1}),
                {"type": "draw_pile", "count": 21},
                *[place(1, i, 6 + 2 * i) for i in range(6)])
    state = tat.apply(state, place(1, 6, 22))
    assert state.over and state.winners == (1,)  # the ghost is known to be B's
    state = run(game("A", "B"), {"type": "draw_pile", "count": 21},
                *[place(2, i, 6 + 2 * i) for i in range(6)])
    state = tat.apply(state, {"type": "hand_empty", "seat": 2})
    assert state.over and state.result == "tie"


# -- emergency cases ---------------------------------------------------------------------


@pytest.mark.parametrize(("row", "move", "expected"), [
    # 08H00 in slot 5 leaves four spaces for 06H00 and 07H00: stuck, it may move one step
    ([_, _, _, _, 8, _, _], {"from": 4, "to": 3}, None),
    ([_, _, _, _, 8, _, _], {"from": 4, "to": 5}, None),  # either direction, in order
    ([_, _, _, _, 8, _, _], {"from": 4, "to": 2}, "time_after_time.move_one_step"),
    ([_, _, _, 7, 8, _, _], {"moves": [{"from": 3, "to": 2}, {"from": 4, "to": 3}]}, None),
    ([_, _, 6, 7, 8, _, _], {"moves": [{"from": 2, "to": 1}, {"from": 3, "to": 2},
                                       {"from": 4, "to": 3}]},
     "time_after_time.emergency_count"),  # one or two cards, never three
    ([_, _, _, 7, 8, _, _], {"from": 3, "to": 4}, "time_after_time.slot_taken"),
    ([_, _, _, 7, 8, _, _], {"moves": [{"from": 3, "to": 4}, {"from": 4, "to": 3}]},
     "time_after_time.move_breaks_row"),  # swapping two cards breaks the order
    ([_, _, _, 7, 8, _, _], {"moves": [{"from": 3, "to": 2}, {"from": 3, "to": 4}]},
     "time_after_time.move_twice"),
    ([6, _, _, _, _, _, 22], {"from": 0, "to": 1}, "time_after_time.not_stuck"),  # no error
    ([_, _, _, 7, 8, _, _], {"from": 5, "to": 4}, MALFORMED),  # no card there
])
def test_emergency_moves_one_or_two_cards_one_space_only_when_stuck(row, move, expected):
    """Emergency Cases: only after an obvious error (the row can no longer be completed),
    instead of drawing, move one or two placed cards by one position."""
    state = game("A", "B")
    for i, h in enumerate(row):
        if h is not None:
            state = tat.apply(state, place(1, i, h))
    action = {"type": "emergency_move", "seat": 1, **move}
    if expected is None:
        moved = tat.apply(state, action)
        pairs = move.get("moves", [move])
        for m in pairs:
            assert row_of(moved, 1)[m["to"]] == row[m["from"]]
        assert all(p.kind == "stuck" for p in tat.check_row(row_of(moved, 1)))
    else:
        before = copy.deepcopy(state)
        expect(expected, tat.apply, state, action)
        assert state == before


# -- properties -------------------------------------------------------------------------


@settings(deadline=None, max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(6, 22)), max_size=30))
def test_only_increasing_rows_are_ever_built_and_a_full_one_wins(placements):
    """Whatever is tried, the row the engine keeps is strictly increasing; once seven
    cards are down (and the only ghost is known to be elsewhere) the game is won."""
    state = tat.apply(game("A", "B"), ghost(2))
    for slot, hour in placements:
        row = row_of(state, 1)
        ok = rulebook_place_ok(row, slot, hour)
        try:
            state = tat.apply(state, place(1, slot, hour))
        except CompanionError:
            assert not ok
            continue
        assert ok
        filled = [h for h in row_of(state, 1) if h is not None]
        assert filled == sorted(set(filled))
        assert state.over is (len(filled) == 7)
        if state.over:
            assert state.winners == (1,)
            break
