"""Time After Time at the table, without a window: what a tap on its screen means.

The host records what happens: a player (their name or their seat button), the hour
drawn, a slot (a green one places the card); ghosts, the draw pile, discards, the
emergency move of a stuck row (cards lifted and put down beside, then confirmed), "Hand
empty" once the pile is gone, and the answer to the ghost question (the asked player's
own seat button is yes, "No ghost" is no). This controller holds the half-entered choice
(``pick``: ``companion.ui.presenters.time_after_time.Pick``) and, with four players,
whether the hour pad lies over the rows (``pad_open``); it builds the actions and
produces the ``TatView`` the screen shows.

Wiring: the screen makes one with the app as its port (``app.session``,
``app.act(action) -> bool``, ``app.say(text, error=...)``, ``app.cfg.seat(n).colour``,
``app.table.lamps``), passes each tap and seat press to it and shows ``view()``. What
the session did since the last view is read from the session itself (``changed``): an
undo drops whatever was half-chosen (no hour stays picked for a card the undo took
back); the asked player's lamp is lit while the ghost question is open.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games import time_after_time as tat
from companion.palette import rgba
from companion.ui.presenters import time_after_time as view

CONTROLS = ("ghost_plus", "ghost_minus", "draw", "discard", "emergency", "hand_empty")


@dataclass(frozen=True)
class TatView:
    """What the screen shows. ``rows``, ``hours`` and ``pad`` are ``data`` for boxes of
    views (dicts of their properties; ``key``: what a tap means, a method of the
    controller and its arguments; ``off``: a key or slot that takes no tap now); ``off``:
    the bar's buttons that take none."""

    heading: str = ""
    prompt: str = "No game"
    question: str = ""  # the ghost question ("" when none is open)
    no_label: str = ""
    result: str = ""
    band: str = "hours"  # "hours", "emergency", "over" or "ask"
    hour_pad: bool = False  # four players: the hour on the pad over the rows
    pad_shown: bool = False
    pile_out: bool = False  # "Hand empty" instead of "Pile −1"
    can_undo: bool = False
    rows: tuple = ()
    hours: tuple = ()
    pad: tuple = ()
    off: frozenset = frozenset(CONTROLS + ("confirm",))


class TimeAfterTimeControl:
    """One per screen; ``app`` is the port described in the module's docstring."""

    def __init__(self, app) -> None:
        self.app = app
        self.pick = view.Pick()
        self.pad_open = False  # four players: a player chosen, their hour not yet
        self._game = self._state = self._lamp = None
        self._steps = 0

    # -- the session ---------------------------------------------------------------------

    def state(self) -> tat.State | None:
        """The game's state, after taking in what the session did since last asked."""
        session = self.app.session
        if session is None or session.rules.NAME != tat.NAME:
            return None
        if session.game_id != self._game:  # another game: nothing chosen for it yet
            self._game, self._steps, self._state = session.game_id, session.n_actions, None
            self.pick, self.pad_open = view.Pick(), False
        if session.state is not self._state:
            self.changed(undone=session.n_actions < self._steps)
        return self._state

    def changed(self, undone: bool) -> None:
        """The session applied a step (``undone``: took one back). After an undo nothing
        stays chosen: the hour and the row were picked for the game before it. An
        emergency move whose row is no longer stuck closes. The asked player's lamp
        follows the ghost question."""
        session = self.app.session
        state = self._state = session.state
        self._steps = session.n_actions
        if undone:
            self.pick, self.pad_open = view.after_undo(self.pick), False
        if self.pick.emergency and not view.is_stuck(state, self.pick.seat):
            self.pick = view.cancel_emergency(self.pick)
        self._light(state.asking if not state.over else None)

    def _light(self, seat: int | None) -> None:
        if seat != self._lamp:
            self.app.table.lamps.all_off()
            if seat is not None:
                self.app.table.lamps.on(seat)
            self._lamp = seat

    def entered(self) -> None:
        """The screen shows again: nothing chosen, the pad closed."""
        self.pick, self.pad_open, self._lamp = view.Pick(), False, None
        state = self.state()
        if state is not None:
            self._light(state.asking if not state.over else None)

    def left(self) -> None:
        """The screen is left: the asked player's lamp goes out."""
        self._light(None)

    # -- taps ----------------------------------------------------------------------------

    def press(self, seat: int, pressed: bool) -> bool:
        """A seat button: while the ghost question waits, the asked player's own button
        answers yes (anyone else's does nothing); otherwise it chooses that player's row,
        as a tap on the name. Nothing during an emergency move, nor for a release."""
        state = self.state()
        if state is None or not pressed or self.pick.emergency:
            return False
        if state.asking is not None and not state.over:
            action = view.yes_action(state, seat)
            if action is None or not self.app.act(action):
                return False
            self.app.say(f"{view.asked_name(state)} plays on")
            return True
        if not any(s.player.seat == seat for s in state.seats):
            return False
        self.choose_seat(seat)
        return True

    def choose_seat(self, seat: int) -> None:
        """That player's row is chosen (four players: the hour pad opens for them)."""
        self.state()  # (what the session did first: it may drop the choice)
        self.pick = self.pick.with_seat(seat)
        self.pad_open = not self.pick.emergency

    def choose_hour(self, hour: int) -> None:
        """The hour drawn (tapped again: none); an hour picked closes the pad."""
        self.state()
        self.pick = self.pick.with_hour(hour)
        self.pad_open = self.pick.hour is None

    def close_pad(self) -> None:
        self.state()  # (what the session did first: it may drop the choice)
        self.pad_open = False

    def tap_slot(self, seat: int, slot: int) -> bool:
        """Place the picked hour in ``slot`` of ``seat``'s row; in another player's row
        the tap picks that player; during an emergency move it lifts or lays a card."""
        state = self.state()
        if state is None:
            return False
        if seat != self.pick.seat:
            if not self.pick.emergency:
                self.choose_seat(seat)
            return False
        if self.pick.emergency:
            self.pick = view.emergency_tap(state, self.pick, slot)
            return False
        action, reason = view.place_action(state, self.pick, slot)
        if action is None:
            self.app.say(reason, error=True)
            return False
        # nobody stays chosen after a card is laid: the next card cannot land in this
        # row by mistake (set first, so the view after the action shows it)
        return self._act(action, view.Pick())

    def _act(self, action: dict | None, pick: view.Pick | None = None) -> bool:
        """Send ``action`` with ``pick`` the choice after it (kept if it is refused)."""
        if action is None:
            return False
        before = self.pick
        if pick is not None:
            self.pick = pick
        if self.app.act(action):
            return True
        self.pick = before
        return False

    def ghost(self, delta: int) -> bool:
        state = self.state()
        return state is not None and self._act(view.ghost_action(state, self.pick, delta))

    def draw(self) -> bool:
        if self.state() is None:
            return False
        action = {"type": "draw_pile", "count": 1}
        if self.pick.seat is not None:
            action["seat"] = self.pick.seat
        return self._act(action)

    def discard(self) -> bool:
        if self.state() is None or self.pick.seat is None or self.pick.hour is None:
            return False
        action = {"type": "discard", "seat": self.pick.seat, "hour": self.pick.hour}
        return self._act(action, view.Pick(seat=self.pick.seat))

    def start_emergency(self) -> None:
        state = self.state()
        if state is not None:
            self.pick, self.pad_open = view.start_emergency(state, self.pick), False

    def cancel_emergency(self) -> None:
        self.state()  # (what the session did first: it may drop the choice)
        self.pick = view.cancel_emergency(self.pick)

    def confirm_emergency(self) -> bool:
        """Send the moves chosen as one emergency_move; the flow closes if accepted."""
        self.state()
        return self._act(view.emergency_action(self.pick), view.cancel_emergency(self.pick))

    def hand_empty(self) -> bool:
        state = self.state()
        return state is not None and self._act(view.hand_empty_action(state, self.pick))

    def no_ghost(self) -> bool:
        """The asked player has no ghost in hand: their complete row wins."""
        state = self.state()
        return state is not None and self._act(view.no_action(state))

    # -- the view ------------------------------------------------------------------------

    def view(self) -> TatView:
        state = self.state()
        if state is None:
            return TatView()
        pick = self.pick
        question = view.question(state)
        band = ("over" if state.over else "ask" if question else
                "emergency" if pick.emergency else "hours")
        four = len(state.seats) > 3
        controls = view.controls(state, pick)
        pile_out = controls["show_hand_empty"]
        off = {key for key in CONTROLS if not controls[key] or pick.emergency
               or (key == "draw" and pile_out)}
        off |= {"confirm"} if not controls["confirm"] else set()
        hours = tuple({"text": str(h["hour"]), "key": ("choose_hour", h["hour"]),
                       "off": not h["enabled"] or band != "hours",
                       "look": "picked" if h["selected"] else "empty"}
                      for h in view.hour_buttons(state, pick))
        return TatView(
            heading=view.header(state), prompt=view.prompt(state, pick), question=question,
            no_label=view.no_label(state), result=view.result(state), band=band,
            hour_pad=four, pad_shown=four and self.pad_open and band == "hours"
            and pick.seat is not None, pile_out=pile_out,
            can_undo=self.app.session.can_undo, rows=tuple(self._rows(state)), hours=hours,
            pad=(*hours, {"text": "Close", "key": ("close_pad",), "off": False,
                          "look": "button"}), off=frozenset(off))

    def _rows(self, state):
        emergency = self.pick.emergency
        for row in view.rows(state, self.pick):
            seat = row["seat"]
            yield {"seat": seat, "colour": rgba(self.app.cfg.seat(seat).colour),
                   "label": row["label"], "selected": row["selected"],
                   "disabled": emergency and not row["selected"],
                   "slots": [{"text": s["text"], "key": ("tap_slot", seat, s["slot"]),
                              "off": not s["enabled"], "look": _look(s)}
                             for s in row["slots"]]}


def _look(slot: dict) -> str:
    """A slot's colour, by name (the kv's ``LOOK``)."""
    return ("picked" if slot["moving"] else "problem" if slot["problem"]
            else "legal" if slot["legal"] else "moved" if slot["moved"]
            else "empty" if slot["text"] == "?" else "filled")
