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
and the open action-dice tests, resolved by ``action_test``; it knows where each character
rolled in the current turn (another space needs another turn) and applies what the
character sheets say about company and abilities. State records and the time/life
bookkeeping are in ``model``. Every action, its fields, and the rule readings are in
``docs/time-stories.md``.
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
from companion.games.time_stories import action_test as at
from companion.games.time_stories.action_odds import RollOdds, roll_odds
from companion.games.time_stories.model import (
    DEFAULT_TU,
    MAX_LIFE,
    MAX_TU,
    OUTCOMES,
    RED_DEPARTURE_TU,
    Character,
    Item,
    RollRecord,
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

GAME = GameInfo(
    name="time_stories",
    title="T.I.M.E Stories",
    blurb="Captain die, time units",
    order=20,
    screen="companion.ui.screens.time_stories:TimeStoriesScreen",
    players=(1, 4),
    version=2,  # issue 15 changed its rules: History summaries are computed again
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


def _alive_in(state: State, test: at.Test) -> list[Character]:
    return [c for c in (character(state, n) for n in test.characters) if not c.dead]


def company(state: State, test: at.Test) -> str:
    """Who a test's characters are with: ``"alone"`` (one character in the space),
    ``"together"`` (every living character of the group shares the space) or ``""``."""
    alive = _alive_in(state, test)
    everyone = [c for c in state.characters if not c.dead]
    if len(alive) == 1:
        return "alone"
    if len(alive) >= 2 and len(alive) == len(everyone):
        return "together"
    return ""


def ability_modifiers(state: State, test: at.Test) -> tuple[int, int]:
    """``(extra_dice, turn_to_hit)`` that the sheets' abilities give this test's
    characteristic (an ability for another characteristic does nothing here)."""
    found = [a for c in _alive_in(state, test) for a in c.abilities
             if a.characteristic == test.characteristic]
    return sum(a.extra_dice for a in found), sum(a.turn_to_hit for a in found)


def ability_lines(state: State, test: at.Test) -> list[str]:
    """The abilities that apply to this test, in words for the screen."""
    out = []
    for c in _alive_in(state, test):
        for a in c.abilities:
            if a.characteristic != test.characteristic:
                continue
            if a.turn_to_hit:
                n = "one die" if a.turn_to_hit == 1 else f"{a.turn_to_hit} dice"
                out.append(f"{c.name} turns {n} into a hit")
            if a.extra_dice:
                out.append(f"{c.name} adds {a.extra_dice} dice")
    return out


def dice_for(state: State, test: at.Test, extra_dice: int = 0) -> int:
    """Action dice of a test: its characteristic summed over its living characters, as
    their company changes it, plus their abilities' and ``extra_dice`` (a card's or a
    roll's modifier, possibly negative). Never fewer than 0."""
    with_whom = company(state, test)
    base = sum(c.dice(test.characteristic, with_whom) for c in _alive_in(state, test))
    return max(0, base + ability_modifiers(state, test)[0] + extra_dice)


def roll_odds_for(state: State, space: str | None = None, extra_dice: int = 0,
                  turn_to_hit: int = 0) -> RollOdds:
    """Exact odds of the next roll of the open test at ``space`` (may be omitted when
    only one test is open), with the modifiers the players are about to use (the
    characters' own abilities are added)."""
    test = _find_test(state, {} if space is None else {"space": space})[1]
    chars = [character(state, n) for n in test.characters]
    dice = dice_for(state, test, extra_dice)
    return roll_odds(dice, test.left, {c.name: c.resistance for c in chars},
                     {c.name: c.life for c in chars},
                     _turned(dice, turn_to_hit, ability_modifiers(state, test)[1]),
                     state.riposte_on_clear)


def _turned(dice: int, asked: int, from_abilities: int) -> int:
    """Dice turned into hits: those the roll asks for, then the abilities' (an ability
    turns a die only if one is left to turn)."""
    return asked + min(from_abilities, max(0, dice - asked))


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


# ----------------------------------------------------------------- tests
def _find_test(state: State, action: Mapping[str, Any]) -> tuple[int, at.Test]:
    space = action.get("space")
    if space is None:
        if len(state.tests) == 1:
            return 0, state.tests[0]
        if not state.tests:
            raise RuleError("time_stories.no_test", "No test is open: start one first.")
        raise RuleError("time_stories.which_test", "Several tests are open (spaces {spaces}): "
                        "choose one.", spaces=listed(t.space for t in state.tests))
    for i, t in enumerate(state.tests):
        if t.space == space:
            return i, t
    raise RuleError("time_stories.no_test_at", "There is no open test at space {space}.",
                    space=space)


def _test_characters(state: State, raw: Any, characteristic: str, space: str) -> tuple[str, ...]:
    if raw is not None and not isinstance(raw, (list, tuple)):
        raise MalformedAction(f"the characters of a test are a list, not {raw!r}")
    if not raw:
        raise RuleError("time_stories.test_nobody", "Choose who takes part in the test at "
                        "space {space}.", space=space)
    if not all(isinstance(n, str) for n in raw):
        raise MalformedAction(f"characters in the test at {space} are named by strings: "
                              f"{raw!r}")
    if len(set(raw)) != len(raw):
        raise MalformedAction(f"a character is named twice in the test at {space}: {raw!r}")
    for name in raw:
        c = living(state, name)
        at.characteristic_value(c.name, dict(c.characteristics), characteristic)
        busy = [t.space for t in state.tests if t.space != space and name in t.characters]
        if busy:
            raise RuleError("time_stories.in_other_test", "{name} is already in the test at "
                            "space {busy}: finish or abandon that test first.", name=name,
                            busy=busy[0])
    return tuple(raw)


def _set_test(state: State, index: int, test: at.Test | None) -> State:
    rest = state.tests[:index] + state.tests[index + 1:]
    return replace(state, tests=rest if test is None else rest[:index] + (test,) + rest[index:])


def _acted_elsewhere(state: State, names: Any, space: str) -> list[tuple[str, str]]:
    """(character, space) for those of ``names`` who rolled at another space this turn."""
    return [(n, where) for n, where, turn in state.acted
            if turn == state.turn and n in names and where != space]


def _another_space(state: State, names: Any, space: str) -> RuleError | None:
    """The refusal for characters who rolled at another space this turn, if any: the
    rulebook charges the group a turn (1 TU) to interact with more space cards."""
    elsewhere = _acted_elsewhere(state, names, space)
    if not elsewhere:
        return None
    who = listed(dict.fromkeys(n for n, _ in elsewhere))
    return RuleError("time_stories.another_space", "{names} rolled at space {other} this "
                     "turn: space {space} is another turn (1 TU).",
                     names=who, other=listed(dict.fromkeys(w for _, w in elsewhere)),
                     space=space)


def _new_turn(state: State, why: str) -> State:
    """The group pays for another turn at this location (1 TU), as a stay would."""
    state = replace(state, turn=state.turn + 1)
    return spend(state, 1, "stay", f"another turn at {state.location or 'this location'}: "
                 f"{why}")


def _test_start(state: State, action: Mapping[str, Any]) -> State:
    space = text_field(action, "space")
    if any(t.space == space for t in state.tests):
        raise RuleError("time_stories.space_busy", "Space {space} already has a test: finish "
                        "or abandon it first.", space=space)
    if not state.characters:
        raise RuleError("time_stories.no_characters", "This run has no characters: add them "
                        "first.")
    characteristic = text_field(action, "characteristic")
    names = _test_characters(state, action.get("characters"), characteristic, space)
    shields = at.parse_shields(action.get("shields"))
    locked = flag_field(action, "locked")
    if flag_field(action, "new_turn"):
        state = _new_turn(state, f"{', '.join(names)} at space {space}")
        if not state.running:
            return state  # that last time unit ended the run
    elif (space, state.turn) in state.abandoned:
        raise RuleError("time_stories.retry_needs_turn", "The test at space {space} was given "
                        "up this turn: trying it again needs another turn (1 TU).",
                        space=space)
    elif refusal := _another_space(state, names, space):
        raise refusal
    test = at.Test(space, characteristic, names, shields, shields, locked)
    state = replace(state, tests=state.tests + (test,))
    lock = ", locked" if test.locked else ""
    return note(state, "test", f"test at {space}: {characteristic} ({', '.join(names)}), "
                f"{dice_for(state, test)} dice against {len(shields)} shields{lock}")


def _test_roll(state: State, action: Mapping[str, Any]) -> State:
    index, test = _find_test(state, action)
    if test.status != "ready":
        raise RuleError("time_stories.rolled_this_turn", "The test at space {space} was rolled "
                        "this turn: continue or abandon it.", space=test.space)
    extra, turn_to_hit = at.parse_modifiers(action.get("modifiers"))
    faces = action.get("faces")
    if not isinstance(faces, (list, tuple)):
        raise MalformedAction("test_roll needs 'faces': the list of dice rolled")
    dice = dice_for(state, test, extra)
    if len(faces) != dice:
        raise MalformedAction(f"the roll has {len(faces)} faces but the test at {test.space} "
                              f"needs {dice} dice ({dice_for(state, test)} "
                              f"{test.characteristic}, {extra:+d} extra)")
    if turn_to_hit > dice:
        raise RuleError("time_stories.turn_too_many", "{Turn} cannot become hits with {dice} "
                        "rolled.", Turn=at.dice_words(turn_to_hit).capitalize(),
                        dice=at.dice_words(dice))
    turn_to_hit = _turned(dice, turn_to_hit, ability_modifiers(state, test)[1])
    resistances = [(n, character(state, n).resistance) for n in test.characters]
    out = at.resolve(test.left, list(faces), resistances, turn_to_hit, state.riposte_on_clear)
    alive = {c.name for c in state.characters if not c.dead}
    acted = tuple(a for a in state.acted if a[2] == state.turn)
    acted += tuple((n, test.space, state.turn) for n in test.characters
                   if n in alive and (n, test.space, state.turn) not in acted)
    state = replace(state, acted=acted)
    state = note(state, "roll", f"roll at {test.space}, faces {list(faces)}: {at.describe(out)}")
    if out.cleared:
        state = _set_test(state, index, None)
        state = note(state, "test", f"test at {test.space} cleared")
    else:
        state = _set_test(state, index, replace(test, left=out.left, status="rolled",
                                                rolls=test.rolls + 1, rolled_turn=state.turn))
    for loss in out.losses:
        if loss.total:
            why = " and ".join(p for p, n in (("riposte", loss.riposte), ("black hearts",
                                                                         loss.hearts)) if n)
            state = hurt(state, loss.character, loss.total, why)
    deaths = tuple(sorted(n for n in alive if character(state, n).dead))
    state = replace(state, last_roll=RollRecord(test.space, test.characteristic, out, deaths))
    state = after_damage(state)
    if state.running and out.tu_cost:
        state = spend(state, out.tu_cost, "shields", f"TU shields left at {test.space}")
    return state


def _test_continue(state: State, action: Mapping[str, Any]) -> State:
    index, test = _find_test(state, action)
    if test.status != "rolled":
        raise RuleError("time_stories.roll_first", "Roll the dice for the test at space {space} "
                        "first.", space=test.space)
    raw = action.get("characters")
    names = test.characters if raw is None else _test_characters(
        state, raw, test.characteristic, test.space)
    staying = [n for n in test.characters if n not in names]
    if test.locked and staying:
        raise RuleError("time_stories.locked_stay", "The test at space {space} is locked: "
                        "{names} must stay in it.", space=test.space, names=listed(staying))
    joined = [n for n in names if n not in test.characters]
    pay = test.rolled_turn == state.turn or flag_field(action, "new_turn")
    if not pay and (refusal := _another_space(state, joined, test.space)):
        raise refusal  # the group paid for this turn, but these rolled elsewhere in it
    state = _set_test(state, index, replace(test, characters=names, status="ready"))
    if joined:
        state = note(state, "test", f"{', '.join(joined)} join the test at {test.space}")
    if not pay:
        return state  # the group has already paid for this turn
    state = replace(state, turn=state.turn + 1)
    return spend(state, 1, "stay", f"another turn to continue the test at {test.space}")


def _test_abandon(state: State, action: Mapping[str, Any]) -> State:
    index, test = _find_test(state, action)
    if test.locked:
        raise RuleError("time_stories.locked_abandon", "The test at space {space} is locked: "
                        "it goes on until it is cleared or its characters are dead.",
                        space=test.space)
    state = _set_test(state, index, None)
    if test.status == "rolled" and test.rolled_turn == state.turn:
        tried = tuple(a for a in state.abandoned if a[1] == state.turn)
        state = replace(state, abandoned=tried + ((test.space, state.turn),))
    return note(state, "test", f"test at {test.space} abandoned: its shields reset")


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
    "test_start": _test_start,
    "test_roll": _test_roll,
    "test_continue": _test_continue,
    "test_abandon": _test_abandon,
}
