"""T.I.M.E Stories: the action-dice tests at the spaces of a location.

The ``test_start``, ``test_roll``, ``test_continue`` and ``test_abandon`` actions (the
engine, ``companion.games.time_stories``, registers them) and what a test's roll is made
of: the characters' dice as their company changes them (``company``, ``dice_for``), the
abilities of their sheets for that characteristic (``ability_modifiers``), the exact odds
(``roll_odds_for``). A roll itself is resolved by ``action_test``.

Another space, another turn: the state keeps where each character rolled in the current
turn (``State.acted``); a character who rolled at one space cannot start or join a test
at another until the group pays a turn (1 TU), which ``new_turn`` on the action does
(the screen's "Stay (1 TU) and start").

The actions change the action's ``Draft`` (see ``model``); the queries read a state or a
draft.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import listed
from companion.games.time_stories import action_test as at
from companion.games.time_stories.action_odds import RollOdds, roll_odds
from companion.games.time_stories.model import (
    Character,
    Draft,
    RollRecord,
    State,
    after_damage,
    character,
    flag_field,
    hurt,
    living,
    note,
    spend,
    text_field,
)


def _alive_in(state: State | Draft, test: at.Test) -> list[Character]:
    """The test's living characters, in the test's order."""
    return [c for c in (character(state, n) for n in test.characters) if not c.dead]


def _in_test(state: State | Draft, test: at.Test) -> tuple[list[Character], str]:
    """The test's living characters (in the group's order) and their ``company``: one
    pass over the group, as every roll and every test asks for both."""
    names = test.characters
    alive: list[Character] = []
    living = 0
    for c in state.characters:
        if c.life > 0:
            living += 1
            if c.name in names:
                alive.append(c)
    n = len(alive)
    return alive, "alone" if n == 1 else "together" if n >= 2 and n == living else ""


def company(state: State | Draft, test: at.Test) -> str:
    """Who a test's characters are with: ``"alone"`` (one character in the space),
    ``"together"`` (every living character of the group shares the space) or ``""``."""
    return _in_test(state, test)[1]


def _abilities_of(alive: list[Character], characteristic: str) -> tuple[int, int]:
    extra = turn = 0
    for c in alive:
        for a in c.abilities:
            if a.characteristic == characteristic:
                extra += a.extra_dice
                turn += a.turn_to_hit
    return extra, turn


def ability_modifiers(state: State | Draft, test: at.Test) -> tuple[int, int]:
    """``(extra_dice, turn_to_hit)`` that the sheets' abilities give this test's
    characteristic (an ability for another characteristic does nothing here)."""
    return _abilities_of(_in_test(state, test)[0], test.characteristic)


def ability_lines(state: State | Draft, test: at.Test) -> list[str]:
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
                out.append(f"{c.name} adds {at.counted(a.extra_dice, 'die', 'dice')}")
    return out


def dice_for(state: State | Draft, test: at.Test, extra_dice: int = 0) -> int:
    """Action dice of a test: its characteristic summed over its living characters, as
    their company changes it, plus their abilities' and ``extra_dice`` (a card's or a
    roll's modifier, possibly negative). Never fewer than 0."""
    alive, with_whom = _in_test(state, test)
    characteristic = test.characteristic
    base = 0
    for c in alive:
        base += c.dice(characteristic, with_whom)
        if c.abilities:
            base += _abilities_of([c], characteristic)[0]
    return max(0, base + extra_dice)


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


# ----------------------------------------------------------------- the test actions
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


def _set_test(d: Draft, index: int, test: at.Test | None) -> None:
    tests = d.tests
    if test is None:
        d.tests = tests[:index] + tests[index + 1:]
    else:
        d.tests = (*tests[:index], test, *tests[index + 1:])


def _acted_elsewhere(state: State | Draft, names: Any, space: str) -> list[tuple[str, str]]:
    """(character, space) for those of ``names`` who rolled at another space this turn."""
    return [(n, where) for n, where, turn in state.acted
            if turn == state.turn and n in names and where != space]


def _another_space(state: State | Draft, names: Any, space: str) -> RuleError | None:
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


def _new_turn(d: Draft, why: str) -> None:
    """The group pays for another turn at this location (1 TU), as a stay would."""
    d.turn += 1
    spend(d, 1, "stay", f"another turn at {d.location or 'this location'}: {why}")


def test_start(d: Draft, action: Mapping[str, Any]) -> None:
    space = text_field(action, "space")
    if any(t.space == space for t in d.tests):
        raise RuleError("time_stories.space_busy", "Space {space} already has a test: finish "
                        "or abandon it first.", space=space)
    if not d.characters:
        raise RuleError("time_stories.no_characters", "This run has no characters: add them "
                        "first.")
    characteristic = text_field(action, "characteristic")
    names = _test_characters(d, action.get("characters"), characteristic, space)
    shields = at.parse_shields(action.get("shields"))
    locked = flag_field(action, "locked")
    if flag_field(action, "new_turn"):
        _new_turn(d, f"{', '.join(names)} at space {space}")
        if not d.running:
            return  # that last time unit ended the run
    elif (space, d.turn) in d.abandoned:
        raise RuleError("time_stories.retry_needs_turn", "The test at space {space} was given "
                        "up this turn: trying it again needs another turn (1 TU).",
                        space=space)
    elif refusal := _another_space(d, names, space):
        raise refusal
    _open_test(d, at.Test(space, characteristic, names, shields, shields, locked, "ready",
                           0, None))


def _open_test(d: Draft, test: at.Test) -> None:
    d.tests = d.tests + (test,)
    lock = ", locked" if test.locked else ""
    note(d, "test", f"test at {test.space}: {test.characteristic} "
         f"({', '.join(test.characters)}), {at.counted(dice_for(d, test), 'die', 'dice')} "
         f"against {at.counted(len(test.shields), 'shield')}{lock}")


def _test_to_roll(d: Draft, action: Mapping[str, Any]) -> tuple[int, at.Test]:
    """The open test the roll is for, which must be waiting for its roll."""
    index, test = _find_test(d, action)
    if test.status != "ready":
        raise RuleError("time_stories.rolled_this_turn", "The test at space {space} was rolled "
                        "this turn: continue or abandon it.", space=test.space)
    return index, test


def test_roll(d: Draft, action: Mapping[str, Any]) -> None:
    index, test = _test_to_roll(d, action)
    extra, turn_to_hit = at.parse_modifiers(action.get("modifiers"))
    faces = action.get("faces")
    if not isinstance(faces, (list, tuple)):
        raise MalformedAction("test_roll needs 'faces': the list of dice rolled")
    dice = dice_for(d, test, extra)
    if len(faces) != dice:
        raise MalformedAction(f"the roll has {len(faces)} faces but the test at {test.space} "
                              f"needs {dice} dice ({dice_for(d, test)} "
                              f"{test.characteristic}, {extra:+d} extra)")
    if turn_to_hit > dice:
        raise RuleError("time_stories.turn_too_many", "{Turn} cannot become hits with {dice} "
                        "rolled.", Turn=at.dice_words(turn_to_hit).capitalize(),
                        dice=at.dice_words(dice))
    _roll(d, index, test, faces, turn_to_hit)


#: Why a character in a test loses life points: (riposte?, black hearts?) -> words.
_LOSS_WHY = {(True, False): "riposte", (False, True): "black hearts",
             (True, True): "riposte and black hearts"}


def _roll(d: Draft, index: int, test: at.Test, faces: list, turn_to_hit: int) -> None:
    """What a roll of ``faces`` does, once ``test_roll`` has checked it fits the test
    (``turn_to_hit``: the dice the roll itself asks to turn into hits)."""
    group = d.characters
    if any(c.abilities for c in group):
        turn_to_hit = _turned(len(faces), turn_to_hit, ability_modifiers(d, test)[1])
    space, turn, names = test.space, d.turn, test.characters
    resistances = [(n, character(d, n).resistance) for n in names]
    out = at.resolve(test.left, faces, resistances, turn_to_hit, d.riposte_on_clear)
    alive = {c.name for c in group if c.life > 0}
    acted = [a for a in d.acted if a[2] == turn]  # who rolled where: this turn only
    for n in names:
        if n in alive and (n, space, turn) not in acted:
            acted.append((n, space, turn))
    d.acted = tuple(acted)
    note(d, "roll", f"roll at {space}, rolled {at.faces_words(faces)}: {at.describe(out)}")
    if out.cleared:
        _set_test(d, index, None)
        note(d, "test", f"test at {space} cleared")
    else:
        _set_test(d, index, at.Test(space, test.characteristic, names, test.shields, out.left,
                                     test.locked, "rolled", test.rolls + 1, turn))
    hurt_any = False
    for loss in out.losses:
        riposte, hearts = loss.riposte, loss.hearts
        if riposte or hearts:
            hurt(d, loss.character, riposte + hearts, _LOSS_WHY[riposte > 0, hearts > 0])
            hurt_any = True
    deaths = tuple(sorted([c.name for c in d.characters if c.life <= 0 and c.name in alive])
                   ) if hurt_any else ()
    d.last_roll = RollRecord(space, test.characteristic, out, deaths)
    after_damage(d)
    if out.tu_cost and d.running:
        spend(d, out.tu_cost, "shields", f"TU shields left at {space}")


def test_continue(d: Draft, action: Mapping[str, Any]) -> None:
    index, test = _find_test(d, action)
    if test.status != "rolled":
        raise RuleError("time_stories.roll_first", "Roll the dice for the test at space {space} "
                        "first.", space=test.space)
    raw = action.get("characters")
    names = test.characters if raw is None else _test_characters(
        d, raw, test.characteristic, test.space)
    staying = [n for n in test.characters if n not in names]
    if test.locked and staying:
        raise RuleError("time_stories.locked_stay", "The test at space {space} is locked: "
                        "{names} must stay in it.", space=test.space, names=listed(staying))
    joined = [n for n in names if n not in test.characters]
    pay = test.rolled_turn == d.turn or flag_field(action, "new_turn")
    if not pay and (refusal := _another_space(d, joined, test.space)):
        raise refusal  # the group paid for this turn, but these rolled elsewhere in it
    _set_test(d, index, replace(test, characters=names, status="ready"))
    if joined:
        note(d, "test", f"{', '.join(joined)} join the test at {test.space}")
    if not pay:
        return  # the group has already paid for this turn
    d.turn += 1
    spend(d, 1, "stay", f"another turn to continue the test at {test.space}")


def test_abandon(d: Draft, action: Mapping[str, Any]) -> None:
    index, test = _find_test(d, action)
    if test.locked:
        raise RuleError("time_stories.locked_abandon", "The test at space {space} is locked: "
                        "it goes on until it is cleared or its characters are dead.",
                        space=test.space)
    _set_test(d, index, None)
    if test.status == "rolled" and test.rolled_turn == d.turn:
        tried = tuple(a for a in d.abandoned if a[1] == d.turn)
        d.abandoned = tried + ((test.space, d.turn),)
    note(d, "test", f"test at {test.space} abandoned: its shields reset")
