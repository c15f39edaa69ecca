"""What History keeps of a finished game: its engine's outcome, and what it was made with.

A finished game never changes, so its ``Outcome`` (winners and slap delays by name) is
kept in the game log (``GameLog.keep_summary``) when the game is finished
(``GameSession``) and read back by History (``ui.presenters.history``), which then never
replays a finished game. ``made_with(row)`` names what a kept outcome depends on: when
the engine's version, the form of what is kept, or the game itself (finished again after
a reopen) differ, the kept outcome is stale and History computes it again, through the
one replay (``companion.games.replay``). Pure: no I/O.

    log.keep_summary(gid, made_with(log.game(gid)), kept(rules.outcome(state)))
"""

from __future__ import annotations

from typing import Any

from companion.games import info
from companion.games.base import Outcome

#: The form of a kept outcome; raise it when ``kept`` changes what it keeps.
SUMMARY_FORM = 2  # 2: from the engine's outcome()


def kept(outcome: Outcome) -> dict[str, Any]:
    """What History keeps of a game's outcome: winners and slap delays by name (JSON)."""
    return {"winners": list(outcome.winner_names),
            "reactions": {name: list(ds) for name, ds in outcome.reaction_names.items()}}


def made_with(row: Any) -> str:
    """What a kept outcome of ``row`` (a ``GameRow``) depends on: engine version, summary
    form, when the game was finished (a reopened game finished again is another game)
    and its length."""
    return key(row.kind, row.finished_at, row.n_actions)


def key(kind: str, finished_at: str | None, n_actions: int) -> str:
    """``made_with`` from its parts (for a game being closed, before its row is read)."""
    game = info(kind)
    return (f"{kind} v{game.version if game else '?'}/form {SUMMARY_FORM}/"
            f"{finished_at}/{n_actions}")


__all__ = ["SUMMARY_FORM", "key", "kept", "made_with"]
