"""What a tap on the Times screen means, without a window: ``TimesControl`` on a real
game log, tapped as a host enters the rulebook's events (docs: the Times rulebook's
course of play, its 1299 example, cancelled and lone cards, the end of a round)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.control.times import TimesControl
from companion.errors import ConfigError
from companion.ui.session_controller import SessionController

# the rulebook's example: Einstein, Curie, Gauss, Riese; the event happened in 1299
SCIENTISTS = [{"name": "Einstein", "seat": 1}, {"name": "Curie", "seat": 2},
              {"name": "Gauss", "seat": 3}, {"name": "Riese", "seat": 4}]
CARDS = [("select", 1), ("choose", "pink5"), ("choose", "blue1"), ("choose", "yellow3"),
         ("choose", "yellow1"), ("play_cards",)]


class Lamps:
    def __init__(self) -> None:
        self.lit: set[int] = set()
        self.sent: list[tuple[str, int]] = []

    def on(self, seat: int) -> None:
        self.lit.add(seat)
        self.sent.append(("on", seat))

    def off(self, seat: int) -> None:
        self.lit.discard(seat)
        self.sent.append(("off", seat))


class Table:
    seats = [1, 2, 3, 4, 5, 6, 7, 8]

    def __init__(self) -> None:
        self.lamps = Lamps()


class Config:
    def seat(self, n: int):
        raise ConfigError(f"no seat {n}")  # every seat takes its default colour


class App:
    """The app as the controller sees it: a real session controller (this is its
    front), seat lamps and what the table heard and was told."""

    def __init__(self, game_log, players=SCIENTISTS, target=15) -> None:
        self.session_controller = SessionController(game_log, self)
        assert self.session_controller.start("times", {"players": players, "target": target})
        self.cfg, self.table = Config(), Table()
        self.cues: list[str] = []
        self.said: list[str] = []
        self.refused: list[str] = []
        self.ended: list[bool] = []
        self.control: TimesControl | None = None

    @property
    def session(self):
        return self.session_controller.session

    def act(self, action: dict, cue: str | None = "tap") -> bool:
        return self.session_controller.act(action, cue)

    def undo(self) -> bool:
        return self.session_controller.undo()

    def end_game(self, ask: bool = True) -> None:
        self.ended.append(ask)

    # the session controller's front
    def play(self, cue: str) -> None:
        self.cues.append(cue)

    def speak(self, line) -> None:
        pass

    def say(self, text: str) -> None:
        self.said.append(text)

    def refuse(self, sentence: str, exc=None) -> None:
        self.refused.append(sentence)

    def clear_banner(self) -> None:
        pass

    def refresh(self) -> None:
        if self.control is not None:
            self.control.changed()


@pytest.fixture
def app(game_log):
    return App(game_log)


@pytest.fixture
def control(app):
    app.control = TimesControl(app)
    app.control.entered()
    return app.control


def tap(control: TimesControl, *taps):
    """Each tap (a method name and its arguments) in turn; the last view."""
    view = None
    for name, *args in taps:
        view = getattr(control, name)(*args)
    return view


def actions(app) -> list[dict]:
    return app.session.actions


def test_the_controller_loads_without_kivy():
    code = ("import sys, companion.control.times\n"
            "print(sorted(m for m in sys.modules if m.startswith('kivy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2], timeout=120)
    assert out.stdout.strip() == "[]"


# -- the rulebook's 1299 example, tap by tap --------------------------------------------

EXAMPLE = [  # (taps, the actions logged after them, what the screen shows)
    (CARDS, [{"type": "play", "cards": {"1": "pink5", "2": "blue1", "3": "yellow3",
                                         "4": "yellow1"}}], "Einstein's turn: Pink 5"),
    ([("tap_space", "century", 10)],
     [{"type": "place", "seat": 1, "markers": [{"column": "century", "size": 5,
                                                "start": 10}]}], "Curie's turn: Blue 1"),
    # Curie: the forced pink 1 first (nothing sent yet), then her blue 1
    ([("tap_space", "century", 13)], [], "Curie's turn: Blue 1"),
    ([("tap_space", "decade", 3)],
     [{"type": "place", "seat": 2, "markers": [{"column": "century", "size": 1, "start": 13},
                                               {"column": "decade", "size": 1,
                                                "start": 3}]}], "Gauss's turn: Yellow 3"),
    ([("doubt",)], [{"type": "doubt", "seat": 3}], "Riese's turn: Yellow 1"),
    ([("tap_space", "year", 7)],
     [{"type": "place", "seat": 4, "markers": [{"column": "year", "size": 1, "start": 7}]}],
     "1 _ _ _"),
    ([("digit", 2), ("digit", 9), ("digit", 9), ("reveal_year",)],
     [{"type": "reveal_year", "year": 1299}], "The year was 1299"),
]


def shown_words(view) -> str:
    return " | ".join((view.turns.headline, view.reveal.year, view.evaluated.heading))


def test_the_1299_example_logs_what_the_table_did(app, control):
    logged: list[dict] = []
    for taps, new, words in EXAMPLE:
        view = tap(control, *taps)
        logged += new
        assert actions(app) == logged, taps
        assert words in shown_words(view), (taps, shown_words(view))
    # the rulebook's outcome: Einstein and Gauss right, Curie and Riese take theirs back
    rows = {r.name: (r.text, r.judged, r.hand) for r in view.evaluated.rows}
    assert rows == {"Einstein": ("right: discards Pink 5", "right", "5 (-1)"),
                    "Curie": ("wrong: takes Blue 1 back", "wrong", "6"),
                    "Gauss": ("right doubt: discards Yellow 3", "right", "5 (-1)"),
                    "Riese": ("wrong: takes Yellow 1 back", "wrong", "6")}
    assert app.cues.count("verdict") == 1 and app.refused == []
    view = tap(control, ("next_event",))
    assert view.panel == "play" and view.heading == "Round 1 · Event 2"


def test_each_card_picks_the_next_player_and_a_card_needs_a_player(app, control):
    view = control.view()
    assert [p.selected for p in view.play.picks] == [True, False, False, False]
    view = tap(control, ("choose", "pink5"))
    assert [p.card for p in view.play.picks] == ["Pink 5", "", "", ""]
    assert view.play.picks[1].selected and "Which card did Curie play?" in view.play.prompt
    view = tap(control, ("select", 4), ("choose", "yellow1"))
    assert view.play.picks[1].selected, "after the last seat, the first without a card"
    tap(control, ("choose", "blue1"), ("choose", "yellow3"))
    view = tap(control, ("choose", "blue5"))  # all four entered: nobody is picked
    assert app.said == ["Tap a player first, then their card."]
    assert control.choices == {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}
    assert view.play.can_play and "All cards entered" in view.play.prompt
    assert [k.chosen for k in view.play.keys].count(True) == 0


def test_play_is_not_sent_before_every_player_has_a_card(app, control):
    view = tap(control, ("choose", "pink5"), ("play_cards",))
    assert not view.play.can_play and actions(app) == []


@pytest.mark.parametrize(("column", "space", "why"), [
    ("decade", 3, "Not the Decade column: Einstein's Pink 5 goes in the Century column."),
    ("century", 17, "Einstein's Pink 5 cannot start at 1700"),
])
def test_a_tap_on_the_wrong_row_or_space_says_why_and_logs_nothing(app, control, column,
                                                                    space, why):
    tap(control, *CARDS)
    view = tap(control, ("tap_space", column, space))
    assert view.turns.prompt.startswith(why) and view.turns.refused
    assert app.cues[-1] == "error" and len(actions(app)) == 1
    view = tap(control, ("tap_space", "century", 10))  # the next legal tap lays as usual
    assert actions(app)[-1]["type"] == "place" and not view.turns.refused


def test_lay_again_drops_the_half_laid_turn(app, control):
    tap(control, *CARDS, ("tap_space", "century", 10), ("tap_space", "century", 13))
    assert control.view().turns.may_lay_again
    view = tap(control, ("clear_pending",), ("tap_space", "century", 14),
               ("tap_space", "decade", 4))
    assert actions(app)[-1]["markers"][0]["start"] == 14
    assert view.turns.headline == "Gauss's turn: Yellow 3"


def test_undo_takes_back_a_turn_then_gives_the_played_cards_back(app, control):
    tap(control, *CARDS, ("tap_space", "century", 10), ("tap_space", "century", 13))
    view = tap(control, ("undo",))
    assert view.turns.headline == "Einstein's turn: Pink 5" and control.pending == []
    view = tap(control, ("undo",))
    assert app.session.state.phase == "play" and view.play.can_play
    assert control.choices == {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}


def test_all_cards_cancelled_then_a_lone_card_replays_the_event(app, control):
    view = tap(control, ("choose", "pink5"), ("choose", "pink5"), ("choose", "blue3"),
               ("choose", "blue3"), ("play_cards",))
    assert view.panel == "play" and control.choices == {}, "a new reveal starts from none"
    assert view.play.prompt.startswith("All cards cancelled (1 of 3): play again.")
    view = tap(control, ("choose", "pink5"), ("choose", "pink5"), ("choose", "pink5"),
               ("choose", "blue1"), ("play_cards",))
    assert view.evaluated.heading == "Only Riese's card stands: discarded. Play again."
    assert [c.hand for c in view.chips] == [6, 6, 6, 5]
    view = tap(control, ("next_event",))
    assert view.heading == "Round 1 · Event 1" and "Same event: play again." in view.play.prompt


def test_the_lamps_show_who_has_chosen_then_whose_turn_it_is(app, control):
    lamps = app.table.lamps
    assert lamps.lit == set() and len(lamps.sent) == 8, "every lamp is sent on entry"
    tap(control, ("choose", "pink5"), ("choose", "blue1"))
    assert lamps.lit == {1, 2} and lamps.sent[-2:] == [("on", 1), ("on", 2)]
    tap(control, ("choose", "yellow3"), ("choose", "yellow1"), ("play_cards",))
    assert lamps.lit == {1}
    tap(control, ("tap_space", "century", 10))
    assert lamps.lit == {2} and sorted(lamps.sent[-2:]) == [("off", 1), ("on", 2)]


def test_a_seat_button_picks_a_player_only_while_cards_are_entered(app, control):
    assert control.seat_pressed(3).play.picks[2].selected
    tap(control, ("open_menu",))
    assert control.seat_pressed(2) is None, "not under a dialog"
    tap(control, ("close_overlay",), *CARDS[1:])
    assert control.seat_pressed(2) is None, "not while markers are laid"


def test_the_year_takes_three_digits_after_the_fixed_one(app, control):
    tap(control, *CARDS, ("tap_space", "century", 10), ("doubt",), ("join_doubt",),
        ("join_doubt",))
    view = tap(control, ("digit", 2), ("digit", 9))
    assert view.reveal.year == "1 2 9 _" and not view.reveal.ready
    view = tap(control, ("reveal_year",))
    assert actions(app)[-1]["type"] == "join_doubt", "no year sent before it is whole"
    view = tap(control, ("digit", 9), ("digit", 5))
    assert view.reveal.year == "1 2 9 9" and view.reveal.ready
    view = tap(control, ("erase",), ("digit", 0))
    assert view.reveal.year == "1 2 9 0"


def test_the_judged_year_stays_through_an_override_and_a_resume(app, control, game_log):
    for taps, _new, _words in EXAMPLE:
        tap(control, *taps)
    view = tap(control, ("open_override",), ("override_pick", 2), ("override_step", -2),
               ("override_reason", "Correction"), ("save_override",))
    assert actions(app)[-1] == {"type": "override", "seat": 2, "hand": 4,
                                "reason": "Correction"}
    assert view.overlay is None and view.evaluated.heading == "The year was 1299"
    again = App(game_log)  # the same log read by another table after a power cut
    again.session_controller.resume(app.session.game_id)
    assert TimesControl(again).entered().evaluated.heading == "The year was 1299"


def test_override_says_what_is_missing_and_a_round_end_shows_the_track(app, control):
    view = tap(control, ("open_override",), ("save_override",))
    assert view.overlay == "override"
    assert view.override.message == "Choose whose hand or score to set."
    view = tap(control, ("override_pick", 3), ("override_set", 1), ("save_override",))
    assert app.refused and "reason" in app.refused[-1], "the engine asks for a reason"
    assert view.override.value == "1" and view.override.picks[2].selected
    view = tap(control, ("override_reason", "Card dropped"), ("save_override",))
    # End of a round: one card left +3, the most cards +1, the others +2 (none here)
    assert view.overlay is None and view.panel == "track"
    assert view.track.heading == "Round 1 scored"
    assert [p[2] for p in view.track.points] == ["+1 = 1", "+1 = 1", "+3 = 3", "+1 = 1"]
    view = tap(control, ("track_done",))
    assert view.panel == "play" and view.heading == "Round 2 · Event 1"
    view = tap(control, ("open_menu",), ("open_track",))
    assert view.panel == "track" and view.overlay is None, "the track, any time"


def test_a_winner_is_cheered_and_the_track_ends_the_game(game_log):
    app = App(game_log, target=3)
    control = app.control = TimesControl(app)
    view = tap(control, ("open_override",), ("override_pick", 1), ("override_set", 1),
               ("override_reason", "Card dropped"), ("save_override",))
    assert view.track.heading == "Einstein wins!" and view.track.won
    assert app.cues[-1] == "win" and view.track.button == "End game"
    tap(control, ("track_done",))
    assert app.ended == [False], "over by the rules: no question"


def test_a_step_made_elsewhere_drops_the_half_laid_turn(app, control):
    tap(control, *CARDS, ("tap_space", "century", 10), ("tap_space", "century", 13))
    assert app.act({"type": "doubt", "seat": 2})  # not through this screen
    view = control.view()
    assert control.pending == [] and view.turns.headline == "Gauss's turn: Yellow 3"


def test_a_new_game_starts_from_nothing(app, control, game_log):
    tap(control, ("choose", "pink5"), ("open_menu",))
    three = [{"name": n, "seat": s} for n, s in (("Ada", 2), ("Bea", 5), ("Cyd", 6))]
    assert app.session_controller.start("times", {"players": three, "target": 15})
    view = control.changed()
    assert control.choices == {} and view.overlay is None
    assert [(p.seat, p.name) for p in view.play.picks] == [(2, "Ada"), (5, "Bea"), (6, "Cyd")]
