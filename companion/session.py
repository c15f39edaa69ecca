"""A game in progress: the rules engine, its log, and the state that replaying gives.

``GameSession`` is the one place where an action becomes real, in this order:

1. the rules engine computes the new state (a ``RuleError`` stops here: nothing is
   written, nothing changes);
2. the action is appended to the game log and committed;
3. only then does the session expose the new state to the screens.

Undo deletes the last action from the log and steps back to the state before it.
``resume`` rebuilds a session from the log by replaying every action, which is also
what happens after a power cut. When the rules say the game is over (an engine's
``is_over(state)``: a winner, a tie), the log marks it finished at once, so it is no
longer offered for resume; undoing the action that ended it opens it again.

    log = GameLog(path)
    game = GameSession.start(log, get_rules("scorepad"), {"players": [...]})
    game.do({"type": "score", "seat": 1, "points": 3})
    game.undo()
    again = GameSession.resume(log, game.game_id)
"""

from __future__ import annotations

import json
from typing import Any

from companion.errors import LogError, MalformedAction, RuleError
from companion.games import get_rules
from companion.games.base import Rules, is_over
from companion.store.gamelog import GameLog, dumps


def as_logged(action: Any) -> Any:
    """The action exactly as the game log stores and returns it (JSON round trip)."""
    if not isinstance(action, dict):
        raise MalformedAction(f"an action must be an object, not {type(action).__name__}")
    return json.loads(dumps(action))


def replay(rules: Rules, setup: dict, actions: list[dict]) -> list[Any]:
    """Every state from the initial one through each action: ``len(actions) + 1`` states.

    A stored action that the rules now reject (refused or malformed) is a ``LogError``
    naming its position.
    """
    states = [rules.initial(setup)]
    for i, action in enumerate(actions, start=1):
        try:
            states.append(rules.apply(states[-1], action))
        except (RuleError, MalformedAction) as exc:
            raise LogError(f"action {i} ({action.get('type')!r}) does not replay: {exc}") from exc
    return states


class GameSession:
    """One open game. Owned by the UI thread; not thread-safe on purpose."""

    def __init__(self, log: GameLog, rules: Rules, game_id: int, setup: dict,
                 actions: list[dict]) -> None:
        self.log, self.rules, self.game_id, self.setup = log, rules, game_id, setup
        self._actions = list(actions)
        self._states = replay(rules, setup, self._actions)

    @classmethod
    def start(cls, log: GameLog, rules: Rules, setup: dict) -> GameSession:
        rules.initial(setup)  # a bad setup is refused before anything is written
        game_id = log.new_game(rules.NAME, setup)
        return cls(log, rules, game_id, setup, [])

    @classmethod
    def resume(cls, log: GameLog, game_id: int) -> GameSession:
        row = log.game(game_id)
        return cls(log, get_rules(row.kind), game_id, row.setup, log.actions(game_id))

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def actions(self) -> list[dict]:
        return list(self._actions)

    @property
    def can_undo(self) -> bool:
        return bool(self._actions)

    def do(self, action: dict) -> Any:
        """Apply, log, then show. Raises RuleError (nothing logged) for an illegal action,
        MalformedAction for one that is not well formed.

        The action is applied as the log will give it back (plain JSON: lists, not
        tuples), so the live state is exactly what a replay produces.
        """
        action = as_logged(action)
        new_state = self.rules.apply(self.state, action)
        if is_over(self.rules, self.state):  # a correction after the end: open it again
            self.log.finish(self.game_id, "open")
        self.log.append(self.game_id, action)
        self._actions.append(action)
        self._states.append(new_state)
        if is_over(self.rules, new_state):
            self.log.finish(self.game_id, "finished")
        return new_state

    def undo(self) -> dict:
        """Remove the last action; returns it. RuleError when there is nothing to undo."""
        if not self._actions:
            raise RuleError("session.nothing_to_undo", "Nothing to undo: this is the start of "
                            "the game.")
        if is_over(self.rules, self.state):  # the rules ended it: open it again first
            self.log.finish(self.game_id, "open")
        removed = self.log.undo(self.game_id)
        if removed != self._actions[-1]:
            raise LogError("the game log and the screen disagree; restart to replay the log")
        self._actions.pop()
        self._states.pop()
        return removed

    def amend_setup(self, setup: dict) -> Any:
        """Change the setup while nothing has happened yet (checked by the rules first)."""
        if self._actions:
            raise RuleError("session.setup_fixed", "The game has begun: its setup can no "
                            "longer change.")
        initial = self.rules.initial(setup)
        self.log.amend_setup(self.game_id, setup)
        self.setup, self._states = setup, [initial]
        return initial

    def finish(self, status: str = "finished") -> None:
        """Close the game in the log; a game its rules ended is finished already."""
        if status == "finished" and is_over(self.rules, self.state):
            return
        self.log.finish(self.game_id, status)

    def snapshot(self) -> dict:
        return self.rules.snapshot(self.state)
