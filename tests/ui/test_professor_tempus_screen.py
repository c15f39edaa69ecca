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
    assert screen.move == view.Move("open-", 0, "red")
    ui.tap(ui.find("5", kind=type(ui.find("Red"))))
    assert screen.turn == "Mickael's turn"
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
    from companion.ui.screens.professor_tempus import PtCountRow

    return next(w for w in screen.ids.panel.walk()
                if isinstance(w, PtCountRow) and w.r.get("seat") == seat
                and w.get_root_window() is not None)


def test_fast_taps_on_the_hourglass_plus_all_count(ui):
    """Taps 80 ms apart, faster than the screen's frames (no frame between them): the
    "+" under the finger stays where it is, so every tap counts."""
    from kivy.tests.common import UnitTestTouch

    screen = start(ui)
    play_a_round(screen)
    ui.pump()
    row = count_row(screen, LOUISA)
    taps = min(6, row.r["max"])
    assert taps >= 3
    x, y = row.plus.to_window(*row.plus.center)
    for _ in range(taps):
        ui.clock.now += 0.08
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
    ui.pump()
    assert screen.entries == {LOUISA: taps}
    assert count_row(screen, LOUISA) is row  # updated in place, never made anew


def test_round_count_and_running_totals(ui):
    screen = start(ui)
    play_a_round(screen)
    state = ui.app.session.state
    assert state.phase == "scoring"
    ui.find("Count hourglasses")
    for _ in range(4):
        ui.tap(count_row(screen, LOUISA).plus)
    assert screen.entries == {LOUISA: 4}
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
    assert screen.turn == "Mickael's turn" and screen.move.colour == "purple"
    ui.screenshot("professor_tempus_colour_kept")
    screen.choose_holder(0)
    assert screen.enter_value(6)  # Mickael plays on in purple without choosing it again
    assert ui.app.session.actions[-1]["card"] == card("purple", 6)
    assert enter(screen, "play_on", 0, "joker", 7)
    assert screen.turn == "Arthur's turn" and screen.move.colour == "purple"


def test_undo_of_score_round_gives_the_count_back(ui):
    """Undo of "Score round" reopens the count as it was entered, not at 0 for all."""
    screen = start(ui)
    play_a_round(screen)
    for _ in range(4):  # Louisa took both series: the only count above 0
        ui.tap(count_row(screen, LOUISA).plus)
    ui.tap(ui.find("Score round"))
    assert ui.app.session.state.phase == "play"
    ui.tap(ui.find("Undo"))
    assert ui.app.session.state.phase == "scoring"
    assert screen.entries == {LOUISA: 4}
    ui.find("Louisa: 4")
    ui.screenshot("professor_tempus_undo_score")
    ui.tap(ui.find("Score round"))
    assert ui.app.session.actions[-1]["hourglasses"] == {"1": 0, "2": 0, "3": 4}


FIVE = {"players": [{"name": nm, "seat": i + 1} for i, nm in enumerate(
    ["Arthur", "Mickael", "Louisa", "Zoé", "Yann"])]}  # the variant is on by default


def panel_buttons(screen, text):
    """The buttons showing ``text`` on the panel's page shown (the others are off the
    window)."""
    from kivy.uix.button import Button

    return [w for w in screen.ids.panel.walk() if isinstance(w, Button) and w.text == text
            and w.get_root_window() is not None]


def strip_cell(screen, index):
    """The tappable scores cell of the index-th player in the strip."""
    box = list(reversed(screen.ids.players.children))[index]
    return box.children[0]


def test_holder_and_strip_text_sizes(ui):
    screen = start(ui)
    assert enter(screen, "open-", 0, "red", 5)
    ui.pump()
    held = ui.find("down 5 red")  # on the holder's key, over what may come next
    then = ui.find("next: red")
    assert held.font_size >= 28 and then.font_size == 22
    holder = held.parent
    assert then.parent is holder and then.top <= held.y
    assert holder.height >= 64 and screen.ids.players.height >= 64
    detail = ui.find("5 cards · 0 points")
    assert detail.font_size == 22  # the secondary line
    cell = detail.parent
    name = cell.ids.plain  # Arthur has played: his name plain, the bold one hidden
    assert cell.name == "Arthur" and name.font_size >= 28 and name.opacity == 1
    assert name.text == "Arthur" and cell.height >= 64 and cell.ids.bold.opacity == 0


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
    assert screen.scores_open
    for text in ("Count 1", "Count 2", "Total", "Correct a round:"):
        ui.find(text)
    ui.screenshot("professor_tempus_scores")
    ui.pump()
    ui.tap(panel_buttons(screen, "1")[0])
    assert screen.fixing == 1 and screen.fix_entries == {1: 3, 2: 4, 3: 1, 4: 0, 5: 0}
    ui.find("Correct round 1")
    ui.find("Round 1 (count 1)")
    ui.find("Mickael: 4")
    for _ in range(2):
        ui.pump()
        minus = panel_buttons(screen, "−")[1]  # Mickael's
        ui.tap(minus)
    assert screen.fix_entries[2] == 2
    ui.screenshot("professor_tempus_correct")
    ui.pump()
    ui.tap(ui.find("Save round 1"))
    assert ui.app.session.actions[-1] == {
        "type": "correct_round", "round": 1,
        "hourglasses": {"1": 3, "2": 2, "3": 1, "4": 0, "5": 0}}
    assert ui.app.log.actions(ui.app.session.game_id) == ui.app.session.actions
    assert ui.app.session.snapshot()["winners"] == [3]
    assert screen.fixing is None and screen.scores_open
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
    assert not screen.scores_open
    from tests.ui.test_professor_tempus_presenter import round_actions

    actions, _ = round_actions(ui.app.session.state,
                               [c for c in reversed(pt.all_cards()) if c.key != ("red", 5)])
    for action in actions:
        assert ui.app.act(action), ui.app.status
    assert ui.app.act({"type": "score_round", "hourglasses": {"1": 1, "2": 0, "3": 0}})
    ui.pump()
    ui.tap(strip_cell(screen, 1))
    ui.pump()
    ui.tap(panel_buttons(screen, "1")[0])
    ui.pump()
    assert screen.fixing == 1
    ui.tap(ui.find("Cancel"))
    assert screen.fixing is None and screen.scores_open
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
    assert screen.confirmed is None and ui.app.status == ""
    assert not any(strip_cell(screen, i).chosen for i in range(3))
    ui.press_seat("1")
    assert screen.confirmed == ARTHUR and "Arthur: it is your turn" in ui.app.status
    assert strip_cell(screen, 0).chosen and not strip_cell(screen, 1).chosen
    ui.screenshot("professor_tempus_seat_press")
    screen.on_press_event(PressEvent(0, 0, "mock", True))  # the captain button: nothing
    assert screen.confirmed == ARTHUR
    assert enter(screen, "open-", 0, "red", 5)  # the turn passes: the light goes out
    assert screen.confirmed is None and not strip_cell(screen, 0).chosen


def test_plus_at_the_cap_says_why(ui):
    screen = start(ui)
    play_a_round(screen)
    assert ui.app.session.state.phase == "scoring"
    rows = view.score_rows(ui.app.session.state, {})
    arthur = next(r for r in rows if r["seat"] == ARTHUR)
    assert arthur["max"] == 0 and not arthur["can_plus"]
    assert arthur["why_not_plus"] == "Arthur's max: 0 (3 hourglasses per card, no cards)"
    ui.pump()
    plus = panel_buttons(screen, "+")
    assert len(plus) == 3 and all(not b.disabled for b in plus)
    ui.tap(next(b for b in plus if b.parent.children[-1].seat == ARTHUR))
    assert ui.app.status_error and ui.app.status == arthur["why_not_plus"]
    assert screen.entries.get(ARTHUR, 0) == 0
    louisa = next(r for r in rows if r["seat"] == LOUISA)
    assert louisa["detail"].startswith(f"max {louisa['max']}:")
    for _ in range(louisa["max"] + 1):
        ui.pump()
        ui.tap(next(b for b in panel_buttons(screen, "+")
                    if b.parent.children[-1].seat == LOUISA))
    assert screen.entries[LOUISA] == louisa["max"]
    cards = louisa["cards"]
    assert ui.app.status == f"Louisa's max: {3 * cards} (3 hourglasses per card, {cards} cards)"
    ui.screenshot("professor_tempus_cap")


def test_a_long_name_fitted_on_turn_is_whole_off_turn(ui):
    """Five 20-letter names: a name fitted in bold while on turn (it needs more room) is
    fitted again when its turn ends, not left cut with "..." (was: a new game whose
    seat was on turn in the last one showed "Dominik M...")."""
    from layout_check import FOUR

    from companion.ui.widgets import fitting

    five = FOUR + [{"name": "Evangelina Rosenthal", "seat": 5}]
    screen = start_with(ui, {"players": five})
    cell = strip_cell(screen, 3)
    line = cell.ids.plain  # the name line off turn
    cell.active = True
    cell.name = "Dominik Maximilianus Dominik"  # too long in bold: cut
    ui.pump()
    cell.name = "Dominik Maximilianus"
    ui.pump()
    cell.active = False
    ui.pump()
    assert not line.shorten and line.text == "Dominik Maximilianus" and line.opacity == 1
    bold = cell.ids.bold  # on turn: fitted in bold, in the same box
    assert bold.bold and bold.text == "Dominik Maximilianus" and bold.size == line.size
    assert (bold.font_size, not bold.shorten) == fitting(
        bold.text, bold.width - bold.padding[0] - bold.padding[2],
        bold.height - bold.padding[1] - bold.padding[3], bold.sizes, 2, True)
    ui.app.end_game("abandoned", ask=False)


def test_the_turn_passing_on_draws_no_name(ui, label_renders):
    """A strip cell holds its name plain and bold (on turn), each drawn once: the turn
    passing on shows the other one, no name is fitted or drawn again (was: one label
    made bold and plain again at every turn, fitted and drawn anew)."""
    screen = start(ui)
    cells = [strip_cell(screen, i) for i in range(3)]
    names = [w for c in cells for w in (c.ids.plain, c.ids.bold)]
    renders = label_renders(*names)
    for i, (mode, value) in enumerate((("open-", 5), ("play_on", 3), ("play_on", 2))):
        assert enter(screen, mode, 0, "red", value)
        ui.pump(2)
        on = (i + 1) % 3
        for k, c in enumerate(cells):
            assert c.active == (k == on)
            assert (c.ids.bold.opacity, c.ids.plain.opacity) == ((1, 0) if k == on else (0, 1))
    assert renders == []
    ui.app.end_game("abandoned", ask=False)


def test_a_detail_line_shown_before_is_not_drawn_again(ui, label_renders):
    """Each player's detail line comes back for the next player in turn ("5 cards · 0
    points"): the second player's is shown from the first one's kept texture (PtDetail:
    KeptText), drawing nothing, and reads that player's own cards and points."""
    from companion.ui import kept_text
    from companion.ui.screens.professor_tempus import PtDetail

    screen = start(ui)
    details = [strip_cell(screen, i).children[0] for i in range(3)]
    assert all(isinstance(d, PtDetail) for d in details)
    renders = label_renders(*details)
    try:
        assert enter(screen, "open-", 0, "red", 5)
        ui.pump(2)
        assert details[0].text.endswith(" cards · 0 points")
        assert details[0].text != details[1].text  # Arthur has played, Mickael not yet
        renders.clear()
        assert enter(screen, "play_on", 0, "red", 3)
        ui.pump(2)
        assert details[1].text == details[0].text
        assert details[1].texture is details[0].texture
        assert renders == []
    finally:
        kept_text.forget_all()


def test_a_round_end_shown_again_draws_no_count_words(ui, label_renders):
    """The count's rows are kept labels on a page that stays in the panel's stack: the
    card that ends a round, undone and played again, shows the same page again, and a
    row's words shown before ("Louisa: 0" after "Louisa: 1") come from their kept
    texture, drawn once (was: one markup label per row, drawn anew at every change, and
    the count panel put back in the screen at every round's end)."""
    from companion.ui import kept_text
    from companion.ui.screens.professor_tempus import PtCountRow

    screen = start(ui)
    play_a_round(screen)  # the last card ends the round: the count shows
    ui.pump(2)
    page = screen._panels["score"]
    rows = [w for w in page.walk() if isinstance(w, PtCountRow)]
    louisa = count_row(screen, LOUISA)
    assert louisa.label.ids.name.text == "Louisa: 0"
    words = [label for row in rows for label in (row.label.ids.name, row.label.ids.detail)]
    renders = label_renders(*words)
    try:
        last = ui.app.session.actions[-1]
        ui.app.undo()
        ui.pump(2)
        assert ui.find("Open +") and page.get_root_window() is None
        assert ui.app.act(last)
        ui.pump(2)
        assert ui.app.session.state.phase == "scoring"
        assert page.get_root_window() is not None and page.parent is screen.ids.panel.__self__
        assert count_row(screen, LOUISA) is louisa  # the same rows, in place
        screen.bump(LOUISA, 1)
        ui.pump(2)
        assert louisa.label.ids.name.text == "Louisa: 1"
        renders.clear()
        screen.bump(LOUISA, -1)
        ui.pump(2)
        assert louisa.label.ids.name.text == "Louisa: 0"
        assert renders == []
    finally:
        kept_text.forget_all()


def test_a_holder_taken_moves_its_key_alone(ui):
    """A holder's row places its badge and key as a box with a gap of 2 did (the badge,
    none on a free holder, then the key to the row's end): a holder taken moves its
    key's left edge and nothing else, the badge shown where it waited (was: the badge
    made 56 px wide again and the row laid out twice)."""
    screen = start(ui)
    rows = list(reversed(screen.ids.holders.children))
    badge0 = tuple(rows[0].badge.pos)
    for row in rows:  # all free: the keys take their whole rows, no badge shown
        assert row.badge.opacity == 0
        assert (row.key.x, row.key.right) == (row.x + 2, row.right)
        assert (row.key.y, row.key.height) == (row.y, row.height)
    assert enter(screen, "open-", 0, "red", 5)
    ui.pump(2)
    taken, free = rows[0], rows[1]
    assert taken.badge.opacity == 1 and tuple(taken.badge.pos) == badge0
    assert taken.badge.x == taken.x and taken.badge.center_y == taken.center_y
    assert (taken.key.x, taken.key.right) == (taken.x + taken.badge.width + 2, taken.right)
    assert free.badge.opacity == 0 and (free.key.x, free.key.right) == (free.x + 2, free.right)
    ui.app.end_game("abandoned", ask=False)


def test_the_turn_passing_on_draws_no_headline(ui, label_renders):
    """Each player's "… 's turn" is a headline of its own in the seat's colour, made with
    the table: the turn passing on shows another, drawing nothing; the count and the
    scores are said by the line for the rest, in the colour the turn gave it."""
    from companion.palette import text_rgba

    screen = start(ui)
    lines = list(screen._turns.values())
    numbers = [n for b in screen._badges.values() for n in b.children]
    renders = label_renders(*lines, screen.ids.turn_text, *numbers)
    names = ["Arthur", "Mickael", "Louisa"]
    for i, (mode, value) in enumerate((("open-", 5), ("play_on", 3), ("play_on", 2))):
        assert enter(screen, mode, 0, "red", value)
        ui.pump(2)
        on = (i + 1) % 3
        shown = ui.find(f"{names[on]}'s turn")
        assert shown is lines[on] and shown.opacity == 1 and shown.font_size >= 28
        seat = ui.app.session.state.players[on].seat
        assert list(shown.color) == list(text_rgba(ui.app.cfg.seat(seat).colour))
        assert [line.opacity for line in lines].count(1) == 1
        assert screen.ids.turn_text.opacity == 0
        badges = screen.ids.turn_badge.children  # the badge on turn, alone shown
        assert [(b.seat, b.opacity) for b in badges if b.opacity] == [(seat, 1)]
        assert list(screen._badges[seat].colour) == list(shown.color)
    assert renders == []
    screen.toggle_scores()
    ui.pump()
    rest = ui.find("Scores")
    assert rest is screen.ids.turn_text.__self__ and all(line.opacity == 0 for line in lines)
    assert list(rest.color) == list(lines[0].color)  # Arthur's turn again: his colour
    screen.toggle_scores()
    ui.app.end_game("abandoned", ask=False)
