"""The Times screen's view data, without Kivy, on the rulebook's 1299 example."""

from __future__ import annotations

import pytest

from companion.control.times_view import (
    CARD_RGBA,
    Step,
    YearEntry,
    card_buttons,
    chips,
    choosers,
    claims,
    evaluated_heading,
    lanes,
    lay,
    next_chooser,
    outcome_lines,
    override_action,
    place_action,
    placement_steps,
    play_action,
    play_prompt,
    stacks,
    title,
    track_view,
    turn_view,
    winners_text,
)
from companion.games import times
from companion.games.base import check

PLAYERS = [{"name": "Einstein", "seat": 1}, {"name": "Curie", "seat": 2},
           {"name": "Gauss", "seat": 3}, {"name": "Riese", "seat": 4}]
CARDS = {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}


def start(target=15):
    return times.initial({"players": PLAYERS, "target": target})


def act(state, action):
    return times.apply(state, action)


def test_nine_card_buttons_in_turn_order_with_their_colours():
    buttons = card_buttons()
    assert [b.label for b in buttons] == [
        "Pink 5", "Pink 3", "Pink 1", "Blue 5", "Blue 3", "Blue 1",
        "Yellow 5", "Yellow 3", "Yellow 1"]
    assert {b.rgba for b in buttons} == set(CARD_RGBA.values())
    assert buttons[0].rgba != buttons[3].rgba != buttons[6].rgba


def test_choosing_cards_moves_to_the_next_player_and_builds_the_play_action():
    state = start()
    assert choosers(state) == (1, 2, 3, 4)
    choices = {1: "pink5"}
    assert next_chooser(state, choices, after=1) == 2
    assert play_action(state, choices) is None
    choices = {2: "blue1", 3: "yellow3", 4: "yellow1"}
    assert next_chooser(state, choices, after=4) == 1  # wraps round
    choices[1] = "pink5"
    assert next_chooser(state, choices, after=1) is None
    assert play_action(state, choices) == {
        "type": "play", "cards": {"1": "pink5", "2": "blue1", "3": "yellow3", "4": "yellow1"}}


def test_the_1299_example_turn_by_turn():
    state = act(start(), play_action(start(), CARDS))
    assert title(state) == "Round 1 · Event 1"
    view = turn_view(state, [])
    assert view.headline == "Einstein's turn: Pink 5"
    assert view.starts == (10, 11, 12, 13, 14, 15)
    assert not view.may_doubt and not view.may_join
    assert [c.turn for c in chips(state)] == [True, False, False, False]
    pending = lay(state, [], 10)
    state = act(state, place_action(state, pending))

    # Curie must fix the century with the forced pink 1 before her blue 1
    assert placement_steps(state, 2) == (Step("century", 1, True), Step("decade", 1, False))
    view = turn_view(state, [])
    assert view.step.forced and view.step.column == "century"
    assert view.starts == (10, 11, 12, 13, 14)
    assert "forced pink 1" in view.prompt and "Or doubt Einstein" in view.prompt
    assert view.may_doubt
    century, decade, year = lanes(state)
    assert century.active and century.enabled == (10, 11, 12, 13, 14)
    assert not decade.enabled and not year.enabled
    assert [(b.start, b.end, b.seat, b.pending) for b in century.bars] == [(10, 14, 1, False)]
    assert century.spaces[3] == (13, "1300")
    with pytest.raises(ValueError):
        lay(state, [], 15)  # outside Einstein's period
    pending = lay(state, [], 13)
    assert place_action(state, pending) is None  # her own marker is still to come
    view = turn_view(state, pending)
    assert view.step.column == "decade" and not view.step.forced
    assert view.starts == tuple(range(10))
    assert not view.may_doubt, "a half-laid turn cannot turn into a doubt"
    century, decade, _ = lanes(state, pending)
    assert [(b.start, b.pending, b.forced) for b in century.bars] == [
        (10, False, False), (13, True, True)]
    assert decade.active and decade.enabled == tuple(range(10))
    pending = lay(state, pending, 3)
    assert place_action(state, pending) == {"type": "place", "seat": 2, "markers": [
        {"column": "century", "size": 1, "start": 13},
        {"column": "decade", "size": 1, "start": 3}]}
    state = act(state, place_action(state, pending))

    view = turn_view(state, [])
    assert view.headline == "Gauss's turn: Yellow 3" and view.may_doubt
    state = act(state, {"type": "doubt", "seat": 3})
    view = turn_view(state, [])
    assert view.seat == 4 and view.may_join and not view.may_doubt
    assert "join the doubt on Curie" in view.prompt
    assert view.step.column == "year" and view.starts == tuple(range(10))
    state = act(state, place_action(state, lay(state, [], 7)))

    assert state.phase == times.REVEAL
    assert claims(state) == ("Einstein: Pink 5, 1000–1499", "Curie: Blue 1, 1330–1339",
                             "Gauss doubts Curie", "Riese: Yellow 1, 1337")
    entry = YearEntry()
    for d in (2, 9, 9, 5):  # a fourth digit is ignored
        entry = entry.press(d)
    assert entry.text == "1299" and entry.action() == {"type": "reveal_year", "year": 1299}
    state = act(state, entry.action())
    assert evaluated_heading(state, 1299) == "The year was 1299"
    lines = outcome_lines(state)
    assert [(line.name, line.text, line.hand) for line in lines] == [
        ("Einstein", "right: discards Pink 5", 5),
        ("Curie", "wrong: takes Blue 1 back", 6),
        ("Gauss", "right doubt: discards Yellow 3", 5),
        ("Riese", "wrong: takes Yellow 1 back", 6)]
    assert [line.good for line in lines] == [True, False, True, False]


def test_year_entry_needs_three_digits_and_can_erase():
    entry = YearEntry().press(3).press(0)
    assert entry.text == "130_" and entry.year is None and entry.action() is None
    assert entry.erase().text == "13__"
    assert YearEntry().erase().text == "1___"
    assert YearEntry().press(10).text == "1___"
    assert YearEntry("999").year == 1999 and YearEntry("000").year == 1000


def test_a_wrong_doubt_receives_the_doubted_card():
    state = start()
    state = act(state, play_action(state, {1: "pink5", 2: "pink1", 3: "blue5", 4: "yellow5"}))
    state = act(state, place_action(state, lay(state, [], 10)))  # 1000-1499
    state = act(state, {"type": "doubt", "seat": 2})
    state = act(state, {"type": "join_doubt", "seat": 3})
    state = act(state, place_action(state, lay(state, lay(state, lay(state, [], 12), 5), 0)))
    state = act(state, {"type": "reveal_year", "year": 1250})
    texts = {line.name: line.text for line in outcome_lines(state)}
    assert texts["Einstein"] == "right, but doubted: Pink 5 goes to Gauss"
    assert texts["Curie"] == "wrong doubt: takes Pink 1 back"
    assert texts["Gauss"] == "wrong doubt: takes back, gets Einstein's card"
    assert [line.hand for line in outcome_lines(state)][:3] == [5, 6, 7]


def test_cancelled_cards_go_back_and_a_forced_decade_comes_first():
    state = start()
    state = act(state, play_action(state, {1: "pink5", 2: "pink5", 3: "blue3", 4: "yellow1"}))
    state = act(state, place_action(state, lay(state, lay(state, [], 14), 0)))
    assert turn_view(state, []).step.forced  # Riese fixes the decade first
    state = act(state, place_action(state, lay(state, lay(state, [], 0), 2)))
    state = act(state, {"type": "reveal_year", "year": 1402})
    texts = {line.name: line.text for line in outcome_lines(state)}
    assert texts["Einstein"] == texts["Curie"] == "cancelled: takes Pink 5 back"
    assert texts["Gauss"] == "right: discards Blue 3"
    assert texts["Riese"] == "right: discards Yellow 1"


def test_track_after_a_round_and_winners():
    state = start(target=3)
    state = act(state, {"type": "override", "seat": 1, "hand": 1, "reason": "test"})
    # a hand of one in the play phase ends the round at once
    view = track_view(state)
    assert view.round == 1 and view.target == 3
    assert view.points == ((1, 3, 3), (2, 1, 1), (3, 1, 1), (4, 1, 1))
    assert view.positions == ((1, 3), (2, 1), (3, 1), (4, 1))
    assert stacks(view) == {3: [1], 1: [2, 3, 4]}
    assert winners_text(state) == "Einstein wins!"
    assert title(state) == "Game over"
    fresh = track_view(start())
    assert fresh.round is None and stacks(fresh) == {0: [1, 2, 3, 4]}


def test_override_action_needs_a_seat_and_the_engine_a_reason():
    state = start()
    assert override_action(state, None, "hand", 4, "x")[0] is None
    action, _ = override_action(state, 2, "hand", 4, "  ")
    assert check(times, state, action).sentence == "Give a reason for the correction."
    assert override_action(state, 2, "score", 4, " Card dropped ") == (
        {"type": "override", "seat": 2, "score": 4, "reason": "Card dropped"}, "")
    turns = act(state, play_action(state, CARDS))
    action, _ = override_action(turns, 2, "hand", 4, "x")
    assert check(times, turns, action).code == "times.override_between"


def test_prompts_after_cancelled_cards_a_lone_card_and_a_redeal():
    state = start()
    assert play_prompt(state, {}, 1) == "Which card did Einstein play?"
    same = {1: "pink5", 2: "pink5", 3: "blue3", 4: "blue3"}
    state = act(state, play_action(state, same))
    assert play_prompt(state, {}, 2).startswith("All cards cancelled (1 of 3): play again.")
    state = act(state, play_action(state, same))
    state = act(state, play_action(state, same))
    assert state.redeals == 1
    assert play_prompt(state, {}, 2) == "Dealt again, six cards each. Which card did Curie play?"
    state = act(state, play_action(state, {1: "pink5", 2: "pink5", 3: "pink5", 4: "blue1"}))
    assert evaluated_heading(state, None) == "Only Riese's card stands: discarded. Play again."
    assert [line.text for line in outcome_lines(state)] == [
        "cancelled: takes Pink 5 back", "cancelled: takes Pink 5 back",
        "cancelled: takes Pink 5 back", "the only card standing: discards Blue 1"]
    state = act(state, {"type": "next_event"})
    assert play_prompt(state, {}, None).startswith("Same event: play again.")


def test_a_space_that_takes_no_tap_says_why():
    from companion.control import times_view as view
    from companion.games import times

    state = times.initial({"players": [{"name": "Ann", "seat": 1}, {"name": "Bob", "seat": 2}],
                           "target": 15})
    state = times.apply(state, {"type": "play", "cards": {"1": "pink5", "2": "blue1"}})
    assert view.space_refusal(state, [], "decade", 30) == (
        "Not the Decade column: Ann's Pink 5 goes in the Century column.")
    assert view.space_refusal(state, [], "century", 17).startswith(
        "Ann's Pink 5 cannot start at 1700: it must lie inside 1000")
    assert view.space_refusal(state, [], "century", 10) == ""  # a legal start
