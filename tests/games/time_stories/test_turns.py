"""T.I.M.E Stories: one turn per space visited, between-run items, company and abilities.

Rulebook (in our words): interacting with more space cards of a location, or going back
to an unfinished challenge, takes another turn and costs the whole group 1 TU. In the
Asylum example, after Marie and Madeleine win the cook over at space B of the Kitchen,
the group may regroup at another Kitchen space for 1 TU. A MISSION FAILED card may give
the group items for the next attempt. Madeleine's dice change with her company (fewer
alone, more with everyone), and Marie's ability turns one die into a hit on Glibness
tests only.
"""

from __future__ import annotations

from functools import reduce

import pytest
from refusals import refused

from companion.games import time_stories as ts

B = "blank"
PLAYERS = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}, {"name": "Cy", "seat": 3},
           {"name": "Dee", "seat": 4}]
MARIE = {"name": "Marie", "player_seat": 1, "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1},
         "abilities": [{"characteristic": "Glibness", "turn_to_hit": 1}]}
MADELEINE = {"name": "Madeleine", "player_seat": 2, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 2, "Glibness": 1, "Combat": 2},
             "alone": {"Deftness": 1, "Glibness": 0, "Combat": 1},
             "together": {"Deftness": 3, "Glibness": 2, "Combat": 3}}
# the other two receptacles of the four-player example (the rulebook does not show them)
PAUL = {"name": "Paul", "player_seat": 3, "life": 3, "resistance": 1,
        "characteristics": {"Deftness": 1, "Glibness": 1, "Combat": 2}}
GASTON = {"name": "Gaston", "player_seat": 4, "life": 4, "resistance": 3,
          "characteristics": {"Deftness": 1, "Glibness": 2, "Combat": 3}}
GROUP = [MARIE, MADELEINE, PAUL, GASTON]


def game(*chars, **setup):
    return ts.initial({"players": PLAYERS, "characters": list(chars) or GROUP} | setup)


def run(state, *actions):
    return reduce(ts.apply, actions, state)


def start(space, characteristic, *who, shields=(B,) * 4, **more):
    return {"type": "test_start", "space": space, "characteristic": characteristic,
            "characters": list(who), "shields": list(shields), "locked": False, **more}


def roll(space, *faces, **more):
    return {"type": "test_roll", "space": space, "faces": list(faces), **more}


KITCHEN = {"type": "travel", "die": 2, "to": "Kitchen"}
COOK = start("B", "Glibness", "Marie", "Madeleine")


# ----------------------------------------------------------------- another space, another turn
def test_asylum_regrouping_at_another_kitchen_space_costs_one_time_unit():
    # 25 -> 23 on the way to the Kitchen; four Glibness dice at the cook's space B, Marie's
    # ability turns the blank into a hit: four hits, the test is won.
    s = run(game(), KITCHEN, COOK)
    assert s.tests[0] and ts.dice_for(s, s.tests[0]) == 4
    s = ts.apply(s, roll("B", 4, 4, 5, 3))
    assert s.tests == () and s.last_roll.outcome.cleared and s.tu == 23
    # Regrouping at space C is another turn: refused as a free move ...
    with refused("time_stories.another_space") as info:
        ts.apply(s, start("C", "Deftness", "Marie", "Madeleine"))
    assert info.value.sentence == ("Marie and Madeleine rolled at space B this turn: space C "
                                   "is another turn (1 TU).")
    # ... and accepted when the group pays the turn with it ("Stay (1 TU) and start").
    paid = ts.apply(s, start("C", "Deftness", "Marie", "Madeleine", new_turn=True))
    assert (paid.tu, paid.turn, paid.tests[0].space) == (22, s.turn + 1, "C")
    assert paid.log[-2].kind == "stay" and paid.log[-2].amount == 1
    # or with a stay first: the same 22
    assert run(s, {"type": "stay"}, start("C", "Deftness", "Marie", "Madeleine")).tu == 22


def test_a_character_who_rolled_and_gave_up_cannot_try_another_space_for_free():
    s = run(game(), KITCHEN, COOK | {"shields": [B] * 8}, roll("B", 3, 3, 3, 3),
            {"type": "test_abandon", "space": "B"})
    with refused("time_stories.another_space"):
        ts.apply(s, start("C", "Combat", "Madeleine"))
    with refused("time_stories.retry_needs_turn"):  # the same space again: also a turn
        ts.apply(s, COOK)
    assert ts.apply(s, COOK | {"new_turn": True}).tu == s.tu - 1


def test_characters_who_have_not_rolled_this_turn_go_to_any_space():
    s = run(game(), KITCHEN, COOK, roll("B", 4, 4, 5, 3))
    # Paul and Gaston were elsewhere and have not rolled: space C costs nothing more
    s2 = ts.apply(s, start("C", "Combat", "Paul", "Gaston"))
    assert s2.tu == s.tu and s2.turn == s.turn
    # a test started but never rolled is no action yet: Paul may still go to D instead
    s3 = run(s2, {"type": "test_abandon", "space": "C"}, start("D", "Combat", "Paul"))
    assert s3.tu == s.tu


def test_a_paid_turn_frees_everyone_and_travel_is_a_new_turn_too():
    s = run(game(), KITCHEN, COOK, roll("B", 4, 4, 5, 3))
    assert run(s, {"type": "stay"}, start("C", "Combat", "Marie")).tests[0].space == "C"
    moved = run(s, {"type": "travel", "die": 1, "to": "Day Room"}, start("B", "Combat", "Marie"))
    assert moved.tu == 22 and moved.tests[0].characters == ("Marie",)


def test_joining_a_continued_test_after_rolling_elsewhere_in_the_same_paid_turn():
    # The test at B is rolled in turn 1; the group stays (turn 2, paid), so continuing B
    # costs nothing more. Paul rolls at C in turn 2 and gives up: joining B as well in the
    # same turn is another space, so another turn.
    s = run(game(), KITCHEN, COOK | {"shields": [B] * 8}, roll("B", 3, 3, 3, 3),
            {"type": "stay"}, start("C", "Combat", "Paul", shields=[B] * 9), roll("C", 3, 3),
            {"type": "test_abandon", "space": "C"})
    assert s.tu == 22
    with refused("time_stories.another_space"):
        ts.apply(s, {"type": "test_continue", "space": "B",
                     "characters": ["Marie", "Madeleine", "Paul"]})
    assert ts.apply(s, {"type": "test_continue", "space": "B"}).tu == 22  # free without Paul
    joined = ts.apply(s, {"type": "test_continue", "space": "B",
                          "characters": ["Marie", "Madeleine", "Paul"], "new_turn": True})
    assert joined.tu == 21 and joined.tests[0].characters == ("Marie", "Madeleine", "Paul")


def test_the_engine_lists_who_acted_where_this_turn():
    s = run(game(), KITCHEN, COOK, roll("B", 4, 4, 5, 3))
    assert ts.snapshot(s)["acted"] == [{"character": "Marie", "space": "B"},
                                       {"character": "Madeleine", "space": "B"}]
    assert ts.snapshot(ts.apply(s, {"type": "stay"}))["acted"] == []


def test_paying_the_last_time_unit_ends_the_run_without_a_test():
    s = run(game(starting_tu=3), KITCHEN, COOK, roll("B", 4, 4, 5, 3))
    assert s.tu == 1
    over = ts.apply(s, start("C", "Combat", "Marie", new_turn=True))
    assert over.tu == 0 and not over.running and over.tests == ()


# ----------------------------------------------------------------- between runs
def test_items_of_a_mission_failed_card_are_recorded_between_runs():
    s = run(game(), {"type": "gain_item", "item": "Lamp", "holder": "Marie"},
            {"type": "end_run", "outcome": "failed_time"})
    assert [i.name for i in s.items] == []  # no Agency logo: back to the deck
    s = run(s, {"type": "gain_item", "item": "ITEM 7", "holder": None},
            {"type": "gain_item", "item": "Plan", "agency": True})
    assert [(i.name, i.holder) for i in s.items] == [("ITEM 7", None), ("Plan", None)]
    assert "for run 2" in s.log[-1].text
    with refused("time_stories.item_between_runs"):
        ts.apply(s, {"type": "gain_item", "item": "Key", "holder": "Marie"})
    with refused("time_stories.run_over"):  # time and tests still wait for the next run
        ts.apply(s, {"type": "stay"})
    s = run(s, {"type": "drop_item", "item": "Plan"}, {"type": "start_run"})
    assert [i.name for i in s.items] == ["ITEM 7"] and s.run.number == 2
    s = ts.apply(s, {"type": "give_item", "item": "ITEM 7", "to": "Madeleine"})
    assert s.items[0].holder == "Madeleine"


def test_nothing_is_recorded_after_the_mission_is_won():
    s = ts.apply(game(), {"type": "end_run", "outcome": "successful"})
    with refused("time_stories.mission_complete"):
        ts.apply(s, {"type": "gain_item", "item": "ITEM 7"})


# ----------------------------------------------------------------- company
@pytest.mark.parametrize(("who", "characteristic", "dice"), [
    (["Madeleine"], "Glibness", 0),                       # alone: no Glibness at all
    (["Madeleine"], "Deftness", 1),
    (["Madeleine"], "Combat", 1),
    (["Marie", "Madeleine"], "Glibness", 4),              # the cook: 3 + 1
    (["Marie", "Madeleine", "Paul"], "Deftness", 2 + 2 + 1),
    (["Marie", "Madeleine", "Paul", "Gaston"], "Deftness", 2 + 3 + 1 + 1),  # everyone
    (["Marie", "Madeleine", "Paul", "Gaston"], "Glibness", 3 + 2 + 1 + 2),
    (["Marie", "Madeleine", "Paul", "Gaston"], "Combat", 1 + 3 + 2 + 3),
])
def test_madeleines_dice_change_with_her_company(who, characteristic, dice):
    s = ts.apply(game(), start("B", characteristic, *who))
    assert ts.dice_for(s, s.tests[0]) == dice
    assert ts.snapshot(s)["tests"][0]["dice"] == dice


def test_everyone_means_every_living_character():
    # with Paul and Gaston dead, Marie and Madeleine together are the whole group
    s = run(game(), {"type": "damage", "character": "Paul", "amount": 3, "reason": "x"},
            {"type": "damage", "character": "Gaston", "amount": 4, "reason": "x"},
            start("B", "Glibness", "Marie", "Madeleine"))
    assert ts.snapshot(s)["tests"][0]["company"] == "together"
    assert ts.dice_for(s, s.tests[0]) == 3 + 2


def test_alone_with_no_dice_the_test_is_rolled_with_no_faces():
    s = run(game(), start("B", "Glibness", "Madeleine", shields=[B, "heart"]), roll("B"))
    assert s.last_roll.outcome.faces == () and s.tests[0].left == (B, "heart")
    assert ts.snapshot(s)["characters"][1]["life"] == 2  # the heart shield left still hurts


def test_fewer_dice_from_a_card_and_never_below_none():
    s = ts.apply(game(), start("B", "Combat", "Marie", "Madeleine"))
    assert ts.dice_for(s, s.tests[0]) == 3
    fewer = ts.apply(s, roll("B", 4, 4, modifiers={"extra_dice": -1}))
    assert len(fewer.last_roll.outcome.faces) == 2
    none = ts.apply(s, roll("B", modifiers={"extra_dice": -5}))
    assert none.last_roll.outcome.faces == ()
    with refused("time_stories.modifier_range"):
        ts.apply(s, roll("B", modifiers={"extra_dice": -21}))


def test_a_company_value_must_be_one_of_the_sheets_characteristics():
    with refused("time_stories.company_unknown"):
        game(MADELEINE | {"alone": {"Luck": 0}})


# ----------------------------------------------------------------- abilities
def test_marie_turns_a_die_into_a_hit_on_glibness_only():
    glib = ts.apply(game(), start("B", "Glibness", "Marie"))
    assert ts.snapshot(glib)["tests"][0]["turn_to_hit"] == 1
    assert ts.snapshot(glib)["tests"][0]["abilities"] == ["Marie turns one die into a hit"]
    out = ts.apply(glib, roll("B", 3, 3, 3)).last_roll.outcome
    assert out.turned == (0,) and out.hits == 1
    combat = ts.apply(game(), start("B", "Combat", "Marie"))
    assert ts.snapshot(combat)["tests"][0]["turn_to_hit"] == 0
    assert ts.apply(combat, roll("B", 3)).last_roll.outcome.turned == ()


def test_the_odds_shown_count_the_ability():
    s = ts.apply(game(), start("B", "Glibness", "Marie", "Madeleine"))
    plain = ts.initial({"players": PLAYERS, "characters": [
        MARIE | {"abilities": []}, MADELEINE, PAUL, GASTON]})
    plain = ts.apply(plain, start("B", "Glibness", "Marie", "Madeleine"))
    assert ts.roll_odds_for(s, "B").p_clear > ts.roll_odds_for(plain, "B").p_clear
    assert ts.roll_odds_for(s, "B") == ts.roll_odds_for(plain, "B", turn_to_hit=1)


def test_an_ability_for_a_characteristic_the_sheet_lacks_is_refused():
    with refused("time_stories.ability_unknown"):
        game(MARIE | {"abilities": [{"characteristic": "Luck", "turn_to_hit": 1}]})
