"""What a tap on the standalone Time Captain die means, without a window."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from fakes import Faces

from companion.control.captain_die import SETTING, CaptainDieControl


class App:
    def __init__(self, game_log) -> None:
        self.log = game_log
        self.table = SimpleNamespace(now_ns=lambda: 0)
        self.played, self.spoken = [], []

    def play(self, cue):
        self.played.append(cue)

    def speak(self, line):
        self.spoken.append(line)


@pytest.fixture
def die(game_log):
    return CaptainDieControl(App(game_log), rng=Faces(2, 6, 1))


@pytest.mark.parametrize(("face", "red", "words", "tu"), [
    (1, False, "Die 1: 1 TU", "1 TU"), (5, False, "Die 5: 2 TU", "2 TU"),
    (6, False, "Die 6: 3 TU", "3 TU"), (2, True, "Die 2: 2 TU + 2 red = 4 TU", "4 TU")])
def test_a_roll_costs_what_the_rulebook_says(game_log, face, red, words, tu):
    die = CaptainDieControl(App(game_log), rng=Faces(face))
    if red:
        die.tap(("red",))
    view = die.tap(("roll",))
    assert view.rolling and view.cost == "Rolling..." and die.app.played == ["dice"]
    view = die.frame(10**9)
    assert (view.face, view.cost, view.tu, view.rolling) == (str(face), words, tu, False)
    assert game_log.get_setting(SETTING) == [[face, red]]
    assert len(die.app.spoken) == 1


def test_one_roll_at_a_time_and_the_history_is_kept_newest_first(die, game_log):
    die.tap(("roll",))
    die.tap(("roll",))  # still tumbling: no second face drawn
    assert die.frame(10**9).history == ("Die 2: 2 TU",)
    assert die.frame(10**9) is None, "settled: nothing moves"
    die.tap(("roll",))
    die.frame(10**9)
    assert die.view().history == ("Die 6: 3 TU", "Die 2: 2 TU")
    assert die.tap(("clear",)).history == ()


def test_the_tables_own_die_is_entered_or_cancelled(die, game_log):
    view = die.tap(("face",))
    assert [b["text"] for b in view.buttons] == ["1", "2", "3", "4", "5", "6", "Cancel"]
    assert view.cost == "Which face does your die show?"
    view = die.tap(("face", 0))
    assert [b["text"] for b in view.buttons] == ["Roll", "Enter a face", "Clear list"]
    assert game_log.get_setting(SETTING, []) == []
    die.tap(("face",))
    view = die.tap(("face", 6))
    assert (view.face, view.cost) == ("6", "Die 6: 3 TU")
    assert game_log.get_setting(SETTING) == [[6, False]]
