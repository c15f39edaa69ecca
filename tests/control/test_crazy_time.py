"""The Crazy Time screen's taps without a window: ``CrazyTimeControl`` driven tap by tap
on a real game log, checked against the rulebook (who picks up after a temporal flaw,
several mistakes, "others played since", a guess, the new law and its secret), and what
the screen is given to show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fakes import Front

from companion.control.crazy_time import CrazyTimeControl
from companion.errors import ConfigError
from companion.ui.session_controller import SessionController

MS = 1_000_000
FOUR = {"players": [{"name": n, "seat": i + 1}
                    for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]}


class NoSeats:
    """A config without seat colours: every seat takes its default colour."""

    def seat(self, number):
        raise ConfigError(f"no seat {number}")


class App:
    """The port the controller is given: the session controller's steps, a sound log."""

    def __init__(self, game_log) -> None:
        self.front = Front()
        self.table = SessionController(game_log, self.front)
        self.cfg = NoSeats()
        self.cues: list[str] = []
        self.ended = False

    @property
    def session(self):
        return self.table.session

    def act(self, action):
        return self.table.act(action)

    def undo(self):
        return self.table.undo()

    def undo_label(self):
        return self.table.undo_label()

    def play(self, cue):
        self.cues.append(cue)

    def end_game(self, ask=True):
        self.ended = True
        self.table.end()


@pytest.fixture
def app(game_log):
    app = App(game_log)
    assert app.table.start("crazy_time", FOUR)
    return app


@pytest.fixture
def ct(app):
    return CrazyTimeControl(app)


def snap(app):
    return app.session.snapshot()


def answer(ct, text):
    """Tap the answer showing ``text`` (a seat's name or the words)."""
    options = ct.view().question.options
    return ct.pick(next(i for i, o in enumerate(options) if o.text.startswith(text)))


def test_the_controller_loads_without_kivy():
    code = ("import sys, companion.control.crazy_time\n"
            "print(sorted(m for m in sys.modules if m.startswith('kivy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2], timeout=120)
    assert out.stdout.strip() == "[]"


def test_the_board_at_the_start(ct):
    v = ct.view()
    assert (v.page, v.heading) == ("board", "Crazy Time: round 1 of 4")
    assert v.board.notice == "Ann deals 15 cards each" and v.board.lead.text == "Ann"
    # the news is Ann's: one line with her badge says it and that she starts
    assert (v.lead, v.notice) == ("Ann deals 15 cards each and starts at 1 o'clock", "")
    assert v.laws == "Laws: Time Machine · Synchronisation"
    assert v.facts == "Dealer: Ann  ·  15 cards each"
    assert not v.board.can_guess and not v.can_undo and v.undo == "Undo"
    assert v.pickups == () and v.call_back == ""


# -- a temporal flaw, as the rulebook has it: the accused picks up, or a wrong accuser,
#    or the last one to have played when others played since
FLAWS = [
    # accuser, accused, cause, verdict, last player, (who picks up, reason)
    ("Bob", "Cara", "Time Machine", "Yes: Cara", None, (3, "temporal_flaw")),
    ("Bob", "Cara", "Wrong hour", "No: Bob", None, (2, "wrong_accusation")),
    ("Ann", "Cara", "Synchronisation", "Yes, but others", "Dan", (4, "temporal_flaw")),
]


@pytest.mark.parametrize("accuser, accused, cause, verdict, last, picked", FLAWS)
def test_a_temporal_flaw_picks_up_whom_the_rulebook_says(app, ct, accuser, accused,
                                                         cause, verdict, last, picked):
    ct.tap("accuse")
    assert ct.view().question.title == "Temporal flaw! Who calls it?"
    answer(ct, accuser)
    v = answer(ct, accused)
    assert v.question.title == "Which law or rule was broken?"
    assert [o.text for o in v.question.options] == ["Time Machine", "Synchronisation",
                                                     "Wrong hour", "Out of turn", "Too slow"]
    v = answer(ct, cause)
    assert v.question.title == f"Did {accused} break {cause}?"
    v = answer(ct, verdict)
    if last is not None:
        assert v.question.title.startswith("Who played last?") and snap(app)["pickups"] == []
        v = answer(ct, last)
    p = snap(app)["pickups"][-1]
    assert (p["seat"], p["reason"]) == picked
    assert v.facts == ""  # the deal is history once someone picked up
    assert v.page == "board" and v.pickups[0].seat == picked[0]
    assert v.can_undo and v.undo.startswith("Undo: accusation")


def test_seat_buttons_answer_a_question_and_on_the_board_open_the_slap_pad(app, ct):
    assert ct.press(2) == "slap"  # the board: a press is a slap
    ct.tap("accuse")
    assert ct.press(2) == "answer"
    assert ct.view().question.title == "Whom does Bob accuse?"
    assert ct.press(2) == ""  # Bob cannot accuse himself: not an answer
    assert ct.press(4) == "answer"
    assert ct.view().question.title == "Which law or rule was broken?"
    assert ct.press(1) == ""  # the answers are words now
    v = ct.end_button(0)  # Cancel
    assert v.page == "board" and snap(app)["pickups"] == []


def test_several_mistakes_charge_the_last_one(app, ct):
    v = ct.tap("mistakes")
    assert v.page == "mistakes" and v.question.hint == "Nobody yet"
    assert v.question.ends == ("Clear", "Cancel", "Next")
    v = ct.end_button(2)  # Next, with nobody yet
    assert v.question.hint == "Tap the players who erred, in order" and v.page == "mistakes"
    ct.pick(0)  # Ann, tapped
    assert ct.press(4) == "answer"  # Dan, with his button
    v = ct.view()
    assert v.question.hint == "Ann then Dan: Dan picks up"
    assert [o.selected for o in v.question.options] == [True, False, False, True]
    v = ct.end_button(2)
    assert v.question.title == "What went wrong? Dan picks up"
    answer(ct, "Wrong hour")
    p = snap(app)["pickups"][-1]
    assert (p["seat"], p["erred"], p["rule"]) == (4, [1, 4], "Wrong hour")
    ct.tap("mistakes")
    ct.mistake(2)
    ct.mistake(3)
    assert ct.end_button(0).question.hint == "Nobody yet"  # Clear
    ct.mistake(3)
    ct.mistake(2)
    ct.mistakes_done()
    answer(ct, "False slaps")
    p = snap(app)["pickups"][-1]
    assert (p["seat"], p["reason"], p["erred"]) == (2, "false_slap", [3, 2])


def test_tick_tock_counts_a_word_a_second_then_records(app, ct):
    ct.tap("tick_tock")
    v = answer(ct, "Cara")
    assert v.page == "metronome" and v.who == "Tick, Tock for Cara" and ct.counting
    t0 = 5_000 * MS
    v = ct.frame(t0)
    assert (v.word, v.beat, app.cues) == ("Tick", 0, ["tick"])
    assert ct.frame(t0 + 500 * MS) is None  # the same word: nothing new to show
    assert ct.frame(t0 + 2_100 * MS).word == "Tick" and app.cues == ["tick", "tock", "tick"]
    assert snap(app)["tick_tocks"] == []
    v = ct.frame(t0 + 4_000 * MS)
    assert snap(app)["tick_tocks"] == [{"round": 1, "seat": 3}]
    assert v.page == "board" and not ct.counting


def test_stop_counting_records_nothing(app, ct):
    ct.tap("tick_tock")
    answer(ct, "Bob")
    ct.frame(0)
    assert ct.back().page == "board"
    assert ct.frame(5_000 * MS) is None and snap(app)["tick_tocks"] == []


def new_law(ct, absent="Ann", name="High Noon", when="noon is called", what="whistle"):
    answer(ct, absent)
    for key, text in (("name", name), ("when", when), ("what", what)):
        ct.type_field(key)
        ct.typed(text)
    return ct.record()


def test_a_round_won_asks_who_leaves_then_the_law_is_typed_and_kept_secret(app, ct):
    ct.tap("round_won")
    v = answer(ct, "Cara")
    assert v.page == "question" and v.question.title == "Cara won round 1: who leaves the room?"
    assert [o.text for o in v.question.options] == ["Ann", "Bob", "Dan"]
    assert v.question.ends == ("Undo the win",)  # no Cancel: the law must be made
    v = answer(ct, "Ann")
    assert v.page == "law" and v.law.title.startswith("Ann is out. Cara, write the law for round 2")
    assert [f.label for f in v.law.fields] == ["Name", "When?", "What?"]
    v = ct.type_field("name")
    assert v.law.typing == "name"
    ct.typed("High Noon")
    assert ct.next_field().law.typing == "when"
    ct.typed("noon is called")
    ct.next_field()
    ct.typed("whistle")
    assert ct.next_field().law.typing == ""
    v = ct.record()
    law = snap(app)["laws"][-1]
    assert (law["name"], law["absent"], law["creator"]) == ("High Noon", 1, 3)
    assert v.page == "board" and v.heading == "Crazy Time: round 2 of 4"
    assert (v.lead, v.notice) == ("Cara starts at 1 o'clock",
                                  "Before play: Cara turns up one card")
    assert v.call_back == "Call Ann back and tell them the new law's name: High Noon"
    assert "noon is called" not in repr(v) and "whistle" not in repr(v)
    assert v.laws.endswith(" · High Noon")
    assert v.facts == "Won: Cara (round 1)\nDealer: Cara  ·  15 cards each"


def test_the_call_back_message_closes_with_a_tap_or_the_next_action(app, ct):
    ct.tap("round_won")
    answer(ct, "Cara")
    assert new_law(ct).call_back.startswith("Call Ann back")
    assert ct.close_call_back().call_back == ""
    assert ct.view().call_back == ""  # closed for good
    app.undo()
    ct.view()
    new_law(ct, absent="Bob", name="Low Noon")
    assert ct.view().call_back.startswith("Call Bob back")
    assert app.act({"type": "pickup", "seat": 2, "reason": "slap"})
    assert ct.view().call_back == ""


REFUSED = [
    # name, when, what, the engine's sentence in the form
    ("", "w", "x", "Write the law's name first."),
    (" time  machine ", "w", "x", "There is already a Law of Time called Time Machine: "
                                  "choose another name."),
    ("High Noon", "w", "", "Write what must be done (What?) first."),
]


@pytest.mark.parametrize("name, when, what, sentence", REFUSED)
def test_a_law_refused_says_why_in_the_form_until_the_table_types(app, ct, name, when,
                                                                  what, sentence):
    ct.tap("round_won")
    answer(ct, "Cara")
    v = new_law(ct, name=name, when=when, what=what)
    assert v.page == "law" and v.law.note == sentence
    assert snap(app)["round"] == 1
    assert not any(call == "refuse" for call, _ in app.front.calls)  # not in the banner
    v = ct.type_field("name")
    assert v.law.note == sentence  # still there: nothing typed yet
    v = ct.typed(name + "x")
    assert v.law.note == ""


def test_typed_text_is_one_line_and_capped(ct):
    ct.tap("round_won")
    answer(ct, "Cara")
    answer(ct, "Ann")
    ct.type_field("name")
    v = ct.typed("High\nNoon" + "n" * 60)
    assert v.law.fields[0].text == "High Noon" + "n" * 21 and len(v.law.fields[0].text) == 30


def test_back_from_the_law_asks_again_who_leaves_and_keeps_the_words(ct):
    ct.tap("round_won")
    answer(ct, "Cara")
    answer(ct, "Ann")
    ct.type_field("name")
    ct.typed("High Noon")
    v = ct.law_back()
    assert v.page == "question" and "who leaves the room" in v.question.title
    v = answer(ct, "Bob")
    assert v.law.title.startswith("Bob is out") and v.law.fields[0].text == "High Noon"


def test_undo_the_win_goes_back_to_the_board(app, ct):
    ct.tap("round_won")
    answer(ct, "Cara")
    v = ct.end_button(0)
    assert v.page == "board" and snap(app)["round"] == 1 and snap(app)["results"] == []


def test_a_guess_right_or_wrong(app, ct):
    ct.tap("round_won")
    answer(ct, "Cara")
    new_law(ct)
    assert not ct.view().board.can_guess  # nobody picked up because of it yet
    assert app.act({"type": "accusation", "accuser": 2, "accused": 4, "law": "High Noon",
                    "correct": True})
    assert ct.view().board.can_guess
    ct.tap("guess")
    answer(ct, "Ann guesses High Noon")
    v = answer(ct, "Wrong")
    assert v.board.notice == "Ann's guess for High Noon is wrong"
    assert snap(app)["guesses"][-1]["correct"] is False
    assert app.act({"type": "accusation", "accuser": 2, "accused": 4, "law": "High Noon",
                    "correct": True})
    ct.tap("guess")
    answer(ct, "Ann guesses")
    v = answer(ct, "Right")
    assert v.question.title == "Ann removes 5 cards. Is their draw pile empty now?"
    v = answer(ct, "No, cards are left")
    g = snap(app)["guesses"][-1]
    assert (g["seat"], g["correct"], g["removed"]) == (1, True, 5)
    assert v.board.notice == "Ann guessed High Noon: right"
    assert ct.tap("undo").board.notice != "Ann guessed High Noon: right"


def test_who_is_looking_sees_only_what_they_may(app, ct):
    ct.tap("round_won")
    answer(ct, "Cara")
    new_law(ct)
    ct.tap("read_laws")
    v = answer(ct, "Ann")
    assert v.page == "laws" and "for Ann (seat 1)" in v.cards
    assert "Hidden from you" in v.cards and "noon is called" not in v.cards
    assert ct.back().page == "board"
    ct.tap("read_laws")
    assert ct.press(2) == "answer"
    v = ct.view()
    assert "When? noon is called" in v.cards and "What? whistle" in v.cards
    assert "noon is called" not in ct.back().cards


def test_a_law_name_with_brackets_is_shown_as_typed(app, ct):
    ct.tap("round_won")
    answer(ct, "Cara")
    new_law(ct, name="[b]Bold[/b]")
    ct.tap("read_laws")
    assert "&bl;b&br;Bold" in answer(ct, "Bob").cards


def test_the_end_crowns_the_grand_master_and_undo_goes_back(app, ct):
    for rnd, (winner, absent) in enumerate(((3, 1), (2, 3), (2, 4)), start=1):
        assert app.act({"type": "pickup", "seat": 4 - rnd % 2, "reason": "temporal_flaw"})
        assert app.act({"type": "round_won", "seat": winner})
        assert app.act({"type": "new_law", "name": f"Law {rnd}", "when": "w" * 9,
                        "what": "x" * 9, "creator": winner, "absent": absent})
    assert app.act({"type": "pickup", "seat": 1, "reason": "slap"})
    assert app.act({"type": "round_won", "seat": 4})
    v = ct.view()
    assert v.page == "end" and v.end.head == "Grand Master of Time: Dan" and v.end.seat == 4
    assert v.end.rounds == (1, 2, 3, 4) and len(v.end.bars) == 16
    assert [(r.name, r.wins) for r in v.end.rows] == [("Ann", 0), ("Bob", 2), ("Cara", 1),
                                                       ("Dan", 1)]
    ct.tap("read_laws")
    assert answer(ct, "Bob").page == "laws"
    assert ct.back().page == "end"
    v = ct.tap("undo")
    assert v.page == "board" and v.heading == "Crazy Time: round 4 of 4"
    assert app.act({"type": "round_won", "seat": 4})
    assert ct.view().page == "end"
    ct.finish()
    assert app.ended and app.session is None and ct.view().page == "none"


def test_a_long_undo_label_drops_the_name(app, ct):
    assert app.act({"type": "pickup", "seat": 2, "reason": "slap"})
    assert ct.view().undo == "Undo: pickup (Bob)"
    assert app.act({"type": "accusation", "accuser": 1, "accused": 3, "law": "Too slow",
                    "correct": True})
    assert ct.view().undo == "Undo: accusation"


def test_a_refused_answer_leaves_the_question_up(app, ct, monkeypatch):
    ct.tap("round_won")
    monkeypatch.setattr(app, "act", lambda action: False)
    v = answer(ct, "Cara")
    assert v.page == "question" and v.question.title.startswith("Who has no cards left")
