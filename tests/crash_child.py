"""The crash test's child: resumes the open game (or starts one) and applies operations
from a seeded sequence, printing a line after each one is committed. The parent kills it
with SIGKILL at a moment it does not choose in advance. Run: crash_child.py LOG SEED."""

from __future__ import annotations

import random
import sys

from companion.games import get_rules
from companion.session import GameSession
from companion.store.gamelog import GameLog

SETUP = {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2},
                     {"name": "Cy", "seat": 3}]}


def operations(seed: int, count: int = 400):
    rng = random.Random(seed)
    for _ in range(count):
        r = rng.random()
        if r < 0.15:
            yield "undo"
        elif r < 0.22:
            yield {"type": "end_round"}
        else:
            yield {"type": "score", "seat": rng.randint(1, 3), "points": rng.randint(-9, 9),
                   "note": "x" * rng.randint(0, 300)}


def main(path: str, seed: int, outbox_hook=None) -> None:
    """Play the seeded operations on the log at ``path``; ``outbox_hook``: venue mode's
    hook installed on the log first (tests/venue/outbox_crash_child.py)."""
    log = GameLog(path)
    log.outbox_hook = outbox_hook
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
