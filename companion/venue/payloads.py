"""What a box says about its games: the live state and the finished game (docs/venue.md).

``PayloadBuilder`` turns an outbox row into the message the publisher sends, reading
the game from the log (the truth) at send time. The live state needs the game replayed;
the builder keeps the last replay of each game and only applies the new actions, so a
long game costs one ``apply`` per message, not a replay (an undo replays once).

``live_view(kind, snapshot)`` is the few words and scores a venue page shows for a game
in play; it is pure and shared with the venue's score sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError
from companion.games import get_rules
from companion.games.replay import as_raised as _as_raised
from companion.games.replay import final
from companion.ui.presenters.history import winners_of
from companion.ui.presenters.home import title_of
from companion.venue.outbox import Outbox, OutboxRow
from companion.venue.topics import VERSION


def title(kind: str) -> str:
    """A game kind as people call it ('Slap pad' for stop_time)."""
    try:
        return str(get_rules(kind).TITLE)
    except CompanionError:
        return title_of(kind)


def scores_of(kind: str, snapshot: dict) -> dict[int, int]:
    """Points per seat where the game keeps points (score pad, Times, Professor Tempus)."""
    totals = snapshot.get("totals")
    if isinstance(totals, dict):
        return {int(s): int(v) for s, v in totals.items() if str(s).isdigit()
                and isinstance(v, int)}
    out = {}
    for p in snapshot.get("players", []):
        if isinstance(p, dict) and isinstance(p.get("score"), int) and "seat" in p:
            out[int(p["seat"])] = int(p["score"])
    return out


def line_of(kind: str, snapshot: dict) -> str:
    """Where the game stands, in a few words."""
    s = snapshot
    if kind == "time_stories":
        return f"Run {s.get('run')}: {s.get('tu')} TU left"
    if kind == "time_after_time":
        return f"{s.get('draw_pile')} cards in the draw pile"
    if kind == "stop_time":
        return f"{len(s.get('rounds', []))} slap rounds"
    if kind == "scorepad":
        return f"Round {len(s.get('rounds', [])) + 1}"
    if "round" in s:
        return f"Round {s.get('round')}"
    return ""


def live_view(kind: str, setup: dict, snapshot: dict) -> tuple[list[dict], str]:
    """``(players, line)``: each player's name, seat and score (None when the game keeps
    none), and where the game stands."""
    scores = scores_of(kind, snapshot)
    players = [{"name": str(p.get("name", "?"))[:40], "seat": int(p.get("seat", 0)),
                "score": scores.get(int(p.get("seat", 0)))}
               for p in setup.get("players", []) if isinstance(p, dict)]
    return players, line_of(kind, snapshot)


@dataclass
class _Replay:
    rev: int
    seq: int
    rules: Any
    state: Any
    last: dict | None


class PayloadBuilder:
    """Messages for one box: ``live(row)`` and ``result(row)`` (see docs/venue.md)."""

    def __init__(self, outbox: Outbox, box: str, table: str) -> None:
        self.outbox, self.box, self.table = outbox, box, table
        self._cache: dict[int, _Replay] = {}

    def _head(self, row: OutboxRow, kind: str, game) -> dict:
        return {"v": VERSION, "type": kind, "box": self.box, "table": self.table,
                "game": row.game_id, "rev": row.id, "kind": game.kind,
                "title": title(game.kind), "status": game.status,
                "started_at": game.started_at}

    def live(self, row: OutboxRow) -> dict:
        game = self.outbox.game(row.game_id)
        replay = self._replayed(row, game)
        try:
            snapshot = replay.rules.snapshot(replay.state)
        except CompanionError:
            snapshot = {}
        players, line = live_view(game.kind, game.setup, snapshot)
        last = replay.last
        words = None
        if last is not None:
            names = {p["seat"]: p["name"] for p in players}
            words = str(last.get("type", "action")).replace("_", " ")
            if last.get("seat") in names:
                words += f" ({names[last['seat']]})"
        return {**self._head(row, "live", game), "seq": replay.seq, "players": players,
                "line": line, "last": words, "at": row.created_at,
                "winners": winners_of(game.kind, snapshot) if game.status != "open" else []}

    def _replayed(self, row: OutboxRow, game) -> _Replay:
        cached = self._cache.get(row.game_id)
        if cached is None or self.outbox.newer_rewrite(row.game_id, cached.rev):
            rules = get_rules(game.kind)
            cached = _Replay(0, 0, rules, rules.initial(game.setup), None)
        for seq, _at, action in self.outbox.actions(row.game_id, cached.seq):
            cached.state = final(cached.rules, cached.state, (action,), refusal=_as_raised)
            cached.seq, cached.last = seq, action
        cached.rev = max(cached.rev, row.id)
        self._cache[row.game_id] = cached
        if game.status != "open":
            self._cache.pop(row.game_id, None)
        return cached

    def result(self, row: OutboxRow) -> dict:
        game = self.outbox.game(row.game_id)
        actions = [{"seq": seq, "at": at, "action": action}
                   for seq, at, action in self.outbox.actions(row.game_id)]
        status = game.status if game.status != "open" else row.event
        return {**self._head(row, "result", game), "status": status, "setup": game.setup,
                "finished_at": game.finished_at, "actions": actions}
