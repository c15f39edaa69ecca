"""T.I.M.E Stories rules engine: the companion as the group's time keeper.

Pure (no I/O, clock or randomness: the Time Captain die and the action dice are fields
of the actions, rolled by ``companion.dice`` in the session) and immutable, per the
contract in ``companion.games.base``. Wiring:

    from companion.games import time_stories as ts
    s = ts.initial({"players": [{"name": "Ann", "seat": 1}], "mission": "Asylum",
                    "starting_tu": 25, "characters": [...]})
    s = ts.apply(s, {"type": "travel", "die": dice.roll(1)[0], "to": "Kitchen"})
    ts.snapshot(s)               # what the screens draw: TU, run, log, characters, tests
    ts.roll_odds_for(s, "B")     # exact odds of the next roll of the test at space B
    ts.burndown(s)               # (turn, TU left) points of the current run

It keeps the runs of one mission (numbered from 1, each with its starting TU and
outcome), the TU tracker with a readable log of every spend (and of deaths, revivals,
items and rolls), the characters, the items (T.I.M.E Agency items survive a failed run)
and the open action-dice tests (``spaces``: where each character rolled this turn, so
another space needs another turn; company and abilities from the ``sheets``; a roll is
resolved by ``action_test``). State records and the time/life bookkeeping are in
``model``. Every action, its fields, and the rule readings are in ``docs/time-stories.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from companion.dice import captain_cost
from companion.errors import MalformedAction, RuleError
from companion.games.base import (
    GameInfo,
    LineChart,
    Outcome,
    handler_for,
    listed,
    players_from_setup,
    require,
    seated,
    to_jsonable,
)
from companion.games.pvec import PVec, newest
from companion.games.time_stories.model import (
    DEFAULT_TU,
    MAX_LIFE,
    MAX_TU,
    OUTCOMES,
    RED_DEPARTURE_TU,
    Character,
    Draft,
    Item,
    LogEntry,
    Run,
    State,
    after_damage,
    character,
    draft,
    drop_item,
    end_run,
    flag_field,
    freeze,
    gain_item,
    give_item,
    hurt,
    int_field,
    living,
    note,
    parse_characters,
    put,
    put_item,
    spend,
    text_field,
)
from companion.games.time_stories.spaces import (
    ability_lines,
    ability_modifiers,
    company,
    dice_for,
    roll_odds_for,
    test_abandon,
    test_continue,
    test_roll,
    test_start,
)
from companion.speech.lines import INFO, VERDICT, Line
from companion.speech.words import cap, number_words, plural, speakable

GAME = GameInfo(
    name="time_stories",
    title="T.I.M.E Stories",
    blurb="Captain die, time units",
    order=20,
    screen="companion.ui.screens.time_stories:TimeStoriesScreen",
    players=(1, 4),
    cooperative=True,
    version=2,  # 2: another space is another turn; company, abilities
    bgg_id=146508,  # BoardGameGeek's id of T.I.M.E Stories (BG Stats plays, issue 37)
)
NAME = GAME.name
TITLE = GAME.title


__all__ = ["NAME", "TITLE", "Character", "Item", "State", "apply", "burndown", "charts",
           "comes_back_at", "company", "dice_for", "initial", "is_over", "outcome",
           "roll_odds_for", "snapshot"]


# ----------------------------------------------------------------- engine contract
def initial(setup: Mapping[str, Any]) -> State:
    players = players_from_setup(setup, *GAME.players, game=TITLE)
    mission = setup.get("mission", "Asylum")
    if not isinstance(mission, str):
        raise MalformedAction(f"setup 'mission' must be the mission's name, not {mission!r}")
    if not mission.strip():
        raise RuleError("time_stories.mission_name", "Give the mission a name.")
    tu = setup.get("starting_tu", DEFAULT_TU)
    if isinstance(tu, bool) or not isinstance(tu, int):
        raise MalformedAction(f"setup 'starting_tu' must be a whole number, not {tu!r}")
    if not 1 <= tu <= MAX_TU:
        raise RuleError("time_stories.out_of_range", "{What} must be {lo} to {hi}, not "
                        "{value}.", What="The starting time units", lo=1, hi=MAX_TU, value=tu)
    roc = setup.get("riposte_on_clear", True)
    if not isinstance(roc, bool):
        raise MalformedAction("setup 'riposte_on_clear' must be true or false")
    chars = parse_characters(setup["characters"], players) if setup.get("characters") else ()
    d = draft(State(players, mission.strip(), tu, roc, PVec((Run(1, tu),)), tu,
                    characters=chars, run_starts=PVec((0,))))
    note(d, "run", f"run 1 of {mission.strip()} starts with {tu} TU")
    return freeze(d)


#: What may be recorded while a run is over: the next run, and the items a MISSION
#: FAILED card gives (or takes) for it.
BETWEEN_RUNS = ("start_run", "gain_item", "drop_item")


def apply(state: State, action: Mapping[str, Any]) -> State:
    kind, handler = handler_for(_HANDLERS, action, "T.I.M.E Stories")
    _check_run(state, kind)
    d = draft(state)
    handler(d, action)
    return freeze(d)


def _check_run(state: State, kind: str) -> None:
    """Refuse what the end of the run or of the mission does not allow."""
    run = state.runs[-1]
    if run.outcome is None:
        return
    if run.outcome == "successful":
        raise RuleError("time_stories.mission_complete", "The mission is complete: there is "
                        "nothing more to play.")
    if kind not in BETWEEN_RUNS:
        raise RuleError("time_stories.run_over", "Run {run} is over: start the next run "
                        "first.", run=run.number)


def snapshot(state: State, recent: int | None = None) -> dict:
    """Everything the screens draw. With ``recent``, the log and the list of runs hold
    their newest ``recent`` entries; the burn-down is always the current run's."""
    return {
        "game": NAME,
        "mission": state.mission,
        "players": to_jsonable(state.players),
        "run": state.run.number,
        "running": state.running,
        "outcome": state.run.outcome,
        "mission_complete": state.run.outcome == "successful",
        "tu": state.tu,
        "starting_tu": state.run.starting_tu,
        "turn": state.turn,
        "location": state.location,
        "location_red": state.location_red,
        "riposte_on_clear": state.riposte_on_clear,
        "runs": to_jsonable(newest(state.runs, recent)),
        "log": [log_json(e) for e in newest(state.log, recent)],
        "run_begun": state.run_begun,
        "burndown": [list(p) for p in burndown(state)],
        "characters": [
            {"name": c.name, "seat": c.seat, "life": c.life, "max_life": c.max_life,
             "resistance": c.resistance, "characteristics": dict(c.characteristics),
             "alone": dict(c.alone), "together": dict(c.together),
             "abilities": [{k: v for k, v in to_jsonable(a).items() if v}
                           for a in c.abilities],
             "dead": c.dead, "tu_at_death": c.tu_at_death, "revives_at": c.revives_at}
            for c in state.characters
        ],
        "items": to_jsonable(state.items),
        "tests": [
            to_jsonable(t) | {
                "dice": dice_for(state, t),
                "company": company(state, t),
                "turn_to_hit": ability_modifiers(state, t)[1],
                "abilities": ability_lines(state, t),
                "continue_cost": 1 if t.status == "rolled" and t.rolled_turn == state.turn else 0,
                "odds": roll_odds_for(state, t.space).as_dict() if t.status == "ready" else None,
            }
            for t in state.tests
        ],
        "acted": [{"character": n, "space": sp} for n, sp, turn in state.acted
                  if turn == state.turn],
        "last_roll": None if state.last_roll is None else to_jsonable(state.last_roll),
    }


def log_json(entry: LogEntry) -> dict:
    """A log entry as a snapshot holds it: its fields and its ``text``; a new dict each
    time (a snapshot's reader may keep or change it), copied from ``_log_json``."""
    return dict(_log_json(entry))


@lru_cache(maxsize=4096)
def _log_json(entry: LogEntry) -> dict:
    """Kept per entry (an entry never changes once made, and a new state shares all but
    its newest lines with the one before): a snapshot words only the lines that are new
    (the log was two thirds of a snapshot's cost)."""
    return to_jsonable(entry) | {"text": entry.text}


def is_over(state: State) -> bool:
    """The mission is complete (a failed run only waits for the next one)."""
    return state.run.outcome == "successful"


def outcome(state: State) -> Outcome:
    """Cooperative: the mission is won by everyone together or not (yet) at all; a
    failed run is not a loss, only the start of the next run."""
    done = is_over(state)
    n = state.run.number
    status = (f"Mission complete in run {n}, {state.tu} TU left" if done
              else f"Run {n}: {state.tu} TU left")
    return Outcome(seated(state.players), status,
                   winners=tuple(p.seat for p in state.players) if done else ())


def charts(state: State) -> tuple[LineChart, ...]:
    """Each run's burn-down: time units left at the end of every turn."""
    return tuple(LineChart(f"Time units left, run {n} (burn-down)", "turn", "TU",
                           ((f"Run {n}", burndown(state, n)),))
                 for n in range(1, len(state.runs) + 1))


# ----------------------------------------------------------------- queries for the UI
def burndown(state: State, run: int | None = None) -> tuple[tuple[int, int], ...]:
    """(turn, TU left at the end of that turn) for a run (default: the current one)."""
    number = state.run.number if run is None else run
    if isinstance(number, bool) or not isinstance(number, int) \
            or not 1 <= number <= len(state.runs):
        raise MalformedAction(f"there is no run {number}")
    first = state.run_starts[number - 1]
    last = state.run_starts[number] if number < len(state.run_starts) else len(state.log)
    points = {0: state.runs[number - 1].starting_tu}
    for e in state.log[first:last]:
        if e.run == number and e.amount:
            points[e.turn] = e.tu_after
    return tuple(sorted(points.items()))


def comes_back_at(state: State, name: str) -> int | None:
    """TU left when a dead character returns (None: alive, or out for this run)."""
    return character(state, name).revives_at


# ----------------------------------------------------------------- time and runs
def _travel(d: Draft, action: Mapping[str, Any]) -> None:
    die = action.get("die")
    if die.__class__ is not int or not 1 <= die <= 6:  # the usual die first
        die = require(action, "die", int)
        if not 1 <= die <= 6:
            raise MalformedAction(f"travel: a Time Captain die shows 1 to 6, not {die}")
    red = flag_field(action, "red") if "red" in action else d.location_red
    to_red = flag_field(action, "to_red")
    to = action.get("to")
    if to is not None and (not isinstance(to, str) or not to.strip()):
        raise MalformedAction(f"travel: 'to' must be the name of the new location, not {to!r}")
    if d.tests:
        locked = [t.space for t in d.tests if t.locked]
        if locked:
            raise RuleError("time_stories.locked_leave", "The group cannot leave: the test "
                            "at space {spaces} is locked and goes on until it is cleared or "
                            "its characters are dead.", spaces=listed(locked))
        for t in d.tests:
            note(d, "test", f"test at {t.space} left unfinished: its shields reset")
    cost = captain_cost(die) + (RED_DEPARTURE_TU if red else 0)
    where = f" from {d.location}" if d.location else ""
    where += f" to {to.strip()}" if to else ""
    why = f"travel{where}: captain die {die}" + (" +2 (red-lettered departure)" if red else "")
    d.tests, d.turn, d.location_red = (), d.turn + 1, to_red
    d.location = to.strip() if to else None
    spend(d, cost, "travel", why)


def _stay(d: Draft, action: Mapping[str, Any]) -> None:
    why = action.get("reason")
    why = f": {why.strip()}" if isinstance(why, str) and why.strip() else ""
    d.turn += 1
    spend(d, 1, "stay", f"another turn at {d.location or 'this location'}{why}")


def _adjust_tu(d: Draft, action: Mapping[str, Any]) -> None:
    delta = int_field(action, "delta", -MAX_TU, MAX_TU)
    reason = text_field(action, "reason")
    if delta == 0:
        raise RuleError("time_stories.zero_correction", "A correction of 0 changes nothing.")
    if delta < 0:
        spend(d, -delta, "adjust", f"correction: {reason}")
        return
    before = d.tu
    d.tu = min(MAX_TU, before + delta)
    note(d, "adjust", f"correction: {reason}", before)


def _start_run(d: Draft, action: Mapping[str, Any]) -> None:
    if d.running:
        raise RuleError("time_stories.run_going", "Run {run} is still going: end it first.",
                        run=d.run.number)
    tu = d.default_tu
    if "starting_tu" in action:
        tu = int_field(action, "starting_tu", 1, MAX_TU)
    if action.get("characters") is not None:
        chars = parse_characters(action["characters"], d.players)
    else:
        chars = tuple(replace(c, life=c.max_life, tu_at_death=None) for c in d.characters)
    number = d.run.number + 1
    d.runs, d.tu, d.turn = d.runs.append(Run(number, tu)), tu, 0
    d.location, d.location_red, d.tests, d.last_roll, d.abandoned = None, False, (), None, ()
    d.acted = ()  # turn numbers start again: last run's rolls count for nothing
    d.run_starts, d.run_begun = d.run_starts.append(len(d.log)), False
    note(d, "run", f"run {number} starts with {tu} TU")
    _cast(d, chars)


def _end_run_action(d: Draft, action: Mapping[str, Any]) -> None:
    outcome = action.get("outcome")
    if outcome not in OUTCOMES:
        raise MalformedAction(f"end_run: 'outcome' must be one of {', '.join(OUTCOMES)}, "
                              f"not {outcome!r}")
    end_run(d, outcome, str(action.get("reason") or "the group says so"))


def _cast(d: Draft, chars: tuple[Character, ...]) -> None:
    names = {c.name for c in chars}
    d.characters = chars
    if chars:
        note(d, "cast", "characters: " + ", ".join(c.name for c in chars))
    for item in d.items:
        if item.holder is not None and item.holder not in names:
            put_item(d, replace(item, holder=None))
            note(d, "item", f"{item.name} stays with the group ({item.holder} left)")


def _set_characters(d: Draft, action: Mapping[str, Any]) -> None:
    if d.run_begun or d.tests:
        raise RuleError("time_stories.cast_at_start", "Characters change only at the start of "
                        "a run, before anything happens: new ones can come in with the next "
                        "run.")
    _cast(d, parse_characters(action.get("characters"), d.players))


# ----------------------------------------------------------------- life
def _damage(d: Draft, action: Mapping[str, Any]) -> None:
    c = living(d, action.get("character"))
    amount = int_field(action, "amount", 1, MAX_LIFE)
    hurt(d, c.name, amount, text_field(action, "reason"))
    after_damage(d)


def _heal(d: Draft, action: Mapping[str, Any]) -> None:
    c = living(d, action.get("character"))
    amount = int_field(action, "amount", 1, MAX_LIFE)
    if c.life >= c.max_life:
        raise RuleError("time_stories.full_health", "{name} already has full health ({life} "
                        "LP).", name=c.name, life=c.max_life)
    life = min(c.max_life, c.life + amount)
    why = action.get("reason") or "healed"
    put(d, replace(c, life=life))
    note(d, "heal", f"{c.name} heals to {life} LP ({why})")


_HANDLERS = {
    "travel": _travel,
    "stay": _stay,
    "adjust_tu": _adjust_tu,
    "start_run": _start_run,
    "end_run": _end_run_action,
    "set_characters": _set_characters,
    "damage": _damage,
    "heal": _heal,
    "gain_item": gain_item,
    "give_item": give_item,
    "drop_item": drop_item,
    "test_start": test_start,
    "test_roll": test_roll,
    "test_continue": test_continue,
    "test_abandon": test_abandon,
}


# --------------------------------------------------------------------------- spoken

#: The actions after which the box may say something (``spoken``).
SPOKEN_AFTER = frozenset({"travel", "stay", "adjust_tu", "start_run", "end_run", "damage",
                          "test_roll", "test_continue", "test_start"})
#: ``spoken`` reads no list that grows with the game (time log, runs): it is given the
#: screens' snapshots (lists cut short), so a line costs the same all night.
SPOKEN_READS_LISTS = False

_RUN_END = {
    "successful": Line("Mission accomplished!", VERDICT, tone=True),
    "failed_time": Line("Time is up: the run has failed.", VERDICT, tone=True),
    "failed_deaths": Line("Every character is dead: the run has failed.", VERDICT, tone=True),
}


def _tu_left(tu: int) -> str:
    return f"{plural(tu, 'time unit')} left"


def spoken(before: dict, action: Mapping[str, Any], after: dict,
           _names: Mapping[int, str]) -> Line | None:
    """The Time Captain die and what is left ("Two: twenty-three time units left."),
    another turn, a character's death and return, the run's end."""
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
    out = None
    for line in lines:
        out = line if out is None else out.joined(line)
    return out
