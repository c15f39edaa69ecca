"""History summaries and statistics from replayed games, without Kivy."""

from __future__ import annotations

from companion.games import get_rules
from companion.session import GameSession
from companion.ui.presenters.history import summarise, win_table, winners_of

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
    done = summarise(rows[1], get_rules("scorepad").snapshot(
        GameSession.resume(game_log, 1).state))
    running = summarise(rows[2], open_game.snapshot())
    assert done.winners == ("Ann",) and done.result == "Won by Ann"
    assert running.result == "In progress (1 actions)"
    assert "Score pad" in done.line and "Ann, Bo" in done.line


def test_win_table_counts_games_and_wins_per_name(game_log):
    play_scorepad(game_log, [(1, 5)])
    play_scorepad(game_log, [(2, 5)])
    play_scorepad(game_log, [(2, 9)])
    games = [summarise(r, GameSession.resume(game_log, r.id).snapshot())
             for r in game_log.games()]
    table = win_table(games)
    assert [(s.name, s.played, s.won) for s in table] == [("Bo", 3, 2), ("Ann", 3, 1)]


def test_winner_readers_for_each_kind_of_game():
    snap = {"players": PLAYERS}
    assert winners_of("crazy_time", {**snap, "grand_master": 2}) == ["Bo"]
    assert winners_of("time_stories", {**snap, "mission_complete": True}) == ["Ann", "Bo"]
    assert winners_of("times", {**snap, "winners": [1, 2]}) == ["Ann", "Bo"]
    assert winners_of("professor_tempus", {**snap, "winners": ["2"]}) == ["Bo"]


def test_a_game_that_cannot_replay_is_listed_with_the_reason(game_log):
    gid = game_log.new_game("chess", {"players": PLAYERS})
    summary = summarise(game_log.game(gid), None, "unknown game kind 'chess'")
    assert summary.result == "Cannot replay: unknown game kind 'chess'"
