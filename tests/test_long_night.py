"""A long night stays fast and small: linear replay, bounded memory, cheap undo, cheap
snapshots, for every engine (issue 13). Costs are compared between sizes of the same
game measured in the same run, never against a time limit: memory with tracemalloc
(the same replay allocates the same), time as the best of several CPU-time runs with a
wide margin (linear growth is 2x per doubling, quadratic 4x)."""

from __future__ import annotations

import gc
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from longgames import KINDS, long_game

from companion.errors import LogError
from companion.games import get_rules
from companion.session import CHECKPOINT_EVERY, GameSession, final_state
from companion.store.checksum import action_crc
from companion.store.gamelog import GameLog, dumps


def _log_with(tmp_path, kind: str, n: int, name: str = "g"):
    """A game log holding the first ``n`` actions of the long game of ``kind``."""
    setup, actions = long_game(kind, n)
    log = GameLog(tmp_path / f"{name}.sqlite3")
    gid = log.new_game(kind, setup)
    log.db.execute("BEGIN")
    log.db.executemany(
        "INSERT INTO actions (game_id, seq, at, action, crc) VALUES (?, ?, 't', ?, ?)",
        [(gid, i, text, action_crc(gid, i, "t", text))
         for i, text in enumerate(map(dumps, actions[:n]), start=1)])
    log.db.execute("COMMIT")
    return log, gid, actions


def _kept_bytes(make) -> tuple[int, object]:
    """Bytes still allocated after ``make()`` returns (what its result keeps)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = make()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before, kept
    finally:
        tracemalloc.stop()


def _cpu(fn, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


@pytest.mark.parametrize("kind", KINDS)
def test_memory_after_resume_grows_linearly(tmp_path, kind):
    n = 1500
    log, gid, _ = _log_with(tmp_path, kind, 2 * n)
    log_n, gid_n, _ = _log_with(tmp_path, kind, n, "small")
    one, _s1 = _kept_bytes(lambda: GameSession.resume(log_n, gid_n))
    two, _s2 = _kept_bytes(lambda: GameSession.resume(log, gid))
    parsed, _p = _kept_bytes(lambda: log.actions(gid))
    # keeping every state made this 4x per doubling; copies of a growing tuple too
    assert two < 2.6 * one, (kind, one, two)
    assert two < 3 * parsed, (kind, two, parsed)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_replay_time_grows_linearly(kind):
    n = 3000
    setup, actions = long_game(kind, 2 * n)
    rules = get_rules(kind)
    one = _cpu(lambda: final_state(rules, setup, actions[:n]))
    two = _cpu(lambda: final_state(rules, setup, actions))
    assert two < 3.2 * one, (kind, one, two)


class Counting:
    """An engine's module seen through a counter of the actions it is asked to apply."""

    def __init__(self, rules):
        self.rules, self.applied = rules, 0

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def apply(self, state, action):
        self.applied += 1
        return self.rules.apply(state, action)


@pytest.mark.arm64
@pytest.mark.parametrize("kind", KINDS)
def test_undo_at_the_end_replays_at_most_one_checkpoint_and_agrees_with_a_replay(tmp_path,
                                                                                 kind):
    n = 3 * CHECKPOINT_EVERY + 5
    log, gid, actions = _log_with(tmp_path, kind, n)
    game = GameSession.resume(log, gid)
    game.rules = counting = Counting(game.rules)
    rules = get_rules(kind)
    for undone in range(1, CHECKPOINT_EVERY + 10):
        before = counting.applied
        assert game.undo() == actions[n - undone]
        assert counting.applied - before <= CHECKPOINT_EVERY
        if undone in (1, 5, 6, CHECKPOINT_EVERY + 5, CHECKPOINT_EVERY + 9):
            assert game.state == final_state(rules, log.game(gid).setup, actions[:n - undone])
    game.do(actions[n - undone])  # and forward again from there
    assert game.state == final_state(rules, log.game(gid).setup, actions[:n - undone + 1])
    assert GameSession.resume(log, gid).state == game.state


@pytest.mark.parametrize("kind", KINDS)
def test_the_screens_snapshot_costs_what_it_shows(kind):
    """The screens' snapshot of a long game is no bigger than of a short one, and its
    recent lists are the ends of the full snapshot's."""
    rules = get_rules(kind)
    setup, actions = long_game(kind, 2000)
    short = rules.snapshot(final_state(rules, setup, actions[:500]), recent=20)
    state = final_state(rules, setup, actions)
    screen, full = rules.snapshot(state, recent=20), rules.snapshot(state)
    assert len(dumps(screen)) < 2 * len(dumps(short)) + 2000
    for key, value in screen.items():
        if isinstance(value, list) and len(full[key]) > 20 and key not in ("burndown",):
            assert value == full[key][-20:], key


def test_a_damaged_slap_round_in_the_log_is_refused_by_its_position(tmp_path):
    stop_time = get_rules("stop_time")
    setup, actions = long_game("stop_time", 300)
    broken = [dict(a) for a in actions[:3]]
    broken[2]["verdict"] = dict(broken[2]["verdict"], slaps="everyone")
    with pytest.raises(LogError, match="action 3 .* slaps has the wrong type"):
        final_state(stop_time, setup, broken)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.integers(-20, 20), st.just("undo")), max_size=60))
def test_undo_and_do_across_checkpoints_always_agree_with_a_replay(tmp_path_factory, ops):
    """Checkpoints every 3 actions here, so any sequence crosses several of them."""
    import companion.session as session_module

    scorepad = get_rules("scorepad")
    setup = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}
    log = GameLog(tmp_path_factory.mktemp("log") / "g.sqlite3")
    saved = session_module.CHECKPOINT_EVERY
    session_module.CHECKPOINT_EVERY = 3
    try:
        game = GameSession.start(log, scorepad, setup)
        for op in ops:
            if op == "undo":
                if game.can_undo:
                    game.undo()
            else:
                game.do({"type": "score", "seat": 1 + abs(op) % 2, "points": op})
            assert game.state == final_state(scorepad, setup, log.actions(game.game_id))
        assert GameSession.resume(log, game.game_id).state == game.state
    finally:
        session_module.CHECKPOINT_EVERY = saved
        log.close()
