"""What a box says about its games: the live state and the finished game (docs/venue.md).

``PayloadBuilder`` turns an outbox row into the message the publisher sends, reading
the game from the log (the truth) at send time. The live state needs the game replayed;
the builder keeps the last replay of each game and only applies the new actions, so a
long game costs one ``apply`` per message, not a replay (an undo replays once).

``live_view(outcome)`` is the few words and scores a venue page shows for a game in play,
from the engine's ``outcome`` (nothing here knows one game from another).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games import get_rules, title_of
from companion.games.base import Outcome
from companion.games.replay import as_raised as _as_raised
from companion.games.replay import final
from companion.venue.outbox import Outbox, OutboxRow, game_uid
from companion.venue.topics import VERSION


def live_view(outcome: Outcome) -> tuple[list[dict], str]:
    """``(players, line)`` from the engine's outcome: each player's name, seat and score
    (None when the game keeps none), and where the game stands."""
    players = [{"name": name[:40], "seat": seat, "score": outcome.scores.get(seat)}
               for seat, name in outcome.players]
    return players, outcome.status


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
                "game": row.game_id, "uid": game_uid(self.box, game), "rev": row.id,
                "kind": game.kind,
                "title": title_of(game.kind), "status": game.status,
                "started_at": game.started_at}

    def live(self, row: OutboxRow) -> dict:
        game = self.outbox.game(row.game_id)
        replay = self._replayed(row, game)
        outcome = replay.rules.outcome(replay.state)
        players, line = live_view(outcome)
        last = replay.last
        words = None
        if last is not None:
            names = {p["seat"]: p["name"] for p in players}
            words = str(last.get("type", "action")).replace("_", " ")
            if last.get("seat") in names:
                words += f" ({names[last['seat']]})"
        return {**self._head(row, "live", game), "seq": replay.seq, "players": players,
                "line": line, "last": words, "at": row.created_at,
                "winners": list(outcome.winner_names) if game.status != "open" else []}

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
