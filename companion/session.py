"""A game in progress: the rules engine, its log, and the state that replaying gives.

``GameSession`` is the one place where an action becomes real, in this order:

1. the rules engine computes the new state (a ``RuleError`` or ``MalformedAction``
   stops here: nothing is written, nothing changes);
2. the action is appended to the game log and committed;
3. only then does the session expose the new state to the screens.

Undo deletes the last action from the log and steps back to the state before it.
``resume`` rebuilds a session from the log by replaying every action, which is also
what happens after a power cut. When the rules say the game is over (an engine's
``is_over(state)``: a winner, a tie), the log marks it finished in the same transaction
as the action that ended it, so it is no longer offered for resume; undoing that action,
or a correction after the end, opens it again (in its own transaction too). A game
finished here has its outcome kept for History (``companion.games.summary``).

The session does not keep every state (a long night would keep n of them): it keeps a
checkpoint every ``CHECKPOINT_EVERY`` actions and the states since the last one. Undo
steps back within those; past them it replays from the checkpoint before, reading those
few actions back from the log. States share their histories (``PVec``), so a
checkpoint costs little more than the entries added since the one before.

    log = GameLog(path)
    game = GameSession.start(log, get_rules("scorepad"), {"players": [...]})
    game.do({"type": "score", "seat": 1, "points": 3})
    game.undo()
    again = GameSession.resume(log, game.game_id)
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from companion.errors import LogError, MalformedAction, RuleError
from companion.games import get_rules
from companion.games.base import Rules, is_over
from companion.games.replay import replay as replay_from
from companion.games.summary import kept, key
from companion.store.gamelog import GameLog, Keep, dumps, parse_stored

logger = logging.getLogger(__name__)

#: Actions between two kept states: undo replays at most this many actions.
CHECKPOINT_EVERY = 64
#: Actions between two calls of a resume's ``progress`` (the app pings its watchdog).
PROGRESS_EVERY = 2048
#: Entries of each growing list in the screens' snapshot (``GameSession.snapshot``).
SCREEN_RECENT = 64


def as_logged(action: Any) -> Any:
    """The action exactly as the game log stores and returns it (JSON round trip)."""
    return logged(action)[0]


def logged(action: Any) -> tuple[Any, str]:
    """``(the action as the log gives it back, its stored text)``: encoded once, then
    read back by the reader a replay uses (``parse_stored``)."""
    if not isinstance(action, dict):
        raise MalformedAction(f"an action must be an object, not {type(action).__name__}")
    text = dumps(action)
    return parse_stored(text, "the action"), text


def replay_states(rules: Rules, setup: dict,
                  actions: Iterable[dict]) -> Iterator[tuple[int, dict, Any]]:
    """``(i, action, state after it)`` for each action, from the initial state, through
    the one ``companion.games.replay.replay``. A stored action that the rules now reject
    (refused or malformed) is a ``LogError`` naming its position."""
    return replay_from(rules, rules.initial(setup), actions)


def final_state(rules: Rules, setup: dict, actions: Iterable[dict]) -> Any:
    """The state after every action (the initial one when there is none)."""
    last = None
    with gc_paused():
        for last in replay_states(rules, setup, actions):  # noqa: B007
            pass
    return rules.initial(setup) if last is None else last[2]


def replay(rules: Rules, setup: dict, actions: list[dict]) -> list[Any]:
    """Every state from the initial one through each action: ``len(actions) + 1`` states.
    For short games and tests; ``final_state`` keeps only the last one."""
    return [rules.initial(setup)] + [s for _, _, s in replay_states(rules, setup, actions)]


@contextmanager
def gc_paused():
    """Pause Python's cycle collector while a replay builds thousands of small objects.

    Parsed actions and engine states hold no reference cycles (they are freed as soon as
    nothing points at them), but each allocation burst wakes the collector, which walks
    every young object again: a third of a long resume. Pausing it changes no result."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


class GameSession:
    """One open game. Owned by the UI thread; not thread-safe on purpose."""

    def __init__(self, log: GameLog, rules: Rules, game_id: int, setup: dict,
                 actions: Iterable[dict] = (), *,
                 progress: Callable[[int], object] | None = None) -> None:
        """``actions``: the game's actions so far; ``progress(n)`` is called every
        ``PROGRESS_EVERY`` actions replayed."""
        self.log, self.rules, self.game_id, self.setup = log, rules, game_id, setup
        self._restart(rules.initial(setup))
        with gc_paused():
            for i, action, state in replay_states(rules, setup, actions):
                self._push(action, state)
                if progress is not None and not i % PROGRESS_EVERY:
                    progress(i)

    def _restart(self, initial: Any) -> None:
        self._n = 0
        # _marks[k] is the state after k * CHECKPOINT_EVERY actions; _tail holds
        # (action, state) for the actions after the last mark (1..CHECKPOINT_EVERY of
        # them once anything happened; fewer only after undo).
        self._marks: list[Any] = [initial]
        self._tail: list[tuple[dict, Any]] = []
        #: per ``recent``, the last two snapshots made, newest first: (state, snapshot)
        self._snaps: dict[int | None, list[tuple[Any, dict]]] = {}  # see ``snapshot_of``

    def _push(self, action: dict, state: Any) -> None:
        if len(self._tail) == CHECKPOINT_EVERY:
            self._marks.append(self._tail[-1][1])
            self._tail = []
        self._tail.append((action, state))
        self._n += 1

    @classmethod
    def start(cls, log: GameLog, rules: Rules, setup: dict) -> GameSession:
        rules.initial(setup)  # a bad setup is refused before anything is written
        game_id = log.new_game(rules.NAME, setup)
        return cls(log, rules, game_id, setup)

    @classmethod
    def resume(cls, log: GameLog, game_id: int,
               progress: Callable[[int], object] | None = None) -> GameSession:
        """The game as its log replays, read row by row (only the newest actions stay in
        memory; the state holds the rest). ``progress(n)``: called every
        ``PROGRESS_EVERY`` actions, so the app can tell its watchdog it is alive while a
        huge log replays (a game of 200,000 actions takes seconds, more on a Pi)."""
        row = log.game(game_id)
        if getattr(row, "damaged", None):
            raise LogError(row.damaged)
        return cls(log, get_rules(row.kind), game_id, row.setup, log.iter_actions(game_id),
                   progress=progress)

    @property
    def state(self) -> Any:
        return self._tail[-1][1] if self._tail else self._marks[-1]

    @property
    def n_actions(self) -> int:
        return self._n

    @property
    def actions(self) -> list[dict]:
        """Every action so far, as the log holds them (read back from it)."""
        return self.log.actions(self.game_id)

    @property
    def last_action(self) -> dict | None:
        """The action undo would remove (None at the start of the game): from the recent
        states when they hold it, else the one row read back from the log."""
        if self._tail:
            return self._tail[-1][0]
        if not self._n:
            return None
        return next(self.log.iter_actions(self.game_id, self._n - 1, self._n))

    @property
    def can_undo(self) -> bool:
        return self._n > 0

    def do(self, action: dict) -> Any:
        """Apply, log, then show. Raises RuleError (nothing logged) for an illegal action,
        MalformedAction for one that is not well formed.

        The action is applied as the log will give it back (plain JSON: lists, not
        tuples), so the live state is exactly what a replay produces.
        """
        action, text = logged(action)
        new_state = self.rules.apply(self.state, action)
        # a correction after the end opens the game again; an action that ends it by the
        # rules closes it: either in the action's own transaction
        over = is_over(self.rules, new_state)
        self.log.append(self.game_id, action, text=text, reopen=is_over(self.rules, self.state),
                        finish=over, keep=self._keeper(new_state) if over else None)
        self._push(action, new_state)
        return new_state

    def undo(self) -> dict:
        """Remove the last action; returns it. RuleError when there is nothing to undo."""
        if not self._n:
            raise RuleError("session.nothing_to_undo", "Nothing to undo: this is the start of "
                            "the game.")
        if not self._tail:
            self._refill_tail()
        # the rules ended it: it opens again with the undo, in one transaction
        removed = self.log.undo(self.game_id, reopen=is_over(self.rules, self.state))
        if removed != self._tail[-1][0]:
            raise LogError("the game log and the screen disagree; restart to replay the log")
        self._tail.pop()
        self._n -= 1
        return removed

    def _refill_tail(self) -> None:
        """Step back over a checkpoint: replay the actions after the one before it."""
        self._marks.pop()  # the state now showing; rebuilt below as the tail's last
        base = (len(self._marks) - 1) * CHECKPOINT_EVERY
        tail = [(action, state) for _, action, state in replay_from(
            self.rules, self._marks[-1], self.log.iter_actions(self.game_id, base, self._n),
            start=base + 1)]
        if len(tail) != self._n - base:
            raise LogError("the game log and the screen disagree; restart to replay the log")
        self._tail = tail

    def amend_setup(self, setup: dict) -> Any:
        """Change the setup while nothing has happened yet (checked by the rules first)."""
        if self._n:
            raise RuleError("session.setup_fixed", "The game has begun: its setup can no "
                            "longer change.")
        initial = self.rules.initial(setup)
        self.log.amend_setup(self.game_id, setup)
        self.setup = setup
        self._restart(initial)
        return initial

    def finish(self, status: str = "finished") -> None:
        """Close the game in the log. A game the rules already closed (``is_over`` marks
        it finished in ``do``) is not closed a second time: its log, and the venue's
        outbox, hold one "finished" for it."""
        if status == "finished" and is_over(self.rules, self.state) \
                and self.log.game(self.game_id).status == "finished":
            return
        self.log.finish(self.game_id, status, keep=self._keeper(self.state))

    def _keeper(self, state: Any) -> Keep | None:
        """History's summary of the game closed at ``state`` (``companion.games.summary``),
        for the log to keep in the closing transaction: no opening of History then
        replays this game. An engine whose ``outcome`` fails never stops a game from
        closing: nothing is kept (History replays it, and says what is wrong)."""
        try:
            what = kept(self.rules.outcome(state), self.rules, state)
        except Exception:  # noqa: BLE001 - the close matters more than its summary
            logger.exception("game %s: its outcome for History failed", self.game_id)
            return None
        return lambda finished_at, n: (key(self.rules.NAME, finished_at, n), what)

    def snapshot(self, recent: int | None = SCREEN_RECENT) -> dict:
        """The screens' picture of the state: each growing list (time log, rounds,
        pick-ups) holds its newest ``recent`` entries, so drawing a screen costs the
        same at the end of a long night as at its start. ``recent=None``: everything
        (what export and statistics use).

        Kept for the state it was made of: a screen's refresh asks for it several
        times (each part of a screen draws from it), the engine computes it once per
        state. It is the screens' to read, never to change. A new state (``do``, a
        new setup, a resume) makes a new one; an undo shows the one kept before."""
        return self.snapshot_of(self.state, recent)

    def snapshot_of(self, state: Any, recent: int | None = SCREEN_RECENT) -> dict:
        """``snapshot`` of ``state``, this one or another: the last two made of each
        ``recent`` are kept, so the state before the last action (what the spoken line
        compares the new one with, what an undo shows again) is not made a second time.
        States never change once made (undo steps back to them), so a state's snapshot
        stays its own."""
        made = self._snaps.get(recent, ())
        for made_of, snap in made:
            if made_of is state:
                return snap
        snap = self.rules.snapshot(state, recent=recent)
        self._snaps[recent] = [(state, snap), *made[:1]]
        return snap
