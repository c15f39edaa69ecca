"""Every refusal of every engine, driven once, read as a sentence for the table.

The refusals are found in the source: every ``RuleError(...)`` written in
``companion/games`` is a site with a literal code. ``CASES`` drives each site with a
game where it happens (the site reached is recorded as the error is built, so a case
that reaches another site than it says is caught). Each sentence must read as words for
the table: a capital letter, a full stop, players by their names (never "seat 3" when
Cara sits there), no program identifiers or data.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, reduce
from pathlib import Path
from typing import Any

import pytest
from refusals import plain_sentence_problems

import companion.games as games_pkg
from companion.errors import RuleError
from companion.games import crazy_time as ct
from companion.games import professor_tempus as pt
from companion.games import scorepad as sp
from companion.games import stop_time as stop
from companion.games import time_after_time as tat
from companion.games import time_stories as ts
from companion.games import times as tm
from companion.games.professor_tempus import Card
from companion.games.time_stories import action_test as at
from companion.games.times import table as tt
from companion.games.times.cards import parse_card as times_card
from companion.slap.verdict import decide, false_alarm

GAMES = Path(games_pkg.__file__).parent


@cache
def sites() -> dict[tuple[str, int], str]:
    """(file, line) -> code of every ``RuleError(...)`` built in the engines."""
    found = {}
    for path in sorted(GAMES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError":
                code = node.args[0] if node.args else None
                assert isinstance(code, ast.Constant) and isinstance(code.value, str), \
                    f"{path}:{node.lineno}: a refusal's code must be a literal"
                found[(str(path), node.lineno)] = code.value
    return found


# ------------------------------------------------------------------ games to refuse in
@dataclass(frozen=True)
class Case:
    code: str
    run: Callable[[], Any]  # raises the refusal
    seated: dict[int, str]  # seat -> the name of who sits there


def refusing(engine, setup: dict, *before: dict):
    """A callable that plays ``before`` and then the action given to it."""
    def then(action: dict) -> Callable[[], Any]:
        return lambda: engine.apply(reduce(engine.apply, before, engine.initial(setup)), action)
    return then


def seated(setup: dict) -> dict[int, str]:
    return {p["seat"]: p["name"] for p in setup.get("players", [])}


# Crazy Time: Ann 1, Bob 2, Cara 3, Dan 4, Eve 5; Bob deals first
CT = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(
    ["Ann", "Bob", "Cara", "Dan", "Eve"])], "first_dealer": 2}
MS = 1_000_000


def law(name, creator, absent):
    return {"type": "new_law", "name": name, "when": "w", "what": "x", "creator": creator,
            "absent": absent}


def won(seat):
    return {"type": "round_won", "seat": seat}


def pickup(seat, reason="temporal_flaw", **more):
    return {"type": "pickup", "seat": seat, "reason": reason, **more}


def verdict(ms: dict, seats=(1, 2, 3, 4, 5)):
    return decide({s: int(t * MS) for s, t in ms.items()}, seats, MS, "mock")


ROUND_2 = [won(2), law("Sevens", 2, 1)]
OVER = [*ROUND_2, won(3), law("Hush", 3, 4), won(4), law("Mirror", 4, 5), won(5)]
ct_in = refusing(ct, CT)
ct_r2 = refusing(ct, CT, *ROUND_2)
ct_over = refusing(ct, CT, *OVER)
CLEAR = verdict({1: 0, 2: 30, 3: 50, 5: 90, 4: 400}).to_facts()
CLOSE = verdict({1: 0, 2: 30, 5: 90, 3: 400, 4: 400.3}).to_facts()
CALLED_OFF = false_alarm(verdict({3: 0, 1: 50})).to_facts()
NOBODY = false_alarm(verdict({})).to_facts()
CT_SEATS = seated(CT)

CRAZY_TIME = [
    Case("crazy_time.player_count", lambda: ct.deal_size(3), CT_SEATS),
    Case("crazy_time.no_such_seat", ct_in(pickup(9)), CT_SEATS),
    Case("crazy_time.negative_count", ct_in(pickup(2, pile=-1)), CT_SEATS),
    Case("crazy_time.pile_count", refusing(ct, CT, pickup(2, pile=7))(pickup(2, pile=13)),
         CT_SEATS),
    Case("crazy_time.pile_ceiling", ct_in(pickup(2, pile=99)), CT_SEATS),
    Case("crazy_time.pile_emptied", refusing(ct, CT, *ROUND_2, pickup(1, law="Sevens", pile=4))(
        {"type": "guess", "seat": 1, "law": "Sevens", "correct": True, "emptied": False}),
         CT_SEATS),
    Case("crazy_time.empty_text", ct_in({"type": "accusation", "accuser": 1, "accused": 2,
                                         "law": " ", "correct": True}), CT_SEATS),
    Case("crazy_time.game_over", ct_over(pickup(1)), CT_SEATS),
    Case("crazy_time.law_first", refusing(ct, CT, won(2))(pickup(1)), CT_SEATS),
    Case("crazy_time.no_fifth_round", ct_over(won(1)), CT_SEATS),
    Case("crazy_time.no_law_after_last_round", ct_over(law("Late", 5, 3)), CT_SEATS),
    Case("crazy_time.law_after_win", ct_in(law("Early", 1, 2)), CT_SEATS),
    Case("crazy_time.law_name_taken", refusing(ct, CT, won(2))(law("time  machine", 2, 1)),
         CT_SEATS),
    Case("crazy_time.law_by_winner", refusing(ct, CT, won(2))(law("Sevens", 3, 1)), CT_SEATS),
    Case("crazy_time.creator_stays", refusing(ct, CT, won(2))(law("Sevens", 2, 2)), CT_SEATS),
    Case("crazy_time.left_once", refusing(ct, CT, *ROUND_2, won(3))(law("Hush", 3, 1)),
         CT_SEATS),
    Case("crazy_time.self_accusation", ct_in({"type": "accusation", "accuser": 2, "accused": 2,
                                              "law": "Synchronisation", "correct": True}),
         CT_SEATS),
    Case("crazy_time.mistakes_nobody", ct_in({"type": "mistakes", "seats": []}), CT_SEATS),
    Case("crazy_time.guess_unknown_law", ct_r2({"type": "guess", "seat": 1, "law": "Nope",
                                                "correct": True}), CT_SEATS),
    Case("crazy_time.guess_standing_law", ct_r2({"type": "guess", "seat": 1,
                                                 "law": "Time Machine", "correct": True}),
         CT_SEATS),
    Case("crazy_time.guess_not_absent", refusing(ct, CT, *ROUND_2, pickup(3, law="Sevens"))(
        {"type": "guess", "seat": 4, "law": "Sevens", "correct": True}), CT_SEATS),
    Case("crazy_time.guessed_already", refusing(
        ct, CT, *ROUND_2, pickup(3, law="Sevens"),
        {"type": "guess", "seat": 1, "law": "Sevens", "correct": True},
        pickup(4, law="Sevens"))({"type": "guess", "seat": 1, "law": "Sevens",
                                  "correct": True}), CT_SEATS),
    Case("crazy_time.guess_needs_pickup", ct_r2({"type": "guess", "seat": 1, "law": "Sevens",
                                                 "correct": True}), CT_SEATS),
    Case("crazy_time.wrong_guess_empties", refusing(ct, CT, *ROUND_2, pickup(3, law="Sevens"))(
        {"type": "guess", "seat": 1, "law": "Sevens", "correct": False, "emptied": True}),
        CT_SEATS),
    Case("crazy_time.false_alarm_is_no_slap", ct_in(pickup(1, "slap", verdict=CALLED_OFF)),
         CT_SEATS),
    Case("crazy_time.slap_is_no_false_alarm", ct_in(pickup(4, "false_slap", verdict=CLEAR)),
         CT_SEATS),
    Case("crazy_time.mistakes_need_false_alarm", ct_in(
        {"type": "mistakes", "seats": [2, 4], "reason": "slap", "verdict": CLEAR}), CT_SEATS),
    Case("crazy_time.erred_without_slap", ct_in(
        {"type": "mistakes", "seats": [2, 1], "reason": "false_slap", "verdict": CALLED_OFF}),
        CT_SEATS),
    Case("slap.verdict_names_other", ct_in(pickup(1, "slap", verdict=CLEAR)), CT_SEATS),
    Case("slap.not_a_candidate", ct_in(pickup(2, "slap", verdict=CLOSE)), CT_SEATS),
    Case("slap.nobody_picks_up", ct_in(pickup(1, "false_slap", verdict=NOBODY)), CT_SEATS),
]

# The slap pad's own log
STOP = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cy"])]}
STOP_V = decide({1: 0, 2: 40 * MS, 3: 90 * MS}, (1, 2, 3), MS, "mock").to_facts()
SLAP_PAD = [
    Case("slap.somebody_picks_up", refusing(stop, STOP)(
        {"type": "slap_round", "verdict": STOP_V, "picker": None, "decision": "verdict"}),
        seated(STOP)),
    Case("stop_time.no_such_seat", refusing(stop, STOP)(
        {"type": "slap_round", "verdict": STOP_V, "picker": 7, "decision": "verdict"}),
        seated(STOP)),
    Case("setup.player_count", lambda: stop.initial({"players": STOP["players"][:1]}),
         seated(STOP)),
    Case("setup.same_name", lambda: stop.initial({"players": [
        {"name": "Ann", "seat": 1}, {"name": "ann", "seat": 2}]}), seated(STOP)),
]

# Score pad
PAD = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}
SCORE_PAD = [
    Case("scorepad.finished", refusing(sp, PAD, {"type": "finish"})({"type": "end_round"}),
         seated(PAD)),
    Case("scorepad.no_such_seat", refusing(sp, PAD)({"type": "score", "seat": 5, "points": 1}),
         seated(PAD)),
    Case("scorepad.too_many_points", refusing(sp, PAD)(
        {"type": "score", "seat": 1, "points": 20_000}), seated(PAD)),
]

# Time After Time: Chloé 1, Lucas 2 (Inès 3 when three play)
TAT = {"players": [{"name": "Chloé", "seat": 1}, {"name": "Lucas", "seat": 2}]}
TAT3 = {"players": TAT["players"] + [{"name": "Inès", "seat": 3}]}
ROW = [(3, 12), (5, 17), (0, 8), (1, 9), (2, 10), (4, 14), (6, 20)]


def place(seat, slot, hour):
    return {"type": "place", "seat": seat, "slot": slot, "hour": hour}


STUCK = [place(1, 4, 8), place(1, 5, 9)]  # 08H in slot 5: four hours before it cannot be
EMPTY_PILE = {"type": "draw_pile", "count": 21}
tat_in = refusing(tat, TAT)
TAT_SEATS = seated(TAT3)
TIME_AFTER_TIME = [
    Case("time_after_time.player_count", lambda: tat.setup_for(5), TAT_SEATS),
    Case("time_after_time.no_such_seat", tat_in(place(7, 0, 6)), TAT_SEATS),
    Case("time_after_time.cannot_place", refusing(tat, TAT, place(1, 3, 12))(place(1, 3, 14)),
         TAT_SEATS),
    Case("time_after_time.both_copies_out", refusing(tat, TAT3, place(1, 3, 12),
                                                     place(2, 3, 12))(place(3, 3, 12)),
         TAT_SEATS),
    Case("time_after_time.both_copies_out", refusing(tat, TAT, place(1, 3, 12), place(2, 3, 12))(
        {"type": "discard", "seat": 1, "hour": 12}), TAT_SEATS),
    Case("time_after_time.no_ghost", tat_in({"type": "ghost", "seat": 1, "delta": -1}),
         TAT_SEATS),
    Case("time_after_time.all_ghosts_held", refusing(
        tat, TAT, {"type": "ghost", "seat": 1, "delta": 1})(
        {"type": "ghost", "seat": 2, "delta": 1}), TAT_SEATS),
    Case("time_after_time.pile_short", tat_in({"type": "draw_pile", "count": 22}), TAT_SEATS),
    Case("time_after_time.emergency_count", refusing(tat, TAT, *STUCK)(
        {"type": "emergency_move", "seat": 1, "moves": [
            {"from": 4, "to": 3}, {"from": 5, "to": 6}, {"from": 4, "to": 5}]}), TAT_SEATS),
    Case("time_after_time.not_stuck", refusing(tat, TAT, place(1, 3, 12))(
        {"type": "emergency_move", "seat": 1, "from": 3, "to": 2}), TAT_SEATS),
    Case("time_after_time.move_twice", refusing(tat, TAT, *STUCK)(
        {"type": "emergency_move", "seat": 1, "moves": [{"from": 4, "to": 3},
                                                        {"from": 4, "to": 3}]}), TAT_SEATS),
    Case("time_after_time.move_breaks_row", refusing(tat, TAT, *STUCK)(
        {"type": "emergency_move", "seat": 1, "moves": [{"from": 4, "to": 5},
                                                        {"from": 5, "to": 4}]}), TAT_SEATS),
    Case("time_after_time.move_one_step", refusing(tat, TAT, *STUCK)(
        {"type": "emergency_move", "seat": 1, "from": 4, "to": 2}), TAT_SEATS),
    Case("time_after_time.slot_taken", refusing(tat, TAT, *STUCK)(
        {"type": "emergency_move", "seat": 1, "from": 4, "to": 5}), TAT_SEATS),
    Case("time_after_time.pile_not_empty", tat_in({"type": "hand_empty", "seat": 1}),
         TAT_SEATS),
    Case("time_after_time.holds_ghosts", refusing(
        tat, TAT, EMPTY_PILE, {"type": "ghost", "seat": 2, "delta": 1, "from": 1})(
        {"type": "hand_empty", "seat": 2}), TAT_SEATS),
    Case("time_after_time.over", refusing(tat, TAT, EMPTY_PILE, {"type": "hand_empty",
                                                                 "seat": 1})(
        place(1, 0, 6)), TAT_SEATS),
    Case("time_after_time.draw_from_right", refusing(tat, TAT3)(
        {"type": "ghost", "seat": 2, "delta": 1, "from": 3}), TAT_SEATS),
    Case("time_after_time.no_ghost_to_give", refusing(
        tat, TAT, {"type": "ghost", "seat": 2, "delta": 1, "from": 1})(
        {"type": "ghost", "seat": 2, "delta": 1, "from": 1}), TAT_SEATS),
    Case("time_after_time.still_placeable", tat_in({"type": "discard", "seat": 1, "hour": 14}),
         TAT_SEATS),
    Case("time_after_time.answer_first", refusing(tat, TAT, *[place(1, s, h) for s, h in ROW])(
        place(2, 0, 6)), TAT_SEATS),
    Case("time_after_time.not_asked", refusing(tat, TAT, *[place(1, s, h) for s, h in ROW])(
        {"type": "ghost_answer", "seat": 2, "holds_ghost": False}), TAT_SEATS),
]

# T.I.M.E Stories: Ann plays Marie, Bea plays Madeleine
MARIE = {"name": "Marie", "player_seat": 1, "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1}}
MADELEINE = {"name": "Madeleine", "player_seat": 2, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 2, "Glibness": 1, "Combat": 2}}
TS = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}],
      "characters": [MARIE, MADELEINE]}
BARE = {"players": TS["players"]}
TS_SEATS = seated(TS)


def at_space(space="B", who=("Marie",), shields=("blank",) * 4, locked=False, trait="Combat"):
    return {"type": "test_start", "space": space, "characteristic": trait,
            "characters": list(who), "shields": list(shields), "locked": locked}


def roll(space, *faces, **more):
    return {"type": "test_roll", "space": space, "faces": list(faces), **more}


ts_in = refusing(ts, TS)
FAILED = {"type": "end_run", "outcome": "failed_time"}
KILL_MARIE = {"type": "damage", "character": "Marie", "amount": 2, "reason": "a fall"}


def sheets(*chars):
    return {"type": "set_characters", "characters": list(chars)}


TIME_STORIES = [
    Case("time_stories.mission_name", lambda: ts.initial(TS | {"mission": " "}), TS_SEATS),
    Case("time_stories.out_of_range", lambda: ts.initial(TS | {"starting_tu": 0}), TS_SEATS),
    Case("time_stories.out_of_range", ts_in({"type": "damage", "character": "Marie",
                                             "amount": 0, "reason": "x"}), TS_SEATS),
    Case("time_stories.mission_complete", refusing(ts, TS, {"type": "end_run",
                                                           "outcome": "successful"})(
        {"type": "start_run"}), TS_SEATS),
    Case("time_stories.run_over", refusing(ts, TS, FAILED)({"type": "stay"}), TS_SEATS),
    Case("time_stories.locked_leave", refusing(ts, TS, at_space(locked=True))(
        {"type": "travel", "die": 3}), TS_SEATS),
    Case("time_stories.zero_correction", ts_in({"type": "adjust_tu", "delta": 0,
                                                "reason": "x"}), TS_SEATS),
    Case("time_stories.run_going", ts_in({"type": "start_run"}), TS_SEATS),
    Case("time_stories.cast_at_start", refusing(ts, TS, {"type": "stay"})(sheets(MARIE)),
         TS_SEATS),
    Case("time_stories.full_health", ts_in({"type": "heal", "character": "Marie",
                                            "amount": 1}), TS_SEATS),
    Case("time_stories.no_test", ts_in({"type": "test_roll", "faces": []}), TS_SEATS),
    Case("time_stories.which_test", refusing(ts, TS, at_space(), at_space("C", ["Madeleine"]))(
        {"type": "test_roll", "faces": [4]}), TS_SEATS),
    Case("time_stories.no_test_at", ts_in({"type": "test_abandon", "space": "F"}), TS_SEATS),
    Case("time_stories.no_characters", refusing(ts, BARE)(at_space()), TS_SEATS),
    Case("time_stories.no_characters", refusing(ts, BARE)(
        {"type": "heal", "character": "Marie", "amount": 1}), TS_SEATS),
    Case("time_stories.test_nobody", ts_in(at_space(who=[])), TS_SEATS),
    Case("time_stories.in_other_test", refusing(ts, TS, at_space())(at_space("C")), TS_SEATS),
    Case("time_stories.space_busy", refusing(ts, TS, at_space())(
        at_space(who=["Madeleine"])), TS_SEATS),
    Case("time_stories.retry_needs_turn", refusing(
        ts, TS, at_space(), roll("B", 3), {"type": "test_abandon", "space": "B"})(at_space()),
        TS_SEATS),
    Case("time_stories.another_space", refusing(ts, TS, at_space(shields=["blank"]),
                                                roll("B", 4))(at_space("C")), TS_SEATS),
    Case("time_stories.rolled_this_turn", refusing(ts, TS, at_space(), roll("B", 3))(
        roll("B", 3)), TS_SEATS),
    Case("time_stories.turn_too_many", refusing(ts, TS, at_space())(
        roll("B", 3, modifiers={"turn_to_hit": 2})), TS_SEATS),
    Case("time_stories.turn_too_many", lambda: at.resolve(["blank"], [3], [],
                                                          turn_to_hit=2), TS_SEATS),
    Case("time_stories.roll_first", refusing(ts, TS, at_space())(
        {"type": "test_continue", "space": "B"}), TS_SEATS),
    Case("time_stories.locked_stay", refusing(
        ts, TS, at_space(who=["Marie", "Madeleine"], locked=True), roll("B", 3, 3, 3))(
        {"type": "test_continue", "space": "B", "characters": ["Marie"]}), TS_SEATS),
    Case("time_stories.locked_abandon", refusing(ts, TS, at_space(locked=True))(
        {"type": "test_abandon", "space": "B"}), TS_SEATS),
    Case("time_stories.no_shields", ts_in(at_space(shields=[])), TS_SEATS),
    Case("time_stories.too_many_shields", ts_in(at_space(shields=["blank"] * 31)), TS_SEATS),
    Case("time_stories.lacks_characteristic", ts_in(at_space(trait="Search")), TS_SEATS),
    Case("time_stories.characteristic_range", lambda: ts.initial(
        TS | {"characters": [MARIE | {"characteristics": {"Combat": 21}}]}), TS_SEATS),
    Case("time_stories.modifier_range", refusing(ts, TS, at_space())(
        roll("B", 3, modifiers={"extra_dice": 30})), TS_SEATS),
    Case("time_stories.missing", ts_in({"type": "adjust_tu", "delta": -1, "reason": " "}),
         TS_SEATS),
    Case("time_stories.missing", ts_in({"type": "damage", "amount": 1, "reason": "x"}),
         TS_SEATS),
    Case("time_stories.missing", ts_in({"type": "drop_item"}), TS_SEATS),
    Case("time_stories.no_such_character", ts_in({"type": "heal", "character": "Hugo",
                                                  "amount": 1}), TS_SEATS),
    Case("time_stories.dead", refusing(ts, TS, KILL_MARIE)(
        {"type": "heal", "character": "Marie", "amount": 1}), TS_SEATS),
    Case("time_stories.character_count", refusing(ts, BARE)(sheets(*[MARIE] * 5)), TS_SEATS),
    Case("time_stories.character_name", refusing(ts, BARE)(sheets(MARIE | {"name": " "})),
         TS_SEATS),
    Case("time_stories.sheet_range", refusing(ts, BARE)(sheets(MARIE | {"life": 0})),
         TS_SEATS),
    Case("time_stories.characteristic_name", refusing(ts, BARE)(
        sheets(MARIE | {"characteristics": {" ": 1}})), TS_SEATS),
    Case("time_stories.company_unknown", refusing(ts, BARE)(
        sheets(MADELEINE | {"alone": {"Luck": 0}})), TS_SEATS),
    Case("time_stories.ability_unknown", refusing(ts, BARE)(
        sheets(MARIE | {"abilities": [{"characteristic": "Luck", "turn_to_hit": 1}]})),
        TS_SEATS),
    Case("time_stories.same_character_name", refusing(ts, BARE)(sheets(MARIE, MARIE)),
         TS_SEATS),
    Case("time_stories.no_such_item", ts_in({"type": "drop_item", "item": "Lamp"}), TS_SEATS),
    Case("time_stories.item_twice", refusing(ts, TS, {"type": "gain_item", "item": "Lamp"})(
        {"type": "gain_item", "item": "lamp"}), TS_SEATS),
    Case("time_stories.item_between_runs", refusing(ts, TS, FAILED)(
        {"type": "gain_item", "item": "Lamp", "holder": "Marie"}), TS_SEATS),
    Case("time_stories.holds_already", refusing(ts, TS, {"type": "gain_item", "item": "Lamp",
                                                         "holder": "Marie"})(
        {"type": "give_item", "item": "Lamp", "to": "Marie"}), TS_SEATS),
]

# Professor Tempus: Arthur 1, Mickael 2, Louisa 3 (Arthur starts)
PT = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(
    ["Arthur", "Mickael", "Louisa"])]}
PT_SEATS = seated(PT)


def card(colour, value, **more):
    return {"colour": colour, "value": value, **more}


def opened(seat, holder, direction, c):
    return {"type": "open_series", "seat": seat, "holder": holder, "direction": direction,
            "card": c}


def play_on(seat, holder, c, kind="play_on"):
    return {"type": kind, "seat": seat, "holder": holder, "card": c}


def pt_state(phase: str, collected=None):
    """A game whose round waits for its count (or is over), as if played out."""
    collected = collected or ((Card("red", 1, 2),), (), ())
    state = pt.initial(PT)
    rnd = pt.Round(1, 1, 1, collected, None if phase == "scoring" else (2, 0, 0))
    return dataclasses.replace(state, phase=phase, rounds=(rnd,))


pt_in = refusing(pt, PT)
pt_open = refusing(pt, PT, opened(1, 0, "-", card("red", 5)))
PROFESSOR_TEMPUS = [
    Case("professor_tempus.player_count", lambda: pt.setup_for(6), PT_SEATS),
    Case("professor_tempus.no_such_value", pt_in(opened(1, 0, "+", card("red", 26))),
         PT_SEATS),
    Case("professor_tempus.even_joker", pt_in(opened(1, 0, "+", card("joker", 4))), PT_SEATS),
    Case("professor_tempus.card_hourglasses", pt_in(opened(1, 0, "+", card(
        "red", 4, hourglasses=5))), PT_SEATS),
    Case("professor_tempus.variant_needs_five", lambda: pt.initial(
        PT | {"five_player_variant": True}), PT_SEATS),
    Case("professor_tempus.no_such_seat", pt_in(opened(7, 0, "+", card("red", 4))), PT_SEATS),
    Case("professor_tempus.count_first", lambda: pt.apply(pt_state("scoring"), opened(
        1, 0, "+", card("red", 4))), PT_SEATS),
    Case("professor_tempus.over", lambda: pt.apply(pt_state("over"), opened(
        1, 0, "+", card("red", 4))), PT_SEATS),
    Case("professor_tempus.over", lambda: pt.apply(pt_state("over"), {"type": "score_round"}),
         PT_SEATS),
    Case("professor_tempus.not_your_turn", pt_in(opened(2, 0, "+", card("red", 4))), PT_SEATS),
    Case("professor_tempus.card_played", pt_open(opened(2, 1, "+", card("red", 5))), PT_SEATS),
    Case("professor_tempus.holder_taken", pt_open(opened(2, 0, "+", card("red", 9))),
         PT_SEATS),
    Case("professor_tempus.open_first", pt_in(play_on(1, 0, card("red", 4))), PT_SEATS),
    Case("professor_tempus.holder_empty", pt_open(play_on(2, 1, card("red", 4))), PT_SEATS),
    Case("professor_tempus.cannot_play_on", pt_open(play_on(2, 0, card("red", 7))), PT_SEATS),
    Case("professor_tempus.tuck_own", refusing(
        pt, PT, opened(1, 0, "-", card("red", 5)), opened(2, 1, "-", card("red", 9)),
        opened(3, 2, "-", card("red", 12)))(play_on(1, 0, card("red", 20), "tuck")), PT_SEATS),
    Case("professor_tempus.enter_hourglasses", lambda: pt.apply(pt_state("scoring", (
        (Card("red", 1, 2),), (Card("red", 2),), ())), {
        "type": "score_round", "hourglasses": {"1": 2}}), PT_SEATS),
    Case("professor_tempus.hourglasses_range", lambda: pt.apply(pt_state("scoring"), {
        "type": "score_round", "hourglasses": {"1": 4, "2": 0, "3": 0}}), PT_SEATS),
    Case("professor_tempus.hourglasses_shown", lambda: pt.apply(pt_state("scoring", (
        (Card("red", 1, 2),), (Card("red", 2, 1),), ())), {
        "type": "score_round", "hourglasses": {"1": 2, "2": 3, "3": 0}}), PT_SEATS),
    Case("professor_tempus.no_count_due", pt_in({"type": "score_round"}), PT_SEATS),
    Case("professor_tempus.not_counted", pt_in({"type": "correct_round", "round": 1,
                                                "hourglasses": {}}), PT_SEATS),
]

# Times: Einstein 1, Curie 2, Gauss 3, Riese 4 (the rulebook's round)
TM = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(
    ["Einstein", "Curie", "Gauss", "Riese"])]}
TM_SEATS = seated(TM)
CARDS = {"type": "play", "cards": {"1": "pink5", "2": "blue1", "3": "yellow3", "4": "yellow1"}}


def m(column, size, start):
    return {"column": column, "size": size, "start": start}


def tplace(seat, *markers):
    return {"type": "place", "seat": seat, "markers": list(markers)}


TURNS = [tplace(1, m("century", 5, 10)), tplace(2, m("century", 1, 13), m("decade", 1, 3)),
         {"type": "doubt", "seat": 3}, tplace(4, m("year", 1, 7))]
tm_in = refusing(tm, TM)
tm_turns = refusing(tm, TM, CARDS)
tm_revealed = refusing(tm, TM, CARDS, *TURNS)
TIMES = [
    Case("times.target_range", lambda: tm.initial(TM | {"target": 0}), TM_SEATS),
    Case("times.no_turns_now", tm_in({"type": "doubt", "seat": 1}), TM_SEATS),
    Case("times.not_your_turn", tm_turns(tplace(2, m("century", 1, 13), m("decade", 1, 3))),
         TM_SEATS),
    Case("times.reveal_at_start", tm_turns(CARDS), TM_SEATS),
    Case("times.no_cards_left", lambda: tm.apply(dataclasses.replace(
        tm.initial(TM), hands=(6, 0, 6, 6)), CARDS), TM_SEATS),
    Case("times.everyone_plays", tm_in({"type": "play", "cards": {"1": "pink5"}}), TM_SEATS),
    Case("times.first_places", tm_turns({"type": "doubt", "seat": 1}), TM_SEATS),
    Case("times.first_places", tm_turns({"type": "join_doubt", "seat": 1}), TM_SEATS),
    Case("times.doubt_predecessor", refusing(tm, TM, CARDS, TURNS[0])(
        {"type": "doubt", "seat": 2, "target": 3}), TM_SEATS),
    Case("times.predecessor_doubted", refusing(tm, TM, CARDS, *TURNS[:3])(
        {"type": "doubt", "seat": 4}), TM_SEATS),
    Case("times.nothing_to_join", refusing(tm, TM, CARDS, TURNS[0])(
        {"type": "join_doubt", "seat": 2}), TM_SEATS),
    Case("times.reveal_after_turns", tm_turns({"type": "reveal_year", "year": 1337}),
         TM_SEATS),
    Case("times.year_range", tm_revealed({"type": "reveal_year", "year": 2001}), TM_SEATS),
    Case("times.judge_first", tm_turns({"type": "next_event"}), TM_SEATS),
    Case("times.override_between", tm_turns({"type": "override", "seat": 1, "hand": 3,
                                             "reason": "x"}), TM_SEATS),
    Case("times.override_reason", tm_in({"type": "override", "seat": 1, "hand": 3,
                                         "reason": " "}), TM_SEATS),
    Case("times.override_range", tm_in({"type": "override", "seat": 1, "score": 120,
                                        "reason": "x"}), TM_SEATS),
    Case("times.over", lambda: tm.apply(dataclasses.replace(
        tm.initial(TM), phase=tm.OVER, winners=(2,)), CARDS), TM_SEATS),
    Case("times.no_such_seat", tm_in({"type": "override", "seat": 9, "hand": 3,
                                      "reason": "x"}), TM_SEATS),
    Case("times.off_the_column", tm_turns(tplace(1, m("century", 5, 16))), TM_SEATS),
    Case("times.outside_period", refusing(tm, TM, CARDS, TURNS[0])(
        tplace(2, m("century", 1, 16), m("decade", 1, 3))), TM_SEATS),
    Case("times.marker_laid", lambda: tt.check_placement(
        (tt.Marker("century", 5, 10, 1),), 2, times_card("pink5"), [m("century", 5, 10)],
        TM_SEATS.get), TM_SEATS),
]

CASES = CRAZY_TIME + SLAP_PAD + SCORE_PAD + TIME_AFTER_TIME + TIME_STORIES + PROFESSOR_TEMPUS \
    + TIMES


# ------------------------------------------------------------------ the walk
@pytest.fixture
def built_at(monkeypatch):
    """Record where (file, line) each RuleError is built during the test."""
    where: list[tuple[str, int]] = []
    original = RuleError.__init__

    def init(self, *args, **kwargs):
        caller = sys._getframe(1)
        where.append((caller.f_code.co_filename, caller.f_lineno))
        original(self, *args, **kwargs)

    monkeypatch.setattr(RuleError, "__init__", init)
    return where


def refusal(case: Case, where: list) -> tuple[RuleError, tuple[str, int]]:
    where.clear()
    with pytest.raises(RuleError) as info:
        case.run()
    return info.value, where[-1]


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c.code}" for i, c in enumerate(CASES)])
def test_each_refusal_is_a_plain_sentence_naming_players_by_name(case, built_at):
    error, site = refusal(case, built_at)
    assert error.code == case.code, error.sentence
    assert site in sites(), f"built outside the engines: {site}"
    assert error.sentence == str(error)
    assert plain_sentence_problems(error.sentence, case.seated) == [], error.sentence


def test_every_refusal_site_of_every_engine_is_walked(built_at):
    reached = set()
    for case in CASES:
        reached.add(refusal(case, built_at)[1])
    missing = {f"{Path(f).relative_to(GAMES.parent.parent)}:{line} {code}"
               for (f, line), code in sites().items() if (f, line) not in reached}
    assert not missing, "refusals no case drives: " + ", ".join(sorted(missing))


def test_the_sentence_check_catches_what_the_table_should_not_read():
    seats = {3: "Cara"}
    assert plain_sentence_problems("Seat 3 picks up.", seats) == ["says seat 3 instead of Cara"]
    assert plain_sentence_problems("Nobody plays at seat 9.", seats) == []
    assert plain_sentence_problems("action 'test_roll' needs 'faces'", seats) == [
        "does not start with a capital letter", "does not end like a sentence",
        "shows the identifier 'test_roll'"]
    assert plain_sentence_problems("Marie has {'x': 1}.", seats) == ["shows data ('{')"]
