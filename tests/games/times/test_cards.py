"""Times: card codes, turn order, cancelling identical cards, the abort and the lone card."""

from __future__ import annotations

import dataclasses

import pytest

from companion.errors import MalformedAction
from companion.games import times
from companion.games.times.cards import (
    CARD_CODES,
    PlayOutcome,
    card_label,
    next_card,
    parse_card,
    resolve_play,
)

PLAYERS = [{"name": n, "seat": s} for n, s in (("Ann", 1), ("Ben", 2), ("Cat", 3), ("Dan", 4))]


def new(n=4):
    return times.initial({"players": PLAYERS[:n]})


def play(*codes):
    return {"type": "play", "cards": {str(i + 1): c for i, c in enumerate(codes)}}


def test_turn_order_is_pink5_to_yellow1():
    assert CARD_CODES == ("pink5", "pink3", "pink1", "blue5", "blue3", "blue1",
                          "yellow5", "yellow3", "yellow1")
    assert [parse_card(c).rank for c in CARD_CODES] == list(range(9))
    assert next_card(parse_card("pink1")) == parse_card("blue5")
    assert next_card(parse_card("yellow1")) is None
    assert parse_card(" Blue3 ").column == "decade"
    assert card_label("yellow5") == "Yellow 5"


@pytest.mark.parametrize("code", ["pink", "pink2", "blue 3", "5", "", None, 5, "yellow10"])
def test_card_codes_that_do_not_exist(code):
    with pytest.raises(MalformedAction, match="seat 3"):
        parse_card(code, 3)


@pytest.mark.parametrize(
    ("cards", "outcome", "active", "cancelled"),
    [
        ({1: "yellow1", 2: "pink3", 3: "blue5"}, "turns", (2, 3, 1), ()),
        ({1: "pink5", 2: "pink5", 3: "blue1", 4: "yellow3"}, "turns", (3, 4), (1, 2)),
        ({1: "pink5", 2: "pink5", 3: "pink5", 4: "blue1"}, "lone_card", (4,), (1, 2, 3)),
        ({1: "blue3", 2: "blue3", 3: "pink1", 4: "pink1"}, "all_cancelled", (), (1, 2, 3, 4)),
        ({1: "blue3", 2: "blue1"}, "turns", (1, 2), ()),
        ({1: "blue3", 2: "blue3"}, "all_cancelled", (), (1, 2)),
        # Same colour, different size, or same size, different colour: no cancel.
        ({1: "pink3", 2: "blue3", 3: "yellow3"}, "turns", (1, 2, 3), ()),
    ],
)
def test_resolve_play(cards, outcome, active, cancelled):
    res = resolve_play({s: parse_card(c) for s, c in cards.items()})
    assert (res.outcome, res.active, res.cancelled) == (PlayOutcome(outcome), active, cancelled)


def test_cancelled_players_sit_the_event_out_and_keep_their_cards():
    state = times.apply(new(), play("pink5", "pink5", "blue1", "yellow3"))
    assert state.phase == times.TURNS
    assert state.played == ((3, "blue1"), (4, "yellow3"))
    assert state.cancelled == ((1, "pink5"), (2, "pink5"))
    assert times.whose_turn(state) == 3
    # The first standing card is blue: it must fix the century itself.
    assert times.required_forced_markers(state, 3) == ("century",)
    state = times.apply(state, {"type": "place", "seat": 3, "markers": [
        {"column": "century", "size": 1, "start": 15},
        {"column": "decade", "size": 1, "start": 0},
    ]})
    state = times.apply(state, {"type": "doubt", "seat": 4})
    state = times.apply(state, {"type": "reveal_year", "year": 1503})
    assert [(r.seat, r.role, r.result) for r in state.results] == [
        (3, "place", "handed_over"), (4, "doubt", "took_back"),
        (1, "cancelled", "took_back"), (2, "cancelled", "took_back")]
    assert state.hands == (6, 6, 5, 7)


def test_all_cancel_plays_again_and_the_third_time_redeals():
    state = dataclasses.replace(new(), hands=(4, 5, 3, 6))
    all_cancel = play("pink5", "pink5", "blue3", "blue3")
    state = times.apply(state, all_cancel)
    assert (state.phase, state.cancel_streak, state.event, state.hands) == (
        times.PLAY, 1, 1, (4, 5, 3, 6))
    assert [r.result for r in state.results] == ["took_back"] * 4
    state = times.apply(state, all_cancel)
    assert state.cancel_streak == 2
    state = times.apply(state, play("yellow1", "yellow1", "pink1", "pink1"))
    assert (state.phase, state.cancel_streak, state.redeals) == (times.PLAY, 0, 1)
    assert state.hands == (6, 6, 6, 6)  # new cards dealt
    assert (state.event, state.round, state.scores, state.history) == (1, 1, (0,) * 4, ())
    assert "dealt again" in state.notice


def test_a_play_that_does_not_all_cancel_breaks_the_streak():
    all_cancel = play("pink5", "pink5", "blue3", "blue3")
    state = times.apply(times.apply(new(), all_cancel), all_cancel)
    state = times.apply(state, play("pink5", "pink5", "pink5", "blue3"))  # lone card
    assert state.cancel_streak == 0
    state = times.apply(state, {"type": "next_event"})
    state = times.apply(times.apply(state, all_cancel), all_cancel)
    assert (state.cancel_streak, state.redeals) == (2, 0)


def test_lone_card_is_discarded_and_the_same_event_is_played_again():
    state = times.apply(new(), play("pink5", "pink5", "pink5", "blue3"))
    assert state.phase == times.EVALUATED
    assert state.hands == (6, 6, 6, 5)
    lone = state.results[0]
    assert (lone.seat, lone.card, lone.role, lone.result, lone.hand_change) == (
        4, "blue3", "lone", "discarded", -1)
    state = times.apply(state, {"type": "next_event"})
    assert (state.phase, state.event, state.round) == (times.PLAY, 1, 1)


def test_lone_card_down_to_one_ends_the_round():
    state = dataclasses.replace(new(3), hands=(2, 4, 4))
    state = times.apply(state, play("blue1", "pink1", "pink1"))
    assert state.hands == (1, 4, 4)
    state = times.apply(state, {"type": "next_event"})
    assert state.history[0].points == (3, 1, 1)
    assert (state.round, state.event, state.hands) == (2, 2, (6, 6, 6))
