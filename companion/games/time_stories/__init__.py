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
from typing import Any

from companion.dice import captain_cost
from companion.errors import MalformedAction, RuleError
from companion.games.base import (
    GameInfo,
    handler_for,
    listed,
    players_from_setup,
    require,
    to_jsonable,
)
from companion.games.evolve import replace
from companion.games.pvec import PVec, newest
from companion.games.time_stories.model import (
    DEFAULT_TU,
    MAX_LIFE,
    MAX_TU,
    OUTCOMES,
    RED_DEPARTURE_TU,
    Character,
    Item,
    Run,
    State,
    after_damage,
    character,
    drop_item,
    end_run,
    flag_field,
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

GAME = GameInfo(
    name="time_stories",
    title="T.I.M.E Stories",
    blurb="Captain die, time units",
    order=20,
    screen="companion.ui.screens.time_stories:TimeStoriesScreen",
    players=(1, 4),
    version=2,  # 2: another space is another turn; company, abilities
)
NAME = GAME.name
TITLE = GAME.title

__all__ = ["NAME", "TITLE", "Character", "Item", "State", "apply", "burndown",
           "comes_back_at", "company", "dice_for", "initial", "is_over", "roll_odds_for",
           "snapshot"]


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
    state = State(players, mission.strip(), tu, roc, PVec((Run(1, tu),)), tu, characters=chars,
                  run_starts=PVec((0,)))
    return note(state, "run", f"run 1 of {mission.strip()} starts with {tu} TU")


#: What may be recorded while a run is over: the next run, and the items a MISSION
#: FAILED card gives (or takes) for it.
BETWEEN_RUNS = ("start_run", "gain_item", "drop_item")


def apply(state: State, action: Mapping[str, Any]) -> State:
    kind, handler = handler_for(_HANDLERS, action, "T.I.M.E Stories")
    if state.run.outcome == "successful":
        raise RuleError("time_stories.mission_complete", "The mission is complete: there is "
                        "nothing more to play.")
    if kind not in BETWEEN_RUNS and not state.running:
        raise RuleError("time_stories.run_over", "Run {run} is over: start the next run "
                        "first.", run=state.run.number)
    return handler(state, action)


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
        "log": [to_jsonable(e) | {"text": e.text} for e in newest(state.log, recent)],
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


def is_over(state: State) -> bool:
    """The mission is complete (a failed run only waits for the next one)."""
    return state.run.outcome == "successful"


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
def _travel(state: State, action: Mapping[str, Any]) -> State:
    die = require(action, "die", int)
    if not 1 <= die <= 6:
        raise MalformedAction(f"travel: a Time Captain die shows 1 to 6, not {die}")
    red = flag_field(action, "red") if "red" in action else state.location_red
    to_red = flag_field(action, "to_red")
    to = action.get("to")
    if to is not None and (not isinstance(to, str) or not to.strip()):
        raise MalformedAction(f"travel: 'to' must be the name of the new location, not {to!r}")
    locked = [t.space for t in state.tests if t.locked]
    if locked:
        raise RuleError("time_stories.locked_leave", "The group cannot leave: the test at "
                        "space {spaces} is locked and goes on until it is cleared or its "
                        "characters are dead.", spaces=listed(locked))
    for t in state.tests:
        state = note(state, "test", f"test at {t.space} left unfinished: its shields reset")
    cost = captain_cost(die) + (RED_DEPARTURE_TU if red else 0)
    where = f" from {state.location}" if state.location else ""
    where += f" to {to.strip()}" if to else ""
    why = f"travel{where}: captain die {die}" + (" +2 (red-lettered departure)" if red else "")
    state = replace(state, tests=(), turn=state.turn + 1, location_red=to_red,
                    location=to.strip() if to else None)
    return spend(state, cost, "travel", why)


def _stay(state: State, action: Mapping[str, Any]) -> State:
    why = action.get("reason")
    why = f": {why.strip()}" if isinstance(why, str) and why.strip() else ""
    state = replace(state, turn=state.turn + 1)
    return spend(state, 1, "stay", f"another turn at {state.location or 'this location'}{why}")


def _adjust_tu(state: State, action: Mapping[str, Any]) -> State:
    delta = int_field(action, "delta", -MAX_TU, MAX_TU)
    reason = text_field(action, "reason")
    if delta == 0:
        raise RuleError("time_stories.zero_correction", "A correction of 0 changes nothing.")
    if delta < 0:
        return spend(state, -delta, "adjust", f"correction: {reason}")
    before = state.tu
    return note(replace(state, tu=min(MAX_TU, before + delta)), "adjust",
                f"correction: {reason}", before)


def _start_run(state: State, action: Mapping[str, Any]) -> State:
    if state.running:
        raise RuleError("time_stories.run_going", "Run {run} is still going: end it first.",
                        run=state.run.number)
    tu = state.default_tu
    if "starting_tu" in action:
        tu = int_field(action, "starting_tu", 1, MAX_TU)
    if action.get("characters") is not None:
        chars = parse_characters(action["characters"], state.players)
    else:
        chars = tuple(replace(c, life=c.max_life, tu_at_death=None) for c in state.characters)
    number = state.run.number + 1
    state = replace(state, runs=state.runs.append(Run(number, tu)), tu=tu, turn=0,
                    location=None, location_red=False, tests=(), last_roll=None, abandoned=(),
                    acted=(),  # turn numbers start again: last run's rolls count for nothing
                    run_starts=state.run_starts.append(len(state.log)), run_begun=False)
    state = note(state, "run", f"run {number} starts with {tu} TU")
    return _cast(state, chars)


def _end_run_action(state: State, action: Mapping[str, Any]) -> State:
    outcome = action.get("outcome")
    if outcome not in OUTCOMES:
        raise MalformedAction(f"end_run: 'outcome' must be one of {', '.join(OUTCOMES)}, "
                              f"not {outcome!r}")
    return end_run(state, outcome, str(action.get("reason") or "the group says so"))


def _cast(state: State, chars: tuple[Character, ...]) -> State:
    names = {c.name for c in chars}
    state = replace(state, characters=chars)
    if chars:
        state = note(state, "cast", "characters: " + ", ".join(c.name for c in chars))
    for item in state.items:
        if item.holder is not None and item.holder not in names:
            state = put_item(state, replace(item, holder=None))
            state = note(state, "item", f"{item.name} stays with the group ({item.holder} left)")
    return state


def _set_characters(state: State, action: Mapping[str, Any]) -> State:
    if state.run_begun or state.tests:
        raise RuleError("time_stories.cast_at_start", "Characters change only at the start of "
                        "a run, before anything happens: new ones can come in with the next "
                        "run.")
    return _cast(state, parse_characters(action.get("characters"), state.players))


# ----------------------------------------------------------------- life
def _damage(state: State, action: Mapping[str, Any]) -> State:
    c = living(state, action.get("character"))
    amount = int_field(action, "amount", 1, MAX_LIFE)
    return after_damage(hurt(state, c.name, amount, text_field(action, "reason")))


def _heal(state: State, action: Mapping[str, Any]) -> State:
    c = living(state, action.get("character"))
    amount = int_field(action, "amount", 1, MAX_LIFE)
    if c.life >= c.max_life:
        raise RuleError("time_stories.full_health", "{name} already has full health ({life} "
                        "LP).", name=c.name, life=c.max_life)
    life = min(c.max_life, c.life + amount)
    why = action.get("reason") or "healed"
    return note(put(state, replace(c, life=life)), "heal", f"{c.name} heals to {life} LP ({why})")


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
