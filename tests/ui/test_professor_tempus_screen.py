"""The Professor Tempus screen in the real window: the rulebook's Arthur/Mickael/Louisa
example through the screen's handlers, a refused play with its reason, a round's count."""

from __future__ import annotations

import pytest

from companion.games import professor_tempus as pt
from companion.games.base import check
from companion.ui.presenters import professor_tempus as view

pytestmark = pytest.mark.window

ARTHUR, MICKAEL, LOUISA = 1, 2, 3
SETUP = {"players": [{"name": "Arthur", "seat": 1}, {"name": "Mickael", "seat": 2},
                     {"name": "Louisa", "seat": 3}], "first_seat": 1}


def start(ui):
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", SETUP)
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.name == "professor_tempus"
    return screen


def enter(screen, mode, holder, colour, value):
    screen.choose_mode(mode)
    screen.choose_holder(holder)
    screen.choose_colour(colour)
    return screen.enter_value(value)


def card(colour, value):
    return {"colour": colour, "value": value}


def test_presenter_move_and_refusal():
    state = pt.initial(SETUP)
    assert view.turn_text(state) == "Arthur's turn"
    assert view.fresh_move(state) == view.Move("open+", 0, "red")
    state = pt.apply(state, view.build_action(state, view.Move("open-", 0), 5)[0])
    action, reason = view.build_action(state, view.Move("play_on", 0, "red"), 7)
    refused = check(pt, state, action)  # the engine says why, once, in its words
    assert refused.sentence == ("The 7 red cannot go on holder 1: the series goes down (-): "
                                "play lower than 5 red.")
    assert view.build_action(state, view.Move("play_on", None), 7) == (
        None, "Choose a holder first")
    hs = view.holders(state, view.Move("play_on"))
    assert hs[0]["enabled"] and hs[0]["owner"] == ARTHUR and not hs[1]["enabled"]


def test_rulebook_example_through_the_screen(ui):
    screen = start(ui)
    ui.find("Arthur's turn")
    # Arthur opens a descending series with the 5 red; Mickael plays the 3 red on it and
    # takes it; Louisa plays the 3 joker (joker rule, same value) and takes it.
    ui.tap(ui.find("Open −"))
    ui.tap(ui.find("Red"))
    assert screen.control.move == view.Move("open-", 0, "red")
    ui.tap(value_key(screen, 5))
    assert screen.view.headline == "Mickael's turn"
    assert not enter(screen, "play_on", 0, "red", 7)  # 7 is not lower than 5: refused
    assert "lower than 5 red" in ui.app.status
    assert enter(screen, "play_on", 0, "red", 3)
    assert enter(screen, "play_on", 0, "joker", 3)
    session = ui.app.session
    assert session.actions == [
        {"type": "open_series", "seat": ARTHUR, "holder": 0, "direction": "-",
         "card": card("red", 5)},
        {"type": "play_on", "seat": MICKAEL, "holder": 0, "card": card("red", 3)},
        {"type": "play_on", "seat": LOUISA, "holder": 0, "card": card("joker", 3)}]
    assert ui.app.log.actions(session.game_id) == session.actions
    held = session.state.holders[0]
    assert held.owner == LOUISA and held.colour is None
    ui.find("next: any")
    ui.find("Arthur's turn")
    ui.screenshot("professor_tempus")


def play_a_round(screen):
    """The rulebook's opening (5 red down, 3 red, 3 joker), then a run of reds up until
    every hand is down to two cards: the round ends and the count begins."""
    assert enter(screen, "open-", 0, "red", 5)
    assert enter(screen, "play_on", 0, "red", 3)
    assert enter(screen, "play_on", 0, "joker", 3)
    assert enter(screen, "open+", 1, "red", 10)
    for value in range(11, 19):
        assert enter(screen, "play_on", 1, "red", value)


def count_row(screen, seat):
    """The count's row of ``seat`` (its ``ids``: label, minus, plus)."""
    return next(w for w in screen.ids.count.children if getattr(w, "seat", None) == seat)


def value_key(screen, value):
    keys = screen.ids.value_keys.children[::-1]
    return keys[value - 1]


def test_fast_taps_on_the_hourglass_plus_all_count(ui):
    """Taps 80 ms apart, faster than the screen's frames (no frame between them): the
    "+" under the finger stays where it is, so every tap counts."""
    from kivy.tests.common import UnitTestTouch

    screen = start(ui)
    play_a_round(screen)
    ui.pump()
    row = count_row(screen, LOUISA)
    louisa = next(r for r in view.score_rows(ui.app.session.state, {}) if r["seat"] == LOUISA)
    taps = min(6, louisa["max"])
    assert taps >= 3
    plus = row.ids.plus
    x, y = plus.to_window(*plus.center)
    for _ in range(taps):
        ui.clock.now += 0.08
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
    ui.pump()
    assert screen.control.entries == {LOUISA: taps}
    assert count_row(screen, LOUISA) is row  # updated in place, never made anew


def test_round_count_and_running_totals(ui):
    screen = start(ui)
    play_a_round(screen)
    ui.pump()  # the count's page laid out
    state = ui.app.session.state
    assert state.phase == "scoring"
    ui.find("Count hourglasses")
    for _ in range(4):
        ui.tap(count_row(screen, LOUISA).ids.plus)
    assert screen.control.entries == {LOUISA: 4}
    ui.screenshot("professor_tempus_count")
    ui.tap(ui.find("Score round"))
    assert ui.app.session.actions[-1] == {
        "type": "score_round", "hourglasses": {"1": 0, "2": 0, "3": 4}}
    snap = ui.app.session.snapshot()
    assert snap["totals"] == {"1": 0, "2": 0, "3": 4} and snap["round"] == 2
    ui.find("4 points")
    ui.find("Mickael's turn")  # the next round starts left of the previous first player


def test_the_colour_chosen_stays_for_the_next_player_a_joker_does_not(ui):
    """A purple series goes on in purple: the next player's entry keeps the colour the
    host chose, not red again; a joker (13 cards, even values greyed) is not kept."""
    screen = start(ui)
    assert enter(screen, "open+", 0, "purple", 5)
    assert screen.view.headline == "Mickael's turn" and screen.control.move.colour == "purple"
    ui.screenshot("professor_tempus_colour_kept")
    screen.choose_holder(0)
    assert screen.enter_value(6)  # Mickael plays on in purple without choosing it again
    assert ui.app.session.actions[-1]["card"] == card("purple", 6)
    assert enter(screen, "play_on", 0, "joker", 7)
    assert screen.view.headline == "Arthur's turn" and screen.control.move.colour == "purple"


def test_undo_of_score_round_gives_the_count_back(ui):
    """Undo of "Score round" reopens the count as it was entered, not at 0 for all."""
    screen = start(ui)
    play_a_round(screen)
    ui.pump()  # the count's page laid out
    for _ in range(4):  # Louisa took both series: the only count above 0
        ui.tap(count_row(screen, LOUISA).ids.plus)
    ui.tap(ui.find("Score round"))
    assert ui.app.session.state.phase == "play"
    ui.tap(ui.find("Undo"))
    assert ui.app.session.state.phase == "scoring"
    assert screen.control.entries == {LOUISA: 4}
    ui.find("Louisa: 4")
    ui.screenshot("professor_tempus_undo_score")
    ui.tap(ui.find("Score round"))
    assert ui.app.session.actions[-1]["hourglasses"] == {"1": 0, "2": 0, "3": 4}


FIVE = {"players": [{"name": nm, "seat": i + 1} for i, nm in enumerate(
    ["Arthur", "Mickael", "Louisa", "Zoé", "Yann"])]}  # the variant is on by default


def round_key(screen, number):
    """The scores' key that corrects round ``number``."""
    return next(k for k in screen.ids.rounds.children if k.text == str(number))


def strip_cell(screen, index):
    """The tappable scores cell of the index-th player in the strip."""
    return screen.ids.players.children[::-1][index]


def test_holder_and_strip_text_sizes(ui):
    screen = start(ui)
    assert enter(screen, "open-", 0, "red", 5)
    ui.pump()
    held = ui.find("down 5 red")  # on the holder's key, over what may come next
    then = ui.find("next: red")
    assert held.font_size >= 28 and then.font_size == 22
    assert then.parent is held.parent and then.top <= held.y + 1
    assert held.parent.height >= 60 and screen.ids.players.height >= 64
    detail = ui.find("5 cards · 0 points")
    assert detail.font_size == 22  # the secondary line
    cell = strip_cell(screen, 0)  # Arthur has played: his name plain
    name = ui.find("Arthur")
    assert cell.name == "Arthur" and not cell.active and not name.bold
    assert name.font_size >= 28 and cell.height >= 64
    assert strip_cell(screen, 1).active and ui.find("Mickael").bold


def test_five_player_variant_to_the_winners_then_a_correction(ui):
    from tests.ui.test_professor_tempus_presenter import SCORES, round_actions

    screen = start_with(ui, FIVE)
    deck = list(reversed(pt.all_cards()))
    for k, score in enumerate(SCORES):
        if k == 2:
            deck = list(reversed(pt.all_cards()))  # count 2: all cards shuffled again
        actions, _ = round_actions(ui.app.session.state, deck)
        for action in actions:
            assert ui.app.act(action), ui.app.status
        if k == 0:
            ui.pump()
            ui.screenshot("professor_tempus_five_count")
        assert ui.app.act({"type": "score_round", "hourglasses": score})
        if k == 2:
            ui.pump()
            ui.find("3+5 points")  # Louisa: count 1 + count 2 in the strip
            ui.screenshot("professor_tempus_five_players")
    state = ui.app.session.state
    assert state.phase == "over"
    ui.pump()
    ui.find("Game over")
    ui.find("Mickael & Louisa win: 8 hourglasses")
    ui.screenshot("professor_tempus_game_over")
    # the scores: count 1, count 2 and total, then round 1 corrected after the end
    ui.tap(ui.find("Scores / correct"))
    ui.pump()
    assert screen.control.scores_open
    for text in ("Count 1", "Count 2", "Total", "Correct a round:"):
        ui.find(text)
    ui.screenshot("professor_tempus_scores")
    ui.pump()
    ui.tap(round_key(screen, 1))
    control = screen.control
    assert control.fixing == 1 and control.fix_entries == {1: 3, 2: 4, 3: 1, 4: 0, 5: 0}
    ui.find("Correct round 1")
    ui.find("Round 1 (count 1)")
    ui.find("Mickael: 4")
    for _ in range(2):
        ui.pump()
        ui.tap(count_row(screen, MICKAEL).ids.minus)
    assert screen.control.fix_entries[2] == 2
    ui.screenshot("professor_tempus_correct")
    ui.pump()
    ui.tap(ui.find("Save round 1"))
    assert ui.app.session.actions[-1] == {
        "type": "correct_round", "round": 1,
        "hourglasses": {"1": 3, "2": 2, "3": 1, "4": 0, "5": 0}}
    assert ui.app.log.actions(ui.app.session.game_id) == ui.app.session.actions
    assert ui.app.session.snapshot()["winners"] == [3]
    assert screen.control.fixing is None and screen.control.scores_open
    ui.pump()
    ui.tap(ui.find("Close"))
    ui.find("Louisa wins: 8 hourglasses")


def test_correct_a_round_during_play_and_cancel(ui):
    screen = start(ui)
    assert enter(screen, "open-", 0, "red", 5)
    ui.pump()
    ui.tap(strip_cell(screen, 0))  # the scores strip
    ui.pump()
    ui.find("No round counted yet")
    ui.tap(ui.find("Close"))
    ui.pump()
    assert not screen.control.scores_open
    from tests.ui.test_professor_tempus_presenter import round_actions

    actions, _ = round_actions(ui.app.session.state,
                               [c for c in reversed(pt.all_cards()) if c.key != ("red", 5)])
    for action in actions:
        assert ui.app.act(action), ui.app.status
    assert ui.app.act({"type": "score_round", "hourglasses": {"1": 1, "2": 0, "3": 0}})
    ui.pump()
    ui.tap(strip_cell(screen, 1))
    ui.pump()
    ui.tap(round_key(screen, 1))
    ui.pump()
    assert screen.control.fixing == 1
    ui.tap(ui.find("Cancel"))
    assert screen.control.fixing is None and screen.control.scores_open
    ui.pump()
    ui.tap(ui.find("Close"))
    assert view.Move().mode in [m for m, _ in view.MODES]
    ui.find("Open +")  # the move entry is back
    assert not any(a["type"] == "correct_round" for a in ui.app.session.actions)


def start_with(ui, setup):
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", setup)
    ui.pump()
    return ui.app.sm.current_screen


def test_a_seat_button_confirms_the_player_on_turn_only(ui):
    from companion.events import PressEvent

    screen = start(ui)
    ui.app.say("")
    ui.press_seat("2")  # Mickael: not his turn, nothing happens
    assert screen.control.confirmed is None and ui.app.status == ""
    assert not any(strip_cell(screen, i).chosen for i in range(3))
    ui.press_seat("1")
    assert screen.control.confirmed == ARTHUR and "Arthur: it is your turn" in ui.app.status
    assert strip_cell(screen, 0).chosen and not strip_cell(screen, 1).chosen
    ui.screenshot("professor_tempus_seat_press")
    screen.on_press_event(PressEvent(0, 0, "mock", True))  # the captain button: nothing
    assert screen.control.confirmed == ARTHUR
    assert enter(screen, "open-", 0, "red", 5)  # the turn passes: the light goes out
    assert screen.control.confirmed is None and not strip_cell(screen, 0).chosen


def test_plus_at_the_cap_says_why(ui):
    screen = start(ui)
    play_a_round(screen)
    assert ui.app.session.state.phase == "scoring"
    rows = view.score_rows(ui.app.session.state, {})
    arthur = next(r for r in rows if r["seat"] == ARTHUR)
    assert arthur["max"] == 0 and not arthur["can_plus"]
    assert arthur["why_not_plus"] == "Arthur's max: 0 (3 hourglasses per card, no cards)"
    ui.pump()
    plus = [count_row(screen, seat).ids.plus for seat in (ARTHUR, MICKAEL, LOUISA)]
    assert all(not b.disabled for b in plus)
    ui.tap(plus[0])
    assert ui.app.status_error and ui.app.status == arthur["why_not_plus"]
    assert screen.control.entries.get(ARTHUR, 0) == 0
    louisa = next(r for r in rows if r["seat"] == LOUISA)
    assert louisa["detail"].startswith(f"max {louisa['max']}:")
    for _ in range(louisa["max"] + 1):
        ui.pump()
        ui.tap(count_row(screen, LOUISA).ids.plus)
    assert screen.control.entries[LOUISA] == louisa["max"]
    cards = louisa["cards"]
    assert ui.app.status == f"Louisa's max: {3 * cards} (3 hourglasses per card, {cards} cards)"
    ui.screenshot("professor_tempus_cap")




def test_a_count_typed_on_the_number_pad(ui):
    """A tap on a player's count opens the number pad (0 to their cap); OK enters it.
    A player who collected nothing is told why instead."""
    from companion.ui.widgets import _PADS

    screen = start(ui)
    play_a_round(screen)
    ui.pump()
    ui.tap(count_row(screen, ARTHUR).ids.label)
    assert ui.app.status == "Arthur's max: 0 (3 hourglasses per card, no cards)"
    ui.tap(count_row(screen, LOUISA).ids.label)
    pad = _PADS[ui.app]
    assert pad.is_open and pad.title.startswith("Hourglasses for Louisa (0 to ")
    pad.press("5")
    pad.ok()
    ui.pump()
    assert not pad.is_open and screen.control.entries == {LOUISA: 5}
    ui.find("Louisa: 5")
