"""T.I.M.E Stories engine, part 1: state records and the bookkeeping of time, life, items.

``companion.games.time_stories`` (the engine module the registry and the session use)
holds the action handlers and imports everything from here; nothing else should need
this module. What lives here:

* the frozen records: ``State``, ``Run``, ``Item``, ``LogEntry``, ``RollRecord`` (the
  character sheets are in ``sheets``, open tests are ``action_test.Test``);
* ``Draft``: how one action builds its new state. ``draft(state)`` is a private,
  writable copy of the state's fields; the handlers and the helpers below change it in
  place, and ``freeze(draft)`` makes the new frozen ``State`` from it. So an action
  makes one new state however many lines it logs, and the state passed in is never
  touched (a refused action simply drops its draft);
* ``spend``: the only way TU leave the tracker. It stops at 0 and logs the real
  amount, brings back characters whose revival time has come, and ends the run as
  ``failed_time`` at 0;
* ``hurt`` / ``after_damage``: life-point loss, death (with the TU at death), dead
  characters leaving their tests, and ``failed_deaths`` when nobody is left;
* ``end_run``: records the outcome; on failure, items without the T.I.M.E Agency logo
  go back to the deck;
* the item actions (``gain_item``, ``give_item``, ``drop_item``), registered by the
  engine module;
* field readers: a missing or mistyped key is a ``MalformedAction``; an empty name or a
  number out of range a ``RuleError`` whose sentence says what the field is.

The helpers that change things (``note``, ``put``, ``spend``, ``hurt``, ``after_damage``,
``end_run``, the item actions) take a ``Draft`` and return nothing; the readers
(``character``, ``living``, the queries of ``spaces``) take either a state or a draft.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from companion.errors import MalformedAction, RuleError
from companion.games.base import Player, listed, require
from companion.games.pvec import EMPTY, PVec
from companion.games.time_stories import action_test as at
from companion.games.time_stories.sheets import (  # noqa: F401 - re-exported
    MAX_CHARACTERS,
    MAX_LIFE,
    REVIVAL_TU,
    Ability,
    Character,
    parse_characters,
)

DEFAULT_TU = 25
MAX_TU = 200
RED_DEPARTURE_TU = 2
OUTCOMES = ("successful", "failed_time", "failed_deaths")
#: Log lines that do not begin a run: characters may still be chosen after them.
QUIET_KINDS = ("run", "cast", "item")
_OUTCOME_TEXT = {
    "successful": "mission successful",
    "failed_time": "mission failed: time ran out",
    "failed_deaths": "mission failed: every character is dead",
}


@dataclass(frozen=True, slots=True)
class Item:
    name: str
    holder: str | None  # a character's name, or None: with the group
    agency: bool = False


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the run log. ``amount`` is the TU really spent (negative: given back),
    ``asked`` what the rule asked for before the tracker stopped at 0; 0 for notes."""

    run: int
    turn: int
    tu_before: int
    tu_after: int
    amount: int
    asked: int
    kind: str
    reason: str

    @property
    def text(self) -> str:
        head = f"run {self.run}, turn {self.turn}: {self.reason}"
        if not self.amount and not self.asked:
            return head
        out = f"{head}: {self.tu_before} -> {self.tu_after} TU"
        return out + (f" (asked {self.asked})" if self.asked != self.amount else "")


@dataclass(frozen=True, slots=True)
class Run:
    number: int
    starting_tu: int
    outcome: str | None = None


@dataclass(frozen=True, slots=True)
class RollRecord:
    """The last roll, kept so the screen can tell each character what they lost."""

    space: str
    characteristic: str
    outcome: at.RollOutcome
    deaths: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class State:
    """The mission so far. ``runs``, ``log`` and ``run_starts`` grow all night, so they
    are ``PVec``s (adding a line copies nothing). ``run_starts[k]`` is where run k + 1's
    lines begin in ``log``; ``run_begun`` says the current run has more than quiet lines
    (``QUIET_KINDS``): time, damage or a test, after which characters are fixed."""

    players: tuple[Player, ...]
    mission: str
    default_tu: int
    riposte_on_clear: bool
    runs: PVec
    tu: int
    turn: int = 0
    location: str | None = None
    location_red: bool = False
    characters: tuple[Character, ...] = ()
    items: tuple[Item, ...] = ()
    tests: tuple[at.Test, ...] = ()
    last_roll: RollRecord | None = None
    log: PVec = EMPTY
    #: (space, turn) of tests abandoned after a roll in that turn: trying one again
    #: needs a new turn, as continuing it would.
    abandoned: tuple[tuple[str, int], ...] = ()
    run_starts: PVec = EMPTY
    run_begun: bool = False
    #: (character, space, turn) for every character that rolled at a space in the
    #: current turn (older turns are dropped): another space needs another turn.
    acted: tuple[tuple[str, str, int], ...] = ()

    @property
    def run(self) -> Run:
        return self.runs[-1]

    @property
    def running(self) -> bool:
        return self.run.outcome is None


_FIELDS = tuple(f.name for f in fields(State))  # a State's fields, in order


# ----------------------------------------------------------------- one action's draft
class Draft:
    """A writable copy of a ``State``'s fields, private to one action (see the module
    docstring). ``run`` and ``running`` read as they do on a state."""

    __slots__ = _FIELDS

    @property
    def run(self) -> Run:
        return self.runs[-1]

    @property
    def running(self) -> bool:
        return self.runs[-1].outcome is None


def draft(state: State) -> Draft:
    """The writable copy one action changes (the state is left as it is)."""
    d = Draft()
    for name in _FIELDS:
        setattr(d, name, getattr(state, name))
    return d


def freeze(d: Draft) -> State:
    """The finished draft as the action's new, frozen ``State``."""
    return State(*[getattr(d, name) for name in _FIELDS])




# ----------------------------------------------------------------- small helpers
#: what a field of an action is, for the sentence that asks for it or bounds it
FIELD_WORDS = {
    "space": "the space of the test",
    "characteristic": "the characteristic the test uses",
    "reason": "a reason",
    "item": "the item's name",
    "character": "a character",
    "delta": "a correction",
    "amount": "the amount",
    "starting_tu": "the starting time units",
}


def text_field(action: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = action.get(key, default)
    if value.__class__ is str and (text := value.strip()):
        return text  # the usual case first; anything else is checked below
    if value is not None and not isinstance(value, str):
        raise MalformedAction(f"action '{action.get('type')}': '{key}' must be text, "
                              f"not {value!r}")
    if value is None or not value.strip():
        raise RuleError("time_stories.missing", "Choose {what} first.",
                        what=FIELD_WORDS.get(key, key.replace("_", " ")))
    return value.strip()


def int_field(action: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = action.get(key)
    if value.__class__ is int and lo <= value <= hi:
        return value  # the usual case first; anything else is checked below
    value = require(action, key, int)
    if not lo <= value <= hi:
        raise RuleError("time_stories.out_of_range", "{What} must be {lo} to {hi}, not "
                        "{value}.", What=_cap(FIELD_WORDS.get(key, key.replace("_", " "))),
                        lo=lo, hi=hi, value=value)
    return value


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def flag_field(action: Mapping[str, Any], key: str) -> bool:
    value = action.get(key, False)
    if value is False or value is True:
        return value
    if not isinstance(value, bool):
        raise MalformedAction(f"action '{action.get('type')}': '{key}' must be true or false")
    return value


def character(state: State | Draft, name: str) -> Character:
    for c in state.characters:
        if c.name == name:
            return c
    if not state.characters:
        raise RuleError("time_stories.no_characters", "This run has no characters: add them "
                        "first.")
    raise RuleError("time_stories.no_such_character", "There is no character called {name} "
                    "in this run (characters: {known}).", name=name,
                    known=listed(c.name for c in state.characters))


def living(state: State | Draft, name: Any) -> Character:
    if name is None:
        raise RuleError("time_stories.missing", "Choose {what} first.", what="a character")
    if not isinstance(name, str):
        raise MalformedAction(f"a character is named by a string, not {name!r}")
    c = character(state, name)
    if c.life <= 0:  # dead
        raise RuleError("time_stories.dead", "{name} is dead and {back}.", name=name,
                        back=f"comes back at {c.revives_at} TU" if c.revives_at
                        else "cannot come back in this run")
    return c


def put(d: Draft, new: Character) -> None:
    name = new.name
    d.characters = tuple([new if c.name == name else c for c in d.characters])


def note(d: Draft, kind: str, reason: str, before: int | None = None,
         asked: int | None = None) -> None:
    """Append a log line; with ``before``, the line records a change of TU."""
    tu = d.tu
    tu0 = tu if before is None else before
    spent = tu0 - tu
    # len(runs) is the current run's number: runs are numbered 1, 2, ... as they start
    d.log = d.log.append(LogEntry(len(d.runs), d.turn, tu0, tu, spent,
                                   spent if asked is None else asked, kind, reason))
    if not d.run_begun and kind not in QUIET_KINDS:
        d.run_begun = True


# ----------------------------------------------------------------- time, life, runs
def end_run(d: Draft, outcome: str, why: str) -> None:
    run = replace(d.runs[-1], outcome=outcome)
    d.runs = d.runs.set(-1, run)
    d.tests = ()
    note(d, "run", f"run {run.number} ends, {_OUTCOME_TEXT[outcome]} ({why})")
    if outcome != "successful":
        back = [i.name for i in d.items if not i.agency]
        if back:
            d.items = tuple(i for i in d.items if i.agency)
            note(d, "item", "back to the item deck: " + ", ".join(back))


def spend(d: Draft, asked: int, kind: str, reason: str) -> None:
    """Take ``asked`` TU off the tracker (never below 0), log it, revive, end at 0."""
    before = d.tu
    d.tu = tu = max(0, before - asked)
    note(d, kind, reason, before, asked)
    if tu == 0:
        end_run(d, "failed_time", "no time units left")
        return
    for c in d.characters:
        if c.life <= 0 and (back := c.revives_at) is not None and tu <= back:
            put(d, replace(c, life=c.max_life, tu_at_death=None))
            note(d, "revival", f"{c.name} comes back at full health "
                 f"({c.max_life} LP; died at {c.tu_at_death} TU)")


def hurt(d: Draft, name: str, amount: int, reason: str) -> None:
    c = character(d, name)
    life = max(0, c.life - amount)
    hurt_c = replace(c, life=life, tu_at_death=d.tu if life == 0 else None)
    d.characters = tuple([hurt_c if x is c else x for x in d.characters])
    note(d, "damage", f"{name} loses {c.life - life} LP ({reason}): {life} LP left")
    if life == 0:
        back = hurt_c.revives_at
        when = f"comes back at {back} TU" if back else "cannot come back in this run"
        note(d, "death", f"{name} dies at {d.tu} TU and {when}")


def after_damage(d: Draft) -> None:
    """Take the dead out of their tests; a run with every character dead has failed."""
    dead = {c.name for c in d.characters if c.life <= 0}
    if not dead:
        return
    if d.tests:
        tests = []
        for t in d.tests:
            alive = tuple(n for n in t.characters if n not in dead)
            if len(alive) == len(t.characters):
                tests.append(t)
            elif alive:
                tests.append(replace(t, characters=alive))
            else:
                note(d, "test", f"test at {t.space} ends: its characters are dead")
        d.tests = tuple(tests)
    if len(dead) == len(d.characters):
        end_run(d, "failed_deaths", "every character is dead")


# ----------------------------------------------------------------- items
def item_named(state: State | Draft, name: Any) -> Item:
    for i in state.items:
        if i.name == name:
            return i
    if name is None or name == "":
        raise RuleError("time_stories.missing", "Choose {what} first.", what="an item")
    raise RuleError("time_stories.no_such_item", "The group has no item called {item}.",
                    item=name)


def put_item(d: Draft, new: Item) -> None:
    d.items = tuple(new if i.name == new.name else i for i in d.items)


def holder_field(state: State | Draft, action: Mapping[str, Any], key: str) -> str | None:
    if key not in action:
        raise MalformedAction(f"action '{action['type']}' needs '{key}': a character, or "
                              "null for the group")
    return None if action[key] is None else living(state, action[key]).name


def gain_item(d: Draft, action: Mapping[str, Any]) -> None:
    """An item card enters play; between runs (a MISSION FAILED card's items) it goes
    to the group, as nobody has a receptacle until the next run starts."""
    name = text_field(action, "item")
    if any(i.name.lower() == name.lower() for i in d.items):
        raise RuleError("time_stories.item_twice", "The group already has {item}.", item=name)
    if not d.running and action.get("holder") is not None:
        raise RuleError("time_stories.item_between_runs", "Between runs an item goes to the "
                        "group: hand it to a character once run {next} starts.",
                        next=d.run.number + 1)
    holder = holder_field(d, {"holder": None} | dict(action), "holder")
    agency = flag_field(action, "agency")
    d.items = d.items + (Item(name, holder, agency),)
    kind = " (T.I.M.E Agency: kept between runs)" if agency else ""
    when = "" if d.running else f", for run {d.run.number + 1}"
    note(d, "item", f"{holder or 'the group'} gains {name}{kind}{when}")


def give_item(d: Draft, action: Mapping[str, Any]) -> None:
    item = item_named(d, action.get("item"))
    to = holder_field(d, action, "to")
    if to == item.holder:
        raise RuleError("time_stories.holds_already", "{Holder} already holds {item}.",
                        Holder=to or "The group", item=item.name)
    put_item(d, replace(item, holder=to))
    note(d, "item", f"{item.name}: {item.holder or 'the group'} -> {to or 'the group'}")


def drop_item(d: Draft, action: Mapping[str, Any]) -> None:
    item = item_named(d, action.get("item"))
    d.items = tuple(i for i in d.items if i.name != item.name)
    note(d, "item", f"{item.name} leaves play ({action.get('reason') or 'dropped'})")
