"""The venue outbox is written in the action's own transaction: both or neither, also
under SIGKILL at random moments; a failing outbox write refuses the action; delivered
rows are the only ones ever pruned."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import LogError
from companion.games import get_rules
from companion.session import GameSession
from companion.store.gamelog import GameLog
from companion.venue.outbox import Outbox, OutboxHook

CHILD = Path(__file__).with_name("outbox_crash_child.py")
SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}


def events(path) -> list[tuple[str, int]]:
    db = sqlite3.connect(path)
    rows = db.execute("SELECT event, seq FROM venue_outbox ORDER BY id").fetchall()
    db.close()
    return rows


def test_every_event_of_a_game_has_its_outbox_row(game_log):
    game_log.outbox_hook = OutboxHook()
    game = GameSession.start(game_log, get_rules("scorepad"), SETUP)
    game.do({"type": "score", "seat": 1, "points": 3})
    game.do({"type": "score", "seat": 2, "points": 1})
    game.undo()
    game.do({"type": "finish"})
    game.finish()
    assert events(game_log.path) == [("start", 0), ("action", 1), ("action", 2), ("undo", 1),
                                     ("action", 2), ("finished", 2)]
    outbox = Outbox(game_log.path)
    assert [r.topic for r in outbox.unsent()] == ["live"] * 5 + ["result"]
    assert outbox.counts() == (6, 1)
    outbox.close()


def test_a_failing_outbox_write_refuses_the_action_and_keeps_the_log_as_it_was(game_log):
    game = GameSession.start(game_log, get_rules("scorepad"), SETUP)

    def broken(db, *_args):
        db.execute("INSERT INTO no_such_table VALUES (1)")

    broken.committed = lambda: None
    game_log.outbox_hook = broken
    with pytest.raises(LogError, match="no_such_table"):
        game.do({"type": "score", "seat": 1, "points": 3})
    assert game_log.actions(game.game_id) == [] and game.actions == []


def test_only_delivered_rows_are_pruned(game_log):
    game_log.outbox_hook = OutboxHook(clock=lambda: "2000-01-01T00:00:00")
    game = GameSession.start(game_log, get_rules("scorepad"), SETUP)
    game.do({"type": "finish"})
    game.finish()
    outbox = Outbox(game_log.path, clock=lambda: "2000-01-02T00:00:00")
    rows = outbox.unsent()
    outbox.mark_sent([r.id for r in rows])
    outbox.prune("2001-01-01")
    assert outbox.counts() == (0, 1)  # the result is not acknowledged: kept
    result = next(r for r in rows if r.topic == "result")
    assert not outbox.mark_acked(result.id, game.game_id + 1)
    assert outbox.mark_acked(result.id, game.game_id)
    outbox.prune("2001-01-01")
    assert events(game_log.path) == []
    outbox.close()


@pytest.mark.slow
def test_sigkill_at_random_moments_never_parts_an_action_from_its_outbox_row(tmp_path):
    path = tmp_path / "games.sqlite3"
    rng = random.Random(16)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(CHILD.parent.parent), str(CHILD.parent.parent.parent)]))
    for _kill in range(15):
        child = subprocess.Popen([sys.executable, str(CHILD), str(path),
                                  str(rng.randrange(1 << 30))],
                                 stdout=subprocess.PIPE, env=env, text=True)
        assert child.stdout.readline().strip() == "ready"
        for _ in range(rng.randint(0, 30)):
            if not child.stdout.readline():
                break
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        log = GameLog(path)
        (game,) = log.open_games()
        count = 0
        for event, seq in events(path):  # the outbox retells the log, step by step
            count = {"start": 0, "action": count + 1, "undo": count - 1}[event]
            assert seq == count
        assert count == len(log.actions(game.id))
        log.close()


def test_a_refused_write_would_be_taken_back_with_its_outbox_row(game_log):
    """The log notes every row a write changes so that a write refused at its sync is
    put back out of the log (store/takeback.py); the outbox row is noted with it."""
    game_log.outbox_hook = OutboxHook()
    gid = game_log.new_game("scorepad", SETUP)
    game_log.append(gid, {"type": "score", "seat": 1, "points": 3})
    noted = {n.table: n for n in game_log._noted}
    assert set(noted) == {"actions", "venue_outbox"}
    (row_id,) = game_log.db.execute("SELECT MAX(id) FROM venue_outbox").fetchone()
    outbox = noted["venue_outbox"]
    assert outbox.rows == frozenset() and outbox.args == (row_id - 1,)  # "none after it"
