"""The Timer tool in the real window: the timer's time comes from a fake wall clock."""

from __future__ import annotations

import pytest

from companion.timer import NS_PER_S

pytestmark = pytest.mark.window

S = NS_PER_S


class FakeClock:
    """Wall-clock ns that only move when the test says so."""

    def __init__(self, t: int = 1_750_000_000 * S) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += int(seconds * S)


@pytest.fixture
def played(ui, monkeypatch):
    """Every cue the app is asked to play. (The session's silent sound loader counts as a
    broken audio device, after which ``app.cues.played`` records nothing more.)"""
    cues: list[str] = []
    monkeypatch.setattr(ui.app, "play", cues.append)
    return cues


@pytest.fixture
def timer(ui, played):
    """The timer screen, freshly stored, with a fake clock and seats 1-4."""
    ui.goto_home()
    ui.app.log.set_setting("timer", None)
    screen = ui.app.sm.get_screen("timer")
    screen.clock = FakeClock()
    enter_timer(ui)
    assert ui.app.sm.current == "timer"
    while len(screen.board.seats) != 4:
        ui.tap(ui.find(" seats"))
    played.clear()
    yield screen
    screen.clock = FakeClock()
    ui.app.log.set_setting("timer", None)
    ui.goto_home()


def test_countdown_counts_down_warns_and_expires_once(ui, timer, played):
    ui.tap(ui.find("30 s"))
    ui.tap(ui.find("Start"))
    assert ui.find("0:30") is timer_digits(ui)
    timer.clock.advance(12.5)
    ui.pump(2)
    assert timer.big == "0:18"
    label = timer_digits(ui)
    assert label.font_size >= 96 and label.texture_size[1] >= 96
    timer.clock.advance(7.5)  # 10 s left
    ui.pump(3)
    assert played == ["warning"]
    path, colours = ui.screenshot("timer_countdown_warning")
    assert colours > 8
    timer.clock.advance(5)
    ui.pump(3)
    assert played == ["warning"], "the warning must fire once"
    timer.clock.advance(5)
    ui.pump(3)
    assert played == ["warning", "expired"]
    assert ui.find("Time's up!")
    timer.clock.advance(30)
    ui.pump(3)
    assert played == ["warning", "expired"], "the expiry must fire once"


def test_pause_all_stops_the_countdown_and_resume_goes_on(ui, timer, played):
    ui.tap(ui.find("60 s"))
    ui.tap(ui.find("Start"))
    timer.clock.advance(10)
    ui.pump(2)
    ui.tap(ui.find("Pause all"))
    timer.clock.advance(600)
    ui.pump(3)
    assert timer.big == "0:50"
    assert played == []
    ui.tap(ui.find("Resume"))
    timer.clock.advance(5)
    ui.pump(2)
    assert timer.big == "0:45"
    ui.press_seat(" ")  # the captain button pauses too
    timer.clock.advance(100)
    ui.pump(2)
    assert timer.big == "0:45"


def test_every_seated_player_ready_reveals_with_lamps_and_sound(ui, timer, played):
    ui.tap(ui.find("Start"))
    lamps = ui.app.table.lamps
    for seat in ("1", "3", "3", "7"):  # a repeat and an unseated seat count for nothing
        ui.press_seat(seat)
    assert [lamps.state(s) for s in (1, 2, 3, 4)] == [True, False, True, False]
    assert not lamps.state(7)
    assert "2 of 4 ready" in timer.caption
    ui.screenshot("timer_two_ready")
    ui.press_seat("2")
    ui.tap(lamps_of(timer)[4])  # a tap on seat 4's lamp on screen is its button
    assert timer.big == "Reveal!"
    assert ui.find("Reveal!").font_size >= 96
    assert played == ["reveal"]
    path, _ = ui.screenshot("timer_reveal")
    timer.clock.advance(60)
    ui.pump(3)
    assert played == ["reveal"], "nothing more after the reveal"
    assert ui.app.sm.current == "timer", "a standalone timer stays"


def test_the_tool_opens_clean_after_a_choice_was_revealed(ui, timer, played):
    """A countdown that ended (every seat ready, "Reveal!") is not shown again with its
    lamps lit when the Timer tile is opened later: it is set back to its length."""
    ui.tap(ui.find("Start"))
    for seat in ("1", "2", "3", "4"):
        ui.press_seat(seat)
    assert timer.big == "Reveal!" and ui.app.table.lamps.state(1)
    ui.tap(ui.find("< Back"))
    timer.clock.advance(20 * 60)
    enter_timer(ui)
    ui.pump(2)
    assert timer.big != "Reveal!" and timer.board.countdown.ready == ()
    assert not any(ui.app.table.lamps.state(s) for s in (1, 2, 3, 4))
    assert not any(lamp.lit for lamp in lamps_of(timer).values())


def test_running_timer_is_restored_from_the_settings_store(ui, timer, played):
    ui.tap(ui.find("2 min"))
    ui.tap(ui.find("Start"))
    ui.press_seat("2")
    stored = ui.app.log.get_setting("timer")["board"]
    assert stored["countdown"]["status"] == "running"
    assert stored["countdown"]["ready"] == [2]
    ui.tap(ui.find("< Back"))
    assert ui.app.sm.current == "home"
    timer.board = None  # forget everything the screen held: as after a restart
    timer.clock.advance(45)  # the time away counts
    enter_timer(ui)
    ui.pump(2)
    assert timer.big == "1:15"
    assert timer.board.countdown.ready == (2,)
    assert ui.app.table.lamps.state(2)
    # and what is shown comes from the store, not from memory
    ui.tap(ui.find("< Back"))
    changed = dict(stored, countdown=dict(stored["countdown"], duration_ns=30 * S,
                                          warning_ns=5 * S, status="paused",
                                          started_ns=None, elapsed_ns=3 * S))
    ui.app.log.set_setting("timer", {"board": changed, "boot": timer.boot_id(),
                                     "saved_ns": timer.clock()})
    enter_timer(ui)
    assert timer.big == "0:27"
    assert ui.find("Resume").disabled is False


def test_damaged_store_starts_afresh_with_a_message(ui, timer, played):
    ui.tap(ui.find("< Back"))
    ui.app.log.set_setting("timer", {"version": 1, "mode": "countdown", "seats": "x"})
    enter_timer(ui)
    assert ui.app.sm.current == "timer"
    assert "could not be read" in ui.app.status
    assert timer.big == "1:00"


def test_game_clock_banks_pass_the_turn_and_flag(ui, timer, played):
    ui.tap(ui.find("Clock"))
    while ui.find("Bank ").text != "Bank 1 min":
        ui.tap(ui.find("Bank "))
    while ui.find("+").text != "+5 s":
        ui.tap(ui.find("+"))
    ui.tap(ui.find("Start"))
    assert ui.app.table.lamps.state(1) and not ui.app.table.lamps.state(2)
    timer.clock.advance(20)
    ui.pump(2)
    ui.press_seat("2")  # not seat 2's turn
    ui.press_seat("1")
    cells = banks_of(timer)
    assert (cells[1].text, cells[2].text, cells[2].active) == ("0:45", "1:00", True)
    assert ui.app.table.lamps.state(2) and not ui.app.table.lamps.state(1)
    for cell in cells.values():
        label = [w for w in cell.children if getattr(w, "text", None) == cell.text][0]
        assert label.font_size >= 96, "bank digits must read from across the table"
        assert text_width(label) <= label.width, "the digits must fit their cell"
    ui.screenshot("timer_game_clock")
    ui.tap(ui.find("Pause all"))
    timer.clock.advance(300)
    ui.pump(2)
    cells = banks_of(timer)
    assert cells[2].text == "1:00"
    ui.tap(ui.find("Resume"))
    timer.clock.advance(61)
    ui.pump(3)
    assert played == ["expired"]
    cells = banks_of(timer)
    assert cells[2].flagged and cells[2].note == "FLAG"
    assert "Flag: seat 2" in timer.caption
    ui.screenshot("timer_game_clock_flag")
    timer.clock.advance(10)
    ui.pump(2)
    assert played == ["expired"], "a flag is cued once"
    ui.tap(ui.find("Reset"))
    ui.tap(ui.find("Countdown"))


def text_width(label) -> int:
    """How wide the label's text is on one line, in px (the texture fills the box)."""
    from kivy.core.text import Label as CoreLabel

    core = CoreLabel(text=label.text, font_size=label.font_size, bold=label.bold)
    core.refresh()
    return core.texture.size[0]


def lamps_of(timer) -> dict:
    """The countdown's ready lamps on screen, by seat."""
    from companion.ui.screens.timer import SeatLamp

    return {w.seat: w for w in timer.walk(restrict=True) if isinstance(w, SeatLamp)
            and w.parent is not None}


def banks_of(timer) -> dict:
    """The game clock's banks on screen, by seat."""
    from companion.ui.screens.timer import BankCell

    return {w.seat: w for w in timer.walk(restrict=True) if isinstance(w, BankCell)
            and w.parent is not None}


def enter_timer(ui):
    """From home, through the Timer tile (home builds its tiles on entry)."""
    ui.app.navigate("settings")
    ui.app.home()
    ui.pump(2)
    ui.tap(ui.find("[b]Timer[/b]"))


def timer_digits(ui):
    """The countdown's big label."""
    screen = ui.app.sm.get_screen("timer")
    return ui.find(screen.big)


@pytest.mark.parametrize("n, least_px", [(6, 80), (8, 48)])
def test_game_clock_digits_fit_for_many_seats(ui, timer, n, least_px):
    while len(timer.board.seats) != n:
        ui.tap(ui.find(" seats"))
    ui.tap(ui.find("Clock"))
    ui.tap(ui.find("Start"))
    ui.pump(2)
    assert len(banks_of(timer)) == n
    for cell in banks_of(timer).values():
        label = [w for w in cell.children if getattr(w, "text", None) == cell.text][0]
        assert label.font_size >= least_px
        assert text_width(label) <= label.width, "the digits must fit their cell"
    ui.screenshot(f"timer_game_clock_{n}_seats")
    ui.tap(ui.find("Reset"))
    ui.tap(ui.find("Countdown"))


def test_a_running_timer_keeps_going_when_the_app_restarts_on_the_same_boot(ui, timer):
    ui.tap(ui.find("30 s"))
    ui.tap(ui.find("Start"))
    timer.clock.advance(10)
    ui.goto_home()  # leaving and coming back restores the board from the log
    enter_timer(ui)
    ui.pump(2)
    assert timer.board.status() == "running" and timer.big == "0:20"


def test_after_the_pi_restarted_a_running_timer_comes_back_paused(ui, timer):
    ui.tap(ui.find("30 s"))
    ui.tap(ui.find("Start"))
    timer.clock.advance(10)
    timer.board, _ = timer.board.press(1, timer.clock())  # seat 1 ready: saved 10 s in
    timer.timer.save()
    timer.boot_id = lambda: "another-boot"
    timer.clock = FakeClock()  # the new boot's monotonic clock starts near zero
    ui.goto_home()
    enter_timer(ui)
    ui.pump(2)
    assert timer.board.status() == "paused"
    assert timer.big == "0:20"  # the 10 s before the last save count; nothing after
    assert "paused" in ui.app.status


class FakeSchedule:
    """``Clock.schedule_once`` for the timer screen: records what it asks for; the test
    runs it after moving the fake clock by the delay asked."""

    class Event:
        def __init__(self, callback, seconds):
            self.callback, self.seconds, self.cancelled = callback, seconds, False

        def cancel(self):
            self.cancelled = True

    def __init__(self):
        self.events: list[FakeSchedule.Event] = []

    def __call__(self, callback, seconds):
        self.events.append(self.Event(callback, seconds))
        return self.events[-1]

    @property
    def planned(self):
        live = [e for e in self.events if not e.cancelled]
        assert len(live) <= 1, "one update planned at a time"
        return live[0] if live else None

    def run(self, clock):
        """Move ``clock`` to the planned update and run it; the delay it waited (s)."""
        event = self.planned
        assert event is not None, "no update planned"
        event.cancelled = True  # it has run
        clock.advance(event.seconds)
        event.callback(event.seconds)
        return event.seconds


@pytest.fixture
def planned(timer, monkeypatch):
    schedule = FakeSchedule()
    monkeypatch.setattr(timer, "schedule", schedule)
    return schedule


def test_the_countdown_asks_for_one_update_a_second_and_cues_come_on_time(
        ui, timer, played, planned):
    """No frame loop for the digits: each shown second is one planned update, a
    millisecond after it rolls, and the warning and the end sound at their second."""
    ui.tap(ui.find("30 s"))
    ui.tap(ui.find("Start"))
    assert not timer.frames_wanted() and timer.big == "0:30"
    start = timer.clock()
    shown, heard = [], []
    while planned.planned is not None:
        waited = planned.run(timer.clock)
        assert waited == pytest.approx(1.0, abs=0.002)
        shown.append(timer.big)
        heard.append(list(played))
    assert shown == [f"0:{s:02d}" for s in range(29, 0, -1)] + ["Time's up!"]
    ten = shown.index("0:10")
    assert heard[ten - 1] == [] and heard[ten] == ["warning"]  # at 10 s left, not before
    assert played == ["warning", "expired"]
    assert (timer.clock() - start) / S == pytest.approx(30, abs=0.05)  # on time, 30 updates
    assert not timer.frames_wanted()


def test_a_paused_or_stopped_timer_plans_nothing_and_resume_plans_again(ui, timer, planned):
    ui.tap(ui.find("60 s"))
    assert planned.planned is None  # idle: nothing moves until Start
    ui.tap(ui.find("Start"))
    timer.clock.advance(0.4)
    ui.tap(ui.find("Pause all"))
    assert planned.planned is None
    ui.tap(ui.find("Resume"))
    assert planned.planned.seconds == pytest.approx(0.6 + 0.001)  # "1:00" turns "0:59"
    planned.run(timer.clock)
    assert timer.big == "0:59"


def test_a_revealed_choice_goes_back_by_its_planned_update(ui, timer, planned):
    ui.app.navigate("settings")
    ui.app.home()
    screen = ui.app.sm.get_screen("timer")
    screen.open_choice((1, 2), "home")
    ui.app.navigate("timer")
    ui.pump(2)
    for seat in ("1", "2"):
        ui.press_seat(seat)
    assert timer.big == "Reveal!"
    assert planned.run(timer.clock) == pytest.approx(2.001, abs=0.002)
    assert ui.app.sm.current == "home" and planned.planned is None


def test_a_tap_that_changes_nothing_stores_and_draws_nothing(ui, timer, monkeypatch):
    """The length already chosen tapped again, the mode already shown chosen again: the
    board is the same, so nothing is written to the settings and nothing is drawn
    again; a tap that changes the board still stores it and shows it."""
    ui.tap(ui.find("60 s"))
    stored = []
    set_setting = ui.app.log.set_setting
    monkeypatch.setattr(ui.app.log, "set_setting",
                        lambda key, value: (stored.append(key), set_setting(key, value)))
    shown = []
    refresh = timer.refresh
    monkeypatch.setattr(timer, "refresh", lambda: (shown.append(1), refresh()))
    ui.tap(ui.find("60 s"))
    ui.tap(ui.find("Countdown"))
    assert stored == [] and shown == []
    assert timer.big == "1:00"
    ui.tap(ui.find("30 s"))
    assert stored == ["timer"] and shown == [1] and timer.big == "0:30"
    assert ui.app.log.get_setting("timer")["board"] == timer.board.to_json()
