"""Times: end of a round (+3 / +2 / +1), the scoring track, winners and overrides."""

from __future__ import annotations

import pytest
from refusals import refused

from companion.games import times
from companion.games.times.score import round_points

PLAYERS = [{"name": n, "seat": s} for n, s in (("Ann", 1), ("Ben", 2), ("Cat", 3))]


@pytest.mark.parametrize(
    ("hands", "points"),
    [
        ((1, 4, 5), (3, 2, 1)),  # one winner, one with the most, one in between
        ((1, 1, 5), (3, 3, 1)),  # several players down to one card all get 3
        ((1, 5, 5), (3, 1, 1)),  # several players with the most all get 1
        ((1, 4, 4, 4), (3, 1, 1, 1)),  # the others all tied: they all hold the most
        ((1, 1, 1), (3, 3, 3)),  # everyone down to one card
        ((1, 6), (3, 1)),  # two players
        ((1, 2, 3, 4, 4), (3, 2, 2, 1, 1)),
        ((2, 1, 7, 3), (2, 3, 1, 2)),
    ],
)
def test_round_points(hands, points):
    assert round_points(hands) == points


def right_event(state, year=1250):
    """Ann pink 5 on 1000-1499, Ben pink 3 on 1200-1499: right; Cat blue 1 wrong."""
    for action in (
        {"type": "play", "cards": {"1": "pink5", "2": "pink3", "3": "blue1"}},
        {"type": "place", "seat": 1, "markers": [{"column": "century", "size": 5, "start": 10}]},
        {"type": "place", "seat": 2, "markers": [{"column": "century", "size": 3, "start": 12}]},
        {"type": "place", "seat": 3, "markers": [
            {"column": "century", "size": 1, "start": 14}, {"column": "decade", "size": 1,
                                                              "start": 0}]},
        {"type": "reveal_year", "year": year},
        {"type": "next_event"},
    ):
        state = times.apply(state, action)
    return state


def test_a_full_round_ends_when_someone_is_down_to_one_card():
    state = times.initial({"players": PLAYERS, "target": 10})
    for event in range(1, 5):
        state = right_event(state)
        assert (state.round, state.event, state.hands) == (1, event + 1, (6 - event,) * 2 + (6,))
    state = right_event(state)  # fifth right placement: Ann and Ben at one card
    assert (state.round, state.event, state.phase) == (2, 6, times.PLAY)
    assert state.hands == (6, 6, 6)
    (record,) = state.history
    assert (record.round, record.hands, record.points, record.totals) == (
        1, (1, 1, 6), (3, 3, 1), (3, 3, 1))
    assert state.scores == (3, 3, 1)
    snap = times.snapshot(state)["history"]
    assert snap == [{"round": 1, "seats": [
        {"seat": 1, "hand": 1, "points": 3, "total": 3},
        {"seat": 2, "hand": 1, "points": 3, "total": 3},
        {"seat": 3, "hand": 6, "points": 1, "total": 1}]}]


def test_several_players_reaching_the_target_win_together():
    state = times.initial({"players": PLAYERS, "target": 3})
    for _ in range(5):
        state = right_event(state)
    assert state.phase == times.OVER
    assert state.winners == (1, 2)
    assert times.snapshot(state)["winners"] == [1, 2]
    with refused("times.over") as info:
        times.apply(state, {"type": "play", "cards": {"1": "pink5"}})
    assert info.value.sentence == "The game is over: Ann and Ben won."


def test_winning_needs_the_target_space():
    state = times.initial({"players": PLAYERS, "target": 4})
    for _ in range(5):
        state = right_event(state)
    assert (state.phase, state.scores) == (times.PLAY, (3, 3, 1))
    for _ in range(5):
        state = right_event(state)
    assert (state.phase, state.scores, state.winners) == (times.OVER, (6, 6, 2), (1, 2))
    assert [r.totals for r in state.history] == [(3, 3, 1), (6, 6, 2)]


def test_override_between_events_can_end_the_round():
    state = times.initial({"players": PLAYERS})
    state = times.apply(state, {"type": "override", "seat": 3, "hand": 1,
                                "reason": "Cat discarded two at once by the table's ruling"})
    assert state.history[0].points == (1, 1, 3)
    assert (state.round, state.event, state.hands) == (2, 1, (6, 6, 6))
    assert state.overrides[0].old == 6


def test_override_in_evaluated_phase_waits_for_next_event():
    state = right_event(times.initial({"players": PLAYERS}))
    state = times.apply(state, {"type": "play", "cards": {"1": "pink5", "2": "pink5",
                                                          "3": "blue1"}})
    assert state.phase == times.EVALUATED  # Cat's lone card
    assert state.hands == (5, 5, 5)
    state = times.apply(state, {"type": "override", "seat": 1, "hand": 1, "score": 2,
                                "reason": "recount"})
    assert (state.hands[0], state.scores[0], state.history) == (1, 2, ())
    assert [(o.field, o.old, o.new) for o in state.overrides] == [
        ("hand", 5, 1), ("score", 0, 2)]
    state = times.apply(state, {"type": "next_event"})
    assert state.history[0].points == (3, 1, 1)
    assert state.scores == (5, 1, 1)
