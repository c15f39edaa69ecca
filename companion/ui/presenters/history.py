"""Game-night history and statistics, as plain data for the history screen.

Every game in the log is summed up in one line from its replay (the log is the truth):
what was played, by whom, when, and how it ended. Across games: wins and games played
per player name, and slap reaction times (the delay after the first slap, from the slap
pad and Crazy Time's slap rounds).

Who won and the reaction times are the engine's answer (``rules.outcome(state)``), so
nothing here knows one game from another. A finished game never changes, so its outcome
(winners, reaction times) is kept in the game log when the session finishes it
(``companion.games.summary``), and an opening of History replays no finished game; a
game finished otherwise (an older log, the venue) is replayed once, at its first
summary, and kept then. A kept outcome is computed again when the engine's version, the
form of the summary, or the game itself (finished again after a reopen) differs from
what it was made with. Open games among the ``limit`` shown are replayed each time,
except the one being played, whose state is already in memory.

    games = recent_summaries(log, 30, live=app.session)   # newest first
    table = win_table(games)
    view = history_view(all_games, shown=30)              # what the screen shows
"""

from __future__ import annotations

import logging
import statistics
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError, LogError
from companion.export.bgstats import exported
from companion.games import get_rules, info, title_of
from companion.games.base import Outcome, listed
from companion.games.summary import kept, made_with
from companion.session import final_state, replay
from companion.stats import sections
from companion.ui.presenters.home import when

log = logging.getLogger(__name__)


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
    scores: dict[str, int] = field(default_factory=dict)
    runs: tuple[dict, ...] = ()
    note: str = ""

    @property
    def resumable(self) -> bool:
        """An open game, offered for resume (a tool's running log, the slap pad's, is
        open for good and is no game to resume)."""
        game = info(self.kind)
        return self.status == "open" and game is not None and game.on_home

    @property
    def line(self) -> str:
        who = ", ".join(self.players)
        note = f' Note: "{self.note}"' if self.note else ""
        return f"#{self.game_id} {self.title} ({self.started}): {who}. {self.result}{note}"


def summarise(row, outcome: Outcome | dict[str, Any] | None, error: str = "") -> GameSummary:
    """One game from the log (``GameRow``) and its engine's ``Outcome`` (or what was
    ``kept`` of it); with neither, the ``error`` that stopped its replay."""
    players = tuple(p.get("name", "?") for p in row.setup.get("players", []))
    base = dict(game_id=row.id, kind=row.kind, title=title_of(row.kind), players=players,
                started=when(row.started_at), status=row.status, actions=row.n_actions,
                note=getattr(row, "note", ""))
    if outcome is None:
        return GameSummary(**base, result=f"Cannot replay: {error}")
    if isinstance(outcome, Outcome):
        outcome = kept(outcome)
    winners = tuple(outcome["winners"])
    game = info(row.kind)
    if winners:
        together = game is not None and game.cooperative and len(winners) > 1
        result = ("Won together by " if together else "Won by ") + listed(winners)
    elif row.status == "open":
        result = f"In progress ({row.n_actions} actions)"
    else:
        result = "Finished" if row.status == "finished" else "Abandoned"
    scores = outcome.get("scores")
    runs = outcome.get("runs")
    return GameSummary(**base, winners=winners, result=result,
                       reactions={name: tuple(ds) for name, ds in outcome["reactions"].items()},
                       scores=dict(scores) if isinstance(scores, dict) else {},
                       runs=tuple(r for r in runs if isinstance(r, dict))
                       if isinstance(runs, list) else ())


def recent_summaries(game_log, limit: int, live=None) -> list[GameSummary]:
    """The newest ``limit`` games of ``game_log``, newest first, summed up (a game
    deleted from History is not among them). Finished games use their kept outcome
    (computed and kept the first time); ``live`` is the session being played, whose
    state needs no replay."""
    rows = shown_games(game_log, limit)
    stored = game_log.summaries([r.id for r in rows if r.status != "open"])
    out = []
    for row in rows:
        key = made_with(row)
        if row.status != "open" and row.id in stored and stored[row.id][0] == key:
            out.append(summarise(row, stored[row.id][1]))
            continue
        try:
            if getattr(row, "damaged", None):
                raise LogError(row.damaged)
            rules = get_rules(row.kind)
            if live is not None and live.game_id == row.id:
                state = live.state
            else:
                state = final_state(rules, row.setup, game_log.iter_actions(row.id))
            outcome = kept(rules.outcome(state), rules, state)
        except CompanionError as exc:
            out.append(summarise(row, None, str(exc)))
            continue
        if row.status != "open":
            try:
                game_log.keep_summary(row.id, key, outcome)
            except CompanionError as exc:  # a full disk: History still shows it
                log.warning("could not keep the summary of game %s: %s", row.id, exc)
        out.append(summarise(row, outcome))
    return out


def shown_games(game_log, limit: int) -> list:
    """The newest ``limit`` games History lists, newest first: every game in the log but
    those deleted from History (``GameLog.delete_game``: kept in the log, not shown)."""
    deleted = game_log.deleted_games()
    rows = game_log.recent_games(limit + len(deleted))
    return [r for r in rows if r.id not in deleted][:limit]


def delete_question(summary: GameSummary) -> str:
    """The confirmation before a game is deleted from History."""
    who = listed(summary.players) if summary.players else "nobody"
    still = " It is not finished: it will not be offered for resume." \
        if summary.status == "open" else ""
    return (f"Delete game #{summary.game_id}, {summary.title} with {who}, from History?"
            f"{still} It leaves the list, the statistics and the exports; the log keeps "
            "it as it was recorded.")


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


#: A statistics line at most (800x480, 22 px, half the screen); longer ones wrap.
STATS_LINE_CHARS = 30
#: A line of a game in History's list at most (800x480, 22 px; beside Resume, fewer).
GAME_LINE_CHARS, RESUMABLE_LINE_CHARS = 52, 40
#: Head-to-head lists the pairs with the most games together, up to this many.
PAIRS_SHOWN = 12


@dataclass(frozen=True)
class HistoryView:
    """What the History screen shows: ``games``, the list's lines (newest first: text,
    game id, whether it can be resumed); ``chart``, the wins chart's rows; ``stats``,
    the statistics page's lines (text, whether it is a section's title), empty when no
    section has data (the page is then not offered)."""

    games: tuple[dict, ...]
    chart: tuple[PlayerStats, ...]
    stats: tuple[dict, ...]


def game_item(g: GameSummary) -> dict:
    """A game's entry in the list: its lines, already wrapped at ``GAME_LINE_CHARS`` (so
    the screen knows each entry's height and shows only whole ones, ``paged``), the
    game's id, and whether it can be resumed."""
    width = RESUMABLE_LINE_CHARS if g.resumable else GAME_LINE_CHARS
    lines = textwrap.wrap(f"#{g.game_id} {g.title}, {g.started}", width)
    lines += textwrap.wrap(", ".join(g.players) or "nobody", width)
    lines += textwrap.wrap(g.result, width)
    if g.note:
        lines += textwrap.wrap(f'Note: "{g.note}"', width)
    return {"text": "\n".join(lines), "lines": len(lines), "game_id": g.game_id,
            "resumable": g.resumable}


def paged(heights: Sequence[float], room: float, gap: float = 0) -> list[tuple[int, int]]:
    """The list cut into pages of whole entries: ``(first, end)`` per page, each page's
    entries (``heights``, with ``gap`` between two) within ``room``; an entry taller
    than ``room`` has a page of its own. One empty page for no entries."""
    pages: list[tuple[int, int]] = []
    first, used = 0, 0.0
    for i, h in enumerate(heights):
        need = h if i == first else used + gap + h
        if i > first and need > room:
            pages.append((first, i))
            first, used = i, h
        else:
            used = need
    pages.append((first, len(heights)))
    return pages


def history_view(games: list[GameSummary], shown: int) -> HistoryView:
    """The screen from every game History knows (``recent_summaries``, newest first):
    the newest ``shown`` listed and charted, the statistics from all of them."""
    listed_games = games[:shown]
    lines: list[dict] = []
    for section in sections(games):
        body = section.lines
        if section.title.startswith("Head-to-head") and len(body) > PAIRS_SHOWN:
            body = (*body[:PAIRS_SHOWN], f"and {len(body) - PAIRS_SHOWN} more pairs")
        lines += [{"text": part, "heading": True}
                  for part in textwrap.wrap(section.title, STATS_LINE_CHARS)]
        for line in body:
            indent = " " * (len(line) - len(line.lstrip()))
            for part in textwrap.wrap(line.strip(), STATS_LINE_CHARS, initial_indent=indent,
                                      subsequent_indent=indent + "    "):
                lines.append({"text": part, "heading": False})
    return HistoryView(tuple(game_item(g) for g in listed_games),
                       tuple(win_table(listed_games)), tuple(lines))


def sentence_start(text: str) -> bool:
    """Whether the note's keyboard starts with a capital here: at the start of the note
    and after a sentence's end (". "), not at every word as for a name."""
    head = text.rstrip()
    return not head or (head[-1] in ".!?" and text != head)


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


#: A sheet's line at most (800x480, 24 px); a longer list takes one line per item.
SHEET_LINE_CHARS = 56


def _one_or_many(head: str, items: list[str]) -> list[str]:
    """"Totals: Bob 5, Ann 3" on one line when it is short; else "Totals:" and one item
    a line, so eight names of 20 letters are never cut."""
    line = f"{head}: " + ", ".join(items)
    return [line] if len(line) <= SHEET_LINE_CHARS else [f"{head}:", *(f"  {i}" for i in items)]


def score_sheet(summary: GameSummary, setup: dict, outcome: Outcome | None,
                rows: list[tuple[int, str, dict]]) -> list[str]:
    """A game as a person reads it afterwards: who played, the result, the totals where
    the game keeps points and where it stands (its ``outcome``, None when it does not
    replay), then every action with its time."""
    names = {int(p["seat"]): str(p.get("name", "?")) for p in setup.get("players", [])
             if isinstance(p, dict) and isinstance(p.get("seat"), int)}
    out = [f"{summary.title}, game #{summary.game_id}, started {summary.started}",
           *_one_or_many("Players", [f"{n} (seat {s})" for s, n in sorted(names.items())]),
           summary.result]
    if summary.note:
        out += textwrap.wrap(f"Note: {summary.note}", SHEET_LINE_CHARS,
                             subsequent_indent="  ")
    if outcome is not None and outcome.scores:
        out += _one_or_many("Totals", [f"{names.get(s, s)} {v}" for s, v in sorted(
            outcome.scores.items(), key=lambda kv: -kv[1])])
    if outcome is not None and outcome.status:
        out.append(outcome.status)
    out.append(f"{len(rows)} actions:")
    for seq, at, action in rows:
        out.append(f"{seq}. {when(at)}  {describe_action(action, names)}")
    return out



@dataclass(frozen=True)
class SheetView:
    """A game's sheet as History shows it: its ``lines``; whether it has a BG Stats code
    (a finished play) and takes a note (a closed game whose setup is sound); ``error``,
    why it did not replay ("" when it did)."""

    lines: tuple[str, ...]
    bgstats: bool
    note: bool
    error: str = ""


def sheet_view(game_log, summary: GameSummary) -> SheetView:
    """The sheet of ``summary``'s game from ``game_log``: replayed (its actions checked
    against their checksums) for its totals and where it stands."""
    row = game_log.game(summary.game_id)
    error = ""
    try:
        actions = game_log.action_rows(summary.game_id)
        rules = get_rules(row.kind)
        outcome = rules.outcome(replay(rules, row.setup, [a for _s, _t, a in actions])[-1])
    except CompanionError as exc:
        actions, outcome, error = [], None, f"Game {summary.game_id} cannot be replayed: {exc}"
    return SheetView(tuple(score_sheet(summary, row.setup, outcome, actions)),
                     outcome is not None and summary.status == "finished"
                     and exported(row.kind),
                     summary.status != "open" and not row.damaged, error)
