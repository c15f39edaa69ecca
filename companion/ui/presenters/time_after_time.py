"""Time After Time as plain view data for the host's screen (no Kivy here).

The host records what happens at the table: tap a player, tap an hour, tap a slot. This
module holds that choice (``Pick``), turns the engine state into rows of slot boxes with
problems highlighted, says which slots and buttons are enabled, and builds the actions.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from companion.games import time_after_time as tat

HOURS = tuple(range(tat.FIRST_HOUR, tat.LAST_HOUR + 1))


@dataclass(frozen=True)
class Pick:
    """The host's current choice: a seat, then an hour (either may be None)."""

    seat: int | None = None
    hour: int | None = None

    def with_seat(self, seat: int) -> Pick:
        return dataclasses.replace(self, seat=seat)

    def with_hour(self, hour: int) -> Pick:
        return dataclasses.replace(self, hour=None if hour == self.hour else hour)


def short(hour: int | None) -> str:
    return "?" if hour is None else f"{hour}H"


def _seat_state(state: tat.State, seat: int | None) -> tat.SeatState | None:
    return next((s for s in state.seats if s.player.seat == seat), None)


def rows(state: tat.State, pick: Pick) -> list[dict]:
    """One dict per player: seat, name, ghosts line, selected, and 7 slot dicts
    (text, problem: highlighted, legal: a tap would place the picked hour)."""
    gone = tat.unavailable_hours(state)
    out = []
    for s in state.seats:
        problems = tat.check_row(s.row, gone)
        bad = {i for p in problems for i in p.slots}
        chosen = s.player.seat == pick.seat
        legal = set(tat.legal_slots(s.row, pick.hour)) if chosen and pick.hour else set()
        out.append({
            "seat": s.player.seat,
            "name": s.player.name,
            "ghosts": s.ghosts,
            "label": s.player.name + (f"  [b]{s.ghosts} ghost{'s' * (s.ghosts > 1)}[/b]"
                                      if s.ghosts else ""),
            "selected": chosen,
            "problems": [p.message for p in problems],
            "slots": [{"slot": i, "text": short(h), "problem": i in bad,
                       "legal": i in legal and not state.over}
                      for i, h in enumerate(s.row)],
        })
    return out


def hour_buttons(state: tat.State, pick: Pick) -> list[dict]:
    """The 6..22 buttons: an hour whose two copies are both out cannot be picked."""
    gone = set(tat.unavailable_hours(state))
    return [{"hour": h, "text": short(h), "selected": h == pick.hour,
             "enabled": h not in gone and not state.over} for h in HOURS]


def controls(state: tat.State, pick: Pick) -> dict:
    """Which of the action buttons are enabled."""
    s = _seat_state(state, pick.seat)
    live = not state.over
    return {
        "ghost_plus": live and s is not None,
        "ghost_minus": live and s is not None and s.ghosts > 0,
        "draw": live and state.draw_pile > 0,
        "discard": live and pick.hour is not None and pick.seat is not None
        and not tat.seats_that_can_place(state, pick.hour)
        and pick.hour not in tat.unavailable_hours(state),
    }


def prompt(state: tat.State, pick: Pick) -> str:
    """The secondary line: the result, what to tap next, or the chosen row's problems."""
    if state.over:
        return "Game over: Undo to correct, Back to leave"
    s = _seat_state(state, pick.seat)
    if s is None:
        return "Tap a player, then an hour, then a slot"
    gone = tat.unavailable_hours(state)
    problems = tat.check_row(s.row, gone)
    if problems:
        return f"{s.player.name}: " + "; ".join(p.message for p in problems)
    if pick.hour is None:
        return f"{s.player.name}: tap the hour drawn"
    if not tat.legal_slots(s.row, pick.hour):
        if not tat.seats_that_can_place(state, pick.hour):
            return f"Nobody can place {short(pick.hour)}: discard it"
        return f"{s.player.name} cannot place {short(pick.hour)}"
    return f"{s.player.name}: tap a green slot for {short(pick.hour)}"


def result(state: tat.State) -> str:
    if not state.over:
        return ""
    if state.result == "tie":
        return "Tie: nobody wins"
    names = [s.player.name for s in state.seats if s.player.seat in state.winners]
    return " & ".join(names) + " wins!"


def place_action(state: tat.State, pick: Pick, slot: int) -> tuple[dict | None, str]:
    """The place action for a tapped slot, or None and why it is refused."""
    s = _seat_state(state, pick.seat)
    if s is None or pick.hour is None:
        return None, "Pick a player and an hour first"
    ok, reason = tat.can_place(s.row, slot, pick.hour)
    if not ok:
        return None, reason
    return {"type": "place", "seat": s.player.seat, "slot": slot, "hour": pick.hour}, ""


def header(state: tat.State) -> str:
    return f"Time After Time   pile {state.draw_pile}"
