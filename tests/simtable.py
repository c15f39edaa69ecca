"""Test harness: a simulated box for the venue tests and ``bench/venue.py``: a real game
log, real sessions and rules engines, a real publisher; only the players are made up
(seeded, so a run repeats).

A night is a list of games (score pad rounds, slap pad rounds with reaction times);
``step()`` plays the next action of the night through ``GameSession`` exactly as a
screen does (``do``, sometimes an ``undo`` and a new action, ``finish``), and returns
``(game_id, seq)`` of what the table just did, or None when the night is over.

    table = SimTable(folder, VenueConfig("127.0.0.1", port, "Café", "Table 1"),
                     box_id="0123abcd", games=3, seed=1)
    table.start()
    while table.step() is not None: ...
    table.stop()
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from companion.games import get_rules
from companion.session import GameSession
from companion.slap.verdict import decide
from companion.store.gamelog import GameLog
from companion.venue.outbox import OutboxHook
from companion.venue.publisher import Publisher
from companion.venue.settings import VenueConfig

NAMES = ("Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu")
MS = 1_000_000


class SimTable:
    def __init__(self, folder: Path, cfg: VenueConfig | None, box_id: str, *, games: int = 2,
                 actions: int = 12, seed: int = 0, **publisher_options) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "games.sqlite3"
        self.log = GameLog(self.path)
        self.rng = random.Random(seed)
        self.games, self.actions = games, actions
        self.box = box_id
        self.publisher = None
        if cfg is not None:
            self.publisher = Publisher(cfg, self.path, box_id, **publisher_options)
            self.log.outbox_hook = OutboxHook(wake=self.publisher.wake)
        self.finished: list[int] = []
        self._night = self._play()

    def start(self) -> None:
        if self.publisher is not None:
            self.publisher.start()

    def stop(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()
        self.log.close()

    def step(self) -> tuple[int, int] | None:
        return next(self._night, None)

    def play_game(self, kind: str, names: list[str], actions: list[dict],
                  finish: bool = True) -> GameSession:
        """One scripted game (tests): ``names`` sit at seats 1, 2, ...; finished unless
        ``finish`` is False (then it stays the table's live game)."""
        game = GameSession.start(self.log, get_rules(kind),
                                 {"players": [{"name": n, "seat": i}
                                              for i, n in enumerate(names, start=1)]})
        for action in actions:
            game.do(action)
        if finish:
            game.finish()
            self.finished.append(game.game_id)
        return game

    def _players(self) -> list[dict]:
        names = self.rng.sample(NAMES, self.rng.randint(2, 5))
        return [{"name": n, "seat": i} for i, n in enumerate(names, start=1)]

    def _play(self) -> Iterator[tuple[int, int]]:
        for n in range(self.games):
            slaps = n % 3 == 2  # every third game is a slap pad log, the others score pads
            kind = "stop_time" if slaps else "scorepad"
            game = GameSession.start(self.log, get_rules(kind), {"players": self._players()})
            seats = [p["seat"] for p in game.setup["players"]]
            for i in range(self.actions):
                action = self._slap_round(seats) if slaps else self._score(seats, i)
                game.do(action)
                yield game.game_id, len(game.actions)
                if self.rng.random() < 0.1:  # second thoughts: undo and play again
                    game.undo()
                    game.do(action)
                    yield game.game_id, len(game.actions)
            if not slaps:
                game.do({"type": "finish"})
                yield game.game_id, len(game.actions)
            game.finish()
            self.finished.append(game.game_id)
            yield game.game_id, len(game.actions)

    def _score(self, seats: list[int], i: int) -> dict:
        if i and i % 4 == 0:
            return {"type": "end_round"}
        return {"type": "score", "seat": self.rng.choice(seats), "points": self.rng.randint(0, 9)}

    def _slap_round(self, seats: list[int]) -> dict:
        times = {s: self.rng.randint(0, 600) * MS for s in seats}
        verdict = decide(times, seats, MS, "mock")
        picker = verdict.picker if verdict.picker is not None else verdict.candidates[0]
        return {"type": "slap_round", "verdict": verdict.to_facts(), "picker": picker,
                "decision": "verdict" if verdict.picker is not None else "table"}

    def expected(self) -> dict[int, dict]:
        """Every finished game as the venue must hold it: kind, setup and actions."""
        out = {}
        for gid in self.finished:
            row = self.log.game(gid)
            out[gid] = {"kind": row.kind, "setup": row.setup, "status": row.status,
                        "actions": [{"seq": s, "at": at, "action": a}
                                    for s, at, a in self.log.action_rows(gid)]}
        return out
