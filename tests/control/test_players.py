"""Player setup without a window, on a real game log: the rows pre-filled from the log,
In/Out and the seat buttons, who begins, typing names with known players offered, and
Start: the game begins, or the reason it cannot is said once and the notice follows the
fixes (the next problem, then gone; a notice tapped away is not brought back)."""

from __future__ import annotations

import pytest
from fakes import Front

from companion.config import load_config
from companion.control.players import HINT, PlayersControl
from companion.ui.session_controller import SessionController


class Banner:
    def __init__(self):
        self.text = ""

    def show(self, text, kind, cause="", until=0.0):
        self.text = text


class App:
    """The app as the setup sees it: the log, the config, the notice area, start."""

    def __init__(self, log, kind="scorepad"):
        self.log, self.cfg, self.pending_game = log, load_config(None), kind
        self.controller = SessionController(log, Front())
        self.banner, self.said, self.started = Banner(), [], []

    @property
    def banner_text(self):
        return self.banner.text

    def say(self, text, error=False):
        self.said.append(text)
        if error:
            self.banner.show(text, "refusal")

    def clear_banner(self):
        self.banner.text = ""

    def start_game(self, kind, setup):
        self.started.append((kind, setup))
        return self.controller.start(kind, setup)


@pytest.fixture
def app(game_log):
    return App(game_log)


def test_a_first_opening_has_four_seats_in_and_no_names(app):
    view = PlayersControl(app).open()
    assert view.heading == "Players: Score pad" and view.message == HINT
    assert [(r.seat, r.name, r.in_play) for r in view.rows[:5]] == [
        (1, "", True), (2, "", True), (3, "", True), (4, "", True), (5, "", False)]
    assert view.editing is None and view.first_text == ""


def test_names_in_out_and_start_begin_the_game(app):
    setup = PlayersControl(app)
    setup.open()
    setup.name(1, "Ann")
    setup.name(2, "Bob")
    setup.set_in(3, False)
    setup.set_in(4, False)
    setup.press(6)  # the seat's own button: in play
    setup.name(6, "Finn")
    assert setup.start()
    assert app.started == [("scorepad", {"players": [
        {"name": "Ann", "seat": 1}, {"name": "Bob", "seat": 2}, {"name": "Finn", "seat": 6}]})]
    assert [p.name for p in app.controller.session.state.players] == ["Ann", "Bob", "Finn"]


def test_the_next_opening_offers_who_sat_where(app):
    setup = PlayersControl(app)
    setup.open()
    for seat, name in ((1, "Ann"), (2, "Bob")):
        setup.name(seat, name)
    setup.set_in(3, False)
    setup.set_in(4, False)
    assert setup.start()
    app.controller.end("finished")
    rows = PlayersControl(app).open().rows
    assert [(r.name, r.in_play) for r in rows[:3]] == [("Ann", True), ("Bob", True),
                                                        ("", True)]


def test_a_refusal_follows_the_fixes_then_goes(app):
    setup = PlayersControl(app)
    setup.open()
    setup.name(1, "Ann")
    setup.name(2, "Ann")
    setup.set_in(4, False)
    assert not setup.start() and app.started == []
    assert app.banner_text.startswith("Seat 3 is in play but has no name")
    setup.set_in(3, False)  # fixed: the next problem, in the same notice, not said again
    assert app.banner_text == "Seats 1 and 2 are both called Ann: give one of them another name."
    assert len(app.said) == 1
    setup.name(2, "Bob")
    assert app.banner_text == ""  # all fixed: the notice goes
    assert setup.start() and app.started


def test_a_refusal_tapped_away_is_not_brought_back(app):
    setup = PlayersControl(app)
    setup.open()
    assert not setup.start()
    app.clear_banner()  # the table read it and tapped it away
    setup.name(1, "Ann")
    assert app.banner_text == ""


def test_typing_offers_known_players_and_one_tap_takes_them(app):
    setup = PlayersControl(app)
    setup.open()
    setup.known = ["Cara", "Carl", "Dan", "Ann"]
    setup.name(2, "Dan")
    view = setup.type(1)
    assert view.editing == 1 and view.offers == ("Cara", "Carl", "Ann")  # Dan sits at 2
    assert setup.name(1, "Car").offers == ("Cara", "Carl")
    view = setup.take_known("Carl")
    assert view.rows[0].name == "Carl" and view.rows[0].in_play and view.editing == 2
    assert setup.next_name().editing == 3
    setup.type(8)
    assert setup.next_name().editing is None  # after the last seat: done


def test_who_deals_first_in_a_game_that_asks(app):
    app.pending_game = "professor_tempus"
    setup = PlayersControl(app)
    view = setup.open()
    assert view.first_text.endswith("seat 1")
    setup.name(2, "Bob")
    assert setup.next_first().first_text.endswith(": Bob")
    setup.set_in(2, False)  # out: the next in play begins
    assert setup.view().first_text.endswith("seat 1")
