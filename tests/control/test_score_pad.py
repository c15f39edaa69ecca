"""The score pad's controller without a window, on a real game log: a tap on -1, +1,
+5 or typed points is that many points for its row's player, a seat button is one point
while a score pad game is on, and the view shows each player's total."""

from __future__ import annotations

import pytest
from fakes import Front

from companion.config import load_config
from companion.control.score_pad import ScorePadControl
from companion.ui.session_controller import SessionController

THREE = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bob", "seat": 2},
                     {"name": "Cara", "seat": 4}]}


class App:
    """The app as the controller sees it: the session controller and the config."""

    def __init__(self, log):
        self.front = Front()
        self.controller = SessionController(log, self.front)
        self.cfg = load_config(None)

    @property
    def session(self):
        return self.controller.session

    def act(self, action):
        return self.controller.act(action)


@pytest.fixture
def app(game_log):
    return App(game_log)


def test_no_game_shows_no_rows(app):
    view = ScorePadControl(app).view()
    assert view.heading == "No game" and view.rows == () and not view.can_undo


def test_taps_score_for_their_row_and_the_view_shows_totals(app):
    assert app.controller.start("scorepad", THREE)
    pad = ScorePadControl(app)
    assert pad.score(2, 5) and pad.score(2, -1) and pad.score(4, 37)
    view = pad.view()
    assert view.heading == "Score pad"
    assert [(r.seat, r.name, r.total) for r in view.rows] == [
        (1, "Ann", "0"), (2, "Bob", "4"), (4, "Cara", "37")]
    assert view.can_undo and pad.name(4) == "Cara"
    assert app.controller.undo()
    assert [r.total for r in pad.view().rows] == ["0", "4", "0"]


def test_a_seat_button_is_one_point_and_a_release_nothing(app):
    assert app.controller.start("scorepad", THREE)
    pad = ScorePadControl(app)
    assert pad.press(1) and not pad.press(1, pressed=False)
    assert app.session.snapshot()["totals"] == {"1": 1, "2": 0, "4": 0}


def test_a_seat_nobody_plays_is_refused_in_words(app):
    assert app.controller.start("scorepad", THREE)
    pad = ScorePadControl(app)
    assert not pad.press(3)
    assert any(name == "refuse" for name, _ in app.front.calls)
    assert app.session.snapshot()["totals"] == {"1": 0, "2": 0, "4": 0}


def test_a_game_with_a_screen_of_its_own_is_not_scored_from_here(app):
    four = {"players": THREE["players"] + [{"name": "Dan", "seat": 5}]}
    assert app.controller.start("crazy_time", four), app.front.calls
    pad = ScorePadControl(app)
    assert not pad.press(1)
    assert app.session.log.actions(app.session.game_id) == []


def test_the_controllers_load_without_kivy():
    """The shell's controllers are tested without a window: importing them (a fresh
    interpreter, so nothing imported by other tests counts) loads no Kivy."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys, companion.control.timer, companion.control.players, "
            "companion.control.score_pad\n"
            "print(sorted(m for m in sys.modules if m.startswith('kivy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2], timeout=120)
    assert out.stdout.strip() == "[]"
