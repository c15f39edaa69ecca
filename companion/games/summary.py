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
SUMMARY_FORM = 3  # 2: from the engine's outcome(); 3: with points by name and runs


def kept(outcome: Outcome, rules: Any = None, state: Any = None) -> dict[str, Any]:
    """What History keeps of a game's outcome (JSON): winners, slap delays and points
    by name, and, given the game's ``rules`` and final ``state``, its ``runs`` (see
    ``runs``; for the statistics' bests, ``companion.stats``)."""
    out = {"winners": list(outcome.winner_names),
           "reactions": {name: list(ds) for name, ds in outcome.reaction_names.items()},
           "scores": {outcome.name(s): v for s, v in outcome.scores.items()
                      if isinstance(v, int) and not isinstance(v, bool)}}
    if rules is not None:
        out["runs"] = runs(rules, state)
    return out


#: How a run ended, in the words of the score sheets and BG Stats' comments.
RUN_ENDINGS = {"successful": "mission complete", "failed_time": "time ran out",
               "failed_deaths": "every character died"}


def runs(rules: Any, state: Any) -> list[dict[str, Any]]:
    """For a game played in runs (T.I.M.E Stories): each run's ``number``, ``ending``
    (``RUN_ENDINGS``, or "unfinished"), ``starting_tu`` and the time units it ``used``
    (None when its burn-down is not known), from the engine's snapshot ``runs`` and its
    burn-down charts; empty for any other game."""
    try:
        found = rules.snapshot(state).get("runs")
    except Exception:  # noqa: BLE001 - a summary never fails for its extras
        return []
    if not isinstance(found, list) or not found:
        return []
    left: dict[int, float] = {}
    draw = getattr(rules, "charts", None)
    for i, chart in enumerate(draw(state) if draw else (), start=1):
        points = chart.series[0][1] if getattr(chart, "series", None) else ()
        if points:
            left[i] = points[-1][1]
    out = []
    for run in found:
        n, start = run.get("number"), run.get("starting_tu")
        used = start - left[n] if isinstance(start, int) and n in left else None
        out.append({"number": n, "ending": RUN_ENDINGS.get(run.get("outcome"), "unfinished"),
                    "starting_tu": start, "used": used})
    return out


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


__all__ = ["RUN_ENDINGS", "SUMMARY_FORM", "key", "kept", "made_with", "runs"]
