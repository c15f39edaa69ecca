"""The T.I.M.E Stories view data, read from real engine snapshots (no Kivy)."""

from __future__ import annotations

import pytest
from samples import ASYLUM

from companion.games import time_stories as ts
from companion.ui.presenters import time_stories as p

SETUP = {k: v for k, v in ASYLUM.items() if k != "mission"}


def play(*actions):
    s = ts.initial(SETUP)
    for a in actions:
        s = ts.apply(s, a)
    return ts.snapshot(s)


@pytest.mark.parametrize(("face", "red", "total"),
                         [(1, False, 1), (2, False, 2), (5, False, 2), (6, False, 3),
                          (1, True, 3), (6, True, 5)])
def test_captain_total_follows_the_rulebook(face, red, total):
    assert p.captain_total(face, red) == total
    assert p.captain_text(face, red).endswith(f" {total} TU")


def test_history_keeps_the_newest_rolls_first_and_a_limit():
    h: list = []
    for face in (1, 2, 3, 4, 5, 6, 1, 2, 3):
        h = p.push_history(h, face, face == 6)
    assert len(h) == p.HISTORY
    assert h[0] == [3, False] and [6, True] in h
    assert p.history_lines(h)[0] == "Die 3: 2 TU"


def test_die_animation_tumbles_then_settles_on_the_rolled_face():
    anim = p.DieAnimation(face=2, start_ns=1_000)
    seen = {anim.shown(1_000 + k * anim.step_ns)[0] for k in range(9)}
    assert 2 not in seen and len(seen) >= 3, "it must tumble through other faces"
    assert anim.shown(1_000 + anim.duration_ns) == (2, True)
    assert anim.shown(1_000) == (2, True), "once settled it stays settled"


def test_mission_view_after_travel_and_stay():
    snap = play({"type": "travel", "die": 2, "to": "Kitchen"}, {"type": "stay"})
    v = p.mission_view(snap)
    assert (v.tu, v.starting_tu, v.running) == (22, 25, True)
    assert v.run_line == "Run 1 · turn 2, at Kitchen"
    assert v.log_lines[-2].startswith("turn 1: travel to Kitchen: captain die 2")
    assert v.log_lines[-1].endswith("23 -> 22 TU")
    assert p.chart_points(snap["burndown"], 25)[0] == (0.0, 1.0)


def test_chart_is_a_staircase_scaled_to_the_starting_tu():
    pts = p.chart_points([[0, 25], [1, 23], [2, 22]], 25, min_turns=10)
    assert pts == [(0.0, 1.0), (0.1, 1.0), (0.1, 0.92), (0.2, 0.92), (0.2, 0.88), (0.3, 0.88)]
    assert p.chart_points([], 25) == []


def test_run_over_offers_the_next_run_and_lists_agency_items():
    snap = play({"type": "gain_item", "item": "Agency badge", "holder": None, "agency": True},
                {"type": "gain_item", "item": "Key", "holder": "Marie", "agency": False},
                {"type": "adjust_tu", "delta": -25, "reason": "card"})
    v = p.mission_view(snap)
    assert not v.running and v.outcome_text == "Mission failed: time ran out"
    assert v.kept_items == ["Agency badge"]


def test_odds_and_roll_lines_for_the_cook_example():
    start = {"type": "test_start", "space": "B", "characteristic": "Glibness",
             "characters": ["Marie", "Madeleine"],
             "shields": ["blank", "blank", "skull", "blank"], "locked": False}
    snap = play(start)
    lines = p.odds_lines(snap["tests"][0]["odds"])
    assert lines[0] == "4 dice: clear 28.0 %"
    assert lines[1].startswith("Marie hurt ")
    snap = play(start, {"type": "test_roll", "faces": [1, 3, 4, 2],
                        "modifiers": {"turn_to_hit": 1}})
    rl = p.roll_lines(snap["last_roll"])
    assert rl[:4] == ["Space B: 2 hits, 1 skull, 1 turned to hit",
                      "Removed: blank, blank", "Left: skull, blank", "Riposte: 2 skulls"]
    assert not any("loses" in line for line in rl), "resistance 2 holds off a riposte of 2"
    assert p.face_symbols(snap["last_roll"]) == ["hit", "blank", "hit", "skull"]


def test_counts_read_as_words_one_die_no_hit_s():
    assert p.captain_text(2, False) == "Die 2: 2 TU"  # no "= 2 TU" repeating it
    assert p.captain_text(2, True) == "Die 2: 2 TU + 2 red = 4 TU"
    assert p.odds_lines({"dice": 1, "p_clear": 0.5, "characters": {}})[0] == (
        "1 die: clear 50.0 %")
    start = {"type": "test_start", "space": "B", "characteristic": "Glibness",
             "characters": ["Madeleine"], "shields": ["blank", "skull"], "locked": False}
    snap = play(start, {"type": "test_roll", "faces": [1]})
    (line, *_rest) = p.roll_lines(snap["last_roll"])
    assert line == "Space B: 0 hits, 1 skull"
    log = [e["reason"] for e in snap["log"]]
    assert "test at B: Glibness (Madeleine), 1 die against 2 shields" in log
    assert ("roll at B, rolled 1: 0 hits, 1 skull, removed 0 shields, 2 shields left, "
            "riposte 2 skulls") in log
    assert "(s)" not in " ".join(log)


def test_life_text_hearts_numbers_and_revival():
    c = {"dead": False, "life": 1, "max_life": 3, "revives_at": None}
    assert p.life_text(c) == "\u2665\u2661\u2661"
    assert p.life_text(c | {"life": 9, "max_life": 12}) == "9/12 LP"
    assert p.life_text(c | {"dead": True, "revives_at": 11}) == "dead: back at 11 TU"
    assert "cannot come back" in p.life_text(c | {"dead": True})


def test_the_tables_dice_symbols_read_back_as_themselves():
    """Each symbol a die can be set to is logged as a face the engine reads as it."""
    from companion.games.time_stories.action_test import FACE_SYMBOL

    assert set(p.DIE_SYMBOLS) == set(FACE_SYMBOL.values())
    assert [FACE_SYMBOL[f] for f in p.faces_for(list(p.DIE_SYMBOLS))] == list(p.DIE_SYMBOLS)
