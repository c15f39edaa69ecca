"""Time After Time as plain view data for the host's screen (no Kivy here).

The host records what happens at the table: tap a player, tap an hour, tap a slot. This
module holds that choice (``Pick``), turns the engine state into rows of slot boxes with
problems highlighted, says which slots and buttons are enabled, and builds the actions.

The emergency case (a stuck row) is a small flow of its own: the host taps "Emergency",
then a placed card and the free neighbouring slot it shifts to, at most twice; the moves
are previewed in the row and sent together as one ``emergency_move`` on confirmation.

When a row is complete and a ghost may still be in that hand, the engine asks first
(``asking``): ``question`` says so to the player, whose own seat button answers yes
(``yes_action``) and the screen's "No ghost" button no (``no_action``); nothing else
is enabled until they answer.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from companion.games import time_after_time as tat
from companion.ui.presenters import escape_markup

HOURS = tuple(range(tat.FIRST_HOUR, tat.LAST_HOUR + 1))


@dataclass(frozen=True)
class Pick:
    """The host's current choice: a seat, then an hour (either may be None)."""

    seat: int | None = None
    hour: int | None = None
    emergency: bool = False  # the emergency-move flow is open for ``seat``
    moves: tuple[tuple[int, int], ...] = ()  # (from, to) slots chosen so far
    moving: int | None = None  # the slot (in the preview) of the card being moved

    def with_seat(self, seat: int) -> Pick:
        if seat != self.seat:  # another player: any emergency flow is left behind
            return Pick(seat=seat, hour=self.hour)
        return self

    def with_hour(self, hour: int) -> Pick:
        return dataclasses.replace(self, hour=None if hour == self.hour else hour)


def short(hour: int | None) -> str:
    return "?" if hour is None else f"{hour}H"


def _seat_state(state: tat.State, seat: int | None) -> tat.SeatState | None:
    return next((s for s in state.seats if s.player.seat == seat), None)


_last: list = [None, None, None]  # the last state checked, its checks, its answers


def checked(state: tat.State) -> tuple[tuple[int, ...], dict]:
    """The hours nobody can get any more and each seat's row problems (``check_row``),
    worked out once per state: a tap that only changes the pick (a name, an hour) and the
    presenters asked at one update reuse them (a state never changes; the last is kept)."""
    if _last[0] is not state:
        gone = tat.unavailable_hours(state)
        _last[0], _last[1] = state, (gone, {s.player.seat: tat.check_row(s.row, gone)
                                            for s in state.seats})
        _last[2] = {}
    return _last[1]


def _once(state: tat.State, key: tuple, answer):
    """The engine's answer ``answer()`` for ``key`` in ``state``, asked once per state
    (the rows, the prompt and the buttons of one update ask the same questions)."""
    checked(state)
    memo = _last[2]
    if key not in memo:
        memo[key] = answer()
    return memo[key]


def legal_slots(state: tat.State, s: tat.SeatState, hour: int) -> tuple[int, ...]:
    """``tat.legal_slots`` for seat state ``s`` and ``hour``, once per state."""
    return _once(state, ("legal", s.player.seat, hour), lambda: tat.legal_slots(s.row, hour))


def seats_that_can_place(state: tat.State, hour: int) -> tuple[int, ...]:
    """``tat.seats_that_can_place``, once per state and hour."""
    return _once(state, ("can", hour), lambda: tat.seats_that_can_place(state, hour))


def problems_of(state: tat.State, seat: int | None) -> list:
    return checked(state)[1].get(seat, [])


def is_stuck(state: tat.State, seat: int | None) -> bool:
    """Whether ``seat``'s row can no longer be completed (check_row reports "stuck")."""
    return any(p.kind == "stuck" for p in problems_of(state, seat))


# -- the emergency flow ---------------------------------------------------------------


def start_emergency(state: tat.State, pick: Pick) -> Pick:
    """Open the flow for the chosen seat (only while its row is stuck)."""
    if state.over or not is_stuck(state, pick.seat):
        return pick
    return Pick(seat=pick.seat, emergency=True)


def cancel_emergency(pick: Pick) -> Pick:
    return Pick(seat=pick.seat)


def after_undo(_pick: Pick) -> Pick:
    """The choice after an Undo: none. A player and hour picked (a card half-entered,
    an emergency flow) were picked for the game before the step taken back; kept, the
    hour stayed selected on keys and rows that no longer showed that game. As after a
    card laid, the next card starts with a player's name or button."""
    return Pick()


def preview(state: tat.State, pick: Pick) -> list[int | None]:
    """The chosen row with the emergency moves so far applied one after the other."""
    s = _seat_state(state, pick.seat)
    row = list(s.row) if s else [None] * tat.SLOTS
    for a, b in pick.moves:
        row[a], row[b] = None, row[a]
    return row


def _moved(pick: Pick) -> set[int]:
    return {b for _a, b in pick.moves}


def movable(state: tat.State, pick: Pick) -> set[int]:
    """Preview slots holding a card that may still be picked up (not moved yet, at most
    two cards, and with a free neighbour to go to)."""
    if not pick.emergency or len(pick.moves) >= 2:
        return set()
    row = preview(state, pick)
    return {i for i, h in enumerate(row) if h is not None and i not in _moved(pick)
            and _targets(row, i)}


def _targets(row: list[int | None], i: int) -> set[int]:
    return {j for j in (i - 1, i + 1) if 0 <= j < tat.SLOTS and row[j] is None}


def targets(state: tat.State, pick: Pick) -> set[int]:
    """Where the card being moved may go: a free neighbouring slot."""
    if not pick.emergency or pick.moving is None:
        return set()
    return _targets(preview(state, pick), pick.moving)


def emergency_tap(state: tat.State, pick: Pick, slot: int) -> Pick:
    """The flow after a tap on ``slot`` of the chosen row: pick up a card, put it down
    next door, or tap the lifted card again to let go of it."""
    if not pick.emergency:
        return pick
    if pick.moving is not None:
        if slot == pick.moving:
            return dataclasses.replace(pick, moving=None)
        if slot in targets(state, pick):
            return dataclasses.replace(pick, moves=pick.moves + ((pick.moving, slot),),
                                       moving=None)
    if slot in movable(state, pick):
        return dataclasses.replace(pick, moving=slot)
    return pick


def emergency_action(pick: Pick) -> dict | None:
    """The ``emergency_move`` for the moves chosen, or None before the first one."""
    if not pick.emergency or pick.seat is None or not pick.moves:
        return None
    if len(pick.moves) == 1:
        (a, b), = pick.moves
        return {"type": "emergency_move", "seat": pick.seat, "from": a, "to": b}
    return {"type": "emergency_move", "seat": pick.seat,
            "moves": [{"from": a, "to": b} for a, b in pick.moves]}


def ghost_action(state: tat.State, pick: Pick, delta: int) -> dict | None:
    """"Ghost +1": the chosen player drew a ghost, shown to the table, from their
    right-hand neighbour (the only hand they draw from; the engine then knows whose hand
    it left). "Ghost −1": a known ghost leaves the hand (a correction)."""
    s = _seat_state(state, pick.seat)
    if s is None:
        return None
    action = {"type": "ghost", "seat": s.player.seat, "delta": delta}
    if delta > 0:
        i = state.seats.index(s)
        action["from"] = state.seats[i - 1].player.seat
    return action


def hand_empty_action(state: tat.State, pick: Pick) -> dict | None:
    if pick.seat is None or state.draw_pile or state.over:
        return None
    return {"type": "hand_empty", "seat": pick.seat}


# -- rows, buttons, lines -------------------------------------------------------------


def rows(state: tat.State, pick: Pick) -> list[dict]:
    """One dict per player: seat, name, ghosts line, selected, and 7 slot dicts
    (text, problem: highlighted, legal: a tap would place the picked hour or put the
    lifted card down, enabled: a tap does something, moving: the lifted card)."""
    out = []
    for s in state.seats:
        problems = problems_of(state, s.player.seat)
        bad = {i for p in problems for i in p.slots}
        chosen = s.player.seat == pick.seat
        legal = set(legal_slots(state, s, pick.hour)) if chosen and pick.hour else set()
        row = s.row
        lift: set[int] = set()
        if chosen and pick.emergency:
            row, legal, lift = preview(state, pick), targets(state, pick), movable(state, pick)
            bad = set()
        live = not state.over and state.asking is None
        out.append({
            "seat": s.player.seat,
            "name": s.player.name,
            "ghosts": s.ghosts,
            "label": escape_markup(s.player.name) + (
                f"  [b]{s.ghosts} ghost{'s' * (s.ghosts > 1)}[/b]"
                                      if s.ghosts else ""),
            "selected": chosen,
            "problems": [p.message for p in problems],
            "slots": [{"slot": i, "text": short(h), "problem": i in bad,
                       "legal": i in legal and live,
                       "moving": chosen and pick.emergency and i == pick.moving,
                       "moved": chosen and pick.emergency and i in _moved(pick),
                       "enabled": live and _slot_enabled(pick, chosen, i, legal, lift)}
                      for i, h in enumerate(row)],
        })
    return out


def _slot_enabled(pick: Pick, chosen: bool, i: int, legal: set[int], lift: set[int]) -> bool:
    if pick.emergency:  # only the chosen row's liftable cards and landing slots
        return chosen and (i in legal or i in lift or i == pick.moving)
    return not (chosen and pick.hour is not None and i not in legal)


def hour_buttons(state: tat.State, pick: Pick) -> list[dict]:
    """The 6..22 buttons: an hour whose two copies are both out cannot be picked."""
    gone = set(checked(state)[0])
    return [{"hour": h, "text": str(h), "selected": h == pick.hour,
             "enabled": h not in gone and not state.over and state.asking is None}
            for h in HOURS]


def controls(state: tat.State, pick: Pick) -> dict:
    """Which of the action buttons are enabled (and whether the draw-pile button gives
    way to "Hand empty": the one is only useful while the other is not)."""
    s = _seat_state(state, pick.seat)
    live = not state.over and state.asking is None
    return {
        "emergency": live and is_stuck(state, pick.seat),
        "hand_empty": live and s is not None and state.draw_pile == 0,
        "show_hand_empty": state.draw_pile == 0,
        "confirm": emergency_action(pick) is not None,
        "ghost_plus": live and s is not None,
        "ghost_minus": live and s is not None and s.ghosts > 0,
        "draw": live and state.draw_pile > 0,
        # only when nobody can place the hour: the chosen player's own green slots (the
        # row shows them anyway) answer "somebody can" without asking for every row
        "discard": live and pick.hour is not None and pick.seat is not None
        and pick.hour not in checked(state)[0]
        and (s is None or not legal_slots(state, s, pick.hour))
        and not seats_that_can_place(state, pick.hour),
    }


def prompt(state: tat.State, pick: Pick) -> str:
    """The secondary line: the result, what to tap next, or the chosen row's problems."""
    if state.over:
        return "Game over: Undo to correct, Back to leave"
    if state.asking is not None:
        return f"{asked_name(state)}'s row is complete: only they know about their ghosts"
    s = _seat_state(state, pick.seat)
    if s is None:
        return "Tap a player, then an hour, then a slot"
    if pick.emergency:
        return emergency_prompt(state, pick, s.player.name)
    problems = problems_of(state, s.player.seat)
    if problems:
        return f"{s.player.name}: " + "; ".join(p.message for p in problems)
    if pick.hour is None:
        return f"{s.player.name}: tap the hour drawn"
    if not legal_slots(state, s, pick.hour):
        if not seats_that_can_place(state, pick.hour):
            return f"Nobody can place {short(pick.hour)}: discard it"
        return f"{s.player.name} cannot place {short(pick.hour)}"
    return f"{s.player.name}: tap a green slot for {short(pick.hour)}"


def emergency_prompt(state: tat.State, pick: Pick, name: str) -> str:
    done = ", ".join(f"slot {a + 1}→{b + 1}" for a, b in pick.moves)
    if pick.moving is not None:
        return f"Emergency {name}: tap the green slot next to it"
    if len(pick.moves) >= 2 or not movable(state, pick):
        return f"Emergency {name}: {done}. Confirm or Cancel"
    if pick.moves:
        return f"Emergency {name}: {done}. Another card, or Confirm"
    return f"Emergency {name}: tap a card to shift one slot"


def result(state: tat.State) -> str:
    if not state.over:
        return ""
    if state.result == "tie":
        return "Tie: nobody wins"
    names = [s.player.name for s in state.seats if s.player.seat in state.winners]
    return " & ".join(names) + " wins!"


def place_action(state: tat.State, pick: Pick, slot: int) -> tuple[dict | None, str]:
    """The place action for a tapped slot, or None and what to pick first. Whether the
    card may go there is the engine's to say (``app.act`` shows its sentence)."""
    s = _seat_state(state, pick.seat)
    if s is None or pick.hour is None:
        return None, "Pick a player and an hour first"
    return {"type": "place", "seat": s.player.seat, "slot": slot, "hour": pick.hour}, ""


# -- the ghost question ---------------------------------------------------------------


def asked_name(state: tat.State) -> str:
    s = _seat_state(state, state.asking)
    return s.player.name if s is not None else ""


def question(state: tat.State) -> str:
    """The question to the player whose complete row waits on it ("" when none)."""
    if state.asking is None or state.over:
        return ""
    name = asked_name(state)
    return f"{name}: is a ghost still in your hand? Yes: press your own button."


def no_label(state: tat.State) -> str:
    return f"No ghost: {asked_name(state)} wins" if state.asking is not None else ""


def yes_action(state: tat.State, seat: int) -> dict | None:
    """A seat button while a question is open: the asked player's own button says yes;
    any other button does nothing (nobody answers for someone else)."""
    if state.over or state.asking is None or seat != state.asking:
        return None
    return {"type": "ghost_answer", "seat": seat, "holds_ghost": True}


def no_action(state: tat.State) -> dict | None:
    if state.over or state.asking is None:
        return None
    return {"type": "ghost_answer", "seat": state.asking, "holds_ghost": False}


def header(state: tat.State) -> str:
    return f"Pile {state.draw_pile}"
