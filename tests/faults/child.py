"""The fault suite's child: opens the game log as the kiosk does and plays a fixed script,
printing one JSON line per step with what the table was told (done, or refused and why).
The parent injects a fault into it (strace, a full disk, SIGKILL) and then checks the log.

    child.py LOG [--kill-at-statement N] [--stop-after-refusal] [--steps K]

It never closes the log cleanly: it ends with os._exit, as a crash or a power cut would,
so that the parent's next open runs SQLite's recovery. ``--kill-at-statement N`` sends
itself SIGKILL just before the N-th SQL statement (counted over every connection);
``--stop-after-refusal`` ends the child right after the first refused step, so that the
refused write is the last thing the log saw (as when the box is switched off then);
``--steps K`` plays only the first K steps of the script (1: the first start itself).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]}

#: The script: ("new",) starts a game (or resumes the log's open one), then actions on it.
SCRIPT: list[tuple] = [("new",), ("score", 1), ("undo",), ("score", 2), ("setting",),
                       ("finish",)]


def score(n: int) -> dict:
    return {"type": "score", "seat": 1 + n % 2, "points": n, "note": f"op-{n}"}


def say(**fields) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def kill_at_statement(n: int) -> None:
    """SIGKILL just before the n-th SQL statement any connection runs."""
    real_connect = sqlite3.connect
    count = [0]

    def trace(_sql: str) -> None:
        count[0] += 1
        if count[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)

    def connect(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        db.set_trace_callback(trace)
        return db

    sqlite3.connect = connect


def main(path: str, stop_after_refusal: bool = False, steps: int | None = None) -> None:
    from companion.errors import LogError, RuleError, StorageError
    from companion.games import get_rules
    from companion.session import GameSession
    from companion.store.gamelog import GameLog

    def refused(step: int, exc: LogError) -> None:
        if isinstance(exc, StorageError):
            say(step=step, refused=exc.kind, uncertain=exc.uncertain)
        else:
            say(step=step, refused="log", message=str(exc))

    try:
        log = GameLog(path)
    except LogError as exc:
        refused(-1, exc)
        return
    say(step=-1, done=True, recovered=log.recovered)
    game = None
    for step, op in enumerate(SCRIPT[:steps]):
        if op[0] != "new" and game is None:
            say(step=step, skipped=True)
            continue
        try:
            if op[0] == "new":
                games = log.open_games()
                game = (GameSession.resume(log, games[0].id) if games
                        else GameSession.start(log, get_rules("scorepad"), SETUP))
            elif op[0] == "score":
                game.do(score(op[1]))
            elif op[0] == "undo":
                game.undo()
            elif op[0] == "setting":
                log.set_setting("muted", True)
            elif op[0] == "finish":
                game.finish()
        except LogError as exc:
            refused(step, exc)
            if stop_after_refusal:
                return
            continue
        except RuleError:  # undo with nothing to undo, after a refused score: fine
            say(step=step, refused="rule")
            continue
        say(step=step, done=True, game=game.game_id)


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--kill-at-statement" in args:
        i = args.index("--kill-at-statement")
        kill_at_statement(int(args[i + 1]))
        del args[i:i + 2]
    steps = None
    if "--steps" in args:
        i = args.index("--steps")
        steps = int(args[i + 1])
        del args[i:i + 2]
    main(args[0], "--stop-after-refusal" in args, steps)
    os._exit(0)  # no clean close: the next open runs recovery, as after a crash
