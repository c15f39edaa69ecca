"""Times: properties over random legal games (and random junk actions) with Hypothesis."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError
from companion.games import times
from companion.games.times.cards import CARD_CODES, parse_card
from companion.games.times.table import Marker, period, within
from companion.games.times.table import legal_starts as board_starts

SETTINGS = settings(deadline=None, max_examples=60,
                    suppress_health_check=[HealthCheck.too_slow])


def setup(n):
    return {"players": [{"name": f"P{s}", "seat": s} for s in range(1, n + 1)], "target": 6}


def draw_place(data, state, seat):
    """A random legal 'place' for ``seat``, built from the helpers the UI uses."""
    card = parse_card(dict(state.played)[seat])
    board, markers = state.board, []
    wanted = [(c, 1) for c in times.required_forced_markers(state, seat)]
    wanted.append((card.column, card.size))
    for i, (column, size) in enumerate(wanted):
        starts = board_starts(board, column, size)
        if i == 0:  # before any marker of this turn, the UI helper must agree
            assert times.legal_starts(state, seat, column, size) == starts
        assert starts, f"no room for {column} {size} on {board}"
        start = data.draw(st.sampled_from(starts))
        markers.append({"column": column, "size": size, "start": start})
        board = (*board, Marker(column, size, start, seat))
    return {"type": "place", "seat": seat, "markers": markers}


def draw_turn(data, state):
    seat = times.whose_turn(state)
    options = ["place"]
    if times.may_doubt(state, seat):
        options.append("doubt")
    if times.may_join_doubt(state, seat):
        options.append("join_doubt")
    kind = data.draw(st.sampled_from(options))
    if kind == "place":
        return draw_place(data, state, seat)
    return {"type": kind, "seat": seat}


def draw_action(data, state):
    """One random legal action for any phase but OVER."""
    if state.phase == times.PLAY:
        cards = {str(p.seat): data.draw(st.sampled_from(CARD_CODES)) for p in state.players}
        return {"type": "play", "cards": cards}
    if state.phase == times.TURNS:
        return draw_turn(data, state)
    if state.phase == times.REVEAL:
        # Often a year inside the tightest period, so that rounds do come to an end.
        lo, hi = times.period_in_force(state)
        year = data.draw(st.one_of(st.integers(lo, hi), st.integers(1000, 1999)))
        return {"type": "reveal_year", "year": year}
    if data.draw(st.integers(0, 9)) == 0:
        seat = data.draw(st.sampled_from([p.seat for p in state.players]))
        return {"type": "override", "seat": seat, "hand": data.draw(st.integers(1, 8)),
                "reason": "table ruling"}
    return {"type": "next_event"}


@SETTINGS
@given(st.data(), st.integers(2, 5))
def test_random_legal_games(data, n):
    state = times.initial(setup(n))
    log = []
    for _ in range(data.draw(st.integers(1, 80))):
        if state.phase == times.OVER:
            break
        action = draw_action(data, state)
        before = json.dumps(times.snapshot(state), sort_keys=True)
        new = times.apply(state, action)
        # apply never mutates its input
        assert json.dumps(times.snapshot(state), sort_keys=True) == before
        log.append(action)
        # A placement lies within every period placed earlier in the event.
        if action["type"] == "place":
            mine = new.turns[-1].period
            assert mine == period(new.board)
            for earlier in new.turns[:-1]:
                if earlier.period is not None:
                    assert within(mine, earlier.period)
        # Cards only move between players or to the discard pile.
        if action["type"] == "reveal_year":
            assert sum(new.hands) <= sum(state.hands)
            assert all(r.hand_change in (-1, 0, 1) for r in new.results)
        same_deal = (new.round, new.redeals) == (state.round, state.redeals)
        if same_deal and action["type"] != "override":
            assert sum(new.hands) <= sum(state.hands)
        assert min(new.hands) >= 1
        if new.phase == times.PLAY:
            assert min(new.hands) >= 2
        state = new
    event(f"rounds scored: {len(state.history)}")
    for record in state.history:
        assert 3 in record.points and set(record.points) <= {1, 2, 3}
    # Replaying the log gives the same state, and the snapshot is plain JSON.
    replayed = times.initial(setup(n))
    for action in json.loads(json.dumps(log)):
        replayed = times.apply(replayed, action)
    assert replayed == state
    assert json.loads(json.dumps(times.snapshot(state))) == times.snapshot(state)


JUNK = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "place", "doubt", "join_doubt", "reveal_year",
                              "next_event", "override", "bogus"])},
    optional={
        "seat": st.one_of(st.integers(-1, 9), st.text(max_size=2), st.booleans()),
        "year": st.one_of(st.integers(900, 2100), st.text(max_size=4)),
        "cards": st.dictionaries(st.sampled_from(["1", "2", "3", "9", "x"]),
                                 st.sampled_from([*CARD_CODES, "pink2", "", 5]), max_size=4),
        "markers": st.lists(st.fixed_dictionaries({
            "column": st.sampled_from(["century", "decade", "year", "era"]),
            "size": st.sampled_from([1, 3, 5, 2]),
            "start": st.integers(-2, 21)}), max_size=3),
        "target": st.integers(0, 4),
        "hand": st.integers(-1, 40),
        "reason": st.text(max_size=5),
    },
)


@SETTINGS
@given(st.data())
def test_junk_actions_are_rule_errors_or_legal_and_never_mutate(data):
    state = times.initial(setup(3))
    for _ in range(data.draw(st.integers(1, 30))):
        if state.phase == times.OVER:
            break
        if data.draw(st.booleans()):
            state = times.apply(state, draw_action(data, state))
            continue
        action = data.draw(JUNK)
        before = json.dumps(times.snapshot(state), sort_keys=True)
        try:
            new = times.apply(state, action)
        except CompanionError:
            new = state
        assert json.dumps(times.snapshot(state), sort_keys=True) == before
        assert min(new.hands) >= 1
        state = new
