"""A game in progress: apply, then log, then show; undo; resume replays the log."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import CompanionError, LogError, RuleError, StorageError
from companion.games import get_rules
from companion.session import GameSession
from companion.store.gamelog import GameLog

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}
SCOREPAD = get_rules("scorepad")


def test_illegal_action_is_not_logged(game_log):
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    game.do({"type": "score", "seat": 1, "points": 4})
    with pytest.raises(RuleError, match="Nobody plays at seat 7 in this game"):
        game.do({"type": "score", "seat": 7, "points": 1})
    assert game_log.actions(game.game_id) == [{"type": "score", "seat": 1, "points": 4}]
    assert game.state.total(1) == 4


def test_bad_setup_writes_nothing(game_log):
    with pytest.raises(RuleError):
        GameSession.start(game_log, SCOREPAD, {"players": []})
    assert game_log.games() == []


def test_undo_steps_back_and_refuses_past_the_start(game_log):
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    game.do({"type": "score", "seat": 2, "points": 5})
    assert game.undo() == {"type": "score", "seat": 2, "points": 5}
    assert game.state.total(2) == 0
    with pytest.raises(RuleError, match="Nothing to undo"):
        game.undo()


def test_the_last_action_is_what_undo_would_remove_across_checkpoints(game_log):
    from companion.session import CHECKPOINT_EVERY

    game = GameSession.start(game_log, SCOREPAD, SETUP)
    assert game.last_action is None
    n = 2 * CHECKPOINT_EVERY + 3
    for points in range(1, n + 1):
        game.do({"type": "score", "seat": 1, "points": points})
    for points in range(n, 0, -1):  # through every checkpoint, as the Undo label reads it
        last = game.last_action
        assert last == {"type": "score", "seat": 1, "points": points}
        assert game.undo() == last
    assert game.last_action is None


def test_unknown_kind_in_log_is_a_clear_error(game_log):
    gid = game_log.new_game("chess", SETUP)
    with pytest.raises(LogError, match="unknown game kind 'chess'"):
        GameSession.resume(game_log, gid)


actions = st.lists(
    st.one_of(
        st.builds(lambda s, p: {"type": "score", "seat": s, "points": p},
                  st.sampled_from([1, 2, 3]), st.integers(-20, 20)),
        st.just({"type": "end_round"}),
        st.just("undo"),
    ),
    max_size=30,
)


@settings(max_examples=40, deadline=None)
@given(actions)
def test_resume_equals_live_state(tmp_path_factory, ops):
    log = GameLog(tmp_path_factory.mktemp("log") / "g.sqlite3")
    game = GameSession.start(log, SCOREPAD, SETUP)
    for op in ops:
        with contextlib.suppress(CompanionError):
            game.undo() if op == "undo" else game.do(op)
    resumed = GameSession.resume(log, game.game_id)
    assert resumed.state == game.state
    assert resumed.actions == game.actions
    log.close()


def test_a_log_that_cannot_be_written_changes_nothing_on_screen(game_log):
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    game.do({"type": "score", "seat": 1, "points": 2})
    game_log.db.execute("PRAGMA query_only = ON")  # as good as a read-only disk
    with pytest.raises(StorageError, match="Could not write to the game log") as refused:
        game.do({"type": "score", "seat": 1, "points": 5})
    assert refused.value.kind == "readonly" and not refused.value.uncertain
    assert game.state.total(1) == 2 and len(game.actions) == 1
    game_log.db.execute("PRAGMA query_only = OFF")
    game.do({"type": "score", "seat": 1, "points": 5})
    assert game.state.total(1) == 7


def test_live_state_equals_replay_even_for_actions_with_tuples(game_log):
    crazy = __import__("companion.games.crazy_time", fromlist=["x"])
    players = {"players": [{"name": n, "seat": i + 1} for i, n in enumerate("ABCD")]}
    game = GameSession.start(game_log, crazy, players)
    game.do({"type": "mistakes", "seats": (3, 1)})  # a tuple, as Python code may pass
    game.undo()  # the log gives back a list: undo must still agree with memory
    game.do({"type": "mistakes", "seats": (3, 1)})
    assert GameSession.resume(game_log, game.game_id).state == game.state


def test_setup_can_change_only_before_the_first_action(game_log):
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    three = {"players": SETUP["players"] + [{"name": "Cy", "seat": 3}]}
    game.amend_setup(three)
    assert len(game.state.players) == 3
    assert GameSession.resume(game_log, game.game_id).setup == three
    with pytest.raises(RuleError):
        game.amend_setup({"players": []})  # the rules still check it
    game.do({"type": "score", "seat": 3, "points": 1})
    with pytest.raises(RuleError, match="has begun"):
        game.amend_setup(SETUP)
    with pytest.raises(LogError, match="has begun"):
        game_log.amend_setup(game.game_id, SETUP)


def test_a_won_game_is_finished_in_the_log_and_undo_opens_it_again(game_log):
    tat = get_rules("time_after_time")
    game = GameSession.start(game_log, tat, SETUP)
    for slot, hour in [(3, 12), (5, 17), (0, 8), (1, 9), (2, 10), (4, 14), (6, 20)]:
        game.do({"type": "place", "seat": 1, "slot": slot, "hour": hour})
    assert [g.id for g in game_log.open_games()] == [game.game_id]  # she is asked first
    game.do({"type": "ghost_answer", "seat": 1, "holds_ghost": False})
    assert game_log.open_games() == [] and game_log.game(game.game_id).status == "finished"
    game.undo()  # a wrong answer: the game is open again, and resumable
    assert [g.id for g in game_log.open_games()] == [game.game_id]
    assert GameSession.resume(game_log, game.game_id).state.asking == 1


def test_ending_or_reopening_a_game_commits_with_its_action(game_log):
    """The action that ends a game and its "finished" are one transaction, as are an
    undo and the reopening it brings: a power cut between two commits would offer a
    game that is over for resume, or keep a corrected one closed."""
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    game.do({"type": "score", "seat": 1, "points": 4})
    commits: list[str] = []
    game_log.db.set_trace_callback(
        lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
    try:
        game.do({"type": "finish"})
        assert len(commits) == 1 and game_log.game(game.game_id).status == "finished"
        game.undo()
        assert len(commits) == 2 and game_log.game(game.game_id).status == "open"
        game.do({"type": "finish"})
        assert len(commits) == 3 and game_log.game(game.game_id).status == "finished"
    finally:
        game_log.db.set_trace_callback(None)


def test_the_score_pad_stays_open_until_its_finish(game_log):
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    game.do({"type": "score", "seat": 1, "points": 4})
    assert [g.id for g in game_log.open_games()] == [game.game_id]
    game.do({"type": "finish"})
    assert game_log.open_games() == []


def test_a_game_ended_again_after_an_undo_is_finished_again(game_log):
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    game.do({"type": "finish"})
    assert game_log.open_games() == []
    game.undo()
    game.do({"type": "score", "seat": 2, "points": 1})
    game.do({"type": "finish"})
    assert game_log.game(game.game_id).status == "finished" and len(game.actions) == 2


def test_a_long_resume_reports_its_progress(tmp_path):
    """The app pings its watchdog from ``progress``: a huge log replaying for seconds
    must not look like a hung UI thread."""
    from companion.session import PROGRESS_EVERY

    log = GameLog(tmp_path / "g.sqlite3")
    game = GameSession.start(log, SCOREPAD, SETUP)
    n = 2 * PROGRESS_EVERY + 5
    for i in range(n):
        log.append(game.game_id, {"type": "score", "seat": 1 + i % 2, "points": 1})
    seen: list[int] = []
    again = GameSession.resume(log, game.game_id, progress=seen.append)
    assert seen == [PROGRESS_EVERY, 2 * PROGRESS_EVERY]
    assert again.n_actions == n and again.state.total(1) == PROGRESS_EVERY + 3
    log.close()


def test_snapshot_is_made_once_per_state_and_follows_do_undo_and_resume(game_log,
                                                                         engine_snapshots):
    rules = get_rules("scorepad")
    made = engine_snapshots(rules)
    game = GameSession.start(game_log, rules, {"players": [{"name": "Ann", "seat": 1},
                                                           {"name": "Bob", "seat": 2}]})
    start = game.snapshot()
    assert game.snapshot() is start and len(made) == 1  # asked again: the same, kept
    game.do({"type": "score", "seat": 1, "points": 3})
    after = game.snapshot()
    assert after["totals"] == {"1": 3, "2": 0} and game.snapshot() is after
    assert len(made) == 2
    assert game.snapshot(recent=None) == made.engine(game.state, recent=None)
    game.undo()
    assert game.snapshot()["totals"] == start["totals"] == {"1": 0, "2": 0}
    game.do({"type": "score", "seat": 2, "points": 5})
    again = GameSession.resume(game_log, game.game_id)
    assert again.snapshot()["totals"] == game.snapshot()["totals"] == {"1": 0, "2": 5}


def test_an_action_is_encoded_once_and_applied_as_the_log_reads_it(game_log, monkeypatch):
    """``do`` encodes the action once: the log stores that text, and the engine gets
    what reading it back gives (a replay reads it the same way)."""
    import companion.session as session_module
    import companion.store.gamelog as gamelog_module

    encoded = []
    real = gamelog_module.dumps

    def counting(value):
        encoded.append(value)
        return real(value)

    monkeypatch.setattr(session_module, "dumps", counting)
    monkeypatch.setattr(gamelog_module, "dumps", counting)
    game = GameSession.start(game_log, SCOREPAD, SETUP)
    encoded.clear()
    game.do({"type": "score", "seat": 1, "points": (3)})
    game.do({"points": 2, "seat": 2, "type": "score"})
    assert len(encoded) == 2
    assert [a for a, _ in game._tail] == game_log.actions(game.game_id)
    assert list(game._tail[1][0]) == ["points", "seat", "type"]  # the log's key order


def test_the_snapshot_before_the_last_action_is_kept_for_the_line_and_undo(game_log,
                                                                          engine_snapshots):
    rules = get_rules("scorepad")
    made = engine_snapshots(rules)
    game = GameSession.start(game_log, rules, SETUP)
    game.do({"type": "score", "seat": 1, "points": 3})
    before, first = game.state, game.snapshot()
    game.do({"type": "score", "seat": 2, "points": 4})
    after = game.snapshot()
    assert len(made) == 2
    assert game.snapshot_of(before) is first and game.snapshot_of(game.state) is after
    assert len(made) == 2, "both kept: nothing made again"
    game.undo()  # back to the state before: its snapshot is shown again
    assert game.snapshot() is first and first["totals"] == {"1": 3, "2": 0}
    assert len(made) == 2
    other = game.snapshot(recent=None)  # another length of lists is another snapshot
    assert other is not first and len(made) == 3
    assert game.snapshot_of(game._marks[0])["totals"] == {"1": 0, "2": 0}  # not kept: made
    assert len(made) == 4
