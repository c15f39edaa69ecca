"""The slap pad tool's own game log, kept apart from any game in progress."""

from __future__ import annotations

from companion.errors import CompanionError
from companion.games import get_rules
from companion.session import GameSession


class ToolSessions:
    """The slap pad's own ``stop_time`` game, used when no Crazy Time game is in progress.
    Its players are named as the newest game in the log named them (``last_names``).

    The app knows one game in progress (``app.session``) and ``start_game`` jumps to a
    game screen, so this helper starts or continues the ``stop_time`` game itself and
    makes it ``app.session`` while the slap screen is shown (so ``app.act``/``app.undo``
    reach it); any other game in progress is put back when the screen is left.
    """

    def __init__(self) -> None:
        self.session: GameSession | None = None
        self.seats: tuple[int, ...] | None = None
        self._before, self._swapped = None, False

    def enter(self, app) -> tuple[int, ...]:
        """Find the slap pad's game (this one, or the newest open one in the log) and
        return the seats in play."""
        if app.session is not None and app.session.rules.GAME.screen_name == "slap":
            self.session = app.session
        elif self.session is None or app.log.game(self.session.game_id).status != "open":
            rows = [g for g in app.log.games("stop_time") if g.status == "open"]
            try:
                self.session = (GameSession.resume(app.log, rows[-1].id,
                                                   progress=app.keep_alive)
                                if rows else None)
            except CompanionError as exc:  # a log that no longer replays: start afresh
                app.say(f"Slap pad log {rows[-1].id} not continued: {exc}", error=True)
                self.session = None
        if self.session is not None:
            self._swap_in(app, self.session)
        if self.seats is None:
            self.seats = (tuple(p.seat for p in self.session.state.players) if self.session
                          else last_table(app))
        return self.seats

    def leave(self, app) -> None:
        if self._swapped:
            app.session, self._before, self._swapped = self._before, None, False

    def _swap_in(self, app, session: GameSession) -> None:
        if app.session is session:
            return
        if not self._swapped:
            self._before, self._swapped = app.session, True
        app.session = session

    def toggle(self, seat: int, cfg) -> tuple[int, ...]:
        """Take a seat in or out of play (two seats stay in at least)."""
        seats = set(self.seats or ())
        if seat in seats and len(seats) > 2:
            seats.discard(seat)
        elif seat in {s.seat for s in cfg.seats}:
            seats.add(seat)
        self.seats = tuple(sorted(seats))
        return self.seats

    def session_for(self, app, seats: tuple[int, ...]) -> GameSession | None:
        """The game to record a round in: this one, or a new one when the seats changed."""
        s = self.session
        if s is not None and tuple(p.seat for p in s.state.players) == seats:
            self._swap_in(app, s)
            return s
        names = last_names(app)
        try:
            new = GameSession.start(app.log, get_rules("stop_time"), {
                "players": [{"name": names.get(n) or f"Seat {n}", "seat": n} for n in seats]})
        except CompanionError as exc:
            app.say(str(exc), error=True)
            return None
        if s is not None:
            s.finish()  # the seats changed: that game is complete
        self.session = new
        self._swap_in(app, new)
        return new


def last_table(app) -> tuple[int, ...]:
    """The seats of the newest game in the log (the people at the table tonight), or
    every configured seat when there is none."""
    configured = [s.seat for s in app.cfg.seats]
    for row in reversed(app.log.games()):
        seats = tuple(sorted(p.get("seat") for p in row.setup.get("players", [])
                             if p.get("seat") in configured))
        if len(seats) >= 2:
            return seats
    return tuple(configured)


def last_names(app) -> dict[int, str]:
    """The players' names by seat at the table tonight: from the newest game in the log
    that named them (so the slap pad's own log names people as the games do)."""
    for row in reversed(app.log.games()):
        named = {p.get("seat"): p.get("name") for p in row.setup.get("players", [])
                 if isinstance(p.get("name"), str) and p.get("name")
                 and p.get("name") != f"Seat {p.get('seat')}"}
        if named:
            return named
    return {}



def record_round(app, rnd, for_game: bool, tools: ToolSessions) -> bool:
    """Log the decided ``rnd`` (a ``SlapRound``) through the session: a Crazy Time
    pick-up (``for_game``) or a round of the slap pad's own log. A correction of the
    recorded round first undoes that round, if it is still the latest action. What
    cannot be recorded yet, or is refused, is said; returns whether it was logged."""
    action = rnd.action(for_game=for_game)
    if isinstance(action, str):
        app.say(action, error=True)
        return False
    if rnd.correction is not None:
        session = app.session
        if session is None or (session.game_id, session.n_actions) != rnd.last.key:
            app.say("Other actions were recorded after that round: undo back to it first, "
                    "then record it again.", error=True)
            return False
        if not app.undo():
            return False
    if not for_game and tools.session_for(app, rnd.seats) is None:
        return False
    if not app.act(action):
        return False
    rnd.names = players_named(app)  # (a new log of the slap pad's names tonight's players)
    rnd.recorded((app.session.game_id, app.session.n_actions))
    return True


def recorded_rounds(app, for_game: bool, tools: ToolSessions) -> tuple:
    """The recorded rounds the slap screen lists (``RoundLine``s, newest first): the
    Crazy Time game's slap pick-ups (``for_game``), or the slap pad's own log's rounds."""
    from companion.slap import view as sv

    session = app.session if for_game else tools.session
    if session is None:
        return ()
    if for_game:  # its slap rounds are numbered among the pick-ups
        return tuple(sv.rounds_from_crazy_time(session.snapshot()))
    return tuple(sv.rounds_from_stop_time(session.snapshot(recent=sv.LAST_ROUNDS)))


def players_named(app) -> dict[int, str]:
    """The game in progress's players' names by seat, and for a seat it names by number
    only (the slap pad's own log, begun before anyone was named) tonight's name
    (``last_names``); a seat nobody named: none."""
    players = getattr(app.session.state, "players", ()) if app.session else ()
    named = {p.seat: p.name for p in players if p.name != f"Seat {p.seat}"}
    return {**last_names(app), **named}
