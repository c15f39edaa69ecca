"""T.I.M.E Stories: an independent audit of the engine against the rulebook.

Each test restates (in our own words) the rule or worked example it checks: the Time
Captain die, travel from black- and red-lettered locations, the group's turn costing
1 TU, the riposte and the shields, the locked fight and the cook in the Kitchen, death
and return 7 TU later, runs that fail and start again, the T.I.M.E Agency items, and
the mission's end. Readings where the rulebook is open are named in the docstrings.
"""

from __future__ import annotations

import json
import random
from functools import reduce

import fairness
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from refusals import MALFORMED, expect, refused

from companion import dice
from companion.errors import MalformedAction
from companion.games import time_stories as ts
from companion.games.time_stories import action_test as at

B, S, H, T = "blank", "skull", "heart", "tu"
PLAYERS = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}, {"name": "Cy", "seat": 3},
           {"name": "Dee", "seat": 4}]
# The two receptacles of the Asylum example, as the example describes their sheets.
MARIE = {"name": "Marie", "player_seat": 1, "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1},
         "abilities": [{"characteristic": "Glibness", "turn_to_hit": 1}]}
MADELEINE = {"name": "Madeleine", "player_seat": 2, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 2, "Glibness": 1, "Combat": 2},
             "alone": {"Deftness": 1, "Glibness": 0, "Combat": 1},
             "together": {"Deftness": 3, "Glibness": 2, "Combat": 3}}
# The fighter of the cave example: Combat 3, Resistance 2, 3 Life Points.
FIGHTER = {"name": "Hugo", "player_seat": 3, "life": 3, "resistance": 2,
           "characteristics": {"Combat": 3, "Glibness": 1}}
# A fourth receptacle the examples do not show.
GASTON = {"name": "Gaston", "player_seat": 4, "life": 4, "resistance": 3,
          "characteristics": {"Combat": 2, "Glibness": 2, "Deftness": 1}}


def game(*chars, **setup):
    return ts.initial({"players": PLAYERS, "mission": "Asylum",
                       "characters": list(chars) or [MARIE, MADELEINE, FIGHTER, GASTON]}
                      | setup)


def run(state, *actions):
    return reduce(ts.apply, actions, state)


def who(state, name):
    return next(c for c in state.characters if c.name == name)


def start(space, characteristic, *names, shields=(B,) * 4, locked=False, **more):
    return {"type": "test_start", "space": space, "characteristic": characteristic,
            "characters": list(names), "shields": list(shields), "locked": locked, **more}


def roll(space, *faces, **more):
    return {"type": "test_roll", "space": space, "faces": list(faces), **more}


def adjust(delta):
    return {"type": "adjust_tu", "delta": delta, "reason": "set the scene"}


def kill(name):
    return {"type": "damage", "character": name, "amount": 20, "reason": "trap"}


def frozen(state):
    return json.dumps(ts.snapshot(state), sort_keys=True)


def refused_unchanged(state, action, code):
    before = frozen(state)
    expect(code, ts.apply, state, action)
    assert frozen(state) == before


# ----------------------------------------------------------------- players
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_one_to_four_players(n):
    """Up to four players, each with a receptacle."""
    chars = [MARIE, MADELEINE, FIGHTER, GASTON][:n]
    s = ts.initial({"players": PLAYERS[:n], "characters": chars})
    assert len(s.players) == n and len(s.characters) == n


@pytest.mark.parametrize("n", [0, 5])
def test_no_game_for_zero_or_five_players(n):
    """Five players are more than the box's four receptacles allow."""
    players = [{"name": f"P{i}", "seat": i} for i in range(1, n + 1)]
    with refused("setup.player_count"):
        ts.initial({"players": players})


# ----------------------------------------------------------------- the Time Captain die
@pytest.mark.parametrize(("face", "units"), [(1, 1), (2, 2), (3, 2), (4, 2), (5, 2), (6, 3)])
def test_captain_die_faces_with_a_regular_die(face, units):
    """With a regular die for the Time Captain die: 1 is one time unit, 2 to 5 are two,
    6 is three."""
    assert dice.captain_cost(face) == units


@pytest.mark.parametrize("face", [0, 7, -1, True, 2.0, "3"])
def test_captain_die_shows_only_one_to_six(face):
    """A die has six faces; anything else is not a roll."""
    with pytest.raises(MalformedAction):
        dice.captain_cost(face)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.booleans())
def test_travel_costs_one_to_three_or_three_to_five_from_red_letters(face, red):
    """Leaving a black-lettered location costs the die (1 to 3 TU); a red-lettered one
    costs the die plus 2 (3 to 5 TU). Who travels and how many does not matter."""
    s = run(game(), {"type": "travel", "die": face, "red": red})
    cost = 25 - s.tu
    assert cost == dice.captain_cost(face) + (2 if red else 0)
    assert (3 <= cost <= 5) if red else (1 <= cost <= 3)


def test_rolled_captain_faces_are_fair_faces():
    """The session's roll gives faces 1 to 6, each of them over a long series."""
    rng = random.Random(7)
    faces = [f for _ in range(6) for f in dice.roll(100, rng)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert fairness.chi_square_p(fairness.chi_square(faces)) > 0.001


# ----------------------------------------------------------------- time units
def test_a_first_run_starts_with_25_time_units():
    """A mission's first run usually starts with 25 TU."""
    s = game()
    assert (s.tu, s.run.number, s.run.starting_tu) == (25, 1, 25)


def test_rulebook_day_room_to_kitchen_then_regroup_or_travel():
    """From the Day Room to the Kitchen with a captain die of 2: 25 to 23. Afterwards the
    group may regroup at another Kitchen space for 1 TU, or travel on for the die's 1
    to 3 TU."""
    s = run(game(), {"type": "travel", "die": 2, "to": "Kitchen"})
    assert s.tu == 23 and s.location == "Kitchen"
    assert run(s, {"type": "stay"}).tu == 22
    assert [run(s, {"type": "travel", "die": f}).tu for f in (1, 3, 6)] == [22, 21, 20]


def test_a_turn_costs_the_group_one_unit_whatever_each_character_does():
    """Spending another turn at a location costs the group 1 TU, however many characters
    there are and whatever they do (split over two spaces, both tests go on for 1 TU)."""
    s = run(game(), {"type": "travel", "die": 1, "to": "Kitchen"},
            start("B", "Glibness", "Marie", "Madeleine"), start("D", "Combat", "Hugo"),
            roll("B", 3, 3, 3, 3), roll("D", 3, 3, 3))
    assert s.tu == 24  # splitting up and rolling in the same turn is free
    s = run(s, {"type": "test_continue", "space": "B"}, {"type": "test_continue", "space": "D"})
    assert s.tu == 23
    s = run(s, roll("B", 3, 3, 3, 3), roll("D", 3, 3, 3), {"type": "stay"},
            {"type": "test_continue", "space": "B"}, {"type": "test_continue", "space": "D"})
    assert s.tu == 22


def test_running_out_of_time_fails_the_run():
    """Time running out ends the mission's run: the MISSION FAILED (TU) card is read."""
    s = run(game(starting_tu=3), {"type": "stay"}, {"type": "stay"})
    assert s.running and s.tu == 1
    s = run(s, {"type": "travel", "die": 6})
    assert s.tu == 0 and s.run.outcome == "failed_time"
    refused_unchanged(s, {"type": "stay"}, "time_stories.run_over")


# ----------------------------------------------------------------- dice and shields
@pytest.mark.parametrize(("face", "symbol"),
                         [(1, "skull"), (2, "skull"), (3, "blank"), (4, "hit"), (5, "hit"),
                          (6, "double")])
def test_action_die_faces_with_a_regular_die(face, symbol):
    """A regular die as an action die: 1-2 a red skull, 3 blank, 4-5 one hit, 6 two."""
    assert at.FACE_SYMBOL[face] == symbol


def test_hits_remove_shields_from_left_to_right():
    """Each hit (two on a double) removes the leftmost shield still on the card."""
    out = at.resolve([B, S, H, T, B], [6, 4], [("Hugo", 2)])
    assert out.removed == (B, S, H) and out.left == (T, B)


@pytest.mark.parametrize(
    ("faces", "skull_shields_left", "lost"),
    [
        ((3, 3, 3), 2, 0),  # no skull rolled: the skull shields do nothing
        ((1, 3, 3), 0, 0),  # 1 skull <= resistance 2
        ((1, 2, 3), 0, 0),  # 2 skulls = resistance 2: resisted
        ((1, 2, 1), 0, 1),  # 3 skulls beat resistance 2: one life point
        ((1, 3, 3), 1, 0),  # 1 rolled + 1 left = 2
        ((1, 3, 3), 2, 1),  # 1 rolled + 2 left = 3
        ((1, 2, 1), 3, 1),  # 6 against 2: still only one life point
    ],
)
def test_marie_resists_two_skulls_and_loses_one_point_to_three(faces, skull_shields_left, lost):
    """Marie's Resistance 2: two red skulls (rolled plus skull shields left) or fewer do
    nothing, three or more take exactly one of her Life Points - and only if at least
    one skull was rolled."""
    shields = [B] * 6 + [S] * skull_shields_left
    out = at.resolve(shields, list(faces), [("Marie", 2)])
    assert out.losses[0].riposte == lost


def test_black_hearts_left_hurt_each_character_and_tu_shields_the_group():
    """Black heart shields left after a roll cost every character in the test that many
    Life Points; time unit shields left cost the group that many TU."""
    s = run(game(), start("C", "Combat", "Hugo", "Gaston", shields=[B, H, H, T]),
            roll("C", 4, 3, 3, 3, 3))
    assert (who(s, "Hugo").life, who(s, "Gaston").life) == (1, 2)
    assert s.tu == 24
    assert s.tests[0].left == (H, H, T)


def test_the_riposte_only_touches_the_characters_of_that_space():
    """The skulls threaten only the characters in the test's space."""
    s = run(game(), start("B", "Combat", "Hugo", shields=[B, B, S, S]), roll("B", 1, 1, 1))
    assert who(s, "Hugo").life == 2
    assert [who(s, n).life for n in ("Marie", "Madeleine", "Gaston")] == [2, 3, 4]


# ----------------------------------------------------------------- the cave fight
def test_rulebook_cave_fight_locked_then_everyone_joins():
    """The cave (die 2: 2 TU). Hugo alone at D: a locked Combat test of four blank and
    two skull shields. Three dice give two hits and two skulls: two blanks go, and four
    skulls (two rolled, two on the card) beat his Resistance 2, so 3 LP become 2. He
    cannot give up or leave; at the end of the turn everyone gathers at D for 1 TU and
    all their Combat dice roll."""
    s = run(game(), {"type": "travel", "die": 2, "to": "Cave"})
    assert s.tu == 23
    s = run(s, start("B", "Glibness", "Marie", "Madeleine", "Gaston"),
            start("D", "Combat", "Hugo", shields=[B, B, B, B, S, S], locked=True))
    s = run(s, roll("D", 6, 1, 2))
    assert s.tests[1].left == (B, B, S, S)
    assert s.last_roll.outcome.riposte == 4
    assert who(s, "Hugo").life == 2
    refused_unchanged(s, {"type": "test_abandon", "space": "D"}, "time_stories.locked_abandon")
    refused_unchanged(s, {"type": "travel", "die": 3}, "time_stories.locked_leave")
    s = run(s, {"type": "test_abandon", "space": "B"})
    s = run(s, {"type": "test_continue", "space": "D",
                "characters": ["Hugo", "Marie", "Madeleine", "Gaston"]})
    assert s.tu == 22
    # everyone shares the space: Madeleine's Combat is 3
    assert ts.dice_for(s, s.tests[0]) == 3 + 1 + 3 + 2
    s = run(s, roll("D", 6, 6, 3, 3, 3, 3, 3, 3, 3))
    assert s.tests == () and s.last_roll.outcome.cleared


def test_a_locked_test_ends_when_its_characters_are_dead():
    """A locked test goes on until it is won or everyone in it is killed; then the
    group may leave."""
    s = run(game(), start("D", "Combat", "Hugo", shields=[B] * 8, locked=True),
            roll("D", 1, 1, 1), {"type": "test_continue", "space": "D"},
            roll("D", 1, 1, 1), {"type": "test_continue", "space": "D"}, roll("D", 1, 1, 1))
    assert who(s, "Hugo").dead and s.tests == ()
    assert s.running
    s = run(s, {"type": "travel", "die": 1})
    assert s.tu == 25 - 2 - 1


def test_giving_up_resets_every_shield():
    """A test may be abandoned before it is won, which puts all its shields back."""
    s = run(game(), start("B", "Deftness", "Marie", shields=[B, B, B]), roll("B", 6, 3))
    assert s.tests[0].left == (B,)
    s = run(s, {"type": "test_abandon", "space": "B"}, {"type": "stay"},
            start("B", "Deftness", "Marie", shields=[B, B, B]))
    assert s.tests[0].left == (B, B, B)


# ----------------------------------------------------------------- the cook
def test_rulebook_cook_four_glibness_dice_and_marie_turns_one():
    """Marie (Glibness 3) and Madeleine (Glibness 1) talk to the cook together: four
    dice against four blank shields. Marie's ability turns one die into a hit, so a
    roll of three hits and a blank wins the cook over (ITEM 12), at no extra time."""
    s = run(game(), {"type": "travel", "die": 2, "to": "Kitchen"},
            start("B", "Glibness", "Marie", "Madeleine"))
    assert ts.dice_for(s, s.tests[0]) == 4
    s = run(s, roll("B", 4, 5, 3, 4), {"type": "gain_item", "item": "ITEM 12",
                                        "holder": "Marie"})
    assert s.tests == () and s.last_roll.outcome.turned == (2,)
    assert s.tu == 23 and s.items[0].holder == "Marie"


@pytest.mark.parametrize(
    ("names", "characteristic", "dice_"),
    [
        (("Madeleine",), "Deftness", 1), (("Madeleine",), "Glibness", 0),
        (("Madeleine",), "Combat", 1),
        (("Madeleine", "Marie"), "Deftness", 4), (("Madeleine", "Marie"), "Combat", 3),
        (("Madeleine", "Marie", "Hugo", "Gaston"), "Glibness", 3 + 2 + 1 + 2),
        (("Madeleine", "Marie", "Hugo", "Gaston"), "Combat", 3 + 1 + 3 + 2),
    ],
)
def test_madeleines_dice_alone_with_some_and_with_everyone(names, characteristic, dice_):
    """Madeleine rolls 2 Deftness, 1 Glibness, 2 Combat; alone in a space only 1, 0, 1;
    with every other character in her space 3, 2, 3. A test rolls the sum of its
    characters' dice."""
    s = run(game(), start("B", characteristic, *names))
    assert ts.dice_for(s, s.tests[0]) == dice_


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=3, max_size=3))
def test_marie_always_gets_at_least_one_hit_on_glibness(faces):
    """Marie's ability: on a Glibness test one of her dice becomes a hit, so she never
    rolls Glibness without at least one hit (and the turned die is no longer a skull)."""
    s = run(game(), start("B", "Glibness", "Marie", shields=[B] * 8), roll("B", *faces))
    out = s.last_roll.outcome
    assert out.hits >= 1
    assert out.skulls == max(0, sum(1 for f in faces if f <= 2) - 1)


def test_marie_dies_from_a_second_lost_point():
    """Marie has 2 Life Points: three skulls take one, and another lost point before she
    heals kills her (she then comes back 7 TU later)."""
    s = run(game(), start("B", "Deftness", "Marie", shields=[B, B, B, S, S]), roll("B", 1, 3))
    assert who(s, "Marie").life == 1  # one skull rolled + two on the card = 3 > 2
    s = run(s, {"type": "test_continue", "space": "B"}, roll("B", 2, 3))
    assert who(s, "Marie").dead and s.tu == 24
    assert ts.comes_back_at(s, "Marie") == 17
    assert s.tests == () and s.running  # she was alone in the test


# ----------------------------------------------------------------- death and return
@pytest.mark.parametrize(
    ("tu_at_death", "back_at"),
    [(18, 11), (25, 18), (9, 2), (8, 1), (7, None), (3, None)],
)
def test_the_dead_return_seven_units_later_if_more_than_seven_remain(tu_at_death, back_at):
    """A killed character comes back at full health 7 TU after dying (killed at 18,
    back at 11); only if more than 7 TU remained when they died."""
    s = run(game(), kill("Hugo")) if tu_at_death == 25 else run(
        game(), adjust(tu_at_death - 25), kill("Hugo"))
    assert ts.comes_back_at(s, "Hugo") == back_at
    if back_at is None:
        return
    s = run(s, adjust(back_at - tu_at_death + 1))
    assert who(s, "Hugo").dead
    s = run(s, {"type": "stay"})
    assert s.tu == back_at and who(s, "Hugo").life == 3


def test_everyone_dead_fails_the_run_even_with_returns_pending():
    """When all the characters are killed the MISSION FAILED card is read. Reading: a
    character who would return later does not keep the run going."""
    s = run(game(MARIE, MADELEINE), kill("Marie"))
    assert ts.comes_back_at(s, "Marie") == 18 and s.running
    s = run(s, kill("Madeleine"))
    assert s.run.outcome == "failed_deaths" and not s.running


def test_a_fallen_characters_items_may_be_picked_up():
    """A dead character's items may be taken by the survivors in that space; handing
    an item over costs no time."""
    s = run(game(), {"type": "gain_item", "item": "Lamp", "holder": "Hugo"}, kill("Hugo"),
            {"type": "give_item", "item": "Lamp", "to": "Gaston"})
    assert s.items[0].holder == "Gaston" and s.tu == 25
    refused_unchanged(s, {"type": "give_item", "item": "Lamp", "to": "Hugo"},
                      "time_stories.dead")


# ----------------------------------------------------------------- runs and items
@pytest.mark.parametrize("how", [[adjust(-24), {"type": "stay"}],
                                 [kill("Marie"), kill("Madeleine")]])
def test_agency_items_survive_a_failed_run_the_others_go_back(how):
    """Whether time runs out or everyone dies, items with the T.I.M.E Agency logo stay
    where they are; the others go back to the item deck."""
    s = run(game(MARIE, MADELEINE),
            {"type": "gain_item", "item": "Agency badge", "holder": "Madeleine", "agency": True},
            {"type": "gain_item", "item": "ITEM 12", "holder": "Marie"}, *how)
    assert not s.running
    assert [(i.name, i.holder) for i in s.items] == [("Agency badge", "Madeleine")]


def test_a_new_run_may_have_more_time_and_other_receptacles():
    """A failed run is tried again from the start, maybe with more (or less) time as
    the MISSION FAILED card says, and a player may take another receptacle."""
    s = run(game(MARIE, MADELEINE), adjust(-10), kill("Marie"),
            {"type": "end_run", "outcome": "failed_time"})
    s = run(s, {"type": "start_run", "starting_tu": 30, "characters": [FIGHTER, MADELEINE]})
    assert (s.run.number, s.tu, s.turn) == (2, 30, 0)
    assert [c.name for c in s.characters] == ["Hugo", "Madeleine"]
    assert all(c.life == c.max_life for c in s.characters)
    s = run(s, {"type": "end_run", "outcome": "failed_time"}, {"type": "start_run",
                                                               "starting_tu": 20})
    assert (s.run.number, s.tu) == (3, 20)
    assert [(r.number, r.starting_tu) for r in s.runs] == [(1, 25), (2, 30), (3, 20)]


def test_a_new_run_forgets_where_characters_rolled_in_the_last_one():
    """Each run starts afresh: where a character rolled in the failed run does not make
    a space of the new run 'another turn'."""
    s = run(game(MARIE, MADELEINE), {"type": "travel", "die": 1}, {"type": "travel", "die": 1},
            start("B", "Deftness", "Marie"), roll("B", 3, 3),
            {"type": "end_run", "outcome": "failed_time"}, {"type": "start_run"},
            {"type": "travel", "die": 1}, {"type": "travel", "die": 1})
    assert s.turn == 2 and s.run.number == 2
    s = run(s, start("C", "Deftness", "Marie"))
    assert s.tests[0].space == "C" and s.tu == 23


def test_the_mission_successful_card_ends_the_game():
    """The mission is over once a card reads MISSION SUCCESSFUL: nothing more to do."""
    s = run(game(), {"type": "end_run", "outcome": "successful"})
    assert ts.is_over(s)
    for action in ({"type": "stay"}, {"type": "start_run"},
                   {"type": "travel", "die": 2}, {"type": "gain_item", "item": "X"}):
        refused_unchanged(s, action, "time_stories.mission_complete")


def test_a_failed_run_is_not_the_end_of_the_game():
    """A failed run only waits for the next one: the mission goes on."""
    s = run(game(starting_tu=1), {"type": "stay"})
    assert not ts.is_over(s) and s.run.outcome == "failed_time"
    assert run(s, {"type": "start_run"}).running


# ----------------------------------------------------------------- properties
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([B, S, H, T]), min_size=1, max_size=8),
       st.lists(st.integers(1, 6), max_size=8), st.integers(0, 5))
def test_one_roll_follows_the_rulebook(shields, faces, resistance):
    """For any shields and roll: hits (two per 6) remove the leftmost shields; the
    riposte costs one point exactly when a skull was rolled and the skulls rolled plus
    the skull shields left beat the resistance; black hearts left cost that many points
    each; TU shields left cost the group that many units."""
    out = at.resolve(shields, faces, [("X", resistance)])
    hits = sum({4: 1, 5: 1, 6: 2}.get(f, 0) for f in faces)
    skulls = sum(1 for f in faces if f <= 2)
    left = tuple(shields[hits:])
    assert out.left == left and out.removed == tuple(shields[:hits])
    assert out.cleared is (hits >= len(shields))
    danger = skulls + left.count(S)
    assert out.losses[0].riposte == (1 if skulls and danger > resistance else 0)
    assert out.losses[0].hearts == left.count(H)
    assert out.tu_cost == left.count(T)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["stay", "travel", "red"]), st.integers(1, 6)),
                max_size=20))
def test_time_units_only_go_down_and_the_run_fails_at_zero(moves):
    """Every move costs time, never gives it; the tracker never goes below 0, and the run
    fails exactly when it reaches 0."""
    s = game()
    for kind, face in moves:
        if not s.running:
            break
        before = s.tu
        action = {"type": "stay"} if kind == "stay" else {"type": "travel", "die": face,
                                                          "red": kind == "red"}
        s = ts.apply(s, action)
        assert 0 <= s.tu < before
        assert s.running is (s.tu > 0)


def test_malformed_dice_are_not_recorded():
    """A travel without a captain die, or a die face out of range, changes nothing."""
    s = game()
    refused_unchanged(s, {"type": "travel"}, MALFORMED)
    refused_unchanged(s, {"type": "travel", "die": 7}, MALFORMED)
    s = run(s, start("B", "Combat", "Hugo"))
    refused_unchanged(s, roll("B", 1, 2), MALFORMED)  # Hugo rolls three dice
    refused_unchanged(s, roll("B", 1, 2, 9), MALFORMED)
