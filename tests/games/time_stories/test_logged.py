"""T.I.M.E Stories ``apply_logged``: a resumed game is the game that was played.

``apply_logged`` (what ``GameSession.resume`` uses on our own log) must give the state
``apply`` gives for every action ``apply`` accepted, over the long games of
``tests/longgames.py`` (every state, several seeds) and the rulebook examples (the
conftest of this folder replays every action of the engine's tests both ways too). It
trusts what ``apply`` checked when the action was played, but an action that cannot be
applied at all is still refused. The quick record builders give what the records'
own ``__init__`` gives.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from longgames import SETUPS, long_game
from refusals import malformed, refused

from companion.errors import LogError, MalformedAction, RuleError
from companion.games import time_stories as ts
from companion.games.time_stories import action_test as at
from companion.games.time_stories import model, spaces
from companion.games.time_stories.quick import copier, maker
from companion.session import final_state

PLAYERS = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]
MARIE = {"name": "Marie", "player_seat": 1, "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1},
         "abilities": [{"characteristic": "Glibness", "turn_to_hit": 1}]}
MADELEINE = {"name": "Madeleine", "player_seat": 2, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 2, "Glibness": 1, "Combat": 2},
             "alone": {"Deftness": 1, "Glibness": 0, "Combat": 1},
             "together": {"Deftness": 3, "Glibness": 2, "Combat": 3}}
SETUP = {"players": PLAYERS, "mission": "Asylum", "characters": [MARIE, MADELEINE]}


def both_ways(setup, actions):
    """Play ``actions`` with ``apply`` and with ``apply_logged``; every state must agree."""
    played = logged = ts.initial(setup)
    for i, action in enumerate(actions):
        played = ts.apply(played, action)
        logged = ts.apply_logged(logged, action)
        assert logged == played, f"action {i + 1}: {action!r}"
    return played


def start(space, characteristic, *who, shields=("blank",) * 3, **more):
    return {"type": "test_start", "space": space, "characteristic": characteristic,
            "characters": list(who), "shields": list(shields), **more}


def roll(space, *faces, **more):
    return {"type": "test_roll", "space": space, "faces": list(faces), **more}


KILL = {"type": "damage", "character": "Marie", "amount": 5, "reason": "trap"}

# The rulebook's examples as the table plays them (the engine tests check the numbers;
# here each one is replayed both ways).
RULEBOOK = {
    "the trip from 25 to 23 with a die of 2": [{"type": "travel", "die": 2, "to": "Kitchen"}],
    "killed at 18, back at 11": [{"type": "adjust_tu", "delta": -7, "reason": "card"}, KILL,
                                 {"type": "adjust_tu", "delta": -6, "reason": "card"},
                                 {"type": "stay"}],
    "the cook at space B, then space C for a turn": [
        {"type": "travel", "die": 2, "to": "Kitchen"},
        start("B", "Glibness", "Marie", "Madeleine", shields=("blank",) * 4),
        roll("B", 4, 4, 5, 3, 3), start("C", "Deftness", "Marie", "Madeleine", new_turn=True),
        roll("C", 1, 2, 6, 3, 3)],
    "Madeleine alone and Marie's ability on Glibness": [
        start("A", "Glibness", "Madeleine"), roll("A"),
        {"type": "test_continue", "space": "A", "characters": ["Madeleine", "Marie"]},
        roll("A", 3, 3, 3, 1, 2, modifiers={"turn_to_hit": 1}),
        {"type": "test_abandon", "space": "A"}],
    "a locked fight with riposte and black hearts until everyone is dead": [
        start("A", "Combat", "Marie", "Madeleine", shields=("skull", "heart", "tu", "skull"),
              locked=True),
        roll("A", 1, 1, 2, 3), {"type": "test_continue", "space": "A"}, roll("A", 1)],
    "items, a failed run and the next one": [
        {"type": "gain_item", "item": "Lamp", "holder": "Marie"},
        {"type": "gain_item", "item": "Badge", "agency": True},
        {"type": "give_item", "item": "Badge", "to": "Madeleine"},
        {"type": "end_run", "outcome": "failed_time"},
        {"type": "gain_item", "item": "Rope"}, {"type": "drop_item", "item": "Rope"},
        {"type": "start_run", "starting_tu": 20, "characters": [MARIE]},
        {"type": "set_characters", "characters": [MADELEINE]},
        {"type": "damage", "character": "Madeleine", "amount": 2, "reason": "fall"},
        {"type": "heal", "character": "Madeleine", "amount": 1}, {"type": "stay"},
        {"type": "end_run", "outcome": "successful"}],
}


@pytest.mark.parametrize("name", RULEBOOK)
def test_the_rulebook_examples_replay_to_the_same_state(name):
    both_ways(SETUP, RULEBOOK[name])


@settings(deadline=None, max_examples=12)
@given(st.integers(0, 5), st.integers(1, 600))
def test_long_games_replay_to_the_same_state_at_every_action(seed, n):
    setup, actions = long_game("time_stories", 600, seed)
    both_ways(setup, actions[:n])


def test_a_long_night_resumes_to_the_state_that_was_played():
    setup, actions = long_game("time_stories", 5000)
    rules = ts
    assert final_state(rules, setup, actions, logged=True) == final_state(rules, setup, actions)


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 2**32), st.sampled_from([SETUP, SETUPS["time_stories"]]))
def test_whatever_apply_accepts_apply_logged_gives_the_same(seed, setup):
    """Random actions (a game of 60 from ``seed``), many of them damaged or out of place:
    where ``apply`` accepts, ``apply_logged`` agrees; where it refuses, ``apply_logged``
    refuses too or (for a check it trusts) still gives a state, but never fails in
    another way."""
    rng = random.Random(seed)
    state = ts.initial(setup)
    for _ in range(60):
        action = _some_action(rng, state)
        try:
            new = ts.apply(state, action)
        except (RuleError, MalformedAction):
            with contextlib.suppress(RuleError, MalformedAction):
                ts.apply_logged(state, action)
            continue
        assert ts.apply_logged(state, action) == new
        state = new
        if ts.is_over(state):
            break


def _some_action(rng: random.Random, state) -> dict:
    names = [c.name for c in state.characters] + ["Nobody"]
    if state.tests and rng.random() < 0.7:
        test = rng.choice(state.tests)
        if test.status == "ready" or rng.random() < 0.1:
            dice = ts.dice_for(state, test) + rng.choice([0, 0, 0, 0, 1, -1])
            action = roll(test.space, *(rng.randint(1, 6) for _ in range(max(0, dice))),
                          modifiers={"turn_to_hit": rng.choice([0, 0, 1])})
        elif rng.random() < 0.8:
            action = {"type": "test_continue", "space": test.space,
                      "new_turn": rng.random() < 0.3}
            if rng.random() < 0.3:
                action["characters"] = rng.sample(names, rng.randint(1, len(names)))
        else:
            action = {"type": "test_abandon", "space": test.space}
    else:
        action = rng.choice([
            start(rng.choice("ABC"), rng.choice(["Combat", "Glibness", "Deftness", "Luck"]),
                  *rng.sample(names, rng.randint(1, 2)), new_turn=rng.random() < 0.4,
                  locked=rng.random() < 0.2,
                  shields=[rng.choice(at.SHIELD_KINDS) for _ in range(rng.randint(1, 4))]),
            start(rng.choice("ABC"), "Combat", *names[:-1]),
            {"type": "travel", "die": rng.randint(1, 6), "to_red": rng.random() < 0.3},
            {"type": "stay"}, {"type": "start_run"},
            {"type": "damage", "character": rng.choice(names), "amount": 1, "reason": "trap"},
            {"type": "heal", "character": rng.choice(names), "amount": 1},
            {"type": "gain_item", "item": rng.choice(["Lamp", "Key"]), "agency": True},
        ] + [{"type": "end_run", "outcome": "failed_time"}] * (rng.random() < 0.1))
    if rng.random() < 0.1:  # damage one field
        key = rng.choice(sorted(action))
        action[key] = rng.choice([None, 0, -1, 9, "", "x", [], ["x"], True, 2.5])
    return action


# ----------------------------------------------------------------- trusted, not blind
def test_a_logged_roll_is_not_counted_against_its_dice_again():
    s = ts.apply(ts.initial(SETUP), start("A", "Combat", "Marie", "Madeleine"))
    with malformed("needs 4 dice"):
        ts.apply(s, roll("A", 4, 4))  # one die short: refused when played
    assert ts.apply_logged(s, roll("A", 4, 4)).tests[0].left == ("blank",)


@pytest.mark.parametrize(("action", "refusal"), [
    ({"type": "test_roll", "space": "A", "faces": "4, 4"}, MalformedAction),
    ({"type": "test_roll", "space": "A", "faces": [4, 7]}, MalformedAction),
    ({"type": "test_roll", "space": "A", "faces": [4, True]}, MalformedAction),
    ({"type": "test_roll", "space": "B", "faces": [4, 4, 4]}, RuleError),
    ({"type": "test_roll", "space": "A", "faces": [4], "modifiers": {"turn_to_hit": 2}},
     RuleError),
    ({"type": "test_roll", "space": "A", "faces": [4], "modifiers": []}, MalformedAction),
    (start("B", "Combat", "Marie", "Zed"), RuleError),
    (start("B", "Luck", "Marie"), RuleError),
    (start("B", "Combat", "Marie", shields=["gold"]), MalformedAction),
    (start("B", "Combat", "Marie") | {"characters": "Marie"}, MalformedAction),
    (start("B", "Combat", "Marie") | {"characters": [3]}, MalformedAction),
    (start("B", "Combat") | {"characters": None}, MalformedAction),
    (start("B", "", "Marie"), RuleError),
    ({"type": "test_dance"}, MalformedAction),
    ({"type": ["test_roll"]}, MalformedAction),
    ({"faces": [1]}, MalformedAction),
])
def test_what_cannot_be_applied_at_all_is_still_refused(action, refusal):
    s = ts.apply(ts.initial(SETUP), start("A", "Combat", "Marie", "Madeleine"))
    with pytest.raises(refusal):
        ts.apply_logged(s, action)


def test_a_damaged_row_does_not_replay():
    actions = [start("A", "Combat", "Marie", "Madeleine"), roll("A", 4, 4, 2)]
    final_state(ts, SETUP, actions, logged=True)
    actions[1] = roll("A", 4, 4, "6")
    with pytest.raises(LogError, match="action 2 .*die face"):
        final_state(ts, SETUP, actions, logged=True)


def test_nothing_is_logged_after_the_mission_is_won():
    s = ts.apply(ts.initial(SETUP), {"type": "end_run", "outcome": "successful"})
    with refused("time_stories.mission_complete"):
        ts.apply_logged(s, {"type": "stay"})
    s = ts.apply(ts.initial(SETUP), {"type": "end_run", "outcome": "failed_time"})
    with refused("time_stories.run_over"):
        ts.apply_logged(s, {"type": "stay"})


# ----------------------------------------------------------------- quick records
RECORDS = [
    (model.LogEntry, (1, 2, 25, 23, 2, 2, "travel", "travel to the Kitchen")),
    (model.RollRecord, ("A", "Combat", None, ("Marie",))),
    (at.Test, ("A", "Combat", ("Marie",), ("blank",), ("blank",), False, "ready", 0, None)),
    (at.Loss, ("Marie", 1, 0)),
]


@pytest.mark.parametrize(("cls", "fields"), RECORDS, ids=lambda v: getattr(v, "__name__", ""))
def test_quick_records_are_what_their_init_makes(cls, fields):
    quick, slow = maker(cls)(*fields), cls(*fields)
    assert type(quick) is cls and quick == slow and hash(quick) == hash(slow)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.__setattr__(dataclasses.fields(cls)[0].name, None)


def test_a_draft_freezes_into_an_equal_state_and_leaves_the_original_alone():
    s = both_ways(SETUP, RULEBOOK["the cook at space B, then space C for a turn"])
    d = model.draft(s)
    d.tu -= 1
    assert s.tu == d.tu + 1  # the state the draft came from is untouched
    d.tu += 1
    new = model.freeze(d)
    assert type(new) is model.State and new == s and new is not s and hash(new) == hash(s)
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.tu = 3


def test_only_plain_slotted_records_are_built_quickly():
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    with pytest.raises(TypeError):
        maker(NoSlots)
    with pytest.raises(TypeError):
        copier(model.State, spaces.at.Loss)
