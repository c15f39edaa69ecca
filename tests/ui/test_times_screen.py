"""The Times screen in the real window, tapped through the rulebook's 1299 example."""

from __future__ import annotations

import pytest
from kivy.uix.button import Button

from companion.timer import NS_PER_S

pytestmark = pytest.mark.window

PLAYERS = [{"name": "Einstein", "seat": 1}, {"name": "Curie", "seat": 2},
           {"name": "Gauss", "seat": 3}, {"name": "Riese", "seat": 4}]


@pytest.fixture
def played(ui, monkeypatch):
    """Every cue the app is asked to play (the session's silent loader records only one)."""
    cues: list[str] = []
    monkeypatch.setattr(ui.app, "play", cues.append)
    return cues


def start(ui, target=15):
    ui.goto_home()
    assert ui.app.start_game("times", {"players": PLAYERS, "target": target}), ui.app.status
    ui.pump(2)
    assert ui.app.sm.current == "times"
    return ui.app.sm.get_screen("times")


@pytest.fixture
def screen(ui, played):
    yield start(ui)
    ui.app.end_game("abandoned")
    ui.pump(2)


def widgets(ui, cls, text=None):
    """Widgets of a class (and text) on the screen, or in its open dialog if there is one."""
    screen = ui.app.sm.current_screen
    top = {"menu": screen.menu, "override": screen.dialog}.get(screen.control.overlay, screen)
    return [w for w in top.walk() if isinstance(w, cls) and (text is None or w.text == text)]


def hands(screen):
    """The hand counts in the header, in seat order."""
    return [chip["hand"] for chip in screen.ids.chips.data]


def pick(ui, name):
    from companion.ui.screens.times_panels import PlayerPick

    return [w for w in widgets(ui, PlayerPick) if w.name == name][0]


def outcome(ui, name):
    """The outcome shown beside ``name`` (its name and its words are two labels of one
    row, both visible)."""
    from kivy.factory import Factory

    (row,) = [w for w in widgets(ui, Factory.OutcomeRow) if w.name == name]
    assert row.get_root_window() is not None and row.opacity > 0
    shown = [w.text for w in row.walk(restrict=True) if w is not row and getattr(w, "text", "")]
    assert name in shown and row.text in shown, f"{name}'s outcome is not shown: {shown}"
    return row.text


def space(ui, column: str, label: str):
    """The Time Table space showing ``label`` in the lane titled ``column``."""
    from companion.ui.screens.times_panels import SpaceButton, TimeLane

    for lane in widgets(ui, TimeLane):
        if lane.lane.title == column:
            for button in lane.walk():
                if isinstance(button, SpaceButton) and button.text == label:
                    return button
    raise LookupError(f"no space {label!r} in the {column} column")


def key(ui, text: str):
    """A button showing exactly ``text`` (digit keys, card keys)."""
    found = widgets(ui, Button, text)
    assert found, f"no button {text!r}"
    return found[0]


def type_on_number_pad(ui, screen, digits: str) -> None:
    """Tap the dialog's number, type ``digits`` on the number pad that opens, then OK."""
    from kivy.uix.button import Button

    from companion.ui.widgets import NumberPad

    (number,) = [w for w in screen.dialog.walk() if isinstance(w, Button)
                 and w.text == str(screen.control.o_value) and w.font_size == 40]
    ui.tap(number)
    (pad,) = [w for w in ui.app.layer.children if isinstance(w, NumberPad)]
    ui.screenshot("times_override_number_pad")
    for d in digits + "K":
        (k,) = [w for w in pad.walk() if isinstance(w, Button) and w.text == (
            "OK" if d == "K" else d)]
        ui.tap(k)
    assert pad.parent is None, f"the number pad is still open: {pad.note}"


def check_touch_targets(ui):
    """Every button on the screen lies inside the window and is big enough for a finger."""
    from kivy.uix.behaviors import ButtonBehavior

    buttons = [w for w in ui.app.sm.current_screen.walk()
               if isinstance(w, ButtonBehavior) and w.opacity > 0 and w.width > 0]
    assert buttons
    for b in buttons:
        x, y = b.to_window(*b.pos)
        assert x >= -1 and x + b.width <= 801 and y >= -1 and y + b.height <= 481, b.text
        assert b.height >= 64 and b.width >= 64, (getattr(b, "text", b), b.size)


def enter_cards(ui, cards):
    """Cards the way a host enters them: tap a player (or press their seat), then a card."""
    for seat, label in cards:
        if seat is not None:
            ui.press_seat(str(seat))
        ui.tap(key(ui, label))


def test_the_1299_example_from_cards_to_evaluation(ui, screen, played):
    log = ui.app.session
    assert ui.find("Round 1 · Event 1")
    assert hands(screen) == [6, 6, 6, 6]
    # Einstein is picked first; after each card the next player is picked
    enter_cards(ui, [(None, "Pink 5"), (None, "Blue 1"), (None, "Yellow 5")])
    enter_cards(ui, [(3, "Yellow 3"), (4, "Yellow 1")])  # seat buttons pick the player
    assert screen.control.choices == {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}
    assert ui.app.table.lamps.state(4)
    path, colours = ui.screenshot("times_play")
    assert colours > 8
    ui.tap(ui.find("Play the cards", kind=Button))
    assert log.actions[-1] == {"type": "play", "cards": {
        "1": "pink5", "2": "blue1", "3": "yellow3", "4": "yellow1"}}

    # Einstein: pink 5; only starts that keep the marker on the column are offered
    assert ui.find("Einstein's turn: Pink 5").font_size >= 28
    assert not space(ui, "Century", "1000").disabled
    assert space(ui, "Century", "1600").disabled
    assert space(ui, "Decade", "30").disabled
    assert ui.app.table.lamps.state(1) and not ui.app.table.lamps.state(2)
    ui.tap(space(ui, "Century", "1000"))
    assert log.actions[-1] == {"type": "place", "seat": 1, "markers": [
        {"column": "century", "size": 5, "start": 10}]}

    # Curie: the forced pink 1 first (inside 1000-1499), then her blue 1
    assert ui.find("Curie's turn: Blue 1")
    assert "forced pink 1" in ui.find("First the forced").text
    assert ui.find("Doubt Einstein")
    assert space(ui, "Century", "1500").disabled and space(ui, "Decade", "30").disabled
    ui.tap(space(ui, "Century", "1300"))
    assert len(log.actions) == 2, "nothing is sent before the turn is complete"
    assert not space(ui, "Decade", "30").disabled
    ui.screenshot("times_forced_marker")
    ui.tap(space(ui, "Decade", "30"))
    assert log.actions[-1] == {"type": "place", "seat": 2, "markers": [
        {"column": "century", "size": 1, "start": 13},
        {"column": "decade", "size": 1, "start": 3}]}

    # Gauss doubts Curie
    assert ui.find("Gauss's turn: Yellow 3")
    ui.tap(ui.find("Doubt Curie"))
    assert log.actions[-1] == {"type": "doubt", "seat": 3}

    # Riese accepts Curie's period and lays his yellow 1 on 7: 1337
    assert ui.find("Riese's turn: Yellow 1")
    assert ui.find("Join doubt on Curie")
    assert ui.find("Now: 1330–1339")
    path, _ = ui.screenshot("times_turn_riese")
    ui.tap(space(ui, "Year", "7"))
    assert log.actions[-1] == {"type": "place", "seat": 4, "markers": [
        {"column": "year", "size": 1, "start": 7}]}

    # the year on the digit pad
    assert ui.find("Gauss doubts Curie")
    assert key(ui, "OK").disabled
    for d in "299":
        ui.tap(key(ui, d))
    assert ui.find("1 2 9 9")
    ui.screenshot("times_reveal")
    check_touch_targets(ui)
    ui.tap(key(ui, "OK"))
    assert log.actions[-1] == {"type": "reveal_year", "year": 1299}
    assert "verdict" in played

    # the rulebook's outcome
    assert ui.find("The year was 1299")
    assert outcome(ui, "Einstein") == "right: discards Pink 5"
    assert outcome(ui, "Curie") == "wrong: takes Blue 1 back"
    assert outcome(ui, "Gauss") == "right doubt: discards Yellow 3"
    assert outcome(ui, "Riese") == "wrong: takes Yellow 1 back"
    assert hands(screen) == [5, 6, 5, 6]
    path, colours = ui.screenshot("times_evaluated")
    assert colours > 8
    check_touch_targets(ui)
    assert [a["type"] for a in log.actions] == [
        "play", "place", "place", "doubt", "place", "reveal_year"]
    ui.tap(ui.find("Next event"))
    assert ui.find("Round 1 · Event 2") and log.state.phase == "play"


def test_undo_takes_back_a_turn_and_a_play_keeps_the_cards(ui, screen):
    enter_cards(ui, [(None, "Pink 5"), (None, "Blue 1"), (None, "Yellow 3"), (None, "Yellow 1")])
    ui.tap(ui.find("Play the cards", kind=Button))
    ui.tap(space(ui, "Century", "1000"))
    ui.tap(space(ui, "Century", "1300"))  # Curie half-way through her turn
    ui.tap(ui.find("Lay again"))
    assert not space(ui, "Century", "1400").disabled
    ui.tap(ui.find("Undo"))
    assert ui.find("Einstein's turn: Pink 5")
    ui.tap(ui.find("Undo"))
    assert ui.app.session.state.phase == "play"
    assert screen.control.choices == {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}
    assert ui.find("Play the cards", kind=Button).disabled is False


def test_choice_timer_and_back_on_reveal(ui, screen, played, monkeypatch):
    timer = ui.app.sm.get_screen("timer")
    now = [1_760_000_000 * NS_PER_S]
    monkeypatch.setattr(timer, "clock", lambda: now[0])
    ui.tap(ui.find("Choose with the timer"))
    assert ui.app.sm.current == "timer"
    assert timer.heading == "Choice timer"
    assert timer.board.seats == (1, 2, 3, 4) and timer.board.status() == "running"
    ui.press_seat("1")
    now[0] += 5 * NS_PER_S
    ui.tap(ui.find("< Back"))  # the host steps back to the game...
    assert ui.app.sm.current == "times"
    ui.tap(ui.find("Choose with the timer"))  # ...and the choice goes on where it was
    assert timer.board.countdown.ready == (1,) and timer.big == "0:55"
    for seat in "234":
        ui.press_seat(seat)
    assert timer.big == "Reveal!" and played[-1] == "reveal"
    ui.screenshot("times_choice_timer_reveal")
    now[0] += 3 * NS_PER_S
    ui.pump(3)
    assert ui.app.sm.current == "times"
    assert "Reveal" in ui.app.status
    assert ui.find("Play the cards", kind=Button)
    ui.app.navigate("timer")  # the tool opened on its own does not jump back
    now[0] += 10 * NS_PER_S
    ui.pump(3)
    assert ui.app.sm.current == "timer" and timer.heading == "Timer"
    ui.tap(ui.find("< Back"))


def test_override_ends_the_round_and_the_track_names_the_winner(ui, played):
    screen = start(ui, target=3)
    ui.tap(ui.find("More"))
    ui.screenshot("times_menu")
    check_touch_targets(ui)
    ui.tap(ui.find("Override a hand or score"))
    ui.tap(ui.find("Save override"))
    assert ui.find("Override: Choose whose hand or score to set.")
    ui.tap(pick(ui, "Einstein"))
    type_on_number_pad(ui, screen, "1")  # far from the hand: typed, not stepped
    assert screen.control.o_value == 1
    ui.tap(ui.find("Save override"))
    assert "reason" in ui.find("Override: ").text
    ui.tap(ui.find("Card dropped"))
    assert ui.app.banner_text == "", "the refusal is answered: it no longer hides the title"
    ui.screenshot("times_override")
    check_touch_targets(ui)
    ui.tap(ui.find("Save override"))
    log = ui.app.session
    assert log.actions[-1] == {"type": "override", "seat": 1, "hand": 1,
                               "reason": "Card dropped"}
    assert screen.control.overlay is None and screen.dialog.parent is None
    # a hand of one between events ends the round: Einstein +3 reaches the target
    assert ui.find("Einstein wins!")
    assert ui.find("+3 = 3") and ui.find("+1 = 1")
    assert played[-1] == "win"
    path, colours = ui.screenshot("times_track_winner")
    assert colours > 8
    ui.tap(ui.find("End game"))
    assert ui.app.sm.current == "home" and ui.app.session is None


def test_track_after_a_round_then_the_next_round(ui, played):
    start(ui, target=15)
    ui.tap(ui.find("More"))
    ui.tap(ui.find("Override a hand or score"))
    ui.tap(pick(ui, "Gauss"))
    for _ in range(5):
        ui.tap(key(ui, "-"))
    ui.tap(ui.find("Miscounted hand"))
    ui.tap(ui.find("Save override"))
    assert ui.find("Round 1 scored")
    ui.screenshot("times_track_round")
    ui.tap(ui.find("Continue"))
    assert ui.find("Round 2 · Event 1")
    assert ui.find("Play the cards", kind=Button)
    # the track can be looked at any time
    ui.tap(ui.find("More"))
    ui.tap(ui.find("Scoring track"))
    assert ui.find("Round 1 scored")
    ui.tap(ui.find("Continue"))
    ui.app.end_game("abandoned")


def test_cancelled_cards_and_a_lone_card_replay_the_event(ui, screen):
    log = ui.app.session
    enter_cards(ui, [(None, "Pink 5"), (None, "Pink 5"), (None, "Blue 3"), (None, "Blue 3")])
    ui.tap(ui.find("Play the cards", kind=Button))
    assert log.state.phase == "play"
    assert ui.find("All cards cancelled (1 of 3): play again.")
    assert screen.control.choices == {}, "a new reveal starts from no cards"
    enter_cards(ui, [(None, "Pink 5"), (None, "Pink 5"), (None, "Pink 5"), (None, "Blue 1")])
    ui.tap(ui.find("Play the cards", kind=Button))
    assert ui.find("Only Riese's card stands: discarded. Play again.")
    assert outcome(ui, "Riese") == "the only card standing: discards Blue 1"
    assert hands(screen) == [6, 6, 6, 5]
    ui.screenshot("times_lone_card")
    ui.tap(ui.find("Next event"))
    assert ui.find("Round 1 · Event 1")
    assert ui.find("Same event: play again.")


def test_five_players_fit_the_screen(ui):
    ui.goto_home()
    five = [{"name": n, "seat": s} for n, s in (("Margarete", 1), ("Bartholomew", 2),
                                                ("Cy", 3), ("Dominique", 4), ("Ed", 5))]
    assert ui.app.start_game("times", {"players": five})
    ui.pump(2)
    enter_cards(ui, [(None, "Pink 3"), (None, "Blue 5"), (None, "Yellow 5"),
                     (None, "Pink 1"), (None, "Yellow 1")])
    ui.screenshot("times_play_five")
    check_touch_targets(ui)
    ui.tap(ui.find("Play the cards", kind=Button))
    assert ui.find("Margarete's turn: Pink 3")
    check_touch_targets(ui)
    ui.tap(space(ui, "Century", "1300"))
    ui.screenshot("times_turn_five")
    check_touch_targets(ui)
    ui.app.end_game("abandoned")


def test_a_new_table_shows_its_own_players_not_the_last_games(ui, played):
    """A new game shows its own players, never the last game's."""
    from companion.ui.screens.times_panels import PlayerPick

    start(ui)
    ui.app.end_game("abandoned", ask=False)
    three = [{"name": n, "seat": s} for n, s in (("Ada", 2), ("Bea", 5), ("Cyd", 6))]
    ui.goto_home()
    assert ui.app.start_game("times", {"players": three, "target": 15})
    ui.pump(2)
    picks = widgets(ui, PlayerPick)
    assert sorted((p.seat, p.name) for p in picks) == [(2, "Ada"), (5, "Bea"), (6, "Cyd")]
    shown = " ".join(str(getattr(w, "text", "")) for w in ui.app.root.walk()
                     if w.get_root_window() is not None and w.opacity > 0)
    assert not any(name in shown for name in ("Einstein", "Curie", "Gauss", "Riese"))
    ui.app.end_game("abandoned", ask=False)


def test_the_judged_year_stays_after_an_override_and_its_undo(ui, screen):
    """The heading's year is read from the last action when it is the reveal, and from
    the log when an override came after it: the same year either way, after Undo too."""
    for action in (
            {"type": "play", "cards": {"1": "pink5", "2": "blue1", "3": "yellow3",
                                       "4": "yellow1"}},
            {"type": "place", "seat": 1, "markers": [
                {"column": "century", "size": 5, "start": 10}]},
            {"type": "place", "seat": 2, "markers": [
                {"column": "century", "size": 1, "start": 13},
                {"column": "decade", "size": 1, "start": 3}]},
            {"type": "doubt", "seat": 3},
            {"type": "place", "seat": 4, "markers": [
                {"column": "year", "size": 1, "start": 7}]},
            {"type": "reveal_year", "year": 1299}):
        assert ui.app.act(action), ui.app.status
    ui.pump(1)
    assert ui.find("The year was 1299")
    assert ui.app.act({"type": "override", "seat": 2, "hand": 4, "reason": "Correction"})
    ui.pump(1)
    assert ui.app.session.state.phase == "evaluated"
    assert ui.find("The year was 1299"), "an override after the reveal keeps the year"
    ui.tap(ui.find("Undo"))
    assert ui.find("The year was 1299")
    ui.tap(ui.find("Undo"))  # the reveal itself: back to the digit pad
    assert ui.app.session.state.phase == "reveal" and ui.find("1 _ _ _")


def test_a_finger_slid_off_a_space_lays_nothing(ui, screen):
    """A finger pressed on a space and lifted outside the Time Table lays no marker; the
    space's own tap lays one."""
    from kivy.tests.common import UnitTestTouch

    enter_cards(ui, [(None, "Pink 5"), (None, "Blue 1"), (None, "Yellow 3"), (None, "Yellow 1")])
    ui.tap(ui.find("Play the cards", kind=Button))
    start = space(ui, "Century", "1000")
    x, y = start.to_window(*start.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    ui.pump(1)
    touch.touch_move(x, 5)  # down to the status line, out of the Time Table
    touch.touch_up()
    ui.pump(2)
    assert ui.app.session.n_actions == 1 and screen.control.pending == [], "nothing laid"
    ui.tap(start)
    assert ui.app.session.last_action["type"] == "place", "the space's own tap lays"


def test_a_tap_on_the_wrong_column_or_space_says_why(ui, screen, played):
    """Einstein must lay his pink 5 in the Century column: a tap on the Decade column,
    or on a century where a 5-marker cannot start, records nothing and says why in the
    turn's prompt (with the error sound); the next legal tap lays as usual."""
    from companion.ui.screens.times_panels import SpaceButton

    enter_cards(ui, [(None, "Pink 5"), (None, "Blue 1"), (None, "Yellow 3"), (None, "Yellow 1")])
    ui.tap(ui.find("Play the cards", kind=Button))
    before = ui.app.session.n_actions
    decade = space(ui, "Decade", "30")
    assert decade.disabled
    ui.tap(decade)
    prompt = screen.ids.turn_prompt.text
    assert prompt == ("Not the Decade column: Einstein's Pink 5 goes in the Century column.")
    assert played[-1] == "error" and ui.app.session.n_actions == before
    ui.screenshot("times_wrong_column")
    late = space(ui, "Century", "1700")
    assert late.disabled and isinstance(late, SpaceButton)
    ui.tap(late)
    assert screen.ids.turn_prompt.text.startswith("Einstein's Pink 5 cannot start at 1700")
    ui.tap(space(ui, "Century", "1000"))
    assert ui.app.session.last_action["type"] == "place"
    assert "cannot start" not in screen.ids.turn_prompt.text
