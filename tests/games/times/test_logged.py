"""Times: ``apply_logged`` (resuming from our own log) gives ``apply``'s state exactly.

Tables of rulebook-style events and the long games of ``tests/longgames.py`` replayed
both ways, state by state; Hypothesis over long games of any seed and length, and over
damaged actions: ``apply_logged`` refuses whatever ``apply`` refuses, with the same
code, except the Time Table checks of a well-formed placement, which it trusts.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from longgames import long_game

from companion.errors import CompanionError, LogError, RuleError
from companion.games import times
from companion.session import final_state

PLAYERS = [{"name": n, "seat": s} for s, n in enumerate(["Ada", "Bea", "Cal", "Dov"], 1)]


def new(n=4, **options):
    return times.initial({"players": PLAYERS[:n], **options})


def m(column, size, start):
    return {"column": column, "size": size, "start": start}


def place(seat, *markers):
    return {"type": "place", "seat": seat, "markers": list(markers)}


def play(*codes, keys=None):
    """play("pink5", "blue1") -> cards for seats 1, 2, ... keyed as the log keys them."""
    keys = keys or [str(s) for s in range(1, len(codes) + 1)]
    return {"type": "play", "cards": dict(zip(keys, codes, strict=True))}


def reveal(year):
    return {"type": "reveal_year", "year": year}


NEXT = {"type": "next_event"}


def both_ways(state, actions):
    """Replay ``actions`` (as the log gives them back) with apply and with apply_logged,
    checking the two states agree after every action; returns the last state."""
    checked = logged = state
    for i, action in enumerate(json.loads(json.dumps(actions)), 1):
        checked = times.apply(checked, action)
        logged = times.apply_logged(logged, action)
        assert logged == checked, f"action {i}: {action}"
    return logged


# Events in the rulebook's manner (our own numbers): each is played to its end.
EVENTS = {
    "a century, then a decade with its forced century": [
        play("pink5", "blue1", "yellow3", "yellow1"),
        place(1, m("century", 5, 10)), place(2, m("century", 1, 13), m("decade", 1, 3)),
        {"type": "doubt", "seat": 3}, place(4, m("year", 1, 7)), reveal(1299), NEXT],
    "a wrong doubt hands the card over": [
        play("pink5", "blue1", "yellow3", "yellow1"),
        place(1, m("century", 5, 10)), place(2, m("century", 1, 13), m("decade", 1, 3)),
        {"type": "doubt", "seat": 3, "target": 2}, {"type": "join_doubt", "seat": 4},
        reveal(1335), NEXT],
    "two forced markers before a yellow 3": [
        play("pink5", "yellow3", "pink3", "blue5"),
        place(1, m("century", 5, 10)), place(3, m("century", 3, 12)),
        place(4, m("century", 1, 12), m("decade", 5, 4)),
        place(2, m("decade", 1, 6), m("year", 3, 2)), reveal(1262), NEXT],
    "the same column goes on top": [
        play("pink5", "pink3", "pink1", "yellow1"),
        place(1, m("century", 5, 13)), place(2, m("century", 3, 15)),
        {"type": "doubt", "seat": 3}, place(4, m("century", 1, 16), m("decade", 1, 0),
                                              m("year", 1, 4)), reveal(1604), NEXT],
    "identical cards cancel, the rest play": [
        play("blue3", "blue3", "pink1", "yellow5"),
        place(3, m("century", 1, 19)), place(4, m("decade", 1, 9), m("year", 5, 0)),
        reveal(1999), NEXT],
    "one card stands alone": [play("pink1", "pink1", "yellow5", "pink1"), NEXT,
                              play("blue3", "blue3", "pink5", "yellow1")],
    "all cancelled three times: dealt again": [play("pink1", "pink1", "blue3", "blue3")] * 3,
    "cards keyed and spelled otherwise": [
        play(" Pink5", "BLUE1", "yellow3", "yellow1", keys=["1", " 2", "03", "4"]),
        place(1, m("century", 5, 10)), place(2, m("century", 1, 13), m("decade", 1, 3)),
        {"type": "doubt", "seat": 3}, place(4, m("year", 1, 7)), reveal(1337), NEXT],
    "corrections between events": [
        {"type": "override", "seat": 2, "hand": 3, "score": 4, "reason": "miscounted"},
        play("pink5", "blue1", "yellow3", "yellow1"), place(1, m("century", 5, 15)),
        {"type": "doubt", "seat": 2}, {"type": "join_doubt", "seat": 3},
        place(4, m("century", 1, 15), m("decade", 1, 5), m("year", 1, 5)), reveal(1555),
        {"type": "override", "seat": 1, "hand": 1, "reason": "a card under the box"}, NEXT],
}


@pytest.mark.parametrize("name", EVENTS)
def test_rulebook_events_give_equal_states(name):
    both_ways(new(), EVENTS[name])


def test_a_round_scored_and_the_game_won_give_equal_states():
    two = new(2, target=3)
    event = [play("pink5", "blue1"), place(1, m("century", 5, 10)),
             place(2, m("century", 1, 12), m("decade", 1, 2)), reveal(1225), NEXT]
    state = both_ways(two, event * 5)
    assert state.phase == times.OVER and state.history
    with pytest.raises(RuleError) as checked:
        times.apply(state, NEXT)
    with pytest.raises(RuleError) as logged:
        times.apply_logged(state, NEXT)
    assert logged.value.code == checked.value.code == "times.over"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_long_games_give_equal_states_after_every_action(seed):
    setup, actions = long_game("times", 1500, seed)
    state = both_ways(times.initial(setup), actions)
    assert state == final_state(times, setup, actions, logged=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(1, 300))
def test_any_long_game_gives_equal_states(seed, n):
    setup, actions = long_game("times", n, seed)
    both_ways(times.initial(setup), actions)


# ------------------------------------------------------------------- damage is refused

def at_turns():
    return both_ways(new(), [play("pink5", "blue1", "yellow3", "yellow1"),
                             place(1, m("century", 5, 10))])


DAMAGED = [
    # (name, state factory, action): apply refuses each; so must apply_logged
    ("unknown type", new, {"type": "shuffle"}),
    ("no type", new, {"cards": {}}),
    ("type not text", new, {"type": ["play"]}),
    ("not an object", new, ["play"]),
    ("cards not an object", new, {"type": "play", "cards": ["pink5"]}),
    ("a card that does not exist", new, play("pink5", "blue1", "yellow3", "pink4")),
    ("a card not text", new, play("pink5", "blue1", "yellow3", 5)),
    ("a seat nobody sits at", new, play("pink5", "blue1", "yellow3", "yellow1", "pink1")),
    ("a seat named twice", new, play("pink5", "blue1", "yellow3", "yellow1",
                                     keys=["1", "2", "3", "03"])),
    ("a player missing", new, play("pink5", "blue1", "yellow3")),
    ("a player with no cards", lambda: dataclasses.replace(new(), hands=(6, 0, 6, 6)),
     play("pink5", "blue1", "yellow3", "yellow1")),
    ("one with no cards plays instead of one with cards",
     lambda: dataclasses.replace(new(), hands=(6, 0, 6, 6)), play("pink5", "blue1", "yellow3")),
    ("play during turns", at_turns, play("pink5", "blue1", "yellow3", "yellow1")),
    ("place before the cards", new, place(1, m("century", 5, 10))),
    ("not their turn", at_turns, place(3, m("year", 3, 0))),
    ("seat as text", at_turns, {"type": "place", "seat": "2",
                                "markers": [m("century", 1, 13), m("decade", 1, 3)]}),
    ("seat as bool", lambda: both_ways(new(), [play("pink5", "blue1", "yellow3",
                                                    "yellow1")]),
     {"type": "place", "seat": True, "markers": [m("century", 5, 10)]}),
    ("no markers", at_turns, {"type": "place", "seat": 2}),
    ("markers not a list", at_turns, {"type": "place", "seat": 2, "markers": "13"}),
    ("an empty list", at_turns, place(2)),
    ("the forced marker missing", at_turns, place(2, m("decade", 1, 3))),
    ("one marker too many", at_turns,
     place(2, m("century", 1, 13), m("decade", 1, 3), m("year", 1, 3))),
    ("the card's marker twice", at_turns,
     place(2, m("century", 1, 13), m("decade", 1, 3), m("decade", 1, 4))),
    ("markers out of order", at_turns, place(2, m("decade", 1, 3), m("century", 1, 13))),
    ("the wrong marker for the card", at_turns, place(2, m("century", 1, 13), m("decade", 3, 3))),
    ("an unknown column", at_turns, place(2, m("millennium", 1, 1), m("decade", 1, 3))),
    ("a marker not an object", at_turns, place(2, [13], m("decade", 1, 3))),
    ("start as text", at_turns, place(2, m("century", 1, "13"), m("decade", 1, 3))),
    ("start as a fraction", at_turns, place(2, m("century", 1, 13.0), m("decade", 1, 3))),
    ("size as text", at_turns, place(2, m("century", "1", 13), m("decade", 1, 3))),
    ("off the column", at_turns, place(2, m("century", 1, 13), m("decade", 1, 10))),
    ("below the column", at_turns, place(2, m("century", 1, 9), m("decade", 1, 3))),
    ("doubt the first card", lambda: both_ways(new(), [play("pink5", "blue1", "yellow3",
                                                            "yellow1")]),
     {"type": "doubt", "seat": 1}),
    ("reveal too early", at_turns, reveal(1299)),
    ("a year out of range", lambda: both_ways(new(), EVENTS[
        "a century, then a decade with its forced century"][:5]), reveal(2000)),
    ("override mid-event", at_turns, {"type": "override", "seat": 1, "hand": 3, "reason": "x"}),
]


@pytest.mark.parametrize(("name", "factory", "action"), DAMAGED, ids=[d[0] for d in DAMAGED])
def test_damaged_actions_are_refused_as_apply_refuses_them(name, factory, action):
    state = factory()
    with pytest.raises(CompanionError) as checked:
        times.apply(state, action)
    with pytest.raises(CompanionError) as logged:
        times.apply_logged(state, action)
    assert type(logged.value) is type(checked.value)
    assert str(logged.value) == str(checked.value)


def test_what_is_trusted_is_the_time_table_check_of_a_well_formed_placement():
    """A placement outside the period in force, or a marker laid twice, is refused when
    played; read back from our own log it is taken as it was recorded."""
    state = at_turns()
    outside = place(2, m("century", 1, 16), m("decade", 1, 3))
    with pytest.raises(RuleError, match="period in force"):
        times.apply(state, outside)
    assert times.apply_logged(state, outside).board[-2].start == 16


def test_a_damaged_row_in_a_resume_names_its_position():
    setup, actions = long_game("times", 60)
    broken = [dict(a) for a in actions]
    i = next(i for i, a in enumerate(broken) if a["type"] == "place")
    broken[i]["markers"] = [dict(broken[i]["markers"][0], column="era")]
    with pytest.raises(LogError, match=f"action {i + 1} .*does not replay"):
        final_state(times, setup, broken, logged=True)


MARKER = st.fixed_dictionaries({
    "column": st.sampled_from(["century", "decade", "year", "era"]),
    "size": st.sampled_from([1, 3, 5, 2, "1"]),
    "start": st.one_of(st.integers(-2, 21), st.just("3"), st.just(4.0))})
JUNK = st.one_of(
    st.fixed_dictionaries({"type": st.just("place"), "seat": st.integers(0, 5),
                           "markers": st.lists(MARKER, max_size=4)}),
    st.fixed_dictionaries({"type": st.just("play"), "cards": st.dictionaries(
        st.sampled_from(["1", "2", "3", "4", " 1", "9", "x"]),
        st.sampled_from(["pink5", "blue1", "yellow3", "Pink5", "pink2", "", 5]),
        max_size=5)}),
    st.fixed_dictionaries({"type": st.sampled_from(
        ["doubt", "join_doubt", "reveal_year", "next_event", "override", "bogus"])},
        optional={"seat": st.one_of(st.integers(0, 5), st.booleans()),
                  "target": st.integers(0, 5), "year": st.integers(990, 2010),
                  "hand": st.integers(-1, 31), "reason": st.text(max_size=3)}),
)


def well_formed_placement(state, action):
    """A 'place' by the seat whose turn it is, every marker a known one on its column:
    what apply_logged takes without the Time Table checks."""
    if state.phase != times.TURNS or action.get("type") != "place":
        return False
    if action.get("seat") != times.whose_turn(state):
        return False
    return all(type(mk["size"]) is int and type(mk["start"]) is int
               and mk["column"] in ("century", "decade", "year") and mk["size"] in (1, 3, 5)
               for mk in action["markers"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 400), JUNK)
def test_junk_is_refused_alike_or_applied_alike(k, action):
    setup, actions = long_game("times", 401)
    state = times.initial(setup)
    for a in actions[:k]:
        state = times.apply(state, a)
    action = json.loads(json.dumps(action))
    try:
        checked = times.apply(state, action)
    except CompanionError as refusal:
        try:
            times.apply_logged(state, action)
        except CompanionError as again:
            assert (type(again), str(again)) == (type(refusal), str(refusal))
        else:
            assert isinstance(refusal, RuleError) and well_formed_placement(state, action)
        return
    assert times.apply_logged(state, action) == checked
