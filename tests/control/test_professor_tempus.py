"""Professor Tempus's taps without a window: what the host taps, what the log records and
what the table is told, with a real game session (``ProfessorTempusControl``).

The rulebook's examples: Arthur opens a descending series with the 5 red; Mickael plays
the 3 red on it (lower, same colour) and takes it; Louisa plays the 3 joker on the 3 red
(same value) and takes it. A round ends when every hand is down to two cards; then each
player's hourglasses are counted (at most 3 per card collected)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.control.professor_tempus import ProfessorTempusControl
from companion.games import professor_tempus as pt
from tests.control.table_port import TablePort
from tests.ui.test_professor_tempus_presenter import SCORES, round_actions

ARTHUR, MICKAEL, LOUISA = 1, 2, 3
SETUP = {"players": [{"name": "Arthur", "seat": 1}, {"name": "Mickael", "seat": 2},
                     {"name": "Louisa", "seat": 3}], "first_seat": 1}
FIVE = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate(
    ["Arthur", "Mickael", "Louisa", "Zoé", "Yann"])]}


@pytest.fixture
def app(game_log, config):
    return TablePort(game_log, config)


@pytest.fixture
def control(app):
    app.start("professor_tempus", SETUP)
    control = ProfessorTempusControl(app)
    app.on_refresh = control.view  # as the screen does after each step
    control.view()
    return control


def card(colour, value):
    return {"colour": colour, "value": value}


def taps(control, *steps):
    """Each step is (method, args...) as the screen passes a tap on; the last result."""
    done = None
    for name, *args in steps:
        done = getattr(control, name)(*args)
    return done


OPENING = [  # the rulebook's example, tap by tap, and what the log then holds
    ((("choose_mode", "open-"), ("choose_holder", 0), ("choose_colour", "red"),
      ("enter_value", 5)),
     {"type": "open_series", "seat": ARTHUR, "holder": 0, "direction": "-",
      "card": card("red", 5)}),
    ((("choose_mode", "play_on"), ("choose_holder", 0), ("enter_value", 3)),
     {"type": "play_on", "seat": MICKAEL, "holder": 0, "card": card("red", 3)}),
    ((("choose_holder", 0), ("choose_colour", "joker"), ("enter_value", 3)),
     {"type": "play_on", "seat": LOUISA, "holder": 0, "card": card("joker", 3)}),
]


def test_the_rulebook_opening_tap_by_tap(app, control):
    for steps, action in OPENING:
        assert taps(control, *steps)
        assert app.actions[-1] == action
    assert app.session.state.holders[0].owner == LOUISA
    v = control.view()
    assert v.headline == "Arthur's turn" and v.seat == ARTHUR and v.page == "move"
    assert [h["then"] for h in v.holders] == ["next: any", "", ""]
    assert [c["active"] for c in v.strip] == [True, False, False]


@pytest.mark.parametrize(("steps", "said"), [
    # 7 is not lower than 5: the engine's own sentence, nothing recorded
    ((("choose_mode", "play_on"), ("choose_holder", 0), ("enter_value", 7)),
     "The 7 red cannot go on holder 1: the series goes down (-): play lower than 5 red."),
    # play on chosen, the holder that was chosen is free: a holder must be chosen first
    ((("choose_mode", "play_on"), ("choose_holder", 1), ("choose_mode", "open+"),
      ("choose_mode", "play_on"), ("enter_value", 7)), "Choose a holder first"),
])
def test_a_move_refused_is_said_and_kept(app, control, steps, said):
    assert taps(control, *OPENING[0][0])
    before = list(app.actions)
    assert not taps(control, *steps)
    assert app.actions == before and app.last_said() == (said, True)
    assert control.move.mode == "play_on"  # the entry stays as it was for a retry


def test_the_colour_stays_from_player_to_player_a_joker_does_not(app, control):
    assert taps(control, ("choose_mode", "open+"), ("choose_colour", "purple"),
                ("enter_value", 5))
    assert control.move.colour == "purple"  # Mickael's entry: purple, not red again
    assert taps(control, ("choose_holder", 0), ("enter_value", 6))
    assert app.actions[-1]["card"] == card("purple", 6)
    assert taps(control, ("choose_holder", 0), ("choose_colour", "joker"), ("enter_value", 7))
    assert control.move.colour == "purple"  # the joker was one card, not the series' colour
    assert app.undo()
    assert control.move.colour == "purple"  # an undo does not bring red back either
    assert control.view().card == "purple"


def play_to_the_count(app):
    """The rulebook opening, then reds up until every hand is down to two cards."""
    for action in ([a for _s, a in OPENING] +
                   [{"type": "open_series", "seat": ARTHUR, "holder": 1, "direction": "+",
                     "card": card("red", 10)}]):
        assert app.act(action)
    seat = MICKAEL
    for value in range(11, 19):
        assert app.act({"type": "play_on", "seat": seat, "holder": 1,
                        "card": card("red", value)}), app.said
        seat = seat % 3 + 1
    assert app.session.state.phase == "scoring"


def test_the_count_capped_said_and_scored(app, control):
    play_to_the_count(app)
    v = control.view()
    assert v.page == "count" and v.headline == "Count hourglasses"
    arthur = next(r for r in v.count if r.get("seat") == ARTHUR)
    assert arthur["text"] == "Arthur: 0" and not arthur["can_plus"]
    control.plus(ARTHUR)  # no card collected: nothing to count, and why
    assert app.last_said() == ("Arthur's max: 0 (3 hourglasses per card, no cards)", True)
    assert control.count_pad(ARTHUR) is None
    cap = 3 * len(app.session.state.rounds[-1].collected[2])
    for _ in range(cap + 2):
        control.plus(LOUISA)
    assert control.entries == {LOUISA: cap}  # at the cap, "+" says why
    assert app.last_said()[0].startswith(f"Louisa's max: {cap} ")
    control.bump(LOUISA, -1)
    assert control.count_pad(LOUISA) == (f"Hourglasses for Louisa (0 to {cap})", cap, cap - 1)
    control.set_count(LOUISA, 4)
    assert control.score_round()
    assert app.actions[-1] == {"type": "score_round", "hourglasses": {"1": 0, "2": 0, "3": 4}}
    v = control.view()
    assert v.page == "move" and v.headline == "Mickael's turn"
    assert [c["detail"].endswith("4 points") for c in v.strip] == [False, False, True]


def test_an_undo_of_score_round_gives_the_count_back(app, control):
    play_to_the_count(app)
    for _ in range(4):
        control.plus(LOUISA)
    assert control.score_round()
    assert app.undo()
    assert app.session.state.phase == "scoring"
    assert control.entries == {LOUISA: 4}  # not 0 for all
    assert [r["text"] for r in control.view().count[:3]] == ["Arthur: 0", "Mickael: 0",
                                                              "Louisa: 4"]
    assert control.score_round()
    assert app.actions[-1]["hourglasses"] == {"1": 0, "2": 0, "3": 4}


def test_a_seat_button_confirms_the_player_on_turn_only(app, control):
    assert not control.press(MICKAEL, True)  # not his turn: nothing said, nothing lit
    assert not control.press(ARTHUR, False)  # a release
    assert app.said == [] and app.cues == []
    assert control.press(ARTHUR, True)
    assert app.last_said() == ("Yes, Arthur: it is your turn", False) and app.cues == ["tap"]
    assert [c["chosen"] for c in control.view().strip] == [True, False, False]
    assert taps(control, *OPENING[0][0])  # the turn passes: the light goes out
    assert control.confirmed is None
    assert not any(c["chosen"] for c in control.view().strip)


def test_five_players_correct_an_earlier_round(game_log, config):
    app = TablePort(game_log, config)
    app.start("professor_tempus", FIVE)
    control = ProfessorTempusControl(app)
    deck = list(reversed(pt.all_cards()))
    for score in SCORES[:2]:
        actions, _ = round_actions(app.session.state, deck)
        for action in actions:
            assert app.act(action), app.said
        assert app.act({"type": "score_round", "hourglasses": score})
    control.toggle_scores()
    v = control.view()
    assert v.page == "scores" and v.headline == "Scores" and v.cols == 6
    assert [c["text"] for c in v.table if c.get("first")][1:] == ["Count 1", "Count 2", "Total"]
    assert [r["key"] for r in v.rounds] == [("start_correction", 1), ("start_correction", 2)]
    control.start_correction(1)
    assert control.fix_entries == {1: 3, 2: 4, 3: 1, 4: 0, 5: 0}
    v = control.view()
    assert (v.page, v.headline, v.info) == ("count", "Correct round 1", "Round 1 (count 1)")
    assert v.count[-1] == {"viewclass": "PtCountEnd", "fixing": 1}
    control.bump(MICKAEL, -2)
    control.cancel_correction()  # nothing sent
    assert control.view().page == "scores" and app.actions[-1]["type"] == "score_round"
    control.start_correction(1)
    control.bump(MICKAEL, -2)
    assert control.save_correction()
    assert app.actions[-1] == {"type": "correct_round", "round": 1,
                               "hourglasses": {"1": 3, "2": 2, "3": 1, "4": 0, "5": 0}}
    assert control.fixing is None and control.view().page == "scores"
    control.toggle_scores()
    assert control.view().page == "move"


def test_another_game_starts_with_nothing_half_entered(app, control):
    assert taps(control, ("choose_colour", "purple"), ("enter_value", 5))
    control.toggle_scores()
    app.start("professor_tempus", SETUP)
    v = control.view()
    assert (v.page, v.card, control.scores_open) == ("move", "red", False)
    app.controller.session = None
    assert control.view().headline == "No game"


def test_the_controller_loads_without_kivy():
    code = ("import sys, companion.control.professor_tempus, companion.control.time_after_time\n"
            "print(sorted(m for m in sys.modules if m.startswith('kivy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2], timeout=120)
    assert out.stdout.strip() == "[]"
