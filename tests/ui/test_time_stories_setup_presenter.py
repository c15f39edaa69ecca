"""T.I.M.E Stories setup draft and the engine's refusals, against real snapshots (no Kivy)."""

from __future__ import annotations

import pytest
from samples import MARIE

from companion.errors import RuleError
from companion.games import time_stories as ts
from companion.games.base import check
from companion.ui.presenters import time_stories_setup as s

PLAYERS = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]}


def snap_of(setup=PLAYERS, *actions):
    st = ts.initial(setup)
    for a in actions:
        st = ts.apply(st, a)
    return ts.snapshot(st)


def refused(snap_setup, action, *before):
    st = ts.initial(snap_setup)
    for a in before:
        st = ts.apply(st, a)
    with pytest.raises(RuleError) as exc:
        ts.apply(st, action)
    return str(exc.value)


# ----------------------------------------------------------------- when to set up
def test_setup_is_needed_until_characters_or_anything_happens():
    snap = snap_of()
    assert s.nothing_happened(snap) and s.needs_setup(snap, skipped=False)
    assert not s.needs_setup(snap, skipped=True)
    assert not s.needs_setup(snap_of(PLAYERS | {"characters": [MARIE]}), False)
    after_stay = snap_of(PLAYERS, {"type": "stay"})
    assert not s.nothing_happened(after_stay) and not s.needs_setup(after_stay, False)
    # an item found before the first turn does not count as something happening
    item = snap_of(PLAYERS, {"type": "gain_item", "item": "Badge", "agency": True})
    assert s.needs_setup(item, False)
    assert s.skip_value(7, 1) == [7, 1]


# ----------------------------------------------------------------- the draft
def test_new_draft_has_one_blank_sheet_per_player_with_the_missions_traits():
    d = s.new_draft(snap_of(), fresh=True)
    assert (d.mission, d.starting_tu, d.pages) == ("Asylum", 25, 3)
    assert [(x.seat, x.player, x.name) for x in d.sheets] == [(1, "Ann", ""), (2, "Bea", "")]
    assert [t[0] for t in d.sheets[0].traits] == ["Deftness", "Glibness", "Combat"]
    assert d.sheet_at(0) is None and d.sheet_at(2) is d.sheets[1]
    s.choose_mission(d, "The Marcy Case")
    assert [t[0] for t in d.sheets[1].traits] == ["Search", "Ranged Combat", "Close Combat"]
    not_fresh = s.new_draft(snap_of(), fresh=False)
    assert not_fresh.pages == 2 and not_fresh.sheet_at(0) is not_fresh.sheets[0]


def test_draft_from_existing_characters_keeps_them_and_adds_a_sheet_for_the_others():
    d = s.new_draft(snap_of(PLAYERS | {"characters": [MARIE]}), fresh=False)
    assert [(x.seat, x.name, x.life) for x in d.sheets] == [(1, "Marie", 2), (2, "", 2)]
    assert ["Combat", 1] in d.sheets[0].traits


def test_steps_are_clamped_to_the_engine_ranges():
    d = s.new_draft(snap_of(), fresh=True)
    for _ in range(60):
        s.step_tu(d, 5)
    assert d.starting_tu == 200
    s.step_tu(d, -500)
    assert d.starting_tu == 1
    sheet = d.sheets[0]
    for _ in range(4):
        s.step(sheet, "life", -1)
        s.step(sheet, "resistance", -1)
        s.step_trait(sheet, 0, -1)
    assert (sheet.life, sheet.resistance, sheet.traits[0][1]) == (1, 0, 0)
    for _ in range(30):
        s.step(sheet, "life", 1)
        s.step_trait(sheet, 0, 1)
    assert (sheet.life, sheet.traits[0][1]) == (20, 20)
    for _ in range(10):
        s.add_trait(sheet)
    assert len(sheet.traits) == s.MAX_TRAITS


def refusal_of(setup, action):
    return check(ts, ts.initial(setup), action)


def test_check_gives_engine_sheets_and_the_engine_names_the_page():
    d = s.new_draft(snap_of(), fresh=True)
    sheets, why, _ = s.check(d)  # the names are not typed yet: the engine says so
    refused = refusal_of(PLAYERS, {"type": "set_characters", "characters": sheets})
    assert refused.sentence == "Ann's character needs a name." and s.page_of(d, refused) == 1
    s.use_preset(d.sheets[0], s.presets_for("Asylum")[0])
    d.sheets[1].name = " marie bertholet "
    refused = refusal_of(PLAYERS, {"type": "set_characters", "characters": s.check(d)[0]})
    assert refused.sentence == ("Two characters are both called Marie Bertholet: give each its "
                                "own name.")
    assert s.page_of(d, refused) == 2
    d.sheets[1].name = "Paul"
    d.sheets[1].traits = [["", 2]]
    assert s.check(d)[1:] == ("Name each of Paul's characteristics.", 2)
    d.sheets[1].traits = [["", 0]]
    assert s.check(d)[1] == "Give Paul at least one characteristic."
    d.sheets[1].traits = [["Combat", 3], ["Combat", 1]]
    assert s.check(d)[1] == "Paul has Combat twice."
    d.sheets[1].traits = [["Combat", 3], ["", 0]]
    sheets, why, _ = s.check(d)
    assert why == "" and sheets[1] == {"name": "Paul", "player_seat": 2, "life": 2,
                                       "resistance": 2, "characteristics": {"Combat": 3}}
    assert sheets[0]["name"] == "Marie Bertholet" and sheets[0]["life"] == 2
    # the preset carries Marie's ability (Glibness only) to the engine
    assert sheets[0]["abilities"] == [{"characteristic": "Glibness", "turn_to_hit": 1}]
    after = ts.apply(ts.initial(PLAYERS), {"type": "set_characters", "characters": sheets})
    assert [c.name for c in after.characters] == ["Marie Bertholet", "Paul"]
    assert s.new_draft(ts.snapshot(after), fresh=False).sheets[0].extras == {
        "abilities": [{"characteristic": "Glibness", "turn_to_hit": 1}]}
    assert not s.tu_changes(d, snap_of())
    s.step_tu(d, 5)
    assert s.tu_changes(d, snap_of())


def test_madeleines_preset_keeps_her_company_values():
    d = s.new_draft(snap_of(), fresh=True)
    s.use_preset(d.sheets[1], s.presets_for("Asylum")[1])
    assert d.sheets[1].extras["alone"] == {"Deftness": 1, "Glibness": 0, "Combat": 1}
    assert d.sheets[1].extras["together"] == {"Deftness": 3, "Glibness": 2, "Combat": 3}


# ----------------------------------------------------------------- plain refusals
def test_engine_refusals_read_as_sentences():
    full = PLAYERS | {"characters": [MARIE]}
    start = {"type": "test_start", "space": "B", "characters": ["Marie"],
             "shields": ["blank"], "locked": False}
    assert refused(full, start | {"characteristic": ""}) == \
        "Choose the characteristic the test uses first."
    assert refused(full, start | {"characteristic": "Search"}) == \
        "Marie has no Search: leave Marie out of this test."
    assert refused(full, start | {"characteristic": "Combat", "shields": []}) == \
        "Add the card's shields, left to right."
    assert refused(full, start | {"characteristic": "Combat", "characters": []}) == \
        "Choose who takes part in the test at space B."
    assert refused(full, {"type": "set_characters", "characters": [MARIE]},
                   {"type": "stay"}).startswith("Characters change only at the start")
    assert refused(full, {"type": "stay"}, {"type": "end_run", "outcome": "failed_time"}) == \
        "Run 1 is over: start the next run first."
    assert refused(full, {"type": "heal", "character": "Marie", "amount": 1}) == \
        "Marie already has full health (2 LP)."
