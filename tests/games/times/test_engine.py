"""Times engine: the rulebook's worked examples, doubts, evaluation and bad input."""

from __future__ import annotations

import dataclasses
import json

import pytest
from refusals import MALFORMED, expect, malformed, refused

from companion.errors import CompanionError
from companion.games import times

PLAYERS = [
    {"name": "Einstein", "seat": 1},
    {"name": "Curie", "seat": 2},
    {"name": "Gauss", "seat": 3},
    {"name": "Riese", "seat": 4},
]


def new(players=PLAYERS, **options):
    return times.initial({"players": players, **options})


def run(state, *actions):
    for action in actions:
        state = times.apply(state, action)
    return state


def m(column, size, start):
    return {"column": column, "size": size, "start": start}


def place(seat, *markers):
    return {"type": "place", "seat": seat, "markers": list(markers)}


def play(**cards):
    """play(s1="pink5", s2="blue1") -> a play action keyed by seat numbers as strings."""
    return {"type": "play", "cards": {k[1:]: v for k, v in cards.items()}}


def result_of(state, seat):
    (found,) = [r for r in state.results if r.seat == seat]
    return found


# The rulebook's round: Einstein pink 5 on 1000-1499, Curie blue 1 (forced pink 1 on
# 1300, blue 1 on 30-39), Gauss doubts Curie, Riese yellow 1 refines Curie's period to
# 1337. Gauss's card is not named; any card between blue 1 and yellow 1 fits: yellow 3.
EXAMPLE_CARDS = play(s1="pink5", s2="blue1", s3="yellow3", s4="yellow1")
EXAMPLE_TURNS = (
    place(1, m("century", 5, 10)),
    place(2, m("century", 1, 13), m("decade", 1, 3)),
    {"type": "doubt", "seat": 3},
    place(4, m("year", 1, 7)),
)


def example(*extra):
    return run(new(), EXAMPLE_CARDS, *EXAMPLE_TURNS, *extra)


def test_worked_example_periods():
    state = run(new(), EXAMPLE_CARDS)
    assert times.whose_turn(state) == 1
    state = run(state, EXAMPLE_TURNS[0])
    assert times.period_in_force(state) == (1000, 1499)
    assert times.required_forced_markers(state, 2) == ("century",)
    assert times.legal_starts(state, 2, "century", 1) == (10, 11, 12, 13, 14)
    state = run(state, EXAMPLE_TURNS[1])
    assert times.period_in_force(state) == (1330, 1339)
    assert times.may_doubt(state, 3) and not times.may_join_doubt(state, 3)
    state = run(state, EXAMPLE_TURNS[2])
    # Riese does not join: he refines Curie's period, which needs no forced marker.
    assert times.may_join_doubt(state, 4)
    assert times.required_forced_markers(state, 4) == ()
    assert times.legal_starts(state, 4, "year", 1) == tuple(range(10))
    state = run(state, EXAMPLE_TURNS[3])
    assert [t.period for t in state.turns] == [(1000, 1499), (1330, 1339), None, (1337, 1337)]
    assert state.phase == times.REVEAL


@pytest.mark.parametrize(
    ("seat", "role", "correct", "result", "hand"),
    [
        (1, "place", True, "discarded", 5),  # Einstein: 1000-1499 holds 1299
        (2, "place", False, "took_back", 6),  # Curie: 1330-1339 misses it
        (3, "doubt", True, "discarded", 5),  # Gauss doubted Curie rightly
        (4, "place", False, "took_back", 6),  # Riese: 1337 is wrong
    ],
)
def test_worked_example_evaluation_1299(seat, role, correct, result, hand):
    state = example({"type": "reveal_year", "year": 1299})
    r = result_of(state, seat)
    assert (r.role, r.correct, r.result) == (role, correct, result)
    assert times.hand(state, seat) == hand
    assert state.phase == times.EVALUATED


def test_wrong_doubt_hands_the_card_to_the_doubter():
    state = example({"type": "reveal_year", "year": 1335})
    curie, gauss = result_of(state, 2), result_of(state, 3)
    assert (curie.correct, curie.result, curie.given_to) == (True, "handed_over", 3)
    assert (gauss.correct, gauss.result, gauss.received_from) == (False, "took_back", 2)
    assert [times.hand(state, s) for s in (1, 2, 3, 4)] == [5, 5, 7, 6]


@pytest.mark.parametrize(
    ("year", "hands", "receiver"),
    [
        (1299, [5, 6, 5, 5], None),  # Curie wrong: both doubters discard
        (1335, [5, 5, 6, 7], 4),  # Curie right: the last doubter (Riese) receives her card
    ],
)
def test_joined_doubt(year, hands, receiver):
    state = run(new(), EXAMPLE_CARDS, *EXAMPLE_TURNS[:3], {"type": "join_doubt", "seat": 4},
                {"type": "reveal_year", "year": year})
    assert state.turns[3].target == 2
    assert [times.hand(state, s) for s in (1, 2, 3, 4)] == hands
    assert result_of(state, 2).given_to == receiver
    assert result_of(state, 4).received_from == (2 if receiver else None)
    assert result_of(state, 3).received_from is None


def test_forced_markers_yellow3_after_pink5():
    two = new(PLAYERS[:2])
    state = run(two, play(s1="pink5", s2="yellow3"), place(1, m("century", 5, 10)))
    assert times.required_forced_markers(state, 2) == ("century", "decade")
    assert times.legal_starts(state, 2, "decade", 1) == tuple(range(10))
    assert times.legal_starts(state, 2, "year", 3) == tuple(range(8))
    assert times.legal_starts(state, 2, "decade", 5) == ()  # not one of seat 2's markers
    with malformed("century 1, decade 1, year 3"):
        times.apply(state, place(2, m("year", 3, 5)))
    with malformed("marker 1 must be century 1"):
        times.apply(state, place(2, m("decade", 1, 4), m("century", 1, 12), m("year", 3, 5)))
    state = run(state, place(2, m("century", 1, 12), m("decade", 1, 4), m("year", 3, 5)))
    assert times.period_in_force(state) == (1245, 1247)
    assert [mk.forced for mk in state.board] == [False, True, True, False]


def test_highest_card_in_the_year_column_fixes_century_and_decade():
    state = run(new(PLAYERS[:2]), play(s1="yellow5", s2="yellow1"))
    assert times.whose_turn(state) == 1
    assert times.required_forced_markers(state, 1) == ("century", "decade")
    with refused("times.first_places"):
        times.apply(state, {"type": "doubt", "seat": 1})
    state = run(state, place(1, m("century", 1, 19), m("decade", 1, 9), m("year", 5, 5)))
    assert times.period_in_force(state) == (1995, 1999)
    assert times.legal_starts(state, 2, "year", 1) == (5, 6, 7, 8, 9)


def test_directly_following_card_needs_no_forced_marker_and_same_column_goes_on_top():
    state = run(new(PLAYERS[:3]), play(s1="pink5", s2="pink3", s3="blue5"),
                place(1, m("century", 5, 13)))
    assert times.legal_starts(state, 2, "century", 3) == (13, 14, 15)
    state = run(state, place(2, m("century", 3, 15)))
    assert times.period_in_force(state) == (1500, 1799)
    assert times.required_forced_markers(state, 3) == ("century",)
    state = run(new(PLAYERS[:2]), play(s1="pink1", s2="blue5"), place(1, m("century", 1, 18)))
    assert times.required_forced_markers(state, 2) == ()
    state = run(state, place(2, m("decade", 5, 5)))
    assert times.period_in_force(state) == (1850, 1899)


def test_after_a_doubt_the_next_player_refines_the_last_placer():
    state = run(new(PLAYERS[:3]), play(s1="pink5", s2="pink3", s3="pink1"),
                place(1, m("century", 5, 10)), {"type": "doubt", "seat": 2})
    assert times.legal_starts(state, 3, "century", 1) == (10, 11, 12, 13, 14)
    state = run(state, place(3, m("century", 1, 11)), {"type": "reveal_year", "year": 1150})
    assert [r.result for r in state.results] == ["handed_over", "took_back", "discarded"]
    assert [times.hand(state, s) for s in (1, 2, 3)] == [5, 7, 5]


def turns_state():
    return run(new(), EXAMPLE_CARDS, EXAMPLE_TURNS[0])


BAD = [
    # (name, state factory, action, the refusal's code or MALFORMED, words in the message)
    ("marker off the column", lambda: run(new(), EXAMPLE_CARDS),
     place(1, m("century", 5, 16)), "times.off_the_column", "runs off the century column"),
    ("start below the column", lambda: run(new(), EXAMPLE_CARDS),
     place(1, m("century", 5, 9)), "times.off_the_column", "runs off"),
    ("decade 5-marker past 9", lambda: turns_state(),
     place(2, m("century", 1, 12), m("decade", 1, 10)), "times.off_the_column",
     "runs off the decade column"),
    ("period outside the predecessor's", turns_state,
     place(2, m("century", 1, 16), m("decade", 1, 3)), "times.outside_period",
     "leaves the period in force"),
    ("wrong marker for the card", turns_state,
     place(2, m("century", 1, 13), m("decade", 3, 3)), MALFORMED, "must be decade 1"),
    ("unknown column", turns_state,
     place(2, m("millennium", 1, 1), m("decade", 1, 3)), MALFORMED, "no column"),
    ("start not a number", turns_state,
     place(2, m("century", 1, "13"), m("decade", 1, 3)), MALFORMED, "whole number"),
    ("not your turn", turns_state, place(3, m("year", 3, 0)), "times.not_your_turn",
     "It is Curie's turn with the Blue 1, not Gauss's."),
    ("doubt of someone who is not the predecessor", lambda: run(turns_state(), EXAMPLE_TURNS[1]),
     {"type": "doubt", "seat": 3, "target": 1}, "times.doubt_predecessor",
     "just before them, Curie, not Einstein"),
    ("join when the predecessor placed", lambda: run(turns_state(), EXAMPLE_TURNS[1]),
     {"type": "join_doubt", "seat": 3}, "times.nothing_to_join", "did not doubt"),
    ("doubt a doubter", lambda: run(turns_state(), *EXAMPLE_TURNS[1:3]),
     {"type": "doubt", "seat": 4}, "times.predecessor_doubted",
     "join that doubt or refine Curie's period"),
    ("first player joins", lambda: run(new(), EXAMPLE_CARDS),
     {"type": "join_doubt", "seat": 1}, "times.first_places", "must place"),
    ("reveal too early", turns_state, {"type": "reveal_year", "year": 1299},
     "times.reveal_after_turns", "place or doubt in turn"),
    ("year before 1000", example, {"type": "reveal_year", "year": 999}, "times.year_range",
     "between 1000 and 1999"),
    ("year after 1999", example, {"type": "reveal_year", "year": 2000}, "times.year_range",
     "between 1000 and 1999"),
    ("year as text", example, {"type": "reveal_year", "year": "1299"}, MALFORMED, "wrong type"),
    ("year as bool", example, {"type": "reveal_year", "year": True}, MALFORMED,
     "must be a number"),
    ("card that does not exist", new, play(s1="pink4", s2="blue1", s3="yellow3", s4="yellow1"),
     MALFORMED, "no TIMES card 'pink4'"),
    ("colour that does not exist", new, play(s1="green5", s2="blue1", s3="blue3", s4="blue5"),
     MALFORMED, "seat 1: there is no TIMES card"),
    ("a player missing", new, play(s1="pink5", s2="blue1", s3="yellow3"),
     "times.everyone_plays", "Riese still has to"),
    ("a seat nobody sits at", new,
     play(s1="pink5", s2="blue1", s3="yellow3", s4="yellow1", s7="pink1"), "times.no_such_seat",
     "seat 7"),
    ("a player with no cards", lambda: dataclasses.replace(new(), hands=(6, 0, 6, 6)),
     EXAMPLE_CARDS, "times.no_cards_left", "Curie has no cards left"),
    ("play during turns", turns_state, EXAMPLE_CARDS, "times.reveal_at_start",
     "start of an event"),
    ("next event too early", turns_state, {"type": "next_event"}, "times.judge_first",
     "once this one is judged"),
    ("unknown action", new, {"type": "shuffle"}, MALFORMED, "no action 'shuffle'"),
    ("no type", new, {"seat": 1}, MALFORMED, "no 'type'"),
    ("override mid-event", turns_state,
     {"type": "override", "seat": 1, "hand": 3, "reason": "x"}, "times.override_between",
     "between events"),
    ("override without reason", new, {"type": "override", "seat": 1, "hand": 3, "reason": " "},
     "times.override_reason", "reason"),
    ("override of nothing", new, {"type": "override", "seat": 1, "reason": "x"}, MALFORMED,
     "hand"),
    ("override hand 0", new, {"type": "override", "seat": 1, "hand": 0, "reason": "x"},
     "times.override_range", "1 to 30"),
]


@pytest.mark.parametrize(("name", "factory", "action", "expected", "words"), BAD,
                         ids=[b[0] for b in BAD])
def test_bad_input_is_refused_and_leaves_the_state(name, factory, action, expected, words):
    state = factory()
    before = json.dumps(times.snapshot(state), sort_keys=True)
    error = expect(expected, times.apply, state, action)
    assert words in str(error)
    assert json.dumps(times.snapshot(state), sort_keys=True) == before


@pytest.mark.parametrize(
    "setup",
    [
        {"players": PLAYERS[:1]},
        {"players": [*PLAYERS, {"name": "Newton", "seat": 5}, {"name": "Kepler", "seat": 6}]},
        {"players": PLAYERS, "target": 0},
        {"players": PLAYERS, "target": "15"},
    ],
)
def test_bad_setup(setup):
    with pytest.raises(CompanionError):
        times.initial(setup)


def test_setup_defaults_and_snapshot_is_json():
    state = new()
    assert (state.target, state.hands, state.round, state.event) == (15, (6,) * 4, 1, 1)
    assert new(target=7).target == 7
    snap = example({"type": "reveal_year", "year": 1299})
    data = json.loads(json.dumps(times.snapshot(snap)))
    assert data["period"] == [1337, 1337]
    assert [p["hand"] for p in data["players"]] == [5, 6, 5, 6]
    assert data["results"][1]["result"] == "took_back"
    assert data["turns"][1]["markers"][0] == {"column": "century", "size": 1, "start": 13,
                                              "end": 13, "seat": 2, "forced": True}
    mid = times.snapshot(turns_state())
    assert mid["turn"] == {"seat": 2, "card": "blue1", "forced": ["century"],
                           "may_doubt": True, "may_join_doubt": False}


def test_override_sets_a_hand_with_a_logged_reason():
    state = example({"type": "reveal_year", "year": 1335},
                    {"type": "override", "seat": 3, "hand": 6, "reason": "Gauss keeps his own"})
    assert times.hand(state, 3) == 6
    (entry,) = state.overrides
    assert (entry.seat, entry.field, entry.old, entry.new) == (3, "hand", 7, 6)
    assert entry.reason == "Gauss keeps his own"
    state = run(state, {"type": "next_event"})
    assert (state.phase, state.event) == (times.PLAY, 2)
