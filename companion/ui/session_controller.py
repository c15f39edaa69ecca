"""The game at the table, without a window: what starting, acting, undoing and ending do.

``SessionController`` owns the open game (a ``companion.session.GameSession``) and every
step taken on it: start, resume, act, amend the setup, undo, end, abandon, and leaving a
game when the table goes home. It words each refusal as a sentence (the rule's own,
``RuleError.sentence``), describes an action for the Undo label and the status line, and
has the line the table hears about an action said (the engine's ``spoken()``, through
``presenters/spoken_games.py``). It imports no Kivy: what a tap means is tested here
with a real game log and a recording front (``tests/ui/test_session_controller.py``),
no window needed.

It shows nothing and plays nothing itself. Everything the table sees or hears goes to
its *front* (``Front`` below: in the app, ``CompanionApp`` itself), in the order the
table must meet it:

* a recorded action: ``clear_banner()``, ``play(cue)``, ``refresh()``, ``speak(line)``;
* an undo: ``clear_banner()``, ``say("Undone: …")``, ``refresh()``;
* a refusal: ``refuse(sentence, exc)`` and nothing recorded (``exc`` is the
  ``CompanionError`` behind it, so the app can cover the screen for a failing SD card;
  None for a bug in the screen that built the action, logged with its traceback).

Navigation, overlays and the frame loop stay in the app, which asks the controller and
then moves (``start_game`` shows the game's screen once ``start`` returned True).

    controller = SessionController(game_log, front, keep_alive=ping_watchdog)
    if controller.start("scorepad", {"players": [...]}):
        controller.act({"type": "score", "seat": 1, "points": 3})
        controller.undo_label()      # "Undo: score (Ann)"
        controller.undo()
        controller.end()
    SessionController(game_log, front).resume(game_id)   # after a power cut
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from companion.errors import CompanionError, MalformedAction
from companion.games import get_rules
from companion.games.base import is_over
from companion.session import GameSession
from companion.speech import Line
from companion.store.gamelog import GameLog
from companion.ui.presenters.spoken_games import action_line

log = logging.getLogger(__name__)


class Front(Protocol):
    """What the controller needs from whatever shows the game (the app; a recorder in
    tests). Each call returns at once."""

    def play(self, cue: str) -> None:
        """A sound cue from ``companion.sound.CUES``."""

    def speak(self, line: Line | None) -> None:
        """A line for the table to hear (None: nothing to say)."""

    def say(self, text: str) -> None:
        """A line in the status bar (not a refusal)."""

    def refuse(self, sentence: str, exc: CompanionError | None = None) -> None:
        """A step was refused and nothing was recorded: show ``sentence`` where the table
        looks. ``exc``: the error behind it (a failing SD card is shown full-screen)."""

    def clear_banner(self) -> None:
        """A step was recorded: a refusal shown before it no longer applies."""

    def refresh(self) -> None:
        """The game's state changed: the screen and the Undo label show it."""


def describe(action: dict, setup: dict) -> str:
    """An action in a few words for the status line: 'pickup (Dan)', 'score (Ann)'."""
    words = str(action.get("type", "action")).replace("_", " ")
    names = {p.get("seat"): p.get("name") for p in setup.get("players", [])}
    seat = action.get("seat")
    return f"{words} ({names[seat]})" if seat in names else words


class SessionController:
    """The one open game and every step on it. Owned by the UI thread, like the session.

    ``game_log``: where games are kept; ``front``: where what happens is shown and
    heard; ``keep_alive(n)``: called while a long game replays on resume (the app pings
    its watchdog there)."""

    def __init__(self, game_log: GameLog, front: Front,
                 keep_alive: Callable[[int], object] | None = None) -> None:
        self.log, self.front, self.keep_alive = game_log, front, keep_alive
        #: The game in progress (None: none). Tools may swap in their own for a while
        #: (``slap_sessions.ToolSessions``).
        self.session: GameSession | None = None
        #: The game the player setup is for (chosen on the home screen).
        self.pending_game: str | None = None

    # -- opening and closing -------------------------------------------------------------

    def start(self, kind: str, setup: dict) -> bool:
        """A new game of ``kind`` with ``setup``; False (refused, nothing kept) for a
        setup its rules refuse or a log that cannot be written."""
        try:
            self.session = GameSession.start(self.log, get_rules(kind), setup)
        except CompanionError as exc:
            self.front.refuse(str(exc), exc)
            return False
        return True

    def resume(self, game_id: int) -> bool:
        """The open game ``game_id`` as its log replays (after a power cut too)."""
        try:
            self.session = GameSession.resume(self.log, game_id, progress=self.keep_alive)
        except CompanionError as exc:
            self.front.refuse(f"Cannot resume game {game_id}: {exc}", exc)
            return False
        return True

    @property
    def over(self) -> bool:
        """Whether the game in progress has been ended by its rules (a winner, a tie)."""
        return self.session is not None and is_over(self.session.rules, self.session.state)

    def end(self, status: str = "finished") -> None:
        """Close the game in progress: it is no longer offered for resume."""
        if self.session is not None:
            self.session.finish(status)
            self.session = None

    def abandon(self, game_id: int) -> bool:
        """Close an open game for good without a result ("abandoned": not counted)."""
        try:
            self.log.finish(game_id, "abandoned")
        except CompanionError as exc:
            self.front.refuse(str(exc), exc)
            return False
        if self.session is not None and self.session.game_id == game_id:
            self.session = None
        return True

    def leave(self) -> None:
        """The table goes home: a game nobody played yet leaves no trace (a setup backed
        out of), and a game that is over is closed, so neither is offered for resume."""
        session = self.session
        if session is None:
            return
        try:
            if not session.n_actions:
                self.log.delete_untouched(session.game_id)
                self.session = None
            elif is_over(session.rules, session.state):
                session.finish("finished")
                self.session = None
        except CompanionError as exc:
            self.front.refuse(str(exc), exc)

    # -- steps ---------------------------------------------------------------------------

    def act(self, action: dict, cue: str | None = "tap") -> bool:
        """Apply an action to the game in progress: logged first, then shown.

        A recorded action is confirmed with ``cue`` (None for screens that play their
        own) and what the table should hear about it is spoken; a refused one is the rule's
        own sentence, and nothing is recorded."""
        session = self.session
        if session is None:
            self.front.refuse("No game in progress")
            return False
        before = session.state
        try:
            session.do(action)
        except MalformedAction as exc:  # a bug in the screen that built it: keep the trace
            log.error("malformed action %r", action, exc_info=exc)
            self.front.refuse(f"That could not be recorded ({exc}).")
            return False
        except CompanionError as exc:  # a refusal: the rule's own sentence
            self.front.refuse(str(exc), exc)
            return False
        self.front.clear_banner()
        if cue:
            self.front.play(cue)
        self.front.refresh()
        self.front.speak(self.spoken(before, action))
        return True

    def spoken(self, before: Any, action: dict) -> Line | None:
        """What the table hears about ``action`` taken at state ``before`` (None: nothing,
        or no line could be made: a sentence never costs the table its action)."""
        session = self.session
        try:
            return action_line(session.rules, before, action, session.state,
                               snapshot=session.snapshot_of)
        except Exception:  # noqa: BLE001 - a sentence must never cost the table its action
            log.exception("no spoken line for %r", action.get("type"))
            return None

    def amend_setup(self, setup: dict) -> bool:
        """Change the game's setup before anything has happened (a setup screen)."""
        if self.session is None:
            return False
        try:
            self.session.amend_setup(setup)
        except CompanionError as exc:
            self.front.refuse(str(exc), exc)
            return False
        return True

    def undo(self) -> bool:
        """Take back the last action (said in the status line: "Undone: score (Ann)")."""
        if self.session is None:
            return False
        try:
            removed = self.session.undo()
        except CompanionError as exc:
            self.front.refuse(str(exc), exc)
            return False
        self.front.clear_banner()
        self.front.say(f"Undone: {describe(removed, self.session.setup)}")
        self.front.refresh()
        return True

    def undo_label(self) -> str:
        """The Undo button's words: what it would take back ("Undo: pickup (Dan)")."""
        session = self.session
        if session is None or not session.can_undo:
            return "Undo"
        return f"Undo: {describe(session.last_action, session.setup)}"
