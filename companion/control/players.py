"""Player setup without Kivy: who sits where, who is in play, who begins, the name being
typed, and what Start does.

``PlayersControl`` holds the setup being made: one ``SeatRow`` per configured seat (the
name as typed, in or out), the seat that deals or plays first (for the games that ask),
the seat whose name is being typed on the screen's keyboard, and the problem last
refused. Each tap is a method that returns the ``PlayersView`` to show:

* ``name(seat, text)``, ``set_in(seat, on)``, ``press(seat)`` (a seat button puts that
  seat in play), ``next_first()``;
* ``type(seat)``, ``next_name()`` (the next seat's name; after the last: done),
  ``done()``, ``take_known(name)`` (a known player offered while typing: their name at
  this seat, in play, then the next name);
* ``start()``: the game begins (``app.start_game``) or the reason it cannot is said in
  red (``app.say(why, error=True)``). A problem refused stays tracked: once the names
  are edited, the notice showing it says the next problem, or goes once all is fixed
  (never left standing after the fix; a notice tapped away stays away).

Wiring (``companion/ui/screens/players.py``): built with the app as a port (it uses
``app.pending_game``, ``app.cfg``, ``app.log.known_players()``, ``app.say``,
``app.start_game``, ``app.banner_text``, ``app.banner.show`` and ``app.clear_banner``);
the screen calls ``open()`` on entering and shows every view it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games import DEFAULT_GAME, title_of
from companion.ui.presenters.players import (
    SeatRow,
    default_rows,
    first_choice,
    first_player,
    next_first,
    setup_from_rows,
    suggestions,
)

HINT = "Type names, tap In/Out, or press your seat button to join."
OFFERS = 3  # known players offered while a name is typed


@dataclass(frozen=True)
class PlayersView:
    heading: str
    rows: tuple[SeatRow, ...]
    message: str = HINT
    first_text: str = ""  # "Deals first: Ann" (empty: the game does not ask)
    editing: int | None = None  # the seat whose name is being typed
    offers: tuple[str, ...] = ()  # known players to take with one tap


class PlayersControl:
    """The setup being made (see the module docstring)."""

    def __init__(self, app) -> None:
        self.app = app
        self.kind = DEFAULT_GAME
        self.rows: list[SeatRow] = []
        self.known: list[str] = []
        self.first: int | None = None
        self.editing: int | None = None
        self.problem = ""  # the reason Start was refused, while it is not fixed

    # -- the view ------------------------------------------------------------------------

    def view(self) -> PlayersView:
        offers: tuple[str, ...] = ()
        if self.editing is not None:
            offers = tuple(suggestions(self.known, self.rows, self.editing,
                                       self._row(self.editing).name, limit=OFFERS))
        return PlayersView(f"Players: {title_of(self.kind)}", tuple(self.rows),
                           first_text=self._first_text(), editing=self.editing,
                           offers=offers)

    def _first_text(self) -> str:
        if self.first is None:
            return ""
        name = self._row(self.first).name.strip()
        return f"{first_player(self.kind)[1]}: {name or f'seat {self.first}'}"

    def _row(self, seat: int) -> SeatRow:
        return next(r for r in self.rows if r.seat == seat)

    # -- taps ----------------------------------------------------------------------------

    def open(self) -> PlayersView:
        """A new opening: the seats pre-filled with who last sat there."""
        self.kind = self.app.pending_game or DEFAULT_GAME
        known = self.app.log.known_players()
        self.known = [name for name, _seat in known]
        self.rows = default_rows(self.app.cfg, known)
        self.first, self.editing, self.problem = None, None, ""
        self.first = first_choice(self.kind, self.rows, None)
        return self.view()

    def name(self, seat: int, text: str) -> PlayersView:
        return self._set(seat, name=text)

    def set_in(self, seat: int, on: bool) -> PlayersView:
        return self._set(seat, in_play=on)

    def press(self, seat: int, pressed: bool = True) -> PlayersView:
        """A seat's own button: that seat joins (a release changes nothing)."""
        if not pressed or seat not in {r.seat for r in self.rows}:
            return self.view()
        return self.set_in(seat, True)

    def next_first(self) -> PlayersView:
        """"Deals first" / "Plays first": the next player in play takes it."""
        self.first = next_first(self.rows, self.first)
        return self.view()

    def type(self, seat: int) -> PlayersView:
        self.editing = seat
        return self.view()

    def next_name(self) -> PlayersView:
        seats = [r.seat for r in self.rows]
        i = seats.index(self.editing) if self.editing in seats else -1
        self.editing = seats[i + 1] if i + 1 < len(seats) else None
        return self.view()

    def done(self) -> PlayersView:
        self.editing = None
        return self.view()

    def take_known(self, name: str) -> PlayersView:
        if self.editing is None or not name:
            return self.view()
        self._set(self.editing, name=name, in_play=True)
        return self.next_name()

    def start(self) -> bool:
        setup, why = setup_from_rows(self.kind, self.rows, self.first)
        if setup is None:
            self.problem = why
            self.app.say(why, error=True)  # said once, in the notice area
            return False
        return bool(self.app.start_game(self.kind, setup))

    # -- what an edit changes --------------------------------------------------------------

    def _set(self, seat: int, **change) -> PlayersView:
        row = self._row(seat)
        new = replace(row, **change)
        if new != row:
            self.rows = [new if r.seat == seat else r for r in self.rows]
            self.first = first_choice(self.kind, self.rows, self.first)
            self._recheck()
        return self.view()

    def _recheck(self) -> None:
        """A problem refused goes once it is fixed (or says the next), in the notice
        that shows it; a notice tapped away is not brought back."""
        if not self.problem:
            return
        setup, why = setup_from_rows(self.kind, self.rows, self.first)
        if self.app.banner_text == self.problem:
            if setup is None:
                self.app.banner.show(why, "refusal")  # the next one, not again
            else:
                self.app.clear_banner()
        self.problem = why if setup is None else ""
