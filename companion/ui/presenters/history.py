"""Game-night history and statistics, as plain data for the history screen.

Every game in the log is summed up in one line from its replay (the log is the truth):
what was played, by whom, when, and how it ended. Across games: wins and games played
per player name, and slap reaction times (the delay after the first slap, from the slap
pad and Crazy Time's slap rounds).

A finished game never changes, so its outcome (winners, reaction times) is computed
once and kept in the game log (``GameLog.keep_summary``); it is computed again when the
engine's version, the form of the summary, or the game itself (finished again after a
reopen) differs from what it was made with. Open games are replayed each time, except
the one being played, whose state is already in memory.

    games = recent_summaries(log, 30, live=app.session)   # newest first
    table = win_table(games)
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError, LogError
from companion.games import get_rules, info
from companion.session import final_state
from companion.ui.presenters.home import title_of, when

log = logging.getLogger(__name__)

#: The form of a kept outcome; raise it when ``outcome_of`` changes what it keeps.
SUMMARY_FORM = 1


@dataclass(frozen=True)
class GameSummary:
    game_id: int
    kind: str
    title: str
    players: tuple[str, ...]
    started: str
    status: str
    actions: int
    winners: tuple[str, ...] = ()
    result: str = ""
    reactions: dict[str, tuple[float, ...]] = field(default_factory=dict)

    @property
    def line(self) -> str:
        who = ", ".join(self.players)
        return f"#{self.game_id} {self.title} ({self.started}): {who}. {self.result}"


def _names(snapshot: dict) -> dict[int, str]:
    return {int(p["seat"]): p["name"] for p in snapshot.get("players", [])
            if isinstance(p, dict) and "seat" in p}


def winners_of(kind: str, snapshot: dict) -> list[str]:
    """The names of whoever won, by each game's own record of it."""
    names = _names(snapshot)
    if kind == "time_stories":  # cooperative: the mission is won together or not at all
        return list(names.values()) if snapshot.get("mission_complete") else []
    if kind == "crazy_time":
        gm = snapshot.get("grand_master")
        seat = gm.get("seat") if isinstance(gm, dict) else gm
        return [names[seat]] if seat in names else []
    seats = snapshot.get("winners") or []
    return [names[int(s)] for s in seats if str(s).isdigit() and int(s) in names]


def reactions_of(kind: str, snapshot: dict) -> dict[str, tuple[float, ...]]:
    """Slap delays (ms after the first slap) per player name."""
    names = _names(snapshot)
    if kind == "stop_time":
        per_seat = {k: v.get("delays", []) for k, v in snapshot.get("reaction_ms", {}).items()}
    elif kind == "crazy_time":
        per_seat = snapshot.get("slap_delays", {})
    else:
        return {}
    return {names[int(s)]: tuple(float(x) for x in d)
            for s, d in per_seat.items() if d and int(s) in names}


def outcome_of(kind: str, snapshot: dict) -> dict[str, Any]:
    """What History keeps of a replayed game: its winners and slap delays (JSON data)."""
    return {"winners": winners_of(kind, snapshot),
            "reactions": {name: list(ds) for name, ds in reactions_of(kind, snapshot).items()}}


def summarise(row, snapshot: dict | None, error: str = "",
              outcome: dict[str, Any] | None = None) -> GameSummary:
    """One game from the log (``GameRow``) and the snapshot its replay gave (or the
    ``outcome_of`` that snapshot, as kept)."""
    players = tuple(p.get("name", "?") for p in row.setup.get("players", []))
    base = dict(game_id=row.id, kind=row.kind, title=title_of(row.kind), players=players,
                started=when(row.started_at), status=row.status, actions=row.n_actions)
    if snapshot is None and outcome is None:
        return GameSummary(**base, result=f"Cannot replay: {error}")
    if outcome is None:
        outcome = outcome_of(row.kind, snapshot)
    winners = tuple(outcome["winners"])
    if winners:
        result = ("Won by " if len(winners) == 1 else "Won together by ") + " and ".join(winners)
    elif row.status == "open":
        result = f"In progress ({row.n_actions} actions)"
    else:
        result = "Finished" if row.status == "finished" else "Abandoned"
    return GameSummary(**base, winners=winners, result=result,
                       reactions={name: tuple(ds) for name, ds in outcome["reactions"].items()})


def made_with(row) -> str:
    """What a kept outcome of ``row`` depends on: engine version, summary form, when the
    game was finished (a reopened game finished again is another game) and its length."""
    game = info(row.kind)
    return (f"{row.kind} v{game.version if game else '?'}/form {SUMMARY_FORM}/"
            f"{row.finished_at}/{row.n_actions}")


def recent_summaries(game_log, limit: int, live=None) -> list[GameSummary]:
    """The newest ``limit`` games of ``game_log``, newest first, summed up. Finished
    games use their kept outcome (computed and kept the first time); ``live`` is the
    session being played, whose state needs no replay."""
    rows = game_log.recent_games(limit)
    kept = game_log.summaries([r.id for r in rows if r.status != "open"])
    out = []
    for row in rows:
        key = made_with(row)
        if row.status != "open" and row.id in kept and kept[row.id][0] == key:
            out.append(summarise(row, None, outcome=kept[row.id][1]))
            continue
        try:
            if getattr(row, "damaged", None):
                raise LogError(row.damaged)
            rules = get_rules(row.kind)
            if live is not None and live.game_id == row.id:
                state = live.state
            else:
                state = final_state(rules, row.setup, game_log.iter_actions(row.id))
            outcome = outcome_of(row.kind, rules.snapshot(state))
        except CompanionError as exc:
            out.append(summarise(row, None, str(exc)))
            continue
        if row.status != "open":
            try:
                game_log.keep_summary(row.id, key, outcome)
            except CompanionError as exc:  # a full disk: History still shows it
                log.warning("could not keep the summary of game %s: %s", row.id, exc)
        out.append(summarise(row, None, outcome=outcome))
    return out


@dataclass(frozen=True)
class PlayerStats:
    name: str
    played: int
    won: int
    median_reaction_ms: float | None

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def win_table(games: Iterable[GameSummary]) -> list[PlayerStats]:
    """Per player name (case-insensitive): games played, won, median slap delay."""
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    delays: dict[str, list[float]] = {}
    shown: dict[str, str] = {}
    for g in games:
        if g.status == "abandoned":  # given up without a result: not a game played
            continue
        for name in g.players:
            key = name.lower()
            shown.setdefault(key, name)
            played[key] = played.get(key, 0) + 1
        for name in g.winners:
            won[name.lower()] = won.get(name.lower(), 0) + 1
        for name, ds in g.reactions.items():
            delays.setdefault(name.lower(), []).extend(ds)
    stats = [PlayerStats(shown[k], played[k], won.get(k, 0),
                         statistics.median(delays[k]) if delays.get(k) else None)
             for k in played]
    return sorted(stats, key=lambda s: (-s.won, -s.win_rate, s.name.lower()))


def describe_action(action: dict, names: dict[int, str]) -> str:
    """An action in a few words: "pickup: Dan (slap)", "score: Ann +3", "stay"."""
    words = str(action.get("type", "action")).replace("_", " ")
    seat = action.get("seat")
    who = names.get(seat) if isinstance(seat, int) else None
    details = []
    if who:
        details.append(who)
    for key in ("points", "delta"):
        if isinstance(action.get(key), int):
            details.append(f"{action[key]:+d}")
    for key in ("reason", "law", "name", "die", "year", "hour"):
        value = action.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            details.append(str(value).replace("_", " "))
    return f"{words}: " + ", ".join(details) if details else words


def score_sheet(summary: GameSummary, setup: dict, snapshot: dict | None,
                rows: list[tuple[int, str, dict]]) -> list[str]:
    """A game as a person reads it afterwards: who played, the totals where the game
    keeps them, the result, then every action with its time."""
    names = {int(p["seat"]): str(p.get("name", "?")) for p in setup.get("players", [])
             if isinstance(p, dict) and isinstance(p.get("seat"), int)}
    out = [f"{summary.title}, game #{summary.game_id}, started {summary.started}",
           "Players: " + ", ".join(f"{n} (seat {s})" for s, n in sorted(names.items())),
           summary.result]
    totals = (snapshot or {}).get("totals")
    if isinstance(totals, dict) and totals:
        out.append("Totals: " + ", ".join(f"{names.get(int(s), s)} {v}"
                                          for s, v in sorted(totals.items(),
                                                             key=lambda kv: -_num(kv[1]))))
    out.append(f"{len(rows)} actions:")
    for seq, at, action in rows:
        out.append(f"{seq}. {when(at)}  {describe_action(action, names)}")
    return out


def _num(value) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0
