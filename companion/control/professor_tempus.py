"""Professor Tempus at the table, without a window: what a tap on its screen means.

The host enters each move (a kind, a holder, a colour, then the value, which plays the
card), each round's hourglasses at its end (+/− or typed on a pad, then "Score round"),
and may open the scores (the players strip) to correct an earlier round's count. This
controller holds every half-entered thing of that (``move``, each round's count,
``scores_open``, the round being corrected and its entries, the seat that pressed its
button), builds the actions from them and produces the ``PtView`` the screen shows (from
``companion.ui.presenters.professor_tempus``).

Wiring: the screen makes one with the app as its port (it uses ``app.session``,
``app.act(action) -> bool``, ``app.say(text, error=...)``, ``app.play(cue)`` and
``app.cfg.seat(n).colour``), passes each tap to it and shows ``view()``. What the session
did since the last view (an action, an undo, another game) is read from the session
itself (``changed``): a new step starts the move afresh in the colour chosen last; an undo
of "Score round" reopens the count as it was entered (counts are kept per round).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games import professor_tempus as pt
from companion.palette import rgba, text_rgba
from companion.ui import theme
from companion.ui.presenters import professor_tempus as view


@dataclass(frozen=True)
class PtView:
    """What the screen shows; each tuple is ``data`` for a box of views (dicts of their
    properties, ``key``: what a tap on it means, a method of the controller and its
    arguments)."""

    headline: str = "No game"
    seat: int = 0  # the seat on turn (0: nobody: no badge)
    colour: tuple = theme.WHITE  # the headline's and the badge's colour
    info: str = ""
    can_undo: bool = False
    page: str = ""  # "move", "count", "scores", "end" ("": no game)
    narrow: bool = False  # four or five players: a taller strip
    strip: tuple = ()
    holders: tuple = ()
    card: str = "red"  # the colour the value keys show
    values: tuple = ()  # 1-24 (25 opens the row of choices)
    choices: tuple = ()  # the kinds of move and the colours
    count: tuple = ()  # a row per player, then "Score round" or Cancel / "Save round N"
    cols: int = 2  # the scores table's columns
    table: tuple = ()
    rounds: tuple = ()  # a key per round that may be corrected
    rounds_caption: str = ""
    winners: str = ""


class ProfessorTempusControl:
    """One per screen; ``app`` is the port described in the module's docstring."""

    def __init__(self, app) -> None:
        self.app = app
        self.move = view.Move()
        self.counts: dict[int, dict[int, int]] = {}  # each round's count (view.count_key)
        self.scores_open = False
        self.fixing: int | None = None  # the round being corrected
        self.fix_entries: dict[int, int] = {}
        self.confirmed: int | None = None  # the seat on turn that pressed its button
        self._game = self._state = None
        self._steps = 0

    # -- the session -----------------------------------------------------------------------

    def state(self) -> pt.State | None:
        """The game's state, after taking in what the session did since last asked."""
        session = self.app.session
        if session is None or session.rules.NAME != pt.NAME:
            return None
        if session.game_id != self._game:  # another game: nothing half-entered is its
            self._game, self._steps, self._state = session.game_id, session.n_actions, None
            self.move, self.counts, self.confirmed = view.Move(), {}, None
            self.scores_open, self.fixing = False, None
        if session.state is not self._state:
            self.changed(undone=session.n_actions < self._steps)
        return self._state

    def changed(self, undone: bool) -> None:
        """The session applied a step (``undone``: it took one back): the move starts
        afresh for the player now on turn, in the colour chosen last; a round undone
        from the counted ones is no longer being corrected."""
        session = self.app.session
        state = self._state = session.state
        self._steps = session.n_actions
        view.keep(state, session.snapshot_of(state, None))
        self.move = view.fresh_move(state, self.move)
        self.confirmed = None
        if self.fixing is not None and (undone or self.fixing not in view.counted_rounds(state)):
            self.fixing = None

    def entered(self) -> None:
        """The screen shows again: the move entry or the count, not the scores."""
        self.scores_open, self.fixing = False, None

    # -- taps --------------------------------------------------------------------------------

    def press(self, seat: int, pressed: bool) -> bool:
        """A seat button: the player on turn is confirmed (their cell lights, the status
        bar says so); a press by anyone else, a release or out of play: nothing."""
        state = self.state()
        if state is None or not pressed or seat != view.turn_seat(state):
            return False
        self.confirmed = seat
        self.app.say(f"Yes, {view.name_of(state, seat)}: it is your turn")
        self.app.play("tap")
        return True

    def choose_mode(self, mode: str) -> None:
        state, holder = self.state(), self.move.holder
        if state is not None and holder is not None and (
                (state.holders[holder] is None) != mode.startswith("open")):
            holder = None  # a free holder is opened, a taken one played on
        self.move = self.move.but(mode=mode, holder=holder)

    def choose_holder(self, holder: int) -> None:
        self.state()  # (what the session did first: it may drop the choice)
        self.move = self.move.but(holder=holder)

    def choose_colour(self, colour: str) -> None:
        self.state()  # (what the session did first: it may drop the choice)
        self.move = self.move.in_colour(colour)

    def enter_value(self, value: int) -> bool:
        """Play the chosen card; a move not yet whole, or refused, is said why."""
        state = self.state()
        if state is None:
            return False
        action, reason = view.build_action(state, self.move, value)
        if action is None:
            self.app.say(reason, error=True)
            return False
        return self.app.act(action)

    @property
    def entries(self) -> dict[int, int]:
        """The hourglasses entered for the round being counted (none out of a count)."""
        state = self.state()
        return {} if state is None else view.count_entries(self.counts, state)

    def bump(self, seat: int, delta: int) -> None:
        """A count's − or + (of the round being corrected, if one is)."""
        state = self.state()
        if state is None:
            return
        if self.fixing is not None:
            limits = view.correction_limits(state, self.fixing)
            self.fix_entries = view.bump(self.fix_entries, limits, seat, delta)
        else:
            self.counts = view.bump_count(self.counts, state, seat, delta)

    def plus(self, seat: int) -> None:
        """"+": one more, or at the cap why not (3 hourglasses per collected card)."""
        row = self._row(seat)
        if row is None:
            return
        if row["can_plus"]:
            self.bump(seat, 1)
        else:
            self.app.say(row["why_not_plus"], error=True)

    def count_pad(self, seat: int) -> tuple[str, int, int] | None:
        """What a number pad asks to type ``seat``'s hourglasses: its title, the most and
        the count now; None (and why, said) for a player with nothing to count."""
        row = self._row(seat)
        if row is None:
            return None
        if not row["max"]:
            self.app.say(row["why_not_plus"], error=True)
            return None
        return f"Hourglasses for {row['name']} (0 to {row['max']})", row["max"], row["value"]

    def set_count(self, seat: int, value: int) -> None:
        """The number typed on the pad for ``seat``."""
        row = self._row(seat)
        if row is not None:
            self.bump(seat, value - row["value"])

    def score_round(self) -> bool:
        """Send the count (kept for its round: an undo of the score gives it back)."""
        state = self.state()
        if state is None or state.phase != "scoring":
            return False
        return self.app.act(view.score_action(state, self.entries))

    def toggle_scores(self) -> None:
        self.state()  # (what the session did first: it may drop the choice)
        self.scores_open, self.fixing = not self.scores_open, None

    def start_correction(self, number: int) -> None:
        state = self.state()
        if state is not None and number in view.counted_rounds(state):
            self.fixing = number
            self.fix_entries = view.correction_entries(state, number)

    def cancel_correction(self) -> None:
        self.state()  # (what the session did first: it may drop the choice)
        self.fixing = None

    def save_correction(self) -> bool:
        """Send the corrected count; back to the scores (the correction stays open if
        it is refused)."""
        state = self.state()
        if state is None or self.fixing is None:
            return False
        action = view.correct_action(state, self.fixing, self.fix_entries)
        number, self.fixing = self.fixing, None  # set first: the view after it shows so
        if self.app.act(action):
            return True
        self.fixing = number
        return False

    # -- the view ------------------------------------------------------------------------

    def _rows(self, state) -> list[dict]:
        if self.fixing is not None:
            return view.correction_rows(state, self.fixing, self.fix_entries)
        return view.score_rows(state, self.entries)

    def _row(self, seat: int) -> dict | None:
        state = self.state()
        if state is None:
            return None
        return next((r for r in self._rows(state) if r["seat"] == seat), None)

    def _colour(self, seat: int, text: bool = False) -> tuple:
        name = self.app.cfg.seat(seat).colour
        return text_rgba(name) if text else rgba(name)

    def view(self) -> PtView:
        """What the screen shows now (every page's data: a page shown again makes no
        widget)."""
        state = self.state()
        if state is None:
            return PtView()
        seat = view.turn_seat(state) or 0
        if self.fixing is not None:
            headline, info = f"Correct round {self.fixing}", view.round_title(state, self.fixing)
        else:
            headline = "Scores" if self.scores_open else view.turn_text(state)
            info = view.header(state)
        if self.fixing is not None or (state.phase == "scoring" and not self.scores_open):
            page = "count"
        elif self.scores_open:
            page = "scores"
        else:
            page = "move" if state.phase == "play" else "end"
        return PtView(
            headline=headline, seat=seat, info=info, page=page,
            colour=self._colour(seat, text=True) if seat else theme.WHITE,
            can_undo=self.app.session.can_undo, narrow=len(state.players) > 3,
            strip=tuple(self._strip(state)), winners=view.winners_text(state),
            **self._move(state), **self._count(state), **self._scores(state))

    def _strip(self, state):
        for p in view.players(state):
            yield {"seat": p["seat"], "colour": self._colour(p["seat"]), "name": p["name"],
                   "detail": p["detail"], "active": p["on_turn"],
                   "chosen": self.scores_open or p["seat"] == self.confirmed}

    def _move(self, state) -> dict:
        move, joker = self.move, self.move.colour == "joker"
        holders = tuple(
            {"key": ("choose_holder", h["holder"]), "held": h["text"], "then": h["next"],
             "owner": h["owner"] or 0, "selected": h["selected"], "off": not h["enabled"],
             "colour": self._colour(h["owner"]) if h["owner"] else theme.CLEAR}
            for h in view.holders(state, move))
        values = tuple({"text": str(v), "key": ("enter_value", v), "card": move.colour,
                        "disabled": joker and v % 2 == 0} for v in view.VALUES[:-1])
        choices = tuple({"text": text, "key": ("choose_mode", mode), "card": "",
                         "selected": move.mode == mode} for mode, text in view.MODES)
        choices += tuple({"text": text, "key": ("choose_colour", colour), "card": colour,
                          "selected": move.colour == colour} for colour, text in view.COLOURS)
        return {"holders": holders, "card": move.colour, "values": values, "choices": choices}

    def _count(self, state) -> dict:
        rows = tuple(
            {"viewclass": "PtCountRow", "seat": r["seat"], "colour": self._colour(r["seat"]),
             "text": r["text"], "detail": r["detail"], "can_minus": r["can_minus"],
             "can_plus": r["can_plus"]} for r in self._rows(state))
        end = {"viewclass": "PtCountEnd", "fixing": self.fixing or 0}
        return {"count": (*rows, end)}

    def _scores(self, state) -> dict:
        """The totals (count 1 / count 2 / total in the variant) under the seats' badges,
        and a key per counted round."""
        table = [{"viewclass": "PtCell", "text": "", "first": True, "total": False}]
        table += [{"viewclass": "PtBadgeCell", "seat": p.seat, "colour": self._colour(p.seat)}
                  for p in state.players]
        for line in view.score_table(state):
            total = line["label"] == "Total"
            table.append({"viewclass": "PtCell", "text": line["label"], "first": True,
                          "total": total})
            table += [{"viewclass": "PtCell", "text": str(line["values"][p.seat]),
                       "first": False, "total": total} for p in state.players]
        rounds = view.counted_rounds(state)
        return {"cols": 1 + len(state.players), "table": tuple(table),
                "rounds": tuple({"text": str(n), "key": ("start_correction", n)}
                                for n in rounds),
                "rounds_caption": "Correct a round:" if rounds else "No round counted yet"}
