"""The timer tool's board and views, without Kivy: times are passed in as numbers."""

from __future__ import annotations

import json

import pytest

from companion.timer import DONE, EXPIRED, NS_PER_S, PAUSED, RUNNING, TimerError
from companion.ui.presenters.timer import (
    CLOCK,
    RETURN_AFTER_NS,
    TimerBoard,
    clock_columns,
    clock_view,
    controls,
    countdown_view,
    digits_px,
    fmt,
    next_change_ns,
    short,
)

S = NS_PER_S
T0 = 1_700_000_000 * S  # a wall-clock stamp


def test_fmt_rounds_up_so_the_last_second_still_shows():
    assert fmt(60 * S) == "1:00"
    assert fmt(59 * S + 1) == "1:00"
    assert fmt(59 * S) == "0:59"
    assert fmt(1) == "0:01"
    assert fmt(0) == "0:00"
    assert fmt(-5) == "0:00"
    assert fmt(3725 * S) == "1:02:05"
    assert [short(n) for n in (30 * S, 120 * S, 90 * S)] == ["30 s", "2 min", "1:30"]


def test_countdown_warns_then_expires_each_once():
    board = TimerBoard.fresh((1, 2, 3)).preset(30 * S).start(T0)
    board, sounds = board.poll(T0 + 19 * S)
    assert sounds == ()
    assert countdown_view(board, T0 + 19 * S).big == "0:11"
    board, sounds = board.poll(T0 + 20 * S)  # 10 s left: the warning
    assert sounds == ("warning",)
    assert countdown_view(board, T0 + 20 * S).alarm
    board, sounds = board.poll(T0 + 21 * S)
    assert sounds == ()
    board, sounds = board.poll(T0 + 30 * S)
    assert sounds == ("expired",)
    assert board.countdown.status == EXPIRED
    assert countdown_view(board, T0 + 31 * S).big == "Time's up!"
    board, sounds = board.poll(T0 + 40 * S)
    assert sounds == ()


def test_all_seats_ready_reveals_with_the_reveal_sound():
    board = TimerBoard.fresh((1, 2, 4)).start(T0)
    board, sounds = board.press(1, T0 + S)
    board, again = board.press(1, T0 + 2 * S)  # a second press changes nothing
    board, stranger = board.press(3, T0 + 2 * S)  # not seated
    assert sounds == again == stranger == ()
    view = countdown_view(board, T0 + 2 * S)
    assert [(lamp.seat, lamp.lit) for lamp in view.seats] == [(1, True), (2, False), (4, False)]
    assert view.caption.startswith("1 of 3 ready")
    board, sounds = board.press(4, T0 + 3 * S)
    board, sounds = board.press(2, T0 + 4 * S)
    assert sounds == ("reveal",)
    assert board.countdown.status == DONE
    assert countdown_view(board, T0 + 5 * S).big == "Reveal!"


def test_pause_stops_the_count_and_resume_goes_on():
    board = TimerBoard.fresh((1, 2)).start(T0)
    board = board.pause(T0 + 5 * S)
    assert board.status() == PAUSED
    assert countdown_view(board, T0 + 500 * S).big == "0:55"
    board = board.resume(T0 + 500 * S)
    assert countdown_view(board, T0 + 510 * S).big == "0:45"
    assert board.captain(T0 + 510 * S).status() == PAUSED
    assert board.captain(T0 + 510 * S).captain(T0 + 520 * S).status() == RUNNING


def test_choice_timer_goes_back_a_moment_after_it_ends():
    board = TimerBoard.fresh((1, 2, 3, 4, 5, 6, 7, 8)).for_choice((2, 3), "times", T0)
    assert board.status() == RUNNING and board.seats == (2, 3)
    assert board.due_return(T0 + 100 * S) is None
    board, _ = board.press(2, T0 + 3 * S)
    assert board.for_choice((2, 3), "times", T0 + 4 * S) is board, "a choice going on stays"
    assert board.for_choice((2, 3, 4), "times", T0 + 4 * S).countdown.ready == ()
    board, sounds = board.press(3, T0 + 4 * S)
    assert sounds == ("reveal",)
    assert board.due_return(T0 + 4 * S + RETURN_AFTER_NS - 1) is None
    assert board.due_return(T0 + 4 * S + RETURN_AFTER_NS) == "times"
    assert board.returned().due_return(T0 + 100 * S) is None
    assert "Back to the game" in countdown_view(board, T0 + 5 * S).caption


def test_game_clock_passes_the_turn_adds_the_increment_and_flags_once():
    board = TimerBoard.fresh((1, 2, 3)).set_mode(CLOCK)
    while board.bank_ns != 60 * S:
        board = board.next_bank()
    board = board.next_increment()  # +5 s
    assert board.increment_ns == 5 * S
    board = board.start(T0)
    board, _ = board.press(2, T0 + S)  # not seat 2's turn: ignored
    view = clock_view(board, T0 + 10 * S)
    assert [(b.seat, b.text, b.active) for b in view.banks] == [
        (1, "0:50", True), (2, "1:00", False), (3, "1:00", False)]
    board, _ = board.press(1, T0 + 10 * S)  # 50 s left + 5 s
    view = clock_view(board, T0 + 10 * S)
    assert [(b.text, b.active, b.moves) for b in view.banks[:2]] == [
        ("0:55", False, 1), ("1:00", True, 0)]
    board, sounds = board.poll(T0 + 70 * S)
    assert sounds == ("expired",)
    assert clock_view(board, T0 + 71 * S).banks[1].flagged
    board, sounds = board.poll(T0 + 80 * S)
    assert sounds == ()
    assert clock_view(board, T0 + 80 * S).caption.startswith("Flag: seat 2")
    paused = board.pause(T0 + 80 * S)
    assert paused.status() == PAUSED
    assert clock_view(paused.resume(T0 + 90 * S), T0 + 90 * S).banks[2].text == "1:00"


def test_controls_offer_settings_when_stopped_and_pause_resume_when_going():
    board = TimerBoard.fresh((1, 2))
    keys = [c.key for c in controls(board)]
    assert keys[:2] == ["mode_countdown", "mode_clock"] and "start" in keys
    assert [c.label for c in controls(board) if c.key.startswith("preset")] == [
        "30 s", "60 s", "2 min"]
    assert [c.selected for c in controls(board) if c.key.startswith("preset")] == [
        False, True, False]
    going = controls(board.start(T0))
    assert [(c.key, c.enabled) for c in going] == [("pause", True), ("resume", False),
                                                   ("reset", True)]
    paused = controls(board.start(T0).pause(T0 + S))
    assert [(c.key, c.enabled) for c in paused][:2] == [("pause", False), ("resume", True)]
    clock = [c.label for c in controls(board.set_mode(CLOCK), seats_fixed=True)]
    assert clock[2:] == ["Bank 5 min", "+0 s", "2 seats", "Start"]
    assert not [c for c in controls(board, seats_fixed=True) if c.key == "seats"][0].enabled


def test_stored_board_round_trips_through_json_and_counts_the_outage():
    board = TimerBoard.fresh((1, 2, 3)).preset(120 * S).start(T0)
    board, _ = board.press(2, T0 + S)
    stored = json.loads(json.dumps(board.to_json()))
    back = TimerBoard.from_json(stored)
    assert back == board
    assert countdown_view(back, T0 + 100 * S).big == "0:20"  # the outage counted
    clock = TimerBoard.fresh((1, 2)).set_mode(CLOCK).start(T0)
    assert TimerBoard.from_json(json.loads(json.dumps(clock.to_json()))) == clock


@pytest.mark.parametrize("bad", [
    {}, {"version": 2}, {"version": 1, "mode": "countdown"},
    {**TimerBoard.fresh((1,)).to_json(), "countdown": {"kind": "countdown", "status": "x"}},
    {**TimerBoard.fresh((1,)).to_json(), "bank_ns": 0},
])
def test_damaged_stored_boards_are_refused(bad):
    with pytest.raises(TimerError):
        TimerBoard.from_json(bad)


def test_digit_size_fits_the_cell_and_stays_big_for_a_times_table():
    beside = 100  # the seat badge, padding and a margin beside the digits
    assert digits_px("5:00", 396 - beside, 125) >= 96  # 4 seats: 2 x 2 cells
    assert digits_px("10:00", 396 - beside, 125) >= 96
    assert 80 <= digits_px("5:00", 264 - beside, 125) < 96  # 5-6 seats: 3 x 2 cells
    assert digits_px("10:00", 190, 150) < digits_px("5:00", 190, 150)
    assert digits_px("10:00", 40, 40) == 48  # never below the floor
    assert [clock_columns(n) for n in (1, 2, 4, 5, 6, 7, 8)] == [1, 2, 2, 3, 3, 4, 4]


def test_a_length_of_the_tables_own_and_the_sign_that_a_timer_runs_on():
    from companion.ui.presenters.timer import running_note

    board = TimerBoard.fresh((1, 2))
    longer = next(c for c in controls(board) if c.label.startswith("+15 s"))
    assert longer.key == f"length:{75 * S}"
    custom = board.preset(75 * S)
    labels = [c.label for c in controls(custom)]
    assert "+15 s (1:15)" in labels and "-15 s" in labels
    assert running_note(custom, T0) == ""
    assert running_note(custom.start(T0), T0 + 5 * S) == "Timer running: 1:10 left"


def _running(seconds=30):
    return TimerBoard.fresh((1, 2, 3)).preset(seconds * S).start(T0)


@pytest.mark.parametrize(("board", "at_s", "due_s"), [
    (_running(), 0, 1.0),  # "0:30" turns "0:29" when 29 s are left
    (_running(), 12.5, 0.5),  # 17.5 s left shows "0:18" for half a second more
    (_running(), 19.7, 0.3),  # 10.3 s left: the digits roll and the warning falls due
    (_running(), 29.9, 0.1),  # the last tenth: then the end
    (_running(5), 3.2, (1.8 * S - 5 * S // 3) / S),  # a short one warns at a third:
    # 1.667 s left, between two seconds, so the warning comes before the digits roll
    (TimerBoard.fresh((1, 2, 3)), 0, None),  # idle: nothing moves until Start
    (_running().pause(T0 + 3 * S), 10, None),  # paused
    (_running().poll(T0 + 30 * S)[0], 31, None),  # over, and no game to go back to
    (_running().set_mode(CLOCK).start(T0), 0.25, 0.75),  # the active seat's bank
])
def test_the_next_change_is_when_the_shown_time_or_a_cue_changes(board, at_s, due_s):
    due = next_change_ns(board, T0 + int(at_s * S))
    assert due == (None if due_s is None else round(due_s * S))


def test_the_next_change_of_a_revealed_choice_is_its_going_back():
    board = TimerBoard.fresh((1, 2)).for_choice((1, 2), "times", T0)
    board, _ = board.press(1, T0 + 3 * S)
    board, _ = board.press(2, T0 + 4 * S)  # everyone ready: "Reveal!"
    assert next_change_ns(board, T0 + 5 * S) == RETURN_AFTER_NS - S  # ended 1 s ago
    assert next_change_ns(board, T0 + 4 * S + RETURN_AFTER_NS + S) == 1  # overdue: now


def test_a_flagged_game_clock_changes_no_more_on_its_own():
    board = TimerBoard.fresh((1, 2)).set_mode(CLOCK).start(T0)
    board, sounds = board.poll(T0 + board.bank_ns)
    assert sounds and next_change_ns(board, T0 + board.bank_ns + S) is None
