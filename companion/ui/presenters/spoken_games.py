"""What the box says after a game action: one line per recorded action, or nothing.

``action_line(rules, before, action, after)`` is called by ``app.act`` once the action
is in the log. It looks only at the engines' snapshots (before and after) and the
action, never at screens, and says the moments a table looking at its cards needs:

* T.I.M.E Stories: the Time Captain die and what is left ("Two: twenty-three time
  units left."), another turn, a character's death and return, the run's end;
* Crazy Time: a round won, and the Grand Master of Time (the slap verdict is said by
  the slap pad when it is reached, so the recorded pick-up says nothing more);
* Times, Professor Tempus, the score pad: a round scored and who leads, the winners;
* Time After Time: the winner, or the tie when the cards run out.

Snapshots are taken only for the action types a game listens to (``LISTENS``). Names
come from the snapshot's players through ``spoken.spoken_names``. Pure: no Kivy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.speech.lines import INFO, VERDICT, Line
from companion.ui.presenters.spoken import (
    cap,
    name_list,
    number_words,
    plural,
    speakable,
    spoken_names,
    verb,
    who,
)

Snap = Mapping[str, Any]


def _tu_left(tu: int) -> str:
    return f"{plural(tu, 'time unit')} left"


def _joined(lines: list[Line]) -> Line | None:
    out = None
    for line in lines:
        out = line if out is None else out.joined(line)
    return out


# -- T.I.M.E Stories ---------------------------------------------------------------------------

_RUN_END = {
    "successful": Line("Mission accomplished!", VERDICT, tone=True),
    "failed_time": Line("Time is up: the run has failed.", VERDICT, tone=True),
    "failed_deaths": Line("Every character is dead: the run has failed.", VERDICT, tone=True),
}


def time_stories(before: Snap, action: Snap, after: Snap, _names) -> Line | None:
    kind = action.get("type")
    lines: list[Line] = []
    if kind == "start_run":
        return Line(f"Run {number_words(after['run'])} starts with "
                    f"{plural(after['tu'], 'time unit')}.", INFO)
    tu = after["tu"]
    if kind == "travel":
        red = action.get("red", before.get("location_red"))
        face = cap(number_words(action["die"])) + (" plus two" if red else "")
        lines.append(Line(f"{face}: {_tu_left(tu)}.", VERDICT,
                          short=cap(f"{_tu_left(tu)}.")))
    elif tu != before["tu"]:
        head = "Another turn: " if kind in ("stay", "test_continue", "test_start") else ""
        lines.append(Line(cap(f"{head}{_tu_left(tu)}."), INFO, short=cap(f"{_tu_left(tu)}.")))
    was = {c["name"]: c for c in before["characters"]}
    same_run = before["run"] == after["run"]
    for c in after["characters"]:
        old = was.get(c["name"])
        name = speakable(c["name"]) or "A character"
        if c["dead"] and (old is None or not old["dead"]):
            back = c.get("revives_at")
            when = f"back at {plural(back, 'time unit')}" if back else "gone for this run"
            lines.append(Line(f"{name} is dead, {when}.", VERDICT, tone=True,
                              short=f"{name} is dead."))
        elif not c["dead"] and old is not None and old["dead"] and same_run:
            lines.append(Line(f"{name} is back.", VERDICT))
    if before["running"] and not after["running"]:
        lines.append(_RUN_END.get(after.get("outcome"), Line("The run is over.", VERDICT)))
    return _joined(lines)


# -- Crazy Time --------------------------------------------------------------------------------


def crazy_time(before: Snap, _action: Snap, after: Snap, names) -> Line | None:
    if len(after["results"]) <= len(before["results"]):
        return None
    result = after["results"][-1]
    name = who(names, result["seat"])
    rnd = number_words(result["round"])
    if after.get("grand_master") is not None:
        return Line(cap(f"{name} wins round {rnd} and is Grand Master of Time!"), VERDICT,
                    tone=True, short=cap(f"{name} is Grand Master of Time!"))
    return Line(cap(f"{name} wins round {rnd}."), VERDICT, tone=True)


# -- games won on points -----------------------------------------------------------------------


def _leaders(totals: Mapping[int, int]) -> tuple[list[int], int]:
    best = max(totals.values())
    return [s for s, t in totals.items() if t == best], best


def times(before: Snap, _action: Snap, after: Snap, names) -> Line | None:
    if len(after["history"]) <= len(before["history"]):
        return None
    if after["winners"]:
        seats = after["winners"]
        return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')} the game!"),
                    VERDICT, tone=True)
    record = after["history"][-1]
    seats, best = _leaders({s["seat"]: s["total"] for s in record["seats"]})
    return Line(f"Round {number_words(record['round'])} scored: {name_list(names, seats)} "
                f"{verb(seats, 'leads', 'lead')} with {plural(best, 'point')}.", INFO,
                short=cap(f"{name_list(names, seats)} {verb(seats, 'leads', 'lead')}."))


def professor_tempus(before: Snap, _action: Snap, after: Snap, names) -> Line | None:
    counted = [r for r in after["rounds"] if r["hourglasses"] is not None]
    if len(counted) <= len([r for r in before["rounds"] if r["hourglasses"] is not None]):
        return None
    totals = {int(s): t for s, t in after["totals"].items()}
    if after["over"]:
        seats = list(after["winners"])
        best = totals[seats[0]] if seats else 0
        return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')} with "
                        f"{plural(best, 'hourglass', 'hourglasses')}!"), VERDICT, tone=True)
    seats, best = _leaders(totals)
    return Line(f"Round {number_words(counted[-1]['round'])} counted: "
                f"{name_list(names, seats)} {verb(seats, 'leads', 'lead')} with "
                f"{plural(best, 'hourglass', 'hourglasses')}.", INFO)


def time_after_time(before: Snap, _action: Snap, after: Snap, names) -> Line | None:
    if not after["over"] or before["over"]:
        return None
    if after["result"] == "win" and after["winners"]:
        seats = after["winners"]
        return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')}!"), VERDICT,
                    tone=True)
    return Line("The cards have run out: the game is a tie.", VERDICT, tone=True)


def scorepad(before: Snap, _action: Snap, after: Snap, names) -> Line | None:
    if not after["finished"] or before["finished"] or not after["winners"]:
        return None
    seats = after["winners"]
    best = after["totals"][str(seats[0])]
    return Line(cap(f"{name_list(names, seats)} {verb(seats, 'wins', 'win')} with "
                    f"{plural(best, 'point')}!"), VERDICT, tone=True)


#: game -> (the action types it speaks after, the line builder).
LISTENS: dict[str, tuple[frozenset[str], Callable[..., Line | None]]] = {
    "time_stories": (frozenset({"travel", "stay", "adjust_tu", "start_run", "end_run",
                                "damage", "test_roll", "test_continue", "test_start"}),
                     time_stories),
    "crazy_time": (frozenset({"round_won", "guess"}), crazy_time),
    "times": (frozenset({"next_event", "override"}), times),
    "professor_tempus": (frozenset({"score_round"}), professor_tempus),
    "time_after_time": (frozenset({"place", "ghost", "hand_empty", "ghost_answer"}),
                        time_after_time),
    "scorepad": (frozenset({"finish"}), scorepad),
}


#: Games whose line reads no growing list of the snapshot (time log, runs): their line
#: is made from the screens' snapshots (``action_line``'s ``snapshot``: made already for
#: the screen, lists cut short) or, without them, snapshots taken without those lists
#: (``recent=0``), so a line costs the same at the end of a long game as at its start.
#: The others compare lists' lengths, and get them whole.
NO_LISTS = frozenset({"time_stories"})


def listens(game: str, action: Mapping[str, Any]) -> bool:
    entry = LISTENS.get(game)
    return entry is not None and action.get("type") in entry[0]


def action_line(rules, before: Any, action: Mapping[str, Any], after: Any,
                snapshot: Callable[..., Snap] | None = None) -> Line | None:
    """The line to say after ``action`` took the game from ``before`` to ``after``
    (engine states; snapshots are taken only when the game speaks after that type).
    ``snapshot(state)`` / ``snapshot(state, None)``: the session's kept snapshots of a
    state, the screens' / with whole lists (``GameSession.snapshot_of``). An action's
    "before" is the last one's "after" and the screen has made both, so a line made
    through the session takes at most one new snapshot: none for the games whose line
    reads no list (``NO_LISTS``), the new state's for the others. Without it every
    line makes its own two."""
    if not listens(rules.NAME, action):
        return None
    if snapshot is None:
        recent = 0 if rules.NAME in NO_LISTS else None
        old, new = rules.snapshot(before, recent=recent), rules.snapshot(after, recent=recent)
    elif rules.NAME in NO_LISTS:
        old, new = snapshot(before), snapshot(after)
    else:
        old, new = snapshot(before, None), snapshot(after, None)
    names = spoken_names(new.get("players", ()))
    return LISTENS[rules.NAME][1](old, action, new, names)
