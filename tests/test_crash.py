"""Kill -9 at random moments: after each restart the log holds exactly the committed
actions, nothing half-written, and the resumed state is their replay."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from crash_child import SETUP, operations

from companion.games import get_rules
from companion.session import GameSession, replay
from companion.store.gamelog import GameLog

CHILD = Path(__file__).with_name("crash_child.py")

KILLS = 60
# Under emulation (make test-arm64) each child's start costs seconds: the same first kills.
KILLS_ARM64 = 6


def model_after(actions: list[dict], ops, n: int) -> list[dict]:
    """What the log must hold after the first ``n`` operations were committed."""
    out = list(actions)
    for op in list(ops)[:n]:
        if op == "undo":
            if out:
                out.pop()
        else:
            out.append(op)
    return out


@pytest.mark.parametrize("kills", [pytest.param(KILLS, marks=pytest.mark.slow),
                                   pytest.param(KILLS_ARM64, marks=pytest.mark.arm64)])
def test_sigkill_at_random_moments_loses_nothing_committed(tmp_path, kills):
    path = tmp_path / "games.sqlite3"
    rng = random.Random(1234)
    committed: list[dict] = []
    env = dict(os.environ, PYTHONPATH=str(CHILD.parent.parent))
    for kill in range(kills):
        seed = rng.randrange(1 << 30)
        ops = list(operations(seed))
        child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(seed)],
                                 stdout=subprocess.PIPE, env=env, text=True)
        assert child.stdout.readline().strip() == "ready"
        target = rng.randint(0, 40)
        seen = 0
        while seen < target and child.stdout.readline():
            seen += 1
        child.send_signal(signal.SIGKILL)  # mid-write, often: the child never pauses
        child.wait()
        # The child ran on while this process read: what it confirmed before the kill
        # is still in the pipe, and counts as confirmed.
        seen += child.stdout.read().count("done")
        child.stdout.close()

        db = sqlite3.connect(path)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
        log = GameLog(path)
        assert log.recovered is None, log.recovered
        (game_row,) = log.open_games()
        actions = log.actions(game_row.id)
        allowed = [model_after(committed, ops, seen), model_after(committed, ops, seen + 1)]
        assert actions in allowed, f"kill {kill}: log holds something never committed"
        resumed = GameSession.resume(log, game_row.id)
        assert resumed.state == replay(get_rules("scorepad"), SETUP, actions)[-1]
        committed = actions
        log.close()
    assert committed, "the children never got to write anything"
