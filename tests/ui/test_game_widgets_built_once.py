"""Game screens built once: after a screen is built, a sequence of the table's actions
changes properties and makes no widget (every Widget made is counted, through its
``__init__``). A screen that rebuilt a row, a panel or a key per action counts more
than 0 here. (Lists that grow, the Crazy Time pick-ups and the T.I.M.E Stories log, are
RecycleViews: they make a row view when one more row comes into sight, then reuse it.)
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]


@pytest.fixture
def made(ui, monkeypatch):
    """The number of widgets made since the fixture began (``made.reset()`` to start).
    Every screen is built first: the app builds the screens not yet shown in the
    background after its first frame, which would count here when this file runs alone."""
    from kivy.uix.widget import Widget

    ui.app.sm.build_all()

    class Count:
        n = 0

        def reset(self):
            self.n = 0

    count = Count()
    original = Widget.__init__

    def counting(self, *args, **kwargs):
        count.n += 1
        original(self, *args, **kwargs)

    monkeypatch.setattr(Widget, "__init__", counting)
    return count


def test_time_after_time_places_picks_and_undo(ui, made):
    ui.goto_home()
    assert ui.app.start_game("time_after_time", {"players": FOUR[:3]})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    made.reset()
    for slot, hour in ((3, 12), (5, 17), (1, 8)):
        screen.choose_seat(1)
        screen.choose_hour(hour)
        assert screen.tap_slot(1, slot)
        ui.pump(1)
    ui.app.undo()
    ui.pump(2)
    assert made.n == 0
    ui.app.end_game("abandoned", ask=False)


def test_professor_tempus_moves(ui, made):
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", {"players": FOUR[:3], "first_seat": 1})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    made.reset()
    screen.choose_mode("open-")
    screen.choose_holder(0)
    screen.choose_colour("red")
    assert screen.enter_value(5)
    screen.choose_mode("play_on")
    screen.choose_holder(0)
    assert screen.enter_value(3)
    ui.app.undo()
    ui.pump(2)
    assert made.n == 0
    ui.app.end_game("abandoned", ask=False)


def test_professor_tempus_count_scores_and_correction(ui, made):
    """The five-player variant through both counts: the round's count, "Score round",
    the scores panel opened and closed at each count (its Count 2 line and round keys
    already there), a correction begun and cancelled: no widget made after the start."""
    from companion.games import professor_tempus as pt
    from tests.ui.test_professor_tempus_presenter import SCORES, round_actions

    five = FOUR + [{"name": "Eve", "seat": 5}]
    ui.goto_home()
    assert ui.app.start_game("professor_tempus", {"players": five})
    screen = ui.app.sm.current_screen
    ui.pump(3)
    made.reset()
    deck = list(reversed(pt.all_cards()))
    for k, score in enumerate(SCORES[:3]):
        if k == 2:
            deck = list(reversed(pt.all_cards()))
        actions, _ = round_actions(ui.app.session.state, deck)
        for action in actions:
            assert ui.app.act(action), ui.app.status
        ui.pump(1)
        screen.bump(1, 1)
        assert ui.app.act({"type": "score_round", "hourglasses": score})
        ui.pump(1)
        screen.toggle_scores()
        ui.pump(1)
        screen.start_correction(1)
        ui.pump(1)
        screen.cancel_correction()
        screen.toggle_scores()
        ui.pump(1)
    assert ui.app.session.state.count == 2
    assert made.n == 0
    ui.app.end_game("abandoned", ask=False)


def test_times_marker_taps_and_undo(ui, made):
    from tests.ui.times_steps import lay_first_space

    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15})
    screen = ui.app.sm.current_screen
    screen.choices = {1: "pink5", 2: "blue3", 3: "yellow1", 4: "blue1"}
    screen.play_cards()
    ui.pump(3)
    made.reset()
    lay_first_space(ui, screen)
    ui.app.undo()
    ui.pump(2)
    assert made.n == 0
    ui.app.end_game("abandoned", ask=False)


def test_times_a_whole_event_once_every_panel_was_shown(ui, made):
    """Cards, turns, the year, the outcomes and the next event's cards: once each phase's
    panel has been shown (built on its first showing), a second event makes no widget
    (the panels change places, their widgets are kept)."""
    from tests.ui.times_steps import lay_and_doubt, play_cards

    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15})
    screen = ui.app.sm.current_screen
    ui.pump(3)

    def event(year_digits: str) -> None:
        play_cards(ui, screen)
        lay_and_doubt(ui, screen)
        for d in year_digits:
            screen.digit(int(d))
        screen.reveal_year()
        ui.pump(1)
        assert screen._shown == "evaluated"
        screen.next_event()
        ui.pump(2)
        assert screen._shown == "play"

    event("299")
    made.reset()
    event("650")
    assert made.n == 0
    ui.app.end_game("abandoned", ask=False)


def test_time_stories_time_corrections_life_and_undo(ui, made):
    """The mission screen and its kept panels: Stay, the captain die, a TU correction
    (open, steps, reasons, Apply), the characters' life -/+, Undo: properties only."""
    from fakes import Faces
    from kivy.uix.button import Button
    from samples import ASYLUM

    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM | {"starting_tu": 99})
    screen = ui.app.sm.current_screen
    screen.rng = Faces(*[3] * 4)

    def round_of_taps():
        ui.tap(ui.find("Stay (1 TU)"))
        ui.tap(ui.find("Roll die"))
        screen.on_frame(ui.app.table.now_ns() + 10**9)  # the die settles: recorded
        ui.pump(1)
        ui.tap(ui.find("Correct TU"))
        ui.tap(ui.find("-5"))
        ui.tap(ui.find("+1"))
        ui.tap(ui.find("Item used"))
        ui.tap(ui.find("Apply"))
        ui.tap(ui.find("Characters"))
        ui.tap(ui.find("-", kind=Button))
        ui.tap(ui.find("+", kind=Button))
        ui.tap(ui.find("Mission"))
        ui.tap(ui.find("Undo"))
        ui.pump(1)

    for _ in range(3):  # the panels made once, the log's rows in sight made once
        round_of_taps()
    made.reset()
    round_of_taps()
    assert made.n == 0
    ui.app.end_game("abandoned", ask=False)


def test_time_stories_dice_test_items_and_next_run(ui, made):
    """The dice test (its setup's choices, the start, turn to hit, the table's own dice
    entered, the result, abandon), the items panel (add, give, used), the end of a run
    with its next-run panel (a starting TU, Items, the next run), each opened again and
    again: after their first openings, properties only."""
    from kivy.uix.button import Button
    from kivy.uix.togglebutton import ToggleButton
    from samples import ASYLUM

    from companion.ui.screens.time_stories_items import ItemsPanel
    from companion.ui.screens.time_stories_panels import DiceTestPanel, NextRunPanel

    ui.goto_home()
    assert ui.app.start_game("time_stories", ASYLUM | {"starting_tu": 30})
    screen = ui.app.sm.current_screen
    ui.pump(2)

    def dice_test():
        ui.tap(ui.find("Stay (1 TU)"))  # a new turn: the characters may test again
        ui.tap(ui.find("Dice test"))
        ui.tap(ui.find("Combat", kind=ToggleButton))
        ui.tap(ui.find("Marie", kind=ToggleButton))
        ui.tap(ui.find("Madeleine", kind=ToggleButton))
        for kind in ("blank", "skull", "blank"):
            ui.tap(ui.find(f" {kind}"))
        ui.tap(ui.find("Start: "))
        ui.find("Roll 3 dice")
        ui.tap(ui.find("+", kind=Button))
        ui.find("Turn to hit: 1")
        ui.tap(ui.find("-", kind=Button))
        ui.tap(ui.find("Our dice"))
        for _ in range(2):  # the first die, then the second: a blank each
            ui.tap(ui.find("skull", kind=Button))
        ui.tap(ui.find("Record roll"))
        assert ui.app.session.actions[-1]["type"] == "test_roll", ui.app.status
        ui.find("Space B: 0 hits, 1 skull")
        ui.tap(ui.find("Abandon"))
        assert isinstance(screen.panel, DiceTestPanel)
        ui.tap(ui.find("Mission"))

    def items():
        ui.tap(ui.find("Items"))
        assert isinstance(screen.panel, ItemsPanel)
        ui.tap(ui.find("New item"))
        screen.panel.name_in.text = "Lamp"
        ui.tap(ui.find("Marie", kind=ToggleButton))
        ui.tap(ui.find("Agency: no"))
        ui.tap(ui.find("Add item"))
        ui.tap(ui.find("Give"))
        ui.tap(ui.find("Madeleine", kind=Button))
        ui.tap(ui.find("Used"))
        ui.tap(ui.find("Mission"))

    def run_over():
        ui.tap(ui.find("Correct TU"))
        for _ in range(8):
            ui.tap(ui.find("-5"))
        ui.tap(ui.find("Apply"))
        assert isinstance(screen.panel, NextRunPanel), ui.app.status
        ui.tap(ui.find("35", kind=ToggleButton))
        ui.tap(ui.find("Items", kind=Button))
        ui.tap(ui.find("Next run"))
        assert isinstance(screen.panel, NextRunPanel)
        ui.tap(ui.find("Start run"))
        assert screen.panel is None and ui.app.session.snapshot()["running"]
        ui.tap(ui.find("Undo"))
        assert isinstance(screen.panel, NextRunPanel)
        ui.tap(ui.find("Start run"))

    def round_of_taps():
        dice_test()
        items()
        run_over()
        ui.pump(1)

    for _ in range(2):  # each panel and its rows made once
        round_of_taps()
    made.reset()
    round_of_taps()
    assert made.n == 0
    ui.app.end_game("abandoned", ask=False)


def test_time_stories_setup_steppers(ui, made):
    """A character's life, resistance and characteristics stepped on the setup page:
    only their numbers change (the page was rebuilt per tap, its text fields too)."""
    ui.goto_home()
    assert ui.app.start_game("time_stories", {"players": FOUR[:2]})
    screen = ui.app.sm.current_screen
    ui.pump(2)
    ui.tap(ui.find("Next >"))
    ui.find("Setup: Ann's character")
    sheet = screen.panel.draft.sheet_at(screen.panel.page)
    life, resistance, dice = sheet.life, sheet.resistance, sheet.traits[0][1]
    made.reset()
    for stepper in (screen.panel.steppers["life"], screen.panel.steppers["resistance"],
                    screen.panel.trait_steppers[0]):
        plus = stepper.children[0]
        ui.tap(plus)
        ui.tap(plus)
    ui.pump(1)
    assert made.n == 0
    assert (sheet.life, sheet.resistance, sheet.traits[0][1]) == (
        life + 2, resistance + 2, dice + 2)
    assert [s.value_label.text for s in (screen.panel.steppers["life"],
                                         screen.panel.steppers["resistance"],
                                         screen.panel.trait_steppers[0])] == [
        str(life + 2), str(resistance + 2), str(dice + 2)]
    ui.app.end_game("abandoned", ask=False)


def test_crazy_time_flaws_asked_recorded_and_undone(ui, made):
    """The board and its one question panel: a temporal flaw asked through its four
    questions (who calls it, whom, which law, the verdict) and recorded, then Undo; the
    answer buttons are kept by what they show, so once every answer has been seen a
    flaw makes no widget (the pick-up list's rows in sight are made once)."""
    from companion.ui.screens.crazy_time_panels import SeatOption

    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    screen = ui.app.sm.current_screen
    ui.pump(3)

    def answers():
        return list(reversed(screen._choices.ids.options.children))

    def flaw(accuser: int, accused: int) -> None:
        ui.tap(screen.buttons["accuse"])
        for seat in (accuser, accused):
            ui.tap(next(w for w in answers() if isinstance(w, SeatOption) and w.seat == seat))
        ui.tap(answers()[0])
        ui.tap(next(w for w in answers() if w.text.startswith("Yes:")))

    for accuser, accused in ((1, 2), (2, 3), (3, 4), (4, 1), (1, 2)):
        flaw(accuser, accused)
    made.reset()
    flaw(3, 4)
    flaw(2, 1)
    ui.tap(screen.buttons["undo"])
    ui.pump(2)
    assert made.n == 0
    assert len(ui.app.session.snapshot()["pickups"]) == 6
    ui.app.end_game("abandoned", ask=False)


def test_the_count_sees_a_widget_made(made):
    """The counter itself: a widget made is counted."""
    from kivy.uix.label import Label

    made.reset()
    Label(text="x")
    assert made.n >= 1
