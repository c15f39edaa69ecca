"""The Items panel's view data and actions, read from real engine snapshots (no Kivy)."""

from __future__ import annotations

from samples import ASYLUM

from companion.games import time_stories as ts
from companion.games.base import check
from companion.ui.presenters import time_stories_items as pi

SETUP = {k: v for k, v in ASYLUM.items() if k != "mission"}


def play(*actions):
    s = ts.initial(SETUP)
    for a in actions:
        s = ts.apply(s, a)
    return ts.snapshot(s)


def test_no_items_yet():
    snap = play()
    assert pi.item_rows(snap) == []
    assert pi.summary_text(snap).startswith("No items yet")


def test_rows_show_holder_or_group_and_agency_items_first():
    snap = play(pi.gain_action("Item 12", "Marie", False)[0],
                pi.gain_action("Agency badge", None, True)[0])
    rows = pi.item_rows(snap)
    assert [r.name for r in rows] == ["Agency badge", "Item 12"]
    assert (rows[0].holder, rows[0].holder_text, rows[0].agency) == (None, "group", True)
    assert rows[0].detail == "group · kept if the run fails"
    assert (rows[1].holder_text, rows[1].agency) == ("Marie", False)
    assert rows[1].detail == "Marie · back to the deck if the run fails"
    assert pi.summary_text(snap) == "2 items in play, 1 T.I.M.E Agency"


def test_gain_action_cleans_the_typed_name_and_the_engine_refuses_a_blank_one():
    action, why = pi.gain_action("  Item   12 ", "Marie", True)
    assert why == "" and action == {"type": "gain_item", "item": "Item 12",
                                    "holder": "Marie", "agency": True}
    blank = pi.gain_action("   ", None, False)[0]
    assert check(ts, ts.initial(SETUP), blank).sentence == "Choose the item's name first."


def test_between_runs_a_new_item_goes_to_the_group():
    over = play({"type": "end_run", "outcome": "failed_time"})
    assert pi.holder_choices(over) == [("Group", None)]
    assert [v for _, v in pi.holder_choices(play())] == [None, "Marie", "Madeleine"]


def test_holders_and_give_targets_leave_out_the_dead_and_the_current_holder():
    snap = play(pi.gain_action("Lantern", "Marie", False)[0])
    assert pi.holder_choices(snap) == [("Group", None), ("Marie", "Marie"),
                                       ("Madeleine", "Madeleine")]
    assert pi.give_targets(snap, "Lantern") == [("Group", None), ("Madeleine", "Madeleine")]
    snap = play(pi.gain_action("Lantern", None, False)[0],
                {"type": "damage", "character": "Marie", "amount": 2, "reason": "fall"})
    assert pi.give_targets(snap, "Lantern") == [("Madeleine", "Madeleine")]


def test_give_and_drop_actions_are_accepted_by_the_engine():
    snap = play(pi.gain_action("Lantern", "Marie", False)[0],
                pi.give_action("Lantern", "Madeleine"))
    assert snap["items"] == [{"name": "Lantern", "holder": "Madeleine", "agency": False}]
    snap = play(pi.gain_action("Lantern", "Marie", False)[0], pi.give_action("Lantern", None),
                pi.drop_action("Lantern"))
    assert snap["items"] == []
    assert snap["log"][-1]["text"].endswith("Lantern leaves play (used up)")


def test_a_failed_run_keeps_only_agency_items():
    snap = play(pi.gain_action("Agency badge", "Marie", True)[0],
                pi.gain_action("Item 12", "Madeleine", False)[0],
                {"type": "adjust_tu", "delta": -25, "reason": "test"})
    assert not snap["running"]
    assert [(r.name, r.holder_text) for r in pi.item_rows(snap)] == [("Agency badge", "Marie")]
