"""T.I.M.E Stories engine: time units, runs, characters, items, and whole-game properties.

Rulebook examples: the trip from 25 to 23 TU with a captain die of 2, and the character
killed at 18 TU who comes back at 11. Properties: TU never negative, replay equals live
state, apply never mutates, illegal actions are RuleErrors that leave the state alone.
"""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, malformed, refused

from companion.errors import CompanionError
from companion.games import time_stories as ts

PLAYERS = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]
MARIE = {"name": "Marie", "player_seat": 1, "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1}}
MADELEINE = {"name": "Madeleine", "player_seat": 2, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 2, "Glibness": 1, "Combat": 2}}


def game(**setup):
    return ts.initial({"players": PLAYERS, "mission": "Asylum",
                       "characters": [MARIE, MADELEINE]} | setup)


def run(state, *actions):
    for a in actions:
        state = ts.apply(state, a)
    return state


def who(state, name):
    return next(c for c in state.characters if c.name == name)


def adjust(delta, reason="test"):
    return {"type": "adjust_tu", "delta": delta, "reason": reason}


def kill(name):
    return {"type": "damage", "character": name, "amount": 5, "reason": "trap"}


# ----------------------------------------------------------------- the TU tracker
def test_rulebook_trip_from_25_to_23_with_a_die_of_2():
    s = game()
    assert s.tu == 25 and s.run.number == 1
    s = ts.apply(s, {"type": "travel", "die": 2, "to": "Kitchen"})
    assert s.tu == 23
    entry = s.log[-1]
    assert (entry.run, entry.turn, entry.tu_before, entry.tu_after) == (1, 1, 25, 23)
    assert entry.amount == 2
    assert "captain die 2" in entry.text and "Kitchen" in entry.text


@pytest.mark.parametrize(("die", "red", "cost"),
                         [(1, False, 1), (2, False, 2), (5, False, 2), (6, False, 3),
                          (1, True, 3), (3, True, 4), (6, True, 5)])
def test_travel_costs_the_captain_die_plus_two_from_a_red_location(die, red, cost):
    s = ts.apply(game(), {"type": "travel", "die": die, "red": red})
    assert s.tu == 25 - cost
    assert ("red-lettered departure" in s.log[-1].reason) is red


def test_the_red_letters_of_the_departure_location_are_remembered():
    s = ts.apply(game(), {"type": "travel", "die": 1, "to": "Crypt", "to_red": True})
    assert s.tu == 24  # arriving at a red-lettered location costs nothing extra
    s2 = ts.apply(s, {"type": "travel", "die": 1, "to": "Hall"})
    assert s2.tu == 21 and "from Crypt to Hall" in s2.log[-1].reason
    assert ts.apply(s2, {"type": "travel", "die": 1}).tu == 20  # the Hall is black-lettered
    assert ts.apply(s, {"type": "travel", "die": 1, "red": False}).tu == 23  # host's override


def test_stay_costs_one_tu_for_the_whole_group():
    s = run(game(), {"type": "stay"}, {"type": "stay", "reason": "search space C"})
    assert s.tu == 23 and s.turn == 2
    assert "search space C" in s.log[-1].text


def test_tu_stops_at_zero_logs_the_real_amount_and_fails_the_run():
    s = run(game(starting_tu=2), {"type": "travel", "die": 6})
    spend = next(e for e in s.log if e.kind == "travel")
    assert s.tu == 0 and (spend.amount, spend.asked) == (2, 3)
    assert "(asked 3)" in spend.text
    assert s.run.outcome == "failed_time" and not s.running
    with refused("time_stories.run_over"):
        ts.apply(s, {"type": "stay"})


def test_adjust_tu_needs_a_reason_and_a_change():
    s = game()
    with refused("time_stories.missing") as info:
        ts.apply(s, {"type": "adjust_tu", "delta": -2})
    assert info.value.sentence == "Choose a reason first."
    with refused("time_stories.missing"):
        ts.apply(s, {"type": "adjust_tu", "delta": -2, "reason": "  "})
    with refused("time_stories.zero_correction"):
        ts.apply(s, adjust(0))
    s = run(s, adjust(-3, "forgot the last stay"), adjust(1, "miscounted"))
    assert s.tu == 23
    assert [e.amount for e in s.log[-2:]] == [3, -1]
    assert "forgot the last stay" in s.log[-2].text


def test_burndown_points_follow_the_turns():
    s = run(game(), {"type": "travel", "die": 2}, {"type": "stay"}, adjust(-2), {"type": "stay"})
    assert ts.burndown(s) == ((0, 25), (1, 23), (2, 20), (3, 19))
    with malformed():
        ts.burndown(s, run=4)


# ----------------------------------------------------------------- death and revival
def test_rulebook_killed_at_18_comes_back_at_11():
    s = run(game(), adjust(-7), kill("Marie"))
    marie = who(s, "Marie")
    assert marie.dead and marie.tu_at_death == 18
    assert ts.comes_back_at(s, "Marie") == 11
    assert "comes back at 11 TU" in s.log[-1].text
    s = run(s, adjust(-6))
    assert s.tu == 12 and who(s, "Marie").dead
    s = ts.apply(s, {"type": "stay"})
    assert s.tu == 11
    assert who(s, "Marie").life == 2 and not who(s, "Marie").dead
    assert s.log[-1].kind == "revival"


def test_revival_when_a_spend_jumps_past_the_revival_time():
    s = run(game(), adjust(-7), kill("Marie"), adjust(-6), {"type": "travel", "die": 6})
    assert s.tu == 9 and not who(s, "Marie").dead


def test_no_revival_without_seven_tu_left():
    s = run(game(starting_tu=7), kill("Madeleine"))
    assert ts.comes_back_at(s, "Madeleine") is None
    assert "cannot come back" in s.log[-1].text
    s = run(s, adjust(-6))
    assert s.tu == 1 and who(s, "Madeleine").dead
    s = run(s, {"type": "stay"})
    assert s.run.outcome == "failed_time" and who(s, "Madeleine").dead


def test_the_dead_cannot_act_and_all_dead_fails_the_run():
    s = run(game(), kill("Marie"))
    with refused("time_stories.dead") as info:
        ts.apply(s, {"type": "heal", "character": "Marie", "amount": 1})
    assert info.value.sentence == "Marie is dead and comes back at 18 TU."
    s = run(s, {"type": "gain_item", "item": "ITEM 12", "holder": "Madeleine"},
            {"type": "gain_item", "item": "ITEM 40", "holder": "Madeleine", "agency": True},
            kill("Madeleine"))
    assert s.run.outcome == "failed_deaths"
    assert [i.name for i in s.items] == ["ITEM 40"]


def test_heal_is_capped_and_refused_at_full_health():
    s = run(game(), {"type": "damage", "character": "Madeleine", "amount": 2, "reason": "fall"},
            {"type": "heal", "character": "Madeleine", "amount": 5})
    assert who(s, "Madeleine").life == 3
    with refused("time_stories.full_health"):
        ts.apply(s, {"type": "heal", "character": "Madeleine", "amount": 1})


# ----------------------------------------------------------------- runs and items
def test_next_run_with_chosen_time_keeps_only_agency_items():
    s = run(game(),
            {"type": "gain_item", "item": "ITEM 12", "holder": "Marie"},
            {"type": "gain_item", "item": "Agency badge", "holder": "Marie", "agency": True},
            {"type": "gain_item", "item": "Map piece", "holder": None},
            kill("Marie"), {"type": "stay"},
            {"type": "end_run", "outcome": "failed_time", "reason": "read the card"})
    assert [(r.number, r.outcome) for r in s.runs] == [(1, "failed_time")]
    assert [i.name for i in s.items] == ["Agency badge"]
    with refused("time_stories.run_over"):
        ts.apply(s, {"type": "stay"})
    s = ts.apply(s, {"type": "start_run", "starting_tu": 30})
    assert (s.run.number, s.tu, s.run.starting_tu, s.turn) == (2, 30, 30, 0)
    assert all(c.life == c.max_life and not c.dead for c in s.characters)
    assert s.items[0].holder == "Marie"
    assert ts.burndown(s) == ((0, 30),)
    assert ts.burndown(s, run=1)[0] == (0, 25)


def test_a_new_receptacle_on_a_new_run():
    s = run(game(), {"type": "gain_item", "item": "Badge", "holder": "Marie", "agency": True},
            {"type": "end_run", "outcome": "failed_deaths"})
    hugo = {"name": "Hugo", "player_seat": 1, "life": 3, "resistance": 1,
            "characteristics": {"Combat": 3}}
    s = ts.apply(s, {"type": "start_run", "characters": [hugo, MADELEINE]})
    assert [c.name for c in s.characters] == ["Hugo", "Madeleine"]
    assert s.tu == 25 and s.items[0].holder is None  # Marie left: the group keeps it
    s2 = ts.apply(s, {"type": "set_characters", "characters": [MARIE]})
    assert [c.name for c in s2.characters] == ["Marie"]
    with refused("time_stories.cast_at_start"):
        ts.apply(ts.apply(s, {"type": "stay"}), {"type": "set_characters",
                                                 "characters": [MARIE]})


def test_start_run_only_after_the_run_ends_and_success_ends_the_mission():
    s = game()
    with refused("time_stories.run_going"):
        ts.apply(s, {"type": "start_run"})
    with malformed("outcome"):
        ts.apply(s, {"type": "end_run", "outcome": "won"})
    s = ts.apply(s, {"type": "end_run", "outcome": "successful"})
    assert ts.snapshot(s)["mission_complete"]
    with refused("time_stories.mission_complete"):
        ts.apply(s, {"type": "start_run"})


def test_items_move_and_leave():
    s = run(game(), {"type": "gain_item", "item": "Key", "holder": "Marie"})
    with refused("time_stories.item_twice"):
        ts.apply(s, {"type": "gain_item", "item": "key"})
    with refused("time_stories.holds_already"):
        ts.apply(s, {"type": "give_item", "item": "Key", "to": "Marie"})
    with malformed("needs 'to'"):
        ts.apply(s, {"type": "give_item", "item": "Key"})
    s = ts.apply(s, {"type": "give_item", "item": "Key", "to": "Madeleine"})
    assert s.items[0].holder == "Madeleine"
    s = run(s, kill("Madeleine"), {"type": "give_item", "item": "Key", "to": "Marie"})
    assert s.items[0].holder == "Marie"  # picked up from the fallen character
    s = ts.apply(s, {"type": "drop_item", "item": "Key", "reason": "used on the door"})
    assert s.items == ()
    with refused("time_stories.no_such_item"):
        ts.apply(s, {"type": "drop_item", "item": "Key"})


@pytest.mark.parametrize(
    ("setup", "expected"),
    [({"players": []}, "setup.player_count"),
     ({"starting_tu": 0}, "time_stories.out_of_range"),
     ({"starting_tu": True}, MALFORMED),
     ({"characters": [MARIE | {"player_seat": 5}]}, MALFORMED),
     ({"characters": [MARIE | {"life": 0}]}, "time_stories.sheet_range"),
     ({"characters": [MARIE | {"resistance": -1}]}, "time_stories.sheet_range"),
     ({"characters": [MARIE, MARIE]}, "time_stories.same_character_name"),
     ({"characters": [MARIE] * 5}, "time_stories.character_count")],
)
def test_bad_setups(setup, expected):
    expect(expected, lambda: game(**setup))


def test_snapshot_is_json_and_has_what_the_screens_need():
    s = run(game(), {"type": "travel", "die": 4, "to": "Kitchen"},
            {"type": "test_start", "space": "B", "characteristic": "Glibness",
             "characters": ["Marie", "Madeleine"], "shields": ["blank"] * 4})
    snap = json.loads(json.dumps(ts.snapshot(s)))
    assert (snap["run"], snap["tu"], snap["turn"], snap["location"]) == (1, 23, 1, "Kitchen")
    assert snap["log"][1]["text"].endswith("25 -> 23 TU")
    assert snap["burndown"] == [[0, 25], [1, 23]]
    assert {"name", "life", "max_life", "resistance", "dead", "tu_at_death",
            "characteristics"} <= set(snap["characters"][0])
    assert snap["characters"][0]["revives_at"] is None
    test = snap["tests"][0]
    assert (test["dice"], test["left"], test["status"]) == (4, ["blank"] * 4, "ready")
    assert 0 < test["odds"]["p_clear"]["p"] < 1
    odds = ts.roll_odds_for(s, "B", turn_to_hit=1)
    assert odds.p_clear > ts.roll_odds_for(s).p_clear


def test_snapshot_log_lines_are_kept_per_entry_and_handed_out_fresh():
    """A log line's JSON is made once per entry (a new state words only its new lines)
    and each snapshot gets its own dicts: one changed by a reader changes no other."""
    from companion.games.base import to_jsonable

    s = run(game(), {"type": "travel", "die": 4, "to": "Kitchen"}, {"type": "stay"})
    first = ts.snapshot(s)
    later = run(s, {"type": "stay"}, {"type": "travel", "die": 2, "red": True})
    again = ts.snapshot(later)
    for snap, state in ((first, s), (again, later)):
        assert snap["log"] == [to_jsonable(e) | {"text": e.text} for e in state.log]
    shared = len(first["log"])
    assert again["log"][:shared] == first["log"]
    assert all(a is not b for a, b in zip(again["log"][:shared], first["log"], strict=True))
    first["log"][0]["text"] = "changed by a reader"
    assert ts.snapshot(s)["log"][0]["text"] != "changed by a reader"
    made = ts._log_json.cache_info().misses
    ts.snapshot(run(later, {"type": "stay"}))
    assert ts._log_json.cache_info().misses == made + 1  # the new line only


def test_unknown_and_malformed_actions():
    s = game()
    for bad in [{"type": "teleport"}, {}, {"type": "travel"}, {"type": "travel", "die": 7},
                {"type": "travel", "die": "2"}, {"type": "travel", "die": 2, "red": "yes"},
                {"type": "damage", "character": "Nobody", "amount": 1, "reason": "x"}]:
        with pytest.raises(CompanionError):
            ts.apply(s, bad)


# ----------------------------------------------------------------- whole-game properties
NAMES = ["Marie", "Madeleine", "Nobody"]
TEAMS = st.sampled_from([["Marie"], ["Madeleine"], ["Marie", "Madeleine"], ["Madeleine", "Marie"],
                         ["Nobody"], [], ["Marie", "Marie"]])
SHIELDS = st.one_of(st.lists(st.sampled_from(["blank", "skull", "heart", "tu"]),
                             min_size=1, max_size=5),
                    st.sampled_from([[], ["gold"]]))
SPACE = st.sampled_from([None, None, "B", "C"])
TEST_START = st.builds(
    lambda sp, c, names, sh, lk: {"type": "test_start", "space": sp, "characteristic": c,
                                  "characters": names, "shields": sh, "locked": lk},
    st.sampled_from(["B", "C"]), st.sampled_from(["Glibness", "Combat", "Combat", "Luck"]),
    TEAMS, SHIELDS, st.booleans())
OTHER = st.one_of(
    st.builds(lambda d, r: {"type": "travel", "die": d, "red": r},
              st.integers(0, 7), st.booleans()),
    st.just({"type": "stay"}),
    st.builds(lambda d: adjust(d, "fix"), st.integers(-6, 3)),
    st.builds(lambda n, a: {"type": "damage", "character": n, "amount": a, "reason": "hit"},
              st.sampled_from(NAMES), st.integers(0, 3)),
    st.builds(lambda n: {"type": "heal", "character": n, "amount": 1}, st.sampled_from(NAMES)),
    st.builds(lambda i, h, a: {"type": "gain_item", "item": i, "holder": h, "agency": a},
              st.sampled_from(["Key", "Map"]), st.sampled_from([None, *NAMES]), st.booleans()),
    st.builds(lambda i, h: {"type": "give_item", "item": i, "to": h},
              st.sampled_from(["Key", "Map"]), st.sampled_from([None, *NAMES])),
    st.builds(lambda i: {"type": "drop_item", "item": i}, st.sampled_from(["Key", "Map"])),
    st.builds(lambda sp: {"type": "test_abandon", "space": sp}, st.sampled_from(["B", "C"])),
    st.builds(lambda t: {"type": "start_run", "starting_tu": t}, st.integers(0, 12)),
    st.builds(lambda c: {"type": "set_characters", "characters": c},
              st.sampled_from([[MARIE], [MADELEINE, MARIE], []])),
    st.dictionaries(st.sampled_from(["type", "die", "faces", "space"]),
                    st.one_of(st.none(), st.integers(), st.text(max_size=3),
                              st.lists(st.integers(), max_size=2))),
)
END_RUN = st.builds(lambda o: {"type": "end_run", "outcome": o},
                    st.sampled_from(["failed_time", "failed_deaths", "bad"] * 3 + ["successful"]))


def draw_action(data, state):
    """Mostly plausible actions (faces of the right length for an open test), some not."""
    kind = data.draw(st.sampled_from(["roll"] * 5 + ["start"] * 2 + ["continue"] * 2
                                     + ["other"] * 6 + ["end"]))
    if not state.running and kind != "other":
        return {"type": "start_run", "starting_tu": data.draw(st.integers(1, 20))}
    if kind == "start" or (kind in ("roll", "continue") and not state.tests):
        return data.draw(TEST_START)
    if kind == "end":
        return data.draw(END_RUN)
    if kind == "other":
        return data.draw(OTHER)
    test = data.draw(st.sampled_from(state.tests))
    if kind == "continue":
        names = data.draw(st.one_of(st.none(), TEAMS))
        return {"type": "test_continue", "space": test.space} | (
            {"characters": names} if names is not None else {})
    extra = data.draw(st.sampled_from([0, 0, 0, 1]))
    n = ts.dice_for(state, test) + extra + data.draw(st.sampled_from([0, 0, 0, 0, 1, -1]))
    faces = data.draw(st.lists(st.integers(1, 6), min_size=max(n, 0), max_size=max(n, 0)))
    mods = {"extra_dice": extra, "turn_to_hit": data.draw(st.sampled_from([0, 0, 1, 2]))}
    return {"type": "test_roll", "space": test.space, "faces": faces, "modifiers": mods}


@settings(deadline=None, max_examples=120)
@given(st.data(), st.integers(3, 25))
def test_random_games_keep_every_invariant(data, starting_tu):
    setup = {"players": PLAYERS, "starting_tu": starting_tu, "characters": [MARIE, MADELEINE]}
    state = ts.initial(setup)
    accepted = []
    for _ in range(data.draw(st.integers(0, 40))):
        action = draw_action(data, state)
        before = copy.deepcopy(state)
        action_copy = copy.deepcopy(action)
        try:
            new = ts.apply(state, action)
        except CompanionError:
            assert state == before  # an illegal action leaves the state alone
            continue
        finally:
            assert action == action_copy  # the action dict is not touched either
        assert state == before  # apply returns a new state and never mutates its input
        state = new
        accepted.append(action)
        assert state.tu >= 0
        assert all(0 <= c.life <= c.max_life for c in state.characters)
        assert all(c.dead == (c.tu_at_death is not None) for c in state.characters)
        if not state.running:
            assert state.tests == ()
        json.dumps(ts.snapshot(state))
    replayed = ts.initial(setup)
    for action in accepted:
        replayed = ts.apply(replayed, action)
    assert replayed == state
    assert ts.snapshot(replayed) == ts.snapshot(state)
    for e in state.log:
        assert e.tu_after >= 0 and e.tu_before - e.tu_after == e.amount
