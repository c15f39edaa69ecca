"""The game screens in their states at 800x480, 1024x600 and 1280x720, with 20-letter
names and long T.I.M.E Stories character names: nothing cut or spilling over, no two
buttons overlapping, every button in the window and (at 800x480) at least 64 px, and
no button moving when only a text changed. Screenshots: tests/_artifacts/layout_*.

Each case the issue named is a test here (see each docstring)."""

from __future__ import annotations

import pytest
from fakes import Faces
from layout_check import FOUR, LONG, SIZES, moved, places, size_id
from samples import MADELEINE, MARIE

from tests.ui.test_layout_sizes import check
from tests.ui.times_steps import lay_first_space, open_spaces, play_cards

pytestmark = pytest.mark.window


@pytest.fixture(params=SIZES, ids=size_id)
def size(request, ui):
    with ui.sized(request.param) as shown:
        yield shown


LONG_MARIE = MARIE | {"name": "Marie-Antoinette de Montmorency-Laval"}  # 38 letters
LONG_MADELEINE = MADELEINE | {"name": "Madeleine Ferdinande"}
STORIES = {"players": [{"name": LONG[0], "seat": 1}, {"name": LONG[1], "seat": 2}],
           "mission": "Asylum", "characters": [LONG_MARIE, LONG_MADELEINE]}


def still(ui, before, what):
    ui.pump(3)
    found = moved(before, places(ui.app.root))
    assert not found, f"{what}:\n" + "\n".join(found)


# -- Times --------------------------------------------------------------------------------


def test_times_instruction_and_doubt_with_long_names(ui, size):
    """The Time Table does not jump when its instruction changes (was ~20 px when it
    wrapped); "Doubt <20-letter name>" stays on its button (was three lines spilling)."""
    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15})
    screen = ui.app.sm.current_screen
    play_cards(ui, screen)
    ui.pump(3)
    before = places(ui.app.root)
    lay_first_space(ui, screen)
    ui.pump(3)
    still(ui, before, "a marker placed")
    check(ui, size, "times_marker_placed")
    n = 0
    while not screen.view.turns.may_doubt and n < 8:  # until a doubt is possible
        free = open_spaces(screen)
        if not free:
            break
        ui.tap(free[0])
        n += 1
    doubt = screen.ids.doubt
    assert not doubt.disabled and LONG[0] in doubt.text  # "Doubt <name>"
    check(ui, size, "times_doubt")
    ui.app.undo()
    check(ui, size, "times_after_undo")
    ui.app.end_game("abandoned", ask=False)


# -- Professor Tempus ----------------------------------------------------------------------


def test_professor_tempus_count_scores_and_end(ui, size):
    from companion.games import professor_tempus as pt
    from tests.ui.test_professor_tempus_presenter import SCORES, round_actions

    ui.goto_home()
    five = FOUR + [{"name": "Evangelina Rosenthal", "seat": 5}]
    assert ui.app.start_game("professor_tempus", {"players": five})
    screen = ui.app.sm.current_screen
    check(ui, size, "professor_tempus_five")
    deck = list(reversed(pt.all_cards()))
    actions, _ = round_actions(ui.app.session.state, deck)
    for action in actions:
        assert ui.app.act(action), ui.app.status
    check(ui, size, "professor_tempus_count")
    assert ui.app.act({"type": "score_round", "hourglasses": SCORES[0]})
    screen.toggle_scores()
    check(ui, size, "professor_tempus_scores")
    screen.toggle_scores()
    ui.app.end_game("abandoned", ask=False)


# -- Crazy Time ----------------------------------------------------------------------------


def test_crazy_time_round_won_and_laws(ui, size):
    ui.goto_home()
    assert ui.app.start_game("crazy_time", {"players": FOUR})
    check(ui, size, "crazy_time_start")
    assert ui.app.act({"type": "pickup", "seat": 2, "reason": "temporal_flaw"})
    assert ui.app.act({"type": "round_won", "seat": 1})
    check(ui, size, "crazy_time_round_won")
    assert ui.app.act({"type": "new_law", "name": "The Law of " + LONG[2], "when": "w" * 40,
                       "what": "x" * 60, "creator": 1, "absent": 2})
    check(ui, size, "crazy_time_law")
    ui.app.undo()
    check(ui, size, "crazy_time_after_undo")
    ui.app.end_game("abandoned", ask=False)


# -- Time After Time -----------------------------------------------------------------------


def test_time_after_time_ghost_question_keeps_the_hour_row(ui, size):
    """The ghost question comes without moving the hour keys (was: it took their row)."""
    from tests.ui.test_time_after_time_screen import CHLOE

    ui.goto_home()
    assert ui.app.start_game("time_after_time", {"players": FOUR[:2]})
    check(ui, size, "time_after_time_start")
    for slot, hour in CHLOE[:-1]:
        assert ui.app.act({"type": "place", "seat": 1, "slot": slot, "hour": hour})
    check(ui, size, "time_after_time_midgame")
    before = places(ui.app.root)
    slot, hour = CHLOE[-1]
    assert ui.app.act({"type": "place", "seat": 1, "slot": slot, "hour": hour})
    check(ui, size, "time_after_time_ghost_question")
    screen = ui.app.sm.current_screen
    assert screen.band == "ask"
    hours = {b: p for b, p in before.items() if b in set(screen.ids.hours.children)}
    still(ui, hours, "the ghost question")
    ui.app.undo()
    check(ui, size, "time_after_time_after_undo")
    assert ui.app.act({"type": "draw_pile", "count": 21})  # "Hand empty" for "Pile -1"
    check(ui, size, "time_after_time_pile_out")
    ui.app.end_game("abandoned", ask=False)


# -- the Timer -----------------------------------------------------------------------------


def test_timer_top_row_stays_at_reveal(ui, size):
    """The controls keep their places when everyone is ready and "Reveal!" shows."""
    ui.goto_home()
    assert ui.app.start_game("times", {"players": FOUR, "target": 15})
    ui.app.log.set_setting("timer", None)
    timer = ui.app.sm.get_screen("timer")
    timer.open_choice((1, 2, 3, 4), return_to="times")
    ui.app.navigate("timer")
    check(ui, size, "timer_choice")
    before = places(ui.app.root)
    for seat in (1, 2, 3):
        timer.tap_seat(seat)
    check(ui, size, "timer_three_ready")
    timer.tap_seat(4)
    ui.pump(2)
    assert ui.app.sm.current == "timer" and "Reveal" in timer.big
    check(ui, size, "timer_reveal")
    still(ui, before, "Reveal!")
    ui.app.log.set_setting("timer", None)
    ui.app.end_game("abandoned", ask=False)


def test_timer_tool_rows_with_every_seat_and_a_length_of_its_own(ui, size):
    """The Timer opened from Home, every seat of the box in it: the countdown's row (two
    modes, three presets, -15 s, "+15 s (1:15)", the seats, Start) and the clock's row
    keep every word whole, however many buttons share the width."""
    ui.goto_home()
    ui.app.log.set_setting("timer", None)
    ui.app.navigate("timer")
    timer = ui.app.sm.get_screen("timer")
    while len(timer.board.seats) < len(ui.app.table.seats):
        timer.control("seats")
    longer = next(c.key for c in timer.timer.view().controls if c.key.startswith("length:"))
    timer.control(longer)  # a length of the table's own: "+15 s (m:ss)"
    assert any(c.label.startswith("+15 s (") for c in timer.timer.view().controls)
    check(ui, size, "timer_tool_countdown")
    timer.control("mode_clock")
    check(ui, size, "timer_tool_clock")
    timer.control("mode_countdown")
    ui.app.log.set_setting("timer", None)
    ui.goto_home()


# -- T.I.M.E Stories -----------------------------------------------------------------------


def test_time_stories_mission_characters_and_dice(ui, size):
    """"Tap the die to enter your own roll" whole (was clipped); a long character name
    does not overlap the rows around it; the stats at 22 sp or more (were ~18 px)."""
    ui.goto_home()
    assert ui.app.start_game("time_stories", STORIES), ui.app.status
    screen = ui.app.sm.current_screen
    ui.pump(3)
    check(ui, size, "time_stories_mission")
    screen.open("characters")
    check(ui, size, "time_stories_characters")
    small = [w for w in ui.app.root.walk() if hasattr(w, "font_size") and getattr(
        w, "text", "").strip() and w.get_root_window() is not None and w.font_size < 22]
    assert not small, [(w.text, w.font_size) for w in small]
    screen.open("test")
    check(ui, size, "time_stories_test_setup")
    assert ui.app.act({"type": "test_start", "space": "B", "characteristic": "Glibness",
                       "characters": [LONG_MARIE["name"], LONG_MADELEINE["name"]],
                       "shields": ["blank", "skull", "heart"], "locked": False})
    check(ui, size, "time_stories_test_open")
    screen.rng = Faces(1, 2, 3, 4)
    screen.tap(("roll_test",))
    check(ui, size, "time_stories_test_roll")
    ui.app.undo()
    check(ui, size, "time_stories_after_undo")
    ui.app.end_game("abandoned", ask=False)


def test_time_stories_setup(ui, size):
    ui.goto_home()
    assert ui.app.start_game("time_stories", {"players": STORIES["players"]})
    ui.pump(3)
    check(ui, size, "time_stories_setup")
    ui.app.end_game("abandoned", ask=False)


# -- the tools and the score pad -----------------------------------------------------------


def test_captain_die_and_score_pad(ui, size):
    ui.goto_home()
    ui.app.navigate("captain_die")
    check(ui, size, "captain_die")
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": FOUR})
    assert ui.app.act({"type": "score", "seat": 1, "points": 12})
    check(ui, size, "score_pad")
    ui.app.end_game("abandoned", ask=False)


def test_time_after_time_four_players_hour_keys_at_800x480(ui):
    """Four rows of 64 px leave no room for two rows of hour keys at 800x480 (one row of
    17 was 46 px wide): the hour is entered on a pad of big keys over the rows, opened by
    choosing a player and closed by the hour tapped; every key 64 px or more, nothing
    cut, in each of the steps, and the bar in reach under the pad."""
    ui.goto_home()
    before = __import__("kivy.core.window").core.window.Window.size
    ui.resize((800, 480))
    try:
        assert ui.app.start_game("time_after_time", {"players": FOUR})
        screen = ui.app.sm.current_screen
        check(ui, (800, 480), "time_after_time_four")
        assert not screen.pad_shown
        ui.tap(ui.find(LONG[3]))  # the fourth player's name opens the pad
        assert screen.pad_shown and screen.pick.seat == 4
        check(ui, (800, 480), "time_after_time_four_pad")
        keys = [b for b in screen.ids.hour_pad.children if b.text.isdigit()]
        assert sorted(int(b.text) for b in keys) == list(range(6, 23))
        assert all(b.width >= 64 and b.height >= 64 for b in screen.ids.hour_pad.children)
        ui.tap(next(b for b in keys if b.text == "14"))
        assert not screen.pad_shown and screen.pick.hour == 14
        check(ui, (800, 480), "time_after_time_four_slots")
        row = screen._rows[3][1]
        ui.tap(row[3])
        assert ui.app.session.state.seats[3].row[3] == 14
        check(ui, (800, 480), "time_after_time_four_placed")
    finally:
        ui.app.end_game("abandoned", ask=False)
        ui.goto_home()
        ui.resize(tuple(before))
