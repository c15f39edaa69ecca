"""The outbox crash test's child: crash_child's game with venue mode's outbox hook
installed, printing a line after each committed operation. Run: LOG SEED."""

from __future__ import annotations

import sys

from crash_child import SETUP, operations

from companion.games import get_rules
from companion.session import GameSession
from companion.store.gamelog import GameLog
from companion.venue.outbox import OutboxHook


def main(path: str, seed: int) -> None:
    log = GameLog(path)
    log.outbox_hook = OutboxHook()
    games = log.open_games()
    game = (GameSession.resume(log, games[0].id) if games
            else GameSession.start(log, get_rules("scorepad"), SETUP))
    print("ready", flush=True)
    for op in operations(seed):
        if op == "undo":
            if game.can_undo:
                game.undo()
        else:
            game.do(op)
        print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
