"""The Timer tool's controller without a window: a fake clock, a real game log for its
setting, fake lamps. A choice countdown for the table (ready buttons light their lamps,
everyone ready reveals, the captain starts and pauses), the game clock passing turns,
and what is kept across a restart of the app or of the Pi."""

from __future__ import annotations

import pytest
from fakes import Front

from companion.config import load_config
from companion.control.timer import SETTING, TimerControl
from companion.events import CAPTAIN_SEAT
from companion.timer import NS_PER_S
from companion.ui.session_controller import SessionController

S = NS_PER_S


class Clock:
    def __init__(self):
        self.t = 5_000 * S

    def __call__(self):
        return self.t

    def advance(self, seconds):
        self.t += int(seconds * S)


class Lamps:
    def __init__(self):
        self.lit = set()

    def on(self, seat):
        self.lit.add(seat)

    def off(self, seat):
        self.lit.discard(seat)

    def all_off(self):
        self.lit.clear()


class Table:
    def __init__(self, seats):
        self.seats, self.lamps = list(seats), Lamps()


class App:
    """The app as the timer sees it."""

    def __init__(self, log):
        self.log, self.cfg = log, load_config(None)
        self.controller = SessionController(log, Front())
        self.table = Table(s.seat for s in self.cfg.seats)
        self.played, self.said, self.spoken, self.backs = [], [], [], 0
        self.clock_watch, self.clock_note = None, ""

    @property
    def session(self):
        return self.controller.session

    def play(self, cue):
        self.played.append(cue)

    def speak(self, line):
        if line is not None:
            self.spoken.append(line)

    def say(self, text, error=False, seconds=6):
        self.said.append(text)

    def back(self):
        self.backs += 1


@pytest.fixture
def app(game_log):
    return App(game_log)


@pytest.fixture
def clock():
    return Clock()


def timer_for(app, clock, boot="boot-1"):
    return TimerControl(app, clock=clock, boot_id=lambda: boot)


def four_seats(timer):
    while len(timer.board.seats) != 4:
        assert timer.control("seats")


def test_a_fresh_tool_offers_the_presets_and_start(app, clock):
    timer = timer_for(app, clock)
    view = timer.enter()
    assert view.heading == "Timer" and view.mode == "countdown" and view.big == "1:00"
    labels = [c.label for c in view.controls]
    assert labels[:5] == ["Countdown", "Clock", "30 s", "60 s", "2 min"]
    assert labels[-1] == "Start"
    assert app.log.get_setting(SETTING)["boot"] == "boot-1"


def test_ready_buttons_light_their_lamps_and_everyone_ready_reveals(app, clock):
    timer = timer_for(app, clock)
    timer.enter()
    four_seats(timer)
    assert timer.control("preset:30000000000") and timer.control("start")
    for seat in (1, 3, 3, 7):  # a repeat and an unseated seat count for nothing
        timer.press(seat)
    view = timer.view()
    assert app.table.lamps.lit == {1, 3}
    assert [lamp.lit for lamp in view.lamps] == [True, False, True, False]
    assert view.caption.startswith("2 of 4 ready")
    timer.press(2)
    timer.tap_seat(4)  # a tap on its lamp: the same as its button
    view = timer.view()
    assert view.big == "Reveal!" and view.look == "ready" and app.played == ["reveal"]
    assert timer.next_change() is None  # a tool on its own: nothing more happens


def test_the_captain_starts_pauses_and_resumes(app, clock):
    timer = timer_for(app, clock)
    timer.enter()
    assert timer.press(CAPTAIN_SEAT)
    clock.advance(10)
    assert timer.press(CAPTAIN_SEAT)  # paused at 0:50
    clock.advance(600)
    assert timer.view().big == "0:50" and timer.next_change() is None
    assert not timer.press(CAPTAIN_SEAT, pressed=False)  # a release does nothing
    timer.press(CAPTAIN_SEAT)
    clock.advance(5)
    assert timer.view().big == "0:45"


def test_the_countdown_warns_and_expires_once_by_its_planned_updates(app, clock):
    timer = timer_for(app, clock)
    timer.enter()
    timer.control("preset:30000000000")
    timer.control("start")
    assert timer.next_change() == S  # the next second shown
    clock.advance(20)
    timer.poll()
    assert app.played == ["warning"] and timer.view().look == "alarm"
    clock.advance(10)
    timer.poll()
    timer.poll()
    assert app.played == ["warning", "expired"] and timer.view().big == "Time's up!"


def test_a_tap_that_changes_nothing_stores_nothing(app, clock, monkeypatch):
    timer = timer_for(app, clock)
    timer.enter()
    stored = []
    monkeypatch.setattr(app.log, "set_setting", lambda k, v: stored.append(k))
    assert not timer.control("preset:60000000000")  # already 60 s
    assert not timer.control("mode_countdown")
    assert stored == []
    assert timer.control("preset:30000000000") and stored == ["timer"]


def test_a_choice_for_a_game_goes_back_when_revealed(app, clock):
    assert app.controller.start("scorepad", {"players": [
        {"name": "Ann", "seat": 1}, {"name": "Bob", "seat": 2}]})
    timer = timer_for(app, clock)
    timer.open_choice((1, 2), "times")
    view = timer.enter()
    assert view.heading == "Choice timer" and [lamp.name for lamp in view.lamps] == ["Ann", "Bob"]
    assert next(c for c in view.controls if c.key == "pause").enabled  # it runs
    timer.press(1)
    timer.press(2)
    assert timer.view().big == "Reveal!"
    assert timer.next_change() == 2 * S  # "Reveal!" stays up a moment
    clock.advance(2)
    assert not timer.poll()
    assert app.backs == 1 and app.said[-1] == "Reveal! Turn your cards over."
    assert timer.board.return_to is None


def test_a_game_s_players_are_the_seats(app, clock):
    assert app.controller.start("scorepad", {"players": [
        {"name": "Ann", "seat": 2}, {"name": "Bob", "seat": 5}]})
    timer = timer_for(app, clock)
    view = timer.enter()
    assert [(lamp.seat, lamp.name) for lamp in view.lamps] == [(2, "Ann"), (5, "Bob")]
    assert not next(c for c in view.controls if c.key == "seats").enabled


def test_the_game_clock_passes_the_turn_and_flags_once(app, clock):
    timer = timer_for(app, clock)
    timer.enter()
    four_seats(timer)
    timer.control("mode_clock")
    while timer.board.bank_ns != 60 * S:
        timer.control("bank")
    timer.control("start")
    assert app.table.lamps.lit == {1}
    clock.advance(15)
    timer.press(2)  # not seat 2's turn
    timer.press(1)
    view = timer.view()
    assert [(b.seat, b.text, b.active) for b in view.banks[:2]] == [
        (1, "0:45", False), (2, "1:00", True)]
    assert app.table.lamps.lit == {2} and view.columns == 2
    clock.advance(61)
    timer.poll()
    timer.poll()
    view = timer.view()
    assert app.played == ["expired"] and view.banks[1].note == "FLAG"
    assert "Flag: seat 2" in view.caption


def test_a_running_timer_goes_on_after_an_app_restart_and_pauses_after_a_pi_restart(
        app, clock):
    timer = timer_for(app, clock)
    timer.enter()
    timer.control("preset:30000000000")
    timer.control("start")
    clock.advance(10)
    timer.leave()
    assert app.clock_watch() == "Timer running: 0:20 left"
    assert timer_for(app, clock).enter().big == "0:20"  # the app restarted: same boot
    after = Clock()  # the Pi restarted: a new boot's clock
    view = timer_for(app, after, boot="boot-2").enter()
    assert view.big == "0:20" and "paused" in app.said[-1]
    assert any(c.key == "resume" and c.enabled for c in view.controls)


def test_a_damaged_setting_starts_afresh_and_says_so(app, clock):
    app.log.set_setting(SETTING, {"board": {"version": 99}, "boot": "boot-1"})
    view = timer_for(app, clock).enter()
    assert view.big == "1:00" and "could not be read" in app.said[-1]
