"""What a tap on the T.I.M.E Stories screen means, on a real game log and no window.

``TimeStoriesControl`` (``companion/control/time_stories.py``) is driven with a small
app (a real ``SessionController`` over a real game log) and checked against the
rulebook: the Time Captain die's costs, a stay, the Asylum's Glibness test, a run that
runs out of time and the next one, items kept by the T.I.M.E Agency, and the setup of
the characters typed on the screen's own keyboard."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from fakes import Faces, Front
from samples import ASYLUM

from companion.control.time_stories import TimeStoriesControl
from companion.ui.session_controller import SessionController

ANN_BEA = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]}


class App:
    """The port the controller is given: the game, acting, sounds, settings, seats."""

    def __init__(self, game_log, setup) -> None:
        self.front = Front()
        self.controller = SessionController(game_log, self.front)
        assert self.controller.start("time_stories", setup)
        self.log = game_log
        self.cfg = SimpleNamespace(seats=[SimpleNamespace(seat=s, colour=c)
                                          for s, c in ((1, "orange"), (2, "sky"))])
        self.table = SimpleNamespace(now_ns=lambda: 0)
        self.played, self.said, self.ended = [], [], False

    @property
    def session(self):
        return self.controller.session

    def act(self, action):
        return self.controller.act(action)

    def undo(self):
        return self.controller.undo()

    def amend_setup(self, setup):
        return self.controller.amend_setup(setup)

    def play(self, cue):
        self.played.append(cue)

    def say(self, text, error=False):
        self.said.append(text)

    def end_game(self, ask=True):
        self.ended = True


@pytest.fixture
def app(game_log):
    return App(game_log, ASYLUM)


@pytest.fixture
def ts(app):
    control = TimeStoriesControl(app)
    control.enter()
    return control


def snap(ts):
    return ts.session().snapshot()


def settle(ts, face, red=None):
    """Roll the captain die for ``face`` and let it settle."""
    ts.rng = Faces(face)
    if red is not None and ts.red != red:
        ts.tap(("red",))
    ts.tap(("roll", 0))
    assert ts.view().rolling and snap(ts)["log"][-1]["kind"] != "travel"
    return ts.frame(10**10)


def footer(view):
    return [b["text"] for b in view.footer]


def button(view, text):
    """The key of the button or choice that says ``text``, wherever it is on the view."""
    rows = [*view.footer]
    for row in view.rows:
        rows += [*row.get("choices", ()), *row.get("minus", ()), *row.get("plus", ())]
    found = [b["key"] for b in rows if b["text"] == text]
    assert found, (text, [b["text"] for b in rows])
    return found[0]


def tap(ts, text):
    return ts.tap(button(ts.view(), text))


def test_the_controller_loads_without_kivy():
    code = ("import sys, companion.control.time_stories, companion.control.captain_die\n"
            "print(sorted(m for m in sys.modules if m.startswith('kivy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2], timeout=120)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(("face", "red", "cost"), [
    (1, False, 1), (2, False, 2), (3, False, 2), (4, False, 2), (5, False, 2), (6, False, 3),
    (1, True, 3), (4, True, 4), (6, True, 5)])
def test_the_captain_die_costs_what_the_rulebook_says(ts, face, red, cost):
    """1 -> 1 TU, 2-5 -> 2, 6 -> 3; leaving a red-lettered location +2."""
    view = settle(ts, face, red)
    assert snap(ts)["tu"] == 25 - cost
    assert ts.session().actions[-1] == {"type": "travel", "die": face, "red": red}
    assert view.die == str(face) and view.tu == str(25 - cost)
    assert not view.red, "the red-lettered toggle is for one departure"


def test_the_die_tumbles_without_its_face_then_an_undo_clears_it(ts, app):
    ts.rng = Faces(2)
    ts.tap(("roll", 0))
    tumbling = ts.frame(100_000_000)
    assert tumbling.rolling and tumbling.die != "2" and tumbling.die_caption == "Rolling..."
    assert ts.tap(("roll", 0)).rolling and app.played == ["dice"], "one roll at a time"
    ts.tap(("undo",))
    assert ts.session().n_actions == 0, "no undo while the die rolls"
    assert ts.frame(10**9).die_caption == "Die 2: 2 TU"
    view = ts.tap(("undo",))
    assert (view.die, view.tu) == ("-", "25"), "an undone roll leaves the die"


def test_stay_costs_one_and_the_log_shows_newest_first(ts):
    settle(ts, 6)
    view = ts.tap(("stay",))
    assert snap(ts)["tu"] == 21 and view.tu == "21"
    assert "22 -> 21 TU" in view.log[0] and "captain die 6" in view.log[1]


def test_the_tables_own_die_is_asked_then_spent(ts):
    view = ts.tap(("face",))
    assert footer(view) == ["1", "2", "3", "4", "5", "6", "Cancel"]
    assert view.die_caption == "Which face does the Time Captain die show?"
    assert footer(ts.tap(("face", 0)))[0] == "Roll die" and ts.session().n_actions == 0
    ts.tap(("face",))
    ts.tap(("face", 4))
    assert ts.session().actions == [{"type": "travel", "die": 4, "red": False}]


def test_the_asylum_glibness_test_of_the_rulebook(ts):
    """Marie and Madeleine at the cook's (space B): Glibness 3 + 1 = four dice against
    four blank shields; one die turned to a hit (Marie's ability) and four hits clear it."""
    ts.open("test")
    for text in ("Glibness", "Marie", "Madeleine", "\u25cb blank", "\u25cb blank",
                 "\u25cb blank", "\u25cb blank"):
        tap(ts, text)
    view = tap(ts, "Start: \u25cb \u25cb \u25cb \u25cb")
    t = snap(ts)["tests"][0]
    assert (t["space"], t["dice"], t["characters"]) == ("B", 4, ["Marie", "Madeleine"])
    assert footer(view)[0] == "Roll 4 dice"
    odds = [r["text"] for r in view.rows if r.get("text", "").startswith("4 dice: clear")]
    view = ts.tap(("turn_to_hit", 1))  # Marie's ability: one die turned to a hit
    assert any(r.get("heading") == "Turn to hit: 1" for r in view.rows)
    better = [r["text"] for r in view.rows if r.get("text", "").startswith("4 dice: clear")]
    assert odds and better and better != odds, "the odds with the turned die"
    ts.rng = Faces(4, 4, 5, 1)  # three hits and a skull: the skull is turned
    view = ts.tap(("roll_test",))
    roll = snap(ts)["last_roll"]["outcome"]
    assert roll["cleared"] and roll["hits"] == 4 and roll["turned"] == [3]
    assert view.title == "The roll" and footer(view)[0] == "New test"
    assert any("Test cleared!" in r.get("text", "") for r in view.rows)
    assert footer(ts.tap(("new_test",)))[0].startswith("Start:")


def test_another_space_the_same_turn_is_offered_with_its_turn(ts):
    assert ts.app.act({"type": "test_start", "space": "B", "characteristic": "Combat",
                       "characters": ["Marie"], "shields": ["blank"], "locked": False})
    assert ts.app.act({"type": "test_roll", "space": "B", "faces": [4]})
    ts.open("test")
    assert ts.view().title == "The roll", "the log ends on a roll: it shows first"
    ts.tap(("new_test",))
    for key in (("space", "C"), ("trait", "Combat"), ("who", "Marie"), ("shield", "blank")):
        ts.tap(key)
    view = ts.tap(("start_test",))
    assert view.message.startswith("Marie rolled at space B this turn")
    assert footer(view)[:2] == ["Stay (1 TU) and start", "Cancel"]
    assert ts.session().n_actions == 2
    ts.tap(("paid_start",))
    assert snap(ts)["tu"] == 24 and snap(ts)["tests"][0]["space"] == "C"
    assert ts.session().actions[-1]["new_turn"] is True
    ts.tap(("undo",))
    assert snap(ts)["tu"] == 25 and not snap(ts)["tests"]


def test_a_changed_choice_withdraws_the_offer(ts):
    ts.app.act({"type": "test_start", "space": "B", "characteristic": "Combat",
                "characters": ["Marie"], "shields": ["blank"], "locked": False})
    ts.app.act({"type": "test_roll", "space": "B", "faces": [4]})
    ts.open("test")
    ts.tap(("new_test",))
    for key in (("space", "D"), ("trait", "Combat"), ("who", "Marie"), ("shield", "blank"),
                ("start_test",)):
        ts.tap(key)
    assert ts.offer is not None
    ts.tap(("who", "Marie"))
    assert ts.offer is None
    ts.tap(("who", "Madeleine"))
    ts.tap(("start_test",))
    assert [t["space"] for t in snap(ts)["tests"]] == ["D"] and snap(ts)["tu"] == 25


def test_refusals_are_the_panels_message_and_nothing_is_logged(ts, app):
    ts.open("test")
    view = ts.tap(("shield", "blank"))
    view = ts.tap(("start_test",))
    assert view.message == "Choose who takes part in the test at space B."
    assert app.played[-1] == "error" and ts.session().n_actions == 0
    assert ts.tap(("who", "Marie")).message == "", "the next tap takes the message away"
    ts.open("correct")
    ts.tap(("delta", 1))
    view = ts.tap(("apply",))
    assert view.message == "A correction of 0 changes nothing." and view.panel == "panel"


def test_the_tables_own_action_dice_step_through_their_symbols(ts):
    ts.app.act({"type": "test_start", "space": "B", "characteristic": "Glibness",
                "characters": ["Marie", "Madeleine"],
                "shields": ["blank", "blank", "skull", "blank"], "locked": False})
    ts.open("test")
    view = ts.tap(("our_dice",))
    tiles = next(r for r in view.rows if r["viewclass"] == "TsTiles")["tiles"]
    assert len(tiles) == 4 and all("skull" in t["text"] for t in tiles)
    for i, taps in enumerate((0, 1, 2, 3)):  # skull, blank, 1 hit, 2 hits
        for _ in range(taps):
            ts.tap(("turn_die", i))
    assert ts.session().actions[-1]["type"] == "test_start", "nothing before Record"
    ts.tap(("record",))
    assert ts.session().actions[-1] == {"type": "test_roll", "space": "B",
                                        "faces": [1, 3, 4, 6]}


def test_time_runs_out_the_agency_item_stays_and_run_two_starts(ts):
    ts.app.act({"type": "gain_item", "item": "Agency badge", "holder": None, "agency": True})
    ts.app.act({"type": "gain_item", "item": "Lamp oil", "holder": "Marie", "agency": False})
    ts.open("correct")
    for _ in range(5):
        ts.tap(("delta", -5))
    view = ts.tap(("apply",))
    assert snap(ts)["outcome"] == "failed_time" and view.panel == "panel"
    assert view.rows[0]["text"].startswith("[b]Mission failed: time ran out")
    assert "Agency badge" in view.rows[1]["text"]
    assert [i["name"] for i in snap(ts)["items"]] == ["Agency badge"]
    view = ts.tap(("next_tu", 30))
    assert footer(view)[0] == "Start run 2 (30 TU)"
    view = ts.tap(("start_run",))
    assert (snap(ts)["run"], snap(ts)["tu"]) == (2, 30) and view.panel == "mission"


def test_mission_won_ends_the_run_and_undo_brings_the_mission_back(ts):
    ts.open("correct")
    view = ts.tap(("won",))
    assert snap(ts)["mission_complete"] and footer(view) == ["End game"]
    view = ts.tap(("undo",))
    assert snap(ts)["running"] and view.panel == "mission"


def test_characters_lose_and_gain_life(ts):
    view = ts.open("characters")
    marie = view.rows[0]
    assert (marie["name"], marie["life"]) == ("Marie", "\u2665\u2665")
    view = ts.tap(marie["minus"])
    assert view.rows[0]["life"] == "\u2665\u2661"
    assert ts.tap(marie["plus"]).rows[0]["life"] == "\u2665\u2665"


def test_items_added_given_and_used(ts):
    ts.open("items")
    ts.tap(("new_item",))
    ts.tap(("type", "item"))
    view = ts.typed("Item 12")
    assert view.panel == "typing" and view.typing["text"] == "Item 12"
    view = ts.tap(("done_typing",))
    assert view.rows[0]["text"] == "Item 12", "the field shows what was typed"
    ts.tap(("holder", "Marie"))
    ts.tap(("agency",))
    ts.tap(("add_item",))
    assert ts.session().actions[-1] == {"type": "gain_item", "item": "Item 12",
                                        "holder": "Marie", "agency": True}
    view = ts.tap(("give", "Item 12"))
    assert "Madeleine" in [c["text"] for c in view.rows[1]["choices"]]
    ts.tap(("give_to", "Madeleine"))
    assert snap(ts)["items"][0]["holder"] == "Madeleine"
    ts.tap(("used", "Item 12"))
    assert snap(ts)["items"] == []
    ts.tap(("new_item",))
    assert "name" in ts.tap(("add_item",)).message.lower(), "a blank name: in words"


def test_a_new_game_is_set_up_on_the_screens_keyboard(game_log):
    app = App(game_log, ANN_BEA)
    ts = TimeStoriesControl(app)
    view = ts.enter()
    assert view.title == "Setup: mission and time", "no characters: setup first"
    ts.rng = Faces(2)
    view = ts.tap(("roll", 0))
    assert view.message == "Add the characters first, or play without characters."
    assert not view.rolling and ts.session().n_actions == 0
    ts.tap(("setup_mission", "The Marcy Case"))
    for d in (5, 5, -1):
        ts.tap(("setup_tu", d))
    ts.tap(("setup_go", 1))
    view = ts.view()
    assert view.title == "Setup: Ann's character (1 of 2)"
    assert [r["name"] for r in view.rows if r["viewclass"] == "TsStepper"][2:] == [
        "Search", "Ranged Combat", "Close Combat"]
    ts.tap(("setup_go", 1))
    view = ts.tap(("setup_start",))
    assert view.message == "Ann's character needs a name."
    assert view.title.startswith("Setup: Ann's"), "the page it is about"
    view = ts.tap(("type", "name"))
    assert view.panel == "typing" and view.typing["seat"] == 1
    ts.typed("Kenny")
    ts.tap(("setup_step", "life", 1))  # (not shown while typing: a tap of the page)
    ts.tap(("done_typing",))
    ts.tap(("setup_go", 1))
    ts.tap(("type", "name"))
    ts.typed("Tiffany")
    ts.tap(("next_field",))
    view = ts.tap(("done_typing",))
    view = ts.tap(("setup_start",))
    s = snap(ts)
    assert (s["mission"], s["starting_tu"], s["tu"]) == ("The Marcy Case", 34, 34)
    assert [(c["name"], c["max_life"]) for c in s["characters"]] == [("Kenny", 3),
                                                                       ("Tiffany", 2)]
    assert view.panel == "mission" and app.said[-1] == "Run 1: 34 TU"
    view = ts.tap(("undo",))
    assert view.title == "Setup: mission and time", "undo: the setup again"


def test_play_without_characters_lets_time_pass(game_log):
    app = App(game_log, ANN_BEA)
    ts = TimeStoriesControl(app)
    ts.enter()
    view = ts.tap(("without",))
    assert view.panel == "mission"
    settle(ts, 1)
    assert snap(ts)["tu"] == 24
    ts.open("test")
    ts.tap(("shield", "blank"))
    assert ts.tap(("start_test",)).message == "This run has no characters: add them first."


def test_a_preset_card_is_a_suggestion_while_typing_a_name(game_log):
    app = App(game_log, ANN_BEA)
    ts = TimeStoriesControl(app)
    ts.enter()
    ts.tap(("setup_go", 1))
    view = ts.tap(("type", "name"))
    assert footer(view) == ["Marie Bertholet", "Madeleine du Tilleul"]
    ts.tap(("suggest", "Marie Bertholet"))
    ts.tap(("done_typing",))
    assert ts.setup.sheet().traits == [["Deftness", 2], ["Glibness", 3], ["Combat", 1]]
