"""History summaries and statistics from replayed games, without Kivy."""

from __future__ import annotations

import pytest

from companion.games import get_rules
from companion.games.base import Outcome
from companion.session import GameSession
from companion.ui.presenters.history import (
    GAME_LINE_CHARS,
    STATS_LINE_CHARS,
    GameSummary,
    game_item,
    history_view,
    paged,
    recent_summaries,
    score_sheet,
    sentence_start,
    summarise,
    win_table,
)

PLAYERS = [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]


def play_scorepad(log, points):
    game = GameSession.start(log, get_rules("scorepad"), {"players": PLAYERS})
    for seat, p in points:
        game.do({"type": "score", "seat": seat, "points": p})
    game.do({"type": "finish"})
    game.finish()
    return game


def test_summaries_name_the_winner_and_games_in_progress(game_log):
    play_scorepad(game_log, [(1, 5), (2, 3)])
    open_game = GameSession.start(game_log, get_rules("scorepad"), {"players": PLAYERS})
    open_game.do({"type": "score", "seat": 2, "points": 1})
    rows = {r.id: r for r in game_log.games()}
    done = summarise(rows[1], get_rules("scorepad").outcome(
        GameSession.resume(game_log, 1).state))
    running = summarise(rows[2], open_game.rules.outcome(open_game.state))
    assert done.winners == ("Ann",) and done.result == "Won by Ann"
    assert running.result == "In progress (1 actions)"
    assert "Score pad" in done.line and "Ann, Bo" in done.line


def test_win_table_counts_games_and_wins_per_name(game_log):
    play_scorepad(game_log, [(1, 5)])
    play_scorepad(game_log, [(2, 5)])
    play_scorepad(game_log, [(2, 9)])
    games = [summarise(r, (s := GameSession.resume(game_log, r.id)).rules.outcome(s.state))
             for r in game_log.games()]
    table = win_table(games)
    assert [(s.name, s.played, s.won) for s in table] == [("Bo", 3, 2), ("Ann", 3, 1)]


@pytest.mark.parametrize(("kind", "result"), [
    ("time_stories", "Won together by Ann and Bo"),  # cooperative: one mission, won by all
    ("times", "Won by Ann and Bo"),  # two reached the target space in the same round
])
def test_two_winners_are_a_shared_win_only_in_a_cooperative_game(game_log, kind, result):
    gid = game_log.new_game(kind, {"players": PLAYERS})
    summary = summarise(game_log.game(gid), Outcome(((1, "Ann"), (2, "Bo")), "", (1, 2)))
    assert summary.winners == ("Ann", "Bo") and summary.result == result


def test_a_game_that_cannot_replay_is_listed_with_the_reason(game_log):
    gid = game_log.new_game("chess", {"players": PLAYERS})
    summary = summarise(game_log.game(gid), None, "unknown game kind 'chess'")
    assert summary.result == "Cannot replay: unknown game kind 'chess'"


def test_finished_games_are_summed_up_once_and_kept(game_log, monkeypatch):
    import companion.games.summary as summary
    import companion.ui.presenters.history as history

    play_scorepad(game_log, [(1, 5), (2, 3)])
    play_scorepad(game_log, [(2, 7)])
    live = GameSession.start(game_log, get_rules("scorepad"), {"players": PLAYERS})
    live.do({"type": "score", "seat": 1, "points": 4})
    first = history.recent_summaries(game_log, 30, live=live)
    assert [(g.game_id, g.result) for g in first] == [
        (3, "In progress (1 actions)"), (2, "Won by Bo"), (1, "Won by Ann")]
    assert set(game_log.summaries([1, 2, 3])) == {1, 2}  # only finished games are kept

    def no_replay(*_args, **_kwargs):
        raise AssertionError("a kept summary was replayed again")

    monkeypatch.setattr(history, "final_state", no_replay)
    again = history.recent_summaries(game_log, 30, live=live)  # the live game: no replay
    assert again == first
    assert history.recent_summaries(game_log, 1, live=live) == first[:1]

    monkeypatch.setattr(summary, "SUMMARY_FORM", summary.SUMMARY_FORM + 1)  # a new form
    with pytest.raises(AssertionError, match="replayed again"):
        history.recent_summaries(game_log, 30, live=live)


def test_a_reopened_game_finished_again_is_summed_up_again(game_log):
    from companion.ui.presenters.history import recent_summaries

    game = play_scorepad(game_log, [(1, 5)])
    assert recent_summaries(game_log, 30)[0].winners == ("Ann",)
    game_log.finish(game.game_id, "open")
    game.undo()  # the finish
    game.undo()  # Ann's 5
    game.do({"type": "score", "seat": 2, "points": 1})
    game.do({"type": "finish"})
    game_log.finish(game.game_id)
    assert recent_summaries(game_log, 30)[0].winners == ("Bo",)


def no_replay(*_args, **_kwargs):
    raise AssertionError("a finished game was replayed")


def test_a_game_the_session_finishes_is_kept_so_the_first_opening_replays_none(
        game_log, monkeypatch):
    import companion.ui.presenters.history as history

    by_rules = play_scorepad(game_log, [(1, 5), (2, 3)])  # "finish" ends it by the rules
    by_hand = GameSession.start(game_log, get_rules("scorepad"), {"players": PLAYERS})
    by_hand.do({"type": "score", "seat": 2, "points": 4})
    by_hand.finish("abandoned")
    assert set(game_log.summaries([by_rules.game_id, by_hand.game_id])) == {1, 2}
    monkeypatch.setattr(history, "final_state", no_replay)
    first = history.recent_summaries(game_log, 30)  # History's first opening
    assert [(g.game_id, g.result) for g in first] == [(2, "Abandoned"), (1, "Won by Ann")]


def test_history_shows_the_same_rows_from_kept_outcomes_as_from_replays(game_log):
    from companion.ui.presenters.history import recent_summaries

    play_scorepad(game_log, [(1, 5), (2, 3)])
    play_scorepad(game_log, [(2, 7)])
    kept_rows = recent_summaries(game_log, 30)
    game_log.db.execute("DELETE FROM summaries")  # as a log from before they were kept
    assert recent_summaries(game_log, 30) == kept_rows  # replayed, then kept again
    assert set(game_log.summaries([1, 2])) == {1, 2}


def test_a_kept_outcome_is_computed_again_for_a_new_engine_version(game_log, monkeypatch):
    import dataclasses

    import companion.ui.presenters.history as history
    from companion.games.summary import made_with

    game = play_scorepad(game_log, [(1, 5)])
    old_key = made_with(game_log.game(game.game_id))
    game_log.keep_summary(game.game_id, old_key, {"winners": ["Zed"], "reactions": {}})
    assert history.recent_summaries(game_log, 30)[0].winners == ("Zed",)  # kept, not replayed
    engine = get_rules("scorepad")
    monkeypatch.setattr(engine, "GAME", dataclasses.replace(
        engine.GAME, version=engine.GAME.version + 1))  # the rules changed: stale
    assert history.recent_summaries(game_log, 30)[0].winners == ("Ann",)
    key, what = game_log.summaries([game.game_id])[game.game_id]
    assert key != old_key and key == made_with(game_log.game(game.game_id))
    assert what["winners"] == ["Ann"]
    monkeypatch.setattr(history, "final_state", no_replay)  # kept again: no replay next
    assert history.recent_summaries(game_log, 30)[0].winners == ("Ann",)


def test_an_engine_whose_outcome_fails_still_finishes_its_game(game_log, monkeypatch):
    game = GameSession.start(game_log, get_rules("scorepad"), {"players": PLAYERS})
    game.do({"type": "score", "seat": 1, "points": 2})

    def broken(_state):
        raise ValueError("a bug in the engine's outcome")

    monkeypatch.setattr(game.rules, "outcome", broken)
    game.finish()
    assert game_log.game(game.game_id).status == "finished"
    assert game_log.summaries([game.game_id]) == {}  # nothing kept: History replays it


def test_an_open_game_is_resumable_but_the_slap_pad_s_running_log_is_not(game_log):
    open_game = GameSession.start(game_log, get_rules("scorepad"), {"players": PLAYERS})
    open_game.do({"type": "score", "seat": 2, "points": 1})
    pad = GameSession.start(game_log, get_rules("stop_time"), {"players": PLAYERS})
    rows = {r.id: r for r in game_log.games()}
    scorepad = summarise(rows[open_game.game_id], open_game.rules.outcome(open_game.state))
    tool = summarise(rows[pad.game_id], pad.rules.outcome(pad.state))
    assert scorepad.status == tool.status == "open"
    assert scorepad.resumable and not tool.resumable


# -- the view History shows (issue 37: notes and statistics) --------------------------


def summary(gid, players=("Ann", "Bo"), status="finished", **kw):
    return GameSummary(gid, "scorepad", "Score pad", tuple(players), "today 20:00", status, 3,
                       **kw)


@pytest.mark.parametrize("heights, room, gap, pages", [
    ([], 100, 4, [(0, 0)]),
    ([40, 40, 40], 100, 4, [(0, 2), (2, 3)]),  # 40 + 4 + 40 fits, a third does not
    ([40, 40, 40], 128, 4, [(0, 3)]),
    ([150, 20], 100, 0, [(0, 1), (1, 2)]),  # taller than the room: a page of its own
    ([20, 150, 20], 100, 0, [(0, 1), (1, 2), (2, 3)]),
])
def test_the_list_is_cut_into_pages_of_whole_games(heights, room, gap, pages):
    assert paged(heights, room, gap) == pages


@pytest.mark.parametrize("text, capital", [
    ("", True), ("   ", True), ("Bo won", False), ("Bo won.", False), ("Bo won. ", True),
    ("Really? ", True), ("Yes! ", True), ("Ann, ", False),
])
def test_the_note_keyboard_capitalises_sentences_not_words(text, capital):
    assert sentence_start(text) is capital


def test_a_game_item_is_wrapped_whole_lines_with_its_note():
    long = ("Anne-Sophie Lefebvre", "Bartholomew Jamesons", "Carolina Wilhelmsens")
    item = game_item(summary(7, long, result="Won by Anne-Sophie Lefebvre",
                             note="The longest night of the year, and the best one too"))
    lines = item["text"].split("\n")
    assert item["lines"] == len(lines) and all(len(x) <= GAME_LINE_CHARS for x in lines)
    assert lines[0] == "#7 Score pad, today 20:00"
    assert "Won by Anne-Sophie Lefebvre" in lines
    assert " ".join(lines).endswith('Note: "The longest night of the year, and the best one '
                                    'too"')
    assert (item["game_id"], item["resumable"]) == (7, False)


def test_the_view_lists_the_newest_and_counts_every_game():
    games = [summary(i, winners=("Ann",), result="Won by Ann") for i in range(5, 0, -1)]
    view = history_view(games, shown=2)
    assert [g["game_id"] for g in view.games] == [5, 4]
    assert [(s.name, s.played) for s in view.chart] == [("Ann", 2), ("Bo", 2)]
    texts = [line["text"] for line in view.stats]
    assert texts[0] == "Head-to-head (competitive"  # a title, wrapped like the lines
    assert "Ann 5 - 0 Bo (5 games)" in texts  # statistics over all five games
    assert all(len(t) <= STATS_LINE_CHARS for t in texts)


def test_no_games_no_statistics():
    view = history_view([], shown=30)
    assert view.games == () and view.chart == () and view.stats == ()


def test_a_note_and_the_kept_points_reach_the_summary_and_the_sheet(game_log):
    game = play_scorepad(game_log, [(1, 5), (2, 3)])
    game_log.set_note(game.game_id, "Ann's birthday")
    (s,) = recent_summaries(game_log, 30)
    assert s.note == "Ann's birthday" and 'Note: "Ann\'s birthday"' in s.line
    assert s.scores == {"Ann": 5, "Bo": 3}
    sheet = score_sheet(s, {"players": PLAYERS}, None, [])
    assert "Note: Ann's birthday" in sheet
