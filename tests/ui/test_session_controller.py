"""The session controller without a window: what a tap on a game means, on a real game log.

``SessionController`` (``companion/ui/session_controller.py``) is driven here as the app
drives it, with a recording front (``tests/fakes.Front``) in place of the window: what it
records in the log, what it refuses and in which words, what Undo says, and what the
table would hear and see, in order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fakes import Front

from companion.control import times_view
from companion.errors import StorageError
from companion.games import get_rules, times
from companion.games.base import check
from companion.speech import Line
from companion.store.gamelog import GameLog
from companion.ui.presenters.crazy_time_view import view as crazy_view
from companion.ui.session_controller import SessionController

ANN_BO = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}
# the Times rulebook's example: the event happened in 1299
SCIENTISTS = {"players": [{"name": "Einstein", "seat": 1}, {"name": "Curie", "seat": 2},
                          {"name": "Gauss", "seat": 3}, {"name": "Riese", "seat": 4}],
              "target": 15}
# Cara wins round one and makes a law while Ann is out of the room
NEW_LAW = {"type": "new_law", "name": "High Noon", "when": "noon is called",
           "what": "whistle", "creator": 3, "absent": 1}
FOUR = {"players": [{"name": n, "seat": i + 1}
                    for i, n in enumerate(["Ann", "Bob", "Cara", "Dan"])]}


@pytest.fixture
def front():
    return Front()


@pytest.fixture
def table(game_log, front):
    return SessionController(game_log, front)


def recorded(cue="tap", line=None):
    """The front's calls for one recorded action, in the order the table meets them."""
    calls = [("clear_banner", None)] + ([("play", cue)] if cue else [])
    return calls + [("refresh", None), ("speak", line)]


def test_the_controller_loads_without_kivy():
    """What a tap means is tested without a window: importing the controller (fresh
    interpreter, so nothing imported by other tests counts) loads no Kivy."""
    code = ("import sys, companion.ui.session_controller\n"
            "print(sorted(m for m in sys.modules if m.startswith('kivy')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2], timeout=120)
    assert out.stdout.strip() == "[]"


# -- start, act, refusals --------------------------------------------------------------------


def test_start_opens_a_game_in_the_log(table, game_log, front):
    assert table.start("scorepad", ANN_BO)
    assert table.session is not None and table.session.rules.NAME == "scorepad"
    row = game_log.game(table.session.game_id)
    assert (row.kind, row.status, row.setup) == ("scorepad", "open", ANN_BO)
    assert table.undo_label() == "Undo" and not table.over
    assert front.took() == []


def test_a_setup_the_rules_refuse_is_a_sentence_and_writes_nothing(table, game_log, front):
    assert not table.start("scorepad", {"players": []})
    assert table.session is None and game_log.games() == []
    [(call, sentence)] = front.took()
    assert call == "refuse" and sentence.endswith(".") and sentence[0].isupper()


def test_an_action_is_logged_then_confirmed_shown_and_spoken(table, game_log, front):
    table.start("scorepad", ANN_BO)
    assert table.act({"type": "score", "seat": 1, "points": 4})
    assert front.took() == recorded()  # a score says nothing aloud
    assert game_log.actions(table.session.game_id) == [{"type": "score", "seat": 1,
                                                        "points": 4}]
    assert table.session.state.total(1) == 4
    assert table.act({"type": "score", "seat": 2, "points": 1}, cue=None)  # plays its own
    assert front.took() == recorded(cue=None)


def test_a_refused_action_is_the_rules_sentence_and_nothing_is_recorded(table, game_log,
                                                                         front):
    table.start("scorepad", ANN_BO)
    table.act({"type": "score", "seat": 1, "points": 4})
    front.took()
    assert not table.act({"type": "score", "seat": 7, "points": 1})
    assert front.took() == [("refuse", "Nobody plays at seat 7 in this game.")]
    assert game_log.actions(table.session.game_id) == [{"type": "score", "seat": 1,
                                                        "points": 4}]
    assert table.session.state.total(1) == 4 and table.undo_label() == "Undo: score (Ann)"


def test_a_malformed_action_is_refused_as_a_bug_and_nothing_is_recorded(table, game_log,
                                                                        front, caplog):
    table.start("scorepad", ANN_BO)
    assert not table.act(["score", 1])  # a screen's bug: not an object
    [(call, sentence)] = front.took()
    assert call == "refuse" and sentence.startswith("That could not be recorded (")
    assert front.errors == [None]  # nothing for the storage screen
    assert "malformed action" in caplog.text
    assert game_log.actions(table.session.game_id) == []


def test_no_game_in_progress_is_refused(table, front):
    assert not table.act({"type": "score", "seat": 1, "points": 1})
    assert not table.undo() and not table.amend_setup(ANN_BO)
    assert front.took() == [("refuse", "No game in progress")]


def test_a_failing_disk_refuses_with_its_error_for_the_storage_screen(table, game_log,
                                                                      front):
    table.start("scorepad", ANN_BO)
    game_log.db.execute("PRAGMA query_only = ON")  # as good as a read-only disk
    try:
        assert not table.act({"type": "score", "seat": 1, "points": 5})
    finally:
        game_log.db.execute("PRAGMA query_only = OFF")
    [(call, sentence)] = front.took()
    assert call == "refuse" and "Could not write to the game log" in sentence
    assert isinstance(front.errors[0], StorageError)
    assert table.session.n_actions == 0


def test_the_setup_changes_only_before_the_first_action(table, game_log, front):
    table.start("scorepad", ANN_BO)
    three = {"players": [*ANN_BO["players"], {"name": "Cy", "seat": 3}]}
    assert table.amend_setup(three)
    assert game_log.game(table.session.game_id).setup == three
    table.act({"type": "score", "seat": 3, "points": 2})
    front.took()
    assert not table.amend_setup(ANN_BO)
    assert front.took() == [("refuse", "The game has begun: its setup can no longer change.")]
    assert game_log.game(table.session.game_id).setup == three


# -- undo --------------------------------------------------------------------------------------


def test_undo_says_what_it_takes_back_and_steps_the_state_back(table, game_log, front):
    table.start("scorepad", ANN_BO)
    table.act({"type": "score", "seat": 1, "points": 4})
    table.act({"type": "score", "seat": 2, "points": 3})
    assert table.undo_label() == "Undo: score (Bo)"
    front.took()
    assert table.undo()
    assert front.took() == [("clear_banner", None), ("say", "Undone: score (Bo)"),
                            ("refresh", None)]
    assert table.session.state.total(2) == 0 and table.session.state.total(1) == 4
    assert game_log.actions(table.session.game_id) == [{"type": "score", "seat": 1,
                                                        "points": 4}]
    assert table.undo_label() == "Undo: score (Ann)"
    assert table.undo() and table.undo_label() == "Undo"
    front.took()
    assert not table.undo()
    assert front.took() == [("refuse", "Nothing to undo: this is the start of the game.")]


# -- end, abandon, going home ------------------------------------------------------------------


def test_end_closes_the_game_for_good(table, game_log):
    table.start("scorepad", ANN_BO)
    table.act({"type": "score", "seat": 1, "points": 4})
    game_id = table.session.game_id
    table.end()
    assert table.session is None and game_log.game(game_id).status == "finished"
    table.end()  # nothing in progress: nothing to do
    assert [g.status for g in game_log.games()] == ["finished"]


def test_abandon_closes_a_game_without_a_result(table, game_log):
    table.start("scorepad", ANN_BO)
    table.act({"type": "score", "seat": 1, "points": 4})
    aside = table.session.game_id
    table.start("scorepad", ANN_BO)
    table.act({"type": "score", "seat": 2, "points": 1})
    playing = table.session.game_id
    assert table.abandon(aside)  # another open game: the one in progress stays
    assert game_log.game(aside).status == "abandoned" and table.session.game_id == playing
    assert table.abandon(playing)
    assert table.session is None and game_log.game(playing).status == "abandoned"


def test_a_game_its_rules_ended_is_spoken_and_closed_when_the_table_goes_home(table,
                                                                             game_log,
                                                                             front):
    table.start("scorepad", ANN_BO)
    table.act({"type": "score", "seat": 2, "points": 7})
    front.took()
    assert table.act({"type": "finish"})
    calls = front.took()
    assert calls[:-1] == recorded()[:-1]
    name, line = calls[-1]
    assert name == "speak" and isinstance(line, Line) and line.text == "Bo wins with seven points!"
    assert table.over
    game_id = table.session.game_id
    table.leave()
    assert table.session is None and game_log.game(game_id).status == "finished"


def test_a_game_nobody_played_leaves_no_trace_when_the_table_goes_home(table, game_log):
    table.start("scorepad", ANN_BO)
    table.leave()
    assert table.session is None and game_log.games() == []


def test_an_open_game_stays_open_when_the_table_goes_home(table, game_log):
    table.start("scorepad", ANN_BO)
    table.act({"type": "score", "seat": 1, "points": 4})
    table.leave()
    assert table.session is not None
    assert game_log.game(table.session.game_id).status == "open"


# -- a power cut ---------------------------------------------------------------------------------


def test_after_a_power_cut_a_new_controller_replays_the_same_game(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    first = SessionController(GameLog(path), Front())
    first.start("crazy_time", FOUR)
    for action in ({"type": "round_won", "seat": 3}, NEW_LAW,
                   {"type": "accusation", "accuser": 2, "accused": 4, "law": "High Noon",
                    "correct": True},
                   {"type": "tick_tock", "seat": 4}):
        assert first.act(action)
    game_id, before = first.session.game_id, first.session.snapshot()
    label = first.undo_label()
    # the power goes: nothing of ``first`` survives but the file

    front = Front()
    pings = []
    monkeypatch.setattr("companion.session.PROGRESS_EVERY", 2)
    again = SessionController(GameLog(path), front, keep_alive=pings.append)
    assert again.session is None
    assert again.resume(game_id)
    assert again.session.snapshot() == before and again.undo_label() == label
    assert pings == [2, 4]  # the watchdog hears from a long replay (every 2 actions here)
    assert again.undo() and front.took()[1] == ("say", "Undone: tick tock (Dan)")
    assert again.session.n_actions == 3


def test_a_game_that_cannot_be_resumed_is_said_so(table, front):
    assert not table.resume(999)
    [(call, sentence)] = front.took()
    assert call == "refuse" and sentence.startswith("Cannot resume game 999: ")
    assert table.session is None


# -- what a tap means, game by game ------------------------------------------------------------


def tap_space(table: SessionController, pending: list, space: int) -> list:
    """What the Times screen does with a tap on a space of the Time Table: the marker is
    laid (pending) until the turn's every marker is there, then it is one ``place``."""
    state = table.session.state
    pending = times_view.lay(state, pending, space)
    action = times_view.place_action(state, pending)
    if action is None:
        return pending
    assert table.act(action)
    return []


def test_times_marker_taps_are_one_place_action_per_turn(table, game_log, front):
    """The rulebook's 1299 example: Curie must lay the forced pink 1 before her blue 1;
    her first tap records nothing, her second records both markers."""
    assert table.start("times", SCIENTISTS)
    cards = {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}
    assert table.act(times_view.play_action(table.session.state, cards))
    assert tap_space(table, [], 10) == []  # Einstein's pink 5: 1000-1499
    front.took()
    pending = tap_space(table, [], 13)  # the forced pink 1: 1300
    assert pending and front.took() == []  # half a turn: nothing recorded, nothing shown
    assert table.session.n_actions == 2
    assert tap_space(table, pending, 3) == []  # her blue 1: 1330-1339
    assert front.took() == recorded()
    assert game_log.actions(table.session.game_id)[-1] == {
        "type": "place", "seat": 2, "markers": [{"column": "century", "size": 1, "start": 13},
                                                 {"column": "decade", "size": 1, "start": 3}]}
    assert times.whose_turn(table.session.state) == 3
    assert table.undo_label() == "Undo: place (Curie)"


def test_a_times_tap_the_rules_refuse_is_their_sentence(table, game_log):
    rules = get_rules("times")
    front = table.front
    table.start("times", SCIENTISTS)
    table.act(times_view.play_action(table.session.state,
                                     {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}))
    front.took()
    doubt = {"type": "doubt", "seat": 1}  # nothing laid yet: nothing to doubt
    refusal = check(rules, table.session.state, doubt)
    assert refusal is not None
    assert not table.act(doubt)
    assert front.took() == [("refuse", refusal.sentence)]
    assert len(game_log.actions(table.session.game_id)) == 1


def test_a_times_round_is_spoken_when_its_event_closes(table, front):
    """1299: Einstein and Gauss were right, Curie and Riese wrong. The host corrects
    Einstein's hand to one card; "Next event" then scores the round (a hand of one card
    or none ends it) and the table hears who leads."""
    table.start("times", SCIENTISTS)
    table.act(times_view.play_action(table.session.state,
                                     {1: "pink5", 2: "blue1", 3: "yellow3", 4: "yellow1"}))
    tap_space(table, [], 10)
    tap_space(table, tap_space(table, [], 13), 3)
    assert table.act({"type": "doubt", "seat": 3})
    tap_space(table, [], 7)  # Riese: 1337
    assert table.act({"type": "reveal_year", "year": 1299})
    action, missing = times_view.override_action(table.session.state, 1, "hand", 1,
                                                 "counted again")
    assert not missing and table.act(action)
    assert front.took()[-1] == ("speak", None)  # not scored yet: nothing to hear
    assert table.act({"type": "next_event"})
    name, line = front.took()[-1]
    assert name == "speak" and line.text.startswith("Round one scored: Einstein leads")


def test_crazy_time_verdicts_give_the_pick_up_to_the_one_the_table_found_wrong(table, front):
    """An accusation: right, the accused picks up a card; wrong, the accuser does."""
    table.start("crazy_time", FOUR)
    assert table.act({"type": "round_won", "seat": 3})
    name, line = front.took()[-1]
    assert name == "speak" and line.text == "Cara wins round one."
    assert table.act(NEW_LAW)
    front.took()
    assert table.act({"type": "accusation", "accuser": 2, "accused": 4,
                      "law": "High Noon", "correct": True})  # "Yes: Dan picks up"
    assert table.act({"type": "accusation", "accuser": 1, "accused": 3,
                      "law": "High Noon", "correct": False})  # "No: Ann was wrong"
    pickups = [(p["name"], p["reason"])
               for p in crazy_view(table.session.state, None)["pickups"]]
    assert pickups == [("Dan", "temporal_flaw"), ("Ann", "wrong_accusation")]
    assert table.undo_label() == "Undo: accusation"
    assert front.took() == recorded() * 2  # a verdict picks up in silence


def test_an_accusation_of_oneself_is_refused_in_the_rules_words(table, front):
    table.start("crazy_time", FOUR)
    table.act({"type": "round_won", "seat": 3})
    table.act(NEW_LAW)
    front.took()
    accusation = {"type": "accusation", "accuser": 2, "accused": 2, "law": "High Noon",
                  "correct": True}
    refusal = check(get_rules("crazy_time"), table.session.state, accusation)
    assert refusal is not None and not table.act(accusation)
    assert front.took() == [("refuse", refusal.sentence)]
    assert crazy_view(table.session.state, None)["pickups"] == []


def test_a_time_stories_line_is_made_from_the_screens_snapshots(game_log, engine_snapshots):
    """The line after a T.I.M.E Stories action reads no list: it compares the screen's
    snapshots of the state before and after, which the screen has made already (at its
    refresh), so a recorded action makes one snapshot, the screen's, and the line is the
    one the engine's own snapshots give."""
    from companion.ui.presenters.spoken_games import action_line

    class Screen(Front):
        def refresh(self):  # a screen draws from the session's snapshot
            super().refresh()
            table.session.snapshot()

    rules = get_rules("time_stories")
    made = engine_snapshots(rules)
    players = [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}]
    chars = [{"name": "Marie", "player_seat": 1, "life": 4, "resistance": 1,
              "characteristics": {"Combat": 2}}]
    front = Screen()
    table = SessionController(game_log, front)
    assert table.start("time_stories", {"players": players, "mission": "Asylum",
                                        "characters": chars})
    table.session.snapshot()  # the screen shows the start
    for action in ({"type": "stay"}, {"type": "adjust_tu", "delta": -3, "reason": "card"},
                   {"type": "stay"}):
        before = table.session.state
        made.clear()
        assert table.act(action)
        said = front.took()[-1]
        assert [recent for _, recent in made] == [64], \
            "the screen's snapshot, and none for the line"
        assert said == ("speak", action_line(rules, before, action, table.session.state))
        assert said[1] is not None and said[1].text.endswith("time units left.")


def test_a_line_that_reads_lists_takes_one_snapshot_per_action(game_log, engine_snapshots):
    """A Time After Time line compares whole lists: the state before an action was the
    last action's after, kept by the session, so each recorded action makes one
    whole-list snapshot for its line (the new state's), not two."""
    rules = get_rules("time_after_time")
    made = engine_snapshots(rules)
    front = Front()
    table = SessionController(game_log, front)
    assert table.start("time_after_time", {"players": [{"name": "Ann", "seat": 1},
                                                       {"name": "Bob", "seat": 2}]})
    whole = []
    for slot, hour in ((0, 6), (1, 7), (2, 8)):
        made.clear()
        assert table.act({"type": "place", "seat": 1, "slot": slot, "hour": hour})
        whole.append([id(state) for state, recent in made if recent is None])
    assert [len(w) for w in whole[1:]] == [1, 1]
    assert whole[-1] == [id(table.session.state)]
